// Exercise 10 - part 3's runs, shared by the demo and the check's cases: the managed
// buffers filled on the host, the student's make_waveform_managed with its kernels timed
// one by one (each call audited in the check: course/check/timed_call.hpp), the same
// kernels on cudaMalloc memory for comparison, and where a buffer was last prefetched.
//
// Used by:  make run-10 (harness/demo.cu), make check-10 (harness/cases.cu)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "course/bench.hpp"
#include "course/check/device_accounting.hpp"
#include "course/check/timed_call.hpp"
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

// make_waveform_managed on buffers the host has just filled: `call` is it as a
// course::check::student_call, timed call `index` of `repetitions`, audited in a check's
// case (course/check/timed_call.hpp) and plain in the demo, where nothing is tracked. The
// audit's hooks stand where course::time_device puts them: before the timers start, the
// other streams joined before the timers stop, what the call did looked at once they did.
template <typename Call>
CallTimes time_managed_call(Call& call, int index, int repetitions, ManagedWaveform& buffers,
                            const std::vector<float>& noise, cudaStream_t stream) {
  fill_on_host(buffers, noise);
  call.before_timed_call(index, repetitions);
  CallTimes times;
  {
    course::check::StudentKernelTimer timer;
    const course::WallTimer wall;
    call();
    call.join_other_streams(stream);
    times.call_ms = wall.elapsed_ms();
    times.kernels_ms = timer.total_ms();
  }
  call.after_timed_call();
  return times;
}

// The same kernels (`call`, the student's enqueue_pipeline) on cudaMalloc buffers, the
// noise copied in and the waveform out with cudaMemcpy: memory that never migrates. The
// audit's hooks as in time_managed_call.
template <typename Call>
CallTimes time_device_memory_call(Call& call, int index, int repetitions,
                                  course::DeviceBuffer<float>& device_noise,
                                  course::DeviceBuffer<float>& device_waveform,
                                  const std::vector<float>& noise, std::vector<float>& waveform,
                                  cudaStream_t stream) {
  const std::size_t bytes = noise.size() * sizeof(float);
  call.before_timed_call(index, repetitions);
  CallTimes times;
  {
    course::check::StudentKernelTimer timer;
    const course::WallTimer wall;
    // Before `stream` reads it.
    course::copy_to_device(device_noise.data(), noise.data(), noise.size());
    call();
    call.join_other_streams(stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(waveform.data(), device_waveform.data(), bytes, cudaMemcpyDeviceToHost));
    times.call_ms = wall.elapsed_ms();
    times.kernels_ms = timer.total_ms();
  }
  call.after_timed_call();
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
  using course::check::student_call;
  const int n = static_cast<int>(noise.size());
  course::DeviceBuffer<float> device_noise(noise.size()), device_waveform(noise.size());
  std::vector<float> waveform(noise.size());
  auto on_device_memory =
      student_call({course::check::timed_output(device_waveform.data(), noise.size())}, [&] {
        enqueue_pipeline(device_noise.data(), device_waveform.data(), n, shape, stream);
      });
  // The managed calls list no output: poisoning the waveform before a call would move its
  // pages to the device, and where its pages are when the call starts is what the two
  // ways compare (fill_on_host poisons it on the host instead, and the check reads the
  // prefetched result back).
  const auto managed = [&](Migration migration) {
    return student_call({}, [&buffers, &shape, migration, stream] {
      make_waveform_managed(buffers, shape, migration, stream);
    });
  };
  auto on_demand = managed(Migration::on_demand);
  auto prefetch = managed(Migration::prefetch);
  std::vector<double> samples[6];
  for (int r = 0; r < repetitions; ++r) {
    const CallTimes runs[3] = {time_device_memory_call(on_device_memory, r, repetitions,
                                                       device_noise, device_waveform, noise,
                                                       waveform, stream),
                               time_managed_call(on_demand, r, repetitions, buffers, noise, stream),
                               time_managed_call(prefetch, r, repetitions, buffers, noise, stream)};
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
