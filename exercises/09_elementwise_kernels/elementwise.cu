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
  //   1. chunks = n / kTransformChunk, rounded up.
  //   2. Start at this thread's global index, computed in std::size_t: blockIdx.x *
  //      blockDim.x alone is an unsigned int product.
  //   3. Step by the number of threads of the whole grid, gridDim.x * blockDim.x, while
  //      chunk < chunks. At each step call transform_chunk(out, n, chunk, op, in...).
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
  //   1. When n == 0, return: a grid of zero blocks is an error.
  //   2. blocks = the number of blocks that covers the n / kTransformChunk chunks, both
  //      divisions rounded up, but at most kMaxTransformBlocks. Compute it in std::size_t
  //      with std::min, then cast.
  //   3. Launch transform_kernel<<<blocks, kThreadsPerBlock>>>(out, n, op, in...) and
  //      check it with CUDA_CHECK_LAUNCH().
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
    //   1. z = (x - mean) * inverse_sigma.
    //   2. Return normalisation * expf(-0.5f * z * z), with float literals (0.5f, not 0.5).
    return 0.0f;
    // END TODO(student)
  }
};

void gaussian_pdf_gpu(const float* x, float* y, int n, float mean, float sigma) {
  // TODO(student): the Gaussian through transform(), in one call.
  //   Call transform() with a GaussianPdf{mean, sigma} and the one input x. add_gpu below
  //   makes such a call with two inputs.
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
  //   Return make_float2(rho cos(theta), rho sin(theta)), with cosf and sinf, or sincosf,
  //   which computes both at once.
  return make_float2(0.0f, 0.0f);
  // END TODO(student)
}
// [/slide]

__global__ void polar_distance_kernel(const float* rho1, const float* theta1, const float* rho2,
                                      const float* theta2, float* distance, int n) {
  // TODO(student): one thread per pair of points.
  //   1. Compute the global index i. Do nothing past n.
  //   2. Convert both points with polar_to_cartesian.
  //   3. Write the length of their difference, sqrtf(dx * dx + dy * dy), to distance[i].
  // END TODO(student)
}

void polar_distance_gpu(const float* rho1, const float* theta1, const float* rho2,
                        const float* theta2, float* distance, int n) {
  // TODO(student): the launch of polar_distance_kernel, in three steps.
  //   1. When n == 0, launch nothing.
  //   2. Take enough blocks of kThreadsPerBlock threads to cover n, the count rounded up.
  //   3. Launch polar_distance_kernel, then call CUDA_CHECK_LAUNCH().
  // polar_to_cartesian_gpu below does the same for its kernel.
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
  //   If i < n, write out[i] = 0 where waveform[i] < threshold, waveform[i] otherwise.
  //   A sample equal to the threshold is kept.
  // END TODO(student)
}

void zero_suppress_gpu(const std::int16_t* waveform, std::int16_t* out, int n,
                       std::int16_t threshold) {
  // TODO(student): the launch, as in polar_distance_gpu.
  // END TODO(student)
}
