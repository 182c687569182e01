// Exercise 04: what the student's program and its check must agree on - the constants
// of the function heavy(), the inputs of every run, drawn from a seed, heavy() in
// double precision with the tolerance the results are judged by (by the check, and by
// the demo before it shows a time), and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// cpu_vs_gpu.hpp includes it for the student's code.
//
// Used by:  make 04 && make run-04 (the program), make check-04 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

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

// heavy() in double precision: the same formula, rounded far less.
inline double heavy_reference(double x) {
  double sum = 0.0;
  for (int k = 1; k <= kHeavyTerms; ++k) {
    const double s = x / k;
    const double w = std::sin(s) * std::exp(-0.5 * s * s) / std::sqrt(1.0 + s * s);
    sum += (w >= 0.0) ? w : kNegativeTermWeight * w;
  }
  return sum;
}

// heavy() in float is a sum of kHeavyTerms = 24 terms, each after about eight roundings
// (x / k, sinf, expf, sqrtf, the products, 1 + s * s and the division). glibc's sinf and
// expf are within 1 ulp, CUDA's within 2, and nvcc fuses some products into FMAs, so
// the CPU and the GPU differ by a few ulp per term. Every term that matters has the
// sign of x (the first term changes sign for |x| > pi, but there exp(-x^2 / 2) keeps it
// below 2e-4 while |y| > 5), so nothing cancels and the error stays relative to |y|:
// at most about (24 additions + 8 roundings) * 2^-24 |y| ~ 2e-6 |y|. rtol = 1e-5 leaves
// a factor 5 on that bound (a simulation with every sinf and expf off by 2 ulp used 5%
// of the tolerance); atol only matters near x = 0, where y ~ 3.8 x and both are 0 at
// x = 0. A term too many or too few changes y by 1% or more, a thousand times rtol.
inline constexpr course::Tolerance kTolerance{1e-6, 1e-5};

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
struct Cpu {
  int n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
struct Gpu {
  int n = 0;
  int threads_per_block = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("threads_per_block", threads_per_block);
  }
};
// heavy_on_cpu on n elements.
inline const course::check::Request<Cpu> cpu{"cpu"};
// heavy_on_gpu on n elements; after_empty makes an empty call (n = 0) first, and timing
// reports the time it returned beside the runner's own timing of heavy_kernel.
inline const course::check::Request<Gpu> gpu{"gpu"};
inline const course::check::Request<Gpu> gpu_after_empty{"gpu_after_empty"};
inline const course::check::Request<Gpu> gpu_timing{"gpu_timing"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> y{"y"};  // heavy_on_cpu's or heavy_on_gpu's output
// The output of heavy_on_gpu with n = 0, before the call that follows it.
inline const course::check::Array<float> empty_y{"empty_y"};
// The kernel time heavy_on_gpu returned, and its whole call timed around it.
inline const course::check::Value<double> kernel_ms{"kernel_ms"};
inline const course::check::Value<double> call_ms{"call_ms"};
// The fastest launch of heavy_kernel the runner timed itself on the same input.
inline const course::check::Value<double> reference_kernel_ms{"reference_kernel_ms"};
}  // namespace result

}  // namespace cpu_vs_gpu
