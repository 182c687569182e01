// Exercise 26: what the student's program and its check must agree on - the problems
// (C = A B, row-major, inputs on FP16's grid drawn from a seed, C poisoned with NaN), the
// error an FP32 accumulation of FP16 products may have, the elements compared on large
// products, the architectures steps 3 and 4 need, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it.
//
// Used by:  make 26 && make run-26 (the program), make check-26 (the check)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/sgemm_elements.hpp"
#include "course/sgemm_problem.hpp"

namespace tensor_core_gemm {

using sgemm::Element;
using sgemm::Problem;
using sgemm::Shape;

// ---------------------------------------------------------------------------
// The inputs: exactly representable in FP16
// ---------------------------------------------------------------------------
// Every multiple of 2^-11 in [-1, 1] is an FP16 number (11 significant bits), so the
// inputs are drawn from exercise 06's uniform values and put on that grid: the program's
// conversion to __half is then exact, and the check's float64 reference multiplies the
// very numbers the tensor cores see. `positive` draws them in [0, 1] instead: nothing
// cancels, and the sums grow with k (the long-k cases).
inline constexpr int kFp16GridBits = 11;

inline float on_fp16_grid(float x) {
  return static_cast<float>(std::ldexp(
      std::nearbyint(std::ldexp(static_cast<double>(x), kFp16GridBits)), -kFp16GridBits));
}

// C = A B (alpha 1, beta 0: C is never read, and starts full of the poison).
inline Problem make_problem(int m, int n, int k, bool positive, std::uint64_t seed) {
  Problem p = sgemm::make_problem(Shape::dense(m, n, k), 1.0f, 0.0f, seed);
  for (std::vector<float>* matrix : {&p.a, &p.b}) {
    for (float& x : *matrix) x = on_fp16_grid(positive ? std::fabs(x) : x);
  }
  return p;
}

// ---------------------------------------------------------------------------
// The tolerance: what an FP32 accumulation of FP16 products may err by
// ---------------------------------------------------------------------------
// The inputs are exact FP16 numbers, and the product of two of them is exact in FP32
// (11 + 11 significant bits fit in FP32's 24): the one error is the accumulation. A sum
// of k products in FP32, in any order (fragments, k-steps, the lanes of an MMA), is off by
// at most gamma_k = k u / (1 - k u) times sum_p |a_ip b_pj| (Higham, Accuracy and Stability
// of Numerical Algorithms, section 3.1), where u is the relative error of one addition.
// Rounding to nearest gives u = 2^-24; tensor cores may align the products to the largest
// exponent and truncate instead, which is within one unit of the 24th bit: u = 2^-23. So
//   |got - ref| <= kBoundSafety (k + 1) 2^-23 sum_p |A(i, p) B(p, j)|,
// the factor 2 covering the u^2 terms and the float64 reference's own rounding. An
// accumulator in FP16 (u = 2^-11) errs about 2^12 times more per addition: on the long-k
// cases (inputs in [0, 1], k = 4096, sums near 1024, where FP16's spacing is 1) by several
// times this bound on most elements. A wrong fragment (a layout, a missing barrier, an
// index) errs by a whole product, |a b| ~ 1/4, far above it at every size of the check.
inline constexpr double kAccumulationUnit = 0x1.0p-23;

inline double fp32_accumulation_bound(int k, double abs_sum) {
  return sgemm::kBoundSafety * (k + 1) * kAccumulationUnit * abs_sum;
}

inline sgemm::Verdict compare_elements(const Problem& pr, const std::vector<Element>& at,
                                       const std::vector<float>& got) {
  return sgemm::compare_elements(pr, at, got, [](const Problem& p, const sgemm::Dot& d, int, int) {
    return fp32_accumulation_bound(p.shape.k, d.abs_sum);
  });
}

inline constexpr std::uint64_t kSampleSalt = 26;

inline std::vector<Element> sampled_elements(const Shape& s, std::uint64_t seed) {
  return sgemm::sampled_elements(s, seed, kSampleSalt);
}

// ---------------------------------------------------------------------------
// The speed runs
// ---------------------------------------------------------------------------
// Every step against cuBLAS at 4096^3, compute-bound on every GPU of the course.
inline constexpr int kSpeedSize = 4096;
// Under compute-sanitizer the speed runs only prove the launches clean.
inline constexpr int kSanitizerSpeedSize = 256;

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// The device's compute capability, the architecture of the code this program runs on it
// and that code's specific features, before any case of step 3 or 4
// (course/check/architecture.hpp decides).
struct Architecture {
  template <typename Visit>
  void fields(Visit&&) {}
};
inline const course::check::Request<Architecture> architecture{"architecture"};
// One step (by its name in harness/steps.cuh) on one m x n x k product.
struct Gemm {
  std::string step;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  bool positive = false;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("step", step), visit("m", m), visit("n", n), visit("k", k), visit("positive", positive);
  }
};
inline const course::check::Request<Gemm> gemm{"gemm"};
// One step against cublasGemmEx on a size^3 product, each time the best of a few rounds'
// medians of `repetitions` calls; `timed` false (under compute-sanitizer) runs the step
// once and times nothing.
struct Speed {
  std::string step;
  std::int64_t size = 0;
  std::int64_t repetitions = 0;
  bool timed = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("step", step), visit("size", size), visit("repetitions", repetitions),
        visit("timed", timed);
  }
};
inline const course::check::Request<Speed> speed{"speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// The architecture case: compute capabilities as 10 major + minor (75, 80, 90), and the
// architecture whose specific features the code carries (90 for sm_90a, else 0).
inline const course::check::Value<std::int64_t> device_cc{"device_cc"};
inline const course::check::Value<std::int64_t> code_arch{"code_arch"};
inline const course::check::Value<std::int64_t> code_specific{"code_specific"};
inline const course::check::Array<float> c{"c"};                  // the whole m x n C
inline const course::check::Array<float> c_sampled{"c_sampled"};  // C at sampled_elements
// A timed speed case's times: the student's step, then cuBLAS in the same run.
inline const course::check::Value<double> step_ms{"step_ms"};
inline const course::check::Value<double> cublas_ms{"cublas_ms"};
}  // namespace result

}  // namespace tensor_core_gemm
