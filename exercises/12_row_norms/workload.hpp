// Exercise 12: what the student's program and its check must agree on - the matrices
// whose row norms are computed, drawn from a seed.
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

#include "course/data.hpp"

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

}  // namespace row_norms
