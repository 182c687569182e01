// Exercise 21 - SGEMM by hand: C = alpha A B + beta C in single precision, row-major, in
// five steps that each remove the bottleneck of the one before, measured against cuBLAS,
// and an optional sixth.
//
//   1 naive            one thread per element of C: 2 FLOP per 8 bytes loaded
//   2 shared tiles     a 32 x 32 tile of A and of B in shared memory, each loaded once per
//                      block and read by 32 threads: 32 times fewer global loads
//   3 1D blocking      8 elements of C per thread: one value of B, read from shared
//                      memory, serves 8 multiply-adds from registers
//   4 2D blocking      8 x 8 elements per thread: 16 shared reads serve 64 multiply-adds
//   5 vectorized       float4 loads and stores, A's tile transposed in shared memory
//   6 warp tiles       (optional) a warp per 64 x 32 tile of C, and the next slice's
//                      loads in flight during the product: double-buffered tiles
//
// Every kernel must handle any m, n, k: tiles that reach past the edges of A, B and C
// load zeros there (a zero adds nothing to a dot product) and write nothing.
//
// Build and run:  make 21 && make run-21
// Check:          make check-21   (statement: exercises/21_tiled_sgemm/README.md)
#include <cstdint>

#include "course/errors.hpp"
#include "tiled_sgemm.hpp"

// The number of blocks of `per_block` that covers `size` (the last one partly outside).
inline unsigned blocks_covering(int size, int per_block) {
  return static_cast<unsigned>((size + per_block - 1) / per_block);
}

// ---------------------------------------------------------------------------
// The last step of every kernel: one element of C from its dot product
// ---------------------------------------------------------------------------
// [slide:write-result]
__device__ __forceinline__ void write_result(float* c_element, float alpha, float dot, float beta) {
  // TODO(student): one element of C from its dot product.
  //   Write *c_element = alpha * dot + beta * (*c_element). When beta is 0, do not read C:
  //   it may hold NaN, and 0 * NaN is NaN.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Step 1: naive
// ---------------------------------------------------------------------------
// [slide:naive]
__global__ void sgemm_naive(int m, int n, int k, float alpha, const float* a, const float* b,
                            float beta, float* c) {
  // TODO(student): step 1, one thread per element of C.
  // [slide:naive-body]
  //   1. Compute j from blockIdx.x, blockDim.x and threadIdx.x, and i likewise from the .y
  //      fields. threadIdx.x walks the columns j: the 32 threads of a warp then read 32
  //      consecutive floats of a row of B and write 32 consecutive floats of C (one
  //      transaction each), and all read the same A(i, p) (a broadcast).
  //   2. Return when (i, j) is outside C.
  //   3. Sum A(i, p) B(p, j) over p < k.
  //   4. write_result.
  // [/slide]
  // END TODO(student)
}
// [/slide]

void sgemm_naive_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                           float beta, float* c) {
  // TODO(student): launch step 1 on blocks that cover C.
  //   1. Blocks of kNaiveBlockX x kNaiveBlockY threads, x along the columns of C (n), y
  //      along its rows (m), and enough of them to cover C (blocks_covering).
  //   2. Launch sgemm_naive, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 2: tiles of A and B in shared memory
// ---------------------------------------------------------------------------
// [slide:shared-tiles]
__global__ void sgemm_shared_tiles(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c) {
  // TODO(student): step 2, tiles of A and B in shared memory.
  //   The tiles: __shared__ float a_tile[kTile][kTile], b_tile[kTile][kTile].
  //   Thread (x, y) computes C(i, j), i = blockIdx.y * kTile + y, j = blockIdx.x * kTile + x.
  // [slide:shared-tiles-loop]
  //   For each tile t of k (t = 0, kTile, 2 kTile, ...):
  //   1. Each thread loads one element of A's tile, A(i, t + x), into a_tile[y][x], and one
  //      of B's, B(t + y, j), into b_tile[y][x]. It loads 0 where the element lies outside
  //      A or B.
  //   2. __syncthreads(): every element is in place before anyone reads the tiles.
  //   3. Add a_tile[y][p] * b_tile[p][x] for p < kTile.
  //   4. __syncthreads(): nobody overwrites the tiles with the next ones while others
  //      still read them.
  // [/slide]
  //   Every thread takes part in the loads and barriers, even outside C. Then only the
  //   threads inside C write_result.
  // END TODO(student)
}
// [/slide]

void sgemm_shared_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): launch step 2 on blocks that cover C.
  //   Blocks of kTile x kTile threads covering C (x along n, y along m), then
  //   CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 3: a column of 8 elements of C per thread (1D register blocking)
// ---------------------------------------------------------------------------
// [slide:blocking-1d]
__global__ void sgemm_blocking_1d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): step 3, a column of 8 elements of C per thread.
  //   The tiles: __shared__ float a_tile[kBlocking1dM][kBlocking1dK],
  //   b_tile[kBlocking1dK][kBlocking1dN].
  //   The block computes C's kBlocking1dM x kBlocking1dN tile at rows
  //   blockIdx.y * kBlocking1dM, columns blockIdx.x * kBlocking1dN.
  //   1. Thread t owns column t % kBlocking1dN of the tile, and kBlocking1dRows rows from
  //      (t / kBlocking1dN) * kBlocking1dRows. Keep their sums in a register array, zeroed
  //      once.
  //   2. For each slice of kBlocking1dK values of k:
  //      a. each thread loads one element of A's tile (64 x 8: row t / 8, column t % 8)
  //         and one of B's (8 x 64: row t / 64, column t % 64), zeros outside A and B;
  //      b. barrier;
  //      c. for each p of the slice, read B's value once into a register, and add
  //         a_tile[row][p] times it to each of the thread's sums;
  //      d. barrier.
  //   3. write_result for the thread's elements inside C.
  // END TODO(student)
}
// [/slide]

void sgemm_blocking_1d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c) {
  // TODO(student): launch step 3, a block per tile of C.
  //   kBlocking1dThreads threads per block, a block per tile of C, then
  //   CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 4: 8 x 8 elements of C per thread (2D register blocking)
// ---------------------------------------------------------------------------
// [slide:blocking-2d]
__global__ void sgemm_blocking_2d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): step 4, a square of 8 x 8 elements of C per thread.
  //   The tiles: __shared__ float a_tile[kBlocking2dM][kBlocking2dK],
  //   b_tile[kBlocking2dK][kBlocking2dN].
  //   The block computes a kBlocking2dM x kBlocking2dN tile of C.
  //   1. Thread t owns the kBlocking2dRows x kBlocking2dCols sub-tile at row (t / 16) * 8,
  //      column (t % 16) * 8 of the block's tile. Its sums are zeroed once.
  //   2. For each slice of kBlocking2dK values of k:
  //      a. the 256 threads load the 1024 elements of each tile, 4 each: element e = t,
  //         t + 256, ... at row e / width, column e % width, zeros outside A and B;
  //      b. barrier;
  //      c. for each p, copy the thread's 8 values of A's column p and 8 of B's row p into
  //         registers, then add their 64 products into the sums;
  //      d. barrier.
  //   3. write_result for the thread's elements inside C.
  // END TODO(student)
}
// [/slide]

void sgemm_blocking_2d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c) {
  // TODO(student): launch step 4, a block per tile of C.
  //   kBlocking2dThreads threads per block, a block per tile of C, then
  //   CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Steps 5 and 6: four floats at once
// ---------------------------------------------------------------------------
__device__ inline bool aligned_to_float4(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % (kVectorWidth * sizeof(float)) == 0;
}

// [slide:four-floats]
// The 4 floats matrix(row, col .. col + 3) of a row-major rows x cols matrix, col a
// multiple of 4; 0 for those outside the matrix.
__device__ __forceinline__ float4 load_4_floats(const float* matrix, int rows, int cols, int row,
                                                int col) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  // TODO(student): 4 floats of a row, one float4 load where the row allows it.
  //   A float4 moves 4 floats in one 16-byte load or store. Its address must be a multiple
  //   of 16 bytes, or the kernel stops with "misaligned address".
  //   1. Outside the matrix (row >= rows), return v: 4 zeros.
  //   2. Where every row starts on a 16-byte boundary (cols % kVectorWidth == 0, and the
  //      matrix itself aligned_to_float4) and col < cols, load the 4 floats as one float4:
  //      col being a multiple of 4, all 4 then lie inside the row. The header's 256-byte
  //      alignment holds for row 0 only: row i starts i * cols floats later, so with
  //      cols = 61 row 1 starts 244 bytes after row 0, and with cols % 4 != 0 most rows are
  //      not 16-byte aligned. aligned_to_float4 always passes for cudaMalloc pointers; it
  //      keeps the function right when called on a sub-matrix such as a + 1.
  //   3. Elsewhere, load the 4 floats one by one, each 0 when its column is >= cols.
  // END TODO(student)
  return v;
}

// The 4 elements C(i, j .. j + 3) of the m x n C from their dot products, j a multiple of
// 4; only those inside C.
__device__ __forceinline__ void write_4_results(float* c, int m, int n, int i, int j, float alpha,
                                                float4 dots, float beta) {
  // TODO(student): 4 elements of a row of C, one float4 store where the row allows it.
  //   1. Return when (i, j) is outside C.
  //   2. Where n % kVectorWidth == 0 and c is aligned_to_float4: read the 4 elements as one
  //      float4 (only when beta != 0), compute alpha * dot + beta * C for each, and store
  //      them as one float4.
  //   3. Elsewhere, write_result for each of the 4 whose column is < n.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Step 5: float4 loads and stores, A's tile transposed (the final version)
// ---------------------------------------------------------------------------
// [slide:vectorized]
__global__ void __launch_bounds__(kBlocking2dThreads)
    sgemm_vectorized(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                     float* c) {
  // TODO(student): step 5, step 4 with float4 loads and stores.
  //   First write load_4_floats and write_4_results above.
  //   1. Store A's tile transposed: __shared__ __align__(16) float
  //      a_tile_t[kBlocking2dK][kBlocking2dM], a_tile_t[p][r] = A(tile_row + r, s + p).
  //      A thread's 4 consecutive rows at a given p are then one float4. B's tile is
  //      __shared__ __align__(16) float b_tile[kBlocking2dK][kBlocking2dN].
  //   2. Give a thread its 8 rows as two groups of 4, 64 apart: (t / 16) * 4 and 64 + that
  //      (its columns likewise, (t % 16) * 4 and 64 + that). Then 16 threads read 16
  //      consecutive float4 of a row of a tile (no bank conflict) and write 256 consecutive
  //      bytes of C. Per p, read two float4 of a_tile_t and two of b_tile.
  //   3. Load each tile with load_4_floats, one float4 per thread and tile: A's slice is 8
  //      wide (float4 e at row e / 2, columns 4 (e % 2)), B's is 128 wide (row e / 32,
  //      columns 4 (e % 32)). Store A's 4 floats into 4 rows of a_tile_t, B's as one float4.
  //   4. Write C with write_4_results, for each of the thread's 8 rows and 2 groups of 4
  //      columns.
  // END TODO(student)
}
// [/slide]

void sgemm_vectorized_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
  // TODO(student): launch step 5, a block per tile of C.
  //   kBlocking2dThreads threads per block, a block per tile of C, then
  //   CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 6 (optional, going further): warp tiles, double-buffered tiles
// ---------------------------------------------------------------------------
// [slide:warp-tiles]
__global__ void __launch_bounds__(kWarpTilesThreads, kWarpTilesBlocksPerSm)
    sgemm_warp_tiles(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                     float* c) {
  // TODO(student): step 6 (optional), warp tiles and double-buffered tiles.
  //   Step 5 with a kWarpTilesM x kWarpTilesN tile of C per block, slices of kWarpTilesK,
  //   and two changes: the threads of a warp share a compact tile of C, and the next
  //   slice's loads are in flight while the product of this one runs.
  //   The tiles, two of each (buffers 0 and 1): __shared__ __align__(16) float
  //   a_tiles_t[2][kWarpTilesK][kWarpTilesM + kWarpTilesAPad] (A's slice transposed, as
  //   in step 5; the header says why its rows are padded) and
  //   b_tiles[2][kWarpTilesK][kWarpTilesN].
  //   1. Place the thread: warp = t / kWarpSize, lane = t % kWarpSize. The warp owns the
  //      kWarpTileM x kWarpTileN tile of C at row (warp / kWarpsAlongN) * kWarpTileM,
  //      column (warp % kWarpsAlongN) * kWarpTileN of the block's tile. The lane's first 4
  //      rows start (lane / kLanesAlongN) * 4 into it, its next 4 kWarpTileM / 2 further;
  //      its first 4 columns start (lane % kLanesAlongN) * 4 into it, its next 4
  //      kWarpTileN / 2 further. Per p, a warp then reads 8 consecutive float4 of a row of
  //      A's tile and 4 of B's: 128 and 64 bytes, no bank conflict.
  //   2. A slice of A (128 x 16) and one of B (16 x 128) are 512 float4 each: a thread
  //      carries 2 of each, kept in float4 registers. A's float4 q of thread t: row
  //      t / 4 + 64 q of the tile, columns 4 (t % 4) .. + 3 of the slice; B's: row
  //      t / 32 + 8 q of the slice, columns 4 (t % 32) .. + 3 of the tile. Write two
  //      pieces, for instance as lambdas in the kernel ([&] captures the registers):
  //      fetch(s): global memory -> the registers, the slice that starts at s, with
  //      load_4_floats (its bounds give 0 past m, n and k);
  //      stash(to): the registers -> the tiles of buffer `to`, A's transposed.
  //   3. Zero the sums; fetch(0), stash(0), __syncthreads().
  //   4. For each slice s, `buffer` being the one that holds it (0 first):
  //      a. if a slice follows (s + kWarpTilesK < k), fetch(s + kWarpTilesK): its loads
  //         travel while b runs, instead of stalling every warp at a barrier;
  //      b. the product from the tiles of `buffer`, as in step 5, p < kWarpTilesK;
  //      c. if a slice follows, stash(buffer ^ 1): the OTHER buffer;
  //      d. ONE __syncthreads(), then buffer ^= 1.
  //      One barrier per slice is enough. A buffer is read in one slice (b), then
  //      rewritten in the next (c), after the barrier (d) that ended its last reading; and
  //      it is read again only after the barrier that follows that writing.
  //   5. write_4_results for each of the thread's 8 rows and 2 groups of 4 columns.
  //   __launch_bounds__(kWarpTilesThreads, kWarpTilesBlocksPerSm) caps the registers at
  //   128 per thread: check that the stack frame stays at 0 bytes (statement, "Registers
  //   per thread").
  // END TODO(student)
}
// [/slide]

void sgemm_warp_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
  // TODO(student): launch step 6, a block per tile of C.
  //   kWarpTilesThreads threads per block, a block per tile of C, then
  //   CUDA_CHECK_LAUNCH().
  // END TODO(student)
}
