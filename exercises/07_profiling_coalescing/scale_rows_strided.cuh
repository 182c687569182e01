// Exercise 07: the given kernel - the row scaling written the way a CPU loop reads,
// one thread per row walking along its row. It is correct, and slow: at every step of
// the loop the 32 threads of a warp read 32 different rows, `cols` floats apart, so one
// load instruction of a warp touches 32 separate 32-byte sectors to use 4 bytes of each.
// Profile it (README.md, "Profiling"), then write scale_rows_coalesced in coalescing.cu.
//
// Instructor-owned: the demo and the check's timing case time it next to the student's
// kernel, as the baseline of the check's speed ratio, so the student's files cannot
// change it. harness/strided.cu compiles it, once; the others include harness/strided.hpp.
//
// Build and run:  make 07 && make run-07
#pragma once

#include <cstddef>

#include "course/errors.hpp"

inline constexpr int kStridedThreadsPerBlock = 256;

// One thread per row: out[row * cols + col] = gain[row] * in[row * cols + col] for col =
// 0 .. cols - 1. Thread `row` starts at address row * cols: neighbours in a warp are
// cols * 4 bytes apart.
// [slide:strided-kernel]
__global__ void scale_rows_strided(const float* in, const float* gain, float* out, int rows,
                                   int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float row_gain = gain[row];
  const std::size_t start = static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
  for (int col = 0; col < cols; ++col) {
    out[start + col] = row_gain * in[start + col];
  }
}
// [/slide]

// A thread per row, blocks of kStridedThreadsPerBlock; nothing to launch for an empty
// matrix. Returns without waiting for the kernel.
void launch_scale_rows_strided(const float* in, const float* gain, float* out, int rows, int cols) {
  if (rows == 0 || cols == 0) return;
  const int blocks = (rows + kStridedThreadsPerBlock - 1) / kStridedThreadsPerBlock;
  scale_rows_strided<<<blocks, kStridedThreadsPerBlock>>>(in, gain, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}
