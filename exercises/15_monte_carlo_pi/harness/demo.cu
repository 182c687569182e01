// Exercise 15 - the demo (`make run-15`): pi estimated from n random points on one CPU
// core, on every core with OpenMP and on the GPU, each with its estimate, its standard
// error and its speed in samples per second; the GPU's speed is set against the course's
// reference kernel (harness/reference_gpu.cuh), timed in the same run on the same
// device. Every count is compared with the reference's before it is shown or timed: a
// function not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1.
//
// Build and run:  make 15 && make run-15   (another seed: make run-15 ARGS=7)
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/cpu_cores.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "monte_carlo_pi.hpp"
#include "reference_gpu.cuh"
#include "workload.hpp"

namespace {

namespace device_reference = monte_carlo_pi::device_reference;

constexpr unsigned long long kDefaultDemoSeed = 42;
// The seed notebook's size first (nsamples = 1000000), then as far as each side can
// go in a fraction of a second.
constexpr unsigned long long kCpuSerialSizes[] = {1000000ull, 10000000ull};
constexpr unsigned long long kCpuOpenmpSizes[] = {1000000ull, 10000000ull, 100000000ull};
// The last size is past 2^32: counters and sample indices must be 64-bit.
constexpr unsigned long long kGpuSizes[] = {1000000ull, 100000000ull, 1000000000ull, 5000000011ull};
constexpr int kCpuRepetitions = 3;
constexpr int kGpuRepetitions = 5;

course::Table make_table() {
  return course::Table("estimates", "pi from n random points, by version and n",
                       {course::Column::text("version", "version", 22),
                        course::Column::integer("samples", "samples", 12),
                        course::Column::integer("hits", "hits", 12),
                        course::Column::number("estimate", "estimate", 12, 8),
                        course::Column::scientific("std_error", "std error", 11, 2),
                        course::Column::number("sigmas", "|err|/SE", 9, 2),
                        course::Column::number("ms", "time ms", 11, 3),
                        course::Column::scientific("samples_per_s", "samples/s", 12, 3)});
}

// One row of the table: the estimate and its figures when the count is right (printed),
// none otherwise (recorded, with the count's problem as its note).
void add_row(course::Table& table, const std::string& version, unsigned long long n,
             unsigned long long hits, double ms, const course::Judgement& result) {
  const double estimate = monte_carlo_pi::pi_estimate(hits, n);
  const double error = monte_carlo_pi::standard_error(hits, n);
  const double sigmas = error > 0.0 ? std::fabs(estimate - monte_carlo_pi::kPi) / error : 0.0;
  std::vector<course::Cell> cells = {version,
                                     n,
                                     result.right ? course::Cell(hits) : course::Cell(),
                                     result.figure(estimate),
                                     result.figure(error),
                                     result.figure(sigmas),
                                     result.figure(ms),
                                     result.figure(static_cast<double>(n) / (ms * 1e-3))};
  if (result.right) {
    table.add_row(std::move(cells), result.problem);
  } else {
    table.record_row(std::move(cells), result.problem);
  }
}

// A count judged against the reference's count for the same samples (computed only for
// a count that is not 0: a function not written yet returns 0 hits).
template <typename Reference>
course::Judgement judge_count(course::StudentFunction& function, unsigned long long n,
                              unsigned long long hits, Reference&& reference) {
  const unsigned long long expected = hits != 0 ? reference() : 0;
  return function.judge_value(hits != 0, hits == expected, "n = " + std::to_string(n),
                              std::to_string(hits) + " hits; the same samples hold " +
                                  std::to_string(expected));
}

// Counts with `count` once (the judged call, which also starts OpenMP's threads or loads
// the kernel's module), then, when right, times the median of `repetitions` wall-clock
// runs. A function not written yet is not called again.
template <typename Count, typename Reference>
course::Judgement count_and_time(course::StudentFunction& function, unsigned long long n,
                                 Count&& count, Reference&& reference, int repetitions,
                                 unsigned long long& hits, double& ms) {
  hits = 0;
  ms = 0.0;
  if (function.not_implemented()) return function.skipped();
  hits = count();
  const course::Judgement result = judge_count(function, n, hits, reference);
  if (result.right) ms = course::time_host([&] { count(); }, 0, repetitions).median_ms;
  return result;
}

int run_demo(unsigned long long seed) {
  course::print_device_banner();
  course::print_cpu_cores();
  const int cpu_threads = omp_get_max_threads();
  std::printf("\npi ~ 4 hits / n for n points uniform in the unit square; standard error "
              "4 sqrt(p (1 - p) / n), p = hits / n\n");
  std::printf("samples/s = n / time of the whole call (GPU: allocation, kernel, copy back); "
              "seed %llu\n\n",
              seed);
  course::StudentFunction disc("in_quarter_disc"), cpu("count_hits_cpu"),
      openmp("count_hits_cpu_openmp"), gpu("count_hits_gpu");

  // The predicate on its test points (workload.hpp); one that answers "outside" for all
  // of them is not written yet.
  bool any_inside = false, all_right = true;
  std::string first_wrong;
  for (const monte_carlo_pi::TestPoint& point : monte_carlo_pi::kTestPoints) {
    const bool got = in_quarter_disc(point.x, point.y);
    const bool expected = monte_carlo_pi::reference_in_quarter_disc(point.x, point.y);
    any_inside = any_inside || got;
    if (got != expected && all_right) {
      first_wrong = "(" + course::format_number(point.x) + ", " + course::format_number(point.y) +
                    ") is " + (expected ? "inside" : "outside") + ", it answered the opposite";
    }
    all_right = all_right && got == expected;
  }
  disc.judge_value(any_inside, all_right, "the test points", first_wrong);

  course::Table table = make_table();  // its headings come with its first right row
  for (const unsigned long long n : kCpuSerialSizes) {
    unsigned long long hits = 0;
    double ms = 0.0;
    const course::Judgement result = count_and_time(
        cpu, n, [&] { return count_hits_cpu(n, seed); },
        [&] { return monte_carlo_pi::cpu_reference_hits(n, seed); }, kCpuRepetitions, hits, ms);
    add_row(table, "CPU, 1 core", n, hits, ms, result);
  }
  for (const unsigned long long n : kCpuOpenmpSizes) {
    unsigned long long hits = 0;
    double ms = 0.0;
    // The chunks draw the same samples whoever runs them: the serial loop's count.
    const course::Judgement result = count_and_time(
        openmp, n, [&] { return count_hits_cpu_openmp(n, seed, cpu_threads); },
        [&] { return monte_carlo_pi::cpu_reference_hits(n, seed); }, kCpuRepetitions, hits, ms);
    add_row(table, "CPU, OpenMP " + std::to_string(cpu_threads) + " thr", n, hits, ms, result);
  }

  // The GPU: each count against the course's reference kernel's for the same samples.
  course::Judgement last_gpu;
  double last_gpu_ms = 0.0;
  unsigned long long last_n = 0;
  for (const unsigned long long n : kGpuSizes) {
    unsigned long long hits = 0;
    double ms = 0.0;
    last_gpu = count_and_time(
        gpu, n, [&] { return count_hits_gpu(n, seed, kDefaultBlocks, kDefaultThreadsPerBlock); },
        [&] {
          return device_reference::reference_count_hits(n, seed, kDefaultBlocks,
                                                        kDefaultThreadsPerBlock);
        },
        kGpuRepetitions, hits, ms);
    add_row(table, "GPU, cuRAND Philox", n, hits, ms, last_gpu);
    last_gpu_ms = ms;
    last_n = n;
  }
  // The reference kernel is timed as the yardstick of a GPU count that is right.
  if (last_gpu.right) {
    unsigned long long reference_hits = 0;
    const double reference_ms = course::time_host(
                                    [&] {
                                      reference_hits = device_reference::reference_count_hits(
                                          last_n, seed, kDefaultBlocks, kDefaultThreadsPerBlock);
                                    },
                                    1, kGpuRepetitions)
                                    .median_ms;
    add_row(table, "GPU, course reference", last_n, reference_hits, reference_ms,
            course::Judgement{});
    std::printf("\nn = %llu: your GPU count runs at %.0f%% of the reference kernel's speed "
                "(reference time / your time, both whole calls, %d x %d threads)\n",
                last_n, 100.0 * reference_ms / last_gpu_ms, kDefaultBlocks,
                kDefaultThreadsPerBlock);
  }
  std::printf("(`make check-15` compares exact counts with the reference for many n and "
              "launches)\n");
  return course::demo_status({&disc, &cpu, &openmp, &gpu});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  unsigned long long seed = kDefaultDemoSeed;
  if (argc > 1) {
    char* end = nullptr;
    seed = std::strtoull(argv[1], &end, 10);
    if (argc > 2 || *end != '\0' || argv[1][0] == '-' || argv[1][0] == '\0') {
      std::fprintf(stderr, "usage: %s [seed, a non-negative integer; default %llu]\n", argv[0],
                   kDefaultDemoSeed);
      return 2;
    }
  }
  return run_demo(seed);
}
