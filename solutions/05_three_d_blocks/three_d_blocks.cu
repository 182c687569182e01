// Exercise 05 - 3D blocks: one update of a 3D grid by a 7-point stencil (one explicit
// step of heat diffusion), computed three ways: a serial triple loop, the same loop
// shared among CPU threads with OpenMP (a "loop workshare"), and a kernel launched on
// 3D blocks of threads, one thread per point.
//
// A kernel's threads are numbered in up to three dimensions, and the .x index is the
// fastest: the 32 threads of a warp have consecutive threadIdx.x. When those threads
// also read consecutive x, which is consecutive in memory, the warp's 32 reads merge
// into a few wide transactions (coalescing); when they do not, each read costs a
// transaction of its own. The demo sweeps the block shape and the number of CPU threads
// to show both effects and to answer: how many CPU cores does it take to match the GPU?
//
// Build and run:  make 05 && make run-05
// Check:          make check-05   (statement: exercises/05_three_d_blocks/README.md)
#include "course/errors.hpp"
#include "course/timers.hpp"
#include "three_d_blocks.hpp"

// ---------------------------------------------------------------------------
// The update of one point, compiled for both sides (__host__ __device__)
// ---------------------------------------------------------------------------
__host__ __device__ float stencil_point(const float* in, int x, int y, int z, int nx, int ny,
                                        int nz) {
  float neighbours = 0.0f;
  float center = 0.0f;
  // TODO(student): the point and its neighbours, in two steps.
  const int plane = nx * ny;
  const int i = (z * ny + y) * nx + x;
  center = in[i];
  // Each test looks at one coordinate: testing the linear index instead would take the
  // last point of the previous row as the left neighbour of a row's first point.
  if (x > 0) neighbours += in[i - 1];
  if (x + 1 < nx) neighbours += in[i + 1];
  if (y > 0) neighbours += in[i - nx];
  if (y + 1 < ny) neighbours += in[i + nx];
  if (z > 0) neighbours += in[i - plane];
  if (z + 1 < nz) neighbours += in[i + plane];
  // END TODO(student)
  return kCenterWeight * center + kNeighbourWeight * neighbours;
}

// ---------------------------------------------------------------------------
// CPU, serial: one point after the other, x innermost (consecutive in memory)
// ---------------------------------------------------------------------------
void stencil_serial(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): the triple loop, one point after the other.
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        out[(z * ny + y) * nx + x] = stencil_point(in, x, y, z, nx, ny, nz);
      }
    }
  }
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// CPU, OpenMP: the same loop, its iterations shared among the threads
// ---------------------------------------------------------------------------
// [slide:openmp-loop]
void stencil_openmp(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): the same loop, shared among the threads.
#pragma omp parallel for collapse(2) schedule(static)
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        out[(z * ny + y) * nx + x] = stencil_point(in, x, y, z, nx, ny, nz);
      }
    }
  }
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: one thread per point, on 3D blocks
// ---------------------------------------------------------------------------
// [slide:stencil-kernel]
__global__ void stencil_kernel(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): one thread per point, in two steps.
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    out[(z * ny + y) * nx + x] = stencil_point(in, x, y, z, nx, ny, nz);
  }
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launcher: the round trip, with the kernel timed on its own
// ---------------------------------------------------------------------------
// [slide:stencil_on_gpu]
float stencil_on_gpu(const float* host_in, float* host_out, int nx, int ny, int nz, dim3 block) {
  float kernel_ms = 0.0f;
  // TODO(student): the round trip, with the kernel timed, in five steps.
  const std::size_t points = three_d_blocks::point_count(nx, ny, nz);
  if (points == 0) return kernel_ms;
  const std::size_t bytes = points * sizeof(float);
  float* device_in = nullptr;
  float* device_out = nullptr;
  CUDA_CHECK(cudaMalloc(&device_in, bytes));
  CUDA_CHECK(cudaMalloc(&device_out, bytes));
  CUDA_CHECK(cudaMemcpy(device_in, host_in, bytes, cudaMemcpyHostToDevice));

  // [slide:launch-3d]
  // Rounded up in each dimension: 37 points in x need 2 blocks of 32, not 1.
  const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y,
                  (nz + block.z - 1) / block.z);
  course::EventTimer kernel_timer;
  kernel_timer.start();
  stencil_kernel<<<grid, block>>>(device_in, device_out, nx, ny, nz);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  kernel_timer.stop();
  kernel_ms = kernel_timer.elapsed_ms();

  CUDA_CHECK(cudaMemcpy(host_out, device_out, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_in));
  CUDA_CHECK(cudaFree(device_out));
  // END TODO(student)
  return kernel_ms;
}
// [/slide]
