// Exercise 21 - the demo (`make run-21`): C = A B for 4096^3 with every step (the sixth
// optional), the course's coalesced naive kernel and cuBLAS SGEMM, each judged on sampled
// elements against a float64 reference before it is timed; then a table of milliseconds,
// GFLOP/s (2 m n k / time), the share of cuBLAS measured in the same run and the share of
// the GPU's FP32 peak. A step not written yet, or wrong, gets a line that says so and no
// figure (course/demo_results.hpp), and the demo then ends with status 1; the optional step
// only when it is wrong, not when it is not written.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "steps.cuh"
#include "tiled_sgemm.hpp"
#include "workload.hpp"

namespace {

using tiled_sgemm::DeviceProblem;
using tiled_sgemm::kGradedStepCount;
using tiled_sgemm::kStepCount;
using tiled_sgemm::kSteps;
using tiled_sgemm::Step;

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoSize = tiled_sgemm::kFinalSpeedSize;
constexpr int kDemoRepetitions = 10;
constexpr int kDemoWarmup = 2;

struct Row {
  std::string label;
  course::Judgement result;
  double ms = 0.0;
};

// Runs `work` once on C poisoned, judges the sampled elements, and times it when right.
template <typename Work>
Row measure(const std::string& label, course::StudentFunction& function, DeviceProblem& d,
            const std::vector<tiled_sgemm::Element>& sampled, Work&& work) {
  d.c.poison();
  work();
  const std::vector<float> got = tiled_sgemm::values_at(d.c.download(), d.p.shape, sampled);
  const tiled_sgemm::Verdict verdict = tiled_sgemm::compare_elements(d.p, sampled, got);
  const course::Judgement result =
      function.judge_value(verdict.unwritten < verdict.count, verdict.right(),
                           std::to_string(kDemoSize) + "^3", verdict.text());
  const double ms =
      result.right ? course::time_device(work, kDemoWarmup, kDemoRepetitions).median_ms : 0.0;
  return {label, result, ms};
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  const course::DeviceSummary device = course::print_device_banner();
  const double peak_gflops = course::fp32_peak_gflops(device);
  std::printf("FP32 peak = %s = %.0f GFLOP/s (FP32 lanes per SM: %d, from the CUDA C++ "
              "Programming Guide's throughput table, course/device_info.hpp)\n",
              course::kFp32PeakFormula, peak_gflops,
              course::fp32_lanes_per_sm(device.cc_major, device.cc_minor));

  const tiled_sgemm::Shape shape = tiled_sgemm::Shape::dense(kDemoSize, kDemoSize, kDemoSize);
  const tiled_sgemm::Problem problem = sgemm::make_problem(shape, 1.0f, 0.0f, kDemoSeed);
  const std::vector<tiled_sgemm::Element> sampled = tiled_sgemm::sampled_elements(shape, kDemoSeed);
  DeviceProblem d(problem);
  std::printf("\nC = A B, %d x %d x %d, row-major, FP32; each result checked on %d elements "
              "against float64 before it is timed\n",
              kDemoSize, kDemoSize, kDemoSize, tiled_sgemm::kSampledElements);
  std::printf("GFLOP/s = 2 m n k / time; %% of cuBLAS = cuBLAS's time / this time (same run, "
              "CUBLAS_DEFAULT_MATH: FP32, TF32 off); %% of peak = GFLOP/s / FP32 peak\n");

  std::vector<course::StudentFunction> functions;
  for (const Step& step : kSteps) functions.emplace_back(step.function);
  std::vector<Row> rows;
  for (int s = 0; s < kStepCount; ++s) {
    rows.push_back(measure(kSteps[s].label, functions[static_cast<std::size_t>(s)], d, sampled,
                           [&] { d.run(kSteps[s].launcher); }));
  }
  bool any_written = false;
  for (const course::StudentFunction& f : functions)
    any_written = any_written || !f.not_implemented();
  if (!any_written) {
    // Nothing of yours to compare: no yardstick is timed either.
    std::printf("\nnot measured: no step of yours is written yet\n");
    return EXIT_FAILURE;
  }
  // The yardsticks are the course's: compared with the reference, not judged as yours.
  course::StudentFunction library("the course's yardsticks");
  tiled_sgemm::Cublas cublas;
  rows.push_back(measure("coalesced naive (the course's)", library, d, sampled, [&] {
    tiled_sgemm::launch_yardstick(kDemoSize, kDemoSize, kDemoSize, d.a.data(), d.b.data(),
                                  d.c.data());
  }));
  rows.push_back(measure("cuBLAS SGEMM", library, d, sampled, [&] {
    cublas.sgemm(kDemoSize, kDemoSize, kDemoSize, 1.0f, d.a.data(), d.b.data(), 0.0f, d.c.data());
  }));
  const Row& cublas_row = rows.back();

  course::Table table("sgemm", std::to_string(kDemoSize) + "^3, FP32",
                      {course::Column::text("method", "", 42),
                       course::Column::number("ms", "ms", 9, 3),
                       course::Column::number("gflops", "GFLOP/s", 10, 0),
                       course::Column::number("cublas_percent", "% cuBLAS", 9, 1, "%"),
                       course::Column::number("peak_percent", "% peak", 8, 1, "%")});
  for (const Row& row : rows) {
    const double gflops = shape.flops() / (row.ms * 1e6);  // 2 m n k / time
    const course::Judgement both = course::all_of({row.result, cublas_row.result});
    std::vector<course::Cell> cells = {
        row.label, row.result.figure(row.ms), row.result.figure(gflops),
        both.figure(100.0 * cublas_row.ms / row.ms),
        row.result.figure(peak_gflops > 0.0 ? 100.0 * gflops / peak_gflops : NAN)};
    if (row.result.right) {
      table.add_row(std::move(cells), row.result.problem);
    } else {
      table.record_row(std::move(cells), row.result.problem);
    }
  }
  std::printf("\n(`make check-21` grades every case)\n");
  static_assert(kGradedStepCount == 5 && kStepCount == 6, "every step's function is judged below");
  const course::StudentFunction& optional = functions[kGradedStepCount];
  if (!optional.ready() && !optional.not_implemented()) return EXIT_FAILURE;
  return course::demo_status(
      {&functions[0], &functions[1], &functions[2], &functions[3], &functions[4]});
}
