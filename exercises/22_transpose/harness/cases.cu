// Exercise 22 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/program.hpp"
#include "steps.cuh"
#include "transpose.hpp"
#include "workload.hpp"

namespace {

using transpose::DeviceMatrices;
using transpose::kSteps;
using transpose::launch;
using transpose::launch_copy;
using transpose::Step;
namespace asked = transpose::request;

const Step& step_named(const std::string& name) {
  for (const Step& step : kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown kernel '%s'\n", name.c_str());
  std::exit(2);
}

// tile_grid on every shape of kGridShapes: x, y, z for each, in turn.
void run_grid_case(course::check::ResultWriter& results) {
  std::vector<std::int32_t> grids;
  for (const transpose::Shape& shape : transpose::kGridShapes) {
    const dim3 grid = tile_grid(shape.rows, shape.cols);
    for (const unsigned extent : {grid.x, grid.y, grid.z}) {
      grids.push_back(static_cast<std::int32_t>(extent));
    }
  }
  results.put(transpose::result::grids, grids);
}

// One kernel on one matrix: every element of its output.
void run_transpose_case(const asked::Transpose& p, std::uint64_t seed,
                        course::check::ResultWriter& results) {
  const Step& step = step_named(p.kernel);
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  DeviceMatrices m(rows, cols, seed);
  launch(step, m.in.data(), m.out.data(), rows, cols);
  results.put(transpose::result::out, m.out.download());
}

// Every kSampleStride-th element of a downloaded output.
std::vector<float> sample_of(const std::vector<float>& out) {
  std::vector<float> sample;
  for (std::size_t k = 0; k < out.size(); k += transpose::kSampleStride) sample.push_back(out[k]);
  return sample;
}

// Timing: rounds of (copy, naive, tiled, padded), each the median of `repetitions` timed
// launches; the best round of each counts, so that a clock still rising or a neighbour's
// burst cannot decide.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// Every kernel on one matrix: first each student kernel once on a poisoned output, a
// sample of which is reported (<name>_sample: the check judges it before any time), then
// the times copy_ms, <name>_ms, and the device-to-device copy's GB/s as copy_gbps (0 when
// the check says ceiling=0: under compute-sanitizer its buffers are hundreds of MiB).
void run_speed_case(const asked::Speed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  const int repetitions = static_cast<int>(p.repetitions);
  DeviceMatrices m(rows, cols, seed);
  for (const Step& step : kSteps) {
    m.out.poison();
    launch(step, m.in.data(), m.out.data(), rows, cols);
    results.put(transpose::result::sample(step.name), sample_of(m.out.download()));
  }
  double copy_ms = 0.0, step_ms[3] = {0.0, 0.0, 0.0};
  for (int round = 0; round < kSpeedRounds; ++round) {
    const auto best = [&](auto&& work, double so_far) {
      const double ms = course::time_device(work, kSpeedWarmup, repetitions).median_ms;
      return round == 0 ? ms : std::min(so_far, ms);
    };
    copy_ms = best([&] { launch_copy(m.in.data(), m.out.data(), rows, cols); }, copy_ms);
    // The student's kernels are audited (timed_call.hpp): each timed launch must write the
    // whole output.
    for (int s = 0; s < 3; ++s) {
      step_ms[s] = best(course::check::student_call(
                            {course::check::timed_output(m.out.data(), m.out.size())},
                            [&] { launch(kSteps[s], m.in.data(), m.out.data(), rows, cols); }),
                        step_ms[s]);
    }
  }
  results.put(transpose::result::copy_ms, copy_ms);
  for (int s = 0; s < 3; ++s) results.put(transpose::result::kernel_ms(kSteps[s].name), step_ms[s]);
  results.put(transpose::result::copy_gbps, p.ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.is(asked::grid)) {
    run_grid_case(results);
  } else if (const auto p = request.as(asked::transpose)) {
    run_transpose_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::speed)) {
    run_speed_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
