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
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    const std::size_t at =  // in 64 bits: rows * cols may not fit in an int
        static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + col;
    out[at] = gain[row] * in[at];
  }
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
  if (rows == 0 || cols == 0) return;
  // [slide:coalesced-launch]
  const dim3 block(kBlockCols, kBlockRows);
  const dim3 grid((cols + kBlockCols - 1) / kBlockCols, (rows + kBlockRows - 1) / kBlockRows);
  scale_rows_coalesced<<<grid, block>>>(in, gain, out, rows, cols);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
// [/slide]
