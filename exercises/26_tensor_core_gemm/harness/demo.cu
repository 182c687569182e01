// Exercise 26 - the demo (`make run-26`): C = A B for 4096^3 with every step, cuBLAS's
// cublasGemmEx (FP16 in, FP32 compute) and cuBLAS SGEMM (FP32, exercise 21's yardstick),
// each judged on sampled elements before it is timed; then a table of milliseconds,
// TFLOP/s (2 m n k / time), the share of cublasGemmEx measured in the same run, and the
// error against two float64 references: the product of the FP16 inputs (what the tensor
// cores were given: the FP32 accumulation's error alone), and the product of the FP32 data
// they were rounded from (what a program that starts from FP32 data gets: the price of the
// speed). A step not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1; the optional step 4 only
// when it is wrong, not when it is not written. Step 3 on a GPU or a build older than sm_80,
// and step 4 anywhere but on an sm_90 GPU running code built for sm_90a, get a line that
// says why they did not run.
#include <algorithm>
#include <cmath>
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
#include "tensor_core_gemm.hpp"
#include "workload.hpp"

namespace {

using tensor_core_gemm::DeviceProblem;
using tensor_core_gemm::Step;

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoSize = tensor_core_gemm::kSpeedSize;
constexpr int kDemoRepetitions = 10;
constexpr int kDemoWarmup = 2;

struct Row {
  std::string label;
  course::Judgement result;
  double ms = 0.0;
  double error_fp16_inputs = 0.0;  // max |C - float64 product of the FP16 inputs|
  double error_fp32_data = 0.0;    // max |C - float64 product of the FP32 data|
};

// The largest error of `got` (C at `at`) against the float64 product of `p`'s inputs.
double max_error(const sgemm::Problem& p, const std::vector<sgemm::Element>& at,
                 const std::vector<float>& got) {
  double largest = 0.0;
  for (std::size_t q = 0; q < at.size(); ++q) {
    const double expected = sgemm::reference_dot(p, at[q].i, at[q].j).value;
    largest = std::max(largest, std::fabs(static_cast<double>(got[q]) - expected));
  }
  return largest;
}

// The FP32 data rounded to FP16 (the inputs the tensor cores see), as floats again.
sgemm::Problem rounded_to_fp16(const sgemm::Problem& data) {
  sgemm::Problem rounded = data;
  for (std::vector<float>* matrix : {&rounded.a, &rounded.b}) {
    for (float& x : *matrix) x = __half2float(__float2half(x));
  }
  return rounded;
}

struct Measured {
  const sgemm::Problem& fp32_data;
  const sgemm::Problem& fp16_inputs;
  const std::vector<sgemm::Element>& sampled;
  course::DeviceBuffer<float>& c;
};

// Runs `work` once on C poisoned, judges the sampled elements against `judged_on` (the
// problem it was given), measures both errors, and times it when right.
template <typename Work>
Row measure(const std::string& label, course::StudentFunction& function, Measured& m,
            const sgemm::Problem& judged_on, Work&& work) {
  m.c.poison();
  work();
  const std::vector<float> got = sgemm::values_at(m.c.download(), judged_on.shape, m.sampled);
  const sgemm::Verdict verdict =
      &judged_on == &m.fp16_inputs
          ? tensor_core_gemm::compare_elements(judged_on, m.sampled, got)
          : sgemm::compare_elements(judged_on, m.sampled, got, sgemm::error_bound);
  Row row{label, function.judge_value(verdict.unwritten < verdict.count, verdict.right(),
                                      std::to_string(kDemoSize) + "^3", verdict.text())};
  if (!row.result.right) return row;
  row.ms = course::time_device(work, kDemoWarmup, kDemoRepetitions).median_ms;
  row.error_fp16_inputs = max_error(m.fp16_inputs, m.sampled, got);
  row.error_fp32_data = max_error(m.fp32_data, m.sampled, got);
  return row;
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const course::Architectures found = tensor_core_gemm::architectures();

  const sgemm::Shape shape = sgemm::Shape::dense(kDemoSize, kDemoSize, kDemoSize);
  const sgemm::Problem fp32_data = sgemm::make_problem(shape, 1.0f, 0.0f, kDemoSeed);
  const sgemm::Problem fp16_inputs = rounded_to_fp16(fp32_data);
  const std::vector<sgemm::Element> sampled = tensor_core_gemm::sampled_elements(shape, kDemoSeed);
  DeviceProblem d(fp16_inputs);
  course::DeviceBuffer<float> a32(fp32_data.a), b32(fp32_data.b);
  Measured m{fp32_data, fp16_inputs, sampled, d.c};
  std::printf("\nC = A B, %d x %d x %d, row-major; A and B drawn in FP32 in [-1, 1), rounded "
              "to FP16 for the tensor cores; each result checked on %d elements against "
              "float64 before it is timed\n",
              kDemoSize, kDemoSize, kDemoSize, sgemm::kSampledElements);
  std::printf("TFLOP/s = 2 m n k / time; %% of cuBLAS = cublasGemmEx's time / this time (same "
              "run, FP16 in, FP32 compute); error = max |C - float64 C| over those elements, "
              "against the product of the FP16 inputs, then of the FP32 data\n");

  std::vector<course::StudentFunction> functions;
  for (const Step& step : tensor_core_gemm::kSteps) functions.emplace_back(step.function);
  std::vector<Row> rows;
  std::vector<const course::StudentFunction*> graded;
  for (std::size_t s = 0; s < functions.size(); ++s) {
    const Step& step = tensor_core_gemm::kSteps[s];
    if (!tensor_core_gemm::runs_here(step, found)) {
      if (step.specific) {
        std::printf("not run here: %s needs an sm_%d GPU and code built for sm_%da (this GPU: "
                    "sm_%d, this program's code: compute_%d, %s sm_%da's instructions)\n",
                    step.function, step.needs_arch, step.needs_arch, found.device, found.code,
                    found.specific == step.needs_arch ? "with" : "without", step.needs_arch);
      } else {
        std::printf("not run here: %s needs sm_%d or newer (this GPU: sm_%d, this program's "
                    "code: compute_%d)\n",
                    step.function, step.needs_arch, found.device, found.code);
      }
      continue;
    }
    graded.push_back(&functions[s]);
    rows.push_back(
        measure(step.label, functions[s], m, fp16_inputs, [&] { d.run(step.launcher); }));
  }
  bool any_written = false;
  for (const course::StudentFunction* f : graded)
    any_written = any_written || !f->not_implemented();
  if (!any_written) {
    // Nothing of yours to compare: no yardstick is timed either.
    std::printf("\nnot measured: no step of yours is written yet\n");
    return EXIT_FAILURE;
  }
  // The yardsticks are the course's: compared with the reference, not judged as yours.
  course::StudentFunction library("the course's yardsticks");
  tensor_core_gemm::Cublas cublas;
  rows.push_back(
      measure("cuBLAS cublasGemmEx (FP16 in, FP32 compute)", library, m, fp16_inputs, [&] {
        cublas.hgemm(kDemoSize, kDemoSize, kDemoSize, d.a.data(), d.b.data(), d.c.data());
      }));
  const Row cublas_row = rows.back();
  rows.push_back(measure("cuBLAS SGEMM (FP32 data, FP32)", library, m, fp32_data, [&] {
    cublas.sgemm(kDemoSize, kDemoSize, kDemoSize, a32.data(), b32.data(), d.c.data());
  }));

  course::Table table("hgemm", std::to_string(kDemoSize) + "^3, FP16 in, FP32 sums",
                      {course::Column::text("method", "", 46),
                       course::Column::number("ms", "ms", 8, 3),
                       course::Column::number("tflops", "TFLOP/s", 8, 1),
                       course::Column::number("cublas_percent", "% cuBLAS", 9, 1, "%"),
                       course::Column::scientific("error_fp16_inputs", "err FP16 in", 12, 2),
                       course::Column::scientific("error_fp32_data", "err FP32 data", 14, 2)});
  for (const Row& row : rows) {
    const double tflops = shape.flops() / (row.ms * 1e9);  // 2 m n k / time
    const course::Judgement both = course::all_of({row.result, cublas_row.result});
    std::vector<course::Cell> cells = {row.label,
                                       row.result.figure(row.ms),
                                       row.result.figure(tflops),
                                       both.figure(100.0 * cublas_row.ms / row.ms),
                                       row.result.figure(row.error_fp16_inputs),
                                       row.result.figure(row.error_fp32_data)};
    if (row.result.right) {
      table.add_row(std::move(cells), row.result.problem);
    } else {
      table.record_row(std::move(cells), row.result.problem);
    }
  }
  std::printf("\n(`make check-26` grades every case)\n");
  // The optional step fails the demo when it is wrong, not when it is not written.
  std::vector<const course::StudentFunction*> required;
  for (const course::StudentFunction* f : graded) {
    const bool optional = f == &functions[tensor_core_gemm::kGradedStepCount];
    if (optional && !f->ready() && !f->not_implemented()) return EXIT_FAILURE;
    if (!optional) required.push_back(f);
  }
  return course::demo_status(required);
}
