// Exercise 14 - the demo (`make run-14`): the lab's counter incremented by 64 x 64
// threads with a plain `+= 1` (updates lost) and with atomicAdd; the lab's histogram of
// 10000 normal values on the CPU and with both GPU kernels, and its largest value with
// atomic_max_float; then a table of the GPU histograms on 16M values, uniform and all in
// one bin, against CUB's DeviceHistogram::HistogramEven, with times, bandwidths and the
// ratio to CUB, measured in the same run. Every result is compared with its reference
// before it is shown or timed: a function not written yet, or wrong, gets a line that
// says so and no figure (course/demo_results.hpp), and the demo then ends with status 1.
//
// Build and run:  make 14 && make run-14
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "histogram.hpp"
#include "workload.hpp"

namespace {

// [slide:racy-counter]
// A wrong counter: read, add, write, while other threads do the same.
__global__ void count_threads_racy(int* counter) { *counter += 1; }
// [/slide]

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoLargeElements = 16 << 20;  // 64 MiB of floats
constexpr int kDemoBins = 256;
constexpr float kDemoLo = -8.0f;
constexpr float kDemoHi = 8.0f;
// The launch shapes: the global-atomic kernel on 8 blocks of 256 threads per
// multiprocessor; the privatised one on 2 blocks of 1024, the same threads per
// multiprocessor in 4 times fewer blocks. Each block zeroes its bins, waits twice and
// merges its bins with one global atomicAdd per non-zero bin, however few values it
// counted: fewer blocks pay that less often, and send 4 times fewer atomics to the 256
// global counters. Measured on an H200 (16M uniform values, float4 loads), the
// privatised kernel's speed against CUB's: 1.06x on 8 x 256, 1.24x on 4 x 512, 1.41x
// on 2 x 1024.
struct LaunchShape {
  int blocks_per_multiprocessor;
  int threads;
};
constexpr LaunchShape kGlobalShape{8, 256};
constexpr LaunchShape kSharedShape{2, 1024};
constexpr int kDemoRepetitions = 10;
// Counter grids: the lab's, and a large one.
constexpr int kLargeCounterBlocks = 1024;
constexpr int kLargeCounterThreads = 1024;

// The student's functions, judged before anything they computed is shown.
struct DemoFunctions {
  course::StudentFunction atomic{"count_threads_atomic"};
  course::StudentFunction cpu{"histogram_cpu"};
  course::StudentFunction global{"histogram_global_on_device"};
  course::StudentFunction shared{"histogram_shared_on_device"};
  course::StudentFunction max{"atomic_max_float"};
};

void demo_counter(int blocks, int threads, course::StudentFunction& atomic) {
  course::DeviceBuffer<int> counter(1);
  int got[2] = {0, 0};
  for (int use_atomic = 0; use_atomic < 2; ++use_atomic) {
    CUDA_CHECK(cudaMemset(counter.data(), 0, sizeof(int)));
    if (use_atomic == 1) {
      count_threads_atomic<<<blocks, threads>>>(counter.data());
    } else {
      count_threads_racy<<<blocks, threads>>>(counter.data());
    }
    CUDA_CHECK_LAUNCH();
    got[use_atomic] = counter.download()[0];
  }
  const int expected = blocks * threads;
  // A kernel that adds nothing leaves the counter at 0.
  const course::Judgement result = atomic.judge_value(
      got[1] != 0, got[1] == expected,
      std::to_string(blocks) + " x " + std::to_string(threads) + " threads",
      "counted " + std::to_string(got[1]) + ", expected " + std::to_string(expected));
  std::printf("  %5d x %4d threads: should be %8d; `*counter += 1` gives %8d", blocks, threads,
              expected, got[0]);
  if (result.right) std::printf(", atomicAdd %8d", got[1]);
  std::printf("\n");
}

void print_counts(const char* label, const std::vector<int>& counts) {
  std::printf("  %-16s [", label);
  for (std::size_t b = 0; b < counts.size(); ++b) std::printf("%s%d", b ? " " : "", counts[b]);
  std::printf("]\n");
}

// Counts against the reference (workload.hpp): every bin exact.
course::Judgement judge_counts(course::StudentFunction& function, const std::vector<int>& counts,
                               const std::vector<std::int32_t>& reference,
                               const std::string& context) {
  return function.judge(
      course::compare(counts.data(), reference.data(), reference.size(), course::kExact), context);
}

// One call of a GPU histogram launcher on counts poisoned first; the counts it left.
template <typename Launch>
std::vector<int> run_on_poisoned(course::DeviceBuffer<int>& counts, Launch&& launch) {
  counts.poison();
  launch();
  return counts.download();
}

void demo_lab_histogram(DemoFunctions& functions) {
  const std::vector<float> x = histogram::make_lab_input(kLabElements, kDemoSeed);
  const std::vector<std::int32_t> reference =
      histogram::reference_counts(x, kLabLo, kLabHi, kLabBins);
  std::printf("\nThe lab's histogram: %d normal values, %d bins over [%g, %g), %d x %d threads\n",
              kLabElements, kLabBins, kLabLo, kLabHi, kLabBlocks, kLabThreadsPerBlock);
  std::vector<int> cpu(kLabBins);
  course::poison(cpu.data(), cpu.size());
  histogram_cpu(x.data(), kLabElements, kLabLo, kLabHi, cpu.data(), kLabBins);
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<int> counts(kLabBins);
  const std::vector<int> global = run_on_poisoned(counts, [&] {
    histogram_global_on_device(device_x.data(), kLabElements, kLabLo, kLabHi, counts.data(),
                               kLabBins, kLabBlocks, kLabThreadsPerBlock);
  });
  const std::vector<int> shared = run_on_poisoned(counts, [&] {
    histogram_shared_on_device(device_x.data(), kLabElements, kLabLo, kLabHi, counts.data(),
                               kLabBins, kLabBlocks, kLabThreadsPerBlock);
  });
  for (const auto& [label, function, result] :
       {std::tuple<const char*, course::StudentFunction*, const std::vector<int>*>{
            "CPU", &functions.cpu, &cpu},
        {"global atomics", &functions.global, &global},
        {"shared memory", &functions.shared, &shared}}) {
    if (judge_counts(*function, *result, reference, "the lab's histogram").right) {
      print_counts(label, *result);
    }
  }
  // The largest value, with atomic_max_float (through max_on_device): what the
  // histogram's range must reach to count every value.
  course::DeviceBuffer<float> maximum(1);
  course::DeviceBuffer<float> previous(x.size());
  max_on_device(device_x.data(), kLabElements, maximum.data(), previous.data(), kLabBlocks,
                kLabThreadsPerBlock);
  const float got = maximum.download()[0];
  const float expected = *std::max_element(x.begin(), x.end());
  const course::Judgement max_result =
      functions.max.judge_value(got != -std::numeric_limits<float>::infinity(), got == expected,
                                "the lab's data",
                                "the largest value came out as " + course::format_number(got) +
                                    ", expected " + course::format_number(expected));
  if (max_result.right) {
    std::printf("  largest value    %g (atomic_max_float; the range ends at %g)\n", got, kLabHi);
  }
}

// CUB's histogram of the same values, with its temporary storage allocated once.
class CubHistogram {
 public:
  CubHistogram(const float* x, int n, int* counts) : x_(x), n_(n), counts_(counts) {
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes_, x_, counts_, kDemoBins + 1,
                                                   kDemoLo, kDemoHi, n_));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
  }
  ~CubHistogram() { cudaFree(temp_); }
  CubHistogram(const CubHistogram&) = delete;
  CubHistogram& operator=(const CubHistogram&) = delete;
  void run() {
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp_, temp_bytes_, x_, counts_, kDemoBins + 1,
                                                   kDemoLo, kDemoHi, n_));
  }

 private:
  const float* x_;
  int n_;
  int* counts_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

void demo_table(const char* table_name, const char* name, const std::vector<float>& x,
                int multiprocessors, double ceiling_gbps, DemoFunctions& functions) {
  const int n = static_cast<int>(x.size());
  course::Table table(table_name,
                      std::string(name) + ": histograms of " + std::to_string(n) + " values in " +
                          std::to_string(kDemoBins) + " bins",
                      {course::Column::text("kernel", "", 20),
                       course::Column::number("ms", "ms", 10, 4),
                       course::Column::number("gbps", "GB/s", 9, 1),
                       course::Column::number("ceiling_percent", "% of copy", 11, 1, "%"),
                       course::Column::number("time_over_cub", "time / CUB", 10, 2),
                       course::Column::right_text("equals_cpu", "= CPU", 8)});
  if (functions.global.not_implemented() && functions.shared.not_implemented()) {
    // Neither kernel written yet: nothing to time, CUB included (it is their yardstick).
    for (const auto& [label, problem] :
         {std::pair<const char*, std::string>{"global atomics", functions.global.first_problem()},
          {"shared memory", functions.shared.first_problem()},
          {"CUB HistogramEven", "not timed: no kernel of yours to compare with"}}) {
      table.record_row({label, course::Cell(), course::Cell(), course::Cell(), course::Cell(),
                        course::Cell()},
                       problem);
    }
    return;
  }
  const std::vector<std::int32_t> reference =
      histogram::reference_counts(x, kDemoLo, kDemoHi, kDemoBins);
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<int> counts(kDemoBins);
  CubHistogram cub_histogram(device_x.data(), n, counts.data());

  struct Row {
    const char* name;
    course::Judgement result;
    double ms;
  };
  // Each version judged on its first call, then timed when right.
  const std::string context = std::string(name) + ", n = " + std::to_string(n);
  auto measure = [&](const char* label, course::StudentFunction& function, auto&& work) {
    const course::Judgement result =
        judge_counts(function, run_on_poisoned(counts, work), reference, context);
    const double ms = result.right ? course::time_device(work, 1, kDemoRepetitions).median_ms : 0.0;
    return Row{label, result, ms};
  };
  // CUB is the course's: it is compared with the reference, but not judged as yours.
  course::StudentFunction library("cub::DeviceHistogram::HistogramEven");
  const Row rows[] = {
      measure("global atomics", functions.global,
              [&] {
                histogram_global_on_device(device_x.data(), n, kDemoLo, kDemoHi, counts.data(),
                                           kDemoBins,
                                           kGlobalShape.blocks_per_multiprocessor * multiprocessors,
                                           kGlobalShape.threads);
              }),
      measure("shared memory", functions.shared,
              [&] {
                histogram_shared_on_device(device_x.data(), n, kDemoLo, kDemoHi, counts.data(),
                                           kDemoBins,
                                           kSharedShape.blocks_per_multiprocessor * multiprocessors,
                                           kSharedShape.threads);
              }),
      measure("CUB HistogramEven", library,
              [&] {
                CUDA_CHECK(cudaMemset(counts.data(), 0, kDemoBins * sizeof(int)));
                cub_histogram.run();
              }),
  };
  const double cub_ms = rows[2].ms;
  std::printf("\n%s, n = %d, %d bins:\n", name, n, kDemoBins);
  for (const Row& row : rows) {
    const course::Judgement both = course::all_of({row.result, rows[2].result});
    const double gbps =
        course::gigabytes_per_second(sizeof(float) * static_cast<double>(n), row.ms);
    std::vector<course::Cell> cells = {
        row.name,
        row.result.figure(row.ms),
        row.result.figure(gbps),
        row.result.figure(ceiling_gbps > 0.0 ? 100.0 * gbps / ceiling_gbps : NAN),
        both.figure(row.ms / cub_ms),
        row.result.right ? "yes" : "NO"};
    table.add_row(std::move(cells), row.result.problem);
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  const course::DeviceSummary device = course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  DemoFunctions functions;

  std::printf("\nPart 1. Every thread adds 1 to one counter:\n");
  demo_counter(kLabCounterBlocks, kLabCounterThreads, functions.atomic);
  demo_counter(kLargeCounterBlocks, kLargeCounterThreads, functions.atomic);

  demo_lab_histogram(functions);

  const int multiprocessors = device.multiprocessors;
  std::printf("\nPart 2. Histograms of %d values over [%g, %g): global atomics on %d blocks of %d "
              "threads, shared memory on %d blocks of %d\n",
              kDemoLargeElements, kDemoLo, kDemoHi,
              kGlobalShape.blocks_per_multiprocessor * multiprocessors, kGlobalShape.threads,
              kSharedShape.blocks_per_multiprocessor * multiprocessors, kSharedShape.threads);
  std::printf("GB/s = 4 B read per value * n / time (the counts are negligible); copy ceiling "
              "(device-to-device copy, same run) = %.1f GB/s\n",
              ceiling_gbps);
  demo_table("uniform", "uniform values",
             histogram::make_uniform_input(kDemoLargeElements, kDemoLo, kDemoHi, kDemoSeed),
             multiprocessors, ceiling_gbps, functions);
  demo_table("skewed", "every value in one bin",
             histogram::make_skewed_input(kDemoLargeElements, kDemoLo, kDemoHi, kDemoBins,
                                          histogram::skewed_bin(kDemoBins)),
             multiprocessors, ceiling_gbps, functions);
  std::printf("\n(`make check-14` grades every case)\n");
  return course::demo_status(
      {&functions.atomic, &functions.cpu, &functions.global, &functions.shared, &functions.max});
}
