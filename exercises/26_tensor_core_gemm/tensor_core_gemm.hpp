// Exercise 26: the functions the student implements, with their fixed signatures: a
// half-precision matrix multiply on the tensor cores, C = A B with A and B in FP16 and C
// (and every sum) in FP32, written in three steps and an optional fourth (Hopper only),
// each a launcher that runs its own kernel. The check grades each step on its own and
// times each against cuBLAS's cublasGemmEx on the same FP16 inputs with FP32
// accumulation. Do not change this file.
//
// Storage: ROW-MAJOR and dense, as in exercise 21: A is m x k, element (i, p) at
// a[i * k + p]; B is k x n, element (p, j) at b[p * n + j]; C is m x n, element (i, j) at
// c[i * n + j]. C is written, never read: it may hold NaN before the call.
//
// Every pointer is a DEVICE pointer (allocated with cudaMalloc, so 256-byte aligned);
// m, n, k >= 1, any values (not multiples of any tile), with m k, k n and m n below 2^31,
// and m, n at most 2^20 (a grid's y dimension stops at 65535 blocks: C's rows in steps 1-3,
// its columns in step 4).
// The edges are GUARDED, not padded: every kernel loads zeros for the elements of a tile
// that lie outside A or B (a zero adds nothing to a dot product) and writes only the
// elements of C inside C. Each launcher launches its kernel on the grid its step needs,
// then CUDA_CHECK_LAUNCH(); it does not wait.
//
// Build and run:  make 26 && make run-26   (statement: exercises/26_tensor_core_gemm/README.md)
#pragma once

#include <cuda_fp16.h>

// [slide:tiles]
// ---- The tile sizes, one set per step ------------------------------------------------
inline constexpr int kWarpSize = 32;
// Steps 1 and 2 use WMMA's 16 x 16 x 16 shape: a 16 x 16 tile of C from 16 x 16 tiles of
// A and B per mma_sync.
inline constexpr int kWmmaM = 16;
inline constexpr int kWmmaN = 16;
inline constexpr int kWmmaK = 16;
// Step 1: one warp per 16 x 16 tile of C; blocks of 2 x 2 warps (a 32 x 32 tile of C).
inline constexpr int kOneWarpWarpsAlongM = 2;
inline constexpr int kOneWarpWarpsAlongN = 2;
inline constexpr int kOneWarpWarps = kOneWarpWarpsAlongM * kOneWarpWarpsAlongN;
inline constexpr int kOneWarpThreads = kOneWarpWarps * kWarpSize;  // 128
// Steps 2 and 3: blocks of 8 warps in 2 x 4, k in slices of 32.
inline constexpr int kWarpsAlongM = 2;
inline constexpr int kWarpsAlongN = 4;
inline constexpr int kBlockThreads = kWarpsAlongM * kWarpsAlongN * kWarpSize;  // 256
inline constexpr int kWarpsPerBlock = kBlockThreads / kWarpSize;               // 8
inline constexpr int kBlockTileK = 32;
// Global memory is read 16 bytes (8 halves, a "chunk") at a time where the rows allow it.
inline constexpr int kHalvesPerChunk = 8;
// Step 2: a 128 x 128 tile of C per block, each warp a 64 x 32 tile of C: 4 x 2 WMMA
// fragments.
inline constexpr int kBlockTileM = 128;
inline constexpr int kBlockTileN = 128;
inline constexpr int kWarpTileM = kBlockTileM / kWarpsAlongM;  // 64
inline constexpr int kWarpTileN = kBlockTileN / kWarpsAlongN;  // 32
inline constexpr int kFragmentsAlongM = kWarpTileM / kWmmaM;   // 4
inline constexpr int kFragmentsAlongN = kWarpTileN / kWmmaN;   // 2
// Each row of step 2's tiles in shared memory is followed by 8 halves (16 bytes) of
// padding: the 8 rows that one 8 x 8 matrix load reads then start in 8 different groups of
// 4 banks.
inline constexpr int kTilePad = 8;
inline constexpr int kATileStride = kBlockTileK + kTilePad;      // 40 halves
inline constexpr int kBTileStride = kBlockTileN + kTilePad;      // 136 halves
inline constexpr int kATileHalves = kBlockTileM * kATileStride;  // one 128 x 32 tile of A
inline constexpr int kBTileHalves = kBlockTileK * kBTileStride;  // one 32 x 128 tile of B
// Step 2 keeps two of each tile: the block multiplies one while the next slice, loaded into
// registers during those MMAs, is stored into the other.
inline constexpr int kTileBuffers = 2;
// A thread's share of a kRows x kCols tile, in 16-byte chunks (uint4) of 8 halves: chunk
// threadIdx.x + p * kBlockThreads of the tile, p = 0, 1, ..., kRows * kCols / 8 / 256 - 1
// (steps 2 and 3 copy their tiles so).
template <int kRows, int kCols>
inline constexpr int kChunksPerThread = (kRows * kCols) / (kHalvesPerChunk * kBlockThreads);
inline constexpr int kAChunksPerThread = kChunksPerThread<kBlockTileM, kBlockTileK>;  // 2
inline constexpr int kBChunksPerThread = kChunksPerThread<kBlockTileK, kBlockTileN>;  // 2
// Step 3 uses mma.sync's m16n8k16 shape, on a 128 x 256 tile of C per block: each warp a
// 64 x 64 tile of C, 4 x 8 MMA tiles (128 FP32 sums a lane).
inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 16;
inline constexpr int kPipelineTileM = 128;
inline constexpr int kPipelineTileN = 256;
inline constexpr int kPipelineWarpTileM = kPipelineTileM / kWarpsAlongM;  // 64
inline constexpr int kPipelineWarpTileN = kPipelineTileN / kWarpsAlongN;  // 64
inline constexpr int kMmaTilesAlongM = kPipelineWarpTileM / kMmaM;        // 4
inline constexpr int kMmaTilesAlongN = kPipelineWarpTileN / kMmaN;        // 8
// A slice of 32 is 2 k-steps of 16: step 3 loads the fragments of one k-step while the
// MMAs of the other run, in 2 sets of registers.
inline constexpr int kKStepsPerSlice = kBlockTileK / kMmaK;  // 2
// Step 3's tiles go through a pipeline of 4 stages in shared memory, unpadded: a chunk's
// place in its row is swizzled instead (swizzled_offset), which spreads the 8 rows of an
// 8 x 8 matrix load over the 8 groups of 4 banks without the padding's bytes.
inline constexpr int kPipelineStages = 4;
inline constexpr int kPipelineATileHalves = kPipelineTileM * kBlockTileK;  // 128 x 32
inline constexpr int kPipelineBTileHalves = kBlockTileK * kPipelineTileN;  // 32 x 256
// Step 3's stages: 98304 bytes, over the 48 KiB of shared memory a block gets without
// asking, over the 64 KiB an sm_75 block may have at all, and under the 99 KiB of the sm_80
// and newer GPUs with the least (sm_86, sm_89, sm_120): padding would add 10 KiB, too much.
inline constexpr int kPipelineBytes = kPipelineStages *
                                      (kPipelineATileHalves + kPipelineBTileHalves) *
                                      static_cast<int>(sizeof(__half));
// [/slide]

// Step 3 needs sm_80 (Ampere): cp.async and mma.sync's m16n8k16 shape on FP16 exist from it
// on (ldmatrix from sm_75).
inline constexpr int kMmaPipelineArch = 80;

// [slide:wgmma-tiles]
// ---- Step 4 (optional, Hopper): wgmma fed by the tensor memory accelerator (TMA) -------
// A block computes a 128 x 256 tile of C, k in slices of 64, with 3 warpgroups of 4 warps
// each: warpgroup 0 is the producer (one of its threads issues the TMA copies), warpgroups
// 1 and 2 the consumers (wgmma), each a 64 x 256 half of the tile.
inline constexpr int kWgmmaTileM = 128;
inline constexpr int kWgmmaTileN = 256;
inline constexpr int kWgmmaTileK = 64;
// One wgmma.mma_async m64n256k16: a warpgroup's 64 x 256 tile of C, k in steps of 16.
inline constexpr int kWgmmaM = 64;
inline constexpr int kWgmmaN = 256;
inline constexpr int kWgmmaK = 16;
inline constexpr int kWarpsPerWarpgroup = 4;
inline constexpr int kWarpgroupThreads = kWarpsPerWarpgroup * kWarpSize;             // 128
inline constexpr int kConsumerWarpgroups = kWgmmaTileM / kWgmmaM;                    // 2
inline constexpr int kWgmmaThreads = kWarpgroupThreads * (1 + kConsumerWarpgroups);  // 384
inline constexpr int kConsumerWarps = kConsumerWarpgroups * kWarpsPerWarpgroup;      // 8
// A consumer thread's share of its warpgroup's 64 x 256 tile of C, in registers.
inline constexpr int kWgmmaAccumulators = kWgmmaM * kWgmmaN / kWarpgroupThreads;  // 128
// The slices go through 4 stages in shared memory, each a full/empty pair of mbarriers.
inline constexpr int kWgmmaStages = 4;
// TMA writes its boxes with the 128-byte swizzle: a box is at most 128 bytes (64 halves)
// wide, and its rows repeat their pattern every 8 rows of 128 bytes (1024 bytes).
inline constexpr int kSwizzleBytes = 128;
inline constexpr int kBoxHalves = kSwizzleBytes / static_cast<int>(sizeof(__half));  // 64
inline constexpr int kSwizzlePeriodBytes = 8 * kSwizzleBytes;                        // 1024
// A stage: A's 128 x 64 tile (one box), then B's 64 x 256 tile (4 boxes of 64 x 64).
inline constexpr int kBBoxesPerStage = kWgmmaTileN / kBoxHalves;  // 4
inline constexpr int kAStageBytes = kWgmmaTileM * kWgmmaTileK * static_cast<int>(sizeof(__half));
inline constexpr int kBBoxBytes = kWgmmaTileK * kBoxHalves * static_cast<int>(sizeof(__half));
inline constexpr int kWgmmaStageBytes = kAStageBytes + kBBoxesPerStage * kBBoxBytes;  // 48 KiB
// The stages in dynamic shared memory, and 1 KiB to start them on a 1024-byte boundary:
// 197632 bytes, one block per SM.
inline constexpr int kWgmmaSharedBytes = kWgmmaStages * kWgmmaStageBytes + kSwizzlePeriodBytes;
// Registers a thread after setmaxnreg: the producer gives some back, the consumers take
// them (128 x 40 + 256 x 232 = 384 x 168, the block's allocation under
// __launch_bounds__(kWgmmaThreads, 1)).
inline constexpr int kProducerRegisters = 40;
inline constexpr int kConsumerRegisters = 232;
// TMA reads rows whose length in global memory is a multiple of 16 bytes: step 4 takes the
// shapes whose n and k are multiples of 8 halves, and hands the others to step 3.
inline constexpr int kTmaRowHalves = 16 / static_cast<int>(sizeof(__half));  // 8
// [/slide]

// Step 4 needs sm_90a: wgmma and setmaxnreg exist on sm_90 GPUs alone (H100, H200), in code
// compiled for sm_90a (exercise 26's CMake and make compile sm_90 as sm_90a).
inline constexpr int kWgmmaTmaArch = 90;

// [slide:api]
// ---- The launchers: C = A B, each with its step's kernel -----------------------------
// Step 1. Blocks of kOneWarpThreads threads, one warp per 16 x 16 tile of C, WMMA
// fragments loaded from a small staging tile per warp in shared memory.
void hgemm_wmma_one_warp_on_device(int m, int n, int k, const __half* a, const __half* b, float* c);
// Step 2. Blocks of kBlockThreads threads, a kBlockTileM x kBlockTileN tile of C per
// block, tiles of A and B shared by the block's warps in padded shared memory, two of each
// (the next slice is loaded into registers during the MMAs of this one), 4 x 2 WMMA
// fragments of C per warp.
void hgemm_wmma_shared_tiles_on_device(int m, int n, int k, const __half* a, const __half* b,
                                       float* c);
// Step 3 (sm_80 and newer). Blocks of kBlockThreads threads, a kPipelineTileM x
// kPipelineTileN tile of C per block: mma.sync on fragments loaded by ldmatrix one k-step
// ahead, the tiles copied by cp.async through kPipelineStages swizzled stages. Where a
// block cannot have kPipelineBytes of shared memory (sm_75), step 2 computes C instead.
void hgemm_mma_pipeline_on_device(int m, int n, int k, const __half* a, const __half* b, float* c);
// Step 4 (optional; an sm_90 GPU and a build for sm_90a). Blocks of kWgmmaThreads threads,
// a kWgmmaTileM x kWgmmaTileN tile of C per block: a producer warpgroup copies the tiles of
// A and B with TMA through kWgmmaStages stages, two consumer warpgroups multiply them with
// wgmma. Shapes whose n or k is not a multiple of kTmaRowHalves go to step 3's launcher.
void hgemm_wgmma_tma_on_device(int m, int n, int k, const __half* a, const __half* b, float* c);
// [/slide]
