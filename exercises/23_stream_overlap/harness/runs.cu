// Exercise 23 - what the demo and the check's cases both run (harness/runs.cuh): the
// parts of the work measured alone, and the chunk loop with markers.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "course/bench.hpp"
#include "course/errors.hpp"
#include "course/timers.hpp"
#include "runs.cuh"
#include "stream_overlap.hpp"

namespace {

using stream_overlap::Parts;
using stream_overlap::Workspace;

// The work at which the kernel is first timed, to find the work that balances it: enough
// that the kernel is bound by its arithmetic, not by reading and writing the array.
constexpr int kProbeWork = 256;
// Beyond this the kernel would take seconds: a bus that slow is not what is measured.
constexpr int kMostWork = 1 << 20;
constexpr int kWarmup = 2;

// Times `work` enqueued on `first` and `second` at once: both start after an event of
// `first`, and `first` waits for `second` before the stop event.
template <typename First, typename Second>
double time_side_by_side(cudaStream_t first, cudaStream_t second, First&& on_first,
                         Second&& on_second, int repetitions) {
  cudaEvent_t fork = nullptr, join = nullptr;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  const double ms = course::time_device(
                        [&] {
                          CUDA_CHECK(cudaEventRecord(fork, first));
                          CUDA_CHECK(cudaStreamWaitEvent(second, fork, 0));
                          on_first();
                          on_second();
                          CUDA_CHECK(cudaEventRecord(join, second));
                          CUDA_CHECK(cudaStreamWaitEvent(first, join, 0));
                        },
                        kWarmup, repetitions, first)
                        .median_ms;
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  return ms;
}

__global__ void marker_kernel() {}

}  // namespace

Parts stream_overlap::measure_parts(Workspace& w, int work, bool balance, int repetitions) {
  const course::Streams streams(2);
  const cudaStream_t a = streams[0], b = streams[1];
  const std::size_t n = w.size();
  const std::size_t bytes = n * sizeof(float);
  const auto copy_in = [&] {
    CUDA_CHECK(
        cudaMemcpyAsync(w.device_in.data(), w.host_in.data(), bytes, cudaMemcpyHostToDevice, a));
  };
  const auto copy_back = [&] {
    CUDA_CHECK(
        cudaMemcpyAsync(w.host_out.data(), w.device_out.data(), bytes, cudaMemcpyDeviceToHost, b));
  };
  Parts parts;
  parts.to_device_ms = course::time_device(copy_in, kWarmup, repetitions, a).median_ms;
  parts.to_host_ms = course::time_device(copy_back, kWarmup, repetitions, b).median_ms;
  parts.both_ms = time_side_by_side(a, b, copy_in, copy_back, repetitions);
  const auto kernel_at = [&](int at) {
    return course::time_device(
               [&] { launch_transform(w.device_in.data(), w.device_out.data(), n, at, a); },
               kWarmup, repetitions, a)
        .median_ms;
  };
  // The kernel's time grows linearly with the work once its arithmetic dominates: two
  // steps of scaling bring it to the copy time (the first from a time that may still
  // include some of the memory traffic). The copies at once never take longer than one
  // after the other: a slower figure was disturbed, and a kernel balanced on it would
  // outweigh the copies that the pipeline is there to hide.
  const double copy_ms = std::min(parts.both_ms, parts.to_device_ms + parts.to_host_ms);
  const auto scaled = [&](int from, double from_ms) {
    const double wanted = from * copy_ms / std::max(from_ms, 1e-3);
    return static_cast<int>(std::clamp(std::lround(wanted), 1L, static_cast<long>(kMostWork)));
  };
  parts.work = balance ? scaled(kProbeWork, kernel_at(kProbeWork)) : work;
  parts.kernel_ms = kernel_at(parts.work);
  if (balance) {
    parts.work = scaled(parts.work, parts.kernel_ms);
    parts.kernel_ms = kernel_at(parts.work);
  }
  parts.serial_ms =
      course::time_device(
          [&] {
            copy_in();
            launch_transform(w.device_in.data(), w.device_out.data(), n, parts.work, a);
            CUDA_CHECK(cudaMemcpyAsync(w.host_out.data(), w.device_out.data(), bytes,
                                       cudaMemcpyDeviceToHost, a));
          },
          kWarmup, repetitions, a)
          .median_ms;
  return parts;
}

Parts stream_overlap::best_of(const Parts& x, const Parts& y) {
  Parts best = x;
  best.to_device_ms = std::min(x.to_device_ms, y.to_device_ms);
  best.to_host_ms = std::min(x.to_host_ms, y.to_host_ms);
  best.both_ms = std::min(x.both_ms, y.both_ms);
  best.kernel_ms = std::min(x.kernel_ms, y.kernel_ms);
  best.serial_ms = std::min(x.serial_ms, y.serial_ms);
  return best;
}

double stream_overlap::chunks_with_markers(const Buffers& buffers, std::size_t n, int work,
                                           std::size_t chunk,
                                           const std::vector<cudaStream_t>& streams,
                                           std::optional<cudaStream_t> marker) {
  CUDA_CHECK(cudaDeviceSynchronize());
  course::WallTimer timer;
  std::size_t k = 0;
  for (std::size_t first = 0; first < n; first += chunk, ++k) {
    enqueue_chunk(buffers, first, std::min(chunk, n - first), work, streams[k % streams.size()]);
    if (marker) {
      marker_kernel<<<1, 1, 0, *marker>>>();
      CUDA_CHECK_LAUNCH();
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return timer.elapsed_ms();
}
