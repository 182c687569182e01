// Exercise 26 - a half-precision matrix multiply on the tensor cores: C = A B with A and
// B in FP16 and every sum in FP32, row-major, in three steps measured against cuBLAS
// (cublasGemmEx, FP16 inputs, FP32 compute).
//
//   1 one warp         WMMA: one warp per 16 x 16 tile of C, its 16 x 16 tiles of A and B
//                      copied through a small staging tile per warp, one mma_sync each
//   2 shared tiles     a block of 8 warps shares a 128 x 32 tile of A and a 32 x 128 tile
//                      of B in padded shared memory; each warp keeps 4 x 2 fragments of C
//   3 mma pipeline     (sm_80 and newer) mma.sync on fragments that ldmatrix loads, and
//                      the tiles copied by cp.async through 3 stages: the copies of the
//                      next two slices run while the tensor cores work on this one
//
// Every kernel handles any m, n, k: the edges are guarded. Tiles that reach past A or B
// hold zeros there (a zero adds nothing to a dot product), and only the elements of C
// inside C are written.
//
// Build and run:  make 26 && make run-26
// Check:          make check-26   (statement: exercises/26_tensor_core_gemm/README.md)
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>

#include "course/errors.hpp"
#include "course/launch.hpp"
#include "tensor_core_gemm.hpp"

namespace wmma = nvcuda::wmma;

// ---------------------------------------------------------------------------
// Step 1: one warp per 16 x 16 tile of C (WMMA)
// ---------------------------------------------------------------------------
// [slide:one-warp]
__global__ void hgemm_wmma_one_warp(int m, int n, int k, const __half* a, const __half* b,
                                    float* c) {
  // TODO(student): step 1, one warp per 16 x 16 tile of C.
  // [slide:one-warp-fragments]
  //   Warp w = threadIdx.x / 32 of the block computes the 16 x 16 tile of C at row
  //   (blockIdx.y * kOneWarpWarpsAlongM + w / kOneWarpWarpsAlongN) * 16 and column
  //   (blockIdx.x * kOneWarpWarpsAlongN + w % kOneWarpWarpsAlongN) * 16.
  //   1. Its staging tiles, one per warp, each __shared__ __align__(32) (WMMA wants 32-byte
  //      aligned tiles): __half a_stage[kOneWarpWarps][16 * 16], __half b_stage[...], and
  //      float c_stage[kOneWarpWarps][16 * 16].
  //   2. Three fragments (nvcuda::wmma, 16 x 16 x 16): matrix_a and matrix_b of __half, both
  //      wmma::row_major (A and B are row-major), and an accumulator of float, set to 0 with
  //      wmma::fill_fragment once, before the loop.
  // [/slide]
  // [slide:one-warp-loop]
  //   3. For each slice t of 16 values of k:
  //      a. each lane copies 8 of the 256 elements of A's tile, A(row + e / 16, t + e % 16),
  //         and of B's, B(t + e / 16, column + e % 16), into the warp's staging tiles
  //         (e = lane, lane + 32, ...), with 0 for an element outside A or B;
  //      b. __syncwarp(): every lane's elements are in place;
  //      c. wmma::load_matrix_sync both fragments from the staging tiles (ldm 16), and
  //         wmma::mma_sync(sum, a_fragment, b_fragment, sum);
  //      d. __syncwarp(): nobody overwrites the staging tiles while others still load.
  // [/slide]
  //   4. wmma::store_matrix_sync the sum into c_stage (ldm 16, wmma::mem_row_major),
  //      __syncwarp(), then each lane writes its elements of the tile that lie inside C.
  // END TODO(student)
}
// [/slide]

void hgemm_wmma_one_warp_on_device(int m, int n, int k, const __half* a, const __half* b,
                                   float* c) {
  // TODO(student): launch step 1 on blocks that cover C.
  //   1. Blocks of kOneWarpThreads threads; each covers kOneWarpWarpsAlongN * 16 columns of
  //      C (blockIdx.x) and kOneWarpWarpsAlongM * 16 rows (blockIdx.y): enough of them to
  //      cover C (course::blocks_for).
  //   2. Launch hgemm_wmma_one_warp, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// The copies of steps 2 and 3 (cp.async, sm_80 and newer)
// ---------------------------------------------------------------------------
// [slide:cp-async]
// Starts copying 16 bytes from global to shared memory without going through registers;
// with `inside` false nothing is read and the 16 bytes are zeros (the source size is 0).
__device__ __forceinline__ void cp_async_16_bytes(__half* to_shared, const __half* from_global,
                                                  bool inside) {
#if __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(to_shared));
  const int source_bytes = inside ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(from_global),
               "r"(source_bytes));
#endif
}
// Closes the group of copies this thread started since the last commit.
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}
// [/slide]

// [slide:load-tile]
// Copies the kRows x kCols tile at (row0, col0) of a height x width row-major matrix into
// `tile` (rows kCols + kTilePad halves apart), zeros outside the matrix; every thread of
// the block takes its share. `async` (step 3) copies with cp.async, which needs whole
// 16-byte chunks: rows whose width is a multiple of 8 halves.
template <int kRows, int kCols>
__device__ void load_tile(__half* tile, const __half* matrix, int height, int width, int row0,
                          int col0, bool async) {
  // TODO(student): one tile into shared memory, zeros outside the matrix.
  //   The tile is kRows x kCols halves, its rows kCols + kTilePad halves apart; it is cut
  //   into chunks of 8 halves (16 bytes), kCols / 8 a row. Thread threadIdx.x takes chunks
  //   threadIdx.x, threadIdx.x + blockDim.x, ...; chunk q of tile row r holds the matrix's
  //   elements (row0 + r, col0 + 8 q ... col0 + 8 q + 7). It starts inside the matrix when
  //   row0 + r < height and col0 + 8 q < width.
  //   1. When `width` is a multiple of 8, a chunk that starts inside a row ends inside it:
  //      a. with `async`, cp_async_16_bytes(to, from, inside): from the matrix, or zeros
  //         when the chunk lies outside it (pass the matrix's start as `from` then);
  //      b. otherwise one 16-byte copy (a uint4) when it is inside, zeros when not.
  //   2. Otherwise, element by element, 0 for each one outside the matrix (a row's
  //      elements are then not 16-byte aligned).
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Step 2: a block of warps sharing tiles of A and B in shared memory (WMMA)
// ---------------------------------------------------------------------------
// [slide:shared-tiles]
__global__ void __launch_bounds__(kBlockThreads)
    hgemm_wmma_shared_tiles(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): step 2, 4 x 2 fragments of C per warp, tiles shared by the block.
  //   1. The tiles, each __shared__ __align__(128): __half a_tile[kATileHalves], __half
  //      b_tile[kBTileHalves], and float c_stage[kWarpsPerBlock][16 * 16], one per warp.
  //   2. The block computes C's 128 x 128 tile at (blockIdx.y * 128, blockIdx.x * 128); warp
  //      w its 64 x 32 part at row (w / kWarpsAlongN) * 64, column (w % kWarpsAlongN) * 32 of
  //      the tile: kFragmentsAlongM x kFragmentsAlongN accumulator fragments, zeroed once.
  // [slide:shared-tiles-loop]
  //   3. For each slice t of 32 values of k:
  //      a. load_tile A's 128 x 32 tile at (block row, t) and B's 32 x 128 tile at
  //         (t, block column), `async` false;
  //      b. __syncthreads(): every tile element in place;
  //      c. for each 16 of the slice (kk = 0, 16): load the warp's 4 fragments of A
  //         (a_tile + row * kATileStride + kk, ldm kATileStride) and 2 of B (b_tile +
  //         kk * kBTileStride + column, ldm kBTileStride), then the 4 x 2 mma_sync;
  //      d. __syncthreads(): nobody loads the next slice while others still read this one.
  // [/slide]
  //   4. Each fragment through the warp's c_stage (store_matrix_sync, __syncwarp), and the
  //      elements inside C written, then __syncwarp() before the next fragment.
  // END TODO(student)
}
// [/slide]

void hgemm_wmma_shared_tiles_on_device(int m, int n, int k, const __half* a, const __half* b,
                                       float* c) {
  // TODO(student): launch step 2, a block per 128 x 128 tile of C.
  //   Blocks of kBlockThreads threads covering C in tiles of kBlockTileN columns (x) and
  //   kBlockTileM rows (y), then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 3: mma.sync, ldmatrix and a pipeline of cp.async copies (sm_80 and newer)
// ---------------------------------------------------------------------------
// [slide:mma-sync]
// Loads four 8 x 8 matrices of halves from shared memory: lane l gives the address of row
// l % 8 of matrix l / 8, and receives in r[q] two halves of matrix q (row l / 4, columns
// 2 (l % 4) and the next). `.trans` gives each lane a column's two halves instead.
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const __half* row) {
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#endif
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const __half* row) {
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#endif
}
// sum (16 x 8, FP32) += a (16 x 16, FP16, row-major) b (16 x 8, FP16, column-major), by the
// 32 lanes of a warp together; each lane holds 4 elements of the 16 x 8 tile of C.
__device__ __forceinline__ void mma_16x8x16(float (&sum)[4], const unsigned (&a)[4],
                                            const unsigned (&b)[2]) {
#if __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(sum[0]), "+f"(sum[1]), "+f"(sum[2]), "+f"(sum[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}
// [/slide]

// [slide:pipeline]
__global__ void __launch_bounds__(kBlockThreads)
    hgemm_mma_pipeline(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // Compiled for an older GPU (or for PTX of one), this kernel is empty: the check asks for
  // step 3 only where the device and this program's code are sm_80 or newer (the number
  // is kMmaPipelineArch's: the preprocessor cannot read a constexpr).
#if __CUDA_ARCH__ >= 800
  // TODO(student): step 3, the pipeline of tiles and the MMAs.
  //   1. The stages in dynamic shared memory: extern __shared__ __align__(128) unsigned char
  //      pipeline_memory[]; kPipelineStages tiles of A (kATileHalves each), then as many of
  //      B. Step 2's block tile, warps and warp tiles; the sums in registers:
  //      float sums[kMmaTilesAlongM][kMmaTilesAlongN][4] = {}.
  // [slide:pipeline-loop]
  //   2. Before the loop, start copying slices 0 .. kPipelineStages - 2 (load_tile with
  //      `async` true, slice s into stage s % kPipelineStages), one cp_async_commit() each,
  //      even past the last slice (an empty group keeps the count).
  //   3. For each slice s: cp_async_wait<kPipelineStages - 2>() (this thread's copies of
  //      slice s have landed), __syncthreads() (everyone's have, and everyone is done with
  //      slice s - 1), then start copying slice s + kPipelineStages - 1, if there is one,
  //      into the stage that slice s - 1 used, and cp_async_commit() in any case.
  // [/slide]
  //   4. The product of slice s, for kk = 0, 16: ldmatrix_x4 each of the warp's 4 tiles of A
  //      (lane l gives row l % 16, column kk + (l / 16) * 8 of the 16 x 16 tile), and
  //      ldmatrix_x4_trans two 8-column tiles of B at once, n0 = the warp's column + 8 g for
  //      g = 0 and 2 (lane l gives row kk + l % 16, column n0 + (l / 16) * 8: registers
  //      0-1 are tile n0's fragment, 2-3 tile n0 + 8's); then mma_16x8x16 on the 4 x 4 tiles.
  // [slide:mma-store]
  //   5. Lane l holds, of each 16 x 8 tile, rows l / 4 and l / 4 + 8, columns 2 (l % 4) and
  //      2 (l % 4) + 1: sums[f][g][0..1] and [2..3]. Write those inside C.
  // [/slide]
  // END TODO(student)
#endif
}
// [/slide]

void hgemm_mma_pipeline_on_device(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): launch step 3 with its stages in dynamic shared memory.
  //   1. kPipelineBytes of dynamic shared memory is over the 48 KB a block gets unasked:
  //      cudaFuncSetAttribute(hgemm_mma_pipeline,
  //      cudaFuncAttributeMaxDynamicSharedMemorySize, kPipelineBytes), through CUDA_CHECK.
  //   2. Step 2's grid, kBlockThreads threads, kPipelineBytes of shared memory; then
  //      CUDA_CHECK_LAUNCH().
  // END TODO(student)
}
