// Exercise 12 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "row_norms.hpp"
#include "workload.hpp"

namespace {

namespace result = row_norms::result;

struct Shape {
  int rows;
  int cols;
};

Shape shape_of(const course::check::CaseRequest& request) {
  return {static_cast<int>(request.param_int("rows")), static_cast<int>(request.param_int("cols"))};
}

// row_norms_gpu on host arrays, the norms behind a guard zone.
void run_host_case(const course::check::CaseRequest& request,
                   course::check::ResultWriter& results) {
  const Shape shape = shape_of(request);
  const row_norms::MatrixKind kind = row_norms::matrix_kind_from_name(request.param("matrix"));
  const std::vector<float> matrix =
      row_norms::make_matrix(shape.rows, shape.cols, request.seed, kind);
  course::check::GuardedOutput<float> norms(static_cast<std::size_t>(shape.rows));
  row_norms_gpu(matrix.data(), norms.data(), shape.rows, shape.cols);
  norms.report(results, result::norms);
}

// launch_row_norms_group at the width the check names, on device arrays (poisoned and
// guarded by the check's accounting), whatever lanes_per_row would choose.
void run_group_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const Shape shape = shape_of(request);
  const course::DeviceBuffer<float> matrix(
      row_norms::make_matrix(shape.rows, shape.cols, request.seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(shape.rows));
  launch_row_norms_group(matrix.data(), norms.data(), shape.rows, shape.cols,
                         static_cast<int>(request.param_int("lanes")));
  results.put(result::norms, norms.download());
}

// The speed case: launch_row_norms alone first, so that the norms reported are its own;
// then rounds of it, each the median of `repetitions` launches, the best round counting
// (a clock still rising or a neighbour's burst cannot decide); then the copy ceiling.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 3;

void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const Shape shape = shape_of(request);
  const course::DeviceBuffer<float> matrix(
      row_norms::make_matrix(shape.rows, shape.cols, request.seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(shape.rows));
  const auto launch = [&] {
    launch_row_norms(matrix.data(), norms.data(), shape.rows, shape.cols);
  };
  launch();
  results.put(result::norms, norms.download());
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  results.put(result::launch_ms,
              course::best_of_rounds_ms(kSpeedRounds, kSpeedWarmup, repetitions, launch)[0]);
  // Not under compute-sanitizer (the check says ceiling=0): its buffers are hundreds of MiB.
  const bool ceiling = request.param_int("ceiling") != 0;
  results.put(result::copy_gbps, ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

// The weighted norm: set_column_weights with the case's weights (and, when the check asks,
// with a table one float too long, which must be refused and leave the first one in
// place), then launch_weighted_row_norms on device arrays.
void run_weighted_case(const course::check::CaseRequest& request,
                       course::check::ResultWriter& results) {
  const Shape shape = shape_of(request);
  const std::vector<float> weights = row_norms::make_weights(shape.cols, request.seed);
  results.put(result::weights_accepted, set_column_weights(weights.data(), shape.cols) ? 1 : 0);
  std::int64_t too_large_accepted = -1;
  if (request.param_int("too_large") != 0) {
    const std::vector<float> too_large(static_cast<std::size_t>(kMaxConstantColumns) + 1, 1.0f);
    too_large_accepted = set_column_weights(too_large.data(), kMaxConstantColumns + 1) ? 1 : 0;
  }
  results.put(result::too_large_accepted, too_large_accepted);
  const course::DeviceBuffer<float> matrix(
      row_norms::make_matrix(shape.rows, shape.cols, request.seed));
  course::DeviceBuffer<float> norms(static_cast<std::size_t>(shape.rows));
  launch_weighted_row_norms(matrix.data(), norms.data(), shape.rows, shape.cols);
  results.put(result::norms, norms.download());
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.name == "gpu") {
    run_host_case(request, results);
  } else if (request.name == "group") {
    run_group_case(request, results);
  } else if (request.name == "weighted") {
    run_weighted_case(request, results);
  } else if (request.name == "speed") {
    run_speed_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}
