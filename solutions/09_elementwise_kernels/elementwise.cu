// Exercise 09 - elementwise kernels: the lab's GPU ufuncs written in CUDA C++. A
// Gaussian density evaluated a million times, the distance between points given in
// polar coordinates (built on a __device__ helper), the zero suppression of a noisy
// pulse train, and transform(): one template launcher that applies any functor
// elementwise, the C++ counterpart of Numba's @vectorize.
//
// Elementwise work is the GPU's home ground: the same operation on every element,
// no element depending on another. Written in float32 with float functions (expf,
// sinf, cosf) it runs at the GPU's single-precision rate; one double literal or one
// double function turns the arithmetic into float64.
//
// Build and run:  make 09 && make run-09
// Check:          make check-09   (statement: exercises/09_elementwise_kernels/README.md)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "course/errors.hpp"
#include "course/float4.hpp"
#include "elementwise.hpp"

// ---------------------------------------------------------------------------
// transform(): out[i] = op(in0[i], in1[i], ...) for 0 <= i < n
// ---------------------------------------------------------------------------

// Why chunks of kTransformChunk floats rather than one float per step: on an H100 a
// loop that moves one float per thread per step stays near 80% of the copy ceiling,
// a copy kernel included. A warp's 4-byte load asks for 128 bytes; a float4 load
// asks for 512, so the same number of load instructions in flight keeps four times
// the bytes on their way from memory (the statement shows the profile;
// course/float4.hpp has course::is_float4_aligned, shared with 11, 13 and 14).

// op on each lane of one float4 per input: op(v.x...) expands to op(in0.x, in1.x, ...).
template <class Op, class... Vector>
__device__ float4 apply_to_lanes(Op op, Vector... v) {
  return make_float4(op(v.x...), op(v.y...), op(v.z...), op(v.w...));
}

// Applies op to the elements of one chunk, [chunk * kTransformChunk, + kTransformChunk)
// clipped to n: with one float4 access per array where the chunk is whole, every array
// holds floats and is 16-byte aligned (cudaMalloc's are); element by element otherwise
// (the last, partial chunk; other types; offset pointers).
template <class Op, class... In>
__device__ void transform_chunk(float* out, std::size_t n, std::size_t chunk, Op op,
                                const In*... in) {
  const std::size_t first = chunk * kTransformChunk;
  if constexpr ((std::is_same_v<In, float> && ...)) {
    if (first + kTransformChunk <= n && course::is_float4_aligned(out) &&
        (course::is_float4_aligned(in) && ...)) {
      *reinterpret_cast<float4*>(out + first) =
          apply_to_lanes(op, *reinterpret_cast<const float4*>(in + first)...);
      return;
    }
  }
  const std::size_t end = first + kTransformChunk < n ? first + kTransformChunk : n;
  for (std::size_t i = first; i < end; ++i) out[i] = op(in[i]...);
}

// One template kernel for every functor and every number of inputs: `in` is a pack
// of pointers, and `in...` passes them all on to transform_chunk.
// [slide:transform_kernel]
template <class Op, class... In>
__global__ void transform_kernel(float* out, std::size_t n, Op op, const In*... in) {
  // TODO(student): a grid-stride loop over the chunks.
  // [slide:transform-loop]
  const std::size_t chunks = (n + kTransformChunk - 1) / kTransformChunk;
  const std::size_t grid_threads = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t chunk = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; chunk < chunks;
       chunk += grid_threads) {
    transform_chunk(out, n, chunk, op, in...);
  }
  // [/slide]
  // END TODO(student)
}
// [/slide]

// Launches transform_kernel on blocks of kThreadsPerBlock threads: as many as the chunks
// of n need, but at most kMaxTransformBlocks (the loop in the kernel covers the rest).
// Returns without waiting; nothing is launched when n == 0.
// [slide:transform]
template <class Op, class... In>
void transform(float* out, std::size_t n, Op op, const In*... in) {
  // TODO(student): the launch of transform_kernel, in three steps.
  // [slide:transform-launch]
  // [slide:transform-blocks]
  if (n == 0) return;
  const std::size_t chunks = (n + kTransformChunk - 1) / kTransformChunk;
  const std::size_t blocks_needed = (chunks + kThreadsPerBlock - 1) / kThreadsPerBlock;
  // [/slide]
  const auto blocks =
      static_cast<unsigned>(std::min(blocks_needed, static_cast<std::size_t>(kMaxTransformBlocks)));
  transform_kernel<<<blocks, kThreadsPerBlock>>>(out, n, op, in...);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// 1. The Gaussian density, as a functor for transform()
// ---------------------------------------------------------------------------

// A functor: an object whose operator() the kernel calls on each element. Its data
// members travel to the GPU by value, with the kernel's arguments. The constructor
// runs once, on the host, and turns both divisions of the formula into factors: a
// float division is a sequence of about twenty instructions on the GPU (a reciprocal
// estimate refined to the exact rounding), two of them per element made the kernel
// wait on instruction issue rather than on memory.
struct GaussianPdf {
  float mean;
  float inverse_sigma;  // 1 / sigma
  float normalisation;  // 1 / (sigma sqrt(2 pi))

  GaussianPdf(float mean, float sigma)
      : mean(mean),
        inverse_sigma(1.0f / sigma),
        normalisation(1.0f / (sigma * elementwise::kSqrt2Pi)) {}

  __device__ float operator()(float x) const {
    // TODO(student): the Gaussian density of x, in float and without a division.
    const float z = (x - mean) * inverse_sigma;
    return normalisation * expf(-0.5f * z * z);
    // END TODO(student)
  }
};

void gaussian_pdf_gpu(const float* x, float* y, int n, float mean, float sigma) {
  // TODO(student): the Gaussian through transform(), in one call.
  transform(y, static_cast<std::size_t>(n), GaussianPdf{mean, sigma}, x);
  // END TODO(student)
}

// [slide:add-functor]
// add_ufunc of the Numba labs: two inputs, so transform_kernel's pack holds two pointers.
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

void add_gpu(const float* a, const float* b, float* sum, int n) {
  if (n <= 0) return;
  transform(sum, static_cast<std::size_t>(n), Add{}, a, b);
}
// [/slide]

// ---------------------------------------------------------------------------
// 2. Polar distance, with a __device__ helper
// ---------------------------------------------------------------------------

// A __device__ function is called from kernels only; the compiler inlines it, so the
// float2 it returns costs nothing (the lab's tuple return).
// [slide:polar_to_cartesian]
__device__ float2 polar_to_cartesian(float rho, float theta) {
  // TODO(student): the point (rho, theta) in Cartesian coordinates.
  // [slide:polar-helper]
  float sine = 0.0f, cosine = 0.0f;
  sincosf(theta, &sine, &cosine);
  return make_float2(rho * cosine, rho * sine);
  // [/slide]
  // END TODO(student)
}
// [/slide]

__global__ void polar_distance_kernel(const float* rho1, const float* theta1, const float* rho2,
                                      const float* theta2, float* distance, int n) {
  // TODO(student): one thread per pair of points.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float2 p1 = polar_to_cartesian(rho1[i], theta1[i]);
    const float2 p2 = polar_to_cartesian(rho2[i], theta2[i]);
    const float dx = p1.x - p2.x;
    const float dy = p1.y - p2.y;
    distance[i] = sqrtf(dx * dx + dy * dy);
  }
  // END TODO(student)
}

void polar_distance_gpu(const float* rho1, const float* theta1, const float* rho2,
                        const float* theta2, float* distance, int n) {
  // TODO(student): the launch of polar_distance_kernel, in three steps.
  if (n == 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  polar_distance_kernel<<<blocks, kThreadsPerBlock>>>(rho1, theta1, rho2, theta2, distance, n);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}

// The helper alone, so that the check can see the coordinates, not only distances
// (a distance does not change when every point is mirrored).
__global__ void polar_to_cartesian_kernel(const float* rho, const float* theta, float* x, float* y,
                                          int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float2 point = polar_to_cartesian(rho[i], theta[i]);
    x[i] = point.x;
    y[i] = point.y;
  }
}

// [slide:polar-launcher]
void polar_to_cartesian_gpu(const float* rho, const float* theta, float* x, float* y, int n) {
  if (n <= 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  polar_to_cartesian_kernel<<<blocks, kThreadsPerBlock>>>(rho, theta, x, y, n);
  CUDA_CHECK_LAUNCH();
}
// [/slide]

// ---------------------------------------------------------------------------
// 3. Zero suppression
// ---------------------------------------------------------------------------

__global__ void zero_suppress_kernel(const std::int16_t* waveform, std::int16_t* out, int n,
                                     std::int16_t threshold) {
  // TODO(student): one thread per sample.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = (waveform[i] < threshold) ? std::int16_t{0} : waveform[i];
  }
  // END TODO(student)
}

void zero_suppress_gpu(const std::int16_t* waveform, std::int16_t* out, int n,
                       std::int16_t threshold) {
  // TODO(student): the launch, as in polar_distance_gpu.
  if (n == 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  zero_suppress_kernel<<<blocks, kThreadsPerBlock>>>(waveform, out, n, threshold);
  CUDA_CHECK_LAUNCH();
  // END TODO(student)
}
