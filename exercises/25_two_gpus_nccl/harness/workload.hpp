// Exercise 25: what a run computes on, what it must find, and what a case reports.
// The program that runs the student's code and the check that judges it both include this
// file, so the same seed gives both the same inputs and a result has one name.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

#if defined(__CUDACC__)
#define TWO_GPUS_NCCL_HOST_DEVICE __host__ __device__
#else
#define TWO_GPUS_NCCL_HOST_DEVICE
#endif

namespace two_gpus_nccl {

// ---------------------------------------------------------------------------
// The density: a smoothed histogram of the samples
// ---------------------------------------------------------------------------
// Bin j has its centre in [-kRange, kRange]; each sample adds exp(-((x - centre) / h)^2 / 2)
// to every bin, h = 1 / kInverseBandwidth: a Gaussian kernel density estimate, up to its
// constant factor. Every sample touches every bin, so the work grows with samples x bins
// while the result (bins floats) stays small: what NCCL must sum is tiny next to what
// each GPU computes.
inline constexpr float kRange = 4.0f;
inline constexpr float kInverseBandwidth = 10.0f;  // h = 0.1
// The course's kernel (harness/density.cu): one thread per bin sums the samples of one
// chunk of this many, then adds its sum into the bin.
inline constexpr int kChunkSamples = 2048;

TWO_GPUS_NCCL_HOST_DEVICE inline float bin_centre(int bin, int bins) {
  return -kRange + 2.0f * kRange * (static_cast<float>(bin) + 0.5f) / static_cast<float>(bins);
}

// Samples from a normal distribution (a bell-shaped density), never all alike.
inline std::vector<float> make_samples(std::size_t n, std::uint64_t seed) {
  return course::random_normal_floats(n, 0.0, 1.0, seed);
}

// The density of every sample at each bin, in double precision.
inline std::vector<double> reference_density(const std::vector<float>& samples, int bins) {
  std::vector<double> density(static_cast<std::size_t>(bins), 0.0);
  for (int j = 0; j < bins; ++j) {
    const double centre = bin_centre(j, bins);
    double sum = 0.0;
    for (const float x : samples) {
      const double t = (x - centre) * static_cast<double>(kInverseBandwidth);
      sum += std::exp(-0.5 * t * t);
    }
    density[static_cast<std::size_t>(j)] = sum;
  }
  return density;
}

// The tolerance of a density of `total` samples (however the GPUs share them).
// Every term is positive, so the sum is perfectly conditioned: float summation of m terms
// in any order is off by at most (m - 1) u of the sum (u = 2^-24), and the longest chain
// of additions into a bin is one chunk's samples, then one atomicAdd per chunk, then the
// all-reduce's one addition per GPU. Each term adds its own error: the rounding of
// (x - centre) * 10 and its square, a * 5u relative in exp(-a), at most 5u / e absolute,
// plus expf's 2 ulp. Twice the bound, for the second-order terms.
inline course::Tolerance density_tolerance(std::size_t total) {
  const double u = std::ldexp(1.0, -24);
  const double chunks = std::ceil(static_cast<double>(total) / kChunkSamples);
  const double chain = kChunkSamples + chunks + 2 + 4;
  return course::Tolerance{2.0 * 2.0 * u * static_cast<double>(total), 2.0 * chain * u};
}

// ---------------------------------------------------------------------------
// Copies and the all-reduce
// ---------------------------------------------------------------------------

// What a copy moves: values of both signs, never all zero.
inline std::vector<float> make_values(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -10.0f, 10.0f, seed);
}

// The sum of two float buffers, each rounded once: what NCCL's float sum gives exactly.
// |a + b| <= 20, so one rounding is at most 20 u < 1.3e-6.
inline constexpr course::Tolerance kSumTolerance{2e-6, 0.0};

// Part 3: the GPU rank r joins on. Not r itself, so that a rank put on the device of its
// own number shows (across nodes, rank numbers go beyond a node's GPUs).
inline int join_device(int rank, int ranks) { return ranks - 1 - rank; }

// The speed case compares this many bins, spread over all, with the CPU.
inline constexpr std::size_t kSpeedCheckedBins = 8;

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// enable_peer_access both ways, twice, from a fresh process's state.
inline const course::check::Request<course::check::NoParams> peer_access{"peer_access"};
// A copy of n floats from device 0 to device 1: peer_copy, or staged_copy through the host.
enum class Copy { peer, staged };
inline std::vector<std::pair<Copy, std::string>> choices(Copy) {
  return {{Copy::peer, "peer"}, {Copy::staged, "staged"}};
}
struct CopyParams {
  std::uint64_t n = 0;
  Copy kind = Copy::peer;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("kind", kind);
  }
};
inline const course::check::Request<CopyParams> copy{"copy"};
// An all-reduce of n floats per device: on create_communicators' communicators, or on the
// one the ranks join, each from its own thread.
struct Elements {
  std::uint64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const course::check::Request<Elements> all_reduce{"all_reduce"};
inline const course::check::Request<Elements> join{"join"};
// data_parallel_density on n samples and `bins` bins.
struct Density {
  std::int64_t n = 0;
  std::int64_t bins = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("bins", bins);
  }
};
inline const course::check::Request<Density> density{"density"};
// The same step on two GPUs and on device 0 alone, in turns, `repetitions` times.
struct Speed {
  std::int64_t n = 0;
  std::int64_t bins = 0;
  std::int64_t repetitions = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("bins", bins), visit("repetitions", repetitions);
  }
};
inline const course::check::Request<Speed> speed{"speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
using course::check::Array;
using course::check::Value;

inline const Value<std::int64_t> devices{"devices"};  // CUDA devices the program sees
// Part 1: enable_peer_access, each way ("0_1": device 0 reads device 1)
inline const Value<std::int64_t> can_access_0_1{"can_access_0_1"};  // cudaDeviceCanAccessPeer
inline const Value<std::int64_t> can_access_1_0{"can_access_1_0"};
inline const Value<std::int64_t> returned_0_1{"returned_0_1"};  // what the student returned
inline const Value<std::int64_t> returned_1_0{"returned_1_0"};
inline const Value<std::int64_t> returned_again{"returned_again"};  // both, called twice
inline const Value<std::int64_t> left_error{"left_error"};    // cudaGetLastError not clear after
inline const Value<std::int64_t> enabled_0_1{"enabled_0_1"};  // left enabled afterwards
inline const Value<std::int64_t> enabled_1_0{"enabled_1_0"};
// The copies: what arrived, and the bytes the copy itself moved through the host.
inline const Array<float> copied{"copied"};
inline const Value<std::int64_t> host_bytes_in{"host_bytes_in"};    // device -> host
inline const Value<std::int64_t> host_bytes_out{"host_bytes_out"};  // host -> device
inline const Value<std::int64_t> busy_streams{"busy_streams"};      // streams not done on return
// Part 2
inline const Array<float> sum_0{"sum_0"};  // after all_reduce_sum, on device 0 (part 3: rank 0's)
inline const Array<float> sum_1{"sum_1"};  // on device 1 (part 3: rank 1's)
inline const Array<float> density_0{"density_0"};  // after data_parallel_density
inline const Array<float> density_1{"density_1"};
inline const Value<std::int64_t> communicators{"communicators"};  // created, not null
// Part 3, per rank r of the communicators join_communicator returned: what NCCL says of
// it (ncclCommUserRank, ncclCommCuDevice, ncclCommCount).
inline const Array<std::int64_t> joined_ranks{"joined_ranks"};
inline const Array<std::int64_t> joined_devices{"joined_devices"};
inline const Array<std::int64_t> joined_counts{"joined_counts"};
// The speed case: both times of the same work, and the density bins it compared.
inline const Value<double> one_gpu_ms{"one_gpu_ms"};
inline const Value<double> two_gpus_ms{"two_gpus_ms"};
inline const Array<float> sampled_density{"sampled_density"};
}  // namespace result

}  // namespace two_gpus_nccl
