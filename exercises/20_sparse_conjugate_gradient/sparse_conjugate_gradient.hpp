// Exercise 20: the functions the student implements, with their fixed signatures: three
// CSR sparse matrix-vector products (a thread per row, a group of lanes per row, the
// nonzeros split evenly among threads), a dot product accumulated in double, the vector
// updates of conjugate gradient, and the solver built from them. Every pointer here is a
// DEVICE pointer: the caller allocates, copies and frees. The check calls them exactly as
// declared here; do not change this file.
//
// Build and run:  make 20 && make run-20   (statement: exercises/20_sparse_conjugate_gradient/README.md)
#pragma once

#include "workload.hpp"

// The block size of every launch in this exercise (a multiple of 32).
inline constexpr int kThreadsPerBlock = 256;
inline constexpr int kWarpSize = 32;
// All 32 lanes of a warp take part in every shuffle.
inline constexpr unsigned kFullWarpMask = 0xffffffffu;

// The blocks of kThreadsPerBlock threads that cover `threads` threads.
inline int blocks_for(long long threads) {
  return static_cast<int>((threads + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// A square CSR matrix on the device (harness/workload.hpp's CsrMatrix, uploaded).
struct DeviceCsr {
  int rows = 0;
  int nonzeros = 0;
  const int* row_offsets = nullptr;  // rows + 1 entries
  const int* columns = nullptr;      // nonzeros entries
  const float* values = nullptr;     // nonzeros entries
};

// ---- Part 1: y = A x ------------------------------------------------------------------

// One thread per row: thread i computes y[i] = sum of values[k] * x[columns[k]] over
// row i's entries (0 for an empty row), for 0 <= i < a.rows.
__global__ void spmv_scalar_kernel(DeviceCsr a, const float* x, float* y);

// kLanesPerRow consecutive lanes per row (a power of two, 2 to 32; 32 is one warp per
// row): lane l of row i's group adds the entries k = row start + l, + l + kLanesPerRow,
// ...; the group folds its partial sums with __shfl_down_sync (every lane of the warp
// takes part, the lanes of rows past the end included), and its first lane writes y[i].
template <int kLanesPerRow>
__global__ void spmv_vector_kernel(DeviceCsr a, const float* x, float* y);

// The lanes per row of spmv_vector: about kEntriesPerLane entries per lane on an average
// row - the largest power of two not above mean / kEntriesPerLane, from 2 to a whole
// warp - so that each lane's loads pay for the group's fold. Measured on an H100 (make
// run-20): on 5-entry Poisson rows 2 lanes reach 1.2x cuSPARSE, 4 lanes 0.9x, 8 lanes
// 0.56x; on 33-entry banded rows 8 lanes match cuSPARSE and a whole warp reaches 0.55x.
inline constexpr int kEntriesPerLane = 4;
inline int vector_lanes_per_row(int rows, int nonzeros) {
  const long long mean = rows > 0 ? nonzeros / rows : 0;
  int lanes = 2;
  while (2LL * lanes * kEntriesPerLane <= mean && lanes < kWarpSize) lanes *= 2;
  return lanes;
}

// Launch spmv_scalar_kernel on enough blocks of kThreadsPerBlock threads for a.rows rows,
// or spmv_vector_kernel<vector_lanes_per_row(a.rows, a.nonzeros)> on enough for
// a.rows * lanes threads. Launch nothing when a.rows == 0. They do not wait for the kernel.
void spmv_scalar(const DeviceCsr& a, const float* x, float* y);
void spmv_vector(const DeviceCsr& a, const float* x, float* y);

// Given (written in the student file): spmv_vector_kernel<kWarpSize> on enough blocks for
// a.rows warps, whatever vector_lanes_per_row would choose; the check grades the fold over
// a whole warp with it.
void spmv_vector_warp_per_row(const DeviceCsr& a, const float* x, float* y);

// ---- Part 1, load balance: y = A x with the nonzeros split evenly --------------------

// Every thread takes kEntriesPerThread = 8 consecutive nonzeros, whatever rows they
// belong to: the same work for each, on a row of 210,000 entries as on a row of 2. (It is
// defined in harness/workload.hpp: the check reasons about the split.)
using sparse_conjugate_gradient::kEntriesPerThread;

// [slide:balanced-declaration]
// Thread t takes the entries k = t * kEntriesPerThread, ..., t * kEntriesPerThread + 7
// below a.nonzeros. It finds the row of its first entry by binary search in row_offsets
// (the last row whose offset is <= that entry: an empty row is never it), adds
// values[k] * x[columns[k]] along its entries, and each time the row changes adds its
// partial sum into y[row] with atomicAdd (threads, warps and blocks may share a row; y was
// zeroed). Its last row's sum: when the 32 lanes of the warp all hold the same row
// (__match_any_sync), the warp folds with __shfl_down_sync and its lane 0 adds once;
// otherwise each lane adds its own. Every lane of the warp takes part, those past the
// last entry included. Whole groups of 8 entries are read as int4 and float4 vectors
// where the arrays are 16-byte aligned (cudaMalloc's are).
__global__ void spmv_balanced_kernel(DeviceCsr a, const float* x, float* y);
// [/slide]

// Zeroes y (cudaMemsetAsync of a.rows floats), then launches spmv_balanced_kernel on
// enough blocks of kThreadsPerBlock threads for ceil(a.nonzeros / kEntriesPerThread)
// threads: no kernel when a.nonzeros == 0 (y stays 0), nothing at all when a.rows == 0.
// It does not wait for the kernel.
void spmv_balanced(const DeviceCsr& a, const float* x, float* y);

// ---- Part 2: the vector operations of CG -----------------------------------------------

// Adds sum over i < n of x[i] * y[i] into *result, accumulated in DOUBLE: each thread
// over a grid-stride loop, then the block (warp shuffles, shared memory), then one
// atomicAdd per block.
__global__ void dot_kernel(const float* x, const float* y, int n, double* result);

// x . y for n >= 0: zeroes *device_result, launches dot_kernel on kDotBlocks blocks at
// most, and copies the double back (the one transfer to the host). 0 when n == 0.
inline constexpr int kDotBlocks = 1024;
double dot(const float* x, const float* y, int n, double* device_result);

// y[i] += alpha * x[i] for i < n.
__global__ void axpy_kernel(float alpha, const float* x, float* y, int n);
// p[i] = r[i] + beta * p[i] for i < n (the new search direction).
__global__ void xpay_kernel(const float* r, float beta, float* p, int n);

// ---- Part 3: conjugate gradient --------------------------------------------------------

struct CgResult {
  sparse_conjugate_gradient::CgStatus status = sparse_conjugate_gradient::CgStatus::not_converged;
  // Iterations completed: x updated this many times. A breakdown at the first iteration
  // reports 0, although one product A p was computed to find it.
  int iterations = 0;
};

// Solves A x = b for a symmetric positive definite A (a.rows entries in b and x), from
// x = 0, with spmv_vector, dot, axpy_kernel and xpay_kernel; every vector stays on the
// device, only the dot products' doubles come back. Returns converged once
// ||r|| <= tolerance ||b|| (at once when b = 0), breakdown when p^T A p <= 0 (A is not
// positive definite: x keeps the last iterate, finite), not_converged after
// max_iterations. Frees every buffer it allocates.
CgResult conjugate_gradient(const DeviceCsr& a, const float* b, float* x, double tolerance,
                            int max_iterations);
