// Benchmarking: warm-up, repetitions, median, and figures with their formula.
//
// A time alone says little; a bandwidth next to the best this device reaches in the
// same run says how far a kernel is from its bound. The ceiling here is a large
// device-to-device copy, counted as bytes read + bytes written, on buffers several
// times larger than L2 so that the cache cannot flatter it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"

namespace course {

struct TimingStats {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int repetitions = 0;
};

inline double median(std::vector<double> samples) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  const std::size_t mid = samples.size() / 2;
  return samples.size() % 2 == 1 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
}

inline TimingStats summarize(const std::vector<double>& samples_ms) {
  TimingStats stats;
  stats.repetitions = static_cast<int>(samples_ms.size());
  if (samples_ms.empty()) return stats;
  stats.median_ms = median(samples_ms);
  stats.min_ms = *std::min_element(samples_ms.begin(), samples_ms.end());
  stats.max_ms = *std::max_element(samples_ms.begin(), samples_ms.end());
  return stats;
}

// Work whose timed calls are audited: a check's student_call (course/check/timed_call.hpp)
// derives from this, and time_device then lets it prepare each timed call outside the
// timed span, make the timer wait for the other streams the call used, and look at what
// the call did once it ended.
struct AuditedWork {};

// Times device work (a callable that enqueues it on `stream`) with CUDA events:
// `warmup` untimed runs first (module load, first-touch, clocks ramping up), then the
// median of `repetitions` timed runs.
template <typename Work>
TimingStats time_device(Work&& work, int warmup = 3, int repetitions = 20,
                        cudaStream_t stream = nullptr) {
  constexpr bool audited = std::is_base_of_v<AuditedWork, std::decay_t<Work>>;
  timing_begins();  // the warm-up calls too run with the GPU alone in a check (timers.hpp)
  for (int i = 0; i < warmup; ++i) work();
  CUDA_CHECK(cudaStreamSynchronize(stream));
  EventTimer timer(stream);
  std::vector<double> samples;
  samples.reserve(repetitions);
  for (int i = 0; i < repetitions; ++i) {
    if constexpr (audited) work.before_timed_call(i, repetitions);
    timer.start();
    work();
    if constexpr (audited) work.join_other_streams(stream);
    timer.stop();
    samples.push_back(timer.elapsed_ms());
    if constexpr (audited) work.after_timed_call();
  }
  return summarize(samples);
}

// Times pieces of device work against each other (a student's kernel and its yardstick):
// `rounds` rounds, in each the median of `repetitions` calls of each piece in turn
// (after `warmup` untimed calls); the best round of each piece counts, so that a clock
// still rising or a neighbour's burst in one round does not decide a ratio. Returns the
// milliseconds of each piece, in the order given.
template <typename... Works>
std::vector<double> best_of_rounds_ms(int rounds, int warmup, int repetitions, Works&&... works) {
  std::vector<double> best(sizeof...(Works), 0.0);
  for (int round = 0; round < rounds; ++round) {
    std::size_t piece = 0;
    const auto time_piece = [&](auto& work) {
      const double ms = time_device(work, warmup, repetitions).median_ms;
      best[piece] = round == 0 ? ms : std::min(best[piece], ms);
      ++piece;
    };
    (time_piece(works), ...);
  }
  return best;
}

// One call of host work timed with the wall clock, call `index` of `repetitions`. Audited
// work (a call that queues device work and waits for it) has its hooks called as
// time_device calls them; the clock stops once the default stream, made to wait for every
// other stream the call used, is idle: work left running on a stream of its own is timed too.
template <typename Work>
double time_host_call(Work& work, int index, int repetitions) {
  constexpr bool audited = std::is_base_of_v<AuditedWork, std::decay_t<Work>>;
  if constexpr (audited) work.before_timed_call(index, repetitions);
  WallTimer timer;
  work();
  if constexpr (audited) {
    work.join_other_streams(nullptr);
    CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
  const double ms = timer.elapsed_ms();
  if constexpr (audited) work.after_timed_call();
  return ms;
}

// Times host work with the wall clock: same protocol as time_device.
template <typename Work>
TimingStats time_host(Work&& work, int warmup = 1, int repetitions = 5) {
  timing_begins();
  for (int i = 0; i < warmup; ++i) work();
  std::vector<double> samples;
  samples.reserve(repetitions);
  for (int i = 0; i < repetitions; ++i) samples.push_back(time_host_call(work, i, repetitions));
  return summarize(samples);
}

inline double gigabytes_per_second(double bytes, double ms) {
  return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

inline double gigaflops_per_second(double flops, double ms) {
  return ms > 0.0 ? flops / (ms * 1e-3) / 1e9 : 0.0;
}

// Size of each buffer for a bandwidth figure: four times L2 and at least 256 MiB,
// but never more than an eighth of the free memory (two buffers, room to spare).
inline std::size_t bandwidth_buffer_bytes(const DeviceSummary& device) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t wanted =
      std::max<std::size_t>(4ull * static_cast<std::size_t>(device.l2_cache_bytes), 256ull << 20);
  return std::min(wanted, free_bytes / 8);
}

// The copy ceiling: GB/s of a device-to-device copy, (bytes read + bytes written) / time.
inline double measure_copy_ceiling_gbps(cudaStream_t stream = nullptr) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::size_t bytes = bandwidth_buffer_bytes(query_device(device));
  void* source = nullptr;
  void* destination = nullptr;
  CUDA_CHECK(cudaMalloc(&source, bytes));
  CUDA_CHECK(cudaMalloc(&destination, bytes));
  CUDA_CHECK(cudaMemsetAsync(source, 1, bytes, stream));
  const TimingStats stats = time_device(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream));
      },
      3, 20, stream);
  CUDA_CHECK(cudaFree(source));
  CUDA_CHECK(cudaFree(destination));
  return gigabytes_per_second(2.0 * static_cast<double>(bytes), stats.median_ms);
}

// One line: time, GB/s with its formula, and the share of the ceiling. A time that is not
// positive (nothing was timed) makes no figure.
inline std::string bandwidth_report(const std::string& label, double bytes_read,
                                    double bytes_written, double ms, double ceiling_gbps) {
  if (!(ms > 0.0)) return label + ": no time measured, so no bandwidth";
  const double gbps = gigabytes_per_second(bytes_read + bytes_written, ms);
  char text[512];
  std::snprintf(text, sizeof text,
                "%s: %.4f ms, %.1f GB/s = (%.3g B read + %.3g B written) / time, "
                "%.1f%% of the copy ceiling (%.1f GB/s)",
                label.c_str(), ms, gbps, bytes_read, bytes_written,
                ceiling_gbps > 0.0 ? 100.0 * gbps / ceiling_gbps : 0.0, ceiling_gbps);
  return text;
}

// A table of bandwidth lines: what each memory-bound kernel moved, in how long, and its
// share of the copy ceiling; add_bandwidth_line prints and records one.
inline Table bandwidth_table(std::string name, std::string title) {
  return Table(std::move(name), std::move(title),
               {Column::text("kernel", "kernel", 24), Column::number("ms", "ms", 10, 4),
                Column::scientific("bytes_read", "bytes read", 11, 3),
                Column::scientific("bytes_written", "bytes written", 13, 3),
                Column::number("gbps", "GB/s", 9, 1),
                Column::number("ceiling_percent", "% of copy", 9, 1, "%"),
                Column::number("ceiling_gbps", "ceiling GB/s", 12, 1)});
}

// Records a bandwidth_table row without printing it: its figures where `ms` is positive,
// none otherwise, and the row's note (why there are none).
inline void record_bandwidth_row(Table& table, const std::string& label, double bytes_read,
                                 double bytes_written, double ms, double ceiling_gbps,
                                 const std::string& note = std::string()) {
  const bool timed = ms > 0.0;
  const double gbps = gigabytes_per_second(bytes_read + bytes_written, ms);
  const std::size_t end = label.find_last_not_of(' ');
  table.record_row(
      {label.substr(0, end == std::string::npos ? 0 : end + 1), Cell::number_if(timed, ms),
       bytes_read, bytes_written, Cell::number_if(timed, gbps),
       Cell::number_if(timed && ceiling_gbps > 0.0, 100.0 * gbps / ceiling_gbps), ceiling_gbps},
      note);
}

// Prints bandwidth_report's line after `indent` and records it in a bandwidth_table (the
// label without the spaces that align the printed lines).
inline void add_bandwidth_line(Table& table, const std::string& label, double bytes_read,
                               double bytes_written, double ms, double ceiling_gbps,
                               const char* indent = "  ") {
  std::printf("%s%s\n", indent,
              bandwidth_report(label, bytes_read, bytes_written, ms, ceiling_gbps).c_str());
  std::fflush(stdout);
  record_bandwidth_row(table, label, bytes_read, bytes_written, ms, ceiling_gbps);
}

}  // namespace course
