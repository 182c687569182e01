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
  //   1. grid.x = the number of tiles across the columns, rounded up.
  //   2. grid.y = the number of tiles down the rows, rounded up. A partial tile at the
  //      right or bottom edge needs its block too.
  // END TODO(student)
  return grid;
}

// ---------------------------------------------------------------------------
// Step 1: naive
// ---------------------------------------------------------------------------
// [slide:naive]
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 1, each element straight to its transposed place.
  //   1. The input column c = blockIdx.x * kTileDim + threadIdx.x.
  //   2. For j = 0, kBlockRows, 2 * kBlockRows, ... below kTileDim, the input row
  //      r = blockIdx.y * kTileDim + threadIdx.y + j.
  //   3. For each (r, c) inside the matrix, out[c * rows + r] = in[r * cols + c].
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
  //   1. Read: for j = 0, kBlockRows, ... below kTileDim, the element of input row
  //      blockIdx.y * kTileDim + threadIdx.y + j and input column
  //      blockIdx.x * kTileDim + threadIdx.x goes to tile[threadIdx.y + j][threadIdx.x],
  //      where it lies inside the matrix.
  //   2. __syncthreads(): a warp reads a column of the tile, which other warps wrote.
  // [/slide]
  // [slide:tile-out]
  //   3. Write: the block's tile lands at the mirrored place, so the block indices swap.
  //      Out's row blockIdx.x * kTileDim + threadIdx.y + j and column
  //      blockIdx.y * kTileDim + threadIdx.x receive tile[threadIdx.x][threadIdx.y + j],
  //      where they lie inside out (cols rows of `rows` floats).
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:tiles]
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 2, through an unpadded tile.
  //   1. Declare __shared__ float tile[kTileDim][kTileDim].
  //   2. Call transpose_through_tile(in, out, rows, cols, tile).
  // END TODO(student)
}

// [slide:padded-tile]
// Row t of a padded tile starts 33 floats after row t - 1, so a column's 32 floats fall
// in 32 different banks.
__global__ void transpose_padded(const float* in, float* out, int rows, int cols) {
  // TODO(student): step 3, through a tile padded by one column.
  //   As transpose_tiled, with __shared__ float tile[kTileDim][kTileDim + 1].
  // END TODO(student)
}
// [/slide]
// [/slide]
