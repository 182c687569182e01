// Exercise 12: the functions the student implements, with their fixed signatures: the
// L2 norm of every row of a matrix, one warp per row for short rows and one block per row
// for long ones, both reducing with warp shuffles; their launcher on device arrays; and
// the round trip for host arrays.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 12 && make run-12   (statement: exercises/12_row_norms/README.md)
#pragma once

#include "workload.hpp"

// All 32 lanes of a warp take part in every shuffle.
inline constexpr unsigned kFullWarpMask = 0xffffffffu;
inline constexpr int kWarpSize = 32;
// The warp-per-row kernel runs blocks of this many warps, one row each.
inline constexpr int kWarpsPerBlock = 8;
// The block-per-row kernel runs blocks of this many threads (a multiple of 32, at most
// 32 warps, so that one warp can reduce the warps' partial sums).
inline constexpr int kRowBlockThreads = 256;
// From this many columns on, a row is long enough to keep a whole block busy.
inline constexpr int kBlockPerRowMinCols = 2048;

// norms[r] = sqrt(sum over c of matrix[r * cols + c]^2) for 0 <= r < rows: the rows x cols
// matrix is row-major, in float, accumulated in float.

// One warp per row: warp w of block b handles row b * kWarpsPerBlock + w; lane l sums the
// squares of columns l, l + 32, l + 64, ... (none when l >= cols), the warp adds its 32
// partial sums with __shfl_down_sync, and lane 0 writes the square root.
__global__ void row_norms_warp_kernel(const float* matrix, float* norms, int rows, int cols);

// One block of kRowBlockThreads threads per row (block b handles row b): each thread sums
// the squares of columns threadIdx.x, threadIdx.x + blockDim.x, ...; each warp reduces
// with shuffles; the warps' sums meet in shared memory, and warp 0 reduces them.
__global__ void row_norms_block_kernel(const float* matrix, float* norms, int rows, int cols);

// On DEVICE arrays: launches row_norms_block_kernel when cols >= kBlockPerRowMinCols,
// row_norms_warp_kernel otherwise; launches nothing when rows == 0. cols >= 1.
void launch_row_norms(const float* matrix, float* norms, int rows, int cols);

// For HOST arrays: allocates device arrays, copies the matrix in, launches, copies the
// rows norms back into host_norms and frees the device arrays. rows >= 0, cols >= 1.
void row_norms_gpu(const float* host_matrix, float* host_norms, int rows, int cols);
