// Exercise 04 - the demo (`make run-04`): heavy() on the CPU and on the GPU for sizes from a
// hundred to ten million elements, with the CPU time, the kernel time, the speedup,
// the time of the whole GPU call (allocations and transfers included), and the
// kernel's effective bandwidth against the copy ceiling measured in the same run.
// Each result is compared with heavy() in double before it is timed: a function not
// written yet, or wrong, gets a line that says so and no figure (course/demo_results.hpp),
// and the demo then ends with status 1.
//
// Build and run:  make 04 && make run-04   (blocks of 128 threads: make run-04 ARGS=128)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "cpu_vs_gpu.hpp"
#include "workload.hpp"

namespace {

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
// From launch-bound to well past the point where the GPU is full, a decade apart (the
// report plots the crossover from these); the last size is not a multiple of any block size.
constexpr int kDemoSizes[] = {100, 1000, 10000, 100000, 1000000, 10000019};
// The CPU loop takes about a third of a microsecond per element: repeat small sizes
// for a stable median, but never spend more than this many elements per size.
constexpr int kCpuElementsPerSize = 3000000;
constexpr int kMaxRepetitions = 5;
constexpr int kGpuRepetitions = 5;
// The demo's optional argument is the block size (`make run-04 ARGS=128`), at most this.
constexpr int kMaxThreadsPerBlock = 1024;

// The reference (heavy() in double) costs about a microsecond per element: a result is
// compared with it at this many elements at most, spread over the whole array.
constexpr std::size_t kJudgedElements = 100000;

struct DemoRow {
  int n = 0;
  course::Judgement cpu, gpu;  // each result, judged before it was timed
  double cpu_ms = 0.0;
  double kernel_ms = 0.0;  // the median of what heavy_on_gpu returned
  double call_ms = 0.0;    // the median wall time of the whole heavy_on_gpu call
};

int run_demo(int threads_per_block) {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();

  std::printf("\ny[i] = heavy(x[i]), %d terms per element; GPU blocks of %d threads\n", kHeavyTerms,
              threads_per_block);
  std::printf("speedup = CPU / GPU kernel; with transfers = CPU / whole GPU call "
              "(cudaMalloc + copy in + kernel + copy back + cudaFree)\n\n");
  // Its headings come with the first row that has a figure.
  course::Table table(
      "cpu_gpu", "heavy(x) on the CPU and the GPU, by n",
      {course::Column::integer("n", "n", 10), course::Column::number("cpu_ms", "CPU ms", 12, 3),
       course::Column::number("kernel_ms", "kernel ms", 12, 4),
       course::Column::number("speedup", "speedup", 9, 1, "x"),
       course::Column::number("call_ms", "GPU call ms", 14, 3),
       course::Column::number("speedup_with_transfers", "with transfers", 16, 1, "x")});

  course::StudentFunction cpu("heavy_on_cpu"), gpu("heavy_on_gpu");
  std::vector<DemoRow> rows;
  std::vector<float> last_cpu_y, last_gpu_y;
  for (const int n : kDemoSizes) {
    const std::vector<float> x = cpu_vs_gpu::make_input(n, kDemoSeed);
    std::vector<float> cpu_y(x.size()), gpu_y(x.size());
    course::poison(cpu_y.data(), cpu_y.size());
    course::poison(gpu_y.data(), gpu_y.size());
    const std::string context = "n = " + std::to_string(n);
    const std::vector<std::size_t> judged = course::spread_indices(x.size(), kJudgedElements);
    const auto reference = [&](std::size_t i) { return cpu_vs_gpu::heavy_reference(x[i]); };

    DemoRow row;
    row.n = n;
    // The CPU: its first call judged (and, when right, its first time sample: at 10M
    // elements one call takes seconds), then timed.
    const course::WallTimer first_cpu_call;
    heavy_on_cpu(x.data(), cpu_y.data(), n);
    std::vector<double> cpu_samples = {first_cpu_call.elapsed_ms()};
    row.cpu = cpu.judge(course::compare_at(cpu_y.data(), judged, reference, cpu_vs_gpu::kTolerance),
                        context);
    if (row.cpu.right) {
      const int cpu_repetitions = std::clamp(kCpuElementsPerSize / n, 1, kMaxRepetitions);
      for (int r = 1; r < cpu_repetitions; ++r) {
        const course::WallTimer timer;
        heavy_on_cpu(x.data(), cpu_y.data(), n);
        cpu_samples.push_back(timer.elapsed_ms());
      }
      row.cpu_ms = course::median(cpu_samples);
    }

    // The GPU: its first call (which also loads the kernel's module) judged, with the
    // kernel time it returned, then timed.
    const float first_kernel_ms = heavy_on_gpu(x.data(), gpu_y.data(), n, threads_per_block);
    row.gpu = gpu.judge(course::compare_at(gpu_y.data(), judged, reference, cpu_vs_gpu::kTolerance),
                        context);
    if (row.gpu.right) row.gpu = gpu.judge_time(first_kernel_ms, "kernel time");
    if (row.gpu.right) {
      std::vector<double> kernel_samples;
      row.call_ms = course::time_host(
                        [&] {
                          kernel_samples.push_back(
                              heavy_on_gpu(x.data(), gpu_y.data(), n, threads_per_block));
                        },
                        0, kGpuRepetitions)
                        .median_ms;
      row.kernel_ms = course::median(kernel_samples);
    }

    const course::Judgement both = course::all_of({row.cpu, row.gpu});
    std::vector<course::Cell> cells = {n,
                                       row.cpu.figure(row.cpu_ms),
                                       row.gpu.figure(row.kernel_ms),
                                       both.figure(row.cpu_ms / row.kernel_ms),
                                       row.gpu.figure(row.call_ms),
                                       both.figure(row.cpu_ms / row.call_ms)};
    if (row.cpu.right || row.gpu.right) {
      table.add_row(std::move(cells), both.problem);
    } else {
      table.record_row(std::move(cells), both.problem);
    }
    rows.push_back(row);
    last_cpu_y = std::move(cpu_y);
    last_gpu_y = std::move(gpu_y);
  }

  // One float read and one written per element: far below the copy ceiling, the
  // kernel is bound by its arithmetic, not by memory.
  if (std::any_of(rows.begin(), rows.end(), [](const DemoRow& row) { return row.gpu.right; })) {
    std::printf("\nThe kernel's effective bandwidth:\n");
  }
  course::Table bandwidth = course::bandwidth_table("kernel_bandwidth", "heavy_kernel's bandwidth");
  for (const DemoRow& row : rows) {
    const double bytes = static_cast<double>(row.n) * sizeof(float);
    course::add_bandwidth_line(bandwidth, row.gpu, "n = " + std::to_string(row.n), bytes, bytes,
                               row.kernel_ms, ceiling_gbps);
  }

  // The CPU and the GPU round differently (the GPU's sinf and expf, fused multiply-adds):
  // most elements agree to the bit, the others by a few ulp.
  if (rows.back().cpu.right && rows.back().gpu.right) {
    const std::size_t n = last_gpu_y.size();
    const course::Comparison gpu_against_cpu =
        course::compare(last_gpu_y.data(), last_cpu_y.data(), n, course::kExact);
    std::printf("\nn = %zu: %zu of %zu elements differ between the CPU and the GPU, "
                "by at most %.3g\n",
                n, gpu_against_cpu.wrong, n, gpu_against_cpu.max_abs_error);
  }
  std::printf("(`make check-04` grades every case against a double-precision reference)\n");
  return course::demo_status({&cpu, &gpu});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  int threads_per_block = kDefaultThreadsPerBlock;
  if (argc > 1) {
    char* end = nullptr;
    const long requested = std::strtol(argv[1], &end, 10);
    if (argc > 2 || *end != '\0' || requested < 1 || requested > kMaxThreadsPerBlock) {
      std::fprintf(stderr, "usage: %s [threads_per_block, 1 to %d; default %d]\n", argv[0],
                   kMaxThreadsPerBlock, kDefaultThreadsPerBlock);
      return 2;
    }
    threads_per_block = static_cast<int>(requested);
  }
  return run_demo(threads_per_block);
}
