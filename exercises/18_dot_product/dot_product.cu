// Exercise 18 - reductions: the dot product x . y = sum of x[i] * y[i], in four steps.
//
// A reduction turns n values into one. On a GPU it takes two passes: every block sums
// its share into one partial sum, then one block sums the partials. Inside a block the
// threads add pairwise, in a tree of log2(B) levels, through shared memory with a
// barrier between levels: (1) the tree with sequential addressing, (2) the first add
// done while loading, so that no thread idles from the start, (3) the last 64 values
// summed by one warp with register shuffles, (4) a grid-stride loop: a grid just large
// enough to fill the GPU, each thread summing many products in a register first.
//
// A tree is also more accurate than one running sum: each product goes through about
// log2(n) additions instead of up to n, and the values added stay of similar size.
//
// Build and run:  make 18 && make run-18
// Check:          make check-18   (statement: exercises/18_dot_product/README.md)
#include <algorithm>

#include "course/errors.hpp"
#include "dot_product.hpp"

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

// [slide:tree]
// Halves the block's blockDim.x values in cache, level by level, until `remaining` are
// left in cache[0 .. remaining). Called by every thread of the block, after the
// barrier that follows the load.
__device__ void tree_in_shared(float* cache, int remaining) {
  // TODO(student): the tree with sequential addressing, one level at a time.
  //   For s = blockDim.x / 2, then s / 2, ... while s >= remaining:
  //   1. The threads below s add cache[t + s] into cache[t]. The active threads stay
  //      contiguous: whole warps go idle, and neighbours touch neighbouring banks.
  //   2. Every thread waits at __syncthreads() before the next level reads.
  // END TODO(student)
}
// [/slide]

// [slide:warp-sum]
// Sums v over the 32 lanes of a warp: lane 0 gets the total. Called by all 32 lanes.
__device__ float warp_sum(float v) {
  // TODO(student): five shuffles down the warp.
  //   For offset = 16, 8, 4, 2, 1: v += __shfl_down_sync(kFullWarpMask, v, offset). Each
  //   lane adds the value of the lane `offset` above it.
  // END TODO(student)
  return v;
}
// [/slide]

// Sums v over the block's threads: thread 0 gets the total. Called by every thread of the
// block, once per kernel.
__device__ float block_sum(float v) {
  // TODO(student): the block's sum, warp by warp.
  //   1. Each warp sums its lanes (warp_sum).
  //   2. Lane 0 of each warp stores its warp's sum in a
  //      __shared__ float warp_sums[kThreadsPerBlock / kWarpSize].
  //   3. A barrier.
  //   4. The first warp loads warp_sums (0 where a lane has no warp to read) and sums
  //      them with warp_sum.
  // END TODO(student)
  return v;
}

// [slide:first-add]
// Steps 2 and 3: the sum of this thread's two products, i and i + blockDim.x, in the
// block's 2 * blockDim.x elements; 0 for an element at or past n.
__device__ float first_add_load(const float* x, const float* y, int n) {
  float sum = 0.0f;
  // TODO(student): this thread's two products, each bound checked on its own.
  //   1. i = blockIdx.x * 2 * blockDim.x + threadIdx.x.
  //   2. Add x[i] * y[i] where i < n.
  //   3. Add x[j] * y[j], j = i + blockDim.x, where j < n. n need not be a multiple of
  //      2 B.
  // END TODO(student)
  return sum;
}
// [/slide]

// ---------------------------------------------------------------------------
// The first pass, step by step
// ---------------------------------------------------------------------------

__global__ void dot_tree(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 1, a tree in shared memory.
  //   1. Store this thread's product x[i] * y[i] (0 past n) in cache[threadIdx.x], a
  //      __shared__ float cache[kThreadsPerBlock].
  //   2. A barrier, so that every value is in place.
  //   3. The tree down to one value (tree_in_shared).
  //   4. Thread 0 writes cache[0] to partials[blockIdx.x].
  // END TODO(student)
}

__global__ void dot_first_add(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 2, the first add during the load.
  //   As dot_tree, with first_add_load's sum as the thread's value.
  // END TODO(student)
}

// [slide:last-warp]
__global__ void dot_warp_shuffle(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 3, the last warp with shuffles.
  //   1. As dot_first_add, but the tree stops at 2 * kWarpSize values.
  //   2. The first warp adds cache[lane] + cache[lane + 32] and finishes with warp_sum
  //      (a warp needs no barrier).
  //   3. Its lane 0 writes the partial.
  // END TODO(student)
}
// [/slide]

// [slide:grid-stride]
__global__ void dot_grid_stride(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 4, a grid-stride loop, then the block's sum.
  //   1. A grid-stride loop adds this thread's products into a float in a register.
  //   2. block_sum adds the block's threads.
  //   3. Thread 0, and only thread 0, writes partials[blockIdx.x].
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The second pass
// ---------------------------------------------------------------------------
__global__ void sum_partials(const float* partials, int count, float* result) {
  // TODO(student): the second pass, in one block.
  //   1. The block's threads stride over partials[0 .. count) by blockDim.x, each into
  //      its own float.
  //   2. block_sum adds the block's threads.
  //   3. Thread 0 writes *result.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
// The first pass of a step on `blocks` blocks (none when n is 0), then the second pass.
void two_passes(void (*first_pass)(const float*, const float*, int, float*), int blocks,
                const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): the first pass, then the second.
  //   1. When n > 0, first_pass<<<blocks, kThreadsPerBlock>>>(x, y, n, partials).
  //   2. sum_partials<<<1, kThreadsPerBlock>>> on those `blocks` partials (0 of them
  //      when n is 0).
  //   3. CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

int blocks_covering(int n, int elements_per_block) {
  return (n + elements_per_block - 1) / elements_per_block;
}

void dot_tree_on_device(const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): one block per kThreadsPerBlock elements.
  // END TODO(student)
}

void dot_first_add_on_device(const float* x, const float* y, int n, float* partials,
                             float* result) {
  // TODO(student): one block per 2 * kThreadsPerBlock elements.
  // END TODO(student)
}

void dot_warp_shuffle_on_device(const float* x, const float* y, int n, float* partials,
                                float* result) {
  // TODO(student): one block per 2 * kThreadsPerBlock elements.
  // END TODO(student)
}

void dot_on_device(const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): the occupancy grid, then the two passes.
  //   As many blocks as the GPU holds at once (the occupancy API times the
  //   multiprocessors) and at least kMinGridStrideBlocks (the check's error bound counts
  //   on that many), but no more than blocks_covering(n, kThreadsPerBlock).
  // END TODO(student)
}
