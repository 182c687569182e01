// Exercise 21 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/program.hpp"
#include "steps.cuh"
#include "tiled_sgemm.hpp"
#include "workload.hpp"

namespace {

using tiled_sgemm::DeviceProblem;
using tiled_sgemm::Step;
namespace asked = tiled_sgemm::request;

const Step& step_named(const std::string& name) {
  for (const Step& step : tiled_sgemm::kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown step '%s'\n", name.c_str());
  std::exit(2);
}

tiled_sgemm::Problem problem_of(std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                                double beta, std::uint64_t seed) {
  return sgemm::make_problem(tiled_sgemm::Shape::dense(static_cast<int>(m), static_cast<int>(n),
                                                       static_cast<int>(k)),
                             static_cast<float>(alpha), static_cast<float>(beta), seed);
}

// One step on one problem: c, the whole m x n result.
void run_sgemm_case(const asked::Sgemm& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const Step& step = step_named(p.step);
  const tiled_sgemm::Problem problem = problem_of(p.m, p.n, p.k, p.alpha, p.beta, seed);
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put(tiled_sgemm::result::c, on_device.c.download());
}

// Timing (course::best_of_rounds_ms): the best of 3 rounds, each the median of
// `repetitions` calls after 2 untimed ones, yardstick and step in turn.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// A step against a yardstick on a size^3 product (alpha 1, beta 0): the step's result at
// the sampled elements, then the step's and the yardstick's times when the case is timed
// (under compute-sanitizer it is not: the step's launch alone is what is checked).
template <typename Yardstick>
void run_speed_case(const asked::Speed& p, std::uint64_t seed, const Step& step,
                    Yardstick&& yardstick, course::check::ResultWriter& results) {
  const int repetitions = static_cast<int>(p.repetitions);
  const tiled_sgemm::Problem problem = problem_of(p.size, p.size, p.size, p.alpha, p.beta, seed);
  DeviceProblem on_device(problem);
  on_device.run(step.launcher);
  results.put(tiled_sgemm::result::c_sampled,
              tiled_sgemm::values_at(on_device.c.download(), problem.shape,
                                     tiled_sgemm::sampled_elements(problem.shape, seed)));
  if (!p.timed) return;
  // The step's timed calls are audited (timed_call.hpp): each must write the whole of C
  // (beta is 0: nothing of C is read).
  auto student = course::check::student_call(
      {course::check::timed_output(on_device.c.data(), on_device.c.size())},
      [&] { on_device.run(step.launcher); });
  const std::vector<double> ms = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, repetitions, [&] { yardstick(on_device); }, student);
  const double yardstick_ms = ms[0], step_ms = ms[1];
  results.put(tiled_sgemm::result::step_ms, step_ms);
  results.put(tiled_sgemm::result::yardstick_ms, yardstick_ms);
}

// A step against cuBLAS: the final step, and the optional one. cuBLAS is loaded only for
// a timed run: under compute-sanitizer its kernels cost seconds and are not the student's.
void run_cublas_speed_case(const asked::Speed& p, std::uint64_t seed, const Step& step,
                           course::check::ResultWriter& results) {
  std::optional<tiled_sgemm::Cublas> cublas;
  if (p.timed) cublas.emplace();
  run_speed_case(
      p, seed, step,
      [&](DeviceProblem& d) {
        cublas->sgemm(d.p.shape.m, d.p.shape.n, d.p.shape.k, 1.0f, d.a.data(), d.b.data(), 0.0f,
                      d.c.data());
      },
      results);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::sgemm)) {
    run_sgemm_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::naive_speed)) {
    run_speed_case(
        *p, request.seed, tiled_sgemm::kNaiveStep,
        [](DeviceProblem& d) {
          tiled_sgemm::launch_yardstick(d.p.shape.m, d.p.shape.n, d.p.shape.k, d.a.data(),
                                        d.b.data(), d.c.data());
        },
        results);
  } else if (const auto p = request.as(asked::final_speed)) {
    run_cublas_speed_case(*p, request.seed, tiled_sgemm::kFinalStep, results);
  } else if (const auto p = request.as(asked::optional_speed)) {
    run_cublas_speed_case(*p, request.seed, tiled_sgemm::kOptionalStep, results);
  } else {
    course::check::unknown_case(request);
  }
}
