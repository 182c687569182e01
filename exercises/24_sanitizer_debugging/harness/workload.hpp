// Exercise 24: what each step computes on, what it must find, and the results a case
// reports. The program that runs the student's code and the check that judges it both
// include this file, so the same seed gives both the same inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

namespace sanitizer_debugging {

// Step 1 moves values: exact. Steps 2 and 4 add 3 values, or one per frame (a dozen at
// most), of at most 10 in float32 and divide once: a few ulps of 120 at most, 1e-5,
// within 1e-4 absolute. Step 3 adds 256 values of at most 10 in float32 along a tree: 8
// roundings of partial sums below 2560, each at most 2^-24 of it: under 2e-3.
inline constexpr course::Tolerance kMoveTolerance{0.0, 0.0};
inline constexpr course::Tolerance kMeanTolerance{1e-4, 1e-5};
inline constexpr course::Tolerance kBlockSumTolerance{2e-3, 1e-5};

// Values of both signs, never all zero: an output of zeros cannot pass, nor one that
// the reversal or the neighbours of an element would leave unchanged.
inline std::vector<float> make_input(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -10.0f, 10.0f, seed);
}

// frame_count frames of n values, one after the other.
inline std::vector<float> make_frames(int frame_count, int n, std::uint64_t seed) {
  return make_input(frame_count * n, seed);
}

inline std::vector<double> reverse_reference(const std::vector<float>& x) {
  return std::vector<double>(x.rbegin(), x.rend());
}

inline std::vector<double> smooth_reference(const std::vector<float>& x) {
  const std::size_t n = x.size();
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double left = i > 0 ? x[i - 1] : 0.0;
    const double right = i + 1 < n ? x[i + 1] : 0.0;
    out[i] = (left + x[i] + right) / 3.0;
  }
  return out;
}

inline std::vector<double> block_sums_reference(const std::vector<float>& x, int block_size) {
  const std::size_t blocks = (x.size() + block_size - 1) / block_size;
  std::vector<double> sums(blocks, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) sums[i / block_size] += x[i];
  return sums;
}

inline std::vector<double> mean_reference(const std::vector<float>& frames, int frame_count,
                                          int n) {
  std::vector<double> mean(static_cast<std::size_t>(n), 0.0);
  for (int f = 0; f < frame_count; ++f) {
    for (int i = 0; i < n; ++i) mean[i] += frames[static_cast<std::size_t>(f) * n + i];
  }
  for (double& value : mean) value /= frame_count;
  return mean;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu): one
// step on n elements (the average step on `frames` frames of n).
namespace request {
struct Step {
  std::int64_t n = 0;
  std::int64_t frames = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("frames", frames);
  }
};
inline const course::check::Request<Step> reverse{"reverse"};
inline const course::check::Request<Step> smooth{"smooth"};
inline const course::check::Request<Step> block_sums{"block_sums"};
inline const course::check::Request<Step> average{"average"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
inline const course::check::Array<float> out{"out"};    // step 1 or step 2's output
inline const course::check::Array<float> sums{"sums"};  // step 3's sum of each block
inline const course::check::Array<float> mean{"mean"};  // step 4's mean of the frames
}  // namespace result

}  // namespace sanitizer_debugging
