// Exercise 15 - Monte Carlo pi: draw points uniformly in the unit square and count
// those in the quarter disc x^2 + y^2 <= 1; 4 hits / n estimates pi, with a standard
// error of 4 sqrt(p (1 - p) / n). Counted on one CPU core, on all of them with
// OpenMP, and on the GPU with cuRAND's device API, one random stream per thread.
//
// Random numbers on a GPU must come from independent streams, one per thread, that
// are reproducible from a seed; the counts of thousands of threads must be summed
// without a race and without overflowing; and only one number needs to cross the
// bus. This is the pattern of every Monte Carlo simulation.
//
// Build and run:  make 15 && make run-15
// Check:          make check-15   (statement: exercises/15_monte_carlo_pi/README.md)
#include <curand_kernel.h>

#include "course/errors.hpp"
#include "monte_carlo_pi.hpp"

// ---------------------------------------------------------------------------
// The test of one point, compiled for both sides (__host__ __device__)
// ---------------------------------------------------------------------------
// [slide:in_quarter_disc]
__host__ __device__ bool in_quarter_disc(float x, float y) {
  bool inside = false;
  // TODO(student): whether (x, y) lies in the quarter disc.
  // [slide:in-quarter-disc]
  const double dx = static_cast<double>(x);
  const double dy = static_cast<double>(y);
  inside = dx * dx + dy * dy <= 1.0;
  // [/slide]
  // END TODO(student)
  return inside;
}
// [/slide]

// ---------------------------------------------------------------------------
// CPU versions: the samples in chunks, each chunk with its own generator
// ---------------------------------------------------------------------------

// The hits among the samples of chunk `chunk` (the last chunk may be short).
unsigned long long count_chunk_hits(unsigned long long n, unsigned long long seed,
                                    unsigned long long chunk) {
  unsigned long long hits = 0;
  // TODO(student): the hits of one chunk, with the chunk's own generator.
  const unsigned long long first = chunk * monte_carlo_pi::kCpuChunkSamples;
  const unsigned long long end =
      first + monte_carlo_pi::kCpuChunkSamples < n ? first + monte_carlo_pi::kCpuChunkSamples : n;
  course::Rng rng = monte_carlo_pi::chunk_generator(seed, chunk);
  for (unsigned long long i = first; i < end; ++i) {
    const float x = rng.uniform(0.0f, 1.0f);
    const float y = rng.uniform(0.0f, 1.0f);
    if (in_quarter_disc(x, y)) ++hits;
  }
  // END TODO(student)
  return hits;
}

// The number of chunks that cover n samples, rounded up.
unsigned long long chunk_count(unsigned long long n) {
  return (n + monte_carlo_pi::kCpuChunkSamples - 1) / monte_carlo_pi::kCpuChunkSamples;
}

unsigned long long count_hits_cpu(unsigned long long n, unsigned long long seed) {
  unsigned long long hits = 0;
  // TODO(student): every chunk, one after the other.
  const unsigned long long chunks = chunk_count(n);
  for (unsigned long long chunk = 0; chunk < chunks; ++chunk) {
    hits += count_chunk_hits(n, seed, chunk);
  }
  // END TODO(student)
  return hits;
}

// [slide:count_hits_cpu_openmp]
unsigned long long count_hits_cpu_openmp(unsigned long long n, unsigned long long seed,
                                         int threads) {
  unsigned long long hits = 0;
  // TODO(student): the same sum, on `threads` OpenMP threads.
  const long long chunks = static_cast<long long>(chunk_count(n));
// [slide:openmp-reduction]
#pragma omp parallel for num_threads(threads) schedule(dynamic) reduction(+ : hits)
  for (long long chunk = 0; chunk < chunks; ++chunk) {
    hits += count_chunk_hits(n, seed, static_cast<unsigned long long>(chunk));
  }
  // [/slide]
  // END TODO(student)
  return hits;
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: one Philox stream per thread, a grid-stride loop, a block reduction
// ---------------------------------------------------------------------------

// The sum of `value` over the 32 lanes of the warp, returned to lane 0.
__device__ unsigned long long warp_sum(unsigned long long value) {
  // TODO(student): a reduction tree, in five shuffles.
  constexpr unsigned kFullWarp = 0xffffffffu;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullWarp, value, offset);
  }
  // END TODO(student)
  return value;
}

// [slide:count_hits_kernel]
__global__ void count_hits_kernel(unsigned long long n, unsigned long long seed,
                                  unsigned long long* hits) {
  // TODO(student): the thread's own samples, from its own Philox stream.
  unsigned long long thread_hits = 0;
  const unsigned long long thread_id =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long thread_count = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  curandStatePhilox4_32_10_t state;
  // Subsequence = the thread's id: 2^66 numbers apart in the seed's stream, so the
  // threads' numbers never overlap, and the draw depends on the seed and t alone.
  curand_init(seed, thread_id, 0, &state);
  // Two samples per step: curand_uniform4 returns the stream's next four numbers at
  // once, x and y of sample i, then x and y of sample i + T, the numbers four calls of
  // curand_uniform would return, for one round of Philox and none of the bookkeeping of
  // a number handed out one at a time (1.6x the samples per second on an H100).
  unsigned long long i = thread_id;
  for (; i + thread_count < n; i += 2 * thread_count) {
    const float4 numbers = curand_uniform4(&state);
    if (in_quarter_disc(numbers.x, numbers.y)) ++thread_hits;
    if (in_quarter_disc(numbers.z, numbers.w)) ++thread_hits;
  }
  if (i < n) {  // the thread's last sample, alone: its second pair is drawn and unused
    const float4 numbers = curand_uniform4(&state);
    if (in_quarter_disc(numbers.x, numbers.y)) ++thread_hits;
  }
  // END TODO(student)

  // TODO(student): the block's sum, then one atomicAdd(hits, block_sum) per block.
  // [slide:block-sum]
  constexpr int kMaxWarpsPerBlock = 32;
  // [slide:block-sum-core]
  __shared__ unsigned long long warp_hits[kMaxWarpsPerBlock];
  const int lane = static_cast<int>(threadIdx.x) % warpSize;
  const int warp = static_cast<int>(threadIdx.x) / warpSize;
  thread_hits = warp_sum(thread_hits);
  if (lane == 0) warp_hits[warp] = thread_hits;
  __syncthreads();
  if (warp == 0) {
    const int warps = static_cast<int>(blockDim.x) / warpSize;
    unsigned long long block_hits = lane < warps ? warp_hits[lane] : 0;
    block_hits = warp_sum(block_hits);
    // One atomic per block, not one per hit: a few thousand updates of one address
    // instead of billions.
    if (lane == 0) atomicAdd(hits, block_hits);
  }
  // [/slide]
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launcher: one counter on the device, one number back
// ---------------------------------------------------------------------------
unsigned long long count_hits_gpu(unsigned long long n, unsigned long long seed, int blocks,
                                  int threads_per_block) {
  unsigned long long hits = 0;
  // TODO(student): one counter on the device, in four steps.
  if (n == 0) return hits;
  unsigned long long* device_hits = nullptr;
  CUDA_CHECK(cudaMalloc(&device_hits, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(device_hits, 0, sizeof(unsigned long long)));
  count_hits_kernel<<<blocks, threads_per_block>>>(n, seed, device_hits);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(&hits, device_hits, sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_hits));
  // END TODO(student)
  return hits;
}
