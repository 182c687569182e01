// Exercise 12 - the demo (`make run-12`): the lab's points on the unit circle (every
// norm is 1), then matrices of many short rows and of a few long rows, with the time of
// the kernel alone, its bandwidth against the copy ceiling measured in the same run, and
// the largest difference from a CPU loop in double precision. Each result is compared
// with that loop before it is timed: a function not written yet, or wrong, gets a line
// that says so and no figure (course/demo_results.hpp), and the demo then ends with
// status 1.
//
// Build and run:  make 12 && make run-12
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "row_norms.hpp"
#include "workload.hpp"

namespace {

constexpr std::uint64_t kDemoSeed = 42;
// The lab's example: 10 points on the unit circle.
constexpr int kLabPoints = 10;
struct Shape {
  int rows;
  int cols;
};
// Many short rows (a warp per row, most lanes idle), rows of a few warps' width, and a
// few long rows (a block per row): 64 MiB or more each, for a bandwidth figure.
constexpr Shape kDemoShapes[] = {{4000000, 3}, {1000000, 100}, {16384, 2000}, {7, 4000000}};
constexpr int kDemoWarmup = 3;
constexpr int kDemoRepetitions = 10;

void demo_unit_circle(course::StudentFunction& whole) {
  const std::vector<float> points =
      row_norms::make_matrix(kLabPoints, 2, kDemoSeed, row_norms::MatrixKind::unit_circle);
  std::vector<float> norms(kLabPoints);
  course::poison(norms.data(), norms.size());
  std::printf("\nthe lab's %d points on the unit circle, (cos a, sin a), and their norms:\n",
              kLabPoints);
  row_norms_gpu(points.data(), norms.data(), kLabPoints, 2);
  const std::vector<double> reference = row_norms::norms_in_double(points, kLabPoints, 2);
  if (!whole
           .judge(course::compare(norms.data(), reference.data(), reference.size(),
                                  row_norms::tolerance_for(2)))
           .right) {
    return;
  }
  for (int r = 0; r < kLabPoints; ++r) {
    std::printf("  (%+.6f, %+.6f)  ->  %.7f\n", points[2 * r], points[2 * r + 1], norms[r]);
  }
}

void demo_shape(const Shape& shape, double ceiling_gbps, course::Table& bandwidth,
                course::StudentFunction& launch) {
  const std::string label =
      std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
      (shape.cols >= kBlockPerRowMinCols ? " (block per row)" : " (warp per row)");
  const double matrix_bytes = static_cast<double>(shape.rows) * shape.cols * sizeof(float);
  const double norms_bytes = static_cast<double>(shape.rows) * sizeof(float);
  if (launch.not_implemented()) {
    // Not written yet: another shape would show nothing more.
    course::add_bandwidth_line(bandwidth, launch.skipped(), label, matrix_bytes, norms_bytes, 0.0,
                               ceiling_gbps);
    return;
  }
  const std::vector<float> matrix = row_norms::make_matrix(shape.rows, shape.cols, kDemoSeed);
  const course::DeviceBuffer<float> device_matrix(matrix);
  course::DeviceBuffer<float> device_norms(static_cast<std::size_t>(shape.rows));
  const auto run = [&] {
    launch_row_norms(device_matrix.data(), device_norms.data(), shape.rows, shape.cols);
  };
  // The first launch judged, then timed.
  device_norms.poison();
  run();
  const std::vector<float> norms = device_norms.download();
  const std::vector<double> reference = row_norms::norms_in_double(matrix, shape.rows, shape.cols);
  const course::Judgement result =
      launch.judge(course::compare(norms.data(), reference.data(), reference.size(),
                                   row_norms::tolerance_for(shape.cols)),
                   label);
  const double ms =
      result.right ? course::time_device(run, kDemoWarmup, kDemoRepetitions).median_ms : 0.0;
  course::add_bandwidth_line(bandwidth, result, label, matrix_bytes, norms_bytes, ms, ceiling_gbps);
  if (!result.right) return;
  double worst_relative = 0.0;
  for (std::size_t r = 0; r < norms.size(); ++r) {
    if (reference[r] > 0.0) {
      worst_relative = std::max(worst_relative, std::fabs(norms[r] - reference[r]) / reference[r]);
    }
  }
  std::printf("    largest relative difference from the CPU's double-precision norms: %.3g "
              "(2^-24 = %.3g)\n",
              worst_relative, std::ldexp(1.0, -24));
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  course::StudentFunction whole("row_norms_gpu"), launch("launch_row_norms");
  demo_unit_circle(whole);
  std::printf("\nnorms[r] = sqrt(sum over c of matrix[r][c]^2); the kernels alone, median of "
              "%d:\n",
              kDemoRepetitions);
  course::Table bandwidth = course::bandwidth_table("row_norms", "row norms, by matrix shape");
  for (const Shape& shape : kDemoShapes) demo_shape(shape, ceiling_gbps, bandwidth, launch);
  std::printf("\n(`make check-12` grades every case against a double-precision reference)\n");
  return course::demo_status({&whole, &launch});
}
