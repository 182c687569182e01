// Exercise 22: the functions the student implements, with their fixed signatures: the
// transpose out = in^T of a rows x cols float matrix, three times - naive, through a
// shared-memory tile, through a tile padded by one column. Every pointer is a DEVICE
// pointer: the caller allocates, copies, poisons the output and frees. The check calls
// them exactly as declared here; do not change this file.
//
// Build and run:  make 22 && make run-22   (statement: exercises/22_transpose/README.md)
#pragma once

#include "workload.hpp"

// [slide:api]
// in is rows x cols, row-major; out is cols x rows, row-major:
//     out[c * rows + r] = in[r * cols + c]   for every r < rows, c < cols.
// Every kernel is launched on tile_grid(rows, cols) blocks of dim3(kTileDim, kBlockRows)
// threads (harness/workload.hpp): block (bx, by) covers the input tile of rows
// [by * kTileDim, by * kTileDim + kTileDim) and columns [bx * kTileDim, bx * kTileDim +
// kTileDim), each thread kTileDim / kBlockRows of its elements. Where the matrix ends
// inside a tile, the threads past its edge read and write nothing.

// The grid: blocks along x cover the input's columns, along y its rows.
dim3 tile_grid(int rows, int cols);

// Step 1. Each thread reads its elements along a row of the input (coalesced) and writes
// each straight to its transposed place (32 different rows of out per warp: strided).
__global__ void transpose_naive(const float* in, float* out, int rows, int cols);

// Step 2. The block reads its tile row by row into a __shared__ float[kTileDim][kTileDim],
// waits, then writes the tile's columns as rows of out: reads and writes coalesced.
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols);

// Step 3. As step 2 with a tile padded by one column, [kTileDim][kTileDim + 1]: a column of
// the tile then spreads over the 32 banks of shared memory.
__global__ void transpose_padded(const float* in, float* out, int rows, int cols);
// [/slide]
