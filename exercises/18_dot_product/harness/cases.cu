// Exercise 18 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "dot_product.hpp"
#include "steps.cuh"
#include "workload.hpp"

namespace {

using dot_product::DeviceInputs;
using dot_product::kSteps;
using dot_product::Step;
namespace asked = dot_product::request;
namespace result = dot_product::result;

const Step& step_named(const std::string& name) {
  for (const Step& step : kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown step '%s'\n", name.c_str());
  std::exit(2);
}

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

// A step's first pass alone, on the grid the check chose.
void run_kernel_case(const asked::Kernel& p, std::uint64_t seed,
                     course::check::ResultWriter& results) {
  const Step& step = step_named(p.step);
  const int n = static_cast<int>(p.n);
  const int blocks = static_cast<int>(p.blocks);
  DeviceInputs in(n, seed, dot_product::Values::signed_unit);
  course::DeviceBuffer<float> partials(static_cast<std::size_t>(blocks));
  step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n, partials.data());
  CUDA_CHECK_LAUNCH();
  results.put(result::partials, partials.download());
}

// The second pass alone, on `count` partials drawn from the seed.
void run_sum_partials_case(const asked::SumPartials& p, std::uint64_t seed,
                           course::check::ResultWriter& results) {
  const int count = static_cast<int>(p.count);
  course::DeviceBuffer<float> partials(dot_product::padded(
      dot_product::make_input(count, 0, seed, dot_product::Values::signed_unit)));
  course::DeviceBuffer<float> total(1);
  sum_partials<<<1, kThreadsPerBlock>>>(partials.data(), count, total.data());
  CUDA_CHECK_LAUNCH();
  results.put(result::total, total.download());
}

// One launcher, on inputs of the kind the check asked for.
void run_dot_case(const asked::Dot& p, std::uint64_t seed, course::check::ResultWriter& results) {
  const Step& step = step_named(p.step);
  const int n = static_cast<int>(p.n);
  DeviceInputs in(n, seed, p.values, p.special);
  step.launcher(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
  results.put(result::total, in.result.download());
}

// Every launcher on the same (large) inputs: result_<step>.
void run_accuracy_case(const asked::Accuracy& p, std::uint64_t seed,
                       course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  DeviceInputs in(n, seed, dot_product::Values::positive_unit);
  for (const Step& step : kSteps) {
    in.result.poison();
    step.launcher(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
    results.put(result::step_result(step.name), in.result.download());
  }
}

// Timing (course::best_of_rounds_ms): rounds of the yardsticks and the student's work in
// turn, each the median of `repetitions` timed calls; the best round of each counts.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// The first passes of steps 1 to 3 against CUB's whole dot product and the interleaved
// tree's first pass: <step>_ms, cub_ms, interleaved_ms.
void run_steps_speed_case(const asked::Speed& p, std::uint64_t seed,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int repetitions = static_cast<int>(p.repetitions);
  DeviceInputs in(n, seed, dot_product::Values::signed_unit);
  dot_product::CubDot cub_dot(in.x.data(), in.y.data(), n, in.result.data());
  // The first pass of step s, on as many blocks as it needs: the student's kernel, whose
  // every timed launch must write one partial per block (course/check/timed_call.hpp).
  const auto first_pass = [&](int s) {
    const Step& step = kSteps[s];
    const int blocks = (n + step.elements_per_block - 1) / step.elements_per_block;
    return course::check::student_call(
        {course::check::timed_output(in.partials.data(), static_cast<std::size_t>(blocks))},
        [&in, &step, n, blocks] {
          step.kernel<<<blocks, kThreadsPerBlock>>>(in.x.data(), in.y.data(), n,
                                                    in.partials.data());
          CUDA_CHECK_LAUNCH();
        });
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
  results.put(result::cub_ms, cub_ms);
  results.put(result::interleaved_ms, best[1]);
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
    results.put(result::step_sum(step.name), sum);
    results.put(result::step_ms(step.name), step_ms[s]);
  }
}

// dot_on_device against CUB, cuBLAS and the copy ceiling: its result first, then
// final_ms, cub_ms, cublas_ms, copy_gbps.
void run_final_speed_case(const asked::Speed& p, std::uint64_t seed,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int repetitions = static_cast<int>(p.repetitions);
  DeviceInputs in(n, seed, dot_product::Values::signed_unit);
  // The student's work: each timed call must write the result; the partials are its
  // scratch, as many as its grid needs (course/check/timed_call.hpp).
  auto final_dot =
      course::check::student_call({course::check::timed_output(in.result.data(), 1)}, [&] {
        dot_on_device(in.x.data(), in.y.data(), n, in.partials.data(), in.result.data());
      });
  final_dot();
  results.put(result::total, in.result.download());
  dot_product::CubDot cub_dot(in.x.data(), in.y.data(), n, in.result.data());
  dot_product::CublasDot cublas_dot;
  const std::vector<double> best = course::best_of_rounds_ms(
      kSpeedRounds, kSpeedWarmup, repetitions, [&] { cub_dot.run(); }, final_dot,
      [&] { cublas_dot.run(in.x.data(), in.y.data(), n, in.result.data()); });
  results.put(result::cub_ms, best[0]);
  results.put(result::final_ms, best[1]);
  results.put(result::cublas_ms, best[2]);
  // Not under compute-sanitizer (the check says ceiling=0): its buffers are hundreds of MiB.
  results.put(result::copy_gbps, p.ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::kernel)) {
    run_kernel_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::sum_partials)) {
    run_sum_partials_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::dot)) {
    run_dot_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::accuracy)) {
    run_accuracy_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::steps_speed)) {
    run_steps_speed_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::final_speed)) {
    run_final_speed_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
