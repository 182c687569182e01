// Exercise 07: the given strided kernel's launcher (scale_rows_strided.cuh), for the
// demo and the timing case. The kernel is defined once, in harness/strided.cu: a
// __global__ function defined in two translation units would not link.
#pragma once

// A thread per row; returns without waiting for the kernel.
void launch_scale_rows_strided(const float* in, const float* gain, float* out, int rows, int cols);
