// Exercise 03: the inputs of every run, shared by the program and its check so that
// both draw the same numbers from the same seed, and the results a case reports.
#pragma once

#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
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

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
struct Affine {
  std::int64_t n = 0;
  double scale = 1.0;
  double offset = 0.0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("scale", scale), visit("offset", offset);
  }
};
// y = scale * x + offset on n elements; after_empty makes an empty call (n = 0) first.
inline const course::check::Request<Affine> affine{"affine"};
inline const course::check::Request<Affine> affine_after_empty{"affine_after_empty"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> y{"y"};  // affine_on_gpu's output
}  // namespace result

}  // namespace device_memory
