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
  constexpr int kChunksPerRow = kCols / kHalvesPerChunk;
  const bool whole_chunks = width % kHalvesPerChunk == 0;
  for (int chunk = threadIdx.x; chunk < kRows * kChunksPerRow; chunk += blockDim.x) {
    const int r = chunk / kChunksPerRow, q = chunk % kChunksPerRow * kHalvesPerChunk;
    const int row = row0 + r, col = col0 + q;
    __half* to = tile + r * (kCols + kTilePad) + q;
    // With whole chunks, a chunk that starts inside a row ends inside it.
    const bool inside = row < height && col < width;
    if (whole_chunks && async) {
      cp_async_16_bytes(to, inside ? matrix + row * width + col : matrix, inside);
    } else if (whole_chunks && inside) {
      *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(matrix + row * width + col);
    } else {
      for (int e = 0; e < kHalvesPerChunk; ++e) {
        to[e] =
            row < height && col + e < width ? matrix[row * width + col + e] : __float2half(0.0f);
      }
    }
  }
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
  __shared__ __align__(128) __half a_tile[kATileHalves];
  __shared__ __align__(128) __half b_tile[kBTileHalves];
  __shared__ __align__(128) float c_stage[kWarpsPerBlock][kWmmaM * kWmmaN];
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int block_row = blockIdx.y * kBlockTileM, block_col = blockIdx.x * kBlockTileN;
  const int warp_row = warp / kWarpsAlongN * kWarpTileM;
  const int warp_col = warp % kWarpsAlongN * kWarpTileN;
  wmma::fragment<wmma::accumulator, kWmmaM, kWmmaN, kWmmaK, float> sums[kFragmentsAlongM]
                                                                       [kFragmentsAlongN];
  for (auto& row : sums) {
    for (auto& sum : row) wmma::fill_fragment(sum, 0.0f);
  }
  // [slide:shared-tiles-loop]
  for (int t = 0; t < k; t += kBlockTileK) {
    load_tile<kBlockTileM, kBlockTileK>(a_tile, a, m, k, block_row, t, false);
    load_tile<kBlockTileK, kBlockTileN>(b_tile, b, k, n, t, block_col, false);
    __syncthreads();
    for (int kk = 0; kk < kBlockTileK; kk += kWmmaK) {
      wmma::fragment<wmma::matrix_a, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major>
          a_fragments[kFragmentsAlongM];
      wmma::fragment<wmma::matrix_b, kWmmaM, kWmmaN, kWmmaK, __half, wmma::row_major>
          b_fragments[kFragmentsAlongN];
      for (int f = 0; f < kFragmentsAlongM; ++f) {
        const int row = warp_row + f * kWmmaM;
        wmma::load_matrix_sync(a_fragments[f], a_tile + row * kATileStride + kk, kATileStride);
      }
      for (int g = 0; g < kFragmentsAlongN; ++g) {
        const int col = warp_col + g * kWmmaN;
        wmma::load_matrix_sync(b_fragments[g], b_tile + kk * kBTileStride + col, kBTileStride);
      }
      for (int f = 0; f < kFragmentsAlongM; ++f) {
        for (int g = 0; g < kFragmentsAlongN; ++g) {
          wmma::mma_sync(sums[f][g], a_fragments[f], b_fragments[g], sums[f][g]);
        }
      }
    }
    __syncthreads();
  }
  // [/slide]
  for (int f = 0; f < kFragmentsAlongM; ++f) {
    for (int g = 0; g < kFragmentsAlongN; ++g) {
      wmma::store_matrix_sync(c_stage[warp], sums[f][g], kWmmaN, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < kWmmaM * kWmmaN; e += kWarpSize) {
        const int i = block_row + warp_row + f * kWmmaM + e / kWmmaN;
        const int j = block_col + warp_col + g * kWmmaN + e % kWmmaN;
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
  extern __shared__ __align__(128) unsigned char pipeline_memory[];
  __half* a_stages = reinterpret_cast<__half*>(pipeline_memory);
  __half* b_stages = a_stages + kPipelineStages * kATileHalves;
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int block_row = blockIdx.y * kBlockTileM, block_col = blockIdx.x * kBlockTileN;
  const int warp_row = warp / kWarpsAlongN * kWarpTileM;
  const int warp_col = warp % kWarpsAlongN * kWarpTileN;
  const int slices = (k + kBlockTileK - 1) / kBlockTileK;
  const auto load_slice = [&](int slice) {
    const int stage = slice % kPipelineStages;
    load_tile<kBlockTileM, kBlockTileK>(a_stages + stage * kATileHalves, a, m, k, block_row,
                                        slice * kBlockTileK, true);
    load_tile<kBlockTileK, kBlockTileN>(b_stages + stage * kBTileHalves, b, k, n,
                                        slice * kBlockTileK, block_col, true);
  };
  float sums[kMmaTilesAlongM][kMmaTilesAlongN][4] = {};
  // [slide:pipeline-loop]
  for (int s = 0; s < kPipelineStages - 1; ++s) {
    if (s < slices) load_slice(s);
    cp_async_commit();
  }
  for (int s = 0; s < slices; ++s) {
    cp_async_wait<kPipelineStages - 2>();
    __syncthreads();
    if (s + kPipelineStages - 1 < slices) load_slice(s + kPipelineStages - 1);
    cp_async_commit();
    const __half* a_tile = a_stages + s % kPipelineStages * kATileHalves;
    const __half* b_tile = b_stages + s % kPipelineStages * kBTileHalves;
    // [/slide]
    for (int kk = 0; kk < kBlockTileK; kk += kMmaK) {
      unsigned a_fragments[kMmaTilesAlongM][4];
      unsigned b_fragments[kMmaTilesAlongN][2];
      for (int f = 0; f < kMmaTilesAlongM; ++f) {
        const int row = warp_row + f * kMmaM + lane % 16;
        ldmatrix_x4(a_fragments[f], a_tile + row * kATileStride + kk + lane / 16 * 8);
      }
      for (int g = 0; g < kMmaTilesAlongN; g += 2) {
        unsigned two_tiles[4];
        const int col = warp_col + g * kMmaN + lane / 16 * 8;
        ldmatrix_x4_trans(two_tiles, b_tile + (kk + lane % 16) * kBTileStride + col);
        b_fragments[g][0] = two_tiles[0], b_fragments[g][1] = two_tiles[1];
        b_fragments[g + 1][0] = two_tiles[2], b_fragments[g + 1][1] = two_tiles[3];
      }
      for (int f = 0; f < kMmaTilesAlongM; ++f) {
        for (int g = 0; g < kMmaTilesAlongN; ++g)
          mma_16x8x16(sums[f][g], a_fragments[f], b_fragments[g]);
      }
    }
  }
  // [slide:mma-store]
  const int group = lane / 4, pair = lane % 4 * 2;
  for (int f = 0; f < kMmaTilesAlongM; ++f) {
    for (int g = 0; g < kMmaTilesAlongN; ++g) {
      for (int half = 0; half < 2; ++half) {
        const int i = block_row + warp_row + f * kMmaM + group + half * 8;
        const int j = block_col + warp_col + g * kMmaN + pair;
        if (i >= m) continue;
        if (j < n) c[i * n + j] = sums[f][g][2 * half];
        if (j + 1 < n) c[i * n + j + 1] = sums[f][g][2 * half + 1];
      }
    }
  }
  // [/slide]
  // END TODO(student)
#endif
}
// [/slide]

void hgemm_mma_pipeline_on_device(int m, int n, int k, const __half* a, const __half* b, float* c) {
  // TODO(student): launch step 3 with its stages in dynamic shared memory.
  // Above 48 KB of shared memory a block, a kernel must say so before it is launched.
  CUDA_CHECK(cudaFuncSetAttribute(hgemm_mma_pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kPipelineBytes));
  const dim3 blocks(course::blocks_for(n, kBlockTileN), course::blocks_for(m, kBlockTileM));
  hgemm_mma_pipeline<<<blocks, kBlockThreads, kPipelineBytes>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
