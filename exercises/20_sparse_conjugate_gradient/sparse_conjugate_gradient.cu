// Exercise 20 - capstone: a CSR sparse matrix-vector product three ways (a thread per
// row, a group of lanes per row, the nonzeros split evenly among threads), a dot product
// accumulated in double, and a conjugate-gradient solver built from them that keeps every
// vector on the device.
//
// A thread per row reads its row alone: neighbouring threads read entries a row apart,
// and one long row holds its whole warp up. A group of lanes per row reads the row's
// entries side by side (coalesced) and splits a long row among its lanes; it wastes
// lanes on rows shorter than the group. Both take as long as their longest row: on
// power-law rows, one row of 210,000 entries is walked by one thread or one small group
// while the rest of the GPU waits. Splitting the nonzeros instead gives every thread 8
// entries, whatever the rows, at the price of a binary search and atomic additions. CG
// is one product, two dot products and three vector updates per iteration: memory-bound,
// so it runs at the speed of those kernels.
//
// Build and run:  make 20 && make run-20
// Check:          make check-20   (statement: exercises/20_sparse_conjugate_gradient/README.md)
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "course/errors.hpp"
#include "sparse_conjugate_gradient.hpp"

using sparse_conjugate_gradient::CgStatus;

// ---------------------------------------------------------------------------
// Part 1: y = A x
// ---------------------------------------------------------------------------
// [slide:spmv_scalar_kernel]
__global__ void spmv_scalar_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): one thread sums its row.
  //   1. row = the thread's global index.
  //   2. If row < a.rows, sum values[k] * x[columns[k]] over
  //      row_offsets[row] <= k < row_offsets[row + 1].
  //   3. Write y[row], 0 for an empty row.
  // END TODO(student)
}
// [/slide]

// [slide:spmv_vector_kernel]
template <int kLanesPerRow>
__global__ void spmv_vector_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): a group of kLanesPerRow lanes sums its row.
  //   1. t = the thread's global index. row = t / kLanesPerRow, lane = t % kLanesPerRow.
  //   2. Sum the row's entries from its start + lane in steps of kLanesPerRow (nothing
  //      for a row past the end).
  //   3. Fold the group's sums with __shfl_down_sync(kFullWarpMask, sum, offset) for
  //      offset = kLanesPerRow / 2 down to 1, with no early return before it.
  //   4. Lane 0 of the group writes y[row].
  // END TODO(student)
}
// [/slide]
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
  // TODO(student): the scalar launch.
  //   1. Nothing when a.rows == 0.
  //   2. Otherwise spmv_scalar_kernel on enough blocks of kThreadsPerBlock threads for
  //      a.rows threads, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

void spmv_vector(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): the vector launch, its lanes per row chosen at run time.
  //   1. Nothing when a.rows == 0.
  //   2. lanes = vector_lanes_per_row(a.rows, a.nonzeros).
  //   3. spmv_vector_kernel<lanes> on enough blocks for a.rows * lanes threads: a switch
  //      over 2, 4, 8, 16, 32, since a template argument is known at compile time.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 1, load balance: the nonzeros split evenly among threads
// ---------------------------------------------------------------------------

// Whether an array may be read as 16-byte vectors (int4, float4): cudaMalloc's arrays
// are; a pointer offset into one may not be.
__device__ bool is_16_byte_aligned(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

// [slide:spmv_balanced_kernel]
__global__ void spmv_balanced_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): every thread kEntriesPerThread consecutive entries, whatever their rows.
  //   1. first_entry = the thread's global index * kEntriesPerThread, in long long (it may
  //      pass 2^31). The thread's entries are [first, first + count): first =
  //      min(first_entry, a.nonzeros) as an int, count = min(kEntriesPerThread,
  //      a.nonzeros - first) (fewer for the last thread, 0 past it). Start with row = -1,
  //      row_end = 0, sum = 0: a thread without entries keeps them, and must still reach
  //      step 5, which needs every lane of the warp (no early return).
  //   2. If count > 0, the row of entry first, by binary search: low = 0, high = a.rows;
  //      while high - low > 1, middle = low + (high - low) / 2 becomes low if
  //      row_offsets[middle] <= first, high otherwise. row = low, the LAST row whose
  //      offset is <= first (row_offsets[row] <= first < row_offsets[row + 1]: never an
  //      empty row), and row_end = row_offsets[row + 1].
  //   3. Still if count > 0, the products values[k] * x[columns[k]] of the thread's
  //      entries into float products[kEntriesPerThread]: when count == kEntriesPerThread
  //      and is_16_byte_aligned(a.columns) and is_16_byte_aligned(a.values), read the 8
  //      columns as two int4 and the 8 values as two float4 (reinterpret_cast of
  //      a.columns + first and a.values + first); otherwise one entry at a time.
  //   4. Walk entries e = 0 .. count - 1 in order (#pragma unroll over kEntriesPerThread,
  //      with a test e < count, keeps products in registers): while first + e >= row_end,
  //      atomicAdd sum into y[row] (if sum != 0), sum = 0, ++row,
  //      row_end = row_offsets[row + 1] (a while, not an if: it steps over empty rows).
  //      Then sum += products[e].
  //   5. The last row's sum: if __match_any_sync(kFullWarpMask, row) == kFullWarpMask
  //      (all 32 lanes hold one row), fold sum with __shfl_down_sync for offsets 16, 8,
  //      4, 2, 1 and let lane 0 of the warp atomicAdd it into y[row] if row >= 0;
  //      otherwise each lane with row >= 0 atomicAdds its own sum.
  // END TODO(student)
}
// [/slide]

void spmv_balanced(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): zero y, then the balanced launch.
  //   1. Nothing when a.rows == 0.
  //   2. Zero y: cudaMemsetAsync of a.rows floats, in CUDA_CHECK (the kernel only adds).
  //   3. Nothing more when a.nonzeros == 0.
  //   4. spmv_balanced_kernel on enough blocks of kThreadsPerBlock threads for
  //      ceil(a.nonzeros / kEntriesPerThread) threads, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: dot product and vector updates
// ---------------------------------------------------------------------------
__global__ void dot_kernel(const float* x, const float* y, int n, double* result) {
  // TODO(student): the block's sum in double, one atomicAdd.
  //   1. A double per thread over a grid-stride loop.
  //   2. Fold each warp's 32 sums with __shfl_down_sync.
  //   3. Meet the warps' sums in shared memory, and let warp 0 fold them.
  //   4. Thread 0 atomicAdds the block's sum into *result.
  // END TODO(student)
}

double dot(const float* x, const float* y, int n, double* device_result) {
  double result = 0.0;
  // TODO(student): the launch and the one copy back, if n > 0.
  //   1. Zero *device_result (cudaMemsetAsync).
  //   2. Launch dot_kernel on min(kDotBlocks, enough blocks for n) blocks of
  //      kThreadsPerBlock threads.
  //   3. Copy the double back into result (cudaMemcpy waits for the kernel).
  // END TODO(student)
  return result;
}

// [slide:axpy_kernel]
__global__ void axpy_kernel(float alpha, const float* x, float* y, int n) {
  // TODO(student): y[i] += alpha * x[i] at the global index i, if i < n.
  // END TODO(student)
}
// [/slide]

// [slide:xpay_kernel]
__global__ void xpay_kernel(const float* r, float beta, float* p, int n) {
  // TODO(student): p[i] = r[i] + beta * p[i] at the global index i, if i < n.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 3: conjugate gradient
// ---------------------------------------------------------------------------
// [slide:conjugate_gradient]
CgResult conjugate_gradient(const DeviceCsr& a, const float* b, float* x, double tolerance,
                            int max_iterations) {
  CgResult result;
  // TODO(student): the solver, every vector on the device.
  // [slide:cg-steps]
  //   1. Allocate r, p, q (a.rows floats each) and one double for dot.
  //   2. x = 0, r = b, p = b (cudaMemset, cudaMemcpy device to device).
  //   3. rr = r . r. Stop once rr <= tolerance^2 * (b . b).
  //   4. Each iteration:
  //        q = A p (spmv_vector); pq = p . q, and a breakdown if !(pq > 0);
  //        alpha = rr / pq; x += alpha p; r -= alpha q;
  //        rr_next = r . r; beta = rr_next / rr; p = r + beta p; rr = rr_next.
  //   5. Set result.status and result.iterations (the iterations completed: the updates of
  //      x).
  //   6. Free what you allocated.
  // [/slide]
  // END TODO(student)
  return result;
}
// [/slide]
