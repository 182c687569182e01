// Exercise 18: what the student's program and its check must agree on - the block size,
// the inputs of every run, drawn from a seed, the exact dot product, the tolerance a
// float reduction earns, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// dot_product.hpp includes it for the student's code.
//
// Used by:  make 18 && make run-18 (the program), make check-18 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

// Every reduction kernel of the exercise runs blocks of this many threads: a power of two,
// a whole number of warps.
inline constexpr int kThreadsPerBlock = 256;
inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarpMask = 0xffffffffu;  // every lane of a warp takes part
// The fewest blocks dot_on_device's grid-stride pass launches (when n has that many blocks
// of elements): 32768 threads, which the check's error bound counts on. A GPU that holds
// fewer at once (under 32 multiprocessors of 1024 threads) runs them in more than one wave.
inline constexpr int kMinGridStrideBlocks = 128;

// The most partial sums any launcher writes: step 1's one per kThreadsPerBlock elements.
inline constexpr std::int64_t partials_capacity(std::int64_t n) {
  return (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
}

namespace dot_product {

// ---------------------------------------------------------------------------
// Inputs. Element i of x (or y) depends only on the seed and i, so that the check can
// walk 10^8 of them without storing them. Each value has 24 random bits (exact in float)
// and every product x[i] * y[i] is exact in double.
// ---------------------------------------------------------------------------
enum class Values {
  signed_unit,    // uniform in [-1, 1): sums that cancel
  positive_unit,  // uniform in [0, 1): sums that grow, the accuracy case
};
inline std::vector<std::pair<Values, std::string>> choices(Values) {
  return {{Values::signed_unit, "signed"}, {Values::positive_unit, "positive"}};
}

// The seed of array 0 (x) or 1 (y) of a run.
inline std::uint64_t array_seed(std::uint64_t seed, int array) {
  return course::derive_seed(seed, static_cast<std::uint64_t>(array) + 1);
}

// Element i of the array whose seed is `array_seed`: SplitMix64 of the seed and i.
inline float input_value(std::uint64_t array_seed, std::int64_t i, Values kind) {
  course::Rng rng(array_seed + static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ull);
  const float unit = static_cast<float>(rng.next_u64() >> 40) * 0x1.0p-24f;  // [0, 1)
  return kind == Values::positive_unit ? unit : 2.0f * unit - 1.0f;
}

// Special values planted in an input: a NaN, an infinity, or infinities of both signs
// whose products cancel into a NaN.
enum class Special { none, nan, infinity, opposite_infinities };

inline std::vector<std::pair<Special, std::string>> choices(Special) {
  return {{Special::none, "none"},
          {Special::nan, "nan"},
          {Special::infinity, "infinity"},
          {Special::opposite_infinities, "opposite_infinities"}};
}

// What the caller of a kernel puts after the n elements of x and y: NaNs that poison
// the result of any kernel that reads past n (1024 covers a whole block of step 2 reading
// its second element without its bound check).
inline constexpr int kPadding = 1024;

// x or y of n elements (array 0 is x, 1 is y); the specials sit at n / 3 and 2n / 3,
// in x only, with y made positive there.
inline std::vector<float> make_input(std::int64_t n, int array, std::uint64_t seed, Values kind,
                                     Special special = Special::none) {
  std::vector<float> v;
  // Room for the padding a caller may add, so that adding it copies nothing.
  v.reserve(static_cast<std::size_t>(n + kPadding));
  const std::uint64_t own_seed = array_seed(seed, array);
  for (std::int64_t i = 0; i < n; ++i) v.push_back(input_value(own_seed, i, kind));
  if (special == Special::none || n < 3) return v;
  const float infinity = std::numeric_limits<float>::infinity();
  const std::size_t first = static_cast<std::size_t>(n / 3),
                    second = static_cast<std::size_t>(2 * n / 3);
  if (array == 1) {
    v[first] = 1.0f;
    v[second] = 1.0f;
  } else if (special == Special::nan) {
    v[first] = std::numeric_limits<float>::quiet_NaN();
  } else {
    v[first] = infinity;
    if (special == Special::opposite_infinities) v[second] = -infinity;
  }
  return v;
}

// ---------------------------------------------------------------------------
// The reference: the exact sum (each product exact in double, summed with Neumaier's
// compensation, far below a float's rounding) and the sum of |x[i] y[i]| that bounds
// the rounding errors of any order of summation.
// ---------------------------------------------------------------------------
struct Sums {
  double dot = 0.0;
  double abs = 0.0;
};

class ExactSum {
 public:
  void add(double v) {
    const double t = sum_ + v;
    compensation_ += std::fabs(sum_) >= std::fabs(v) ? (sum_ - t) + v : (v - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0, compensation_ = 0.0;
};

// The sums of x[i] y[i] over i in [begin, end), on finite inputs.
inline Sums reference_sums(const std::vector<float>& x, const std::vector<float>& y,
                           std::int64_t begin, std::int64_t end) {
  ExactSum dot, abs;
  for (std::int64_t i = begin; i < end; ++i) {
    const double p =
        static_cast<double>(x[static_cast<std::size_t>(i)]) * y[static_cast<std::size_t>(i)];
    dot.add(p);
    abs.add(std::fabs(p));
  }
  return {dot.value(), abs.value()};
}

// ---------------------------------------------------------------------------
// The tolerance. A float sum in which every value goes through at most k roundings
// (its product, then k - 1 additions on its way to the result) is within
//     gamma_k * sum |x[i] y[i]|,   gamma_k = k u / (1 - k u),  u = 2^-24,
// of the exact sum, whatever the order (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., section 4.2). For a two-pass reduction on blocks of B threads,
//     k = 1 (product) + per_thread (a thread's own sequential sum)
//         + log2 B (the block's tree) + ceil(partials / B) + log2 B (the second pass),
// a few hundred or thousand for 10^8 elements. One thread adding all n products in
// turn has k = n: its bound is useless, and with 10^8 positive products its sum stops
// growing at 2^24, where adding a product below 1 no longer changes a float.
// ---------------------------------------------------------------------------
inline constexpr double kUnitRoundoff = 0x1.0p-24;
inline constexpr int kLog2ThreadsPerBlock = 8;
static_assert(1 << kLog2ThreadsPerBlock == kThreadsPerBlock);

inline double gamma_bound(double k) { return k * kUnitRoundoff / (1.0 - k * kUnitRoundoff); }

inline double rounding_depth(std::int64_t per_thread, std::int64_t partials) {
  return 1.0 + static_cast<double>(per_thread) + kLog2ThreadsPerBlock +
         static_cast<double>((partials + kThreadsPerBlock - 1) / kThreadsPerBlock) +
         kLog2ThreadsPerBlock;
}

// The fewest threads dot_on_device's grid-stride pass has when n is large (its grid has at
// least kMinGridStrideBlocks blocks, on every GPU).
inline constexpr std::int64_t kMinGridStrideThreads =
    static_cast<std::int64_t>(kMinGridStrideBlocks) * kThreadsPerBlock;

// The sums of a whole run's x . y, element by element without storing the arrays (the
// check's 10^8 elements would take 800 MB), and beside them the naive sum: one float
// accumulator, the products added in index order, as one thread (or one atomic
// counter) would.
struct StreamedSums {
  Sums exact;
  float naive = 0.0f;
};

inline StreamedSums streamed_sums(std::int64_t n, std::uint64_t seed, Values kind) {
  const std::uint64_t x_seed = array_seed(seed, 0), y_seed = array_seed(seed, 1);
  ExactSum dot, abs;
  float naive = 0.0f;
  for (std::int64_t i = 0; i < n; ++i) {
    const float x = input_value(x_seed, i, kind), y = input_value(y_seed, i, kind);
    const double p = static_cast<double>(x) * y;
    dot.add(p);
    abs.add(std::fabs(p));
    naive += x * y;
  }
  return {{dot.value(), abs.value()}, naive};
}

// ---------------------------------------------------------------------------
// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
// A step is named as in harness/steps.cuh: tree, first_add, warp_shuffle, grid_stride.
// ---------------------------------------------------------------------------
namespace request {
// One step's first pass alone, on `blocks` blocks (the grid-stride kernel's grid).
struct Kernel {
  std::string step;
  std::int64_t n = 0;
  std::int64_t blocks = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("step", step), visit("n", n), visit("blocks", blocks);
  }
};
inline const course::check::Request<Kernel> kernel{"kernel"};
// The second pass alone, on `count` partials drawn from the seed.
struct SumPartials {
  std::int64_t count = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("count", count);
  }
};
inline const course::check::Request<SumPartials> sum_partials{"sum_partials"};
// One step's launcher, on inputs of this kind with these special values planted.
struct Dot {
  std::string step;
  std::int64_t n = 0;
  Values values = Values::signed_unit;
  Special special = Special::none;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("step", step), visit("n", n), visit("values", values), visit("special", special);
  }
};
inline const course::check::Request<Dot> dot{"dot"};
// Every launcher on the same n positive values.
struct Accuracy {
  std::int64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const course::check::Request<Accuracy> accuracy{"accuracy"};
// The speed cases: n elements, each time the median of `repetitions` calls; `ceiling`
// measures the copy ceiling too (not under compute-sanitizer: its buffers are hundreds of MiB).
struct Speed {
  std::int64_t n = 0;
  std::int64_t repetitions = 0;
  bool ceiling = false;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("repetitions", repetitions), visit("ceiling", ceiling);
  }
};
inline const course::check::Request<Speed> steps_speed{"steps_speed"};
inline const course::check::Request<Speed> final_speed{"final_speed"};
}  // namespace request

// ---------------------------------------------------------------------------
// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
// ---------------------------------------------------------------------------
namespace result {
using course::check::Array;
using course::check::Family;
using course::check::Value;
inline const Array<float> partials{"partials"};  // a first pass alone: one per block
inline const Array<float> total{"result"};       // *result of a launcher or of sum_partials
// The accuracy case: *result of each launcher, by step name (result_tree, ...).
inline const Family<Array<float>> step_result{"result_", ""};
// The speed cases: a timed first pass's partials added up, and its time, by step name.
inline const Family<Value<double>> step_sum{"", "_sum"};
inline const Family<Value<double>> step_ms{"", "_ms"};
// The yardsticks' times, dot_on_device's, and the copy ceiling measured in the same run.
inline const Value<double> cub_ms{"cub_ms"};
inline const Value<double> interleaved_ms{"interleaved_ms"};
inline const Value<double> cublas_ms{"cublas_ms"};
inline const Value<double> final_ms{"final_ms"};
inline const Value<double> copy_gbps{"copy_gbps"};
}  // namespace result

}  // namespace dot_product
