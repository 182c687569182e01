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
  for (int s = blockDim.x / 2; s >= remaining; s /= 2) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  // END TODO(student)
}
// [/slide]

// [slide:warp-sum]
// Sums v over the 32 lanes of a warp: lane 0 gets the total. Called by all 32 lanes.
__device__ float warp_sum(float v) {
  // TODO(student): five shuffles down the warp.
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(kFullWarpMask, v, offset);
  }
  // END TODO(student)
  return v;
}
// [/slide]

// Sums v over the block's threads: thread 0 gets the total. Called by every thread of the
// block, once per kernel.
__device__ float block_sum(float v) {
  // TODO(student): the block's sum, warp by warp.
  __shared__ float warp_sums[kThreadsPerBlock / kWarpSize];
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x) / kWarpSize ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
  }
  // END TODO(student)
  return v;
}

// [slide:first-add]
// Steps 2 and 3: the sum of this thread's two products, i and i + blockDim.x, in the
// block's 2 * blockDim.x elements; 0 for an element at or past n.
__device__ float first_add_load(const float* x, const float* y, int n) {
  float sum = 0.0f;
  // TODO(student): this thread's two products, each bound checked on its own.
  const int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  if (i < n) sum = x[i] * y[i];
  if (i + static_cast<int>(blockDim.x) < n) sum += x[i + blockDim.x] * y[i + blockDim.x];
  // END TODO(student)
  return sum;
}
// [/slide]

// ---------------------------------------------------------------------------
// The first pass, step by step
// ---------------------------------------------------------------------------

__global__ void dot_tree(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 1, a tree in shared memory.
  __shared__ float cache[kThreadsPerBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  cache[threadIdx.x] = i < n ? x[i] * y[i] : 0.0f;
  __syncthreads();
  tree_in_shared(cache, 1);
  if (threadIdx.x == 0) partials[blockIdx.x] = cache[0];
  // END TODO(student)
}

__global__ void dot_first_add(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 2, the first add during the load.
  __shared__ float cache[kThreadsPerBlock];
  cache[threadIdx.x] = first_add_load(x, y, n);
  __syncthreads();
  tree_in_shared(cache, 1);
  if (threadIdx.x == 0) partials[blockIdx.x] = cache[0];
  // END TODO(student)
}

// [slide:last-warp]
__global__ void dot_warp_shuffle(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 3, the last warp with shuffles.
  __shared__ float cache[kThreadsPerBlock];
  cache[threadIdx.x] = first_add_load(x, y, n);
  __syncthreads();
  tree_in_shared(cache, 2 * kWarpSize);
  if (threadIdx.x < kWarpSize) {
    const float v = warp_sum(cache[threadIdx.x] + cache[threadIdx.x + kWarpSize]);
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
  }
  // END TODO(student)
}
// [/slide]

// [slide:grid-stride]
__global__ void dot_grid_stride(const float* x, const float* y, int n, float* partials) {
  // TODO(student): step 4, a grid-stride loop, then the block's sum.
  float sum = 0.0f;
  const int stride = gridDim.x * blockDim.x;
  // Four iterations in flight: their loads wait for memory together, not in turn. The
  // index is an int (n is one): std::size_t's 64-bit arithmetic cost 15% on an H200 (0.87
  // of CUB's throughput against 1.02), and i + stride stays below 2^31 while n is short
  // of it by a grid's threads.
#pragma unroll 4
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += x[i] * y[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The second pass
// ---------------------------------------------------------------------------
__global__ void sum_partials(const float* partials, int count, float* result) {
  // TODO(student): the second pass, in one block.
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
// The first pass of a step on `blocks` blocks (none when n is 0), then the second pass.
void two_passes(void (*first_pass)(const float*, const float*, int, float*), int blocks,
                const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): the first pass, then the second.
  if (n > 0) first_pass<<<blocks, kThreadsPerBlock>>>(x, y, n, partials);
  sum_partials<<<1, kThreadsPerBlock>>>(partials, n > 0 ? blocks : 0, result);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

int blocks_covering(int n, int elements_per_block) {
  return (n + elements_per_block - 1) / elements_per_block;
}

void dot_tree_on_device(const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): one block per kThreadsPerBlock elements.
  two_passes(dot_tree, blocks_covering(n, kThreadsPerBlock), x, y, n, partials, result);
  // END TODO(student)
}

void dot_first_add_on_device(const float* x, const float* y, int n, float* partials,
                             float* result) {
  // TODO(student): one block per 2 * kThreadsPerBlock elements.
  two_passes(dot_first_add, blocks_covering(n, 2 * kThreadsPerBlock), x, y, n, partials, result);
  // END TODO(student)
}

void dot_warp_shuffle_on_device(const float* x, const float* y, int n, float* partials,
                                float* result) {
  // TODO(student): one block per 2 * kThreadsPerBlock elements.
  two_passes(dot_warp_shuffle, blocks_covering(n, 2 * kThreadsPerBlock), x, y, n, partials, result);
  // END TODO(student)
}

void dot_on_device(const float* x, const float* y, int n, float* partials, float* result) {
  // TODO(student): the occupancy grid, then the two passes.
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, dot_grid_stride,
                                                           kThreadsPerBlock, 0));
  const int blocks = std::min(std::max(per_multiprocessor * multiprocessors, kMinGridStrideBlocks),
                              blocks_covering(n, kThreadsPerBlock));
  two_passes(dot_grid_stride, blocks, x, y, n, partials, result);
  // END TODO(student)
}
