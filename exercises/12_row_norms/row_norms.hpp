// Exercise 12: the functions the student implements, with their fixed signatures: the
// L2 norm of every row of a matrix, a group of lanes per row for short rows (its size
// chosen from the rows' length) and one block per row for long ones, both reducing with
// warp shuffles; their launchers on device arrays; the round trip for host arrays; and a
// weighted norm whose per-column weights sit in constant memory.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 12 && make run-12   (statement: exercises/12_row_norms/README.md)
#pragma once

#include "workload.hpp"

// All 32 lanes of a warp take part in every shuffle.
inline constexpr unsigned kFullWarpMask = 0xffffffffu;
inline constexpr int kWarpSize = 32;
// The group kernel runs blocks of this many threads: whole warps (every shuffle finds its
// 32 lanes), 256 / kLanesPerRow rows per block.
inline constexpr int kGroupBlockThreads = 256;
// The block-per-row kernel runs blocks of this many threads (a multiple of 32, at most
// 32 warps, so that one warp can reduce the warps' partial sums).
inline constexpr int kRowBlockThreads = 256;
// From this many columns on, a row is long enough to keep a whole block busy.
inline constexpr int kBlockPerRowMinCols = 2048;

// The lanes per row of the group kernel: about kColumnsPerLane columns per lane - the
// largest power of two not above cols / kColumnsPerLane, from 1 to a whole warp - so that
// each lane's loads pay for the group's fold and no lane idles on a short row (3 columns
// -> 1 lane, 33 -> 4, 100 -> 8, 1000 and 2047 -> 32).
// Measured on an H200: on 4,000,000 x 3, 1 lane per row reaches 2198 GB/s and a whole warp
// 90 GB/s; on 1,000,000 x 100, 4 lanes 3067 GB/s, 8 lanes 3368, 16 lanes 2456, 32 lanes
// 1410 (the former warp-per-row kernel 1662).
inline constexpr int kColumnsPerLane = 8;
inline int lanes_per_row(int cols) {
  int lanes = 1;
  while (2 * lanes * kColumnsPerLane <= cols && lanes < kWarpSize) lanes *= 2;
  return lanes;
}

// norms[r] = sqrt(sum over c of matrix[r * cols + c]^2) for 0 <= r < rows: the rows x cols
// matrix is row-major, in float, accumulated in float.

// kLanesPerRow consecutive lanes per row (a power of two, 1 to 32; 32 is one warp per
// row): block b handles rows b * (blockDim.x / kLanesPerRow) onwards, one per group; lane
// l of a group sums the squares of columns l, l + kLanesPerRow, ... (none when l >= cols);
// the group folds its partial sums with __shfl_down_sync (every lane of the warp takes
// part, the lanes of rows past the end included), and its first lane writes the square
// root.
template <int kLanesPerRow>
__global__ void row_norms_group_kernel(const float* matrix, float* norms, int rows, int cols);

// One block of kRowBlockThreads threads per row (block b handles row b): each thread sums
// the squares of columns threadIdx.x, threadIdx.x + blockDim.x, ...; each warp reduces
// with shuffles; the warps' sums meet in shared memory, and warp 0 reduces them.
__global__ void row_norms_block_kernel(const float* matrix, float* norms, int rows, int cols);

// On DEVICE arrays: launches row_norms_group_kernel<lanes> (lanes a power of two, 1 to
// 32) on blocks of kGroupBlockThreads threads, enough for rows * lanes threads, whatever
// lanes_per_row would choose; launches nothing when rows == 0. The check grades every
// width with it.
void launch_row_norms_group(const float* matrix, float* norms, int rows, int cols, int lanes);

// On DEVICE arrays: launches row_norms_block_kernel when cols >= kBlockPerRowMinCols,
// else the group kernel with lanes_per_row(cols) lanes per row (launch_row_norms_group);
// launches nothing when rows == 0. cols >= 1.
void launch_row_norms(const float* matrix, float* norms, int rows, int cols);

// For HOST arrays: allocates device arrays, copies the matrix in, launches, copies the
// rows norms back into host_norms and frees the device arrays. rows >= 0, cols >= 1.
void row_norms_gpu(const float* host_matrix, float* host_norms, int rows, int cols);

// ---------------------------------------------------------------------------
// Weighted norms, the weights in constant memory
// ---------------------------------------------------------------------------

// The weights table in constant memory holds this many floats (8 KiB of the 64 KiB that
// constant memory offers a program); its rows have at most this many columns.
inline constexpr int kMaxConstantColumns = 2048;
// The weighted kernel runs one thread per row, on blocks of this many threads.
inline constexpr int kWeightedBlockThreads = 256;

// Copies host_weights[0..cols) into the __constant__ weights table with
// cudaMemcpyToSymbol, for the weighted kernel's next launches. Returns false, copying
// nothing, when cols < 1 or cols > kMaxConstantColumns (the table is too small).
bool set_column_weights(const float* host_weights, int cols);

// One thread per row: norms[r] = sqrt(sum over c of (weights[c] * matrix[r * cols + c])^2),
// the weights read from the __constant__ table: at every step all the lanes of a warp read
// the same weight, weights[c], which constant memory broadcasts to them.
__global__ void weighted_row_norms_kernel(const float* matrix, float* norms, int rows, int cols);

// On DEVICE arrays: launches weighted_row_norms_kernel on blocks of kWeightedBlockThreads
// threads, one per row, with the weights set last by set_column_weights (for these cols);
// launches nothing when rows == 0.
void launch_weighted_row_norms(const float* matrix, float* norms, int rows, int cols);
