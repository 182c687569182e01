// Exercise 15 - the course's reference kernel: the same samples as count_hits_kernel
// (monte_carlo_pi.hpp), counted by the course's own code. The cases (harness/cases.cu)
// take from it the exact count that the student's kernel must reproduce; the demo
// (harness/demo.cu) times it beside the student's.
#pragma once

#include <cuda_runtime.h>
#include <curand_kernel.h>

#include "course/errors.hpp"

namespace monte_carlo_pi::device_reference {

// The course's own quarter-disc test, so that a wrong in_quarter_disc in the
// student's file cannot make the reference wrong the same way.
inline __device__ bool reference_in_quarter_disc(float x, float y) {
  const double dx = x;
  const double dy = y;
  return dx * dx + dy * dy <= 1.0;
}

// Written differently from what the statement asks of the student (a shared-memory
// atomic per thread instead of a shuffle reduction): the two agree only if both
// follow the sampling convention, whatever their reductions. Static: a kernel, unlike an
// inline function, cannot be defined in the two translation units that include this.
static __global__ void reference_count_hits_kernel(unsigned long long n, unsigned long long seed,
                                                   unsigned long long* hits) {
  // [slide:philox-draws]
  const unsigned long long thread_id =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long thread_count = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, thread_id, 0, &state);
  unsigned long long thread_hits = 0;
  for (unsigned long long i = thread_id; i < n; i += thread_count) {
    const float x = curand_uniform(&state);
    const float y = curand_uniform(&state);
    if (reference_in_quarter_disc(x, y)) ++thread_hits;
  }
  // [/slide]
  __shared__ unsigned long long block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  if (thread_hits > 0) atomicAdd(&block_hits, thread_hits);
  __syncthreads();
  if (threadIdx.x == 0 && block_hits > 0) atomicAdd(hits, block_hits);
}

// The whole round trip, shaped like count_hits_gpu so that their times compare.
inline unsigned long long reference_count_hits(unsigned long long n, unsigned long long seed,
                                               int blocks, int threads_per_block) {
  unsigned long long hits = 0;
  if (n == 0) return hits;
  unsigned long long* device_hits = nullptr;
  CUDA_CHECK(cudaMalloc(&device_hits, sizeof hits));
  CUDA_CHECK(cudaMemset(device_hits, 0, sizeof hits));
  reference_count_hits_kernel<<<blocks, threads_per_block>>>(n, seed, device_hits);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(&hits, device_hits, sizeof hits, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_hits));
  return hits;
}

}  // namespace monte_carlo_pi::device_reference
