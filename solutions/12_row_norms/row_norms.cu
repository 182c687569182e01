// Exercise 12 - the L2 norm of every row of a matrix (the generalized ufunc l2_norm of
// Numba lab 3.1, section 6, signature (i)->()): norms[r] = sqrt(sum over c of matrix[r][c]^2).
//
// A group of consecutive lanes of a warp shares a row, its size fitted to the row's
// length (lanes_per_row: about 8 columns per lane). Rows of 3 columns get 1 lane each: the
// 32 lanes of a warp then read 32 rows, 96 consecutive floats, and none idles. Rows of a
// few hundred columns get a whole warp, whose 32 lanes read 32 consecutive floats at a
// time. A group adds its lanes' partial sums with warp shuffles, register to register, in
// log2(lanes) steps. Rows long enough get a whole block, whose warps meet in shared memory.
// Last, a weighted norm reads its per-column weights from constant memory.
//
// Build and run:  make 12 && make run-12
// Check:          make check-12   (statement: exercises/12_row_norms/README.md)
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "course/errors.hpp"
#include "course/launch.hpp"
#include "row_norms.hpp"

// ---------------------------------------------------------------------------
// A group's sum, with shuffles
// ---------------------------------------------------------------------------

// Returns, in the first lane of each group of kLanes consecutive lanes (kLanes a power of
// two, 1 to 32: lanes 0 to kLanes - 1 form the first group), the sum of `value` over its
// group (the other lanes get partial sums). Every lane of the warp must call it.
// [slide:group_sum]
template <int kLanes>
__device__ float group_sum(float value) {
  // TODO(student): a reduction tree over the group, in log2(kLanes) shuffles.
  // [slide:warp-sum]
  for (int offset = kLanes / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullWarpMask, value, offset);
  }
  // [/slide]
  // END TODO(student)
  return value;
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: a group of lanes per row
// ---------------------------------------------------------------------------
// [slide:row_norms_group_kernel]
template <int kLanesPerRow>
__global__ void row_norms_group_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): a group of kLanesPerRow lanes per row, in four steps.
  // [slide:group-per-row]
  const int row = blockIdx.x * (blockDim.x / kLanesPerRow) + threadIdx.x / kLanesPerRow;
  const int lane = threadIdx.x % kLanesPerRow;
  float sum = 0.0f;
  if (row < rows) {
    const float* row_start = matrix + static_cast<std::size_t>(row) * cols;
    for (int c = lane; c < cols; c += kLanesPerRow) {
      const float value = row_start[c];
      sum += value * value;
    }
  }
  sum = group_sum<kLanesPerRow>(sum);
  if (row < rows && lane == 0) norms[row] = sqrtf(sum);
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: one block per row, for long rows
// ---------------------------------------------------------------------------
// [slide:row_norms_block_kernel]
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
  sum = group_sum<kWarpSize>(sum);
  const int warp = threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / kWarpSize;
    sum = group_sum<kWarpSize>(lane < warps ? warp_sums[lane] : 0.0f);
    if (lane == 0) norms[row] = sqrtf(sum);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers, on device arrays
// ---------------------------------------------------------------------------

// A template argument is fixed when the kernel is compiled: each width gets its own
// machine code, its fold unrolled into log2(kLanesPerRow) shuffles and its lane arithmetic
// (a division and a remainder by a power of two) turned into a shift and a mask. A width
// known only at run time therefore picks its instantiation in a switch.
void launch_row_norms_group(const float* matrix, float* norms, int rows, int cols, int lanes) {
  // TODO(student): the group kernel at `lanes` lanes per row, a template argument.
  // [slide:group-launch]
  if (rows == 0) return;
  const int threads = kGroupBlockThreads;
  const unsigned blocks = course::blocks_for(static_cast<std::size_t>(rows) * lanes, threads);
  switch (lanes) {
    case 1: row_norms_group_kernel<1><<<blocks, threads>>>(matrix, norms, rows, cols); break;
    case 2: row_norms_group_kernel<2><<<blocks, threads>>>(matrix, norms, rows, cols); break;
    case 4: row_norms_group_kernel<4><<<blocks, threads>>>(matrix, norms, rows, cols); break;
    case 8: row_norms_group_kernel<8><<<blocks, threads>>>(matrix, norms, rows, cols); break;
    case 16: row_norms_group_kernel<16><<<blocks, threads>>>(matrix, norms, rows, cols); break;
    default: row_norms_group_kernel<32><<<blocks, threads>>>(matrix, norms, rows, cols); break;
  }
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}

void launch_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the kernel that fits the rows' length.
  if (rows == 0) return;
  if (cols >= kBlockPerRowMinCols) {
    row_norms_block_kernel<<<rows, kRowBlockThreads>>>(matrix, norms, rows, cols);
    CUDA_CHECK_LAUNCH();
  } else {
    launch_row_norms_group(matrix, norms, rows, cols, lanes_per_row(cols));
  }
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

// ---------------------------------------------------------------------------
// Weighted norms: the weights in constant memory
// ---------------------------------------------------------------------------

// A __constant__ symbol belongs to its translation unit (without relocatable device
// code): the table, the copy into it and the kernel that reads it stay in this file.
// TODO(student): declare the weights table in constant memory.
__constant__ float c_column_weights[kMaxConstantColumns];
// END TODO(student)

bool set_column_weights(const float* host_weights, int cols) {
  // TODO(student): the copy into constant memory.
  if (cols < 1 || cols > kMaxConstantColumns) return false;
  CUDA_CHECK(cudaMemcpyToSymbol(c_column_weights, host_weights,
                                static_cast<std::size_t>(cols) * sizeof(float)));
  // END TODO(student)
  return true;
}

// [slide:weighted_row_norms_kernel]
__global__ void weighted_row_norms_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one thread per row, the weights from constant memory.
  // [slide:constant-read]
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* row_start = matrix + static_cast<std::size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float weighted = c_column_weights[c] * row_start[c];
    sum += weighted * weighted;
  }
  norms[row] = sqrtf(sum);
  // [/slide]
  // END TODO(student)
}
// [/slide]

void launch_weighted_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the weighted kernel, one thread per row.
  if (rows == 0) return;
  const unsigned blocks = course::blocks_for(static_cast<std::size_t>(rows), kWeightedBlockThreads);
  weighted_row_norms_kernel<<<blocks, kWeightedBlockThreads>>>(matrix, norms, rows, cols);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
