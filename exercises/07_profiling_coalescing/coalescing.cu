// Exercise 07 - profiling and coalescing: scale every row of a row-major matrix by
// its own gain, out[row][col] = gain[row] * in[row][col], with reads that a warp can
// serve in as few memory transactions as possible.
//
// The given kernel (scale_rows_strided.cuh) gives each thread one row to walk: the 32
// threads of a warp then read 32 addresses `cols` floats apart, and every load of the
// warp costs 32 sectors of 32 bytes instead of 4. Nsight Compute shows it (sectors
// per request, memory throughput); the fix is to map threadIdx.x to the column, the
// index that is contiguous in memory, so that a warp reads 128 consecutive bytes.
//
// Build and run:  make 07 && make run-07
// Check:          make check-07   (statement: exercises/07_profiling_coalescing/README.md)
#include <cstddef>

#include "coalescing.hpp"
#include "course/errors.hpp"

// ---------------------------------------------------------------------------
// Kernel: one thread per element, threadIdx.x along the row
// ---------------------------------------------------------------------------
// [slide:coalesced-kernel]
__global__ void scale_rows_coalesced(const float* in, const float* gain, float* out, int rows,
                                     int cols) {
  // TODO(student): one thread per element, threadIdx.x along the row.
  //   1. Take the column from the x dimension: col = blockIdx.x * blockDim.x + threadIdx.x.
  //      Take the row from the y dimension the same way (blockIdx.y, blockDim.y, threadIdx.y).
  //   2. If row < rows and col < cols, write out[row * cols + col] = gain[row] *
  //      in[row * cols + col]. Compute the index as a std::size_t.
  // The 32 threads of a warp then read 32 consecutive floats of one row.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launcher: a 2D grid that covers the matrix
// ---------------------------------------------------------------------------
// [slide:launch_scale_rows_coalesced]
void launch_scale_rows_coalesced(const float* in, const float* gain, float* out, int rows,
                                 int cols) {
  // TODO(student): a 2D grid that covers the matrix, in four steps.
  //   1. When rows or cols is 0, return at once: a grid of zero blocks is an error.
  //   2. Make blocks of kBlockCols x kBlockRows threads (coalescing.hpp): dim3 block(x, y).
  //   3. Make enough blocks to cover cols along x and rows along y. Round each count up in
  //      integers, as in (cols + kBlockCols - 1) / kBlockCols.
  //   4. Launch scale_rows_coalesced<<<grid, block>>>(...), then call CUDA_CHECK_LAUNCH().
  // Do not wait for the kernel: the caller times it.
  // END TODO(student)
}
// [/slide]
