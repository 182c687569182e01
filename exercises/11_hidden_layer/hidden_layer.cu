// Exercise 11 - a neural network's hidden layer on the GPU: every neuron normalises its
// greyscale pixel (/ 255), weighs it (* weight) and activates it (tanh), first with three
// kernels launched one after the other, then with one fused kernel.
//
// Each step alone does one or two floating-point operations per element: all three are
// bound by memory traffic. Three kernels read and write the whole layer three times; one
// fused kernel reads each input once and writes the result once, four floats per access
// (float4: the loads in flight carry four times the bytes), and runs close to the speed
// of a plain copy. The round trip keeps the intermediate results on the device.
//
// Build and run:  make 11 && make run-11
// Check:          make check-11   (statement: exercises/11_hidden_layer/README.md)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "course/errors.hpp"
#include "course/float4.hpp"
#include "hidden_layer.hpp"

// ---------------------------------------------------------------------------
// The three steps, for one neuron: device functions shared by every kernel
// ---------------------------------------------------------------------------
__device__ float normalize_value(float greyscale) {
  float normalized = greyscale;
  // TODO(student): the level in [0, 255], mapped to [0, 1].
  //   Multiply by the float constant 1.0f / kGreyscaleScale. The compiler computes it
  //   once, and a division costs far more.
  // END TODO(student)
  return normalized;
}

__device__ float weigh_value(float value, float weight) {
  float weighted = value;
  // TODO(student): the neuron's weight.
  //   Multiply value by weight.
  // END TODO(student)
  return weighted;
}

__device__ float activate_value(float value) {
  float activated = value;
  // TODO(student): the activation, the hyperbolic tangent.
  //   Use tanhf. The lab's (exp(v) - exp(-v)) / (exp(v) + exp(-v)) cancels for small v
  //   (README.md, Background).
  // END TODO(student)
  return activated;
}

// ---------------------------------------------------------------------------
// Kernels: three steps, one thread per element each
// ---------------------------------------------------------------------------
__global__ void normalize_kernel(const float* greyscales, float* normalized, int n) {
  // TODO(student): one element per thread.
  //   1. Compute the global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. If i < n, write normalized[i] = normalize_value(greyscales[i]).
  // END TODO(student)
}

__global__ void weigh_kernel(const float* values, const float* weights, float* weighted, int n) {
  // TODO(student): one element per thread.
  //   1. Compute the global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. If i < n, write weighted[i] = weigh_value(values[i], weights[i]).
  // END TODO(student)
}

__global__ void activate_kernel(const float* values, float* activated, int n) {
  // TODO(student): one element per thread.
  //   1. Compute the global index i from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. If i < n, write activated[i] = activate_value(values[i]).
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Kernel: the three steps fused, in a grid-stride loop, four neurons per access
// ---------------------------------------------------------------------------
// [slide:neuron]
// One neuron, the three steps composed.
__device__ float neuron(float greyscale, float weight) {
  return activate_value(weigh_value(normalize_value(greyscale), weight));
}
// [/slide]

// [slide:hidden_layer_fused_kernel]
__global__ void hidden_layer_fused_kernel(const float* __restrict__ greyscales,
                                          const float* __restrict__ weights,
                                          float* __restrict__ activated, int n) {
  // TODO(student): the three steps fused, in a grid-stride loop over float4 vectors.
  //   First the grid-stride loop, one neuron per step:
  //   1. Start i at this thread's global index, start = blockIdx.x * blockDim.x + threadIdx.x.
  //   2. While i < n, write activated[i] = neuron(greyscales[i], weights[i]).
  //   3. Advance i by the number of threads in the whole grid, stride = blockDim.x * gridDim.x.
  //   Consecutive threads then touch consecutive elements at every step (coalesced).
  //   Once the fused cases pass, four neurons per access (README.md, "Four neurons per
  //   access"):
  //   4. Before that loop, if greyscales, weights and activated are all 16-byte aligned
  //      (course::is_float4_aligned of each), run the same grid-stride loop over the
  //      n / course::kFloatsPerFloat4 float4 vectors: vector v from start, by stride, while
  //      v < n / 4. Read greyscales and weights as const float4* at v, and write the float4
  //      of the four neurons of their x, y, z and w lanes (make_float4) to activated's v.
  //   5. The loop of steps 1-3 then starts at 4 * (n / 4) + start: it does the last n % 4
  //      neurons. When a pointer is not aligned, it starts at start and does every neuron.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers, on device arrays
// ---------------------------------------------------------------------------
// [slide:launch_three_kernels]
void launch_three_kernels(const float* greyscales, const float* weights, float* activated, int n) {
  // TODO(student): the three kernels, one after the other.
  // [slide:three-kernels-steps]
  //   1. When n == 0, return: a grid of zero blocks is an error.
  //   2. Take enough blocks of kThreadsPerBlock threads to cover n (rounded up).
  //   3. Launch, in this order:
  //        normalize_kernel  greyscales -> activated
  //        weigh_kernel      activated, weights -> activated
  //        activate_kernel   activated -> activated
  // Put CUDA_CHECK_LAUNCH() after each launch. Kernels in one stream run in order.
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:launch_fused]
void launch_fused(const float* greyscales, const float* weights, float* activated, int n) {
  // TODO(student): the fused kernel, on a grid sized to the GPU.
  //   1. When n == 0, return.
  //   2. Read this GPU's multiprocessor count: cudaGetDevice, then
  //      cudaDeviceGetAttribute(..., cudaDevAttrMultiProcessorCount, ...).
  //   3. Take as many blocks of kThreadsPerBlock threads as cover the float4 vectors of
  //      the layer, (n + 3) / 4 of them (both divisions rounded up), but at most
  //      kFusedBlocksPerMultiprocessor per multiprocessor.
  //   4. Launch hidden_layer_fused_kernel, then CUDA_CHECK_LAUNCH().
  // Enough blocks fill every multiprocessor; more would only queue behind them. With
  // fewer than the vectors need, the grid-stride loop gives each thread several.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function: host arrays in, host array out
// ---------------------------------------------------------------------------
void create_hidden_layer_gpu(const float* host_greyscales, const float* host_weights,
                             float* host_activated, int n, LayerMethod method) {
  // TODO(student): the round trip, in four steps.
  //   1. When n == 0, return at once.
  //   2. Allocate three device arrays of n floats (greyscales, weights, activated). Copy
  //      the two inputs in.
  //   3. Call launch_three_kernels or launch_fused, as `method` says. The intermediate
  //      results stay on the device, never copied back and forth.
  //   4. Copy the device result into host_activated. Free the three arrays.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // cudaMemcpy waits for the kernels launched before it in the same (default) stream.
  // END TODO(student)
}
