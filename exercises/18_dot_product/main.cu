// Exercise 18 - the program around the student's functions (instructor-owned).
//
// `make run-18` runs the demo: the dot product of 10^8 positive values with every step,
// beside the exact value and one float accumulator's (which stops growing at 2^24); then
// a table of every step on 64M floats against CUB's DeviceReduce::TransformReduce,
// cublasSdot and a naive reduction (one atomicAdd per element), with times, GB/s, the
// share of the copy ceiling and the throughput relative to CUB, measured in the same
// run. Every result is compared with the exact value before it is shown or timed: a
// function not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1. The check runs this
// same program with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 18 && make run-18
#include <cublas_v2.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/cublas_handle.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "dot_product.hpp"
#include "workload.hpp"

namespace {

using Kernel = void (*)(const float*, const float*, int, float*);
using Launcher = void (*)(const float*, const float*, int, float*, float*);

// ---------------------------------------------------------------------------
// The steps, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;        // the check's name
  const char* label;       // the demo's
  Kernel kernel;           // the first pass
  int elements_per_block;  // of the first pass, on its own grid; 0: any grid
  Launcher launcher;
};

const Step kSteps[] = {
    {"tree", "1 tree in shared memory", dot_tree, kThreadsPerBlock, dot_tree_on_device},
    {"first_add", "2 first add in the load", dot_first_add, 2 * kThreadsPerBlock,
     dot_first_add_on_device},
    {"warp_shuffle", "3 last warp: shuffles", dot_warp_shuffle, 2 * kThreadsPerBlock,
     dot_warp_shuffle_on_device},
    {"grid_stride", "4 grid-stride + 2nd pass", dot_grid_stride, 0, dot_on_device},
};

const Step& step_named(const std::string& name) {
  for (const Step& step : kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown step '%s'\n", name.c_str());
  std::exit(2);
}

// ---------------------------------------------------------------------------
// Inputs on the device: n values, then kPadding NaNs that no kernel may read.
// ---------------------------------------------------------------------------
std::vector<float> padded(std::vector<float> values) {
  values.resize(values.size() + dot_product::kPadding, NAN);
  return values;
}

struct DeviceInputs {
  DeviceInputs(std::int64_t n, std::uint64_t seed, dot_product::Values kind,
               dot_product::Special special = dot_product::Special::none)
      : x(padded(dot_product::make_input(n, 0, seed, kind, special))),
        y(padded(dot_product::make_input(n, 1, seed, kind, special))),
        partials(static_cast<std::size_t>(std::max<std::int64_t>(1, partials_capacity(n)))),
        result(1) {}
  course::DeviceBuffer<float> x, y, partials, result;
};

dot_product::Values values_named(const std::string& name) {
  return name == "positive" ? dot_product::Values::positive_unit : dot_product::Values::signed_unit;
}

// ---------------------------------------------------------------------------
// The yardsticks: CUB's transform-reduce of the products, cuBLAS's dot, and a naive
// reduction of the driver's own.
// ---------------------------------------------------------------------------

// The product of element i, for CUB's transform.
struct ProductAt {
  const float* x;
  const float* y;
  __device__ float operator()(int i) const { return x[i] * y[i]; }
};

// CUB's dot product of the same inputs, with its temporary storage allocated once.
class CubDot {
 public:
  CubDot(const float* x, const float* y, int n, float* result)
      : product_{x, y}, n_(n), result_(result) {
    CUDA_CHECK(enqueue(nullptr));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
  }
  ~CubDot() { cudaFree(temp_); }
  CubDot(const CubDot&) = delete;
  CubDot& operator=(const CubDot&) = delete;
  void run() { CUDA_CHECK(enqueue(temp_)); }

 private:
  cudaError_t enqueue(void* temp) {
    return cub::DeviceReduce::TransformReduce(temp, temp_bytes_, thrust::counting_iterator<int>(0),
                                              result_, n_, cuda::std::plus<float>{}, product_,
                                              0.0f);
  }
  ProductAt product_;
  int n_;
  float* result_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

// cublasSdot with the result left on the device, so that it does not wait.
class CublasDot {
 public:
  CublasDot() { CUBLAS_CHECK(cublasSetPointerMode(handle_.get(), CUBLAS_POINTER_MODE_DEVICE)); }
  void run(const float* x, const float* y, int n, float* result) {
    CUBLAS_CHECK(cublasSdot(handle_.get(), n, x, 1, y, 1, result));
  }

 private:
  course::CublasHandle handle_;
};

// The tree with interleaved addressing, the textbook's first version that the statement
// warns about: the yardstick of the tree step's speed. Both trees are bound by the
// multiprocessors' barriers and shared-memory traffic, not by memory bandwidth, so their
// ratio is the same on any GPU (2.0 on the H100 and on the H200), where a ratio to CUB
// follows the memory's speed (0.56 on the H100, 0.41 on the H200).
__global__ void interleaved_tree_first_pass(const float* x, const float* y, int n,
                                            float* partials) {
  __shared__ float cache[kThreadsPerBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  cache[t] = i < n ? x[i] * y[i] : 0.0f;
  __syncthreads();
  for (int s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0) cache[t] += cache[t + s];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = cache[0];
}

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

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

// A step's first pass alone, on the grid the check chose.
void run_kernel_case(const course::check::CaseRequest& request,
                     course::check::ResultWriter& results) {
  const Step& step = step_named(request.param("step"));
  const int n = static_cast<int>(request.param_int("n"));
  const int blocks = static_cast<int>(request.param_int("blocks"));
  DeviceInputs in(n, request.seed, dot_product::Values::signed_unit);
  course::DeviceBuffer<float> partials(static_cast<std::size_t>(blocks));
  step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n, partials.data());
  CUDA_CHECK_LAUNCH();
  results.put("partials", partials.download());
}

// The second pass alone, on `count` partials drawn from the seed.
void run_sum_partials_case(const course::check::CaseRequest& request,
                           course::check::ResultWriter& results) {
  const int count = static_cast<int>(request.param_int("count"));
  course::DeviceBuffer<float> partials(
      padded(dot_product::make_input(count, 0, request.seed, dot_product::Values::signed_unit)));
  course::DeviceBuffer<float> result(1);
  sum_partials<<<1, kThreadsPerBlock>>>(partials.data(), count, result.data());
  CUDA_CHECK_LAUNCH();
  results.put("result", result.download());
}

// One launcher, on inputs of the kind the check asked for.
void run_dot_case(const course::check::CaseRequest& request, course::check::ResultWriter& results) {
  const Step& step = step_named(request.param("step"));
  const int n = static_cast<int>(request.param_int("n"));
  DeviceInputs in(n, request.seed, values_named(request.param("values")),
                  dot_product::special_from_name(request.param("special")));
  step.launcher(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
  results.put("result", in.result.download());
}

// Every launcher on the same (large) inputs: result_<step>.
void run_accuracy_case(const course::check::CaseRequest& request,
                       course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  DeviceInputs in(n, request.seed, dot_product::Values::positive_unit);
  for (const Step& step : kSteps) {
    in.result.poison();
    step.launcher(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
    results.put(std::string("result_") + step.name, in.result.download());
  }
}

// Timing (course::best_of_rounds_ms): rounds of the yardsticks and the student's work in
// turn, each the median of `repetitions` timed calls; the best round of each counts.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// The first passes of steps 1 to 3 against CUB's whole dot product and the interleaved
// tree's first pass: <step>_ms, cub_ms, interleaved_ms.
void run_steps_speed_case(const course::check::CaseRequest& request,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  DeviceInputs in(n, request.seed, dot_product::Values::signed_unit);
  CubDot cub_dot(in.x.data(), in.y.data(), n, in.result.data());
  // The first pass of step s, on as many blocks as it needs.
  const auto first_pass = [&](int s) {
    return [&, s] {
      const Step& step = kSteps[s];
      const int blocks = (n + step.elements_per_block - 1) / step.elements_per_block;
      step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n, in.partials.data());
      CUDA_CHECK_LAUNCH();
    };
  };
  const auto interleaved_tree = [&] {
    const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    interleaved_tree_first_pass<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n,
                                                              in.partials.data());
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<double> best = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, repetitions, [&] { cub_dot.run(); }, interleaved_tree,
      first_pass(0), first_pass(1), first_pass(2));
  const double cub_ms = best[0];
  const double step_ms[3] = {best[2], best[3], best[4]};
  results.put_value("cub_ms", cub_ms);
  results.put_value("interleaved_ms", best[1]);
  for (int s = 0; s < 3; ++s) {
    // What the timed first pass computes, on partials poisoned first: their sum, in
    // double (NaN when one was not written), for the check to judge before any time.
    const Step& step = kSteps[s];
    const int blocks = (n + step.elements_per_block - 1) / step.elements_per_block;
    in.partials.poison();
    step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n, in.partials.data());
    CUDA_CHECK_LAUNCH();
    const std::vector<float> partials = in.partials.download();
    double sum = 0.0;
    for (int b = 0; b < blocks; ++b) sum += partials[static_cast<std::size_t>(b)];
    results.put_value(std::string(step.name) + "_sum", sum);
    results.put_value(std::string(step.name) + "_ms", step_ms[s]);
  }
}

// dot_on_device against CUB, cuBLAS and the copy ceiling: its result first, then
// final_ms, cub_ms, cublas_ms, copy_gbps.
void run_final_speed_case(const course::check::CaseRequest& request,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  DeviceInputs in(n, request.seed, dot_product::Values::signed_unit);
  auto final_dot = [&] {
    dot_on_device(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
  };
  final_dot();
  results.put("result", in.result.download());
  CubDot cub_dot(in.x.data(), in.y.data(), n, in.result.data());
  CublasDot cublas_dot;
  const std::vector<double> best = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, repetitions, [&] { cub_dot.run(); }, final_dot,
      [&] { cublas_dot.run(in.x.data(), in.y.data(), n, in.result.data()); });
  results.put_value("cub_ms", best[0]);
  results.put_value("final_ms", best[1]);
  results.put_value("cublas_ms", best[2]);
  // Not under compute-sanitizer (the check says ceiling=0): its buffers are hundreds of MiB.
  const bool ceiling = request.param_int("ceiling") != 0;
  results.put_value("copy_gbps", ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "kernel") {
    run_kernel_case(request, results);
  } else if (kind == "sum_partials") {
    run_sum_partials_case(request, results);
  } else if (kind == "dot") {
    run_dot_case(request, results);
  } else if (kind == "accuracy") {
    run_accuracy_case(request, results);
  } else if (kind == "steps_speed") {
    run_steps_speed_case(request, results);
  } else if (kind == "final_speed") {
    run_final_speed_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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

int demo() {
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

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
