// Exercise 26 - tensor core gemm: y = factor * x on the GPU, one thread per element.
//
// TODO(maintainer): this is the example every new exercise starts from
// (tools/course new-exercise); replace it with this exercise's own computation. In each
// student region, the comment lines under its first line are the steps: the skeleton
// keeps them, the solution keeps the region's first line and the answer.
//
// The host function makes the round trip of every GPU computation: device buffers in,
// a kernel over every element, the result back, the buffers freed.
//
// Build and run:  make 26 && make run-26
// Check:          make check-26   (statement: README.md of exercise 26)
#include "tensor_core_gemm.hpp"

#include "course/errors.hpp"

// ---------------------------------------------------------------------------
// Kernel
// ---------------------------------------------------------------------------
// [slide:scale-kernel]
__global__ void scale_kernel(const float* x, float* y, int n, float factor) {
  // TODO(student): one element per thread.
  //   1. Compute this thread's global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. Where i is inside the array, write y[i] = factor * x[i].
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function
// ---------------------------------------------------------------------------
void scale_on_gpu(const float* host_x, float* host_y, int n, float factor) {
  // TODO(student): the round trip, in five steps.
  //   1. Allocate device_x and device_y, n floats each.
  //   2. Copy host_x into device_x.
  //   3. Launch scale_kernel on enough blocks of kThreadsPerBlock threads to cover the n
  //      elements. Launch nothing when n == 0.
  //   4. Copy device_y back into host_y.
  //   5. Free both buffers.
  // Every call goes through CUDA_CHECK(...). CUDA_CHECK_LAUNCH() follows the launch.
  // END TODO(student)
}
