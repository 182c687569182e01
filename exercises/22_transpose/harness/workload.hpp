// Exercise 22: what the student's program and its check must agree on - the tile and block
// shape of every launch, the matrices of every run (drawn from a seed, element by element,
// so that the check can find any element of an 8192 x 8192 input without storing it),
// where each element of the transpose comes from, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// transpose.hpp includes it for the student's code.
//
// Used by:  make 22 && make run-22 (the program), make check-22 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

// Every kernel of the exercise, and the runner's copy kernel, covers the matrix in tiles
// of kTileDim x kTileDim elements, one tile per block of kTileDim x kBlockRows threads:
// each thread handles kTileDim / kBlockRows = 4 elements of its tile's column, rows
// threadIdx.y, threadIdx.y + 8, threadIdx.y + 16, threadIdx.y + 24.
inline constexpr int kTileDim = 32;  // a warp's width: one warp reads one row of a tile
inline constexpr int kBlockRows = 8;
static_assert(kTileDim % kBlockRows == 0, "each thread must handle whole rows of its tile");

namespace transpose {

// ---------------------------------------------------------------------------
// The matrices. The input is rows x cols, row-major: element (r, c) at r * cols + c. Its
// transpose is cols x rows, row-major: element (c, r) at c * rows + r. A matrix holds
// fewer than 2^31 elements (indices fit in an int).
// ---------------------------------------------------------------------------

// Element i (row-major) of the input of the run whose seed is `seed`: 24 random bits, a
// float in [-1, 1) that no two neighbours share, so that an element moved to the wrong
// place is seen (the comparison is exact: a transpose only moves values).
inline float input_value(std::uint64_t seed, std::int64_t i) {
  course::Rng rng(seed + static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ull);
  return static_cast<float>(rng.next_u64() >> 40) * 0x1.0p-23f - 1.0f;
}

inline std::vector<float> make_input(int rows, int cols, std::uint64_t seed) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  std::vector<float> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    values[static_cast<std::size_t>(i)] = input_value(seed, i);
  }
  return values;
}

// The input index that element k of the transpose (row-major, cols x rows) comes from:
// k = c * rows + r holds input element (r, c), at r * cols + c.
inline std::int64_t source_index(std::int64_t k, int rows, int cols) {
  const std::int64_t c = k / rows, r = k % rows;
  return r * cols + c;
}

// The transpose of the run's input, every element.
inline std::vector<float> reference(int rows, int cols, std::uint64_t seed) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  std::vector<float> out(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) {
    out[static_cast<std::size_t>(k)] = input_value(seed, source_index(k, rows, cols));
  }
  return out;
}

// The shapes on which the check compares tile_grid with the grid it must be: a single
// element, one row, one column, one tile, one tile and a bit, and non-square ones.
struct Shape {
  int rows;
  int cols;
};
inline constexpr Shape kGridShapes[] = {{1, 1},   {1, 1000},   {1000, 1},  {32, 32},
                                        {33, 31}, {1000, 999}, {37, 3001}, {8192, 8192}};

// The grid that covers a rows x cols matrix with one block per tile: x across the columns.
inline int tiles_across(int extent) { return (extent + kTileDim - 1) / kTileDim; }

// ---------------------------------------------------------------------------
// The speed case: a square matrix of 8192 x 8192 floats, 256 MiB read and 256 MiB
// written, far more than any L2. Its output is judged on every kSampleStride-th element
// (a prime: the sample walks across rows and columns alike).
// ---------------------------------------------------------------------------
inline constexpr int kSpeedExtent = 8192;
inline constexpr std::int64_t kSampleStride = 4099;

// Bytes a transpose (or a copy) of a rows x cols float matrix moves: each element read
// once and written once. GB/s = 2 * 4 B * rows * cols / time.
inline double bytes_moved(int rows, int cols) {
  return 2.0 * sizeof(float) * static_cast<double>(rows) * static_cast<double>(cols);
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// tile_grid on every shape of kGridShapes.
inline const course::check::Request<course::check::NoParams> grid{"grid"};
// One kernel ("naive", "tiled" or "padded") on a rows x cols matrix.
struct Transpose {
  std::string kernel;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("kernel", kernel), visit("rows", rows), visit("cols", cols);
  }
};
inline const course::check::Request<Transpose> transpose{"transpose"};
// Every kernel and the copy timed on a rows x cols matrix, each the median of `repetitions`
// launches; `ceiling` measures the device-to-device copy's GB/s too (not under
// compute-sanitizer: its buffers are hundreds of MiB).
struct Speed {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t repetitions = 0;
  bool ceiling = false;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols), visit("repetitions", repetitions),
        visit("ceiling", ceiling);
  }
};
inline const course::check::Request<Speed> speed{"speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp). The
// speed case's records are per kernel, by the check's names: "naive", "tiled", "padded".
namespace result {
inline const course::check::Array<std::int32_t> grids{"grids"};  // tile_grid's x, y, z per shape
inline const course::check::Array<float> out{"out"};             // a kernel's whole output
// Every kSampleStride-th element of a timed kernel's output: "naive_sample", ...
inline const course::check::Family<course::check::Array<float>> sample{"", "_sample"};
// The speed case's best medians: the copy of the same shape, then each kernel ("naive_ms").
inline const course::check::Value<double> copy_ms{"copy_ms"};
inline const course::check::Family<course::check::Value<double>> kernel_ms{"", "_ms"};
// A device-to-device cudaMemcpy's GB/s (0 when the check asks for no ceiling).
inline const course::check::Value<double> copy_gbps{"copy_gbps"};
}  // namespace result

}  // namespace transpose
