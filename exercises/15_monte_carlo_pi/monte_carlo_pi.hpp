// Exercise 15: the functions the student implements, with their fixed signatures: the
// quarter-disc test, the CPU counts (serial and OpenMP) and the GPU count with cuRAND.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 15 && make run-15   (statement: exercises/15_monte_carlo_pi/README.md)
#pragma once

#include "workload.hpp"

// The demo's launch: 1024 blocks of 256 threads, 262144 threads in all, about enough
// to fill an H100 (132 multiprocessors x 2048 threads).
inline constexpr int kDefaultBlocks = 1024;
inline constexpr int kDefaultThreadsPerBlock = 256;

// True when the point (x, y) of the unit square lies in the quarter disc
// x^2 + y^2 <= 1. The points on the circle count (curand_uniform returns values in
// (0, 1], so x = 1 does occur). x^2 + y^2 is computed in double: the squares of floats
// are exact there and the sum is rounded once, so the answer is the same on the CPU
// and on the GPU whatever the compiler fuses into multiply-adds.
__host__ __device__ bool in_quarter_disc(float x, float y);

// The number of hits among n samples on one CPU core: the samples are cut into chunks
// of kCpuChunkSamples, chunk c drawn from monte_carlo_pi::chunk_generator(seed, c),
// each sample x then y with uniform(0.0f, 1.0f) (harness/workload.hpp). n may be 0 (0 hits).
unsigned long long count_hits_cpu(unsigned long long n, unsigned long long seed);

// The same samples and the same count, the chunks shared out among `threads` OpenMP
// threads (1 or more).
unsigned long long count_hits_cpu_openmp(unsigned long long n, unsigned long long seed,
                                         int threads);

// The GPU's samples. With T = gridDim.x * blockDim.x threads, the thread of global id
// t = blockIdx.x * blockDim.x + threadIdx.x
//   - initialises a Philox state with curand_init(seed, t, 0, &state): its own
//     subsequence of the seed's stream, so that no two threads draw the same numbers;
//   - draws the samples t, t + T, t + 2T, ... below n (exactly n samples in all), each
//     as x = curand_uniform(&state), then y = curand_uniform(&state);
//   - counts its hits with in_quarter_disc(x, y).
// The block then sums its threads' counts and adds the sum to *hits with one atomicAdd.
// blockDim.x is a multiple of 32, at most 1024.
__global__ void count_hits_kernel(unsigned long long n, unsigned long long seed,
                                  unsigned long long* hits);

// The number of hits among the n samples above, counted by count_hits_kernel launched
// on `blocks` blocks (1 or more) of `threads_per_block` threads (a multiple of 32 from
// 32 to 1024). The hits are summed on the device; one number comes back. n may be 0
// (0 hits) and may exceed 2^32.
unsigned long long count_hits_gpu(unsigned long long n, unsigned long long seed, int blocks,
                                  int threads_per_block);
