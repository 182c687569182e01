// Exercise 14 - atomics and the histogram: a counter that every thread increments, the
// bin rule, the lab's CPU histogram, a GPU histogram with one global atomicAdd per
// element, one that counts in a private histogram per block in shared memory and merges
// it into the global one at the end, and the largest value with a float atomicMax that
// CUDA does not have, built from atomicCAS.
//
// When threads update the same memory, a plain `+= 1` loses updates: read, add and write
// are three steps, and another thread can write between them. atomicAdd makes them one.
// But atomics on one address are served one at a time: a histogram of skewed data, all
// in one bin, turns the whole GPU into a queue on one counter. Counting first in shared
// memory, per block, shortens that queue by the number of elements per block. That
// kernel reads four values per access (float4), so that enough bytes are on their way
// from memory, and runs on few large blocks, so that few blocks pay the merge. Where no
// atomic does the update needed (a float maximum), atomicCAS builds one: read, compute,
// swap only if nobody wrote in between, else try again with what they wrote.
//
// Build and run:  make 14 && make run-14
// Check:          make check-14   (statement: exercises/14_atomics_histogram/README.md)
#include <limits>

#include "course/errors.hpp"
#include "course/float4.hpp"
#include "histogram.hpp"

// ---------------------------------------------------------------------------
// The counter
// ---------------------------------------------------------------------------
// [slide:count_threads_atomic]
__global__ void count_threads_atomic(int* counter) {
  // TODO(student): one increment per thread, none lost.
  // [slide:atomic-counter]
  atomicAdd(counter, 1);
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The bin rule, for the CPU and the GPU
// ---------------------------------------------------------------------------
// [slide:bin_of]
__host__ __device__ int bin_of(float v, float lo, float hi, int bins) {
  // TODO(student): the bin of v, or -1.
  // release-leaks: public: harness/workload.hpp's reference_bin is the rule spelled out above
  // [slide:bin-rule]
  if (!(v >= lo && v < hi)) return -1;
  const float scale = static_cast<float>(bins) / (hi - lo);
  const int bin = static_cast<int>((v - lo) * scale);
  return bin < bins ? bin : bins - 1;
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// CPU reference: the lab's cpu_histogram
// ---------------------------------------------------------------------------
void histogram_cpu(const float* x, int n, float lo, float hi, int* counts, int bins) {
  // TODO(student): the lab's CPU loop.
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  for (int i = 0; i < n; ++i) {
    const int bin = bin_of(x[i], lo, hi, bins);
    if (bin >= 0) ++counts[bin];
  }
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
// [slide:histogram_global]
__global__ void histogram_global(const float* x, int n, float lo, float hi, int* counts, int bins) {
  // TODO(student): one global atomic per counted element.
  // [slide:global-atomics]
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int bin = bin_of(x[i], lo, hi, bins);
    if (bin >= 0) atomicAdd(&counts[bin], 1);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:histogram_shared]
__global__ void histogram_shared(const float* x, int n, float lo, float hi, int* counts, int bins) {
  // The block's private histogram: bins ints of dynamic shared memory (the launch's
  // third parameter sets its size).
  extern __shared__ int block_counts[];
  // TODO(student): count in the block's histogram, then merge it, in three steps.
  // [slide:privatised]
  // [slide:privatised-count]
  // [slide:privatised-zero-count]
  for (int b = threadIdx.x; b < bins; b += blockDim.x) block_counts[b] = 0;
  __syncthreads();

  const auto count_value = [&](float v) {
    const int bin = bin_of(v, lo, hi, bins);
    if (bin >= 0) atomicAdd(&block_counts[bin], 1);
  };
  // [/slide]
  const int start = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.x * blockDim.x;
  int scalar_first = 0;  // the first value left to the scalar loop below
  if (course::is_float4_aligned(x)) {
    const int vectors = n / course::kFloatsPerFloat4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (int v = start; v < vectors; v += stride) {
      const float4 four = x4[v];
      count_value(four.x);
      count_value(four.y);
      count_value(four.z);
      count_value(four.w);
    }
    scalar_first = vectors * course::kFloatsPerFloat4;
  }
  for (int i = scalar_first + start; i < n; i += stride) count_value(x[i]);
  // [/slide]
  // [slide:privatised-merge]
  __syncthreads();

  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    const int count = block_counts[b];
    if (count > 0) atomicAdd(&counts[b], count);
  }
  // [/slide]
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
void histogram_global_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads) {
  // TODO(student): zero the counts, then launch.
  CUDA_CHECK(cudaMemset(counts, 0, bins * sizeof(int)));
  histogram_global<<<blocks, threads>>>(x, n, lo, hi, counts, bins);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// [slide:histogram_shared_on_device]
void histogram_shared_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads) {
  // TODO(student): zero the counts, then launch, with dynamic shared memory.
  // [slide:shared-launch]
  CUDA_CHECK(cudaMemset(counts, 0, bins * sizeof(int)));
  const std::size_t shared_bytes = static_cast<std::size_t>(bins) * sizeof(int);
  histogram_shared<<<blocks, threads, shared_bytes>>>(x, n, lo, hi, counts, bins);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The largest value: a float atomicMax from atomicCAS
// ---------------------------------------------------------------------------
// [slide:atomic_max_float]
__device__ float atomic_max_float(float* address, float value) {
  // TODO(student): a float maximum from atomicCAS, retried until it holds.
  // [slide:atomic-max-float]
  int* const bits = reinterpret_cast<int*>(address);
  int observed = *bits;
  int assumed;
  do {
    assumed = observed;
    if (__int_as_float(assumed) >= value) break;
    observed = atomicCAS(bits, assumed, __float_as_int(value));
  } while (observed != assumed);
  return __int_as_float(observed);
  // [/slide]
  // END TODO(student)
}
// [/slide]

// Given: every value is offered to the maximum, and what each call returned is kept.
// [slide:max_global]
__global__ void max_global(const float* x, int n, float* maximum, float* previous) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    previous[i] = atomic_max_float(maximum, x[i]);
  }
}
// [/slide]

void max_on_device(const float* x, int n, float* maximum, float* previous, int blocks,
                   int threads) {
  const float lowest = -std::numeric_limits<float>::infinity();
  CUDA_CHECK(cudaMemcpy(maximum, &lowest, sizeof lowest, cudaMemcpyHostToDevice));
  max_global<<<blocks, threads>>>(x, n, maximum, previous);
  CUDA_CHECK_LAUNCH();
}
