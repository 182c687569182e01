// Exercise 19: what the check's cases (harness/cases.cu) and the demo (harness/demo.cu)
// share: the statement's kernel generated from its argument list, the same expression
// written by hand and compiled by nvcc (the speed the generated kernel must match), and
// lin_comb's inputs on the device.
#pragma once

#include <cstdint>
#include <string>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/launch.hpp"
#include "generated_kernels.hpp"
#include "workload.hpp"

namespace generated_kernels {

// The same expression written by hand and compiled by nvcc: the speed the generated
// kernel must match. One thread per element, the classic way.
constexpr unsigned kHandBlock = 256;

__global__ inline void lin_comb_by_hand(float a, const float* __restrict__ x,
                                        const float* __restrict__ y, float* __restrict__ z,
                                        std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) z[i] = a * x[i] + y[i];
}

inline void launch_by_hand(float a, const float* x, const float* y, float* z, std::size_t n) {
  if (n == 0) return;
  lin_comb_by_hand<<<course::blocks_for(n, kHandBlock), kHandBlock>>>(a, x, y, z, n);
  CUDA_CHECK_LAUNCH();
}

// The source of a kernel of the statement's argument list.
inline std::string lin_comb_source(const std::string& operation, const std::string& name) {
  return generate_source(parse_arguments(kLinCombArguments), operation, name);
}

// Inputs of lin_comb on the device, and an output poisoned before each call.
struct LinCombBuffers {
  LinCombBuffers(std::size_t n, std::uint64_t seed) : x(make_x(n, seed)), y(make_y(n, seed)), z(n) {
    z.poison();
  }
  course::DeviceBuffer<float> x, y, z;
};

// The warm-up launches before each timed series.
inline constexpr int kWarmup = 3;

}  // namespace generated_kernels
