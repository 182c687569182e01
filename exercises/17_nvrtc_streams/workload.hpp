// Exercise 17: what the program and its check must agree on - the block size, the
// names of the kernels, the inputs of every run drawn from a seed, the CPU reference,
// and how a text (NVRTC's log, a lowered name) travels in a result record.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// nvrtc_streams.hpp includes it for the student's code.
//
// Used by:  make 17 && make run-17 (the program), make check-17 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/data.hpp"

// The block size of launch_saxpy: one thread per element, blocks of 256 threads.
inline constexpr unsigned kSaxpyThreadsPerBlock = 256;

// The name expressions compile_to_cubin is given for the SAXPY source, in this order:
// lowered_names[kFloatKernel] is the mangled name of saxpy<float>.
inline constexpr const char* kSaxpyFloatExpression = "saxpy<float>";
inline constexpr const char* kSaxpyDoubleExpression = "saxpy<double>";
inline constexpr std::size_t kFloatKernel = 0;
inline constexpr std::size_t kDoubleKernel = 1;

namespace nvrtc_streams {

// A CUBIN is an ELF image and starts with these four bytes; PTX is text.
inline constexpr char kElfMagic[] = {0x7f, 'E', 'L', 'F'};

// x and y uniform in [-8, 8), a = 1.75 (or what a case sets): a * x + y never
// overflows, and its rounding is where a second rounding (no FMA) would show.
inline constexpr float kInputLimit = 8.0f;
inline constexpr double kDefaultFactor = 1.75;

inline constexpr std::uint64_t kXSalt = 1;
inline constexpr std::uint64_t kYSalt = 2;

template <typename T>
std::vector<T> make_input(std::size_t n, std::uint64_t seed, std::uint64_t salt) {
  const std::vector<float> values =
      course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, salt));
  std::vector<T> out(values.begin(), values.end());
  // A double input gets bits below float's precision too, so that a double kernel
  // computed in float shows.
  if constexpr (sizeof(T) == sizeof(double)) {
    for (std::size_t i = 0; i < n; ++i) out[i] += out[i] * 1e-9 * static_cast<double>(i % 7 + 1);
  }
  return out;
}
template <typename T>
std::vector<T> make_x(std::size_t n, std::uint64_t seed) {
  return make_input<T>(n, seed, kXSalt);
}
template <typename T>
std::vector<T> make_y(std::size_t n, std::uint64_t seed) {
  return make_input<T>(n, seed, kYSalt);
}

// out = a * x + y as the GPU computes it with FMA contraction on (nvcc's and NVRTC's
// default, --fmad=true): one fused multiply-add, rounded once. std::fma rounds once
// too, so the two agree bit for bit.
template <typename T>
std::vector<T> saxpy_reference(T a, const std::vector<T>& x, const std::vector<T>& y) {
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = std::fma(a, x[i], y[i]);
  return out;
}

}  // namespace nvrtc_streams
