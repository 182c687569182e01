// Exercise 24: the four steps of the program, each with the bug that one compute-sanitizer
// tool reports in the given version. The check's program calls these functions as they
// are declared here, so the student never edits this file.
#pragma once

// The block size of every launch in this exercise.
inline constexpr int kThreadsPerBlock = 256;

// [slide:api]
// Step 1 (memcheck): out[n - 1 - i] = x[i] for every i < n, one element per thread.
__global__ void reverse_kernel(const float* x, float* out, int n);
// Launches reverse_kernel on device arrays x and out of n floats.
void reverse_on_device(const float* x, float* out, int n);

// Step 2 (racecheck): out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3, where x is 0 outside
// [0, n); each block loads its elements and their two neighbours into shared memory.
__global__ void smooth_kernel(const float* x, float* out, int n);
void smooth_on_device(const float* x, float* out, int n);

// Step 3 (synccheck): sums[b] = the sum of block b's kThreadsPerBlock elements of x (0
// past n), added up as a tree in shared memory.
__global__ void block_sums_kernel(const float* x, float* sums, int n);
// Launches block_sums_kernel on (n + kThreadsPerBlock - 1) / kThreadsPerBlock blocks.
void block_sums_on_device(const float* x, float* sums, int n);

// Step 4 (initcheck): total[i] += frame[i] for every i < n.
__global__ void accumulate_kernel(const float* frame, float* total, int n);
// host_mean[i] = the mean over the frames of frames[f * n + i]: the sum of the frames
// in a device buffer of its own (accumulate_kernel once per frame), copied back and
// divided by frame_count. `frames` is on the device, host_mean on the host.
void average_frames_on_device(const float* frames, int frame_count, int n, float* host_mean);
// [/slide]
