// Exercise 12: what the student's program and its check must agree on - the matrices
// whose row norms are computed and the weighted norm's column weights, drawn from a seed,
// their norms in double precision, the tolerance results are judged by, and the results a
// case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// row_norms.hpp includes it for the student's code.
//
// Used by:  make 12 && make run-12 (the program), make check-12 (the check)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

namespace row_norms {

// Entries uniform in [-1, 1): both signs, so that a norm computed from the values
// rather than their squares is caught.
inline constexpr float kEntryMin = -1.0f;
inline constexpr float kEntryMax = 1.0f;

enum class MatrixKind {
  uniform,      // rows x cols entries uniform in [kEntryMin, kEntryMax)
  unit_circle,  // the lab's example: rows points (cos a, sin a), cols = 2, every norm 1
};

// The names a request gives them (request_keys.hpp).
inline std::vector<std::pair<MatrixKind, std::string>> choices(MatrixKind) {
  return {{MatrixKind::uniform, "uniform"}, {MatrixKind::unit_circle, "unit_circle"}};
}

// A rows x cols matrix, row-major: element (r, c) at r * cols + c.
inline std::vector<float> make_matrix(int rows, int cols, std::uint64_t seed,
                                      MatrixKind kind = MatrixKind::uniform) {
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (kind == MatrixKind::uniform) return course::random_floats(count, kEntryMin, kEntryMax, seed);
  // Angles uniform in [-pi, pi), as in the lab: np.random.uniform(-np.pi, np.pi, N).
  constexpr double kPi = 3.14159265358979323846;
  course::Rng rng(seed);
  std::vector<float> points(count);
  for (int r = 0; r < rows; ++r) {
    const double angle = -kPi + 2.0 * kPi * rng.uniform01();
    points[2 * static_cast<std::size_t>(r)] = static_cast<float>(std::cos(angle));
    points[2 * static_cast<std::size_t>(r) + 1] = static_cast<float>(std::sin(angle));
  }
  return points;
}

// The norms in double precision, one row after the other: the CPU reference of the demo
// and of the check.
inline std::vector<double> norms_in_double(const std::vector<float>& matrix, int rows, int cols) {
  std::vector<double> norms(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double value = matrix[static_cast<std::size_t>(r) * cols + c];
      sum += value * value;
    }
    norms[static_cast<std::size_t>(r)] = std::sqrt(sum);
  }
  return norms;
}

// The weighted norm's per-column weights, uniform in [kWeightMin, kWeightMax): none is 1,
// so that a weight never copied (0: the table starts zeroed), copied in part or read at the
// wrong index changes the norm.
inline constexpr float kWeightMin = 0.5f;
inline constexpr float kWeightMax = 2.0f;
inline constexpr std::uint64_t kWeightsSalt = 31;

inline std::vector<float> make_weights(int cols, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(cols), kWeightMin, kWeightMax,
                               course::derive_seed(seed, kWeightsSalt));
}

// sqrt(sum over c of (weights[c] * matrix[r][c])^2) in double precision, row by row. The
// GPU rounds the product weights[c] * matrix[r][c] once more than a plain norm's square:
// each term is within 3 * 2^-24 of its exact value instead of 1, relative, and the terms
// are positive, so the sum moves by 2 * 2^-24 of itself at most: tolerance_for(cols, 1)
// still covers it (below).
inline std::vector<double> weighted_norms_in_double(const std::vector<float>& matrix,
                                                    const std::vector<float>& weights, int rows,
                                                    int cols) {
  std::vector<double> norms(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double weighted = static_cast<double>(weights[static_cast<std::size_t>(c)]) *
                              matrix[static_cast<std::size_t>(r) * cols + c];
      sum += weighted * weighted;
    }
    norms[static_cast<std::size_t>(r)] = std::sqrt(sum);
  }
  return norms;
}

// The tolerance grows with the squares one thread adds in sequence. A norm is a sum of
// cols squares, all positive (no cancellation), in float. When `threads` threads share a
// row, each adds its ceil(cols / threads) squares one after the other, then a tree adds
// their partial sums in log2(threads) steps (at most 8: a block of 256). Each addition
// rounds once (2^-24, relative to a partial sum no larger than the total, and the
// additions of one step add up to no more than the total), the squares once more, so the
// sum is within (ceil(cols / threads) + 9) * 2^-24 of the exact one, relative, at worst.
// sqrtf halves that relative error and adds half an ulp. rtol = (ceil(cols / threads) +
// 12) * 2^-24 keeps about a factor 2 on the worst case (random roundings do far better:
// about the square root of the count). For 3 columns on 1 lane that is 9e-7, for 2047
// columns on 1 lane 1.2e-4, for 100000 columns on a block of 256 threads 2.4e-5: a lost
// half of the lanes, a missing square root or a neighbour's elements are off by percents.
inline course::Tolerance tolerance_for(int cols, int threads) {
  const double per_thread = std::ceil(static_cast<double>(cols) / threads);
  return {0.0, (per_thread + 12.0) * std::ldexp(1.0, -24)};
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// row_norms_gpu on host arrays.
struct Norms {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  MatrixKind matrix = MatrixKind::uniform;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols), visit("matrix", matrix);
  }
};
inline const course::check::Request<Norms> gpu{"gpu"};

// launch_row_norms_group with `lanes` lanes per row, on device arrays.
struct Group {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t lanes = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols), visit("lanes", lanes);
  }
};
inline const course::check::Request<Group> group{"group"};

// set_column_weights (and, when too_large, a table one float too long in between), then
// launch_weighted_row_norms.
struct Weighted {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  bool too_large = false;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols), visit("too_large", too_large);
  }
};
inline const course::check::Request<Weighted> weighted{"weighted"};

// launch_row_norms timed, each round the median of `repetitions` launches, and the copy
// ceiling when `ceiling`.
struct Speed {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  int repetitions = 1;
  bool ceiling = false;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("rows", rows), visit("cols", cols), visit("repetitions", repetitions),
        visit("ceiling", ceiling);
  }
};
inline const course::check::Request<Speed> speed{"speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// The norms computed: row_norms_gpu's, launch_row_norms_group's or launch_row_norms's.
inline const course::check::Array<float> norms{"norms"};
// The speed case: launch_row_norms's time on device arrays (the best round's median), and
// the copy ceiling measured in the same run (0 under compute-sanitizer: not measured).
inline const course::check::Value<double> launch_ms{"launch_ms"};
inline const course::check::Value<double> copy_gbps{"copy_gbps"};
// The weighted case: set_column_weights's answers (1 accepted, 0 refused) for the case's
// weights, and for a table one float longer than kMaxConstantColumns (-1: not asked).
inline const course::check::Value<std::int64_t> weights_accepted{"weights_accepted"};
inline const course::check::Value<std::int64_t> too_large_accepted{"too_large_accepted"};
}  // namespace result

}  // namespace row_norms
