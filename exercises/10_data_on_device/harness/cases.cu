// Exercise 10 - the cases the check asks for: part 1 on pageable host arrays, part 2
// with the student's pinned buffers on a stream of the runner's own, part 3 with the
// student's managed buffers, each way of migrating them, and their kernels timed. They
// report what they found and decide nothing: harness/check.cpp judges (and counts the
// bytes copied).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "course/check/runner.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/streams.hpp"
#include "course/verify.hpp"
#include "data_on_device.hpp"
#include "managed_runs.cuh"
#include "workload.hpp"

namespace {

namespace asked = data_on_device::request;
namespace result = data_on_device::result;

// ---------------------------------------------------------------------------
// What kind of memory a pointer holds
// ---------------------------------------------------------------------------

cudaMemoryType memory_type(const void* pointer) {
  cudaPointerAttributes attributes{};
  if (pointer == nullptr || cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    cudaGetLastError();
    return cudaMemoryTypeUnregistered;
  }
  return attributes.type;
}

std::int64_t flag(bool value) { return value ? 1 : 0; }

// Part 1: one call of make_waveform_on_device on pageable host arrays.
void run_on_device_case(int n, std::uint64_t seed, course::check::ResultWriter& results) {
  const std::vector<float> noise = data_on_device::make_noise(n, seed);
  course::check::GuardedOutput<float> waveform(static_cast<std::size_t>(n));
  make_waveform_on_device(noise.data(), waveform.data(), n, data_on_device::lab_pulse_shape(n));
  waveform.report(results, result::waveform);
}

// Part 2: one set of buffers, several waveforms on a stream of the runner's own.
void run_pinned_case(course::check::ResultWriter& results, std::uint64_t seed) {
  using namespace data_on_device;
  WaveformBuffers buffers = allocate_waveform_buffers(kPinnedCapacity);
  const bool complete = buffers.host_noise != nullptr && buffers.host_waveform != nullptr &&
                        buffers.device_noise != nullptr && buffers.device_waveform != nullptr;
  results.put(result::buffers_allocated, flag(complete));
  if (!complete) return;
  results.put(result::staging_pinned,
              flag(memory_type(buffers.host_noise) == cudaMemoryTypeHost &&
                   memory_type(buffers.host_waveform) == cudaMemoryTypeHost));
  results.put(result::device_buffers_on_device,
              flag(memory_type(buffers.device_noise) == cudaMemoryTypeDevice &&
                   memory_type(buffers.device_waveform) == cudaMemoryTypeDevice));

  course::check::DeviceMemoryLedger& ledger = course::check::device_memory_ledger();
  std::int64_t changed_after_sync = 0, allocations_during_runs = 0;
  {
    // A non-blocking stream: nothing of the legacy default stream orders it for the student.
    const course::Streams own(1, cudaStreamNonBlocking);
    const cudaStream_t stream = own[0];
    for (int run = 0; run < kPinnedRuns; ++run) {
      const int n = kPinnedRunSamples[run];
      const std::vector<float> noise = make_pinned_run_noise(run, seed);
      std::memcpy(buffers.host_noise, noise.data(), noise.size() * sizeof(float));
      course::poison(buffers.host_waveform, static_cast<std::size_t>(kPinnedCapacity));
      std::size_t allocations_before = 0;
      {
        std::lock_guard<std::mutex> hold(ledger.lock);
        allocations_before = ledger.allocations;
      }
      make_waveform_pinned(buffers, n, pinned_run_shape(run), stream);
      // The result as the caller sees it the moment the call returns...
      const std::vector<float> at_return(buffers.host_waveform, buffers.host_waveform + n);
      {
        std::lock_guard<std::mutex> hold(ledger.lock);
        allocations_during_runs +=
            static_cast<std::int64_t>(ledger.allocations - allocations_before);
      }
      // ... and once everything queued has certainly ended.
      CUDA_CHECK(cudaDeviceSynchronize());
      for (int i = 0; i < n; ++i) {
        changed_after_sync += std::memcmp(&at_return[static_cast<std::size_t>(i)],
                                          &buffers.host_waveform[i], sizeof(float)) != 0;
      }
      results.put(result::pinned_waveform(std::to_string(run)), at_return);
    }
  }  // own, the stream, is destroyed here
  results.put(result::changed_after_sync, changed_after_sync);
  results.put(result::allocations_during_runs, allocations_during_runs);

  const float* host_noise = buffers.host_noise;
  const float* host_waveform = buffers.host_waveform;
  free_waveform_buffers(buffers);
  // Pinned memory that was freed is no longer registered with CUDA.
  results.put(result::pinned_still_allocated,
              flag(memory_type(host_noise) == cudaMemoryTypeHost ||
                   memory_type(host_waveform) == cudaMemoryTypeHost));
}

// Part 3: the managed buffers, allocated by the student and checked for what they are.
// False (and reported) when one of them is missing.
bool allocate_managed(int n, ManagedWaveform& buffers, course::check::ResultWriter& results) {
  buffers = allocate_managed_waveform(n);
  const bool complete = buffers.noise != nullptr && buffers.waveform != nullptr;
  results.put(result::managed_allocated, flag(complete));
  if (!complete) return false;
  results.put(result::buffers_managed,
              flag(memory_type(buffers.noise) == cudaMemoryTypeManaged &&
                   memory_type(buffers.waveform) == cudaMemoryTypeManaged));
  return true;
}

// Part 3: one waveform of kManagedSamples in managed memory, on_demand or prefetch, on a
// stream of the runner's own; then where each buffer was last prefetched.
void run_managed_case(const asked::Managed& p, std::uint64_t seed,
                      course::check::ResultWriter& results) {
  using namespace data_on_device;
  const bool prefetch = p.migration == asked::Migration::prefetch;
  const bool concurrent = has_concurrent_managed_access();
  results.put(result::concurrent_managed_access, flag(concurrent));
  if (prefetch && !concurrent) return;  // refused by this GPU: the check does not grade it
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  results.put(result::current_device, std::int64_t{device});

  const int n = kManagedSamples;
  ManagedWaveform buffers;
  if (!allocate_managed(n, buffers, results)) return;
  fill_on_host(buffers, make_noise(n, seed));
  std::int64_t changed_after_sync = 0;
  {
    const course::Streams own(1, cudaStreamNonBlocking);
    make_waveform_managed(buffers, lab_pulse_shape(n),
                          prefetch ? Migration::prefetch : Migration::on_demand, own[0]);
    // The result as the caller sees it the moment the call returns...
    const std::vector<float> at_return(buffers.waveform, buffers.waveform + n);
    // ... and once everything queued has certainly ended.
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      changed_after_sync += std::memcmp(&at_return[static_cast<std::size_t>(i)],
                                        &buffers.waveform[i], sizeof(float)) != 0;
    }
    results.put(result::managed_waveform, at_return);
  }  // own, the stream, is destroyed here
  results.put(result::managed_changed_after_sync, changed_after_sync);
  results.put(result::noise_prefetched_to, last_prefetch_location(buffers.noise, n));
  results.put(result::waveform_prefetched_to, last_prefetch_location(buffers.waveform, n));

  const float* noise = buffers.noise;
  const float* waveform = buffers.waveform;
  free_managed_waveform(buffers);
  // Managed memory that was freed is no longer registered with CUDA.
  results.put(result::managed_still_allocated,
              flag(memory_type(noise) == cudaMemoryTypeManaged ||
                   memory_type(waveform) == cudaMemoryTypeManaged));
}

// Part 3's speed: the kernels' time on managed memory without and with prefetching, and
// on cudaMalloc memory, at kManagedSpeedSamples; then samples of the prefetched result.
void run_managed_speed_case(std::uint64_t seed, course::check::ResultWriter& results) {
  using namespace data_on_device;
  const bool concurrent = has_concurrent_managed_access();
  results.put(result::concurrent_managed_access, flag(concurrent));
  if (!concurrent) return;

  const int n = kManagedSpeedSamples;
  const std::vector<float> noise = make_noise(n, seed);
  ManagedWaveform buffers;
  if (!allocate_managed(n, buffers, results)) return;
  {
    const course::Streams own(1, cudaStreamNonBlocking);
    const ManagedTimes times =
        time_three_ways(buffers, noise, lab_pulse_shape(n), kManagedSpeedRepetitions, own[0]);
    results.put(result::on_demand_kernel_ms, times.on_demand.kernels_ms);
    results.put(result::prefetch_kernel_ms, times.prefetch.kernels_ms);
    results.put(result::device_memory_kernel_ms, times.device_memory.kernels_ms);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> samples;
  for (const int i : managed_sample_indices(n)) samples.push_back(buffers.waveform[i]);
  results.put(result::prefetch_samples, samples);
  free_managed_waveform(buffers);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::on_device)) {
    run_on_device_case(p->n, request.seed, results);
  } else if (request.is(asked::pinned)) {
    run_pinned_case(results, request.seed);
  } else if (const auto p = request.as(asked::managed)) {
    run_managed_case(*p, request.seed, results);
  } else if (request.is(asked::managed_speed)) {
    run_managed_speed_case(request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
