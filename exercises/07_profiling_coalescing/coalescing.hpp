// Exercise 07: the functions the student implements, with their fixed signatures: a
// kernel that scales each row of a row-major matrix by its gain with coalesced reads,
// and its launcher. The check calls them exactly as declared here, and profiles the
// kernel by its name (scale_rows_coalesced); do not change this file.
//
// Build and run:  make 07 && make run-07   (statement: exercises/07_profiling_coalescing/README.md)
#pragma once

#include "workload.hpp"

// A block shape that suits the coalesced kernel: a warp is 32 consecutive threadIdx.x,
// so 32 threads along x read 32 consecutive floats of one row (128 bytes, 4 sectors of
// 32 bytes); 8 rows per block make blocks of 256 threads.
inline constexpr int kBlockCols = 32;
inline constexpr int kBlockRows = 8;

// out[row * cols + col] = gain[row] * in[row * cols + col] for every 0 <= row < rows and
// 0 <= col < cols, with one thread per element and adjacent threads (threadIdx.x) on
// adjacent columns, so that a warp reads consecutive addresses. Any block shape whose
// x dimension is a multiple of 32 must work.
__global__ void scale_rows_coalesced(const float* in, const float* gain, float* out, int rows,
                                     int cols);

// Launches scale_rows_coalesced on device arrays (in and out: rows * cols floats,
// gain: rows floats) with a grid that covers every element, and returns without waiting
// for the kernel. rows or cols may be 0: then nothing is launched. The shapes used here
// have rows * cols < 2^31 and rows <= 65535 * kBlockRows (the grid's y dimension holds
// at most 65535 blocks).
void launch_scale_rows_coalesced(const float* in, const float* gain, float* out, int rows,
                                 int cols);
