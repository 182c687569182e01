// Exercise 15: what the student's program and its check must agree on - how the CPU
// versions draw their samples, the points that test the quarter-disc predicate, the
// estimate of pi with its standard error, the CPU's reference count, and the results a
// case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// monte_carlo_pi.hpp includes it for the student's code.
//
// Used by:  make 15 && make run-15 (the program), make check-15 (the check)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

namespace monte_carlo_pi {

inline constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// The CPU's samples
// ---------------------------------------------------------------------------

// The CPU versions cut the n samples into chunks of this many: chunk c holds samples
// c * kCpuChunkSamples up to (c + 1) * kCpuChunkSamples - 1 (the last one may be
// shorter) and draws them from its own generator, chunk_generator(seed, c). The draw
// therefore does not depend on how many threads share the chunks out: the serial loop
// and the OpenMP loop, with any number of threads, count exactly the same hits.
inline constexpr std::uint64_t kCpuChunkSamples = std::uint64_t{1} << 16;

// The generator of chunk `chunk` (course::Rng is SplitMix64, course/data.hpp). Each
// sample draws x, then y, both with rng.uniform(0.0f, 1.0f).
inline course::Rng chunk_generator(std::uint64_t seed, std::uint64_t chunk) {
  return course::Rng(course::derive_seed(seed, chunk));
}

// ---------------------------------------------------------------------------
// Points that test in_quarter_disc(x, y)
// ---------------------------------------------------------------------------

struct TestPoint {
  float x;
  float y;
};

// The check asks the student's predicate about these points and compares with its own
// answer. The first one is a corner curand_uniform can return (it returns values in
// (0, 1], and 2^-33 is its smallest): x^2 + y^2 = 1 + 2^-66 rounds to exactly 1.0, so
// it is inside with "<= 1" and outside with "< 1". The next two lie within a few float
// ulp outside the circle: their x^2 + y^2 rounds to 1.0f in float arithmetic, fused or
// not, but is above 1 in double, where it is computed exactly before one rounding.
inline constexpr TestPoint kTestPoints[] = {
    {1.0f, 0x1p-33f},                  // x^2 + y^2 rounds to exactly 1: inside
    {0x1.333336p-1f, 0x1.999998p-1f},  // 0.60000008, 0.79999995: 1 + 2.4e-8, outside
    {0x1.333338p-1f, 0x1.999996p-1f},  // 0.60000014, 0.79999989: 1 + 3.2e-14, outside
    {0x1.6a09e6p-1f, 0x1.6a09e6p-1f},  // 0.70710677 twice: 1 - 3e-8, inside
    {0x1p-33f, 0x1p-33f},              // the smallest point curand_uniform draws: inside
    {1.0f, 1.0f},                      // the far corner: outside
    {0.5f, 0.5f},                      // plainly inside
    {0.25f, 1.0f},                     // on the edge of the square, outside the disc
};

// ---------------------------------------------------------------------------
// The estimate
// ---------------------------------------------------------------------------

// A point uniform in the unit square falls in the quarter disc with probability
// p = pi / 4, so pi ~ 4 hits / n. With no sample there is no estimate: 0 by convention.
inline double pi_estimate(std::uint64_t hits, std::uint64_t n) {
  return n == 0 ? 0.0 : 4.0 * static_cast<double>(hits) / static_cast<double>(n);
}

// The hit count is binomial(n, p): the estimate's standard error is
// 4 sqrt(p (1 - p) / n), here with the observed p = hits / n (0 when n = 0).
inline double standard_error(std::uint64_t hits, std::uint64_t n) {
  if (n == 0) return 0.0;
  const double p = static_cast<double>(hits) / static_cast<double>(n);
  return 4.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(n));
}

// The standard error with the true p = pi / 4: what the check uses to judge an
// estimate, since a wrong count can make the observed p 0 or 1 and its error 0.
inline double expected_standard_error(std::uint64_t n) {
  const double p = kPi / 4.0;
  return n == 0 ? 0.0 : 4.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(n));
}

// ---------------------------------------------------------------------------
// The reference: in_quarter_disc and the CPU's count, replayed (for the check, and for
// the demo before it shows a time)
// ---------------------------------------------------------------------------

inline bool reference_in_quarter_disc(float x, float y) {
  const double dx = x;
  const double dy = y;
  return dx * dx + dy * dy <= 1.0;
}

inline std::uint64_t cpu_reference_hits(std::uint64_t n, std::uint64_t seed) {
  std::uint64_t hits = 0;
  for (std::uint64_t first = 0, chunk = 0; first < n; first += kCpuChunkSamples, ++chunk) {
    course::Rng rng = chunk_generator(seed, chunk);
    const std::uint64_t end = std::min(n, first + kCpuChunkSamples);
    for (std::uint64_t i = first; i < end; ++i) {
      const float x = rng.uniform(0.0f, 1.0f);
      const float y = rng.uniform(0.0f, 1.0f);
      if (reference_in_quarter_disc(x, y)) ++hits;
    }
  }
  return hits;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// in_quarter_disc for each of kTestPoints.
inline const course::check::Request<course::check::NoParams> predicate{"predicate"};

// count_hits_cpu on n samples.
struct Count {
  std::uint64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const course::check::Request<Count> cpu{"cpu"};

// count_hits_cpu_openmp on n samples with `threads` threads.
struct OpenmpCount {
  std::uint64_t n = 0;
  int threads = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("threads", threads);
  }
};
inline const course::check::Request<OpenmpCount> cpu_openmp{"cpu_openmp"};

// n samples counted on blocks x threads_per_block threads: by the course's reference
// kernel (reference_gpu.cuh), or by count_hits_gpu.
struct Launch {
  std::uint64_t n = 0;
  std::int64_t blocks = 1;
  std::int64_t threads_per_block = 32;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("blocks", blocks), visit("threads_per_block", threads_per_block);
  }
};
inline const course::check::Request<Launch> reference{"reference"};
inline const course::check::Request<Launch> gpu{"gpu"};

// count_hits_gpu with the case's seed twice, then with other_seed.
struct Seeds {
  Launch launch;
  std::uint64_t other_seed = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    launch.fields(visit), visit("other_seed", other_seed);
  }
};
inline const course::check::Request<Seeds> gpu_seeds{"gpu_seeds"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// in_quarter_disc for each of kTestPoints: 1 inside, 0 outside.
inline const course::check::Array<std::int32_t> inside{"inside"};
// A count of hits; the seeds case adds the same seed's count again and another seed's.
inline const course::check::Value<std::int64_t> hits{"hits"};
inline const course::check::Value<std::int64_t> hits_again{"hits_again"};
inline const course::check::Value<std::int64_t> hits_other_seed{"hits_other_seed"};
}  // namespace result

}  // namespace monte_carlo_pi
