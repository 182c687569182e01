// Exercise 12 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "row_norms.hpp"
#include "workload.hpp"

namespace {

namespace asked = row_norms::request;
namespace result = row_norms::result;

// row_norms_gpu on host arrays, the norms behind a guard zone.
void run_host_case(const asked::Norms& p, std::uint64_t seed,
                   course::check::ResultWriter& results) {
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  const std::vector<float> matrix = row_norms::make_matrix(rows, cols, seed, p.matrix);
  course::check::GuardedOutput<float> norms(static_cast<std::size_t>(rows));
  row_norms_gpu(matrix.data(), norms.data(), rows, cols);
  norms.report(results, result::norms);
}

// launch_row_norms_group at the width the check names, on device arrays (poisoned and
// guarded by the check's accounting), whatever lanes_per_row would choose.
void run_group_case(const asked::Group& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  const course::DeviceBuffer<float> matrix(row_norms::make_matrix(rows, cols, seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(rows));
  launch_row_norms_group(matrix.data(), norms.data(), rows, cols, static_cast<int>(p.lanes));
  results.put(result::norms, norms.download());
}

// The speed case: launch_row_norms alone first, so that the norms reported are its own;
// then rounds of it, each the median of `repetitions` launches, the best round counting
// (a clock still rising or a neighbour's burst cannot decide); then the copy ceiling.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 3;

void run_speed_case(const asked::Speed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  const course::DeviceBuffer<float> matrix(row_norms::make_matrix(rows, cols, seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(rows));
  auto launch = course::check::student_call(
      {course::check::timed_output(norms.data(), static_cast<std::size_t>(rows))},
      [&] { launch_row_norms(matrix.data(), norms.data(), rows, cols); });
  launch();
  results.put(result::norms, norms.download());
  results.put(result::launch_ms,
              course::best_of_rounds_ms(kSpeedRounds, kSpeedWarmup, p.repetitions, launch)[0]);
  // Not under compute-sanitizer (the check says ceiling=0): its buffers are hundreds of MiB.
  results.put(result::copy_gbps, p.ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

// The weighted norm: set_column_weights with the case's weights (and, when the check asks,
// with a table one float too long, which must be refused and leave the first one in
// place), then launch_weighted_row_norms on device arrays.
void run_weighted_case(const asked::Weighted& p, std::uint64_t seed,
                       course::check::ResultWriter& results) {
  const int rows = static_cast<int>(p.rows);
  const int cols = static_cast<int>(p.cols);
  const std::vector<float> weights = row_norms::make_weights(cols, seed);
  results.put(result::weights_accepted, set_column_weights(weights.data(), cols) ? 1 : 0);
  std::int64_t too_large_accepted = -1;
  if (p.too_large) {
    const std::vector<float> too_large(static_cast<std::size_t>(kMaxConstantColumns) + 1, 1.0f);
    too_large_accepted = set_column_weights(too_large.data(), kMaxConstantColumns + 1) ? 1 : 0;
  }
  results.put(result::too_large_accepted, too_large_accepted);
  const course::DeviceBuffer<float> matrix(row_norms::make_matrix(rows, cols, seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(rows));
  launch_weighted_row_norms(matrix.data(), norms.data(), rows, cols);
  results.put(result::norms, norms.download());
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::gpu)) {
    run_host_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::group)) {
    run_group_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::weighted)) {
    run_weighted_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::speed)) {
    run_speed_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
