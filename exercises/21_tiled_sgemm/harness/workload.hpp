// Exercise 21: what the student's program and its check must agree on - the problems
// (the course's SGEMM problem, exercise 06's too: row-major, inputs in [-1, 1) from a
// seed, C poisoned with NaN when beta is 0), the elements compared on large products,
// the comparison itself, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it.
//
// Used by:  make 21 && make run-21 (the program), make check-21 (the check)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
// The problem, its float64 reference and its error bound are exercise 06's: the same
// SGEMM, dense here (every leading dimension equals its width).
#include "course/sgemm_elements.hpp"
#include "course/sgemm_problem.hpp"
#include "course/verify.hpp"

namespace tiled_sgemm {

using sgemm::Problem;
using sgemm::Shape;

// ---------------------------------------------------------------------------
// The tolerance, per element (sgemm::error_bound, derived in course/sgemm_problem.hpp):
//   |got - ref| <= 2 (k + 2) 2^-24 (|alpha| sum_p |A(i, p) B(p, j)| + |beta C(i, j)|).
// A float32 dot product of k terms accumulates at most k roundings (one per
// multiply-add, in whatever order the tiles add them), each of relative size
// 2^-24 = eps_float / 2 of the partial sum, itself at most sum_p |a_ip b_pj|; alpha, beta
// and the final addition add two more; the factor 2 covers second-order terms and the
// reference's own float64 rounding. It grows with k, and it is a worst case: a result
// computed right errs by about sqrt(k) 2^-24 sum |a b|. A wrong tile (an index, a
// missing barrier, a stale value) errs by about a term |a b| ~ 1/3, far above it.
// ---------------------------------------------------------------------------

// The elements compared and the comparison are the matrix-multiply checks' own
// (course/sgemm_elements.hpp), judged here against sgemm::error_bound.
using sgemm::Element;
using sgemm::every_element;
using sgemm::kSampledElements;
using sgemm::values_at;
using sgemm::Verdict;

inline constexpr std::uint64_t kSampleSalt = 21;

inline std::vector<Element> sampled_elements(const Shape& s, std::uint64_t seed) {
  return sgemm::sampled_elements(s, seed, kSampleSalt);
}

// got[q] is C's element at[q] after the call.
inline Verdict compare_elements(const Problem& pr, const std::vector<Element>& at,
                                const std::vector<float>& got) {
  return sgemm::compare_elements(pr, at, got, sgemm::error_bound);
}

// ---------------------------------------------------------------------------
// The speed runs
// ---------------------------------------------------------------------------
// The final step and the optional one against cuBLAS, and the naive step against the
// course's coalesced naive kernel (a smaller size: the naive kernels take tens of
// milliseconds at 4096^3).
inline constexpr int kFinalSpeedSize = 4096;
inline constexpr int kNaiveSpeedSize = 2048;
// Under compute-sanitizer the speed runs only prove the launches clean.
inline constexpr int kSanitizerSpeedSize = 256;

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// One step (by its name in harness/steps.cuh) on one m x n x k product.
struct Sgemm {
  std::string step;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  double alpha = 1.0;
  double beta = 0.0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("step", step), visit("m", m), visit("n", n), visit("k", k), visit("alpha", alpha),
        visit("beta", beta);
  }
};
inline const course::check::Request<Sgemm> sgemm{"sgemm"};
// A step against its yardstick on a size^3 product, each time the median of `repetitions`
// calls; `timed` false (under compute-sanitizer) runs the step once and times nothing.
struct Speed {
  std::int64_t size = 0;
  std::int64_t repetitions = 0;
  double alpha = 1.0;
  double beta = 0.0;
  bool timed = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("size", size), visit("repetitions", repetitions), visit("alpha", alpha),
        visit("beta", beta), visit("timed", timed);
  }
};
// The naive step against the course's coalesced naive kernel, the final and the optional
// step against cuBLAS.
inline const course::check::Request<Speed> naive_speed{"naive_speed"};
inline const course::check::Request<Speed> final_speed{"final_speed"};
inline const course::check::Request<Speed> optional_speed{"optional_speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> c{"c"};                  // the whole m x n C
inline const course::check::Array<float> c_sampled{"c_sampled"};  // C at sampled_elements
// A timed speed case's medians: the student's step, then its yardstick in the same run.
inline const course::check::Value<double> step_ms{"step_ms"};
inline const course::check::Value<double> yardstick_ms{"yardstick_ms"};
}  // namespace result

}  // namespace tiled_sgemm
