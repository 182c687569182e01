// Exercise 16: the kernels the course gives, instructor-owned. Two programs compile them:
// kernels.cu includes this file, and the build turns it into PTX that the student's code
// loads with the driver API; harness/demo.cu includes it too, and launches the very same
// kernels with <<<...>>> through the runtime, to compare the two paths in one run.
//
// extern "C": the names in the PTX are then "saxpy" and "empty_kernel", the strings that
// cuModuleGetFunction looks for. Without it they would be C++-mangled (_Z5saxpyfPKfPfm).
#pragma once

#include <cstddef>

// y[i] = a * x[i] + y[i] for 0 <= i < n: BLAS's saxpy. A grid-stride loop with a 64-bit
// index, so that any grid covers any n.
extern "C" __global__ void saxpy(float a, const float* x, float* y, std::size_t n) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += stride) {
    y[i] = a * x[i] + y[i];
  }
}

// Does nothing: what a launch costs on its own is its time.
extern "C" __global__ void empty_kernel() {}
