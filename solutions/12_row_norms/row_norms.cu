// Exercise 12 - the L2 norm of every row of a matrix (the generalized ufunc l2_norm of
// Numba lab 3.1, section 6, signature (i)->()): norms[r] = sqrt(sum over c of matrix[r][c]^2).
//
// One thread per row would leave most of the GPU idle for a few long rows, and would read
// memory with a stride of one row between neighbouring threads. Here a whole warp shares a
// row: its 32 lanes read 32 consecutive elements at a time (coalesced) and add their
// partial sums with warp shuffles, register to register, in 5 steps. Rows long enough get
// a whole block, whose warps meet in shared memory.
//
// Build and run:  make 12 && make run-12
// Check:          make check-12   (statement: exercises/12_row_norms/README.md)
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "course/errors.hpp"
#include "row_norms.hpp"

// ---------------------------------------------------------------------------
// A warp's sum, with shuffles
// ---------------------------------------------------------------------------

// Returns, in lane 0, the sum of `value` over the 32 lanes of the warp (the other lanes
// get partial sums). Every lane of the warp must call it.
__device__ float warp_sum(float value) {
  // TODO(student): a reduction tree, in five shuffles.
  // [slide:warp-sum]
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullWarpMask, value, offset);
  }
  // [/slide]
  // END TODO(student)
  return value;
}

// ---------------------------------------------------------------------------
// Kernel: one warp per row
// ---------------------------------------------------------------------------
__global__ void row_norms_warp_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one warp per row, in three steps.
  // [slide:warp-per-row]
  const int row = blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (row >= rows) return;
  const float* row_start = matrix + static_cast<std::size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = lane; c < cols; c += kWarpSize) {
    const float value = row_start[c];
    sum += value * value;
  }
  sum = warp_sum(sum);
  if (lane == 0) norms[row] = sqrtf(sum);
  // [/slide]
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: one block per row, for long rows
// ---------------------------------------------------------------------------
__global__ void row_norms_block_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one block per row, the warps meeting in shared memory.
  __shared__ float warp_sums[kRowBlockThreads / kWarpSize];
  const int row = blockIdx.x;
  if (row >= rows) return;
  const float* row_start = matrix + static_cast<std::size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float value = row_start[c];
    sum += value * value;
  }
  // [slide:block-combine]
  sum = warp_sum(sum);
  const int warp = threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / kWarpSize;
    sum = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
    if (lane == 0) norms[row] = sqrtf(sum);
  }
  // [/slide]
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launcher, on device arrays
// ---------------------------------------------------------------------------
void launch_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the kernel that fits the rows' length.
  if (rows == 0) return;
  if (cols >= kBlockPerRowMinCols) {
    row_norms_block_kernel<<<rows, kRowBlockThreads>>>(matrix, norms, rows, cols);
  } else {
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    row_norms_warp_kernel<<<blocks, kWarpsPerBlock * kWarpSize>>>(matrix, norms, rows, cols);
  }
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Host function: host arrays in, host array out
// ---------------------------------------------------------------------------
void row_norms_gpu(const float* host_matrix, float* host_norms, int rows, int cols) {
  // TODO(student): the round trip.
  if (rows == 0) return;
  const std::size_t matrix_bytes =
      static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * sizeof(float);
  const std::size_t norms_bytes = static_cast<std::size_t>(rows) * sizeof(float);
  float* device_matrix = nullptr;
  float* device_norms = nullptr;
  CUDA_CHECK(cudaMalloc(&device_matrix, matrix_bytes));
  CUDA_CHECK(cudaMalloc(&device_norms, norms_bytes));
  CUDA_CHECK(cudaMemcpy(device_matrix, host_matrix, matrix_bytes, cudaMemcpyHostToDevice));
  launch_row_norms(device_matrix, device_norms, rows, cols);
  CUDA_CHECK(cudaMemcpy(host_norms, device_norms, norms_bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_matrix));
  CUDA_CHECK(cudaFree(device_norms));
  // END TODO(student)
}
