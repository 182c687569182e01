// Exercise 21: the functions the student implements, with their fixed signatures:
// SGEMM, C = alpha A B + beta C in single precision, written by hand in five steps, each
// a kernel and the launcher that runs it, and an optional sixth ("going further"). The
// check grades every step on its own and times step 5, and step 6 when written, against
// cuBLAS. Do not change this file.
//
// Storage: ROW-MAJOR and dense, as in exercise 06 (whose cuBLAS call this exercise's
// program reuses to measure cuBLAS): A is m x k, element (i, p) at a[i * k + p]; B is
// k x n, element (p, j) at b[p * n + j]; C is m x n, element (i, j) at c[i * n + j].
// A row of each matrix is contiguous: consecutive threads must walk consecutive
// columns j to read B and write C coalesced.
//
// Every pointer is a DEVICE pointer (allocated with cudaMalloc, so 256-byte aligned);
// m, n, k >= 1, any values (not multiples of any tile), with m k, k n and m n below 2^31
// (an int indexes every matrix). When beta is 0, C is not read: it may hold NaN, and the
// result must not. Each launcher launches its kernel on the grid its step needs, then
// CUDA_CHECK_LAUNCH(); it does not wait.
//
// Build and run:  make 21 && make run-21   (statement: exercises/21_tiled_sgemm/README.md)
#pragma once

// [slide:tiles]
// ---- The tile sizes, one set per step ------------------------------------------------
// Step 1: one thread per element of C, blocks of 32 x 8 threads (x along j).
inline constexpr int kNaiveBlockX = 32;
inline constexpr int kNaiveBlockY = 8;
// Step 2: square tiles of A and B in shared memory, one thread per element of C.
inline constexpr int kTile = 32;
// Step 3: a 64 x 64 tile of C per block, k in slices of 8; each thread computes a column
// of 8 elements: 64 * 64 / 8 = 512 threads.
inline constexpr int kBlocking1dM = 64;
inline constexpr int kBlocking1dN = 64;
inline constexpr int kBlocking1dK = 8;
inline constexpr int kBlocking1dRows = 8;  // elements of C per thread
inline constexpr int kBlocking1dThreads = kBlocking1dM * kBlocking1dN / kBlocking1dRows;
// Steps 4 and 5: a 128 x 128 tile of C per block, k in slices of 8; each thread computes
// 8 x 8 elements: 16 x 16 = 256 threads.
inline constexpr int kBlocking2dM = 128;
inline constexpr int kBlocking2dN = 128;
inline constexpr int kBlocking2dK = 8;
inline constexpr int kBlocking2dRows = 8;  // per thread
inline constexpr int kBlocking2dCols = 8;  // per thread
inline constexpr int kBlocking2dThreads =
    (kBlocking2dM / kBlocking2dRows) * (kBlocking2dN / kBlocking2dCols);
// Steps 5 and 6 read and write 4 floats at once (float4).
inline constexpr int kVectorWidth = 4;
// [/slide]

// [slide:warp-tile-grid]
// Step 6 (optional): a 128 x 128 tile of C per block, k in slices of 16, 256 threads = 8
// warps in 2 x 4, each warp a 64 x 32 tile of C. A warp's 32 lanes stand in 8 x 4, and
// each thread computes 8 x 8 elements as 2 x 2 groups of 4 x 4, the groups half a warp
// tile apart: its reads of the tiles are float4, and a warp's are free of bank conflicts.
// The tiles are double-buffered: two of each in shared memory.
inline constexpr int kWarpSize = 32;
inline constexpr int kWarpTilesM = 128;
inline constexpr int kWarpTilesN = 128;
inline constexpr int kWarpTilesK = 16;
inline constexpr int kWarpsAlongM = 2;
inline constexpr int kWarpsAlongN = 4;
inline constexpr int kWarpTilesThreads = kWarpsAlongM * kWarpsAlongN * kWarpSize;  // 256
inline constexpr int kWarpTileM = kWarpTilesM / kWarpsAlongM;                      // 64
inline constexpr int kWarpTileN = kWarpTilesN / kWarpsAlongN;                      // 32
inline constexpr int kLanesAlongM = 8;
inline constexpr int kLanesAlongN = kWarpSize / kLanesAlongM;     // 4
inline constexpr int kWarpTilesRows = kWarpTileM / kLanesAlongM;  // 8 per thread
inline constexpr int kWarpTilesCols = kWarpTileN / kLanesAlongN;  // 8 per thread
// [/slide]
// [slide:warp-tile-padding]
// A's tile is stored transposed, with 4 floats of padding after each of its rows. The 4
// threads that load one row r of A's slice (a float4 each) store their first floats at
// column r of the tile's rows 0, 4, 8 and 12: with rows of 128 floats all four fall in one
// bank (a 4-way conflict), with rows of 132 in two (2-way). A pad of 4 keeps every row
// 16-byte aligned for the float4 reads.
inline constexpr int kWarpTilesAPad = 4;
// Two blocks per multiprocessor (__launch_bounds__): 65536 / (2 x 256) = 128 registers per
// thread at most.
inline constexpr int kWarpTilesBlocksPerSm = 2;
// [/slide]

// [slide:api]
// ---- The kernels ---------------------------------------------------------------------
// Step 1. Blocks of kNaiveBlockX x kNaiveBlockY threads, one element of C per thread.
__global__ void sgemm_naive(int m, int n, int k, float alpha, const float* a, const float* b,
                            float beta, float* c);
// Step 2. Blocks of kTile x kTile threads, a kTile x kTile tile of C per block, A and B
// read through tiles in shared memory.
__global__ void sgemm_shared_tiles(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c);
// Step 3. kBlocking1dThreads threads (1D block), a kBlocking1dM x kBlocking1dN tile of C
// per block, kBlocking1dRows elements of one column per thread.
__global__ void sgemm_blocking_1d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c);
// Step 4. kBlocking2dThreads threads (1D block), a kBlocking2dM x kBlocking2dN tile of C
// per block, kBlocking2dRows x kBlocking2dCols elements per thread.
__global__ void sgemm_blocking_2d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c);
// Step 5. Step 4's blocks and tiles: the final version, timed against cuBLAS.
__global__ void sgemm_vectorized(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c);
// Step 6 (optional). kWarpTilesThreads threads (1D block), a kWarpTilesM x kWarpTilesN tile
// of C per block, a kWarpTileM x kWarpTileN tile per warp, kWarpTilesRows x kWarpTilesCols
// elements per thread; double-buffered tiles. Timed against cuBLAS too.
__global__ void sgemm_warp_tiles(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c);

// ---- The launchers: C = alpha A B + beta C with their step's kernel ----------------
void sgemm_naive_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                           float beta, float* c);
void sgemm_shared_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c);
void sgemm_blocking_1d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c);
void sgemm_blocking_2d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c);
void sgemm_vectorized_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c);
void sgemm_warp_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c);
// [/slide]
