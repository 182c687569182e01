// Exercise 26: what a run computes on, what it must find, and what a case reports.
// The program that runs the student's code and the check that judges it both include this
// file, so the same seed gives both the same inputs and a result has one name.
#pragma once

#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

namespace tensor_core_gemm {

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

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu):
// each request's parameters listed once, so that a misspelt one does not compile.
namespace request {
struct Scale {
  int n = 0;
  double factor = 1.0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("factor", factor);
  }
};
inline const course::check::Request<Scale> scale{"scale"};  // y = factor * x on n elements
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> y{"y"};  // scale_on_gpu's output
}  // namespace result

}  // namespace tensor_core_gemm
