// Exercise 20: what a run computes on, and what it must find. The program that runs
// the student's code and the check that judges it both include this file, so the same seed
// gives both the same inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "course/data.hpp"
#include "course/verify.hpp"

namespace sparse_conjugate_gradient {

// One float32 multiply is exact to half an ulp; with |x| < 10 and the factors used here
// (|factor| <= 2.5), 1e-5 absolute is several ulps.
inline constexpr course::Tolerance kTolerance{1e-5, 1e-6};

// Values of both signs, never all zero: an output of zeros cannot pass.
inline std::vector<float> make_input(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -10.0f, 10.0f, seed);
}

// What y must hold, computed on the CPU in double precision.
inline std::vector<double> reference(const std::vector<float>& x, double factor) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = factor * x[i];
  return y;
}

}  // namespace sparse_conjugate_gradient
