// Exercise 20 - capstone: a CSR sparse matrix-vector product two ways (a thread per row,
// a group of lanes per row), a dot product accumulated in double, and a conjugate-
// gradient solver built from them that keeps every vector on the device.
//
// A thread per row reads its row alone: neighbouring threads read entries a row apart,
// and one long row holds its whole warp up. A group of lanes per row reads the row's
// entries side by side (coalesced) and splits a long row among its lanes; it wastes
// lanes on rows shorter than the group. CG is one product, two dot products and three
// vector updates per iteration: memory-bound, so it runs at the speed of those kernels.
//
// Build and run:  make 20 && make run-20
// Check:          make check-20   (statement: exercises/20_sparse_conjugate_gradient/README.md)
#include <cmath>

#include "course/errors.hpp"
#include "sparse_conjugate_gradient.hpp"

using sparse_conjugate_gradient::CgStatus;

// ---------------------------------------------------------------------------
// Part 1: y = A x
// ---------------------------------------------------------------------------
__global__ void spmv_scalar_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): row = the thread's global index; if row < a.rows, sum values[k] *
  // x[columns[k]] over row_offsets[row] <= k < row_offsets[row + 1] and write y[row]
  // (an empty row writes 0).
  // END TODO(student)
}

template <int kLanesPerRow>
__global__ void spmv_vector_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): thread t = the global index; row = t / kLanesPerRow, lane = t %
  // kLanesPerRow. Sum the row's entries from its start + lane in steps of kLanesPerRow
  // (nothing for a row past the end), fold the group's sums with
  // __shfl_down_sync(kFullWarpMask, sum, offset) for offset = kLanesPerRow / 2 down to 1,
  // with no early return before it, and let lane 0 of the group write y[row].
  // END TODO(student)
}
// Given: the vector kernel with a whole warp per row, whatever spmv_vector chooses, for the
// check's case spmv_warp_per_row_power_law. It lives here because a kernel template can
// only be launched from the file that instantiates it (CUDA 13 keeps its launch stub
// private to that file).
void spmv_vector_warp_per_row(const DeviceCsr& a, const float* x, float* y) {
  if (a.rows == 0) return;
  spmv_vector_kernel<kWarpSize>
      <<<blocks_for(static_cast<long long>(a.rows) * kWarpSize), kThreadsPerBlock>>>(a, x, y);
  CUDA_CHECK_LAUNCH();
}

void spmv_scalar(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): nothing when a.rows == 0; otherwise spmv_scalar_kernel on enough
  // blocks of kThreadsPerBlock threads for a.rows threads, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

void spmv_vector(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): nothing when a.rows == 0; otherwise lanes = vector_lanes_per_row(a.rows,
  // a.nonzeros) and spmv_vector_kernel<lanes> (a switch over 2, 4, 8, 16, 32: a template
  // argument is known at compile time) on enough blocks for a.rows * lanes threads.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: dot product and vector updates
// ---------------------------------------------------------------------------
__global__ void dot_kernel(const float* x, const float* y, int n, double* result) {
  // TODO(student): a double per thread over a grid-stride loop; fold each warp's 32 sums
  // with __shfl_down_sync, meet the warps' sums in shared memory, let warp 0 fold them
  // and thread 0 atomicAdd the block's sum into *result.
  // END TODO(student)
}

double dot(const float* x, const float* y, int n, double* device_result) {
  double result = 0.0;
  // TODO(student): if n > 0: zero *device_result (cudaMemsetAsync), launch dot_kernel on
  // min(kDotBlocks, enough blocks for n) blocks of kThreadsPerBlock threads, and copy the
  // double back into result (cudaMemcpy waits for the kernel).
  // END TODO(student)
  return result;
}

__global__ void axpy_kernel(float alpha, const float* x, float* y, int n) {
  // TODO(student): y[i] += alpha * x[i] at the global index i, if i < n.
  // END TODO(student)
}

__global__ void xpay_kernel(const float* r, float beta, float* p, int n) {
  // TODO(student): p[i] = r[i] + beta * p[i] at the global index i, if i < n.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 3: conjugate gradient
// ---------------------------------------------------------------------------
CgResult conjugate_gradient(const DeviceCsr& a, const float* b, float* x, double tolerance,
                            int max_iterations) {
  CgResult result;
  // TODO(student): allocate r, p, q (a.rows floats each) and one double for dot; x = 0,
  // r = b, p = b (cudaMemset, cudaMemcpy device to device); rr = r . r and stop once
  // rr <= tolerance^2 * (b . b). Each iteration: q = A p (spmv_vector); pq = p . q, and a
  // breakdown if !(pq > 0); alpha = rr / pq; x += alpha p; r -= alpha q; rr_next = r . r;
  // beta = rr_next / rr; p = r + beta p; rr = rr_next. Set result.status and
  // result.iterations (the products computed), free what you allocated.
  // END TODO(student)
  return result;
}
