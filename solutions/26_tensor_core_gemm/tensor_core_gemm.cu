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
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Unless n is a multiple of the block size, the last block reaches past the end.
  if (i < n) {
    y[i] = factor * x[i];
  }
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function
// ---------------------------------------------------------------------------
void scale_on_gpu(const float* host_x, float* host_y, int n, float factor) {
  // TODO(student): the round trip, in five steps.
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* device_x = nullptr;
  float* device_y = nullptr;
  CUDA_CHECK(cudaMalloc(&device_x, bytes));
  CUDA_CHECK(cudaMalloc(&device_y, bytes));
  CUDA_CHECK(cudaMemcpy(device_x, host_x, bytes, cudaMemcpyHostToDevice));
  if (n > 0) {
    // Rounded up, so that a partial last block is launched too.
    const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    scale_kernel<<<blocks, kThreadsPerBlock>>>(device_x, device_y, n, factor);
    CUDA_CHECK_LAUNCH();
  }
  // Same (default) stream as the kernel: this copy starts once the kernel has ended.
  CUDA_CHECK(cudaMemcpy(host_y, device_y, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_x));
  CUDA_CHECK(cudaFree(device_y));
  // END TODO(student)
}
