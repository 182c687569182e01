// Exercise 11: the functions the student implements, with their fixed signatures: the
// three steps of a hidden layer as three kernels and as one fused kernel, their
// launchers on device arrays, and the round trip for host arrays.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 11 && make run-11   (statement: exercises/11_hidden_layer/README.md)
#pragma once

#include "workload.hpp"

// The block size of every launch in this exercise.
inline constexpr int kThreadsPerBlock = 256;
// The fused kernel's grid is sized to the GPU, not to the data: at most this many blocks
// per multiprocessor (8 x 256 = 2048 threads, what one H100 multiprocessor holds at
// once); a grid-stride loop then covers any n.
inline constexpr int kFusedBlocksPerMultiprocessor = 8;

// For each neuron i:  activated[i] = tanh( (greyscales[i] / 255) * weights[i] ), in float.

// normalized[i] = greyscales[i] / 255 for 0 <= i < n; one thread per element.
__global__ void normalize_kernel(const float* greyscales, float* normalized, int n);
// weighted[i] = values[i] * weights[i]; one thread per element; weighted may be values.
__global__ void weigh_kernel(const float* values, const float* weights, float* weighted, int n);
// activated[i] = tanh(values[i]); one thread per element; activated may be values.
__global__ void activate_kernel(const float* values, float* activated, int n);
// All three steps at once, in a grid-stride loop: each input read once, the output
// written once, no intermediate array. __restrict__ promises that the three arrays do not
// overlap, so the compiler may load the next elements before storing this one.
__global__ void hidden_layer_fused_kernel(const float* __restrict__ greyscales,
                                          const float* __restrict__ weights,
                                          float* __restrict__ activated, int n);

// Launchers, on DEVICE arrays of n floats (n >= 0; for n = 0 they launch nothing). They
// only enqueue work on the default stream: no allocation, no copy, no synchronisation.
// The three-kernel version uses `activated` for the intermediate results too.
void launch_three_kernels(const float* greyscales, const float* weights, float* activated, int n);
void launch_fused(const float* greyscales, const float* weights, float* activated, int n);

enum class LayerMethod { three_kernels, fused };

// The hidden layer for HOST arrays of n floats: allocates device arrays, copies the inputs
// in, launches the chosen method, copies the result into host_activated and frees the
// device arrays. n may be 0 (then nothing is allocated nor launched).
void create_hidden_layer_gpu(const float* host_greyscales, const float* host_weights,
                             float* host_activated, int n, LayerMethod method);
