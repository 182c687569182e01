// Exercise 14 - the program around the student's functions (instructor-owned).
//
// `make run-14` runs the demo: the lab's counter incremented by 64 x 64 threads with a
// plain `+= 1` (updates lost) and with atomicAdd; the lab's histogram of 10000 normal
// values on the CPU and with both GPU kernels; then a table of the GPU histograms on 16M
// values, uniform and all in one bin, against CUB's DeviceHistogram::HistogramEven, with
// times, bandwidths and the ratio to CUB, measured in the same run. The check runs this
// same program with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 14 && make run-14
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "histogram.hpp"
#include "workload.hpp"

namespace {

// ---------------------------------------------------------------------------
// Kernels of the driver
// ---------------------------------------------------------------------------

// [slide:racy-counter]
// The lab's wrong counter: read, add, write, while other threads do the same.
__global__ void count_threads_racy(int* counter) { *counter += 1; }
// [/slide]

// Fills as much shared memory as blocks can hold with a nonzero value, on every
// multiprocessor, so that a later kernel that counts into shared memory it never
// zeroed starts from garbage, as it would in a long program, instead of from the
// zeros of a fresh context. The sum written to `sink` keeps the stores alive.
constexpr int kScribbleValue = 0x01000001;
constexpr std::size_t kScribbleBytes = 48 * 1024;  // what a block gets without opting in
constexpr int kScribbleBlocksPerMultiprocessor = 8;
constexpr int kScribbleThreads = 256;

__global__ void scribble_shared_memory(int* sink) {
  extern __shared__ int words[];
  const int count = static_cast<int>(kScribbleBytes / sizeof(int));
  for (int i = threadIdx.x; i < count; i += blockDim.x) words[i] = kScribbleValue + i;
  __syncthreads();
  if (words[(threadIdx.x * 7) % count] == 0) atomicAdd(sink, 1);  // never true
}

void scribble_shared_memory_everywhere() {
  int device = 0, multiprocessors = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  course::DeviceBuffer<int> sink(1);
  scribble_shared_memory<<<multiprocessors * kScribbleBlocksPerMultiprocessor, kScribbleThreads,
                           kScribbleBytes>>>(sink.data());
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

using Launcher = void (*)(const float*, int, float, float, int*, int, int, int);

struct HistogramRequest {
  std::vector<float> x;
  float lo = 0.0f, hi = 0.0f;
  int bins = 0, blocks = 0, threads = 0;
};

HistogramRequest read_histogram_request(const course::check::CaseRequest& request) {
  HistogramRequest h;
  h.lo = static_cast<float>(request.param_double("lo"));
  h.hi = static_cast<float>(request.param_double("hi"));
  h.bins = static_cast<int>(request.param_int("bins"));
  const int n = static_cast<int>(request.param_int("n"));
  if (h.bins < 1 || h.bins > kMaxBins || !(h.lo < h.hi) ||
      !histogram::make_input(request.param("input"), n, h.lo, h.hi, h.bins, request.seed, h.x)) {
    std::fprintf(stderr, "check protocol: bad histogram request\n");
    std::exit(2);
  }
  if (request.params.count("blocks") > 0) {
    h.blocks = static_cast<int>(request.param_int("blocks"));
    h.threads = static_cast<int>(request.param_int("threads"));
  }
  return h;
}

// The speed case: rounds of (global-atomic launch, privatised launch), each the median of
// `repetitions` timed calls; the best round of each counts.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  HistogramRequest h = read_histogram_request(request);
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const int n = static_cast<int>(h.x.size());
  course::DeviceBuffer<float> x(h.x);
  course::DeviceBuffer<int> counts(static_cast<std::size_t>(h.bins));
  auto global = [&] {
    histogram_global_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  };
  auto shared = [&] {
    histogram_shared_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  };
  global();
  results.put("global_counts", counts.download());
  shared();
  results.put("shared_counts", counts.download());
  double global_ms = 0.0, shared_ms = 0.0;
  for (int round = 0; round < kSpeedRounds; ++round) {
    const double g = course::time_device(global, kSpeedWarmup, repetitions).median_ms;
    const double s = course::time_device(shared, kSpeedWarmup, repetitions).median_ms;
    global_ms = round == 0 ? g : std::min(global_ms, g);
    shared_ms = round == 0 ? s : std::min(shared_ms, s);
  }
  results.put_value("global_ms", global_ms);
  results.put_value("shared_ms", shared_ms);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "counter") {
    const int blocks = static_cast<int>(request.param_int("blocks"));
    const int threads = static_cast<int>(request.param_int("threads"));
    course::DeviceBuffer<int> counter(1);
    CUDA_CHECK(cudaMemset(counter.data(), 0, sizeof(int)));
    count_threads_atomic<<<blocks, threads>>>(counter.data());
    CUDA_CHECK_LAUNCH();
    results.put("counter", counter.download());
    return;
  }
  if (kind == "speed") {
    run_speed_case(request, results);
    return;
  }
  const HistogramRequest h = read_histogram_request(request);
  const int n = static_cast<int>(h.x.size());
  if (kind == "cpu") {
    course::check::GuardedOutput<int> counts(static_cast<std::size_t>(h.bins));
    histogram_cpu(h.x.data(), n, h.lo, h.hi, counts.data(), h.bins);
    counts.report(results, "counts");
    return;
  }
  if (kind != "global" && kind != "shared") course::check::unknown_case(request);
  course::DeviceBuffer<float> x(h.x);
  course::DeviceBuffer<int> counts(static_cast<std::size_t>(h.bins));
  if (kind == "global") {
    histogram_global_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  } else {
    scribble_shared_memory_everywhere();
    histogram_shared_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  }
  results.put("counts", counts.download());
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoLargeElements = 16 << 20;  // 64 MiB of floats
constexpr int kDemoBins = 256;
constexpr float kDemoLo = -8.0f;
constexpr float kDemoHi = 8.0f;
constexpr int kDemoThreads = 256;
constexpr int kDemoBlocksPerMultiprocessor = 8;
constexpr int kDemoRepetitions = 10;
// Counter grids: the lab's, and a large one.
constexpr int kLargeCounterBlocks = 1024;
constexpr int kLargeCounterThreads = 1024;

void demo_counter(int blocks, int threads) {
  course::DeviceBuffer<int> counter(1);
  int got[2] = {0, 0};
  for (int atomic = 0; atomic < 2; ++atomic) {
    CUDA_CHECK(cudaMemset(counter.data(), 0, sizeof(int)));
    if (atomic == 1) {
      count_threads_atomic<<<blocks, threads>>>(counter.data());
    } else {
      count_threads_racy<<<blocks, threads>>>(counter.data());
    }
    CUDA_CHECK_LAUNCH();
    got[atomic] = counter.download()[0];
  }
  std::printf("  %5d x %4d threads: should be %8d; `*counter += 1` gives %8d, atomicAdd %8d\n",
              blocks, threads, blocks * threads, got[0], got[1]);
}

void print_counts(const char* label, const std::vector<int>& counts) {
  std::printf("  %-16s [", label);
  for (std::size_t b = 0; b < counts.size(); ++b) std::printf("%s%d", b ? " " : "", counts[b]);
  std::printf("]\n");
}

void demo_lab_histogram() {
  const std::vector<float> x = histogram::make_lab_input(kLabElements, kDemoSeed);
  std::vector<int> cpu(kLabBins);
  histogram_cpu(x.data(), kLabElements, kLabLo, kLabHi, cpu.data(), kLabBins);
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<int> counts(kLabBins);
  histogram_global_on_device(device_x.data(), kLabElements, kLabLo, kLabHi, counts.data(), kLabBins,
                             kLabBlocks, kLabThreadsPerBlock);
  const std::vector<int> global = counts.download();
  histogram_shared_on_device(device_x.data(), kLabElements, kLabLo, kLabHi, counts.data(), kLabBins,
                             kLabBlocks, kLabThreadsPerBlock);
  const std::vector<int> shared = counts.download();
  std::printf("\nThe lab's histogram: %d normal values, %d bins over [%g, %g), %d x %d threads\n",
              kLabElements, kLabBins, kLabLo, kLabHi, kLabBlocks, kLabThreadsPerBlock);
  print_counts("CPU", cpu);
  print_counts("global atomics", global);
  print_counts("shared memory", shared);
  std::printf("  GPU equals CPU: global %s, shared %s\n", global == cpu ? "yes" : "NO",
              shared == cpu ? "yes" : "NO");
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

void demo_table(const char* table_name, const char* name, const std::vector<float>& x, int blocks,
                double ceiling_gbps) {
  const int n = static_cast<int>(x.size());
  std::vector<int> cpu(kDemoBins);
  histogram_cpu(x.data(), n, kDemoLo, kDemoHi, cpu.data(), kDemoBins);
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<int> counts(kDemoBins);
  CubHistogram cub_histogram(device_x.data(), n, counts.data());

  struct Row {
    const char* name;
    course::TimingStats stats;
    bool matches;
  };
  auto measure = [&](const char* label, auto&& work) {
    const course::TimingStats stats = course::time_device(work, 2, kDemoRepetitions);
    return Row{label, stats, counts.download() == cpu};
  };
  const Row rows[] = {
      measure("global atomics",
              [&] {
                histogram_global_on_device(device_x.data(), n, kDemoLo, kDemoHi, counts.data(),
                                           kDemoBins, blocks, kDemoThreads);
              }),
      measure("shared memory",
              [&] {
                histogram_shared_on_device(device_x.data(), n, kDemoLo, kDemoHi, counts.data(),
                                           kDemoBins, blocks, kDemoThreads);
              }),
      measure("CUB HistogramEven",
              [&] {
                CUDA_CHECK(cudaMemset(counts.data(), 0, kDemoBins * sizeof(int)));
                cub_histogram.run();
              }),
  };
  const double cub_ms = rows[2].stats.median_ms;
  std::printf("\n%s, n = %d, %d bins:\n", name, n, kDemoBins);
  course::Table table(table_name,
                      std::string(name) + ": histograms of " + std::to_string(n) + " values in " +
                          std::to_string(kDemoBins) + " bins",
                      {course::Column::text("kernel", "", 20),
                       course::Column::number("ms", "ms", 10, 4),
                       course::Column::number("gbps", "GB/s", 9, 1),
                       course::Column::number("ceiling_percent", "% of copy", 11, 1, "%"),
                       course::Column::number("time_over_cub", "time / CUB", 10, 2),
                       course::Column::right_text("equals_cpu", "= CPU", 8)});
  table.print_header();
  for (const Row& row : rows) {
    const double gbps =
        course::gigabytes_per_second(sizeof(float) * static_cast<double>(n), row.stats.median_ms);
    table.add_row({row.name, row.stats.median_ms, gbps,
                   course::Cell::number_if(ceiling_gbps > 0.0, 100.0 * gbps / ceiling_gbps),
                   course::Cell::number_if(cub_ms > 0.0, row.stats.median_ms / cub_ms),
                   row.matches ? "yes" : "NO"});
  }
}

int demo() {
  const course::DeviceSummary device = course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();

  std::printf("\nPart 1. Every thread adds 1 to one counter:\n");
  demo_counter(kLabCounterBlocks, kLabCounterThreads);
  demo_counter(kLargeCounterBlocks, kLargeCounterThreads);

  demo_lab_histogram();

  const int blocks = kDemoBlocksPerMultiprocessor * device.multiprocessors;
  std::printf("\nPart 2. Histograms of %d values over [%g, %g), %d blocks of %d threads\n",
              kDemoLargeElements, kDemoLo, kDemoHi, blocks, kDemoThreads);
  std::printf("GB/s = 4 B read per value * n / time (the counts are negligible); copy ceiling "
              "(device-to-device copy, same run) = %.1f GB/s\n",
              ceiling_gbps);
  demo_table("uniform", "uniform values",
             histogram::make_uniform_input(kDemoLargeElements, kDemoLo, kDemoHi, kDemoSeed), blocks,
             ceiling_gbps);
  demo_table("skewed", "every value in one bin",
             histogram::make_skewed_input(kDemoLargeElements, kDemoLo, kDemoHi, kDemoBins,
                                          histogram::skewed_bin(kDemoBins)),
             blocks, ceiling_gbps);
  std::printf("\n(`make check-14` grades every case)\n");
  return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
