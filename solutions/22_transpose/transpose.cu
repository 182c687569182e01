// Exercise 22 - matrix transpose: coalescing and shared-memory bank conflicts.
//
// A transpose does no arithmetic: it reads every element once and writes it once, so its
// only bound is memory bandwidth, and the best it can do is run as fast as a copy of the
// same bytes. A warp reading a row of the input reads 32 consecutive floats; the same
// warp writing them to their transposed places writes 32 different rows of the output,
// one float in each: (1) the naive kernel does just that. (2) The tiled kernel reads a
// 32 x 32 tile into shared memory row by row and writes it out column by column, so that
// global reads and writes are both rows; (3) the padded kernel gives the tile one more
// column, so that a column of the tile no longer falls in one bank of shared memory.
//
// Build and run:  make 22 && make run-22
// Check:          make check-22   (statement: exercises/22_transpose/README.md)
#include "transpose.hpp"

// ---------------------------------------------------------------------------
// The grid
// ---------------------------------------------------------------------------
dim3 tile_grid(int rows, int cols) {
  dim3 grid(1, 1, 1);
  // TODO(student): one block per tile.
  grid.x = (cols + kTileDim - 1) / kTileDim;
  grid.y = (rows + kTileDim - 1) / kTileDim;
  // END TODO(student)
  return grid;
}

// ---------------------------------------------------------------------------
// Step 1: naive
// ---------------------------------------------------------------------------
// [slide:naive]
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 1, each element straight to its transposed place.
  const int col = blockIdx.x * kTileDim + threadIdx.x;
  const int first_row = blockIdx.y * kTileDim + threadIdx.y;
  for (int j = 0; j < kTileDim; j += kBlockRows) {
    const int row = first_row + j;
    // Neighbouring threads read neighbouring floats of one row, and write floats `rows`
    // apart: one 32-byte sector written for every 4 bytes of data.
    if (col < cols && row < rows) out[col * rows + row] = in[row * cols + col];
  }
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Steps 2 and 3: through a tile of shared memory
// ---------------------------------------------------------------------------

// What the tiled and the padded kernels share: the block's tile of the input goes into
// `tile` (kTileDim rows of kPitch floats, of which the first kTileDim are used), then out
// of it, transposed. Called by every thread of the block; kPitch is deduced from the
// __shared__ array the kernel passes (float[kTileDim][kPitch] decays to float (*)[kPitch]).
// [slide:through-tile]
template <int kPitch>
__device__ void transpose_through_tile(const float* in, float* out, int rows, int cols,
                                       float (*tile)[kPitch]) {
  // TODO(student): the tile in, a barrier, the tile out.
  // [slide:tile-in]
  const int in_col = blockIdx.x * kTileDim + threadIdx.x;
  const int in_row = blockIdx.y * kTileDim + threadIdx.y;
  for (int j = 0; j < kTileDim; j += kBlockRows) {
    if (in_col < cols && in_row + j < rows) {
      tile[threadIdx.y + j][threadIdx.x] = in[(in_row + j) * cols + in_col];
    }
  }
  // Every element of the tile must be in place before any warp reads a column of it.
  __syncthreads();
  // [/slide]
  // [slide:tile-out]
  // Out's row index is an input column, its column index an input row.
  const int out_col = blockIdx.y * kTileDim + threadIdx.x;
  const int out_row = blockIdx.x * kTileDim + threadIdx.y;
  for (int j = 0; j < kTileDim; j += kBlockRows) {
    if (out_col < rows && out_row + j < cols) {
      // A warp reads a column of the tile: 32 floats kPitch floats apart.
      out[(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:tiles]
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 2, through an unpadded tile.
  __shared__ float tile[kTileDim][kTileDim];
  transpose_through_tile(in, out, rows, cols, tile);
  // END TODO(student)
}

// [slide:padded-tile]
// Row t of a padded tile starts 33 floats after row t - 1, so a column's 32 floats fall
// in 32 different banks.
__global__ void transpose_padded(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 3, through a tile padded by one column.
  __shared__ float tile[kTileDim][kTileDim + 1];
  transpose_through_tile(in, out, rows, cols, tile);
  // END TODO(student)
}
// [/slide]
// [/slide]
