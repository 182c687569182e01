// Exercise 03: the inputs of every run, shared by the program and its check so that
// both draw the same numbers from the same seed.
#pragma once

#include <cstdint>
#include <vector>

#include "course/data.hpp"

namespace device_memory {

// Values of both signs and of several magnitudes, never all zero.
inline std::vector<float> make_input(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -10.0f, 10.0f, seed);
}

// The CPU reference, in double precision.
inline std::vector<double> reference(const std::vector<float>& x, double scale, double offset) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = scale * x[i] + offset;
  return y;
}

}  // namespace device_memory
