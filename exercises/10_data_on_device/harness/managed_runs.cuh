// Exercise 10 - part 3's runs, shared by the demo and the check's cases: the managed
// buffers filled on the host, the student's make_waveform_managed with its kernels timed
// one by one, the same kernels on cudaMalloc memory for comparison, and where a buffer
// was last prefetched.
//
// Used by:  make run-10 (harness/demo.cu), make check-10 (harness/cases.cu)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "course/bench.hpp"
#include "course/check/device_accounting.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "data_on_device.hpp"
#include "workload.hpp"

namespace data_on_device {

// Whether this GPU migrates managed pages while kernels run (Pascal and newer, on Linux):
// without it, prefetching to the device is refused and page faults do not happen (the
// driver moves every managed page at each launch instead).
inline bool has_concurrent_managed_access() {
  int device = 0, value = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrConcurrentManagedAccess, device));
  return value != 0;
}

// The host writes the noise and poisons the waveform, so that before each call both
// buffers' pages are on the host, as in a program whose host has just made its input
// (and a sample the kernels never wrote is seen as such).
inline void fill_on_host(ManagedWaveform& buffers, const std::vector<float>& noise) {
  std::memcpy(buffers.noise, noise.data(), noise.size() * sizeof(float));
  course::poison(buffers.waveform, static_cast<std::size_t>(buffers.n));
}

// Where the range was last prefetched (cudaMemPrefetchAsync's location): a device
// ordinal, kPrefetchedToHost, or kNeverPrefetched (also when its pages went to
// different places).
inline std::int64_t last_prefetch_location(const float* pointer, int n) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  cudaMemLocationType type = cudaMemLocationTypeInvalid;
  int id = 0;
  if (cudaMemRangeGetAttribute(&type, sizeof(type), cudaMemRangeAttributeLastPrefetchLocationType,
                               pointer, bytes) != cudaSuccess ||
      cudaMemRangeGetAttribute(&id, sizeof(id), cudaMemRangeAttributeLastPrefetchLocationId,
                               pointer, bytes) != cudaSuccess) {
    cudaGetLastError();
    return kNeverPrefetched;
  }
  switch (type) {
    case cudaMemLocationTypeDevice: return id;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: return kPrefetchedToHost;
    default: return kNeverPrefetched;
  }
}

// One timed call: the milliseconds of its kernels alone (CUDA events around each launch,
// course/check/device_accounting.hpp; -1 when some could not be timed) and of the whole
// call, prefetches and synchronisation included (host clock).
struct CallTimes {
  double kernels_ms = 0.0;
  double call_ms = 0.0;
};

// make_waveform_managed on buffers the host has just filled.
inline CallTimes time_managed_call(ManagedWaveform& buffers, const std::vector<float>& noise,
                                   const PulseShape& shape, Migration migration,
                                   cudaStream_t stream) {
  fill_on_host(buffers, noise);
  CallTimes times;
  course::check::StudentKernelTimer timer;
  const course::WallTimer call;
  make_waveform_managed(buffers, shape, migration, stream);
  times.call_ms = call.elapsed_ms();
  times.kernels_ms = timer.total_ms();
  return times;
}

// The same kernels (the student's enqueue_pipeline) on cudaMalloc buffers, the noise
// copied in and the waveform out with cudaMemcpy: memory that never migrates.
inline CallTimes time_device_memory_call(course::DeviceBuffer<float>& device_noise,
                                         course::DeviceBuffer<float>& device_waveform,
                                         const std::vector<float>& noise,
                                         std::vector<float>& waveform, const PulseShape& shape,
                                         cudaStream_t stream) {
  const int n = static_cast<int>(noise.size());
  const std::size_t bytes = noise.size() * sizeof(float);
  CallTimes times;
  course::check::StudentKernelTimer timer;
  const course::WallTimer call;
  course::copy_to_device(device_noise.data(), noise.data(), noise.size());  // before `stream` reads
  enqueue_pipeline(device_noise.data(), device_waveform.data(), n, shape, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaMemcpy(waveform.data(), device_waveform.data(), bytes, cudaMemcpyDeviceToHost));
  times.call_ms = call.elapsed_ms();
  times.kernels_ms = timer.total_ms();
  return times;
}

// The medians of `repetitions` runs of each way, interleaved so that a drift of the
// clocks touches all three alike. The buffers hold the last prefetched run's result.
struct ManagedTimes {
  CallTimes on_demand, prefetch, device_memory;
};

inline double median_or_untimed(const std::vector<double>& samples) {
  for (const double ms : samples) {
    if (!(ms > 0.0)) return -1.0;
  }
  return course::median(samples);
}

inline ManagedTimes time_three_ways(ManagedWaveform& buffers, const std::vector<float>& noise,
                                    const PulseShape& shape, int repetitions, cudaStream_t stream) {
  course::DeviceBuffer<float> device_noise(noise.size()), device_waveform(noise.size());
  std::vector<float> waveform(noise.size());
  std::vector<double> samples[6];
  for (int r = 0; r < repetitions; ++r) {
    const CallTimes runs[3] = {
        time_device_memory_call(device_noise, device_waveform, noise, waveform, shape, stream),
        time_managed_call(buffers, noise, shape, Migration::on_demand, stream),
        time_managed_call(buffers, noise, shape, Migration::prefetch, stream)};
    for (int way = 0; way < 3; ++way) {
      samples[2 * way].push_back(runs[way].kernels_ms);
      samples[2 * way + 1].push_back(runs[way].call_ms);
    }
  }
  const auto way = [&](int w) {
    return CallTimes{median_or_untimed(samples[2 * w]), median_or_untimed(samples[2 * w + 1])};
  };
  return ManagedTimes{way(1), way(2), way(0)};
}

}  // namespace data_on_device
