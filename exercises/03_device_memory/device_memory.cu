// Exercise 03 - device memory: allocate, copy in, transform, copy back, free.
//
// A kernel can only touch memory on the device, and the host can only touch its own:
// every GPU computation starts by moving its inputs over and ends by moving its
// results back. This file does that round trip for y = scale * x + offset.
//
// Build and run:  make 03 && make run-03
// Check:          make check-03   (statement: exercises/03_device_memory/README.md)
#include "course/errors.hpp"
#include "device_memory.hpp"

// ---------------------------------------------------------------------------
// Kernel
// ---------------------------------------------------------------------------
// [slide:affine-kernel]
__global__ void affine_kernel(const float* x, float* y, int n, float scale, float offset) {
  // TODO(student): one element per thread.
  //   1. Compute this thread's global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. If i < n, write y[i] = scale * x[i] + offset. The last block may reach past the
  //      end of the array: its extra threads must not write.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function: the round trip
// ---------------------------------------------------------------------------
// [slide:round-trip]
void affine_on_gpu(const float* host_x, float* host_y, int n, float scale, float offset) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  // TODO(student): the round trip, in five steps.
  // [slide:round-trip-steps]
  //   1. Declare float* device_x and device_y. Allocate each with cudaMalloc (bytes).
  //   2. Copy host_x into device_x (cudaMemcpyHostToDevice).
  //   3. Launch affine_kernel on (n + kThreadsPerBlock - 1) / kThreadsPerBlock blocks of
  //      kThreadsPerBlock threads. When n == 0, launch nothing: a grid of zero blocks is
  //      an error.
  //   4. Copy device_y back into host_y (cudaMemcpyDeviceToHost).
  //   5. Free device_x and device_y.
  // Wrap every call in CUDA_CHECK(...). Put CUDA_CHECK_LAUNCH() right after the launch.
  // [/slide]
  // With n == 0 only the launch is skipped. cudaMalloc, cudaMemcpy and cudaFree of 0
  // bytes succeed and do nothing, so steps 1, 2, 4 and 5 may stay. Returning before
  // step 1 is accepted too.
  (void)bytes;
  // END TODO(student)
}
// [/slide]
