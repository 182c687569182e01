// Exercise 18 - the demo (`make run-18`): the dot product of 10^8 positive values with
// every step, beside the exact value and one float accumulator's (which stops growing at
// 2^24); then a table of every step on 64M floats against CUB's
// DeviceReduce::TransformReduce, cublasSdot and a naive reduction (one atomicAdd per
// element), with times, GB/s, the share of the copy ceiling and the throughput relative
// to CUB, measured in the same run. Every result is compared with the exact value before
// it is shown or timed: a function not written yet, or wrong, gets a line that says so
// and no figure (course/demo_results.hpp), and the demo then ends with status 1.
//
// Build and run:  make 18 && make run-18
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "dot_product.hpp"
#include "steps.cuh"
#include "workload.hpp"

namespace {

using dot_product::CubDot;
using dot_product::CublasDot;
using dot_product::DeviceInputs;
using dot_product::kSteps;
using dot_product::Step;

// [slide:naive]
// The naive reduction: every thread adds its products to one float in global memory.
// The atomics on one address are served one at a time, and the float stops growing
// once a product is below half its ulp.
__global__ void naive_atomic_dot(const float* x, const float* y, int n, float* result) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(result, x[i] * y[i]);
  }
}
// [/slide]

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoAccuracyElements = 100000000;
constexpr int kDemoSpeedElements = 64 << 20;  // 512 MiB for x and y
constexpr int kDemoRepetitions = 10;
// The naive reduction's blocks: enough threads to queue on the one address.
constexpr int kNaiveBlocks = 1024;

// The student's functions, judged before anything they computed is shown.
struct DemoFunctions {
  course::StudentFunction tree{"dot_tree_on_device"};
  course::StudentFunction first_add{"dot_first_add_on_device"};
  course::StudentFunction warp_shuffle{"dot_warp_shuffle_on_device"};
  course::StudentFunction grid_stride{"dot_on_device"};
  course::StudentFunction& of(int step) {
    course::StudentFunction* all[] = {&tree, &first_add, &warp_shuffle, &grid_stride};
    return *all[step];
  }
};

// A step's result against the exact sum, within the bound that step earns.
course::Judgement judge_result(course::StudentFunction& function, float got,
                               const dot_product::Sums& exact, double depth,
                               const std::string& context) {
  const double bound = dot_product::gamma_bound(depth) * exact.abs;
  const bool right = std::fabs(static_cast<double>(got) - exact.dot) <= bound;
  return function.judge_value(!course::is_poison(got), right, context,
                              "got " + course::format_number(got) + ", expected " +
                                  course::format_number(exact.dot) + " within " +
                                  course::format_number(bound));
}

// The rounding depth of a step's launcher on n elements (workload.hpp).
double launcher_depth(const Step& step, std::int64_t n) {
  if (step.elements_per_block == 0) {
    return dot_product::rounding_depth((n + dot_product::kMinGridStrideThreads - 1) /
                                           dot_product::kMinGridStrideThreads,
                                       partials_capacity(n));
  }
  const std::int64_t partials = (n + step.elements_per_block - 1) / step.elements_per_block;
  return dot_product::rounding_depth(step.elements_per_block / kThreadsPerBlock, partials);
}

// Runs a step's launcher on poisoned output; its result.
float run_launcher(const Step& step, DeviceInputs& in, int n) {
  in.result.poison();
  step.launcher(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
  return in.result.download()[0];
}

void demo_accuracy(DemoFunctions& functions) {
  const int n = kDemoAccuracyElements;
  std::printf("\nPart 1. Accuracy: x . y of %d values uniform in [0, 1), summed in float\n", n);
  const dot_product::StreamedSums sums =
      dot_product::streamed_sums(n, kDemoSeed, dot_product::Values::positive_unit);
  std::printf("  %-28s %16.1f\n", "exact (double, compensated)", sums.exact.dot);
  std::printf("  %-28s %16.1f   relative error %.2e   (one float accumulator)\n",
              "one thread, in index order", sums.naive,
              std::fabs(sums.naive - sums.exact.dot) / sums.exact.dot);
  DeviceInputs in(n, kDemoSeed, dot_product::Values::positive_unit);
  for (int s = 0; s < 4; ++s) {
    const Step& step = kSteps[s];
    course::StudentFunction& function = functions.of(s);
    if (function.not_implemented()) continue;
    const float got = run_launcher(step, in, n);
    if (judge_result(function, got, sums.exact, launcher_depth(step, n), "n = 10^8").right) {
      std::printf("  %-28s %16.1f   relative error %.2e\n", step.label, got,
                  std::fabs(got - sums.exact.dot) / sums.exact.dot);
    }
  }
}

struct SpeedRow {
  std::string label;
  course::Judgement result;
  double ms;
};

void demo_speed(double ceiling_gbps, DemoFunctions& functions) {
  const int n = kDemoSpeedElements;
  const double bytes = 2.0 * sizeof(float) * n;
  std::printf("\nPart 2. Speed: x . y of %d floats (uniform in [-1, 1))\n", n);
  std::printf("GB/s = 2 arrays x 4 B x n / time (bytes read; the partials are negligible); "
              "copy ceiling (device-to-device copy, same run) = %.1f GB/s; x CUB = CUB's time / "
              "this time\n",
              ceiling_gbps);
  DeviceInputs in(n, kDemoSeed, dot_product::Values::signed_unit);
  const dot_product::Sums exact =
      dot_product::streamed_sums(n, kDemoSeed, dot_product::Values::signed_unit).exact;
  const std::string context = "n = " + std::to_string(n);

  std::vector<SpeedRow> rows;
  // The student's steps: each judged by its launcher's result; steps 1 to 3 timed by
  // their first pass alone (their second pass sums n / 256 or n / 512 partials in one
  // block), step 4 with both passes.
  for (int s = 0; s < 4; ++s) {
    const Step& step = kSteps[s];
    course::StudentFunction& function = functions.of(s);
    course::Judgement result = function.skipped();
    if (!function.not_implemented()) {
      result = judge_result(function, run_launcher(step, in, n), exact, launcher_depth(step, n),
                            context);
    }
    double ms = 0.0;
    if (result.right && step.elements_per_block > 0) {
      const int blocks = (n + step.elements_per_block - 1) / step.elements_per_block;
      ms = course::time_device(
               [&] {
                 step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n,
                                                           in.partials.data());
                 CUDA_CHECK_LAUNCH();
               },
               2, kDemoRepetitions)
               .median_ms;
    } else if (result.right) {
      ms = course::time_device(
               [&] {
                 dot_on_device(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
               },
               2, kDemoRepetitions)
               .median_ms;
    }
    rows.push_back(
        {std::string(step.label) + (step.elements_per_block > 0 ? " (1st pass)" : ""), result, ms});
  }
  // The yardsticks are the course's: compared with the exact sum, not judged as yours.
  course::StudentFunction library("the course's yardsticks");
  const double depth = launcher_depth(kSteps[3], n);
  CubDot cub_dot(in.x.data(), in.y.data(), n, in.result.data());
  CublasDot cublas_dot;
  auto measure = [&](const char* label, auto&& work, int repetitions) {
    in.result.poison();
    work();
    const course::Judgement result =
        judge_result(library, in.result.download()[0], exact, depth, std::string(label));
    const double ms = result.right ? course::time_device(work, 1, repetitions).median_ms : 0.0;
    rows.push_back({label, result, ms});
  };
  measure(
      "CUB TransformReduce", [&] { cub_dot.run(); }, kDemoRepetitions);
  measure(
      "cublasSdot", [&] { cublas_dot.run(in.x.data(), in.y.data(), n, in.result.data()); },
      kDemoRepetitions);
  const double cub_ms = rows[4].ms;
  const course::Judgement cub_result = rows[4].result;
  // The naive one is timed once: its result drifts (the order of the atomics changes
  // it), and it takes tens of milliseconds.
  auto naive = [&] {
    CUDA_CHECK(cudaMemset(in.result.data(), 0, sizeof(float)));
    naive_atomic_dot<<<kNaiveBlocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n,
                                                         in.result.data());
    CUDA_CHECK_LAUNCH();
  };
  const double naive_ms = course::time_device(naive, 0, 1).median_ms;
  rows.push_back({"naive: atomicAdd per element", course::Judgement{}, naive_ms});

  course::Table table("speed", "x . y of " + std::to_string(n) + " floats",
                      {course::Column::text("method", "", 34),
                       course::Column::number("ms", "ms", 9, 4),
                       course::Column::number("gbps", "GB/s", 9, 1),
                       course::Column::number("ceiling_percent", "% of copy", 10, 1, "%"),
                       course::Column::number("times_cub", "x CUB", 8, 2)});
  for (const SpeedRow& row : rows) {
    const double gbps = course::gigabytes_per_second(bytes, row.ms);
    const course::Judgement both = course::all_of({row.result, cub_result});
    std::vector<course::Cell> cells = {
        row.label, row.result.figure(row.ms), row.result.figure(gbps),
        row.result.figure(ceiling_gbps > 0.0 ? 100.0 * gbps / ceiling_gbps : NAN),
        both.figure(cub_ms / row.ms)};
    if (row.result.right) {
      table.add_row(std::move(cells), row.result.problem);
    } else {
      table.record_row(std::move(cells), row.result.problem);
    }
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  DemoFunctions functions;
  demo_accuracy(functions);
  const bool any_written =
      !functions.tree.not_implemented() || !functions.first_add.not_implemented() ||
      !functions.warp_shuffle.not_implemented() || !functions.grid_stride.not_implemented();
  if (any_written) {
    demo_speed(course::measure_copy_ceiling_gbps(), functions);
  } else {
    // Nothing of yours to compare: no yardstick is timed either.
    std::printf("\nPart 2. Speed: not run, no launcher of yours is written yet\n");
  }
  std::printf("\n(`make check-18` grades every case)\n");
  return course::demo_status(
      {&functions.tree, &functions.first_add, &functions.warp_shuffle, &functions.grid_stride});
}
