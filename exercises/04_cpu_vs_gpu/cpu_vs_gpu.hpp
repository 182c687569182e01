// Exercise 04: the functions the student implements, with their fixed signatures:
// heavy() on the CPU and on the GPU, and the GPU's round trip with its kernel timed.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 04 && make run-04   (statement: exercises/04_cpu_vs_gpu/README.md)
#pragma once

// kHeavyTerms and kNegativeTermWeight, which the check shares: harness/workload.hpp.
#include "workload.hpp"

// The demo's block size; the check also calls heavy_on_gpu with other sizes.
inline constexpr int kDefaultThreadsPerBlock = 256;

// heavy(x) = sum over k = 1 .. kHeavyTerms of g(x / k), where
//   w(s) = sin(s) * exp(-s^2 / 2) / sqrt(1 + s^2)
//   g(s) = w(s) when w(s) >= 0, kNegativeTermWeight * w(s) otherwise
// in float arithmetic. The same function serves the CPU and the GPU.
__host__ __device__ float heavy(float x);

// y[i] = heavy(x[i]) for 0 <= i < n, one element after the other on the CPU. n may be 0.
void heavy_on_cpu(const float* x, float* y, int n);

// y[i] = heavy(x[i]) for 0 <= i < n; one thread per element, launched with any block size.
__global__ void heavy_kernel(const float* x, float* y, int n);

// The same on the GPU, for host arrays: allocates device buffers, copies x in, launches
// heavy_kernel on blocks of threads_per_block threads (1 to 1024) and enough blocks to
// cover n, copies y back and frees the device buffers. Returns the time of the kernel
// alone, in milliseconds, measured with CUDA events; n may be 0 (then nothing is
// launched and the result is 0).
float heavy_on_gpu(const float* host_x, float* host_y, int n, int threads_per_block);
