// Exercise 05: the functions the student implements, with their fixed signatures: one
// stencil update of a 3D grid, computed by a serial loop, by an OpenMP loop and by a
// kernel launched on 3D blocks. The check calls them exactly as declared here; do not
// change this file.
//
// Build and run:  make 05 && make run-05   (statement: exercises/05_three_d_blocks/README.md)
#pragma once

#include <cuda_runtime.h>

// kCenterWeight and kNeighbourWeight, which the check shares: harness/workload.hpp.
#include "workload.hpp"

// The grids are nx x ny x nz floats, x fastest: point (x, y, z) is element
// (z * ny + y) * nx + x. Every size is >= 0 (a grid with a size 0 has no point), and
// the grid has fewer than 2^31 points, so that an int holds every index.

// The new value of point (x, y, z), 0 <= x < nx, 0 <= y < ny, 0 <= z < nz:
//   kCenterWeight * in[x, y, z] + kNeighbourWeight * (in[x-1, y, z] + in[x+1, y, z]
//     + in[x, y-1, z] + in[x, y+1, z] + in[x, y, z-1] + in[x, y, z+1]),
// where a neighbour outside the grid counts as 0 (and is never read). The same function
// serves the CPU and the GPU.
__host__ __device__ float stencil_point(const float* in, int x, int y, int z, int nx, int ny,
                                        int nz);

// out[x, y, z] = stencil_point(in, x, y, z, ...) for every point, one after the other.
void stencil_serial(const float* in, float* out, int nx, int ny, int nz);

// The same with an OpenMP loop workshare: the iterations are shared among the threads
// of a parallel region (as many as omp_set_num_threads asked for; the caller sets it).
void stencil_openmp(const float* in, float* out, int nx, int ny, int nz);

// One thread per point: x from the .x components of blockIdx, blockDim and threadIdx,
// y from the .y ones, z from the .z ones. Threads outside the grid write nothing.
__global__ void stencil_kernel(const float* in, float* out, int nx, int ny, int nz);

// The same on the GPU, for host arrays: allocates device buffers, copies in, launches
// stencil_kernel on blocks of the given shape (block.x * block.y * block.z <= 1024) and
// a grid rounded up in each dimension to cover nx x ny x nz, copies out back and frees
// the buffers. Returns the time of the kernel alone, in milliseconds, measured with CUDA
// events; for a grid without points nothing is launched and the result is 0.
float stencil_on_gpu(const float* host_in, float* host_out, int nx, int ny, int nz, dim3 block);
