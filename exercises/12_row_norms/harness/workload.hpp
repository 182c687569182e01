// Exercise 12: what the student's program and its check must agree on - the matrices
// whose row norms are computed, drawn from a seed, their norms in double precision, the
// tolerance results are judged by, and the results a case reports.
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
#include <vector>

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

inline MatrixKind matrix_kind_from_name(const std::string& name) {
  return name == "unit_circle" ? MatrixKind::unit_circle : MatrixKind::uniform;
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

// The tolerance grows with the row's length. A norm is a sum of cols squares, all
// positive (no cancellation), in float. A lane adds its ceil(cols / 32) squares one after
// the other (in a block, each thread fewer: ceil(cols / 256)), then a tree adds the
// partial sums in 5 steps (warp) plus 3 (block). Each addition rounds once (2^-24,
// relative to a partial sum no larger than the total), the square once more, so the sum
// is within (ceil(cols / 32) + 9) * 2^-24 of the exact one, relative, at worst. sqrtf
// halves that relative error and adds half an ulp. rtol = (ceil(cols / 32) + 12) * 2^-24
// keeps about a factor 2 on the worst case (random roundings do far better: about
// sqrt(cols / 32) of them). For 3 columns that is 8e-7, for 100000 columns 1.9e-4: a lost
// half of the lanes, a missing square root or a neighbour's elements are off by percents.
inline course::Tolerance tolerance_for(int cols) {
  const double per_lane = std::ceil(static_cast<double>(cols) / 32.0);
  return {0.0, (per_lane + 12.0) * std::ldexp(1.0, -24)};
}

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> norms{"norms"};  // row_norms_gpu's output
}  // namespace result

}  // namespace row_norms
