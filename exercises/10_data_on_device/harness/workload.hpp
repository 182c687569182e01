// Exercise 10: what the student's program and its check must agree on - the lab's
// noisy pulse train (its shape, its noise drawn from a seed), the launch shape, and the
// results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// data_on_device.hpp includes it for the student's code.
//
// Used by:  make 10 && make run-10 (the program), make check-10 (the check)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

// Threads per block of every launch of this exercise.
inline constexpr int kThreadsPerBlock = 256;

// The pipeline, per sample i (the lab's make_pulses and add_ufunc, then exercise 09's
// zero suppression):
//   pulses[i]   = max(sin(i / period) - kPulseOffset, 0) * amplitude
//   waveform[i] = pulses[i] + noise[i]
//   waveform[i] = 0 where waveform[i] < threshold
struct PulseShape {
  float period = 0.0f;     // samples per radian: n / 23 in the lab
  float amplitude = 0.0f;  // 100 in the lab
  float threshold = 0.0f;  // 15, as in exercise 09
};

inline constexpr float kPulseOffset = 0.3f;

namespace data_on_device {

// The lab: 100000 samples, 23 radians of sine over the whole train, amplitude 100,
// Gaussian noise of standard deviation 3.
inline constexpr int kLabSamples = 100000;
inline constexpr double kRadiansPerTrain = 23.0;
inline constexpr float kLabAmplitude = 100.0f;
inline constexpr float kLabThreshold = 15.0f;
inline constexpr double kNoiseSigma = 3.0;

inline PulseShape lab_pulse_shape(int n) {
  return {static_cast<float>(n / kRadiansPerTrain), kLabAmplitude, kLabThreshold};
}

inline std::vector<float> make_noise(int n, std::uint64_t seed) {
  return course::random_normal_floats(static_cast<std::size_t>(n), 0.0, kNoiseSigma, seed);
}

// Part 2's check makes several waveforms with one set of buffers: the first fills
// them (large enough that the copies take a while: a result read before they end is
// caught), the others are smaller, with other amplitudes.
inline constexpr int kPinnedCapacity = (1 << 22) + 3;
inline constexpr int kPinnedRuns = 3;
inline constexpr int kPinnedRunSamples[kPinnedRuns] = {kPinnedCapacity, kLabSamples, 1};
inline constexpr float kPinnedRunAmplitudes[kPinnedRuns] = {100.0f, 80.0f, 120.0f};

inline PulseShape pinned_run_shape(int run) {
  PulseShape shape = lab_pulse_shape(kPinnedRunSamples[run]);
  shape.amplitude = kPinnedRunAmplitudes[run];
  return shape;
}

// Each run's noise comes from its own stream of the case's seed.
inline std::vector<float> make_pinned_run_noise(int run, std::uint64_t seed) {
  return make_noise(kPinnedRunSamples[run],
                    course::derive_seed(seed, static_cast<std::uint64_t>(run) + 1));
}

// Part 3's check: the values at a size not a multiple of the block, then the speed at a
// size where page faults cost far more than the kernels (128 MiB a buffer, 256 MiB of
// managed memory in all: well within any course GPU, never oversubscribed).
inline constexpr int kManagedSamples = (1 << 22) + 3;
inline constexpr int kManagedSpeedSamples = 1 << 25;
inline constexpr int kManagedSpeedRepetitions = 3;
// The speed case checks one sample in this many (and the last) against the reference:
// the whole waveform would be 128 MB of results.
inline constexpr int kManagedSampleStride = 4099;

// Where a managed buffer was last prefetched (cudaMemRangeAttributeLastPrefetchLocation*):
// a device ordinal, or one of these.
inline constexpr std::int64_t kPrefetchedToHost = -1;
inline constexpr std::int64_t kNeverPrefetched = -2;

// The indices the speed case reports, in order.
inline std::vector<int> managed_sample_indices(int n) {
  std::vector<int> indices;
  for (int i = 0; i < n; i += kManagedSampleStride) indices.push_back(i);
  if (n > 0 && indices.back() != n - 1) indices.push_back(n - 1);
  return indices;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
struct OnDevice {
  int n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
// data_on_device.hpp's Migration, which the check (compiled without it) names here.
enum class Migration { on_demand, prefetch };
inline std::vector<std::pair<Migration, std::string>> choices(Migration) {
  return {{Migration::on_demand, "on_demand"}, {Migration::prefetch, "prefetch"}};
}
struct Managed {
  Migration migration = Migration::on_demand;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("migration", migration);
  }
};
// Part 1: make_waveform_on_device on n samples (pageable host arrays).
inline const course::check::Request<OnDevice> on_device{"on_device"};
// Part 2: the pinned buffers and kPinnedRuns waveforms made with them.
inline const course::check::Request<course::check::NoParams> pinned{"pinned"};
// Part 3: one waveform of kManagedSamples in managed memory, and the managed buffers' speed.
inline const course::check::Request<Managed> managed{"managed"};
inline const course::check::Request<course::check::NoParams> managed_speed{"managed_speed"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// Part 1: make_waveform_on_device's output, guarded.
inline const course::check::Array<float> waveform{"waveform"};
// Part 2: waveform0, waveform1, ...: each run's result the moment make_waveform_pinned
// returned.
inline const course::check::Family<course::check::Array<float>> pinned_waveform{"waveform", ""};
// Part 2's flags (1 or 0) and counts.
inline const course::check::Value<std::int64_t> buffers_allocated{"buffers_allocated"};
inline const course::check::Value<std::int64_t> staging_pinned{"staging_pinned"};
inline const course::check::Value<std::int64_t> device_buffers_on_device{
    "device_buffers_on_device"};
// Samples of host_waveform that changed between the return and a device-wide sync.
inline const course::check::Value<std::int64_t> changed_after_sync{"changed_after_sync"};
inline const course::check::Value<std::int64_t> allocations_during_runs{"allocations_during_runs"};
inline const course::check::Value<std::int64_t> pinned_still_allocated{"pinned_still_allocated"};
// Part 3: whether this GPU can migrate managed pages while kernels run (1 or 0); without
// it, prefetching to the device is refused, and the cases that need it are not graded.
inline const course::check::Value<std::int64_t> concurrent_managed_access{
    "concurrent_managed_access"};
inline const course::check::Value<std::int64_t> managed_allocated{"managed_allocated"};
inline const course::check::Value<std::int64_t> buffers_managed{"buffers_managed"};
inline const course::check::Value<std::int64_t> managed_still_allocated{"managed_still_allocated"};
// The waveform the moment make_waveform_managed returned, and the samples of it that
// changed between the return and a device-wide sync.
inline const course::check::Array<float> managed_waveform{"managed_waveform"};
inline const course::check::Value<std::int64_t> managed_changed_after_sync{
    "managed_changed_after_sync"};
// Where each buffer was last prefetched, and the device the kernels ran on.
inline const course::check::Value<std::int64_t> current_device{"current_device"};
inline const course::check::Value<std::int64_t> noise_prefetched_to{"noise_prefetched_to"};
inline const course::check::Value<std::int64_t> waveform_prefetched_to{"waveform_prefetched_to"};
// The speed case: median kernel times (the student's launches, timed with events) of the
// pipeline on managed memory without and with prefetching, and on cudaMalloc buffers
// filled by cudaMemcpy; the prefetched run's samples at managed_sample_indices.
inline const course::check::Value<double> on_demand_kernel_ms{"on_demand_kernel_ms"};
inline const course::check::Value<double> prefetch_kernel_ms{"prefetch_kernel_ms"};
inline const course::check::Value<double> device_memory_kernel_ms{"device_memory_kernel_ms"};
inline const course::check::Array<float> prefetch_samples{"prefetch_samples"};
}  // namespace result

}  // namespace data_on_device
