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
  __shared__ __align__(32) __half a_stage[kOneWarpWarps][kWmmaM * kWmmaK];
  __shared__ __align__(32) __half b_stage[kOneWarpWarps][kWmmaK * kWmmaN];
  __shared__ __align__(32) float c_stage[kOneWarpWarps][kWmmaM * kWmmaN];
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int row0 = (blockIdx.y * kOneWarpWarpsAlongM + warp / kOneWarpWarpsAlongN) * kWmmaM;
  const int col0 = (blockIdx.x * kOneWarpWarpsAlongN + warp % kOneWarpWarpsAlongN) * kWmmaN;
  wmma::fragment<wmma::matrix_a, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major> a_fragment;
  wmma::fragment<wmma::matrix_b, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major> b_fragment;
  wmma::fragment<wmma::accumulator, kWmmaM, kWmmaN, kWmmaK, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  // [/slide]
  const __half zero = __float2half(0.0f);
  // [slide:one-warp-loop]
  for (int t = 0; t < k; t += kWmmaK) {
    for (int e = lane; e < kWmmaM * kWmmaK; e += kWarpSize) {
      const int i = row0 + e / kWmmaK, ap = t + e % kWmmaK;
      a_stage[warp][e] = i < m && ap < k ? a[i * k + ap] : zero;
      const int bp = t + e / kWmmaN, j = col0 + e % kWmmaN;
      b_stage[warp][e] = bp < k && j < n ? b[bp * n + j] : zero;
    }
    __syncwarp();
    wmma::load_matrix_sync(a_fragment, a_stage[warp], kWmmaK);
    wmma::load_matrix_sync(b_fragment, b_stage[warp], kWmmaN);
    wmma::mma_sync(sum, a_fragment, b_fragment, sum);
    __syncwarp();
  }
  // [/slide]
  wmma::store_matrix_sync(c_stage[warp], sum, kWmmaN, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < kWmmaM * kWmmaN; e += kWarpSize) {
    const int i = row0 + e / kWmmaN, j = col0 + e % kWmmaN;
    if (i < m && j < n) c[i * n + j] = c_stage[warp][e];
  }
  // END TODO(student)
}
// [/slide]

void hgemm_wmma_one_warp_on_device(int m, int n, int k, const __half* a, const __half* b,
                                   float* c) {
  // TODO(student): launch step 1 on blocks that cover C.
  const dim3 blocks(course::blocks_for(n, kOneWarpWarpsAlongN * kWmmaN),
                    course::blocks_for(m, kOneWarpWarpsAlongM * kWmmaM));
  hgemm_wmma_one_warp<<<blocks, kOneWarpThreads>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
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
  constexpr int kChunksPerRow = kCols / kHalvesPerChunk;
  const bool whole_chunks = width % kHalvesPerChunk == 0;
#pragma unroll
  for (int p = 0; p < kChunksPerThread<kRows, kCols>; ++p) {
    const int chunk = threadIdx.x + p * kBlockThreads;
    const int row = row0 + chunk / kChunksPerRow;
    const int col = col0 + chunk % kChunksPerRow * kHalvesPerChunk;
    const __half* from = matrix + row * width + col;
    if (whole_chunks) {
      // With whole chunks, a chunk that starts inside a row ends inside it.
      const bool inside = row < height && col < width;
      chunks[p] = inside ? *reinterpret_cast<const uint4*>(from) : make_uint4(0, 0, 0, 0);
    } else {
      unsigned pairs[kHalvesPerChunk / 2];
#pragma unroll
      for (int e = 0; e < kHalvesPerChunk; e += 2) {
        const bool low_inside = row < height && col + e < width;
        const bool high_inside = row < height && col + e + 1 < width;
        const unsigned short low = low_inside ? __half_as_ushort(from[e]) : 0;
        const unsigned short high = high_inside ? __half_as_ushort(from[e + 1]) : 0;
        pairs[e / 2] = low | static_cast<unsigned>(high) << 16;
      }
      chunks[p] = make_uint4(pairs[0], pairs[1], pairs[2], pairs[3]);
    }
  }
  // END TODO(student)
}
// [/slide]

// Stores this thread's chunks, loaded by load_chunks, into `tile` in shared memory: rows
// kCols + kTilePad halves apart.
template <int kRows, int kCols>
__device__ void store_chunks(__half* tile, const uint4 (&chunks)[kChunksPerThread<kRows, kCols>]) {
  // TODO(student): step 2, the chunks into the padded tile, 16 bytes at a time.
  constexpr int kChunksPerRow = kCols / kHalvesPerChunk;
#pragma unroll
  for (int p = 0; p < kChunksPerThread<kRows, kCols>; ++p) {
    const int chunk = threadIdx.x + p * kBlockThreads;
    const int r = chunk / kChunksPerRow, q = chunk % kChunksPerRow * kHalvesPerChunk;
    *reinterpret_cast<uint4*>(tile + r * (kCols + kTilePad) + q) = chunks[p];
  }
  // END TODO(student)
}

// [slide:shared-tiles]
__global__ void __launch_bounds__(kBlockThreads, 2)
    hgemm_wmma_shared_tiles(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): step 2, 4 x 2 fragments of C per warp, two buffers of tiles.
  __shared__ __align__(128) __half a_tiles[kTileBuffers][kATileHalves];
  __shared__ __align__(128) __half b_tiles[kTileBuffers][kBTileHalves];
  __shared__ __align__(128) float c_stage[kWarpsPerBlock][kWmmaM * kWmmaN];
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int block_row = blockIdx.y * kBlockTileM, block_col = blockIdx.x * kBlockTileN;
  const int warp_row = warp / kWarpsAlongN * kWarpTileM;
  const int warp_col = warp % kWarpsAlongN * kWarpTileN;
  const int slices = (k + kBlockTileK - 1) / kBlockTileK;
  wmma::fragment<wmma::accumulator, kWmmaM, kWmmaN, kWmmaK, float> sums[kFragmentsAlongM]
                                                                       [kFragmentsAlongN];
  for (auto& row : sums) {
    for (auto& sum : row) wmma::fill_fragment(sum, 0.0f);
  }
  uint4 a_next[kAChunksPerThread], b_next[kBChunksPerThread];
  load_chunks<kBlockTileM, kBlockTileK>(a_next, a, m, k, block_row, 0);
  load_chunks<kBlockTileK, kBlockTileN>(b_next, b, k, n, 0, block_col);
  store_chunks<kBlockTileM, kBlockTileK>(a_tiles[0], a_next);
  store_chunks<kBlockTileK, kBlockTileN>(b_tiles[0], b_next);
  __syncthreads();
  // [slide:shared-tiles-loop]
  for (int s = 0; s < slices; ++s) {
    const int now = s % kTileBuffers, next = (s + 1) % kTileBuffers;
    const bool more = s + 1 < slices;
    if (more) {  // slice s + 1's loads fly while the tensor cores work on slice s
      load_chunks<kBlockTileM, kBlockTileK>(a_next, a, m, k, block_row, (s + 1) * kBlockTileK);
      load_chunks<kBlockTileK, kBlockTileN>(b_next, b, k, n, (s + 1) * kBlockTileK, block_col);
    }
    // [/slide]
    for (int kk = 0; kk < kBlockTileK; kk += kWmmaK) {
      wmma::fragment<wmma::matrix_a, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major>
          a_fragments[kFragmentsAlongM];
      wmma::fragment<wmma::matrix_b, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major>
          b_fragments[kFragmentsAlongN];
      for (int f = 0; f < kFragmentsAlongM; ++f) {
        const int row = warp_row + f * kWmmaM;
        wmma::load_matrix_sync(a_fragments[f], a_tiles[now] + row * kATileStride + kk,
                               kATileStride);
      }
      for (int g = 0; g < kFragmentsAlongN; ++g) {
        const int col = warp_col + g * kWmmaN;
        wmma::load_matrix_sync(b_fragments[g], b_tiles[now] + kk * kBTileStride + col,
                               kBTileStride);
      }
      for (int f = 0; f < kFragmentsAlongM; ++f) {
        for (int g = 0; g < kFragmentsAlongN; ++g) {
          wmma::mma_sync(sums[f][g], a_fragments[f], b_fragments[g], sums[f][g]);
        }
      }
    }
    // [slide:shared-tiles-store]
    if (more) {  // the other buffer was last read in slice s - 1, before the last barrier
      store_chunks<kBlockTileM, kBlockTileK>(a_tiles[next], a_next);
      store_chunks<kBlockTileK, kBlockTileN>(b_tiles[next], b_next);
    }
    // Slice s + 1 in place, and every warp done with slice s: one barrier for both.
    __syncthreads();
    // [/slide]
  }
  // A fragment wholly inside C goes straight to it where its rows are 32-byte aligned
  // (n a multiple of 8); the others through the warp's c_stage, element by element.
  const bool aligned_rows = n % 8 == 0;
  for (int f = 0; f < kFragmentsAlongM; ++f) {
    for (int g = 0; g < kFragmentsAlongN; ++g) {
      const int i0 = block_row + warp_row + f * kWmmaM, j0 = block_col + warp_col + g * kWmmaN;
      if (aligned_rows && i0 + kWmmaM <= m && j0 + kWmmaN <= n) {
        wmma::store_matrix_sync(c + i0 * n + j0, sums[f][g], n, wmma::mem_row_major);
        continue;
      }
      wmma::store_matrix_sync(c_stage[warp], sums[f][g], kWmmaN, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < kWmmaM * kWmmaN; e += kWarpSize) {
        const int i = i0 + e / kWmmaN, j = j0 + e % kWmmaN;
        if (i < m && j < n) c[i * n + j] = c_stage[warp][e];
      }
      __syncwarp();
    }
  }
  // END TODO(student)
}
// [/slide]

void hgemm_wmma_shared_tiles_on_device(int m, int n, int k, const __half* a, const __half* b,
                                       float* c) {
  // TODO(student): launch step 2, a block per 128 x 128 tile of C.
  const dim3 blocks(course::blocks_for(n, kBlockTileN), course::blocks_for(m, kBlockTileM));
  hgemm_wmma_shared_tiles<<<blocks, kBlockThreads>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
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
  constexpr int kChunksPerRow = kCols / kHalvesPerChunk;
  const bool whole_chunks = width % kHalvesPerChunk == 0;
  // A tile wholly inside the matrix (all but the edge tiles) is tested once, not per
  // chunk: its copies are issued with no bounds test and no choice of source. That is
  // integer work taken out of the loop of slices, beside its MMAs: on an H100, step 3
  // went from 45% to 56% of cublasGemmEx at 4096^3.
  if (whole_chunks && row0 + kRows <= height && col0 + kCols <= width) {
#pragma unroll
    for (int p = 0; p < kChunksPerThread<kRows, kCols>; ++p) {
      const int chunk = threadIdx.x + p * kBlockThreads;
      const int r = chunk / kChunksPerRow, q = chunk % kChunksPerRow * kHalvesPerChunk;
      cp_async_16_bytes(tile + swizzled_offset<kCols>(r, q), matrix + (row0 + r) * width + col0 + q,
                        true);
    }
    return;
  }
#pragma unroll
  for (int p = 0; p < kChunksPerThread<kRows, kCols>; ++p) {
    const int chunk = threadIdx.x + p * kBlockThreads;
    const int r = chunk / kChunksPerRow, q = chunk % kChunksPerRow * kHalvesPerChunk;
    const int row = row0 + r, col = col0 + q;
    __half* to = tile + swizzled_offset<kCols>(r, q);
    if (whole_chunks) {
      // With whole chunks, a chunk that starts inside a row ends inside it.
      const bool inside = row < height && col < width;
      cp_async_16_bytes(to, inside ? matrix + row * width + col : matrix, inside);
    } else {
#pragma unroll
      for (int e = 0; e < kHalvesPerChunk; ++e) {
        to[e] =
            row < height && col + e < width ? matrix[row * width + col + e] : __float2half(0.0f);
      }
    }
  }
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
  extern __shared__ __align__(128) unsigned char pipeline_memory[];
  __half* a_stages = reinterpret_cast<__half*>(pipeline_memory);
  __half* b_stages = a_stages + kPipelineStages * kPipelineATileHalves;
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int block_row = blockIdx.y * kPipelineTileM, block_col = blockIdx.x * kPipelineTileN;
  const int warp_row = warp / kWarpsAlongN * kPipelineWarpTileM;
  const int warp_col = warp % kWarpsAlongN * kPipelineWarpTileN;
  const int slices = (k + kBlockTileK - 1) / kBlockTileK;
  const auto load_slice = [&](int slice) {
    const int stage = slice % kPipelineStages;
    copy_tile_async<kPipelineTileM, kBlockTileK>(a_stages + stage * kPipelineATileHalves, a, m, k,
                                                 block_row, slice * kBlockTileK);
    copy_tile_async<kBlockTileK, kPipelineTileN>(b_stages + stage * kPipelineBTileHalves, b, k, n,
                                                 slice * kBlockTileK, block_col);
  };
  // Two sets of fragments: the MMAs of one k-step use one while ldmatrix fills the other.
  unsigned a_fragments[2][kMmaTilesAlongM][4];
  unsigned b_fragments[2][kMmaTilesAlongN][2];
  const auto load_fragments = [&](int set, int slice, int kk) {
    const __half* a_tile = a_stages + slice % kPipelineStages * kPipelineATileHalves;
    const __half* b_tile = b_stages + slice % kPipelineStages * kPipelineBTileHalves;
#pragma unroll
    for (int f = 0; f < kMmaTilesAlongM; ++f) {
      const int row = warp_row + f * kMmaM + lane % 16, col = kk + lane / 16 * 8;
      ldmatrix_x4(a_fragments[set][f], a_tile + swizzled_offset<kBlockTileK>(row, col));
    }
#pragma unroll
    for (int g = 0; g < kMmaTilesAlongN; g += 2) {
      unsigned two_tiles[4];
      const int row = kk + lane % 16, col = warp_col + g * kMmaN + lane / 16 * 8;
      ldmatrix_x4_trans(two_tiles, b_tile + swizzled_offset<kPipelineTileN>(row, col));
      b_fragments[set][g][0] = two_tiles[0], b_fragments[set][g][1] = two_tiles[1];
      b_fragments[set][g + 1][0] = two_tiles[2], b_fragments[set][g + 1][1] = two_tiles[3];
    }
  };
  float sums[kMmaTilesAlongM][kMmaTilesAlongN][4] = {};
  const auto multiply = [&](int set) {
#pragma unroll
    for (int f = 0; f < kMmaTilesAlongM; ++f) {
#pragma unroll
      for (int g = 0; g < kMmaTilesAlongN; ++g)
        mma_16x8x16(sums[f][g], a_fragments[set][f], b_fragments[set][g]);
    }
  };
  static_assert(kKStepsPerSlice == 2, "the loop below has a slice's two k-steps written out");
  for (int s = 0; s < kPipelineStages - 1; ++s) {
    if (s < slices) load_slice(s);
    cp_async_commit();
  }
  cp_async_wait<kPipelineStages - 2>();
  __syncthreads();
  load_fragments(0, 0, 0);
  // [slide:pipeline-loop]
  for (int s = 0; s < slices; ++s) {
    // k-step 0: fragments of k-step 1 into set 1, the next copy, then set 0's MMAs.
    load_fragments(1, s, kMmaK);
    if (s + kPipelineStages - 1 < slices) load_slice(s + kPipelineStages - 1);
    cp_async_commit();
    multiply(0);
    // k-step 1: slice s + 1 landed, everyone done with slice s - 1's stage (the barrier);
    // fragments of slice s + 1's k-step 0 into set 0, then set 1's MMAs.
    cp_async_wait<kPipelineStages - 2>();
    __syncthreads();
    if (s + 1 < slices) load_fragments(0, s + 1, 0);
    multiply(1);
  }
  // [/slide]
  // Lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and the next, of each 16 x 8
  // tile: with n even, the pair is 8-byte aligned, one float2 store.
  const int group = lane / 4, pair = lane % 4 * 2;
#pragma unroll
  for (int f = 0; f < kMmaTilesAlongM; ++f) {
#pragma unroll
    for (int g = 0; g < kMmaTilesAlongN; ++g) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        // [slide:mma-store]
        const int i = block_row + warp_row + f * kMmaM + group + half * 8;
        const int j = block_col + warp_col + g * kMmaN + pair;
        const float x = sums[f][g][2 * half], y = sums[f][g][2 * half + 1];
        if (i >= m || j >= n) continue;
        if (n % 2 == 0) *reinterpret_cast<float2*>(c + i * n + j) = make_float2(x, y);
        if (n % 2 != 0) c[i * n + j] = x;
        if (n % 2 != 0 && j + 1 < n) c[i * n + j + 1] = y;
        // [/slide]
      }
    }
  }
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
  // Above 48 KiB of shared memory a block, a kernel must say so before it is launched.
  CUDA_CHECK(cudaFuncSetAttribute(hgemm_mma_pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kPipelineBytes));
  const dim3 blocks(course::blocks_for(n, kPipelineTileN), course::blocks_for(m, kPipelineTileM));
  hgemm_mma_pipeline<<<blocks, kBlockThreads, kPipelineBytes>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
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
  extern __shared__ unsigned char stage_memory[];
  __shared__ __align__(8) uint64_t full[kWgmmaStages];
  __shared__ __align__(8) uint64_t empty[kWgmmaStages];
  // The stages, from the first 1024-byte boundary of the dynamic shared memory on.
  const uint32_t stages = (shared_address(stage_memory) + kSwizzlePeriodBytes - 1) &
                          ~static_cast<uint32_t>(kSwizzlePeriodBytes - 1);
  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  const int block_row = blockIdx.x * kWgmmaTileM, block_col = blockIdx.y * kWgmmaTileN;
  const int slices = (k + kWgmmaTileK - 1) / kWgmmaTileK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kWgmmaStages; ++s) {
      mbarrier_init(shared_address(&full[s]), 1);
      mbarrier_init(shared_address(&empty[s]), kConsumerWarps);
    }
    mbarrier_init_fence();
  }
  __syncthreads();
  if (warpgroup == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0) {
      prefetch_tensor_map(&map_a);
      prefetch_tensor_map(&map_b);
      // A box of B wholly at columns >= n is not copied (nor its bytes expected): what its
      // stale shared memory feeds are columns of C >= n, never written.
      const int b_boxes = min(kBBoxesPerStage, (n - block_col + kBoxHalves - 1) / kBoxHalves);
      const uint32_t stage_bytes = kAStageBytes + b_boxes * kBBoxBytes;
      for (int t = 0; t < slices; ++t) {
        const int s = t % kWgmmaStages;
        if (t >= kWgmmaStages) mbarrier_wait(shared_address(&empty[s]), (t / kWgmmaStages - 1) & 1);
        const uint32_t bar = shared_address(&full[s]);
        mbarrier_arrive_expect_tx(bar, stage_bytes);
        const uint32_t a_tile = stages + s * kWgmmaStageBytes;
        const uint32_t b_tile = a_tile + kAStageBytes;
        tma_load_2d(a_tile, &map_a, t * kWgmmaTileK, block_row, bar);  // {k, m}
        for (int j = 0; j < b_boxes; ++j)                              // {n, k}
          tma_load_2d(b_tile + j * kBBoxBytes, &map_b, block_col + j * kBoxHalves, t * kWgmmaTileK,
                      bar);
      }
    }
  } else {
    setmaxnreg_inc<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const int lane = threadIdx.x % kWarpSize;
    float d[kWgmmaAccumulators];
#pragma unroll
    for (int i = 0; i < kWgmmaAccumulators; ++i) d[i] = 0.0f;
    fence_accumulators(d);
    for (int t = 0; t < slices; ++t) {
      const int s = t % kWgmmaStages;
      mbarrier_wait(shared_address(&full[s]), (t / kWgmmaStages) & 1);
      const uint32_t a_tile = stages + s * kWgmmaStageBytes + consumer * kWgmmaM * kSwizzleBytes;
      const uint32_t b_tile = stages + s * kWgmmaStageBytes + kAStageBytes;
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kWgmmaTileK / kWgmmaK; ++kk) {
        wgmma_m64n256k16(d,
                         make_descriptor(a_tile + kk * kAStepBytes, kALeadingBytes, kAStrideBytes),
                         make_descriptor(b_tile + kk * kBStepBytes, kBLeadingBytes, kBStrideBytes),
                         1);
      }
      wgmma_commit();
      // At most this slice's group still runs: the previous slice's stage can be refilled.
      wgmma_wait<1>();
      fence_accumulators(d);
      if (t > 0 && lane == 0) mbarrier_arrive(shared_address(&empty[(t - 1) % kWgmmaStages]));
    }
    wgmma_wait<0>();
    fence_accumulators(d);
    // C straight from the accumulators: d[4 j + 2 half + 0..1] at row 16 w + l / 4 + 8 half,
    // columns 8 j + 2 (l % 4) and the next, of this warpgroup's 64 x 256 tile.
    const int warp_in_group = threadIdx.x % kWarpgroupThreads / kWarpSize;
    const int row0 = block_row + consumer * kWgmmaM + warp_in_group * 16 + lane / 4;
    const int col0 = block_col + lane % 4 * 2;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int i = row0 + half * 8;
      if (i >= m) continue;
      float* c_row = c + static_cast<size_t>(i) * n;
#pragma unroll
      for (int j = 0; j < kWgmmaN / 8; ++j) {
        const int col = col0 + j * 8;
        const float x = d[4 * j + 2 * half], y = d[4 * j + 2 * half + 1];
        if (col + 1 < n) {
          // n is even (a multiple of 8) and col is even: 8-byte aligned.
          *reinterpret_cast<float2*>(c_row + col) = make_float2(x, y);
        } else if (col < n) {
          c_row[col] = x;
        }
      }
    }
  }
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
  if (n % kTmaRowHalves != 0 || k % kTmaRowHalves != 0) {
    hgemm_mma_pipeline_on_device(m, n, k, a, b, c);
    return;
  }
  const CUtensorMap map_a = make_tensor_map(a, m, k, kWgmmaTileM);  // boxes of 128 x 64
  const CUtensorMap map_b = make_tensor_map(b, k, n, kWgmmaTileK);  // boxes of 64 x 64
  require_setmaxnreg_registers();
  CUDA_CHECK(cudaFuncSetAttribute(hgemm_wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kWgmmaSharedBytes));
  // blockIdx.x along m: the blocks that run at once share B's tiles, the larger ones.
  const dim3 blocks(course::blocks_for(m, kWgmmaTileM), course::blocks_for(n, kWgmmaTileN));
  hgemm_wgmma_tma<<<blocks, kWgmmaThreads, kWgmmaSharedBytes>>>(m, n, k, map_a, map_b, c);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
