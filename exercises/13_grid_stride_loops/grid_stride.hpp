// Exercise 13: the functions the student implements, with their fixed signatures:
// two one-thread-per-element kernels and their launchers, a grid-stride kernel, and a
// grid sized with the occupancy API. Every pointer here is a DEVICE pointer: the
// caller allocates, copies and frees. The check calls them exactly as declared here;
// do not change this file.
//
// Build and run:  make 13 && make run-13   (statement: exercises/13_grid_stride_loops/README.md)
#pragma once

#include "workload.hpp"

// ---- Part 1: one thread per element --------------------------------------------------

// out[i] = x[i] + y[i] for 0 <= i < n, one thread per element. It may be launched with
// more threads than n (the extra ones write nothing), never with fewer.
__global__ void add_kernel(const int* x, const int* y, int* out, int n);

// out[i] = a[i] * a[i] for 0 <= i < n, one thread per element, same rules.
__global__ void square_kernel(const float* a, float* out, int n);

// The number of blocks of threads_per_block threads that covers n elements, one thread
// each: ceil(n / threads_per_block), computed in integers. 0 when n == 0.
int blocks_to_cover(int n, int threads_per_block);

// Launch add_kernel / square_kernel on blocks of kElementwiseThreadsPerBlock threads,
// enough to cover n (n may be 0: then launch nothing). They do not wait for the kernel.
void add_on_device(const int* x, const int* y, int* out, int n);
void square_on_device(const float* a, float* out, int n);

// ---- Part 2: a grid-stride loop ------------------------------------------------------

// c[i] = hypot(a[i], b[i]) for 0 <= i < n, correct with ANY grid: each thread starts at
// its global index and steps by the number of threads in the grid. Four floats per
// access (float4) where a, b and c are 16-byte aligned, then the last n % 4 elements;
// one float per access when a pointer is not aligned (the check passes such pointers).
__global__ void hypot_stride(const float* a, const float* b, float* c, int n);

// ---- Part 3: a grid sized by the occupancy API ---------------------------------------

// The number of blocks of threads_per_block threads of hypot_stride that the whole GPU
// holds at once: blocks per multiprocessor (cudaOccupancyMaxActiveBlocksPerMultiprocessor
// for hypot_stride, threads_per_block, no dynamic shared memory) times the number of
// multiprocessors of the current device.
int occupancy_grid_blocks(int threads_per_block);

// Launch hypot_stride on occupancy_grid_blocks(kHypotThreadsPerBlock) blocks of
// kHypotThreadsPerBlock threads (n may be 0). Does not wait for the kernel.
void hypot_on_device(const float* a, const float* b, float* c, int n);
