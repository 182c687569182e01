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
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The last block is only partly inside the array when n is not a multiple of the
  // block size: its extra threads must not write.
  if (i < n) {
    y[i] = scale * x[i] + offset;
  }
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
  float* device_x = nullptr;
  float* device_y = nullptr;
  // [slide:round-trip-steps]
  CUDA_CHECK(cudaMalloc(&device_x, bytes));
  CUDA_CHECK(cudaMalloc(&device_y, bytes));
  CUDA_CHECK(cudaMemcpy(device_x, host_x, bytes, cudaMemcpyHostToDevice));
  if (n > 0) {
    // Round up: 1000 elements need 4 blocks of 256, not 3.
    const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    affine_kernel<<<blocks, kThreadsPerBlock>>>(device_x, device_y, n, scale, offset);
    CUDA_CHECK_LAUNCH();
  }
  // cudaMemcpy waits for the kernel: it runs in the same (default) stream.
  CUDA_CHECK(cudaMemcpy(host_y, device_y, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_x));
  CUDA_CHECK(cudaFree(device_y));
  // [/slide]
  // END TODO(student)
}
// [/slide]
