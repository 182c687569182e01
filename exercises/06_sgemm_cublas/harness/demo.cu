// Exercise 06 - the demo (`make run-06`): C = alpha A B + beta C for square matrices from 512 to
// 4096 and one non-square shape, on the CPU (OpenBLAS) and on the GPU (cuBLAS), with
// each side's GFLOP/s, the speedup, the share of the GPU's FP32 peak, and the error of
// both against a float64 reference. `make run-06 ARGS="m n k"` runs one shape of your
// choice. Each result is judged against the float64 reference before it is timed: a
// function not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1.
//
// Build and run:  make 06 && make run-06
#include <algorithm>
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
#include "course/errors_cublas.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "sgemm_cublas.hpp"
#include "workload.hpp"

// OpenBLAS's own function (declared by its cblas.h, not by every cblas.h).
extern "C" int openblas_get_num_threads(void);

namespace {

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 6;
constexpr float kDemoAlpha = 1.5f;
constexpr float kDemoBeta = -0.75f;
// Squares where the GPU goes from underused to full, and a shape that is a multiple of
// nothing.
constexpr int kDemoShapes[][3] = {{512, 512, 512},
                                  {1024, 1024, 1024},
                                  {2048, 2048, 2048},
                                  {4096, 4096, 4096},
                                  {3001, 1999, 1000}};
// The error against a float64 reference is measured on the first shape (or the one
// shape asked for, when it is small enough): the reference is a plain triple loop on
// one core, about a second for this many operations.
constexpr int kPrecisionShape = 0;
constexpr double kMaxReferenceFlops = 2.0e9;
// Repetitions: the median of this many calls on each side, after one untimed call (the
// first cublasSgemm loads its kernels; the first cblas_sgemm starts OpenBLAS's threads),
// and fewer on the CPU where one call costs more than this many operations.
constexpr int kRepetitions = 5;
constexpr double kCpuFlopsPerShape = 2.0e11;

// Runs `call` (which returns a time in ms) `repetitions` times, each on a fresh copy of
// the problem's C in `c` (beta C changes it); returns the median time and leaves the last
// result in `c`. The judged first call before it was the untimed one (the first
// cublasSgemm loads its kernels; the first cblas_sgemm starts OpenBLAS's threads).
template <typename Call>
double median_ms(const sgemm::Problem& problem, std::vector<float>& c, int repetitions,
                 Call&& call) {
  std::vector<double> samples;
  for (int r = 0; r < repetitions; ++r) {
    c = problem.c;
    samples.push_back(call());
  }
  return course::median(samples);
}

// A result is judged at this many entries of C at most, spread over the matrix: each
// costs a float64 dot product of length k.
constexpr std::size_t kJudgedEntries = 4096;

// One result judged against the float64 reference within the check's bound
// (workload.hpp): not written when no judged entry of C changed (beta is not 1, so a
// product always changes it), wrong when an entry is outside its bound.
course::Judgement judge_product(course::StudentFunction& function, const sgemm::Problem& problem,
                                const std::vector<float>& c, const std::string& context) {
  const sgemm::Shape& s = problem.shape;
  bool changed = false;
  std::size_t wrong = 0;
  std::string first_wrong;
  const std::vector<std::size_t> judged =
      course::spread_indices(static_cast<std::size_t>(s.m) * s.n, kJudgedEntries);
  for (const std::size_t entry : judged) {
    const int i = static_cast<int>(entry / s.n), j = static_cast<int>(entry % s.n);
    const std::size_t at = static_cast<std::size_t>(i) * s.ldc + j;
    const float got = c[at];
    if (!(got == problem.c[at])) changed = true;
    const sgemm::Dot dot = sgemm::reference_dot(problem, i, j);
    const double expected = sgemm::combine(problem, dot, i, j);
    if (std::fabs(got - expected) <= sgemm::error_bound(problem, dot, i, j)) continue;
    if (wrong++ == 0) {
      first_wrong = "C[" + std::to_string(i) + "][" + std::to_string(j) + "]: expected " +
                    course::format_number(expected) + ", got " + course::format_number(got);
    }
  }
  return function.judge_value(changed, wrong == 0, context,
                              std::to_string(wrong) + " of " + std::to_string(judged.size()) +
                                  " entries checked are outside the error bound; " + first_wrong);
}

// The largest error of a result against the float64 reference, as a share of the
// largest |reference| and as a share of the check's bound (workload.hpp).
struct ErrorSummary {
  double relative_to_largest = 0.0;
  double share_of_bound = 0.0;
};

std::vector<ErrorSummary> errors_against_reference(const sgemm::Problem& problem,
                                                   const std::vector<std::vector<float>>& results) {
  const sgemm::Shape& s = problem.shape;
  std::vector<double> max_error(results.size(), 0.0), max_share(results.size(), 0.0);
  double largest = 0.0;
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      const sgemm::Dot dot = sgemm::reference_dot(problem, i, j);
      const double expected = sgemm::combine(problem, dot, i, j);
      const double bound = sgemm::error_bound(problem, dot, i, j);
      largest = std::max(largest, std::fabs(expected));
      for (std::size_t r = 0; r < results.size(); ++r) {
        const double got = results[r][static_cast<std::size_t>(i) * s.ldc + j];
        const double error = std::isfinite(got) ? std::fabs(got - expected) : INFINITY;
        max_error[r] = std::max(max_error[r], error);
        if (bound > 0.0) max_share[r] = std::max(max_share[r], error / bound);
      }
    }
  }
  std::vector<ErrorSummary> summaries(results.size());
  for (std::size_t r = 0; r < results.size(); ++r) {
    summaries[r].relative_to_largest = largest > 0.0 ? max_error[r] / largest : max_error[r];
    summaries[r].share_of_bound = max_share[r];
  }
  return summaries;
}

int run_demo(const std::vector<sgemm::Shape>& shapes) {
  const course::DeviceSummary device = course::print_device_banner();
  const double peak_gflops = course::fp32_peak_gflops(device);
  if (peak_gflops > 0.0) {
    std::printf("FP32 peak: %.1f TFLOP/s = %d SMs x %d FP32 lanes per SM x 2 x %.0f MHz\n"
                "           (%s; the clock is cudaDevAttrClockRate's boost clock)\n",
                peak_gflops / 1e3, device.multiprocessors,
                course::fp32_lanes_per_sm(device.cc_major, device.cc_minor),
                device.sm_clock_khz / 1e3, course::kFp32PeakFormula);
  } else {
    std::printf("FP32 peak: unknown for compute capability %d.%d (device_info.hpp's table)\n",
                device.cc_major, device.cc_minor);
  }
  std::printf("cuBLAS math mode: the default, CUBLAS_DEFAULT_MATH: FP32 arithmetic on the FP32 "
              "lanes, no TF32 tensor cores\n");
  course::print_cpu_cores();
  std::printf("OpenBLAS: %d threads (OPENBLAS_NUM_THREADS=1 make run-06 for one core)\n",
              openblas_get_num_threads());
  std::printf("\nC = alpha A B + beta C, alpha = %g, beta = %g, row-major, float32\n", kDemoAlpha,
              kDemoBeta);
  std::printf("GFLOP/s = 2 m n k / time of the multiply alone (GPU: CUDA events around "
              "cublasSgemm; no transfers, no handle creation)\n");
  std::printf("speedup = CPU ms / GPU ms; %% of peak = GPU GFLOP/s / FP32 peak\n\n");
  course::Table table("sgemm", "C = alpha A B + beta C: OpenBLAS on the CPU, cuBLAS on the GPU",
                      {course::Column::integer("m", "m", 6), course::Column::integer("n", "n", 6),
                       course::Column::integer("k", "k", 6),
                       course::Column::number("cpu_ms", "CPU ms", 10, 3),
                       course::Column::number("cpu_gflops", "CPU GFLOP/s", 12, 1),
                       course::Column::number("gpu_ms", "GPU ms", 10, 4),
                       course::Column::number("gpu_gflops", "GPU GFLOP/s", 12, 1),
                       course::Column::number("speedup", "speedup", 9, 1, "x"),
                       course::Column::number("peak_percent", "% of peak", 10, 1, "%")});

  course::StudentFunction cpu("sgemm_on_cpu"), gpu("sgemm_on_gpu");
  std::vector<float> cpu_c, gpu_c;
  for (std::size_t index = 0; index < shapes.size(); ++index) {
    const sgemm::Shape& s = shapes[index];
    if (cpu.not_implemented() && gpu.not_implemented()) {
      // Neither side is written yet: no problem to draw, nothing to call.
      table.record_row({s.m, s.n, s.k, course::Cell(), course::Cell(), course::Cell(),
                        course::Cell(), course::Cell(), course::Cell()},
                       course::all_of({cpu.skipped(), gpu.skipped()}).problem);
      continue;
    }
    const sgemm::Problem problem = sgemm::make_problem(s, kDemoAlpha, kDemoBeta, kDemoSeed);
    const std::string context =
        std::to_string(s.m) + " x " + std::to_string(s.n) + " x " + std::to_string(s.k);
    // Each side: one call judged (a function not written yet is not called again), then
    // timed if its result is right.
    course::Judgement cpu_result = cpu.skipped(), gpu_result = gpu.skipped();
    double cpu_ms = 0.0, gpu_ms = 0.0;
    const auto call_cpu = [&] {
      const course::WallTimer timer;
      sgemm_on_cpu(s.m, s.n, s.k, kDemoAlpha, problem.a.data(), s.lda, problem.b.data(), s.ldb,
                   kDemoBeta, cpu_c.data(), s.ldc);
      return timer.elapsed_ms();
    };
    // What sgemm_on_gpu returns: the multiply alone, timed with events.
    const auto call_gpu = [&] {
      return static_cast<double>(sgemm_on_gpu(s.m, s.n, s.k, kDemoAlpha, problem.a.data(), s.lda,
                                              problem.b.data(), s.ldb, kDemoBeta, gpu_c.data(),
                                              s.ldc));
    };
    if (!cpu.not_implemented()) {
      cpu_c = problem.c;
      call_cpu();
      cpu_result = judge_product(cpu, problem, cpu_c, context);
      const int cpu_repetitions =
          std::clamp(static_cast<int>(kCpuFlopsPerShape / s.flops()), 1, kRepetitions);
      if (cpu_result.right) cpu_ms = median_ms(problem, cpu_c, cpu_repetitions, call_cpu);
    }
    if (!gpu.not_implemented()) {
      gpu_c = problem.c;
      const double first_ms = call_gpu();
      gpu_result = judge_product(gpu, problem, gpu_c, context);
      if (gpu_result.right) gpu_result = gpu.judge_time(first_ms, "multiply time");
      if (gpu_result.right) gpu_ms = median_ms(problem, gpu_c, kRepetitions, call_gpu);
    }
    const double cpu_gflops = course::gigaflops_per_second(s.flops(), cpu_ms);
    const double gpu_gflops = course::gigaflops_per_second(s.flops(), gpu_ms);
    const course::Judgement both = course::all_of({cpu_result, gpu_result});
    std::vector<course::Cell> cells = {
        s.m,
        s.n,
        s.k,
        cpu_result.figure(cpu_ms),
        cpu_result.figure(cpu_gflops),
        gpu_result.figure(gpu_ms),
        gpu_result.figure(gpu_gflops),
        both.figure(cpu_ms / gpu_ms),
        gpu_result.figure(peak_gflops > 0.0 ? 100.0 * gpu_gflops / peak_gflops : NAN)};
    if (!cpu_result.right && !gpu_result.right) {
      table.record_row(std::move(cells), both.problem);
      continue;
    }
    table.add_row(std::move(cells), both.problem);

    const bool precision_row =
        index == static_cast<std::size_t>(kPrecisionShape) || shapes.size() == 1;
    if (precision_row && s.flops() <= kMaxReferenceFlops && both.right) {
      const std::vector<ErrorSummary> errors = errors_against_reference(problem, {cpu_c, gpu_c});
      std::printf("       against a float64 reference: largest error / largest |C| = %.2g (CPU), "
                  "%.2g (GPU);\n       largest error / the check's bound (k + 2) 2^-24 "
                  "(|alpha| sum |a b| + |beta c|) x %g = %.2g (CPU), %.2g (GPU)\n",
                  errors[0].relative_to_largest, errors[1].relative_to_largest, sgemm::kBoundSafety,
                  errors[0].share_of_bound, errors[1].share_of_bound);
    }
  }
  std::printf("\n(`make check-06` grades every case against a float64 reference)\n");
  return course::demo_status({&cpu, &gpu});
}

// The demo's optional arguments: one shape, "m n k", each from 1 to this.
constexpr long kMaxDemoDimension = 16384;

}  // namespace

int course::program::demo(int argc, char** argv) {
  std::vector<sgemm::Shape> shapes;
  if (argc == 1) {
    for (const auto& mnk : kDemoShapes)
      shapes.push_back(sgemm::Shape::dense(mnk[0], mnk[1], mnk[2]));
    return run_demo(shapes);
  }
  long mnk[3] = {0, 0, 0};
  bool valid = argc == 4;
  for (int i = 0; valid && i < 3; ++i) {
    char* end = nullptr;
    mnk[i] = std::strtol(argv[i + 1], &end, 10);
    valid = *end == '\0' && mnk[i] >= 1 && mnk[i] <= kMaxDemoDimension;
  }
  if (!valid) {
    std::fprintf(stderr, "usage: %s [m n k]   (each from 1 to %ld; default: a series of shapes)\n",
                 argv[0], kMaxDemoDimension);
    return 2;
  }
  shapes.push_back(sgemm::Shape::dense(static_cast<int>(mnk[0]), static_cast<int>(mnk[1]),
                                       static_cast<int>(mnk[2])));
  return run_demo(shapes);
}
