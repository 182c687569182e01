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
  // [slide:spmv-scalar]
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < a.rows) {
    float sum = 0.0f;
    for (int k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      sum += a.values[k] * x[a.columns[k]];
    }
    y[row] = sum;
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:spmv_vector_kernel]
template <int kLanesPerRow>
__global__ void spmv_vector_kernel(DeviceCsr a, const float* x, float* y) {
  // TODO(student): a group of kLanesPerRow lanes sums its row.
  // [slide:spmv-vector]
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int row = static_cast<int>(thread / kLanesPerRow);
  const int lane = static_cast<int>(thread % kLanesPerRow);
  float sum = 0.0f;
  if (row < a.rows) {
    const int end = a.row_offsets[row + 1];
    for (int k = a.row_offsets[row] + lane; k < end; k += kLanesPerRow) {
      sum += a.values[k] * x[a.columns[k]];
    }
  }
  for (int offset = kLanesPerRow / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(kFullWarpMask, sum, offset);
  }
  if (row < a.rows && lane == 0) y[row] = sum;
  // [/slide]
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
  if (a.rows == 0) return;
  spmv_scalar_kernel<<<blocks_for(a.rows), kThreadsPerBlock>>>(a, x, y);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

void spmv_vector(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): the vector launch, its lanes per row chosen at run time.
  // [slide:spmv-vector-launch]
  if (a.rows == 0) return;
  const int lanes = vector_lanes_per_row(a.rows, a.nonzeros);
  const int blocks = blocks_for(static_cast<long long>(a.rows) * lanes);
  switch (lanes) {
    case 2: spmv_vector_kernel<2><<<blocks, kThreadsPerBlock>>>(a, x, y); break;
    case 4: spmv_vector_kernel<4><<<blocks, kThreadsPerBlock>>>(a, x, y); break;
    case 8: spmv_vector_kernel<8><<<blocks, kThreadsPerBlock>>>(a, x, y); break;
    case 16: spmv_vector_kernel<16><<<blocks, kThreadsPerBlock>>>(a, x, y); break;
    default: spmv_vector_kernel<32><<<blocks, kThreadsPerBlock>>>(a, x, y); break;
  }
  CUDA_CHECK_LAUNCH();
  // [/slide]
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
  const long long first_entry =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * kEntriesPerThread;
  // The thread's entries: [first, first + count), fewer for the last thread, none past it.
  const int first = static_cast<int>(min(first_entry, static_cast<long long>(a.nonzeros)));
  const int count = min(kEntriesPerThread, a.nonzeros - first);
  int row = -1;  // -1: no entry for this thread, which still joins the warp's fold
  int row_end = 0;
  float sum = 0.0f;
  float products[kEntriesPerThread];
  if (count > 0) {
    // row_offsets[low] <= first < row_offsets[high], from row_offsets[0] = 0 and
    // row_offsets[rows] = nonzeros; an empty row has its next row's offset, so the last
    // row whose offset is <= first is never empty.
    int low = 0, high = a.rows;
    while (high - low > 1) {
      const int middle = low + (high - low) / 2;
      if (a.row_offsets[middle] <= first) {
        low = middle;
      } else {
        high = middle;
      }
    }
    row = low;
    row_end = a.row_offsets[row + 1];
    if (count == kEntriesPerThread && is_16_byte_aligned(a.columns) &&
        is_16_byte_aligned(a.values)) {
      // first is a multiple of 8: its 8 entries are two whole 16-byte vectors of each array.
      const int4* columns = reinterpret_cast<const int4*>(a.columns + first);
      const float4* values = reinterpret_cast<const float4*>(a.values + first);
      const int4 c0 = columns[0], c1 = columns[1];
      const float4 v0 = values[0], v1 = values[1];
      products[0] = v0.x * x[c0.x];
      products[1] = v0.y * x[c0.y];
      products[2] = v0.z * x[c0.z];
      products[3] = v0.w * x[c0.w];
      products[4] = v1.x * x[c1.x];
      products[5] = v1.y * x[c1.y];
      products[6] = v1.z * x[c1.z];
      products[7] = v1.w * x[c1.w];
    } else {
#pragma unroll
      for (int e = 0; e < kEntriesPerThread; ++e) {
        products[e] = e < count ? a.values[first + e] * x[a.columns[first + e]] : 0.0f;
      }
    }
  }
  // Unrolled, with a test rather than a loop bound of count: products stays in registers.
#pragma unroll
  // [slide:spmv-balanced]
  // [slide:balanced-walk]
  for (int e = 0; e < kEntriesPerThread; ++e) {
    if (e < count) {
      // Past its row's end: the row's partial sum goes to y, and the walk moves on to the
      // row of this entry, over empty rows.
      while (first + e >= row_end) {
        if (sum != 0.0f) atomicAdd(&y[row], sum);
        sum = 0.0f;
        ++row;
        row_end = a.row_offsets[row + 1];
      }
      sum += products[e];
    }
  }
  // [/slide]
  // The last row's partial sum. A long row fills whole warps: when all 32 lanes hold
  // the same row, the warp folds first and adds once instead of 32 times.
  if (__match_any_sync(kFullWarpMask, row) == kFullWarpMask) {
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(kFullWarpMask, sum, offset);
    }
    if (threadIdx.x % kWarpSize == 0 && row >= 0) atomicAdd(&y[row], sum);
  } else if (row >= 0 && sum != 0.0f) {
    atomicAdd(&y[row], sum);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

void spmv_balanced(const DeviceCsr& a, const float* x, float* y) {
  // TODO(student): zero y, then the balanced launch.
  if (a.rows == 0) return;
  CUDA_CHECK(cudaMemsetAsync(y, 0, static_cast<std::size_t>(a.rows) * sizeof(float)));
  if (a.nonzeros == 0) return;
  const long long threads =
      (static_cast<long long>(a.nonzeros) + kEntriesPerThread - 1) / kEntriesPerThread;
  spmv_balanced_kernel<<<blocks_for(threads), kThreadsPerBlock>>>(a, x, y);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: dot product and vector updates
// ---------------------------------------------------------------------------
__global__ void dot_kernel(const float* x, const float* y, int n, double* result) {
  // TODO(student): the block's sum in double, one atomicAdd.
  // [slide:dot-double]
  __shared__ double warp_sums[kThreadsPerBlock / kWarpSize];
  double sum = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += static_cast<double>(x[i]) * y[i];
  }
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(kFullWarpMask, sum, offset);
  }
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < kThreadsPerBlock / kWarpSize ? warp_sums[lane] : 0.0;
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(kFullWarpMask, sum, offset);
    }
    if (lane == 0) atomicAdd(result, sum);
  }
  // [/slide]
  // END TODO(student)
}

double dot(const float* x, const float* y, int n, double* device_result) {
  double result = 0.0;
  // TODO(student): the launch and the one copy back, if n > 0.
  if (n > 0) {
    CUDA_CHECK(cudaMemsetAsync(device_result, 0, sizeof(double)));
    const int blocks = blocks_for(n) < kDotBlocks ? blocks_for(n) : kDotBlocks;
    dot_kernel<<<blocks, kThreadsPerBlock>>>(x, y, n, device_result);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, device_result, sizeof(double), cudaMemcpyDeviceToHost));
  }
  // END TODO(student)
  return result;
}

// [slide:axpy_kernel]
__global__ void axpy_kernel(float alpha, const float* x, float* y, int n) {
  // TODO(student): y[i] += alpha * x[i] at the global index i, if i < n.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += alpha * x[i];
  // END TODO(student)
}
// [/slide]

// [slide:xpay_kernel]
__global__ void xpay_kernel(const float* r, float beta, float* p, int n) {
  // TODO(student): p[i] = r[i] + beta * p[i] at the global index i, if i < n.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = r[i] + beta * p[i];
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
  const int n = a.rows;
  const int blocks = blocks_for(n);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  float *r = nullptr, *p = nullptr, *q = nullptr;
  double* device_dot = nullptr;
  CUDA_CHECK(cudaMalloc(&r, bytes));
  CUDA_CHECK(cudaMalloc(&p, bytes));
  CUDA_CHECK(cudaMalloc(&q, bytes));
  CUDA_CHECK(cudaMalloc(&device_dot, sizeof(double)));
  CUDA_CHECK(cudaMemset(x, 0, bytes));
  CUDA_CHECK(cudaMemcpy(r, b, bytes, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy(p, b, bytes, cudaMemcpyDeviceToDevice));

  // [slide:cg-loop]
  // [slide:cg-stop]
  double rr = dot(r, r, n, device_dot);
  const double limit = tolerance * tolerance * rr;
  result.status = CgStatus::not_converged;
  result.iterations = max_iterations;
  // [slide:cg-test]
  for (int k = 0; k <= max_iterations; ++k) {
    if (rr <= limit) {
      result = {CgStatus::converged, k};
      break;
    }
    if (k == max_iterations) break;
    spmv_vector(a, p, q);
    const double pq = dot(p, q, n, device_dot);
    if (!(pq > 0.0)) {
      result = {CgStatus::breakdown, k};
      break;
    }
    // [/slide]
    // [/slide]
    // [slide:cg-update]
    const float alpha = static_cast<float>(rr / pq);
    axpy_kernel<<<blocks, kThreadsPerBlock>>>(alpha, p, x, n);
    CUDA_CHECK_LAUNCH();
    axpy_kernel<<<blocks, kThreadsPerBlock>>>(-alpha, q, r, n);
    CUDA_CHECK_LAUNCH();
    const double rr_next = dot(r, r, n, device_dot);
    const float beta = static_cast<float>(rr_next / rr);
    xpay_kernel<<<blocks, kThreadsPerBlock>>>(r, beta, p, n);
    CUDA_CHECK_LAUNCH();
    rr = rr_next;
    // [/slide]
  }
  // [/slide]

  CUDA_CHECK(cudaFree(r));
  CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(q));
  CUDA_CHECK(cudaFree(device_dot));
  // END TODO(student)
  return result;
}
// [/slide]
