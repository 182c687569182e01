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
  //   1. The element of (x, y, z) is i = (z * ny + y) * nx + x (x fastest). Set
  //      center = in[i].
  //   2. Add to neighbours each of the 6 neighbours that lies inside the grid: x - 1 and
  //      x + 1 (one element away), y - 1 and y + 1 (one row, nx elements, away), z - 1
  //      and z + 1 (one plane, nx * ny elements, away). Test each coordinate against its
  //      own size (x > 0, x + 1 < nx, ...): a neighbour outside the grid counts as 0 and
  //      is never read.
  // END TODO(student)
  return kCenterWeight * center + kNeighbourWeight * neighbours;
}

// ---------------------------------------------------------------------------
// CPU, serial: one point after the other, x innermost (consecutive in memory)
// ---------------------------------------------------------------------------
void stencil_serial(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): the triple loop, one point after the other.
  //   Loop over z outermost and x innermost (consecutive in memory), and write
  //   out[(z * ny + y) * nx + x] = stencil_point(in, x, y, z, nx, ny, nz).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// CPU, OpenMP: the same loop, its iterations shared among the threads
// ---------------------------------------------------------------------------
// [slide:openmp-loop]
void stencil_openmp(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): the same loop, shared among the threads.
  //   1. Put the triple loop under `#pragma omp parallel for`, either over z alone or
  //      with collapse(2) over z and y (then even a grid with few planes gives every
  //      thread work).
  //   2. Make every variable an iteration writes private to its thread: declare it
  //      inside the loop, and compute each index from x, y and z. A counter carried
  //      from one iteration to the next (out[i++]) is a race once the iterations are
  //      shared.
  // The number of threads is the caller's choice (omp_set_num_threads): do not set it.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: one thread per point, on 3D blocks
// ---------------------------------------------------------------------------
// [slide:stencil-kernel]
__global__ void stencil_kernel(const float* in, float* out, int nx, int ny, int nz) {
  // TODO(student): one thread per point, in two steps.
  //   1. This thread's point: x from the .x components of blockIdx, blockDim and
  //      threadIdx, y from the .y ones, z from the .z ones.
  //   2. Blocks at the far side of the grid stick out in every dimension: write
  //      out[(z * ny + y) * nx + x] = stencil_point(...) only when x < nx, y < ny and
  //      z < nz.
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
  // [slide:stencil-on-gpu-steps]
  //   1. When the grid has no point (nx, ny or nz is 0), return 0 at once: a launch grid
  //      with a dimension 0 is an error.
  //   2. Allocate two device buffers of nx * ny * nz floats. Copy host_in into the first.
  //   3. Compute the dim3 grid: in each dimension, enough blocks of the given shape to
  //      cover the points, rounded up (ceil(nx / block.x), ...).
  //   4. Launch stencil_kernel on that grid of blocks of shape `block` (the shape you
  //      are given: the demo compares shapes). Time it with a course::EventTimer as in
  //      exercise 04: start(), launch, CUDA_CHECK_LAUNCH(), stop(), elapsed_ms().
  //   5. Copy the second buffer back into host_out. Free both buffers.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // [/slide]
  // END TODO(student)
  return kernel_ms;
}
// [/slide]
