// Exercise 14: what the student's program and its check must agree on - the lab's
// sizes and launch configurations, the inputs of every run, drawn from a seed, the
// reference counts, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// histogram.hpp includes it for the student's code.
//
// Used by:  make 14 && make run-14 (the program), make check-14 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

// The lab's counter: 64 blocks of 64 threads, each adding 1.
inline constexpr int kLabCounterBlocks = 64;
inline constexpr int kLabCounterThreads = 64;

// The lab's histogram: 10000 values from a standard normal distribution, 10 bins over
// [-4, 4), launched on 128 blocks of 64 threads.
inline constexpr int kLabElements = 10000;
inline constexpr float kLabLo = -4.0f;
inline constexpr float kLabHi = 4.0f;
inline constexpr int kLabBins = 10;
inline constexpr int kLabBlocks = 128;
inline constexpr int kLabThreadsPerBlock = 64;

// The most bins a histogram may have: 4096 ints are 16 KiB of shared memory per block,
// well within the 48 KiB a block gets without asking.
inline constexpr int kMaxBins = 4096;

namespace histogram {

// The lab's data.
inline std::vector<float> make_lab_input(int n, std::uint64_t seed) {
  return course::random_normal_floats(static_cast<std::size_t>(n), 0.0, 1.0, seed);
}

// Values on a grid of step (hi - lo) / 2^16, from (hi - lo) / 16 below lo to as much
// above hi: about one value in nine is out of range. With hi - lo a power of two and a
// bin count whose odd part is below 2^7, (v - lo) * (bins / (hi - lo)) is then exact in
// float, so that every correct formula puts every value in the same bin.
inline constexpr int kGridBits = 16;
inline constexpr int kOutsideSteps = 1 << (kGridBits - 4);

inline std::vector<float> make_uniform_input(int n, float lo, float hi, std::uint64_t seed) {
  course::Rng rng(seed);
  const double step = (static_cast<double>(hi) - lo) / (1 << kGridBits);
  std::vector<float> values(static_cast<std::size_t>(n));
  for (auto& v : values) {
    const std::int64_t k = rng.uniform_int(-kOutsideSteps, (1 << kGridBits) + kOutsideSteps - 1);
    v = static_cast<float>(lo + step * static_cast<double>(k));
  }
  return values;
}

// Every value in the middle of one bin: the worst case for atomics, all on one counter.
inline std::vector<float> make_skewed_input(int n, float lo, float hi, int bins, int bin) {
  const double width = (static_cast<double>(hi) - lo) / bins;
  return std::vector<float>(static_cast<std::size_t>(n),
                            static_cast<float>(lo + width * (bin + 0.5)));
}

// The bin the skewed inputs fill: a third of the way up, neither the first nor the last.
inline int skewed_bin(int bins) { return bins / 3; }

// Values on and around the bin edges, for two ranges:
//   set 0: [0, 1024), 1024 bins of width 1: every edge j, the float just below it (in
//          bin j - 1: exact, since v - 0 needs no rounding), 1024 itself (out of range);
//   set 1: [-1, 1), 16 bins: every edge, the float just below 1 (for which
//          (v - lo) * scale rounds up to exactly 16 = bins: the last bin, by the clamp).
// Both add values far outside, infinities and NaN, none of which may be counted, and
// -0.0, which equals 0 and is counted like it. The list is repeated, so that it is longer
// than a block.
struct EdgeSet {
  float lo, hi;
  int bins;
};
inline constexpr EdgeSet kEdgeSets[] = {{0.0f, 1024.0f, 1024}, {-1.0f, 1.0f, 16}};
inline constexpr int kEdgeRepeats = 3;

inline std::vector<float> make_edge_input(int set) {
  const EdgeSet& e = kEdgeSets[set];
  const float infinity = std::numeric_limits<float>::infinity();
  std::vector<float> once;
  for (int j = 0; j <= e.bins; ++j) {
    const float edge = static_cast<float>(e.lo + (static_cast<double>(e.hi) - e.lo) * j / e.bins);
    once.push_back(edge);
    if (set == 0 || j == 0 || j == e.bins) once.push_back(std::nextafter(edge, -infinity));
  }
  for (const float v :
       {-1e30f, 1e30f, infinity, -infinity, std::numeric_limits<float>::quiet_NaN(), -0.0f}) {
    once.push_back(v);
  }
  std::vector<float> values;
  for (int r = 0; r < kEdgeRepeats; ++r) values.insert(values.end(), once.begin(), once.end());
  return values;
}

// The input of a check case, by kind: "lab", "uniform", "skewed", "edges0" or "edges1"
// (n, lo, hi and bins are ignored where the kind fixes them). False for an unknown kind.
inline bool make_input(const std::string& kind, int n, float lo, float hi, int bins,
                       std::uint64_t seed, std::vector<float>& values) {
  if (kind == "lab") {
    values = make_lab_input(n, seed);
  } else if (kind == "uniform") {
    values = make_uniform_input(n, lo, hi, seed);
  } else if (kind == "skewed") {
    values = make_skewed_input(n, lo, hi, bins, skewed_bin(bins));
  } else if (kind == "edges0" || kind == "edges1") {
    values = make_edge_input(kind == "edges0" ? 0 : 1);
  } else {
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// The reference: histogram.hpp's rule, in the same float operations, so that it agrees
// with a correct student to the count on every input (the check's, and the demo's
// before it shows a time). On the check's own inputs, the uniform, skewed and edge
// values, those float operations are exact, so the rule also agrees with
// floor((v - lo) * bins / (hi - lo)) computed without rounding.
// ---------------------------------------------------------------------------
inline int reference_bin(float v, float lo, float hi, int bins) {
  if (!(v >= lo && v < hi)) return -1;
  const float scale = static_cast<float>(bins) / (hi - lo);
  const int bin = static_cast<int>((v - lo) * scale);
  return bin < bins ? bin : bins - 1;
}

inline std::vector<std::int32_t> reference_counts(const std::vector<float>& x, float lo, float hi,
                                                  int bins) {
  std::vector<std::int32_t> counts(static_cast<std::size_t>(bins), 0);
  for (const float v : x) {
    const int bin = reference_bin(v, lo, hi, bins);
    if (bin >= 0) ++counts[static_cast<std::size_t>(bin)];
  }
  return counts;
}

// ---------------------------------------------------------------------------
// The largest value (atomic_max_float), on inputs without NaN, by kind:
//   "random":     uniform over [-1000, 1000), negatives and positives;
//   "negative":   uniform over [-1000, -1), every value negative: the bits of a negative
//                 float, read as an int, order backwards (atomicMax on them is no float max);
//   "equal":      every value kEqualValue (negative too);
//   "increasing": x[i] = i - n / 2, each value larger than every one before it, the
//                 largest last: every call raises the maximum, so threads contend on it.
// False for an unknown kind.
// ---------------------------------------------------------------------------
inline constexpr float kEqualValue = -2.5f;

inline bool make_max_input(const std::string& kind, int n, std::uint64_t seed,
                           std::vector<float>& values) {
  const std::size_t count = static_cast<std::size_t>(n);
  if (kind == "random") {
    values = course::random_floats(count, -1000.0f, 1000.0f, seed);
  } else if (kind == "negative") {
    values = course::random_floats(count, -1000.0f, -1.0f, seed);
  } else if (kind == "equal") {
    values.assign(count, kEqualValue);
  } else if (kind == "increasing") {
    values.resize(count);
    for (int i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i - n / 2);
  } else {
    return false;
  }
  return true;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// count_threads_atomic<<<blocks, threads>>> on a counter set to 0.
struct Counter {
  int blocks = 0;
  int threads = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("blocks", blocks), visit("threads", threads);
  }
};
inline const course::check::Request<Counter> counter{"counter"};

// A histogram's input (make_input) and range.
struct Histogram {
  std::string input;  // "lab", "uniform", "skewed", "edges0", "edges1"
  int n = 0;
  float lo = 0.0f, hi = 0.0f;
  int bins = 0;
  // Values after the n of the input, which the launchers must not read: each is lo, in
  // the first bin, so that a kernel that reads past x[n - 1] counts too many.
  int padding = 0;
  // The input starts this many floats into its device buffer: not 16-byte aligned
  // unless a multiple of 4.
  int offset = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("input", input), visit("n", n), visit("lo", lo), visit("hi", hi), visit("bins", bins),
        visit("padding", padding), visit("offset", offset);
  }
};
// histogram_cpu.
inline const course::check::Request<Histogram> cpu{"cpu"};

// A GPU launcher on blocks x threads threads.
struct Launch {
  Histogram histogram;
  int blocks = 0;
  int threads = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    histogram.fields(visit), visit("blocks", blocks), visit("threads", threads);
  }
};
// histogram_global_on_device, histogram_shared_on_device.
inline const course::check::Request<Launch> global{"global"};
inline const course::check::Request<Launch> shared{"shared"};

// Both launchers timed, each round the median of `repetitions` calls.
struct Speed {
  Launch launch;
  int repetitions = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    launch.fields(visit), visit("repetitions", repetitions);
  }
};
inline const course::check::Request<Speed> speed{"speed"};

// `launches` calls of max_on_device on the same input (make_max_input).
struct Max {
  std::string input;  // "random", "negative", "equal", "increasing"
  int n = 0;
  int blocks = 0, threads = 0;
  int launches = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("input", input), visit("n", n), visit("blocks", blocks), visit("threads", threads),
        visit("launches", launches);
  }
};
inline const course::check::Request<Max> max{"max"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// The counter after count_threads_atomic (one element).
inline const course::check::Array<std::int32_t> counter{"counter"};
// The bins counts of histogram_cpu or of one GPU launcher.
inline const course::check::Array<std::int32_t> counts{"counts"};
// The speed case: the counts of each launcher, and the best median time of each, in
// milliseconds.
inline const course::check::Array<std::int32_t> global_counts{"global_counts"};
inline const course::check::Array<std::int32_t> shared_counts{"shared_counts"};
inline const course::check::Value<double> global_ms{"global_ms"};
inline const course::check::Value<double> shared_ms{"shared_ms"};
// The maximum's case: *maximum after each launch of max_on_device (one per launch), and
// the previous array of every launch, one after the other (n per launch).
inline const course::check::Array<float> maxima{"maxima"};
inline const course::check::Array<float> previous{"previous"};
}  // namespace result

}  // namespace histogram
