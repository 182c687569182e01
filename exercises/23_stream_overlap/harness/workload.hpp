// Exercise 23: what the program and its check must agree on - the element-wise
// computation whose cost the runner tunes, the inputs drawn from a seed, and the CPU
// reference.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// stream_overlap.hpp includes it for the student's code and the kernel.
//
// Used by:  make 23 && make run-23 (the program), make check-23 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "course/data.hpp"

#if defined(__CUDACC__)
#define STREAM_OVERLAP_HOST_DEVICE __host__ __device__
#else
#define STREAM_OVERLAP_HOST_DEVICE
#endif

namespace stream_overlap {

// The computation: y <- y / 2 + x, `work` times, from y = x: a chain of dependent fused
// multiply-adds that no compiler can shorten, whose time grows linearly with `work`.
// It heads for 2x, so every output still depends on its own input (a chunk copied back
// to the wrong place shows). fmaf rounds once on the GPU and std::fma on the CPU: both
// give the same bits.
inline constexpr float kHalf = 0.5f;

STREAM_OVERLAP_HOST_DEVICE inline float transform(float x, int work) {
  float y = x;
  for (int k = 0; k < work; ++k) {
#if defined(__CUDA_ARCH__)
    y = fmaf(y, kHalf, x);
#else
    y = std::fma(y, kHalf, x);
#endif
  }
  return y;
}

// Inputs uniform in [-8, 8): never all zero, of both signs.
inline constexpr float kInputLimit = 8.0f;

inline std::vector<float> make_input(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, seed);
}

inline std::vector<float> reference(const std::vector<float>& in, int work) {
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = transform(in[i], work);
  return out;
}

}  // namespace stream_overlap
