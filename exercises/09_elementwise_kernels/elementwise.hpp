// Exercise 09: the functions the student implements, with their fixed signatures:
// three elementwise GPU functions (the lab's ufuncs), a __device__ helper, and the
// generic launcher transform() that the Gaussian and the addition are built on.
// The check calls them exactly as declared here; do not change this file.
//
// Every launcher takes DEVICE pointers (the caller allocates and copies), launches
// on the default stream and returns without waiting: like a kernel launch, the
// results are ready once the caller synchronises (a cudaMemcpy back does).
//
// Build and run:  make 09 && make run-09   (statement: exercises/09_elementwise_kernels/README.md)
#pragma once

#include <cstddef>
#include <cstdint>

#include "workload.hpp"

// kThreadsPerBlock, kMaxTransformBlocks and kTransformChunk, the launch shapes, are in
// harness/workload.hpp.

// ---------------------------------------------------------------------------
// 1. The Gaussian probability density, through transform()
// ---------------------------------------------------------------------------
// y[i] = exp(-((x[i] - mean) / sigma)^2 / 2) / (sigma * sqrt(2 pi)), in float.
void gaussian_pdf_gpu(const float* x, float* y, int n, float mean, float sigma);

// sum[i] = a[i] + b[i] (the lab's add_ufunc), through transform() too: given.
void add_gpu(const float* a, const float* b, float* sum, int n);

// ---------------------------------------------------------------------------
// 2. The distance between two points given in polar coordinates
// ---------------------------------------------------------------------------
// The point at radius rho and angle theta (radians): x = rho cos(theta), y = rho sin(theta).
__device__ float2 polar_to_cartesian(float rho, float theta);

// distance[i] = | polar_to_cartesian(rho1[i], theta1[i]) - polar_to_cartesian(rho2[i], theta2[i]) |
__global__ void polar_distance_kernel(const float* rho1, const float* theta1, const float* rho2,
                                      const float* theta2, float* distance, int n);
void polar_distance_gpu(const float* rho1, const float* theta1, const float* rho2,
                        const float* theta2, float* distance, int n);

// x[i], y[i] = polar_to_cartesian(rho[i], theta[i]): lets the check test the helper
// on its own (given).
void polar_to_cartesian_gpu(const float* rho, const float* theta, float* x, float* y, int n);

// ---------------------------------------------------------------------------
// 3. Zero suppression of a waveform
// ---------------------------------------------------------------------------
// out[i] = 0 where waveform[i] < threshold, waveform[i] otherwise (the lab's zero_suppress).
__global__ void zero_suppress_kernel(const std::int16_t* waveform, std::int16_t* out, int n,
                                     std::int16_t threshold);
void zero_suppress_gpu(const std::int16_t* waveform, std::int16_t* out, int n,
                       std::int16_t threshold);
