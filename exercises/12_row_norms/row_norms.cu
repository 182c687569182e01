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
  //   For offset = kLanes / 2, kLanes / 4, ..., 1:
  //     value += __shfl_down_sync(kFullWarpMask, value, offset).
  // At each step lane l adds the value of lane l + offset. Starting at half the group, a
  // group's first lane only ever adds lanes of its own group, and after log2(kLanes) steps
  // it holds the sum of all kLanes of them: for a whole warp, offsets 16, 8, 4, 2, 1 in 5
  // steps; for one lane, no step at all.
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
  //   1. This thread's row is blockIdx.x * (blockDim.x / kLanesPerRow) + threadIdx.x /
  //      kLanesPerRow, and its lane in the row's group is threadIdx.x % kLanesPerRow.
  //   2. Start a float sum at 0. If row < rows, add the squares of columns lane,
  //      lane + kLanesPerRow, ... below cols (a lane with lane >= cols adds nothing). Compute
  //      the row's start, row * cols, in std::size_t: it can pass 2^31.
  //   3. Take group_sum<kLanesPerRow> of the lanes' sums. A thread past the last row takes
  //      part with its 0: no thread returns before the fold, so that no shuffle misses a lane.
  //   4. If row < rows, the group's first lane (lane == 0) writes norms[row] = sqrtf(sum).
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Kernel: one block per row, for long rows
// ---------------------------------------------------------------------------
// [slide:row_norms_block_kernel]
__global__ void row_norms_block_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one block per row, the warps meeting in shared memory.
  //   0. Declare the block's shared array, one partial sum per warp:
  //      __shared__ float warp_sums[kRowBlockThreads / kWarpSize];
  //   1. The row is blockIdx.x. Return if row >= rows: the whole block at once.
  //   2. Each thread adds the squares of columns threadIdx.x, threadIdx.x + blockDim.x, ...
  //   3. Take group_sum<kWarpSize> in every warp. Lane 0 of warp w stores it in warp_sums[w].
  //   4. Call __syncthreads(): every warp's sum must be stored before anyone reads them.
  //   5. Warp 0 loads warp_sums[lane] for lane < the number of warps, 0 for the other
  //      lanes, and reduces with group_sum<kWarpSize>. Thread 0 writes
  //      norms[row] = sqrtf(sum).
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
  //   1. When rows == 0, return.
  //   2. blocks = course::blocks_for(rows * lanes, kGroupBlockThreads), the product in
  //      std::size_t: enough blocks of kGroupBlockThreads threads for rows groups.
  //   3. Launch row_norms_group_kernel<lanes> on them. A template argument must be known at
  //      compile time: switch over lanes, one case per width (1, 2, 4, 8, 16, 32), each
  //      launching its own instantiation.
  //   4. Then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

void launch_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the kernel that fits the rows' length.
  //   1. When rows == 0, return.
  //   2. When cols >= kBlockPerRowMinCols, launch row_norms_block_kernel on rows blocks of
  //      kRowBlockThreads threads, then CUDA_CHECK_LAUNCH().
  //   3. Otherwise call launch_row_norms_group with lanes_per_row(cols) lanes per row.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Host function: host arrays in, host array out
// ---------------------------------------------------------------------------
void row_norms_gpu(const float* host_matrix, float* host_norms, int rows, int cols) {
  // TODO(student): the round trip.
  //   1. When rows == 0, return.
  //   2. Allocate the device matrix (rows * cols floats: compute the count in
  //      std::size_t) and the device norms (rows floats).
  //   3. Copy the matrix in, then call launch_row_norms.
  //   4. Copy the norms back, then free both arrays.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Weighted norms: the weights in constant memory
// ---------------------------------------------------------------------------

// A __constant__ symbol belongs to its translation unit (without relocatable device
// code): the table, the copy into it and the kernel that reads it stay in this file.
// TODO(student): declare the weights table in constant memory.
//   __constant__ float c_column_weights[kMaxConstantColumns];
// It starts zeroed: a weight never copied in is 0.
// END TODO(student)

bool set_column_weights(const float* host_weights, int cols) {
  // TODO(student): the copy into constant memory.
  //   1. When cols < 1 or cols > kMaxConstantColumns, return false: the table holds
  //      kMaxConstantColumns floats, and nothing is copied.
  //   2. CUDA_CHECK(cudaMemcpyToSymbol(c_column_weights, host_weights, bytes)), bytes =
  //      cols * sizeof(float): the count is in bytes, like cudaMemcpy's.
  // END TODO(student)
  return true;
}

// [slide:weighted_row_norms_kernel]
__global__ void weighted_row_norms_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one thread per row, the weights from constant memory.
  // [slide:weighted-steps]
  //   1. row = blockIdx.x * blockDim.x + threadIdx.x; return if row >= rows (no shuffle
  //      here: a thread may leave early).
  //   2. Add (c_column_weights[c] * matrix[row * cols + c])^2 for c = 0 to cols - 1, in
  //      float, the row's start in std::size_t. The weight is the column's, c: at each
  //      step the 32 lanes of a warp read the same weight, one address, broadcast.
  //   3. norms[row] = sqrtf(sum).
  // [/slide]
  // END TODO(student)
}
// [/slide]

void launch_weighted_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the weighted kernel, one thread per row.
  //   1. When rows == 0, return.
  //   2. Launch weighted_row_norms_kernel on course::blocks_for(rows, kWeightedBlockThreads)
  //      blocks of kWeightedBlockThreads threads, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}
