// Exercise 07: what the program and its check must agree on - the inputs of the row
// scaling (a matrix and one gain per row, drawn from a seed), the shapes the
// performance measurements use, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// coalescing.hpp includes it for the student's code.
//
// Used by:  make 07 && make run-07 (the program), make check-07 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

namespace coalescing {

// Samples are uniform in [kSampleMin, kSampleMax) and gains in [kGainMin, kGainMax):
// never all zero, of both signs, and a different gain on every row, so that an output
// scaled by the wrong row's gain (or by a column's) is wrong.
inline constexpr float kSampleMin = -1.0f;
inline constexpr float kSampleMax = 1.0f;
inline constexpr float kGainMin = 0.5f;
inline constexpr float kGainMax = 2.0f;

// Independent streams of one seed for the two inputs.
inline constexpr std::uint64_t kSamplesSalt = 1;
inline constexpr std::uint64_t kGainsSalt = 2;

// The timing shape: 8192 rows of 4096 floats, 128 MiB in and 128 MiB out, several
// times any GPU's L2 cache (50 MiB on an H100), so the kernels stream from memory.
inline constexpr int kTimingRows = 8192;
inline constexpr int kTimingCols = 4096;

// The timing case reports every kSampleStride-th element of its output (a prime, so
// the sample visits every column and row), which the check verifies: a kernel is only
// fast if it computed everything.
inline constexpr std::size_t kSampleStride = 4099;

// Launches before the timed ones (module loading, clocks rising), in the timing case
// (harness/cases.cu) and the demo (harness/demo.cu) alike.
inline constexpr int kWarmupLaunches = 2;

inline std::size_t element_count(int rows, int cols) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

// The matrix, row-major: element (row, col) is at row * cols + col.
inline std::vector<float> make_samples(int rows, int cols, std::uint64_t seed) {
  return course::random_floats(element_count(rows, cols), kSampleMin, kSampleMax,
                               course::derive_seed(seed, kSamplesSalt));
}

// One gain per row.
inline std::vector<float> make_gains(int rows, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(rows), kGainMin, kGainMax,
                               course::derive_seed(seed, kGainsSalt));
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
struct Shape {
  int rows = 0;
  int cols = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols);
  }
};
// launch_scale_rows_coalesced on a rows x cols matrix; after_empty makes two calls on
// empty matrices (0 x cols, rows x 0) first.
inline const course::check::Request<Shape> gpu{"gpu"};
inline const course::check::Request<Shape> gpu_after_empty{"gpu_after_empty"};
// The student's kernel, the strided one and a copy timed on the same matrix.
inline const course::check::Request<Shape> timing{"timing"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> out{"out"};  // the launcher's output, guarded
// The timing case: the median times of the student's kernel, the strided one and a
// device-to-device copy of the same bytes, and every kSampleStride-th output element.
inline const course::check::Value<double> student_ms{"student_ms"};
inline const course::check::Value<double> strided_ms{"strided_ms"};
inline const course::check::Value<double> copy_ms{"copy_ms"};
inline const course::check::Array<float> sample{"sample"};
}  // namespace result

}  // namespace coalescing
