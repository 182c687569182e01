// Exercise 14: the functions the student implements, with their fixed signatures: an
// atomic counter, the bin rule, a CPU histogram, two GPU histograms (global atomics,
// then per-block sub-histograms in shared memory), and a float maximum built from atomicCAS. Every pointer of a GPU function is a
// DEVICE pointer: the caller allocates, copies and frees. The check calls them exactly
// as declared here; do not change this file.
//
// Build and run:  make 14 && make run-14   (statement: exercises/14_atomics_histogram/README.md)
#pragma once

#include "workload.hpp"

// ---- Part 1: the race-condition counter ----------------------------------------------

// Every thread of the grid adds 1 to *counter, safely: after the kernel, *counter has
// grown by exactly gridDim.x * blockDim.x. (The caller sets it to 0 first.)
__global__ void count_threads_atomic(int* counter);

// ---- The bin rule --------------------------------------------------------------------

// The bin of value v in a histogram of `bins` equal bins over [lo, hi), or -1 when v is
// not counted. The rule, the same everywhere:
//   - v is counted only when lo <= v < hi. Values outside, infinities and NaN are not
//     counted (write the test so that NaN fails it: `v >= lo && v < hi` is false for NaN).
//   - its bin is floor((v - lo) * bins / (hi - lo)), computed in float exactly as
//         int bin = (int)((v - lo) * scale);   with  float scale = bins / (hi - lo);
//     then lowered to bins - 1 if it came out as bins: for v just below hi, the float
//     rounding of v - lo can give exactly bins.
// 1 <= bins <= kMaxBins, lo < hi.
__host__ __device__ int bin_of(float v, float lo, float hi, int bins);

// ---- Part 2: histograms --------------------------------------------------------------

// The lab's cpu_histogram: counts[b] = the number of x[i] (0 <= i < n) in bin b, for
// 0 <= b < bins. Sets counts to 0 first. Host pointers.
void histogram_cpu(const float* x, int n, float lo, float hi, int* counts, int bins);

// Adds to counts[b] the number of x[i] in bin b, for any grid (a grid-stride loop),
// with one atomicAdd in global memory per counted element.
__global__ void histogram_global(const float* x, int n, float lo, float hi, int* counts, int bins);

// [slide:shared-declaration]
// [slide:shared-idea]
// The same with a private histogram per block in shared memory: zero `bins` ints of
// dynamic shared memory, count into them with shared-memory atomics (grid-stride loop),
// then add each non-zero bin to counts with one global atomicAdd. Launched with
// bins * sizeof(int) bytes of dynamic shared memory.
// [/slide]
__global__ void histogram_shared(const float* x, int n, float lo, float hi, int* counts, int bins);
// [/slide]

// Set counts[0 .. bins) to 0 (cudaMemset), then launch histogram_global (resp.
// histogram_shared, with its dynamic shared memory) on `blocks` blocks of `threads`
// threads, then CUDA_CHECK_LAUNCH(). n may be 0. They do not wait for the kernel.
void histogram_global_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads);
void histogram_shared_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads);

// ---- Part 3: the largest value, with a float atomicMax built from atomicCAS -----------

// Atomically replaces *address by value when value is larger, and returns the value
// *address held before (as atomicAdd and atomicMax do). CUDA's atomicMax takes ints (and
// unsigned and 64-bit integers), not floats: this one is a compare-and-swap loop on the
// float's bits (atomicCAS on the int at address, __float_as_int and __int_as_float), retried
// until the swap succeeds or *address already holds value or more. No NaN is ever passed.
__device__ float atomic_max_float(float* address, float value);

// Given (not yours to write): *maximum = -infinity, then max_global on `blocks` x `threads`,
// a grid-stride loop that calls previous[i] = atomic_max_float(maximum, x[i]) for every i
// in [0, n), then CUDA_CHECK_LAUNCH(). After the kernel, *maximum is the largest x[i]; each
// previous[i] is what that call replaced or found, which shows the check whether two calls
// replaced the same value (an update lost). Device pointers; n >= 1.
__global__ void max_global(const float* x, int n, float* maximum, float* previous);
void max_on_device(const float* x, int n, float* maximum, float* previous, int blocks, int threads);
