// Exercise 10 - the cases the check asks for: part 1 on pageable host arrays, part 2
// with the student's pinned buffers on a stream of the runner's own. They report what
// they found and decide nothing: harness/check.cpp judges (and counts the bytes copied).
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
#include "workload.hpp"

namespace {

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
void run_on_device_case(const course::check::CaseRequest& request,
                        course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const std::vector<float> noise = data_on_device::make_noise(n, request.seed);
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

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.name == "on_device") {
    run_on_device_case(request, results);
  } else if (request.name == "pinned") {
    run_pinned_case(results, request.seed);
  } else {
    course::check::unknown_case(request);
  }
}
