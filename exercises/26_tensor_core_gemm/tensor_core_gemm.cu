// Exercise 26 - a half-precision matrix multiply on the tensor cores: C = A B with A and
// B in FP16 and every sum in FP32, row-major, in three steps and an optional fourth,
// measured against cuBLAS (cublasGemmEx, FP16 inputs, FP32 compute).
//
//   1 one warp         WMMA: one warp per 16 x 16 tile of C, its 16 x 16 tiles of A and B
//                      copied through a small staging tile per warp, one mma_sync each
//   2 shared tiles     a block of 8 warps shares a 128 x 32 tile of A and a 32 x 128 tile
//                      of B in padded shared memory, two of each: the next slice's loads,
//                      into registers, fly during this slice's MMAs; each warp keeps 4 x 2
//                      fragments of C
//   3 mma pipeline     (sm_80 and newer) a 128 x 256 tile of C per block: mma.sync on
//                      fragments that ldmatrix loads one k-step ahead, and the tiles copied
//                      by cp.async through 4 swizzled stages: the copies of the next three
//                      slices run while the tensor cores work on this one
//   4 wgmma + TMA      (optional; sm_90 GPUs, code built for sm_90a) a block of 3
//                      warpgroups: one copies 128 x 64 tiles of A and 64 x 256 tiles of B
//                      with the tensor memory accelerator through 4 stages, each guarded by
//                      a pair of mbarriers; two multiply them with wgmma, a 64 x 256 tile of
//                      C each. Shapes whose n or k is not a multiple of 8 go to step 3
//
// Every kernel handles any m, n, k: the edges are guarded. Tiles that reach past A or B
// hold zeros there (a zero adds nothing to a dot product; TMA writes those zeros itself),
// and only the elements of C inside C are written.
//
// Build and run:  make 26 && make run-26
// Check:          make check-26   (statement: exercises/26_tensor_core_gemm/README.md)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

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
  //   3. For each slice of 16 values of k, starting at k0 = 0, 16, 32, ...:
  //      a. each lane copies 8 of the 256 elements of A's tile, A(row + e / 16, k0 + e % 16),
  //         and of B's, B(k0 + e / 16, column + e % 16), into the warp's staging tiles
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
// Step 2: a block of warps sharing tiles of A and B in shared memory (WMMA)
// ---------------------------------------------------------------------------
// [slide:load-chunks]
// Loads this thread's chunks of the kRows x kCols tile at (row0, col0) of a height x width
// row-major matrix into registers, zeros outside the matrix. A 16-byte load needs whole,
// aligned chunks: rows whose width is a multiple of 8 halves; other rows go element by
// element.
template <int kRows, int kCols>
__device__ void load_chunks(uint4 (&chunks)[kChunksPerThread<kRows, kCols>], const __half* matrix,
                            int height, int width, int row0, int col0) {
  // TODO(student): step 2, a thread's chunks of a tile into registers, zeros outside.
  //   Chunk p of this thread (p = 0 .. kChunksPerThread<kRows, kCols> - 1) is chunk
  //   threadIdx.x + p * kBlockThreads of the tile, whose rows are kCols / 8 chunks: it
  //   holds the matrix's elements (row0 + r, col0 + q ... col0 + q + 7), r its tile row, q
  //   8 times its place in the row. It starts inside the matrix when row0 + r < height and
  //   col0 + q < width.
  //   1. When `width` is a multiple of 8, a chunk that starts inside a row ends inside it:
  //      one 16-byte load (a uint4) when it is inside, make_uint4(0, 0, 0, 0) when not.
  //   2. Otherwise, element by element, 0 for each one outside the matrix (a row's elements
  //      are then not 16-byte aligned), packed two halves to an unsigned (__half_as_ushort:
  //      the first one in the low 16 bits) into the uint4.
  // END TODO(student)
}
// [/slide]

// Stores this thread's chunks, loaded by load_chunks, into `tile` in shared memory: rows
// kCols + kTilePad halves apart.
template <int kRows, int kCols>
__device__ void store_chunks(__half* tile, const uint4 (&chunks)[kChunksPerThread<kRows, kCols>]) {
  // TODO(student): step 2, the chunks into the padded tile, 16 bytes at a time.
  //   Chunk p of this thread (as in load_chunks) goes to its tile row r and column q:
  //   tile + r * (kCols + kTilePad) + q, one 16-byte store.
  // END TODO(student)
}

// [slide:shared-tiles]
__global__ void __launch_bounds__(kBlockThreads, 2)
    hgemm_wmma_shared_tiles(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): step 2, 4 x 2 fragments of C per warp, two buffers of tiles.
  //   1. The tiles, each __shared__ __align__(128): __half a_tiles[kTileBuffers][kATileHalves],
  //      __half b_tiles[kTileBuffers][kBTileHalves], float c_stage[kWarpsPerBlock][16 * 16].
  //   2. The block computes C's 128 x 128 tile at (blockIdx.y * 128, blockIdx.x * 128); warp
  //      w its 64 x 32 part at row (w / kWarpsAlongN) * 64, column (w % kWarpsAlongN) * 32 of
  //      the tile: kFragmentsAlongM x kFragmentsAlongN accumulator fragments, zeroed once.
  //   3. Slice 0 (32 values of k) into buffer 0: load_chunks A's 128 x 32 tile at (block row,
  //      0) into uint4 a_next[kAChunksPerThread], B's 32 x 128 tile at (0, block column) into
  //      b_next[kBChunksPerThread], store_chunks both, then __syncthreads().
  // [slide:shared-tiles-loop]
  //   4. For each slice s, read from buffer s % 2:
  //      a. if there is a slice s + 1, load_chunks it into a_next and b_next: those loads fly
  //         while the tensor cores work on slice s;
  // [/slide]
  //      b. for each 16 of the slice (kk = 0, 16): load the warp's 4 fragments of A
  //         (a_tiles[s % 2] + row * kATileStride + kk, ldm kATileStride) and 2 of B
  //         (b_tiles[s % 2] + kk * kBTileStride + column, ldm kBTileStride), then the 4 x 2
  //         mma_sync;
  // [slide:shared-tiles-store]
  //      c. if there is a slice s + 1, store_chunks it into the OTHER buffer, (s + 1) % 2
  //         (the one slice s - 1 used: every warp is done with it since the last barrier);
  //      d. __syncthreads(), one per slice: slice s + 1 is in place, and nobody overwrites
  //         buffer s % 2 (at slice s + 1) while others still read it.
  // [/slide]
  //   5. Each fragment to C: where n is a multiple of 8 and the fragment lies wholly inside
  //      C, store_matrix_sync straight to c + i0 * n + j0 with ldm n; otherwise through the
  //      warp's c_stage (store_matrix_sync, __syncwarp), the elements inside C written, then
  //      __syncwarp() before the next fragment.
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

// Where element (row, col) of a kCols-wide tile of step 3 lies in shared memory, in halves
// from the tile's start: rows kCols halves apart, no padding, and the row's 16-byte chunks
// permuted instead. Chunk q of row r is stored at chunk q ^ key(r) of the same row, the key
// taken so that the 8 rows r .. r + 7 (r a multiple of 8) that one 8 x 8 matrix load reads
// at the same q land in the 8 different groups of 4 banks: rows of 128 bytes or more, key
// r % 8 (the chunk stays in its own 128 bytes of the row); rows of 64 bytes (4 chunks: two
// rows share 128 bytes), key (r / 2) % 4. A chunk moves whole: its 8 halves stay together,
// 16-byte aligned, for cp.async and ldmatrix.
// [slide:swizzle]
template <int kCols>
__device__ __forceinline__ int swizzled_offset(int row, int col) {
  constexpr int kChunksPerRow = kCols / kHalvesPerChunk;
  static_assert(kChunksPerRow == 4 || kChunksPerRow % 8 == 0,
                "rows of 64 bytes or of a multiple of 128");
  const int key = kChunksPerRow == 4 ? row / 2 % 4 : row % 8;
  const int chunk = col / kHalvesPerChunk ^ key;
  return row * kCols + chunk * kHalvesPerChunk + col % kHalvesPerChunk;
}
// [/slide]

// [slide:copy-tile]
// Starts copying the kRows x kCols tile at (row0, col0) of a height x width row-major
// matrix into the swizzled `tile`, zeros outside the matrix; every thread of the block
// takes its share of chunks, as in load_chunks. cp.async needs whole 16-byte chunks: rows
// whose width is a multiple of 8 halves; other rows are copied element by element (through
// registers, done when the function returns).
template <int kRows, int kCols>
__device__ void copy_tile_async(__half* tile, const __half* matrix, int height, int width, int row0,
                                int col0) {
  // TODO(student): step 3, one tile into its swizzled stage, zeros outside the matrix.
  //   The same chunks as load_chunks: chunk p of this thread is chunk threadIdx.x +
  //   p * kBlockThreads of the tile, at tile row r, column q (a multiple of 8). It goes to
  //   tile + swizzled_offset<kCols>(r, q), a whole 16-byte chunk.
  //   1. When `width` is a multiple of 8: cp_async_16_bytes(to, from, inside), from the
  //      matrix, or zeros when the chunk lies outside it (pass the matrix's start as `from`
  //      then).
  //   2. Otherwise, element by element into the same 8 places, 0 for each one outside the
  //      matrix.
  //   For speed: a tile wholly inside the matrix (width a multiple of 8, row0 + kRows <=
  //   height, col0 + kCols <= width) needs one test, not one per chunk; its copies can go
  //   out with `inside` true, and the loop of slices keeps its issue slots for the MMAs.
  // END TODO(student)
}
// [/slide]

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
__global__ void __launch_bounds__(kBlockThreads, 1)
    hgemm_mma_pipeline(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // Compiled for an older GPU (or for PTX of one), this kernel is empty: the check asks for
  // step 3 only where the device and this program's code are sm_80 or newer (the number
  // is kMmaPipelineArch's: the preprocessor cannot read a constexpr).
#if __CUDA_ARCH__ >= 800
  // TODO(student): step 3, the pipeline of tiles and the MMAs on fragments one k-step ahead.
  //   1. The stages in dynamic shared memory: extern __shared__ __align__(128) unsigned char
  //      pipeline_memory[]; kPipelineStages tiles of A (kPipelineATileHalves each), then as
  //      many of B. The block computes C's 128 x 256 tile at (blockIdx.y * kPipelineTileM,
  //      blockIdx.x * kPipelineTileN); warp w its 64 x 64 part at row (w / kWarpsAlongN) * 64,
  //      column (w % kWarpsAlongN) * 64: float sums[kMmaTilesAlongM][kMmaTilesAlongN][4] = {}.
  //      Slice s (32 values of k) goes to stage s % kPipelineStages, with copy_tile_async.
  //   2. Two sets of fragments, unsigned a_fragments[2][kMmaTilesAlongM][4] and
  //      b_fragments[2][kMmaTilesAlongN][2]. Loading set `set` with k-step kk of slice s:
  //      ldmatrix_x4 each of the warp's 4 tiles of A (lane l gives row warp row + 16 f +
  //      l % 16, column kk + (l / 16) * 8), and ldmatrix_x4_trans two 8-column tiles of B
  //      at once, n0 = the warp's column + 8 g for g = 0, 2, 4, 6 (lane l gives row
  //      kk + l % 16, column n0 + (l / 16) * 8), into an unsigned r[4]: r[0-1] are tile n0's
  //      fragment, r[2-3] tile n0 + 8's; every address through swizzled_offset, as the
  //      copies wrote them.
  //   3. Before the loop: copy slices 0 .. kPipelineStages - 2, one cp_async_commit() each,
  //      even past the last slice (an empty group keeps the count); then
  //      cp_async_wait<kPipelineStages - 2>(), __syncthreads(), and set 0 := slice 0's
  //      k-step 0.
  // [slide:pipeline-loop]
  //   4. For each slice s, its two k-steps:
  //      a. k-step 0: set 1 := slice s's k-step 1 (kk = 16); copy slice s + kPipelineStages
  //         - 1, if there is one (into the stage of slice s - 1), and cp_async_commit() in any
  //         case; then mma_16x8x16 on set 0's 4 x 8 tiles;
  //      b. k-step 1: cp_async_wait<kPipelineStages - 2>() (this thread's copies of slice
  //         s + 1 have landed), __syncthreads() (everyone's have, and everyone is done with
  //         the stage of slice s - 1); set 0 := slice s + 1's k-step 0, if there is one; then
  //         mma_16x8x16 on set 1's tiles.
  // [/slide]
  // [slide:mma-store]
  //   5. Lane l holds, of each 16 x 8 tile, rows l / 4 and l / 4 + 8, columns 2 (l % 4) and
  //      2 (l % 4) + 1: sums[f][g][0..1] and [2..3]. Write those inside C (a float2 where n
  //      is even: the pair is 8-byte aligned).
  // [/slide]
  // END TODO(student)
#endif
}
// [/slide]

// Whether this GPU gives a block kPipelineBytes of shared memory: every sm_80 GPU and newer
// does (99 KiB or more), an sm_75 GPU does not (64 KiB), and runs step 2 instead.
bool pipeline_fits_here() {
  int device = 0, shared_bytes = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(
      cudaDeviceGetAttribute(&shared_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return shared_bytes >= kPipelineBytes;
}

void hgemm_mma_pipeline_on_device(int m, int n, int k, const __half* a, const __half* b, float* c) {
  if (!pipeline_fits_here()) {
    hgemm_wmma_shared_tiles_on_device(m, n, k, a, b, c);
    return;
  }
  // TODO(student): launch step 3 with its stages in dynamic shared memory.
  //   1. kPipelineBytes of dynamic shared memory is over the 48 KiB a block gets unasked:
  //      cudaFuncSetAttribute(hgemm_mma_pipeline,
  //      cudaFuncAttributeMaxDynamicSharedMemorySize, kPipelineBytes), through CUDA_CHECK.
  //   2. Blocks of kBlockThreads threads covering C in tiles of kPipelineTileN columns (x)
  //      and kPipelineTileM rows (y), kPipelineBytes of shared memory; then
  //      CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 4 (optional, Hopper): wgmma fed by TMA through a pipeline of mbarriers (sm_90a)
// ---------------------------------------------------------------------------
// The instructions below exist in code compiled for sm_90a alone, and run on sm_90 GPUs
// alone (H100, H200): elsewhere each wrapper compiles to nothing, and the check asks for
// step 4 only where the GPU is sm_90 and this program's code was built for sm_90a.
//
// Shared memory, as TMA writes it with the 128-byte swizzle: in each 1024-byte block of 8
// rows of 128 bytes, the 16-byte chunk c of row r sits at chunk c ^ r. wgmma reads it
// through the same swizzle, so every stage starts on a 1024-byte boundary.
//   A's 128 x 64 tile: row i (of m) at byte i * 128, its 64 halves of k along the row.
//   B's 64 x 256 tile: 4 boxes of 64 x 64, box s (columns 64 s .. 64 s + 63) at byte
//   s * kBBoxBytes; in it, row p (of k) at byte p * 128, its 64 halves of n along the row.

// wgmma reads A and B from shared memory through 64-bit matrix descriptors (PTX ISA,
// "Matrix Descriptor Format"): bits 0-13 the start address, 16-29 the leading dimension
// byte offset (LBO), 32-45 the stride dimension byte offset (SBO), each >> 4; bits 62-63
// the swizzle (1: 128 bytes).
__host__ __device__ __forceinline__ uint64_t descriptor_field(uint32_t bytes) {
  return static_cast<uint64_t>((bytes & 0x3FFFFu) >> 4);
}
__host__ __device__ __forceinline__ uint64_t make_descriptor(uint32_t start, uint32_t leading_bytes,
                                                             uint32_t stride_bytes) {
  constexpr uint64_t kSwizzle128Bytes = 1;
  return descriptor_field(start) | descriptor_field(leading_bytes) << 16 |
         descriptor_field(stride_bytes) << 32 | kSwizzle128Bytes << 62;
}
// A is K-major (a row of A runs along k): one k16 step lies inside a 128-byte row, LBO is
// unused (16), SBO goes from 8 rows of m to the next 8 (1024 bytes); the next k16 step
// starts 32 bytes further along the rows (the hardware applies the swizzle to the address).
constexpr uint32_t kALeadingBytes = 16;
constexpr uint32_t kAStrideBytes = kSwizzlePeriodBytes;
constexpr uint32_t kAStepBytes = kWgmmaK * sizeof(__half);  // 32
// B is N-major (a row of B runs along n, "transposed" for wgmma: imm-trans-b = 1): LBO goes
// from one box of 64 columns to the next (8192 bytes), SBO from 8 rows of k to the next
// (1024 bytes); the next k16 step starts 16 rows further (2048 bytes).
constexpr uint32_t kBLeadingBytes = kBBoxBytes;
constexpr uint32_t kBStrideBytes = kSwizzlePeriodBytes;
constexpr uint32_t kBStepBytes = kWgmmaK * kSwizzleBytes;  // 2048
static_assert(kALeadingBytes == 16 && kAStrideBytes == 1024 && kAStepBytes == 32 &&
                  kBLeadingBytes == 8192 && kBStrideBytes == 1024 && kBStepBytes == 2048,
              "the descriptor values of the comments above");
static_assert(kWgmmaStageBytes % kSwizzlePeriodBytes == 0 &&
                  kAStageBytes % kSwizzlePeriodBytes == 0 && kBBoxBytes % kSwizzlePeriodBytes == 0,
              "every box starts on a 1024-byte boundary");
static_assert(kWgmmaTileK == kBoxHalves, "A's box is one swizzle row of k wide");
static_assert(kConsumerWarps == 8,
              "lane 0 of each consumer warp arrives on a stage's empty barrier");

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// An mbarrier in shared memory completes a phase when `count` threads have arrived and the
// bytes they announced (expect_tx) have landed; waiters test the parity of the phase.
__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t count) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
#endif
}
// Makes initialized barriers visible to the TMA (the async proxy) and, with the
// __syncthreads() that follows, to the other threads.
__device__ __forceinline__ void mbarrier_init_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
// Arrives, and announces `bytes` that copies will complete on this phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
#endif
}
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
#endif
}
// Spins until the phase of parity `parity` (0, 1, 0, ...: its count modulo 2) has completed.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  uint32_t done = 0;
  do {
    asm volatile("{\n"
                 ".reg .pred ready;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, ready;\n"
                 "}\n"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
#endif
}
// TMA: one thread copies the box at (column c0, row c1) of the matrix that `map` describes
// into shared memory at `to`, and completes its bytes on the mbarrier `bar`. The parts of
// the box outside the matrix arrive as zeros, and count in the bytes all the same.
__device__ __forceinline__ void tma_load_2d(uint32_t to, const CUtensorMap* map, int c0, int c1,
                                            uint32_t bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(to),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
               : "memory");
#endif
}
__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
#endif
}
// Warp specialization: the warpgroup that only copies gives registers back, the ones that
// hold the accumulators take them (every thread of the warpgroup calls it).
template <int kRegisters>
__device__ __forceinline__ void setmaxnreg_dec() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}
template <int kRegisters>
__device__ __forceinline__ void setmaxnreg_inc() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}
// wgmma is asynchronous: wgmma_fence() before the first wgmma that touches the accumulators,
// wgmma_commit() closes the group of wgmmas issued since the last one, wgmma_wait<N>() waits
// until at most N groups are still running (by the whole warpgroup, every thread).
__device__ __forceinline__ void wgmma_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#endif
}
// Keeps the compiler from moving reads and writes of the accumulators across the
// asynchronous wgmmas, which write them behind its back until wgmma_wait.
__device__ __forceinline__ void fence_accumulators(float (&d)[kWgmmaAccumulators]) {
#pragma unroll
  for (int i = 0; i < kWgmmaAccumulators; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
// d (64 x 256, FP32) += A (64 x 16, K-major, desc_a) B (16 x 256, N-major, desc_b), by the 128
// threads of a warpgroup together. Thread t (warp w = t / 32, lane l) holds, for j = 0..31,
// d[4 j + 0..1] at row 16 w + l / 4, columns 8 j + 2 (l % 4) and the next, and d[4 j + 2..3]
// at row 16 w + l / 4 + 8, the same columns.
// scale_d 0 would overwrite d with A B instead of adding to it.
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[kWgmmaAccumulators], uint64_t desc_a,
                                                 uint64_t desc_b, int scale_d) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "{\n"
      ".reg .pred scale_d;\n"
      "setp.ne.b32 scale_d, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110,"
      "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124,"
      "%125, %126, %127},\n"
      // a-desc, b-desc, scale-d, scale-a, scale-b, imm-trans-a (0: A K-major), imm-trans-b
      // (1: B N-major)
      "%128, %129, scale_d, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

__global__ void __launch_bounds__(kWgmmaThreads, 1)
    hgemm_wgmma_tma(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                    const __grid_constant__ CUtensorMap map_b, float* c) {
  // Compiled for anything but sm_90a, this kernel is empty: the check asks for step 4 only
  // where the GPU is sm_90 and this program's code was built for sm_90a.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // TODO(student): step 4, a producer warpgroup and two consumer warpgroups.
  //   1. In shared memory: extern __shared__ unsigned char stage_memory[] (the stages), and
  //      two arrays of kWgmmaStages mbarriers, __shared__ __align__(8) uint64_t full[...] and
  //      empty[...] (pass shared_address(&full[s]) to the mbarrier functions). The stages
  //      start at the first 1024-byte boundary of stage_memory, as a shared address:
  //      (shared_address(stage_memory) + kSwizzlePeriodBytes - 1) & ~(kSwizzlePeriodBytes - 1);
  //      stage s at + s * kWgmmaStageBytes, A's tile first, then B's boxes (kBBoxBytes
  //      apart). The block's tile of C starts at row blockIdx.x * kWgmmaTileM and column
  //      blockIdx.y * kWgmmaTileN; its warpgroup is threadIdx.x / kWarpgroupThreads.
  //   2. Thread 0 initialises each full[s] for 1 arrival (the producer's) and each empty[s]
  //      for kConsumerWarps (lane 0 of each consumer warp), then mbarrier_init_fence();
  //      then __syncthreads().
  //   3. Warpgroup 0, the producer: setmaxnreg_dec<kProducerRegisters>(); then its thread 0
  //      alone, for each slice t of kWgmmaTileK values of k, into stage s = t % kWgmmaStages:
  //      a. from slice kWgmmaStages on, mbarrier_wait(empty[s], (t / kWgmmaStages - 1) & 1):
  //         the consumers are done with the slice the stage held;
  //      b. mbarrier_arrive_expect_tx(full[s], the bytes the stage's boxes will bring);
  //      c. tma_load_2d A's box at (column t * kWgmmaTileK, row: the block's), and each box
  //         j of B at (column: the block's + j * kBoxHalves, row t * kWgmmaTileK), on
  //         full[s]. A box of B that starts at column n or past it is left out, with its
  //         bytes: count the boxes that start before n.
  //   4. Warpgroups 1 and 2, the consumers: setmaxnreg_inc<kConsumerRegisters>(); consumer
  //      w = warpgroup - 1 computes rows 64 w .. 64 w + 63 of the block's tile, in
  //      float d[kWgmmaAccumulators] set to 0, then fence_accumulators(d).
  //   5. For each slice t, in stage s: mbarrier_wait(full[s], (t / kWgmmaStages) & 1);
  //      wgmma_fence(); for kk = 0 .. 3, wgmma_m64n256k16(d, A's descriptor, B's, 1):
  //      make_descriptor(start, LBO, SBO) with A's start at the stage + w * kWgmmaM rows of
  //      kSwizzleBytes + kk * kAStepBytes, B's at the stage's B + kk * kBStepBytes, and the
  //      LBO and SBO above; then wgmma_commit(); wgmma_wait<1>() (slice t - 1's group is
  //      done); fence_accumulators(d); lane 0 of each warp, for t > 0, arrives on
  //      empty[(t - 1) % kWgmmaStages].
  //   6. wgmma_wait<0>(), fence_accumulators(d), then write C from d (which thread holds
  //      which element: the comment of wgmma_m64n256k16), the elements inside C only.
  // END TODO(student)
#endif
}

// A driver function through the runtime (cudaGetDriverEntryPointByVersion, as of the CUDA
// version `version`): the program does not link the driver library for it.
template <typename Function>
Function driver_function(const char* name, unsigned version) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &address, version, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || address == nullptr) {
    std::fprintf(stderr, "the CUDA driver has no %s (CUDA %u.%u): %s\n", name, version / 1000,
                 version % 1000 / 10,
                 found == cudaDriverEntryPointVersionNotSufficent ? "the driver is too old"
                                                                  : "symbol not found");
    std::exit(EXIT_FAILURE);
  }
  return reinterpret_cast<Function>(address);
}

// The tensor map of a rows x cols row-major FP16 matrix, read in boxes of box_rows x 64
// halves (kBoxHalves) with the 128-byte swizzle; a box's elements outside the matrix read as
// zeros. TMA needs the distance between two rows, cols * 2 bytes, a multiple of 16.
CUtensorMap make_tensor_map(const __half* matrix, int rows, int cols, int box_rows) {
  const auto encode =
      driver_function<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled", 12000);
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(cols) * sizeof(__half)};
  const cuuint32_t box[2] = {kBoxHalves, static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult status =
      encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half*>(matrix), dims, row_bytes,
             box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    const auto error_name = driver_function<PFN_cuGetErrorName_v6000>("cuGetErrorName", 6000);
    const char* name = nullptr;
    if (error_name(status, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown CUresult";
    const std::string what = "cuTensorMapEncodeTiled of a " + std::to_string(rows) + " x " +
                             std::to_string(cols) + " matrix in boxes of " +
                             std::to_string(box_rows) + " x " + std::to_string(kBoxHalves);
    course::exit_on_api_error("CUDA driver", what.c_str(), __FILE__, __LINE__, name, "");
  }
  return map;
}

// setmaxnreg redistributes the registers the block was given: with fewer than
// kProducerRegisters for the producer warpgroup plus kConsumerRegisters for each consumer
// warpgroup, setmaxnreg.inc would wait forever. Stops the program, with the figures, instead.
void require_setmaxnreg_registers() {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, hgemm_wgmma_tma));
  const int needed =
      kWarpgroupThreads * (kProducerRegisters + kConsumerWarpgroups * kConsumerRegisters);
  if (attributes.numRegs * kWgmmaThreads < needed) {
    std::fprintf(stderr,
                 "hgemm_wgmma_tma: compiled with %d registers a thread; setmaxnreg needs %d for "
                 "the block (%d a thread)\n",
                 attributes.numRegs, needed, (needed + kWgmmaThreads - 1) / kWgmmaThreads);
    std::exit(EXIT_FAILURE);
  }
}

void hgemm_wgmma_tma_on_device(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): launch step 4, or step 3 where TMA cannot read the rows.
  // [slide:wgmma-launch]
  //   1. When n or k is not a multiple of kTmaRowHalves, run hgemm_mma_pipeline_on_device
  //      instead, and return.
  //   2. The tensor maps: make_tensor_map(a, m, k, kWgmmaTileM) for A (boxes of 128 x 64),
  //      make_tensor_map(b, k, n, kWgmmaTileK) for B (boxes of 64 x 64).
  //   3. require_setmaxnreg_registers(), and cudaFuncSetAttribute(hgemm_wgmma_tma,
  //      cudaFuncAttributeMaxDynamicSharedMemorySize, kWgmmaSharedBytes) through CUDA_CHECK.
  //   4. Blocks of kWgmmaThreads threads, blockIdx.x over C's rows in tiles of kWgmmaTileM,
  //      blockIdx.y over its columns in tiles of kWgmmaTileN, kWgmmaSharedBytes of dynamic
  //      shared memory, the maps passed by value; then CUDA_CHECK_LAUNCH().
  // [/slide]
  // END TODO(student)
}
