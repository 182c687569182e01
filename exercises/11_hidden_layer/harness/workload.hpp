// Exercise 11: what the student's program and its check must agree on - the inputs of
// the hidden layer (greyscale pixels and weights, drawn from a seed), which elements of
// a large output the performance case reports, the reference with its tolerance, and
// the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// hidden_layer.hpp includes it for the student's code.
//
// Used by:  make 11 && make run-11 (the program), make check-11 (the check)
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

// Normalisation maps a greyscale level in [0, 255] to [0, 1]: divide by this.
inline constexpr float kGreyscaleScale = 255.0f;

namespace hidden_layer {

// As in the lab: greyscales = floor(uniform(0, 255)), whole levels 0 .. 254, and
// weights drawn from a normal law of mean 0.5 and standard deviation 0.1.
inline constexpr float kGreyscaleLevels = 255.0f;
inline constexpr double kWeightMean = 0.5;
inline constexpr double kWeightStddev = 0.1;
// Dim pixels (levels 0 .. 3): their normalised, weighted values are a few thousandths,
// where tanh written with exponentials loses most of its digits to cancellation.
inline constexpr float kDimLevels = 4.0f;

// Independent streams for the two inputs of one seed.
inline constexpr std::uint64_t kGreyscaleSalt = 1;
inline constexpr std::uint64_t kWeightSalt = 2;

struct Inputs {
  std::vector<float> greyscales;
  std::vector<float> weights;
};

// n neurons; `levels` is the number of greyscale levels drawn (kGreyscaleLevels, or
// kDimLevels for the precision case).
inline Inputs make_inputs(int n, std::uint64_t seed, float levels = kGreyscaleLevels) {
  const std::size_t count = static_cast<std::size_t>(n);
  Inputs inputs;
  inputs.greyscales =
      course::random_floats(count, 0.0f, levels, course::derive_seed(seed, kGreyscaleSalt));
  for (float& level : inputs.greyscales) level = std::floor(level);
  inputs.weights = course::random_normal_floats(count, kWeightMean, kWeightStddev,
                                                course::derive_seed(seed, kWeightSalt));
  return inputs;
}

// The performance case reports only these elements of its large outputs (every
// kSampleStride-th, and the last): enough to prove the whole array was computed
// without shipping hundreds of megabytes to the check. A prime stride visits every
// position within a block and every block of the grid-stride loop over time.
inline constexpr std::size_t kSampleStride = 9973;

inline std::vector<std::size_t> sample_indices(std::size_t n) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < n; i += kSampleStride) indices.push_back(i);
  if (n > 0 && indices.back() != n - 1) indices.push_back(n - 1);
  return indices;
}

// One neuron in double precision: the reference of the check, and of the demo before it
// shows a time.
inline double neuron_reference(float greyscale, float weight) {
  return std::tanh(static_cast<double>(greyscale) / kGreyscaleScale * static_cast<double>(weight));
}

// Each neuron is a few float operations: the product with the constant 1 / 255 (itself
// rounded once), the product with the weight (one more rounding), and tanhf, within 2 ulp
// in CUDA (1 in glibc). The three roundings give the argument a relative error below
// 1.5 * 2^-23, and tanh does not amplify it (x tanh'(x) / tanh(x) <= 1), so the result is
// within about 1.5 * 2^-23 + 2 ulp <= 3.5 * 2^-23 = 4.2e-7 of the exact value, relative
// (a true division by 255 rounds once less). rtol = 1e-6 leaves a factor 2.4 on that.
// Scaling by 1 / 256 instead of 1 / 255 is off by 4e-3, the steps in another order by far
// more, and tanh written with exponentials by 1e-5 or more on dim pixels (values ~ 2e-3:
// exp(v) - exp(-v) cancels). atol only matters at 0, which every version computes exactly.
inline constexpr course::Tolerance kTolerance{1e-9, 1e-6};

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// create_hidden_layer_gpu's method, as the check names it (hidden_layer.hpp's LayerMethod
// is the student's header, which the check does not include).
enum class Method { three_kernels, fused };
inline std::vector<std::pair<Method, std::string>> choices(Method) {
  return {{Method::three_kernels, "three_kernels"}, {Method::fused, "fused"}};
}
struct Gpu {
  std::int64_t n = 0;
  Method method = Method::three_kernels;
  float levels = kGreyscaleLevels;  // greyscale levels drawn (make_inputs)
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("method", method), visit("levels", levels);
  }
};
// One create_hidden_layer_gpu call; after_empty makes two calls with n = 0 first.
inline const course::check::Request<Gpu> gpu{"gpu"};
inline const course::check::Request<Gpu> gpu_after_empty{"gpu_after_empty"};

// launch_fused on device arrays that start these many floats into their buffers.
struct FusedOffsets {
  std::int64_t n = 0;
  std::int64_t greyscales_offset = 0;
  std::int64_t weights_offset = 0;
  std::int64_t activated_offset = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("greyscales_offset", greyscales_offset),
        visit("weights_offset", weights_offset), visit("activated_offset", activated_offset);
  }
};
inline const course::check::Request<FusedOffsets> fused_offsets{"fused_offsets"};

// The copy ceiling, the fused kernel and the three kernels timed in turn (a
// course::check::Timing, field by field).
struct Performance {
  std::int64_t n = 0;
  int rounds = 0;
  int warmup = 0;
  int repetitions = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("rounds", rounds), visit("warmup", warmup),
        visit("repetitions", repetitions);
  }
};
inline const course::check::Request<Performance> performance{"performance"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// create_hidden_layer_gpu's output, and that of its calls with n = 0 (guard zone only).
inline const course::check::Array<float> activated{"activated"};
inline const course::check::Array<float> empty_activated{"empty_activated"};
// The performance case: the best median time of each version, in milliseconds, and the
// elements of each output at sample_indices.
inline const course::check::Value<double> copy_ms{"copy_ms"};
inline const course::check::Value<double> fused_ms{"fused_ms"};
inline const course::check::Value<double> three_ms{"three_ms"};
inline const course::check::Array<float> fused_sample{"fused_sample"};
inline const course::check::Array<float> three_sample{"three_sample"};
}  // namespace result

}  // namespace hidden_layer
