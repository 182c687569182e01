// Exercise 21 - the program around the student's functions (instructor-owned).
//
// `make run-21` runs the demo: C = A B for 4096^3 with every step, the course's coalesced
// naive kernel and cuBLAS SGEMM, each judged on sampled elements against a float64
// reference before it is timed; then a table of milliseconds, GFLOP/s (2 m n k / time),
// the share of cuBLAS measured in the same run and the share of the GPU's FP32 peak. A
// step not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1. The check runs this
// same program with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 21 && make run-21
#include <cublas_v2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
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
#include "tiled_sgemm.hpp"
#include "workload.hpp"

namespace {

using Launcher = void (*)(int, int, int, float, const float*, const float*, float, float*);

// ---------------------------------------------------------------------------
// The steps, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;      // the check's
  const char* function;  // the student's launcher, as the demo names it
  const char* label;     // the demo's
  Launcher launcher;
};

const Step kSteps[] = {
    {"naive", "sgemm_naive_on_device", "1 naive", sgemm_naive_on_device},
    {"shared_tiles", "sgemm_shared_tiles_on_device", "2 shared-memory tiles 32 x 32",
     sgemm_shared_tiles_on_device},
    {"blocking_1d", "sgemm_blocking_1d_on_device", "3 1D blocking, 8 per thread",
     sgemm_blocking_1d_on_device},
    {"blocking_2d", "sgemm_blocking_2d_on_device", "4 2D blocking, 8 x 8 per thread",
     sgemm_blocking_2d_on_device},
    {"vectorized", "sgemm_vectorized_on_device", "5 float4, A transposed",
     sgemm_vectorized_on_device},
};
constexpr int kStepCount = sizeof(kSteps) / sizeof(kSteps[0]);
const Step& kFinalStep = kSteps[kStepCount - 1];
const Step& kNaiveStep = kSteps[0];

const Step& step_named(const std::string& name) {
  for (const Step& step : kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown step '%s'\n", name.c_str());
  std::exit(2);
}

// ---------------------------------------------------------------------------
// The yardsticks
// ---------------------------------------------------------------------------

// The naive kernel done right, to time the student's against: one thread per element
// of C in blocks of 32 x 8 (the shape the statement suggests, so that both reuse what L1
// holds alike), threadIdx.x on the columns: coalesced reads of B and writes of C, one
// broadcast A(i, p) per warp.
constexpr unsigned kYardstickColumns = 32;
constexpr unsigned kYardstickRows = 8;

__global__ void coalesced_naive_yardstick(int m, int n, int k, const float* a, const float* b,
                                          float* c) {
  const unsigned column = blockIdx.x * kYardstickColumns + threadIdx.x;
  const unsigned row = blockIdx.y * kYardstickRows + threadIdx.y;
  if (row >= static_cast<unsigned>(m) || column >= static_cast<unsigned>(n)) return;
  const float* a_row = a + static_cast<std::size_t>(row) * k;
  const float* b_column = b + column;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p, b_column += n) sum += a_row[p] * *b_column;
  c[static_cast<std::size_t>(row) * n + column] = sum;  // alpha = 1, beta = 0: the speed runs'
}

void launch_yardstick(int m, int n, int k, const float* a, const float* b, float* c) {
  const dim3 threads(kYardstickColumns, kYardstickRows);
  const dim3 blocks((n + kYardstickColumns - 1) / kYardstickColumns,
                    (m + kYardstickRows - 1) / kYardstickRows);
  coalesced_naive_yardstick<<<blocks, threads>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
}

// cuBLAS SGEMM on the same row-major matrices, with exercise 06's operand swap (C = A B
// is column-major C^T = B^T A^T). CUBLAS_DEFAULT_MATH computes with at least the
// precision asked for: FP32, never TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH would
// allow them).
class Cublas {
 public:
  Cublas() { CUBLAS_CHECK(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH)); }

  void sgemm(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
             float* c) {
    CUBLAS_CHECK(cublasSgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k,
                             &beta, c, n));
  }

 private:
  course::CublasHandle handle_;
};

// ---------------------------------------------------------------------------
// A problem on the device
// ---------------------------------------------------------------------------
// A and B on the device are followed by the rows that the largest tile could reach past
// their ends, holding NaN: a kernel that reads past a matrix (an edge tile without its
// bounds tests) carries a NaN into its sums, even where the other operand's guarded tile
// holds 0 (A's last row read past k meets B's zero rows: 1e30 x 0 would vanish, NaN x 0
// does not).
constexpr int kRowsReadPastTheEnd = std::max(kBlocking2dM, kTile);
constexpr float kReadPastTheEndValue = std::numeric_limits<float>::quiet_NaN();

std::vector<float> followed_by_padding(const std::vector<float>& matrix, int width) {
  std::vector<float> padded(matrix);
  padded.resize(matrix.size() + static_cast<std::size_t>(kRowsReadPastTheEnd) * width,
                kReadPastTheEndValue);
  return padded;
}

struct DeviceProblem {
  explicit DeviceProblem(const tiled_sgemm::Problem& problem)
      : p(problem),
        a(followed_by_padding(problem.a, problem.shape.k)),
        b(followed_by_padding(problem.b, problem.shape.n)),
        c(problem.c) {}
  void run(const Launcher launcher) {
    launcher(p.shape.m, p.shape.n, p.shape.k, p.alpha, a.data(), b.data(), p.beta, c.data());
  }
  const tiled_sgemm::Problem& p;
  course::DeviceBuffer<float> a, b, c;
};

tiled_sgemm::Problem problem_of(const course::check::CaseRequest& request, int m, int n, int k) {
  return sgemm::make_problem(tiled_sgemm::Shape::dense(m, n, k),
                             static_cast<float>(request.param_double("alpha")),
                             static_cast<float>(request.param_double("beta")), request.seed);
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing
// ---------------------------------------------------------------------------

// One step on one problem: c, the whole m x n result.
void run_sgemm_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const Step& step = step_named(request.param("step"));
  const tiled_sgemm::Problem problem = problem_of(request, static_cast<int>(request.param_int("m")),
                                                  static_cast<int>(request.param_int("n")),
                                                  static_cast<int>(request.param_int("k")));
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put("c", on_device.c.download());
}

// Timing (course::best_of_rounds_ms): the best of 3 rounds, each the median of
// `repetitions` calls after 2 untimed ones, yardstick and step in turn.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// A step against a yardstick on a size^3 product (alpha 1, beta 0): the step's result at
// the sampled elements ("c_sampled"), then "step_ms" and "yardstick_ms" when the case is
// timed (under compute-sanitizer it is not: the step's launch alone is what is checked).
template <typename Yardstick>
void run_speed_case(const course::check::CaseRequest& request, const Step& step,
                    Yardstick&& yardstick, course::check::ResultWriter& results) {
  const int size = static_cast<int>(request.param_int("size"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const tiled_sgemm::Problem problem = problem_of(request, size, size, size);
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put("c_sampled",
              tiled_sgemm::values_at(on_device.c.download(), problem.shape,
                                     tiled_sgemm::sampled_elements(problem.shape, request.seed)));
  if (request.param_int("timed") == 0) return;
  const std::vector<double> ms = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, repetitions, [&] { yardstick(on_device); },
      [&] { on_device.run(step.launcher); });
  const double yardstick_ms = ms[0], step_ms = ms[1];
  results.put_value("step_ms", step_ms);
  results.put_value("yardstick_ms", yardstick_ms);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "sgemm") {
    run_sgemm_case(request, results);
  } else if (kind == "naive_speed") {
    run_speed_case(
        request, kNaiveStep,
        [](DeviceProblem& d) {
          launch_yardstick(d.p.shape.m, d.p.shape.n, d.p.shape.k, d.a.data(), d.b.data(),
                           d.c.data());
        },
        results);
  } else if (kind == "final_speed") {
    // cuBLAS is loaded only for a timed run: under compute-sanitizer its kernels cost
    // seconds and are not the student's.
    std::optional<Cublas> cublas;
    if (request.param_int("timed") != 0) cublas.emplace();
    run_speed_case(
        request, kFinalStep,
        [&](DeviceProblem& d) {
          cublas->sgemm(d.p.shape.m, d.p.shape.n, d.p.shape.k, 1.0f, d.a.data(), d.b.data(), 0.0f,
                       d.c.data());
        },
        results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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

int demo() {
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
  Cublas cublas;
  rows.push_back(measure("coalesced naive (the course's)", library, d, sampled, [&] {
    launch_yardstick(kDemoSize, kDemoSize, kDemoSize, d.a.data(), d.b.data(), d.c.data());
  }));
  rows.push_back(measure("cuBLAS SGEMM", library, d, sampled, [&] {
    cublas.sgemm(kDemoSize, kDemoSize, kDemoSize, 1.0f, d.a.data(), d.b.data(), 0.0f, d.c.data());
  }));
  const Row& cublas_row = rows.back();

  course::Table table("sgemm", std::to_string(kDemoSize) + "^3, FP32",
                      {course::Column::text("method", "", 34),
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
  static_assert(kStepCount == 5, "every step's function is judged below");
  return course::demo_status(
      {&functions[0], &functions[1], &functions[2], &functions[3], &functions[4]});
}

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
