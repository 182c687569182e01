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
  normalized = greyscale * (1.0f / kGreyscaleScale);
  // END TODO(student)
  return normalized;
}

__device__ float weigh_value(float value, float weight) {
  float weighted = value;
  // TODO(student): the neuron's weight.
  weighted = value * weight;
  // END TODO(student)
  return weighted;
}

__device__ float activate_value(float value) {
  float activated = value;
  // TODO(student): the activation, the hyperbolic tangent.
  activated = tanhf(value);
  // END TODO(student)
  return activated;
}

// ---------------------------------------------------------------------------
// Kernels: three steps, one thread per element each
// ---------------------------------------------------------------------------
__global__ void normalize_kernel(const float* greyscales, float* normalized, int n) {
  // TODO(student): one element per thread.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    normalized[i] = normalize_value(greyscales[i]);
  }
  // END TODO(student)
}

__global__ void weigh_kernel(const float* values, const float* weights, float* weighted, int n) {
  // TODO(student): one element per thread.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    weighted[i] = weigh_value(values[i], weights[i]);
  }
  // END TODO(student)
}

__global__ void activate_kernel(const float* values, float* activated, int n) {
  // TODO(student): one element per thread.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    activated[i] = activate_value(values[i]);
  }
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
  // [slide:fused-loop]
  const int start = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  int scalar_first = 0;  // the first neuron left to the scalar loop below
  if (course::is_float4_aligned(greyscales) && course::is_float4_aligned(weights) &&
      course::is_float4_aligned(activated)) {
    const int vectors = n / course::kFloatsPerFloat4;
    const float4* greyscales4 = reinterpret_cast<const float4*>(greyscales);
    const float4* weights4 = reinterpret_cast<const float4*>(weights);
    float4* activated4 = reinterpret_cast<float4*>(activated);
    for (int v = start; v < vectors; v += stride) {
      const float4 g = greyscales4[v], w = weights4[v];
      activated4[v] =
          make_float4(neuron(g.x, w.x), neuron(g.y, w.y), neuron(g.z, w.z), neuron(g.w, w.w));
    }
    scalar_first = vectors * course::kFloatsPerFloat4;
  }
  for (int i = scalar_first + start; i < n; i += stride) {
    activated[i] = neuron(greyscales[i], weights[i]);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Launchers, on device arrays
// ---------------------------------------------------------------------------
// [slide:launch_three_kernels]
void launch_three_kernels(const float* greyscales, const float* weights, float* activated, int n) {
  // TODO(student): the three kernels, one after the other.
  // [slide:three-kernels]
  if (n == 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  normalize_kernel<<<blocks, kThreadsPerBlock>>>(greyscales, activated, n);
  CUDA_CHECK_LAUNCH();
  weigh_kernel<<<blocks, kThreadsPerBlock>>>(activated, weights, activated, n);
  CUDA_CHECK_LAUNCH();
  activate_kernel<<<blocks, kThreadsPerBlock>>>(activated, activated, n);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:launch_fused]
void launch_fused(const float* greyscales, const float* weights, float* activated, int n) {
  // TODO(student): the fused kernel, on a grid sized to the GPU.
  if (n == 0) return;
  // [slide:fused-grid]
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int multiprocessors = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  // Enough blocks to fill every multiprocessor; more would only queue behind them.
  // A small layer needs fewer: one thread per float4 of it (the last one partial).
  const int vectors = (n + course::kFloatsPerFloat4 - 1) / course::kFloatsPerFloat4;
  const int blocks_for_n = (vectors + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int blocks = std::min(blocks_for_n, multiprocessors * kFusedBlocksPerMultiprocessor);
  hidden_layer_fused_kernel<<<blocks, kThreadsPerBlock>>>(greyscales, weights, activated, n);
  // [/slide]
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host function: host arrays in, host array out
// ---------------------------------------------------------------------------
void create_hidden_layer_gpu(const float* host_greyscales, const float* host_weights,
                             float* host_activated, int n, LayerMethod method) {
  // TODO(student): the round trip, in four steps.
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  float* device_greyscales = nullptr;
  float* device_weights = nullptr;
  float* device_activated = nullptr;
  CUDA_CHECK(cudaMalloc(&device_greyscales, bytes));
  CUDA_CHECK(cudaMalloc(&device_weights, bytes));
  CUDA_CHECK(cudaMalloc(&device_activated, bytes));
  CUDA_CHECK(cudaMemcpy(device_greyscales, host_greyscales, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(device_weights, host_weights, bytes, cudaMemcpyHostToDevice));

  if (method == LayerMethod::fused) {
    launch_fused(device_greyscales, device_weights, device_activated, n);
  } else {
    launch_three_kernels(device_greyscales, device_weights, device_activated, n);
  }

  // cudaMemcpy waits for the kernels launched before it in the same (default) stream.
  CUDA_CHECK(cudaMemcpy(host_activated, device_activated, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_greyscales));
  CUDA_CHECK(cudaFree(device_weights));
  CUDA_CHECK(cudaFree(device_activated));
  // END TODO(student)
}
