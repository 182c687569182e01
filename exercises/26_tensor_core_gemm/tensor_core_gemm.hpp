// Exercise 26: what the student implements. The check's program calls these functions
// as they are declared here, so the student never edits this file.
#pragma once

// The block size of every launch in this exercise.
inline constexpr int kThreadsPerBlock = 256;

// [slide:api]
// Writes y[i] = factor * x[i] for every i < n, one element per thread.
__global__ void scale_kernel(const float* x, float* y, int n, float factor);

// Scales host array x into host array y on the GPU: device buffers allocated, x copied
// over, scale_kernel launched, y copied back, the buffers freed. n may be 0.
void scale_on_gpu(const float* host_x, float* host_y, int n, float factor);
// [/slide]
