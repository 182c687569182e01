// Exercise 22 - the transposes' yardstick: a copy kernel of the same shape
// (harness/steps.cuh declares its launcher).
#include "course/errors.hpp"
#include "steps.cuh"

namespace {

// [slide:copy]
// The same grid of tiles, the same blocks and the same loop as a transpose, but each
// element goes back to where it came from. Reads and writes are both rows: what a
// transpose would reach if its writes cost no more than its reads.
__global__ void copy_tile_shaped(const float* in, float* out, int rows, int cols) {
  const int col = blockIdx.x * kTileDim + threadIdx.x;
  const int first_row = blockIdx.y * kTileDim + threadIdx.y;
  for (int j = 0; j < kTileDim; j += kBlockRows) {
    const int row = first_row + j;
    if (col < cols && row < rows) out[row * cols + col] = in[row * cols + col];
  }
}
// [/slide]

}  // namespace

void transpose::launch_copy(const float* in, float* out, int rows, int cols) {
  const dim3 grid(static_cast<unsigned>(tiles_across(cols)),
                  static_cast<unsigned>(tiles_across(rows)));
  copy_tile_shaped<<<grid, kBlock>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}
