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
  // TODO(student): compute this thread's global index from blockIdx.x, blockDim.x and
  // threadIdx.x; if it is inside the array, write y[i] = scale * x[i] + offset.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function: the round trip
// ---------------------------------------------------------------------------
// [slide:round-trip]
void affine_on_gpu(const float* host_x, float* host_y, int n, float scale, float offset) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  // TODO(student):
  //   1. declare float* device_x and device_y, and allocate them with cudaMalloc
  //      (bytes each);
  //   2. copy host_x into device_x (cudaMemcpyHostToDevice);
  //   3. launch affine_kernel on enough blocks of kThreadsPerBlock threads to cover n
  //      elements (launch nothing when n == 0: a grid of zero blocks is an error);
  //   4. copy device_y back into host_y (cudaMemcpyDeviceToHost);
  //   5. free device_x and device_y.
  // Wrap every call in CUDA_CHECK(...) and follow the launch with CUDA_CHECK_LAUNCH().
  // When n == 0, only the launch must be skipped: cudaMalloc, cudaMemcpy and cudaFree of
  // 0 bytes succeed and do nothing, so steps 1, 2, 4 and 5 may stay.
  (void)bytes;
  // END TODO(student)
}
// [/slide]
