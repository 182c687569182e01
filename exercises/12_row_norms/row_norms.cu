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
  //   For offset = 16, 8, 4, 2, 1: value += __shfl_down_sync(kFullWarpMask, value, offset).
  // At each step lane l adds the value of lane l + offset. After 5 steps lane 0 holds the
  // sum of all 32.
  // END TODO(student)
  return value;
}

// ---------------------------------------------------------------------------
// Kernel: one warp per row
// ---------------------------------------------------------------------------
__global__ void row_norms_warp_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one warp per row, in three steps.
  //   1. This warp's row is blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize,
  //      and the lane is threadIdx.x % kWarpSize. A warp past the last row returns, all
  //      its lanes together, so that no shuffle misses a lane.
  //   2. Each lane adds, in a float, the squares of columns lane, lane + 32, ... below
  //      cols. A lane with lane >= cols adds nothing and keeps 0.
  //   3. Take warp_sum of the lanes' sums. Lane 0 writes norms[row] = sqrtf(sum).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: one block per row, for long rows
// ---------------------------------------------------------------------------
__global__ void row_norms_block_kernel(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): one block per row, the warps meeting in shared memory.
  //   0. Declare the block's shared array, one partial sum per warp:
  //      __shared__ float warp_sums[kRowBlockThreads / kWarpSize];
  //   1. The row is blockIdx.x. Return if row >= rows: the whole block at once.
  //   2. Each thread adds the squares of columns threadIdx.x, threadIdx.x + blockDim.x, ...
  //   3. Take warp_sum in every warp. Lane 0 of warp w stores it in warp_sums[w].
  //   4. Call __syncthreads(): every warp's sum must be stored before anyone reads them.
  //   5. Warp 0 loads warp_sums[lane] for lane < the number of warps, 0 for the other
  //      lanes, and reduces with warp_sum. Thread 0 writes norms[row] = sqrtf(sum).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Launcher, on device arrays
// ---------------------------------------------------------------------------
void launch_row_norms(const float* matrix, float* norms, int rows, int cols) {
  // TODO(student): the kernel that fits the rows' length.
  //   1. When rows == 0, return.
  //   2. When cols >= kBlockPerRowMinCols, launch row_norms_block_kernel on rows blocks of
  //      kRowBlockThreads threads.
  //   3. Otherwise launch row_norms_warp_kernel on blocks of kWarpsPerBlock warps, enough
  //      blocks for one warp per row (rounded up).
  //   4. Then CUDA_CHECK_LAUNCH().
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
