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
  *c_element = beta == 0.0f ? alpha * dot : alpha * dot + beta * *c_element;
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
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n) return;
  float dot = 0.0f;
  for (int p = 0; p < k; ++p) dot += a[i * k + p] * b[p * n + j];
  write_result(&c[i * n + j], alpha, dot, beta);
  // [/slide]
  // END TODO(student)
}
// [/slide]

void sgemm_naive_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                           float beta, float* c) {
  // TODO(student): launch step 1 on blocks that cover C.
  const dim3 block(kNaiveBlockX, kNaiveBlockY);
  const dim3 grid(blocks_covering(n, kNaiveBlockX), blocks_covering(m, kNaiveBlockY));
  sgemm_naive<<<grid, block>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 2: tiles of A and B in shared memory
// ---------------------------------------------------------------------------
// [slide:shared-tiles]
__global__ void sgemm_shared_tiles(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c) {
  // TODO(student): step 2, tiles of A and B in shared memory.
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty;
  const int j = blockIdx.x * kTile + tx;
  // [slide:shared-tiles-loop]
  float dot = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    a_tile[ty][tx] = i < m && t + tx < k ? a[i * k + t + tx] : 0.0f;
    b_tile[ty][tx] = t + ty < k && j < n ? b[(t + ty) * n + j] : 0.0f;
    __syncthreads();
    for (int p = 0; p < kTile; ++p) dot += a_tile[ty][p] * b_tile[p][tx];
    __syncthreads();
  }
  if (i < m && j < n) write_result(&c[i * n + j], alpha, dot, beta);
  // [/slide]
  // END TODO(student)
}
// [/slide]

void sgemm_shared_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): launch step 2 on blocks that cover C.
  const dim3 block(kTile, kTile);
  const dim3 grid(blocks_covering(n, kTile), blocks_covering(m, kTile));
  sgemm_shared_tiles<<<grid, block>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 3: a column of 8 elements of C per thread (1D register blocking)
// ---------------------------------------------------------------------------
// [slide:blocking-1d]
__global__ void sgemm_blocking_1d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): step 3, a column of 8 elements of C per thread.
  __shared__ float a_tile[kBlocking1dM][kBlocking1dK];
  __shared__ float b_tile[kBlocking1dK][kBlocking1dN];
  const int t = threadIdx.x;
  const int tile_row = blockIdx.y * kBlocking1dM, tile_col = blockIdx.x * kBlocking1dN;
  const int col = t % kBlocking1dN;  // of the tile, owned by this thread
  const int first_row = (t / kBlocking1dN) * kBlocking1dRows;
  const int a_row = t / kBlocking1dK, a_col = t % kBlocking1dK;
  const int b_row = t / kBlocking1dN, b_col = t % kBlocking1dN;
  float sums[kBlocking1dRows] = {};
  for (int s = 0; s < k; s += kBlocking1dK) {
    const int ai = tile_row + a_row, ap = s + a_col;
    a_tile[a_row][a_col] = ai < m && ap < k ? a[ai * k + ap] : 0.0f;
    const int bp = s + b_row, bj = tile_col + b_col;
    b_tile[b_row][b_col] = bp < k && bj < n ? b[bp * n + bj] : 0.0f;
    __syncthreads();
    for (int p = 0; p < kBlocking1dK; ++p) {
      const float b_value = b_tile[p][col];
      for (int r = 0; r < kBlocking1dRows; ++r) sums[r] += a_tile[first_row + r][p] * b_value;
    }
    __syncthreads();
  }
  const int j = tile_col + col;
  for (int r = 0; r < kBlocking1dRows; ++r) {
    const int i = tile_row + first_row + r;
    if (i < m && j < n) write_result(&c[i * n + j], alpha, sums[r], beta);
  }
  // END TODO(student)
}
// [/slide]

void sgemm_blocking_1d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c) {
  // TODO(student): launch step 3, a block per tile of C.
  const dim3 grid(blocks_covering(n, kBlocking1dN), blocks_covering(m, kBlocking1dM));
  sgemm_blocking_1d<<<grid, kBlocking1dThreads>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Step 4: 8 x 8 elements of C per thread (2D register blocking)
// ---------------------------------------------------------------------------
// [slide:blocking-2d]
__global__ void sgemm_blocking_2d(int m, int n, int k, float alpha, const float* a, const float* b,
                                  float beta, float* c) {
  // TODO(student): step 4, a square of 8 x 8 elements of C per thread.
  // [slide:blocking-2d-tiles]
  __shared__ float a_tile[kBlocking2dM][kBlocking2dK];
  __shared__ float b_tile[kBlocking2dK][kBlocking2dN];
  const int t = threadIdx.x;
  const int tile_row = blockIdx.y * kBlocking2dM, tile_col = blockIdx.x * kBlocking2dN;
  const int first_row = (t / (kBlocking2dN / kBlocking2dCols)) * kBlocking2dRows;
  const int first_col = (t % (kBlocking2dN / kBlocking2dCols)) * kBlocking2dCols;
  float sums[kBlocking2dRows][kBlocking2dCols] = {};
  float a_column[kBlocking2dRows], b_row[kBlocking2dCols];
  for (int s = 0; s < k; s += kBlocking2dK) {
    for (int e = t; e < kBlocking2dM * kBlocking2dK; e += kBlocking2dThreads) {
      const int r = e / kBlocking2dK, p = e % kBlocking2dK;
      const int i = tile_row + r, ap = s + p;
      a_tile[r][p] = i < m && ap < k ? a[i * k + ap] : 0.0f;
    }
    for (int e = t; e < kBlocking2dK * kBlocking2dN; e += kBlocking2dThreads) {
      const int p = e / kBlocking2dN, col = e % kBlocking2dN;
      const int bp = s + p, j = tile_col + col;
      b_tile[p][col] = bp < k && j < n ? b[bp * n + j] : 0.0f;
    }
    __syncthreads();
    // [/slide]
    // [slide:blocking-2d-sums]
    // [slide:blocking-2d-product]
    for (int p = 0; p < kBlocking2dK; ++p) {
      for (int r = 0; r < kBlocking2dRows; ++r) a_column[r] = a_tile[first_row + r][p];
      for (int q = 0; q < kBlocking2dCols; ++q) b_row[q] = b_tile[p][first_col + q];
      for (int r = 0; r < kBlocking2dRows; ++r) {
        for (int q = 0; q < kBlocking2dCols; ++q) sums[r][q] += a_column[r] * b_row[q];
      }
    }
    // [/slide]
    __syncthreads();
  }
  for (int r = 0; r < kBlocking2dRows; ++r) {
    for (int q = 0; q < kBlocking2dCols; ++q) {
      const int i = tile_row + first_row + r, j = tile_col + first_col + q;
      if (i < m && j < n) write_result(&c[i * n + j], alpha, sums[r][q], beta);
    }
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

void sgemm_blocking_2d_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                 float beta, float* c) {
  // TODO(student): launch step 4, a block per tile of C.
  const dim3 grid(blocks_covering(n, kBlocking2dN), blocks_covering(m, kBlocking2dM));
  sgemm_blocking_2d<<<grid, kBlocking2dThreads>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
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
  if (row >= rows) return v;
  const int at = row * cols + col;
  if (cols % kVectorWidth == 0 && aligned_to_float4(matrix) && col < cols) {
    v = *reinterpret_cast<const float4*>(&matrix[at]);
  } else {
    v.x = col < cols ? matrix[at] : 0.0f;
    v.y = col + 1 < cols ? matrix[at + 1] : 0.0f;
    v.z = col + 2 < cols ? matrix[at + 2] : 0.0f;
    v.w = col + 3 < cols ? matrix[at + 3] : 0.0f;
  }
  // END TODO(student)
  return v;
}

// The 4 elements C(i, j .. j + 3) of the m x n C from their dot products, j a multiple of
// 4; only those inside C.
__device__ __forceinline__ void write_4_results(float* c, int m, int n, int i, int j, float alpha,
                                                float4 dots, float beta) {
  // TODO(student): 4 elements of a row of C, one float4 store where the row allows it.
  if (i >= m || j >= n) return;
  const int at = i * n + j;
  if (n % kVectorWidth == 0 && aligned_to_float4(c)) {
    float4 v = make_float4(alpha * dots.x, alpha * dots.y, alpha * dots.z, alpha * dots.w);
    if (beta != 0.0f) {
      const float4 old = *reinterpret_cast<const float4*>(&c[at]);
      v.x += beta * old.x;
      v.y += beta * old.y;
      v.z += beta * old.z;
      v.w += beta * old.w;
    }
    *reinterpret_cast<float4*>(&c[at]) = v;
    return;
  }
  write_result(&c[at], alpha, dots.x, beta);
  if (j + 1 < n) write_result(&c[at + 1], alpha, dots.y, beta);
  if (j + 2 < n) write_result(&c[at + 2], alpha, dots.z, beta);
  if (j + 3 < n) write_result(&c[at + 3], alpha, dots.w, beta);
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
  __shared__ __align__(16) float a_tile_t[kBlocking2dK][kBlocking2dM];
  __shared__ __align__(16) float b_tile[kBlocking2dK][kBlocking2dN];
  constexpr int kHalfM = kBlocking2dM / 2;
  constexpr int kHalfN = kBlocking2dN / 2;
  constexpr int kGroupsPerThread = 2;  // of kVectorWidth rows (or columns)
  const int t = threadIdx.x;
  const int tile_row = blockIdx.y * kBlocking2dM, tile_col = blockIdx.x * kBlocking2dN;
  const int thread_row = (t / (kHalfN / kVectorWidth)) * kVectorWidth;
  const int thread_col = (t % (kHalfN / kVectorWidth)) * kVectorWidth;

  float sums[kGroupsPerThread * kVectorWidth][kGroupsPerThread * kVectorWidth] = {};
  for (int s = 0; s < k; s += kBlocking2dK) {
    for (int e = t; e < kBlocking2dM * kBlocking2dK / kVectorWidth; e += kBlocking2dThreads) {
      const int r = e / (kBlocking2dK / kVectorWidth);
      const int p = (e % (kBlocking2dK / kVectorWidth)) * kVectorWidth;
      const float4 v = load_4_floats(a, m, k, tile_row + r, s + p);
      a_tile_t[p][r] = v.x;
      a_tile_t[p + 1][r] = v.y;
      a_tile_t[p + 2][r] = v.z;
      a_tile_t[p + 3][r] = v.w;
    }
    for (int e = t; e < kBlocking2dK * kBlocking2dN / kVectorWidth; e += kBlocking2dThreads) {
      const int p = e / (kBlocking2dN / kVectorWidth);
      const int col = (e % (kBlocking2dN / kVectorWidth)) * kVectorWidth;
      *reinterpret_cast<float4*>(&b_tile[p][col]) = load_4_floats(b, k, n, s + p, tile_col + col);
    }
    __syncthreads();
    for (int p = 0; p < kBlocking2dK; ++p) {
      float a_column[kGroupsPerThread * kVectorWidth], b_row[kGroupsPerThread * kVectorWidth];
      for (int g = 0; g < kGroupsPerThread; ++g) {
        const float4 av = *reinterpret_cast<const float4*>(&a_tile_t[p][g * kHalfM + thread_row]);
        const float4 bv = *reinterpret_cast<const float4*>(&b_tile[p][g * kHalfN + thread_col]);
        a_column[g * kVectorWidth] = av.x;
        a_column[g * kVectorWidth + 1] = av.y;
        a_column[g * kVectorWidth + 2] = av.z;
        a_column[g * kVectorWidth + 3] = av.w;
        b_row[g * kVectorWidth] = bv.x;
        b_row[g * kVectorWidth + 1] = bv.y;
        b_row[g * kVectorWidth + 2] = bv.z;
        b_row[g * kVectorWidth + 3] = bv.w;
      }
      for (int r = 0; r < kGroupsPerThread * kVectorWidth; ++r) {
        for (int q = 0; q < kGroupsPerThread * kVectorWidth; ++q) {
          sums[r][q] += a_column[r] * b_row[q];
        }
      }
    }
    __syncthreads();
  }

  // Every index into `sums` must be known at compile time once the loops are unrolled:
  // an index computed at run time sends the whole array to (slow) local memory.
#pragma unroll
  for (int r = 0; r < kGroupsPerThread * kVectorWidth; ++r) {
    const int i = tile_row + (r / kVectorWidth) * kHalfM + thread_row + r % kVectorWidth;
#pragma unroll
    for (int g = 0; g < kGroupsPerThread; ++g) {
      const int j = tile_col + g * kHalfN + thread_col;
      write_4_results(c, m, n, i, j, alpha,
                      make_float4(sums[r][g * kVectorWidth], sums[r][g * kVectorWidth + 1],
                                  sums[r][g * kVectorWidth + 2], sums[r][g * kVectorWidth + 3]),
                      beta);
    }
  }
  // END TODO(student)
}
// [/slide]

void sgemm_vectorized_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
  // TODO(student): launch step 5, a block per tile of C.
  const dim3 grid(blocks_covering(n, kBlocking2dN), blocks_covering(m, kBlocking2dM));
  sgemm_vectorized<<<grid, kBlocking2dThreads>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
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
  __shared__ __align__(16) float a_tiles_t[2][kWarpTilesK][kWarpTilesM + kWarpTilesAPad];
  __shared__ __align__(16) float b_tiles[2][kWarpTilesK][kWarpTilesN];
  constexpr int kGroups = 2;  // of kVectorWidth rows (or columns) per thread
  constexpr int kAFloat4PerRow = kWarpTilesK / kVectorWidth;  // in a row of A's slice
  constexpr int kBFloat4PerRow = kWarpTilesN / kVectorWidth;  // in a row of B's slice
  constexpr int kARowsPerPass = kWarpTilesThreads / kAFloat4PerRow;
  constexpr int kBRowsPerPass = kWarpTilesThreads / kBFloat4PerRow;
  constexpr int kFloat4PerThread = kWarpTilesM / kARowsPerPass;  // of each slice
  static_assert(kWarpTilesK / kBRowsPerPass == kFloat4PerThread, "as many float4 of B as of A");
  const int t = threadIdx.x, warp = t / kWarpSize, lane = t % kWarpSize;
  const int tile_row = blockIdx.y * kWarpTilesM, tile_col = blockIdx.x * kWarpTilesN;
  const int thread_row = (warp / kWarpsAlongN) * kWarpTileM + (lane / kLanesAlongN) * kVectorWidth;
  const int thread_col = (warp % kWarpsAlongN) * kWarpTileN + (lane % kLanesAlongN) * kVectorWidth;
  const int a_load_row = t / kAFloat4PerRow, a_load_col = (t % kAFloat4PerRow) * kVectorWidth;
  const int b_load_row = t / kBFloat4PerRow, b_load_col = (t % kBFloat4PerRow) * kVectorWidth;
  float4 a_next[kFloat4PerThread], b_next[kFloat4PerThread];

  // Global memory -> registers: the thread's float4 of the slice of k that starts at s.
  auto fetch = [&](int s) {
#pragma unroll
    for (int q = 0; q < kFloat4PerThread; ++q) {
      a_next[q] = load_4_floats(a, m, k, tile_row + a_load_row + q * kARowsPerPass, s + a_load_col);
      b_next[q] = load_4_floats(b, k, n, s + b_load_row + q * kBRowsPerPass, tile_col + b_load_col);
    }
  };
  // Registers -> shared memory: the slice fetched last, into the tiles of buffer `to`.
  auto stash = [&](int to) {
#pragma unroll
    for (int q = 0; q < kFloat4PerThread; ++q) {
      const int r = a_load_row + q * kARowsPerPass;
      a_tiles_t[to][a_load_col][r] = a_next[q].x;
      a_tiles_t[to][a_load_col + 1][r] = a_next[q].y;
      a_tiles_t[to][a_load_col + 2][r] = a_next[q].z;
      a_tiles_t[to][a_load_col + 3][r] = a_next[q].w;
      *reinterpret_cast<float4*>(&b_tiles[to][b_load_row + q * kBRowsPerPass][b_load_col]) =
          b_next[q];
    }
  };

  float sums[kWarpTilesRows][kWarpTilesCols] = {};
  fetch(0);
  stash(0);
  __syncthreads();
  int buffer = 0;  // the one that holds the slice of this iteration
  for (int s = 0; s < k; s += kWarpTilesK) {
    const bool more = s + kWarpTilesK < k;
    if (more) fetch(s + kWarpTilesK);  // in flight while the product below runs
#pragma unroll
    for (int p = 0; p < kWarpTilesK; ++p) {
      float a_column[kWarpTilesRows], b_row[kWarpTilesCols];
#pragma unroll
      for (int g = 0; g < kGroups; ++g) {
        const float4 av = *reinterpret_cast<const float4*>(
            &a_tiles_t[buffer][p][thread_row + g * (kWarpTileM / kGroups)]);
        const float4 bv = *reinterpret_cast<const float4*>(
            &b_tiles[buffer][p][thread_col + g * (kWarpTileN / kGroups)]);
        a_column[g * kVectorWidth] = av.x;
        a_column[g * kVectorWidth + 1] = av.y;
        a_column[g * kVectorWidth + 2] = av.z;
        a_column[g * kVectorWidth + 3] = av.w;
        b_row[g * kVectorWidth] = bv.x;
        b_row[g * kVectorWidth + 1] = bv.y;
        b_row[g * kVectorWidth + 2] = bv.z;
        b_row[g * kVectorWidth + 3] = bv.w;
      }
#pragma unroll
      for (int r = 0; r < kWarpTilesRows; ++r) {
#pragma unroll
        for (int q = 0; q < kWarpTilesCols; ++q) sums[r][q] += a_column[r] * b_row[q];
      }
    }
    if (more) stash(buffer ^ 1);
    __syncthreads();
    buffer ^= 1;
  }

#pragma unroll
  for (int r = 0; r < kWarpTilesRows; ++r) {
    const int i =
        tile_row + thread_row + (r / kVectorWidth) * (kWarpTileM / kGroups) + r % kVectorWidth;
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const int j = tile_col + thread_col + g * (kWarpTileN / kGroups);
      write_4_results(c, m, n, i, j, alpha,
                      make_float4(sums[r][g * kVectorWidth], sums[r][g * kVectorWidth + 1],
                                  sums[r][g * kVectorWidth + 2], sums[r][g * kVectorWidth + 3]),
                      beta);
    }
  }
  // END TODO(student)
}
// [/slide]

void sgemm_warp_tiles_on_device(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
  // TODO(student): launch step 6, a block per tile of C.
  const dim3 grid(blocks_covering(n, kWarpTilesN), blocks_covering(m, kWarpTilesM));
  sgemm_warp_tiles<<<grid, kWarpTilesThreads>>>(m, n, k, alpha, a, b, beta, c);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
