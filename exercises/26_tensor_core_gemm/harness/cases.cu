// Exercise 26 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "steps.cuh"
#include "tensor_core_gemm.hpp"
#include "workload.hpp"

namespace {

using tensor_core_gemm::DeviceProblem;
using tensor_core_gemm::Step;
namespace asked = tensor_core_gemm::request;
namespace result = tensor_core_gemm::result;

const Step& step_named(const std::string& name) {
  for (const Step& step : tensor_core_gemm::kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown step '%s'\n", name.c_str());
  std::exit(2);
}

// What the check needs to decide whether steps 3 and 4 can run here; nothing is launched.
void run_architecture_case(course::check::ResultWriter& results) {
  const course::Architectures found = tensor_core_gemm::architectures();
  results.put(result::device_cc, std::int64_t{found.device});
  results.put(result::code_arch, std::int64_t{found.code});
  results.put(result::code_specific, std::int64_t{found.specific});
}

// One step on one problem: c, the whole m x n result.
void run_gemm_case(const asked::Gemm& p, std::uint64_t seed, course::check::ResultWriter& results) {
  const Step& step = step_named(p.step);
  const tensor_core_gemm::Problem problem = tensor_core_gemm::make_problem(
      static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), p.positive, seed);
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put(result::c, on_device.c.download());
}

// Timing (course::best_of_rounds_ms): the best of 3 rounds, each the median of
// `repetitions` calls after 2 untimed ones, cuBLAS and the step in turn.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// A step against cublasGemmEx on a size^3 product: the step's result at the sampled
// elements, then both times when the case is timed. cuBLAS is loaded only for a timed run:
// under compute-sanitizer its kernels cost seconds and are not the student's.
void run_speed_case(const asked::Speed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const Step& step = step_named(p.step);
  const int size = static_cast<int>(p.size);
  const tensor_core_gemm::Problem problem =
      tensor_core_gemm::make_problem(size, size, size, false, seed);
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put(result::c_sampled,
              sgemm::values_at(on_device.c.download(), problem.shape,
                               tensor_core_gemm::sampled_elements(problem.shape, seed)));
  if (!p.timed) return;
  tensor_core_gemm::Cublas cublas;
  const std::vector<double> ms = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, static_cast<int>(p.repetitions),
      [&] {
        cublas.hgemm(size, size, size, on_device.a.data(), on_device.b.data(), on_device.c.data());
      },
      // The step through the course's audited timer: each timed call launches its kernel and
      // writes the whole of C (course/check/timed_call.hpp).
      course::check::student_call(
          {course::check::timed_output(on_device.c.data(), static_cast<std::size_t>(size) * size)},
          [&] { on_device.run(step.launcher); }));
  results.put(result::cublas_ms, ms[0]);
  results.put(result::step_ms, ms[1]);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.as(asked::architecture)) {
    run_architecture_case(results);
  } else if (const auto p = request.as(asked::gemm)) {
    run_gemm_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::speed)) {
    run_speed_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
