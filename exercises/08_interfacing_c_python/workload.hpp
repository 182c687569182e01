// Exercise 08: what the program, the Python caller and the check must agree on - the
// inputs of every case, drawn from a seed, and the sizes of the error cases.
//
// Plain C++ (the check includes it, compiled without nvcc).
// Used by:  make 08 && make run-08 (the program), make check-08 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/data.hpp"

namespace veclib_workload {

// saxpy's inputs are uniform in [-kSaxpyRange, kSaxpyRange): both signs, so that
// a x + y sometimes nearly cancels.
inline constexpr float kSaxpyRange = 2.0f;
inline constexpr float kSaxpyA = 2.5f;
// clamp's inputs are uniform in [-kClampRange, kClampRange), wider than [kClampLo,
// kClampHi], so that both bounds clamp many elements and many pass unchanged.
inline constexpr float kClampRange = 4.0f;
inline constexpr float kClampLo = -1.0f;
inline constexpr float kClampHi = 1.5f;

// More floats than any GPU holds (2^40 floats = 4 TiB per array): cudaMalloc fails
// with cudaErrorMemoryAllocation, and the library must say VECLIB_ERROR_OUT_OF_MEMORY.
inline constexpr std::size_t kTooManyElements = std::size_t{1} << 40;
// Seed salts, so that x and y of one case differ.
inline constexpr std::uint64_t kSaltX = 1;
inline constexpr std::uint64_t kSaltY = 2;

inline std::vector<float> saxpy_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kSaxpyRange, kSaxpyRange, course::derive_seed(seed, kSaltX));
}
inline std::vector<float> saxpy_y(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kSaxpyRange, kSaxpyRange, course::derive_seed(seed, kSaltY));
}
inline std::vector<float> clamp_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kClampRange, kClampRange, course::derive_seed(seed, kSaltX));
}

}  // namespace veclib_workload
