// Exercise 18: the functions the student implements, with their fixed signatures: a dot
// product x . y = sum of x[i] * y[i], reduced on the GPU in four steps, each a kernel
// that leaves one partial sum per block, and a second pass that sums the partials.
// Every pointer is a DEVICE pointer: the caller allocates, copies and frees. The check
// calls them exactly as declared here; do not change this file.
//
// Build and run:  make 18 && make run-18   (statement: exercises/18_dot_product/README.md)
#pragma once

#include "workload.hpp"

// [slide:api]
// ---- The first pass: one partial sum per block, partials[blockIdx.x] ----------------
// Every kernel is launched with kThreadsPerBlock threads per block (harness/workload.hpp)
// and reads only x[0 .. n) and y[0 .. n): what lies past n is not the caller's data.

// Step 1. Block b sums the products of elements [b * B, (b + 1) * B), B = blockDim.x:
// each thread loads one product into shared memory, then a tree with sequential
// addressing halves the active threads at each level.
__global__ void dot_tree(const float* x, const float* y, int n, float* partials);

// Step 2. Block b sums elements [2 b B, 2 (b + 1) B): each thread adds its two products
// while loading (half the blocks of step 1), then the same tree.
__global__ void dot_first_add(const float* x, const float* y, int n, float* partials);

// Step 3. As step 2, but the tree stops at 64 values: the first warp finishes with
// warp shuffles (__shfl_down_sync), without shared memory or barriers.
__global__ void dot_warp_shuffle(const float* x, const float* y, int n, float* partials);

// Step 4. Any grid: each thread sums its products in a grid-stride loop, in a register,
// then the block reduces its threads' sums with shuffles (one warp's sums in shared
// memory, then the first warp). Block b's partial covers its share of the loop.
__global__ void dot_grid_stride(const float* x, const float* y, int n, float* partials);

// ---- The second pass ----------------------------------------------------------------
// One block of kThreadsPerBlock threads: *result = partials[0] + ... + partials[count - 1]
// (0 when count is 0).
__global__ void sum_partials(const float* partials, int count, float* result);

// ---- The launchers: *result = x . y -------------------------------------------------
// Each launches its step's kernel on the grid that step needs, then sum_partials on the
// partials, then CUDA_CHECK_LAUNCH(); it does not wait. `partials` has room for
// partials_capacity(n) floats (harness/workload.hpp). n may be 0: *result must then be 0
// (a launch of 0 blocks is an error: launch the first pass only when n > 0).
void dot_tree_on_device(const float* x, const float* y, int n, float* partials, float* result);
void dot_first_add_on_device(const float* x, const float* y, int n, float* partials, float* result);
void dot_warp_shuffle_on_device(const float* x, const float* y, int n, float* partials,
                                float* result);
// The final version: dot_grid_stride on as many blocks as the GPU holds at once
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiprocessors, as in exercise 13)
// and at least kMinGridStrideBlocks, but no more than ceil(n / kThreadsPerBlock), then the
// second pass.
void dot_on_device(const float* x, const float* y, int n, float* partials, float* result);
// [/slide]
