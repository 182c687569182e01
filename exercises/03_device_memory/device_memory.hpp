// Exercise 03: the functions the student implements, with their fixed signatures.
// The check calls them exactly as declared here; do not change this file.
#pragma once

// Every launch of this exercise uses blocks of this many threads.
inline constexpr int kThreadsPerBlock = 256;

// [slide:api]
// y[i] = scale * x[i] + offset for 0 <= i < n; one thread per element.
__global__ void affine_kernel(const float* x, float* y, int n, float scale, float offset);

// The same transform for host arrays: allocates device buffers, copies x in, launches
// affine_kernel, copies y back and frees the device buffers. n may be 0.
void affine_on_gpu(const float* host_x, float* host_y, int n, float scale, float offset);
// [/slide]
