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
  for (int k = 1; k <= kHeavyTerms; ++k) {
    const float s = x / static_cast<float>(k);
    const float w = sinf(s) * expf(-0.5f * s * s) / sqrtf(1.0f + s * s);
    // Both branches meet at w = 0, so a rounding that flips the test costs nothing.
    sum += (w >= 0.0f) ? w : kNegativeTermWeight * w;
  }
  // END TODO(student)
  return sum;
}
// [/slide]

// ---------------------------------------------------------------------------
// CPU version: one core, one element after the other
// ---------------------------------------------------------------------------
void heavy_on_cpu(const float* x, float* y, int n) {
  // TODO(student): y[i] = heavy(x[i]) for every i from 0 to n - 1.
  for (int i = 0; i < n; ++i) {
    y[i] = heavy(x[i]);
  }
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: one thread per element
// ---------------------------------------------------------------------------
__global__ void heavy_kernel(const float* x, float* y, int n) {
  // TODO(student): one element per thread.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The last block is only partly inside the array when n is not a multiple of the
  // block size: its extra threads must not write.
  if (i < n) {
    y[i] = heavy(x[i]);
  }
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launcher: the round trip, with the kernel timed on its own
// ---------------------------------------------------------------------------
// [slide:heavy_on_gpu]
float heavy_on_gpu(const float* host_x, float* host_y, int n, int threads_per_block) {
  float kernel_ms = 0.0f;
  // TODO(student): the round trip, with the kernel timed, in five steps.
  if (n == 0) return kernel_ms;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* device_x = nullptr;
  float* device_y = nullptr;
  CUDA_CHECK(cudaMalloc(&device_x, bytes));
  CUDA_CHECK(cudaMalloc(&device_y, bytes));
  CUDA_CHECK(cudaMemcpy(device_x, host_x, bytes, cudaMemcpyHostToDevice));

  // [slide:timed-launch]
  // Round up: 257 elements need 2 blocks of 256, not 1.
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  // The events are recorded in the stream, around the kernel: the time between them
  // is the kernel's own, whereas the launch alone returns long before the kernel ends.
  course::EventTimer kernel_timer;
  kernel_timer.start();
  heavy_kernel<<<blocks, threads_per_block>>>(device_x, device_y, n);
  CUDA_CHECK_LAUNCH();
  kernel_timer.stop();
  kernel_ms = kernel_timer.elapsed_ms();

  CUDA_CHECK(cudaMemcpy(host_y, device_y, bytes, cudaMemcpyDeviceToHost));
  // [/slide]
  CUDA_CHECK(cudaFree(device_x));
  CUDA_CHECK(cudaFree(device_y));
  // END TODO(student)
  return kernel_ms;
}
// [/slide]
