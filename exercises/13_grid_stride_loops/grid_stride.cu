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
  //   1. Compute the thread's global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. If i < n, write out[i] = x[i] + y[i].
  // END TODO(student)
}

__global__ void square_kernel(const float* a, float* out, int n) {
  // TODO(student): one element per thread, as in add_kernel.
  //   If i < n, write out[i] = a[i] * a[i].
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: a grid-stride loop, four floats per access
// ---------------------------------------------------------------------------
// [slide:hypot_stride]
__global__ void hypot_stride(const float* a, const float* b, float* c, int n) {
  // TODO(student): a grid-stride loop over float4 vectors, then over the last elements.
  //   First the grid-stride loop, one element per step:
  //   1. Start i at the thread's global index, start = blockIdx.x * blockDim.x + threadIdx.x.
  //   2. While i < n, write c[i] = hypotf(a[i], b[i]).
  //   3. Step i by the number of threads in the whole grid, stride = gridDim.x * blockDim.x.
  //   Once the check's hypot cases pass, four floats per access (README.md, "Four floats
  //   per access"):
  // [slide:hypot-float4-steps]
  //   4. Before that loop, if a, b and c are all 16-byte aligned (course::is_float4_aligned
  //      of each), run the same grid-stride loop over the n / course::kFloatsPerFloat4
  //      float4 vectors: vector v from start, by stride, while v < n / 4. Read the vectors
  //      a4[v] and b4[v] (a4 is a reinterpreted as a const float4*, and so on), and write
  //      c4[v] = make_float4 of the hypotf of their x, y, z and w lanes.
  //   5. The loop of steps 1-3 then starts at 4 * (n / 4) + start: it does the last n % 4
  //      elements. When a pointer is not aligned, it starts at start and does every element.
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
int blocks_to_cover(int n, int threads_per_block) {
  // TODO(student): the blocks that cover n, rounded up.
  //   Return ceil(n / threads_per_block), computed in integer arithmetic.
  return 0;
  // END TODO(student)
}

// [slide:add_on_device]
void add_on_device(const int* x, const int* y, int* out, int n) {
  // TODO(student): one thread per element, enough blocks to cover n.
  //   1. When n == 0, launch nothing: a grid of zero blocks is an error.
  //   2. Launch add_kernel on blocks_to_cover(n, kElementwiseThreadsPerBlock) blocks of
  //      kElementwiseThreadsPerBlock threads.
  //   3. Then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}
// [/slide]

void square_on_device(const float* a, float* out, int n) {
  // TODO(student): one thread per element, as in add_on_device.
  //   The same three steps, for square_kernel.
  // END TODO(student)
}

int occupancy_grid_blocks(int threads_per_block) {
  int blocks = 0;
  // TODO(student): the blocks the whole GPU holds at once.
  //   1. Ask cudaOccupancyMaxActiveBlocksPerMultiprocessor how many blocks of
  //      threads_per_block threads of hypot_stride one multiprocessor holds, with 0 bytes
  //      of dynamic shared memory.
  //   2. Read the multiprocessor count of the current device: cudaGetDevice, then
  //      cudaDeviceGetAttribute with cudaDevAttrMultiProcessorCount.
  //   3. Set blocks to their product.
  // Wrap every call in CUDA_CHECK(...).
  // END TODO(student)
  return blocks;
}

void hypot_on_device(const float* a, const float* b, float* c, int n) {
  // TODO(student): a grid that fills the GPU, whatever n.
  //   1. Launch hypot_stride on occupancy_grid_blocks(kHypotThreadsPerBlock) blocks of
  //      kHypotThreadsPerBlock threads.
  //   2. Then CUDA_CHECK_LAUNCH().
  // The grid does not depend on n: the loop covers whatever the grid does not.
  // END TODO(student)
}
