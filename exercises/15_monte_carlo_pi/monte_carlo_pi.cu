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
  //   1. Convert x and y to double before multiplying.
  //   2. Set inside = (x^2 + y^2 <= 1), the squares and their sum in double.
  // The points on the circle count.
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
  //   1. The chunk holds the samples chunk * kCpuChunkSamples up to
  //      min(n, (chunk + 1) * kCpuChunkSamples) - 1.
  //   2. Make its generator: course::Rng rng = monte_carlo_pi::chunk_generator(seed, chunk).
  //   3. For each sample, draw x = rng.uniform(0.0f, 1.0f), then y the same way. Count it
  //      in hits when in_quarter_disc(x, y).
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
  //   Add up count_chunk_hits over the chunk_count(n) chunks.
  // END TODO(student)
  return hits;
}

// [slide:count_hits_cpu_openmp]
unsigned long long count_hits_cpu_openmp(unsigned long long n, unsigned long long seed,
                                         int threads) {
  unsigned long long hits = 0;
  // TODO(student): the same sum, on `threads` OpenMP threads.
  //   1. Share the chunks out among `threads` OpenMP threads (the num_threads clause).
  //   2. Every thread adds to hits: make that safe with a reduction clause, not with a
  //      shared counter that every thread updates.
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
  //   For offset = 16, 8, 4, 2, 1: value += __shfl_down_sync(kFullWarp, value, offset),
  //   with the mask kFullWarp = 0xffffffff (all 32 lanes take part).
  // At each step a lane adds the value of the lane that far above it.
  // END TODO(student)
  return value;
}

// [slide:count_hits_kernel]
__global__ void count_hits_kernel(unsigned long long n, unsigned long long seed,
                                  unsigned long long* hits) {
  // TODO(student): the thread's own samples, from its own Philox stream.
  //   1. Compute this thread's global id t and the thread count T, both 64-bit.
  //   2. Call curand_init(seed, t, 0, &state) on a curandStatePhilox4_32_10_t.
  //   3. Declare unsigned long long thread_hits = 0.
  //   4. For the samples i = t, t + T, ... while i < n (i 64-bit too: n may exceed 2^32),
  //      draw x = curand_uniform(&state), then y. Count the sample in thread_hits when
  //      in_quarter_disc(x, y). Faster: two samples per step, i and i + T, from one
  //      float4 numbers = curand_uniform4(&state) (x, y, then the next sample's x, y:
  //      the same numbers); then the thread's last sample alone when one is left.
  // END TODO(student)

  // TODO(student): the block's sum, then one atomicAdd(hits, block_sum) per block.
  //   1. thread_hits = warp_sum(thread_hits). Lane 0 of each warp (threadIdx.x % 32 == 0)
  //      stores it in __shared__ unsigned long long warp_hits[32], at index
  //      threadIdx.x / 32. A block holds at most 1024 / 32 = 32 warps.
  //   2. Call __syncthreads(): every warp's sum must be stored before anyone reads them.
  //   3. Warp 0 loads warp_hits[lane], 0 for lanes past the block's warp count, and sums
  //      them with warp_sum. Its lane 0 adds the total to *hits.
  // Every thread of the block must reach warp_sum and __syncthreads: no early return.
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
  //   1. When n == 0, return 0 at once: no sample, no hit.
  //   2. Allocate one unsigned long long on the device. Set it to 0 with cudaMemset:
  //      cudaMalloc does not clear memory.
  //   3. Launch count_hits_kernel on `blocks` blocks of `threads_per_block` threads, then
  //      CUDA_CHECK_LAUNCH().
  //   4. Copy the counter back into hits, then free it.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // END TODO(student)
  return hits;
}
