// Exercise 13 - launch configuration and grid-stride loops: two kernels with one
// thread per element (add, square) and their launchers, a grid-stride kernel (hypot)
// that is right with any grid, and a grid sized with the occupancy API.
//
// A one-thread-per-element kernel ties the grid to the data: too few threads leave
// elements unwritten, too many write past the end unless every thread checks its
// index. A grid-stride loop unties them: a grid that just fills the GPU (the
// occupancy API says how many blocks that is) covers any n, however large. Its loop
// then moves four floats per access (float4) where the arrays allow it: the same
// loads in flight carry four times the bytes (course/float4.hpp).
//
// Build and run:  make 13 && make run-13
// Check:          make check-13   (statement: exercises/13_grid_stride_loops/README.md)
#include <cmath>

#include "course/errors.hpp"
#include "course/float4.hpp"
#include "grid_stride.hpp"

// ---------------------------------------------------------------------------
// Kernels: one thread per element
// ---------------------------------------------------------------------------
__global__ void add_kernel(const int* x, const int* y, int* out, int n) {
  // TODO(student): one element per thread.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = x[i] + y[i];
  }
  // END TODO(student)
}

__global__ void square_kernel(const float* a, float* out, int n) {
  // TODO(student): one element per thread, as in add_kernel.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = a[i] * a[i];
  }
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: a grid-stride loop, four floats per access
// ---------------------------------------------------------------------------
// [slide:hypot_stride]
__global__ void hypot_stride(const float* a, const float* b, float* c, int n) {
  // TODO(student): a grid-stride loop over float4 vectors, then over the last elements.
  // [slide:hypot-stride]
  const int start = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.x * blockDim.x;
  int scalar_first = 0;  // the first element left to the scalar loop below
  // [slide:hypot-float4]
  if (course::is_float4_aligned(a) && course::is_float4_aligned(b) &&
      course::is_float4_aligned(c)) {
    const int vectors = n / course::kFloatsPerFloat4;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    for (int v = start; v < vectors; v += stride) {
      const float4 x = a4[v], y = b4[v];
      c4[v] = make_float4(hypotf(x.x, y.x), hypotf(x.y, y.y),  // x and y, then z and w
                          hypotf(x.z, y.z), hypotf(x.w, y.w));
    }
    scalar_first = vectors * course::kFloatsPerFloat4;
  }
  // [/slide]
  for (int i = scalar_first + start; i < n; i += stride) {
    c[i] = hypotf(a[i], b[i]);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
int blocks_to_cover(int n, int threads_per_block) {
  // TODO(student): the blocks that cover n, rounded up.
  return (n + threads_per_block - 1) / threads_per_block;
  // END TODO(student)
}

// [slide:add_on_device]
void add_on_device(const int* x, const int* y, int* out, int n) {
  // TODO(student): one thread per element, enough blocks to cover n.
  // [slide:add-launch]
  if (n == 0) return;
  const int blocks = blocks_to_cover(n, kElementwiseThreadsPerBlock);
  add_kernel<<<blocks, kElementwiseThreadsPerBlock>>>(x, y, out, n);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
// [/slide]

void square_on_device(const float* a, float* out, int n) {
  // TODO(student): one thread per element, as in add_on_device.
  if (n == 0) return;
  const int blocks = blocks_to_cover(n, kElementwiseThreadsPerBlock);
  square_kernel<<<blocks, kElementwiseThreadsPerBlock>>>(a, out, n);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

int occupancy_grid_blocks(int threads_per_block) {
  int blocks = 0;
  // TODO(student): the blocks the whole GPU holds at once.
  int blocks_per_multiprocessor = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, hypot_stride,
                                                           threads_per_block, 0));
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int multiprocessors = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  blocks = blocks_per_multiprocessor * multiprocessors;
  // END TODO(student)
  return blocks;
}

void hypot_on_device(const float* a, const float* b, float* c, int n) {
  // TODO(student): a grid that fills the GPU, whatever n.
  const int blocks = occupancy_grid_blocks(kHypotThreadsPerBlock);
  hypot_stride<<<blocks, kHypotThreadsPerBlock>>>(a, b, c, n);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
