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
  //   Add 1 to *counter with atomicAdd.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The bin rule, for the CPU and the GPU
// ---------------------------------------------------------------------------
// [slide:bin_of]
__host__ __device__ int bin_of(float v, float lo, float hi, int bins) {
  // TODO(student): the bin of v, or -1.
  //   1. Return -1 unless lo <= v < hi. NaN must fail the test.
  //   2. Compute (int)((v - lo) * scale) with float scale = bins / (hi - lo).
  //   3. Lower it to bins - 1 if it came out as bins (histogram.hpp says why).
  return -1;
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// CPU reference: the lab's cpu_histogram
// ---------------------------------------------------------------------------
void histogram_cpu(const float* x, int n, float lo, float hi, int* counts, int bins) {
  // TODO(student): the lab's CPU loop.
  //   1. Set the bins counts to 0.
  //   2. Add 1 to counts[bin_of(x[i], ...)] for every x[i] that is counted.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
// [slide:histogram_global]
__global__ void histogram_global(const float* x, int n, float lo, float hi, int* counts, int bins) {
  // TODO(student): one global atomic per counted element.
  // [slide:global-atomics-step]
  //   A grid-stride loop over x. For each counted value, atomicAdd 1 to its bin in counts.
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
  //   1. The block's threads zero block_counts[0 .. bins) together, each thread a few
  //      bins, stepping by blockDim.x. Then they wait for each other (__syncthreads()).
  //   2. A grid-stride loop over x: atomicAdd 1 to block_counts[bin] for each counted
  //      value. Shared-memory atomics are fast, and only this block's threads compete.
  //      Once the shared cases pass, read four values per access (README.md, "Against
  //      CUB on uniform values"). If x is 16-byte aligned
  //      (course::is_float4_aligned), first a grid-stride loop over the
  //      n / course::kFloatsPerFloat4 float4 vectors of x (vector v from the global
  //      index, by the grid's threads, while v < n / 4), counting each of the four
  //      values of x's float4 at v; then the loop of one value per step from
  //      4 * (n / 4) + the global index: the last n % 4 values. When x is not aligned,
  //      the loop of one value per step counts them all. (A lambda defined in the
  //      kernel, [&](float v) { ... }, can count one value for both loops.)
  //   3. Wait until every thread of the block has counted (__syncthreads()). Then the
  //      threads add the block's bins to counts together, one global atomicAdd per
  //      non-zero bin.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers
// ---------------------------------------------------------------------------
void histogram_global_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads) {
  // TODO(student): zero the counts, then launch.
  //   1. cudaMemset counts to 0 (bins ints).
  //   2. Launch histogram_global on blocks x threads, then CUDA_CHECK_LAUNCH().
  // END TODO(student)
}

// [slide:histogram_shared_on_device]
void histogram_shared_on_device(const float* x, int n, float lo, float hi, int* counts, int bins,
                                int blocks, int threads) {
  // TODO(student): zero the counts, then launch, with dynamic shared memory.
  // [slide:shared-launch-steps]
  //   1. cudaMemset counts to 0 (bins ints).
  //   2. Launch histogram_shared on blocks x threads with bins * sizeof(int) bytes of
  //      dynamic shared memory: kernel<<<blocks, threads, shared_bytes>>>(...).
  //   3. Then CUDA_CHECK_LAUNCH().
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
  //   1. Read the int at address (reinterpret_cast<int*>(address)): the value observed.
  //   2. Loop: if the observed value, as a float (__int_as_float), is already value or
  //      more, stop. Otherwise atomicCAS(bits, observed, __float_as_int(value)): it writes
  //      only if the int there is still the one observed, and returns the int it found.
  //      When that is the one observed, the swap happened: stop. When not, another thread
  //      wrote in between: what atomicCAS returned is the new observed value; compare it
  //      with value again before the next try.
  //   3. Return the value observed last, as a float: what *address held before the call.
  return value;
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
