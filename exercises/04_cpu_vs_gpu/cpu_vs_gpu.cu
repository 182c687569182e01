// Exercise 04 - CPU vs GPU: the same heavy elementwise function, y[i] = heavy(x[i]),
// computed by a loop on the CPU and by a kernel on the GPU, for any n, and timed.
//
// A kernel that does little per element is bound by memory traffic; one that does a
// lot of arithmetic per element (here 24 divisions, sines, exponentials and square
// roots) is where the GPU's thousands of cores pay off. Timing it right means timing
// the kernel alone, with CUDA events, because a launch returns before the kernel ends.
//
// Build and run:  make 04 && make run-04
// Check:          make check-04   (statement: exercises/04_cpu_vs_gpu/README.md)
#include <cmath>

#include "course/errors.hpp"
#include "course/timers.hpp"
#include "cpu_vs_gpu.hpp"

// ---------------------------------------------------------------------------
// The computation, compiled for both sides (__host__ __device__)
// ---------------------------------------------------------------------------
// [slide:heavy-function]
__host__ __device__ float heavy(float x) {
  float sum = 0.0f;
  // TODO(student): the sum of kHeavyTerms terms.
  //   For k = 1 .. kHeavyTerms, add to sum the term g(x / k) of the formula in
  //   cpu_vs_gpu.hpp. Use the float functions sinf, expf and sqrtf: they exist on both
  //   sides, and float is what the GPU computes fastest.
  // END TODO(student)
  return sum;
}
// [/slide]

// ---------------------------------------------------------------------------
// CPU version: one core, one element after the other
// ---------------------------------------------------------------------------
void heavy_on_cpu(const float* x, float* y, int n) {
  // TODO(student): y[i] = heavy(x[i]) for every i from 0 to n - 1.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: one thread per element
// ---------------------------------------------------------------------------
__global__ void heavy_kernel(const float* x, float* y, int n) {
  // TODO(student): one element per thread.
  //   1. Compute this thread's global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //      The block size is whatever the launch chose: read it from blockDim.x.
  //   2. If i < n, write y[i] = heavy(x[i]).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launcher: the round trip, with the kernel timed on its own
// ---------------------------------------------------------------------------
// [slide:heavy_on_gpu]
float heavy_on_gpu(const float* host_x, float* host_y, int n, int threads_per_block) {
  float kernel_ms = 0.0f;
  // TODO(student): the round trip, with the kernel timed, in five steps.
  // [slide:heavy-on-gpu-steps]
  //   1. When n == 0, return 0 at once: there is nothing to compute, and a grid of zero
  //      blocks is an error.
  //   2. Allocate two device buffers of n floats. Copy host_x into the first.
  //   3. Compute the number of blocks of threads_per_block threads that covers n
  //      elements, rounded up.
  //   4. Time the launch of heavy_kernel with a course::EventTimer (timers.hpp):
  //      start(), launch, CUDA_CHECK_LAUNCH(), stop(), then kernel_ms = elapsed_ms().
  //   5. Copy the second buffer back into host_y. Free both buffers.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // [/slide]
  // END TODO(student)
  return kernel_ms;
}
// [/slide]
