// Exercise 16: what the student's program and its check must agree on - the launch
// configuration, the kernels' names, and the inputs of every run, drawn from a seed.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// driver_api.hpp includes it for the student's code.
//
// Used by:  make 16 && make run-16 (the program), make check-16 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/data.hpp"
#include "course/verify.hpp"

// Every launch of the exercise: blocks of this many threads...
inline constexpr unsigned kThreadsPerBlock = 256;
// ...and at most this many blocks; both kernels loop over what one grid does not cover.
inline constexpr unsigned kMaxBlocks = 1024;

// The kernels' names in the PTX (extern "C", so not mangled).
inline constexpr const char* kSaxpyName = "saxpy";
inline constexpr const char* kSawtoothName = "sawtooth";

namespace driver_api {

// The sizes whose block count the check asks blocks_for for: empty, less than a block, a
// block and one more, the largest grid and one element past it, and sizes far beyond.
inline constexpr std::size_t kBlocksForSizes[] = {
    0, 1, 255, 256, 257, 1000, 262144, 262145, 262401, 999999, 1000000000, std::size_t{5} << 32};

// saxpy's inputs: floats in [-1, 1), and a in [0.5, 2).
inline constexpr float kInputLimit = 1.0f;
inline constexpr std::uint64_t kXSalt = 1;
inline constexpr std::uint64_t kYSalt = 2;
inline constexpr std::uint64_t kShapeSalt = 3;

inline std::vector<float> make_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kXSalt));
}
inline std::vector<float> make_y(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kYSalt));
}
inline float make_a(std::uint64_t seed) {
  course::Rng rng(course::derive_seed(seed, kShapeSalt));
  return rng.uniform(0.5f, 2.0f);
}

// a * x + y in float is the exact value rounded at most twice (the product, then the sum;
// or once, fused): within 2 ulp of the double-precision value, relative to the larger
// term, which is at most 3 (|a| < 2, |x|, |y| < 1): 3 * 2 * 2^-24 ~ 3.6e-7 absolute.
inline constexpr course::Tolerance kSaxpyTolerance{4e-7, 0.0};

inline std::vector<double> saxpy_reference(float a, const std::vector<float>& x,
                                           const std::vector<float>& y) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = static_cast<double>(a) * x[i] + y[i];
  return out;
}

// The sawtooth: out[k] = amplitude * ((first + k) % period). (first + k) % period is an
// integer below 2^24, exact in float; the product is rounded once: half an ulp, 6e-8
// relative. Any other formula is off by a whole step of the ramp.
inline constexpr course::Tolerance kSawtoothTolerance{0.0, 1.2e-7};

inline std::vector<double> sawtooth_reference(std::uint64_t first, int period, float amplitude,
                                              std::size_t n) {
  std::vector<double> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[k] = static_cast<double>(amplitude) * static_cast<double>((first + k) % period);
  }
  return out;
}

}  // namespace driver_api
