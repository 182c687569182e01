// Exercise 04: what the student's program and its check must agree on - the constants
// of the function heavy() and the inputs of every run, drawn from a seed.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// cpu_vs_gpu.hpp includes it for the student's code.
//
// Used by:  make 04 && make run-04 (the program), make check-04 (the check)
#pragma once

#include <cstdint>
#include <vector>

#include "course/data.hpp"

// heavy(x) sums this many terms, one per k = 1 .. kHeavyTerms (README.md gives the formula).
inline constexpr int kHeavyTerms = 24;
// A negative term counts this much: the comparison of every term.
inline constexpr float kNegativeTermWeight = 0.5f;

namespace cpu_vs_gpu {

// Inputs are uniform in [kInputMin, kInputMax): wide enough that x / 1 passes pi, so
// the sine of the first term changes sign, and both signs of x are represented.
inline constexpr float kInputMin = -4.0f;
inline constexpr float kInputMax = 4.0f;

inline std::vector<float> make_input(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), kInputMin, kInputMax, seed);
}

}  // namespace cpu_vs_gpu
