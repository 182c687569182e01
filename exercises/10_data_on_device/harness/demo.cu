// Exercise 10 - the demo (`make run-10`): first the bus itself, host -> device and
// device -> host copies from pageable and from pinned memory (GB/s each way); then the
// lab's pulse train made three ways - the lab's round trips, the student's version with
// the data kept on the device, and the student's pinned version - for the lab's 100000
// samples and for ten million, with the bytes each one moves over the bus and its time;
// then the student's unified-memory version, its kernels timed while they take page
// faults, after a prefetch, and on plain cudaMalloc memory.
// The student's versions are compared with the round trips' result before they are
// timed: one not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1.
//
// Build and run:  make 10 && make run-10
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/streams.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "data_on_device.hpp"
#include "managed_runs.cuh"
#include "workload.hpp"

namespace {

constexpr std::uint64_t kDemoSeed = 42;
constexpr std::size_t kBusTestBytes = std::size_t{256} << 20;
constexpr int kBusWarmup = 2;
constexpr int kBusRepetitions = 10;
constexpr int kPipelineWarmup = 1;
constexpr int kPipelineRepetitions = 5;
constexpr int kDemoSizes[] = {data_on_device::kLabSamples, 10000000};

struct BusRates {
  double pageable_to_device = 0.0, pageable_to_host = 0.0;
  double pinned_to_device = 0.0, pinned_to_host = 0.0;
};

// GB/s of one cudaMemcpy of `bytes`, timed with events around it (median of several).
double copy_rate_gbps(void* destination, const void* source, std::size_t bytes,
                      cudaMemcpyKind kind) {
  const course::TimingStats stats =
      course::time_device([&] { CUDA_CHECK(cudaMemcpy(destination, source, bytes, kind)); },
                          kBusWarmup, kBusRepetitions);
  return course::gigabytes_per_second(static_cast<double>(bytes), stats.median_ms);
}

BusRates measure_bus() {
  std::vector<unsigned char> pageable(kBusTestBytes, 1);
  void* pinned = nullptr;
  void* device = nullptr;
  CUDA_CHECK(cudaMallocHost(&pinned, kBusTestBytes));
  CUDA_CHECK(cudaMalloc(&device, kBusTestBytes));
  std::memset(pinned, 1, kBusTestBytes);
  BusRates rates;
  rates.pageable_to_device =
      copy_rate_gbps(device, pageable.data(), kBusTestBytes, cudaMemcpyHostToDevice);
  rates.pageable_to_host =
      copy_rate_gbps(pageable.data(), device, kBusTestBytes, cudaMemcpyDeviceToHost);
  rates.pinned_to_device = copy_rate_gbps(device, pinned, kBusTestBytes, cudaMemcpyHostToDevice);
  rates.pinned_to_host = copy_rate_gbps(pinned, device, kBusTestBytes, cudaMemcpyDeviceToHost);
  CUDA_CHECK(cudaFree(device));
  CUDA_CHECK(cudaFreeHost(pinned));

  std::printf("\nThe bus: one cudaMemcpy of %zu MiB, GB/s = bytes copied / time (median of %d)\n",
              kBusTestBytes >> 20, kBusRepetitions);
  course::Table table("bus", "cudaMemcpy between host and device, GB/s each way",
                      {course::Column::text("memory", "host memory", 23),
                       course::Column::number("to_device_gbps", "host -> device", 16, 1, " GB/s"),
                       course::Column::number("to_host_gbps", "device -> host", 16, 1, " GB/s")},
                      2);
  table.print_header();
  table.add_row({"pageable (std::vector)", rates.pageable_to_device, rates.pageable_to_host});
  table.add_row({"pinned (cudaMallocHost)", rates.pinned_to_device, rates.pinned_to_host});
  return rates;
}

// The functions of parts 1 and 2, judged before any of their figures is shown.
struct DemoFunctions {
  course::StudentFunction on_device{"make_waveform_on_device"};
  course::StudentFunction allocate{"allocate_waveform_buffers"};
  course::StudentFunction pinned{"make_waveform_pinned"};
  course::StudentFunction allocate_managed{"allocate_managed_waveform"};
  course::StudentFunction managed{"make_waveform_managed"};
};

// A waveform against the round trips' (the given lab's cell): the same kernels in the
// same order, so every sample must be the same.
course::Judgement judge_waveform(course::StudentFunction& function, const std::vector<float>& got,
                                 const std::vector<float>& round_trips, int n) {
  return function.judge(course::compare(got.data(), round_trips.data(), round_trips.size(),
                                        course::kExact),
                        "n = " + std::to_string(n));
}

void demo_pipeline(int n, const BusRates& rates, double ceiling_gbps, DemoFunctions& functions) {
  using namespace data_on_device;
  const std::vector<float> noise = make_noise(n, kDemoSeed);
  const PulseShape shape = lab_pulse_shape(n);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  const double mb = static_cast<double>(bytes) / 1e6;
  std::printf("\nThe pulse train, n = %d (%.2f MB per array); time per waveform, median of %d\n", n,
              mb, kPipelineRepetitions);

  // The given round trips: timed in any case, and the result the others must give.
  std::vector<float> round_trips(noise.size());
  const double round_trips_ms =
      course::time_host(
          [&] { make_waveform_round_trips(noise.data(), round_trips.data(), n, shape); },
          kPipelineWarmup, kPipelineRepetitions)
          .median_ms;

  // Part 1: its first call judged (and the warm-up), then timed.
  std::vector<float> on_device(noise.size());
  course::poison(on_device.data(), on_device.size());
  make_waveform_on_device(noise.data(), on_device.data(), n, shape);
  const course::Judgement part1 = judge_waveform(functions.on_device, on_device, round_trips, n);
  const double on_device_ms =
      part1.right ? course::time_host(
                        [&] { make_waveform_on_device(noise.data(), on_device.data(), n, shape); },
                        0, kPipelineRepetitions)
                        .median_ms
                  : 0.0;

  // Part 2: the buffers first, then one waveform judged, then timed.
  WaveformBuffers buffers = allocate_waveform_buffers(n);
  const bool allocated = buffers.host_noise != nullptr && buffers.host_waveform != nullptr &&
                         buffers.device_noise != nullptr && buffers.device_waveform != nullptr;
  course::Judgement part2 = functions.allocate.judge_value(allocated, true, "", "");
  double pinned_ms = 0.0;
  if (part2.right) {
    std::memcpy(buffers.host_noise, noise.data(), bytes);
    course::poison(buffers.host_waveform, static_cast<std::size_t>(n));
    const course::Streams own(1, cudaStreamDefault);  // destroyed at the end of this block
    const cudaStream_t stream = own[0];
    make_waveform_pinned(buffers, n, shape, stream);
    const std::vector<float> pinned(buffers.host_waveform, buffers.host_waveform + n);
    part2 = judge_waveform(functions.pinned, pinned, round_trips, n);
    if (part2.right) {
      pinned_ms = course::time_host([&] { make_waveform_pinned(buffers, n, shape, stream); }, 0,
                                    kPipelineRepetitions)
                      .median_ms;
    }
  }
  free_waveform_buffers(buffers);

  course::Table table("pipeline_" + std::to_string(n),
                      "the pulse train of " + std::to_string(n) + " samples, three ways",
                      {course::Column::text("version", "version", 34),
                       course::Column::number("in_mb", "in (MB)", 10, 2),
                       course::Column::number("out_mb", "out (MB)", 10, 2),
                       course::Column::number("ms", "time (ms)", 12, 3),
                       course::Column::number("bus_ms", "bus time (ms)", 14, 3)},
                      2);
  // bus time = the bytes at the measured rates: the share of the time the copies take.
  table.add_row({"round trips (the lab's cell, given)", 3 * mb, 3 * mb, round_trips_ms,
                 3 * mb / rates.pageable_to_device + 3 * mb / rates.pageable_to_host});
  table.add_row({"on the device, pageable (part 1)", mb, mb, part1.figure(on_device_ms),
                 part1.figure(mb / rates.pageable_to_device + mb / rates.pageable_to_host)},
                part1.problem);
  table.add_row({"on the device, pinned (part 2)", mb, mb, part2.figure(pinned_ms),
                 part2.figure(mb / rates.pinned_to_device + mb / rates.pinned_to_host)},
                part2.problem);
  if (part1.right || part2.right) {
    // On the device, make_pulses writes n floats, add reads 2 n and writes n, and the
    // zero suppression reads n (and rewrites the few it zeroes): about 5 n floats, which
    // at the copy ceiling take the time below; the rest is the bus and the calls' overheads.
    const double device_traffic_ms = 5.0 * static_cast<double>(bytes) / (ceiling_gbps * 1e6);
    std::printf("  (bus time = MB / GB/s each way, at the rates above; the kernels alone would "
                "take about %.4f ms at the copy ceiling)\n",
                device_traffic_ms);
  }
}

// Part 3: the pulse train in managed memory, each way judged against the round trips,
// then the kernels timed three ways (harness/managed_runs.cuh).
void demo_managed(DemoFunctions& functions) {
  using namespace data_on_device;
  const int n = kManagedSpeedSamples;
  std::printf(
      "\nUnified memory, n = %d (%d MiB per buffer): the kernels' time and the whole call's "
      "(prefetches, copies and the final wait included), median of %d\n",
      n, static_cast<int>((static_cast<std::size_t>(n) * sizeof(float)) >> 20),
      kManagedSpeedRepetitions);
  if (!has_concurrent_managed_access()) {
    std::printf("  (not measured: this GPU cannot migrate managed pages while kernels run, "
                "cudaDevAttrConcurrentManagedAccess is 0)\n");
    return;
  }
  const std::vector<float> noise = make_noise(n, kDemoSeed);
  const PulseShape shape = lab_pulse_shape(n);
  std::vector<float> round_trips(noise.size());
  make_waveform_round_trips(noise.data(), round_trips.data(), n, shape);

  ManagedWaveform buffers = allocate_managed_waveform(n);
  const bool allocated = buffers.noise != nullptr && buffers.waveform != nullptr;
  course::Judgement on_demand = functions.allocate_managed.judge_value(allocated, true, "", "");
  course::Judgement prefetched = on_demand;
  ManagedTimes times;
  if (allocated) {
    const course::Streams own(1, cudaStreamDefault);  // destroyed at the end of this block
    const auto judged = [&](Migration migration) {
      fill_on_host(buffers, noise);
      make_waveform_managed(buffers, shape, migration, own[0]);
      const std::vector<float> got(buffers.waveform, buffers.waveform + n);
      return judge_waveform(functions.managed, got, round_trips, n);
    };
    on_demand = judged(Migration::on_demand);
    prefetched = judged(Migration::prefetch);
    if (on_demand.right && prefetched.right) {
      times = time_three_ways(buffers, noise, shape, kManagedSpeedRepetitions, own[0]);
    }
  }
  free_managed_waveform(buffers);

  course::Table table("managed",
                      "the pulse train of " + std::to_string(n) +
                          " samples in managed memory, against cudaMalloc memory",
                      {course::Column::text("version", "version", 40),
                       course::Column::number("kernels_ms", "kernels (ms)", 14, 3),
                       course::Column::number("call_ms", "whole call (ms)", 17, 3)},
                      2);
  table.add_row({"managed, page faults (Migration::on_demand)",
                 on_demand.figure(times.on_demand.kernels_ms),
                 on_demand.figure(times.on_demand.call_ms)},
                on_demand.problem);
  table.add_row({"managed, prefetched (Migration::prefetch)",
                 prefetched.figure(times.prefetch.kernels_ms),
                 prefetched.figure(times.prefetch.call_ms)},
                prefetched.problem);
  const course::Judgement both = course::all_of({on_demand, prefetched});
  table.add_row({"cudaMalloc + cudaMemcpy (the same kernels)",
                 both.figure(times.device_memory.kernels_ms),
                 both.figure(times.device_memory.call_ms)},
                both.problem);
}

int run_demo() {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  std::printf("device memory: copy ceiling %.1f GB/s (bytes read + written) / time\n",
              ceiling_gbps);
  const BusRates rates = measure_bus();
  DemoFunctions functions;
  for (const int n : kDemoSizes) demo_pipeline(n, rates, ceiling_gbps, functions);
  demo_managed(functions);
  std::printf("\n(`make check-10` grades the results and counts the bytes each version copies)\n");
  return course::demo_status({&functions.on_device, &functions.allocate, &functions.pinned,
                              &functions.allocate_managed, &functions.managed});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  return run_demo();
}
