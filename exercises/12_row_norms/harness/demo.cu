// Exercise 12 - the demo (`make run-12`): the lab's points on the unit circle (every
// norm is 1), then matrices of many short rows and of a few long rows, with the time of
// the kernel alone, its bandwidth against the copy ceiling measured in the same run, and
// the largest difference from a CPU loop in double precision; on the short rows, the group
// kernel at every width too, so that the lanes per row chosen are seen against the others;
// last, the weighted norm with its weights in constant memory, side by side with the same
// kernel reading them from global memory. Each result is compared
// with that loop before it is timed: a function not written yet, or wrong, gets a line
// that says so and no figure (course/demo_results.hpp), and the demo then ends with
// status 1.
//
// Build and run:  make 12 && make run-12
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/launch.hpp"
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
// Many short rows (1 lane per row), rows of a hundred columns (8 lanes per row), the
// longest rows of the group kernel (a whole warp), and a few long rows (a block per row):
// 64 MiB or more each, for a bandwidth figure.
constexpr Shape kDemoShapes[] = {{4000000, 3}, {1000000, 100}, {16384, 2000}, {7, 4000000}};
// Up to this many columns the group kernel is also timed at every width.
constexpr int kWidthSweepMaxCols = 100;
constexpr int kWidths[] = {1, 2, 4, 8, 16, 32};
constexpr int kDemoWarmup = 3;
constexpr int kDemoRepetitions = 10;

std::string shape_text(const Shape& shape) {
  return std::to_string(shape.rows) + " x " + std::to_string(shape.cols);
}

std::string lanes_text(int lanes) {
  return std::to_string(lanes) + (lanes == 1 ? " lane per row" : " lanes per row");
}

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
                                  row_norms::tolerance_for(2, 1)))
           .right) {
    return;
  }
  for (int r = 0; r < kLabPoints; ++r) {
    std::printf("  (%+.6f, %+.6f)  ->  %.7f\n", points[2 * r], points[2 * r + 1], norms[r]);
  }
}

// The matrix of one shape on the device and its CPU reference, made at the first launch
// that needs them, and how to judge and time a launch on it: its first result is judged,
// and only a right one is timed.
class ShapeRun {
 public:
  ShapeRun(const Shape& shape, double ceiling_gbps) : shape_(shape), ceiling_gbps_(ceiling_gbps) {}

  const float* matrix() const { return device_matrix_->data(); }
  float* norms() { return device_norms_->data(); }

  // One bandwidth line of `table` for `launch` (which launches on matrix() and norms()),
  // judged as `function` within the tolerance of `threads` threads per row; true when
  // its result was right.
  template <typename Launch>
  bool line(course::Table& table, const std::string& label, course::StudentFunction& function,
            int threads, Launch&& launch, const char* indent = "  ") {
    if (function.not_implemented()) {
      // Not written yet: another launch would show nothing more.
      course::add_bandwidth_line(table, function.skipped(), label, matrix_bytes(), norms_bytes(),
                                 0.0, ceiling_gbps_, indent);
      return false;
    }
    prepare();
    device_norms_->poison();
    launch();
    norms_ = device_norms_->download();
    const course::Judgement result =
        function.judge(course::compare(norms_.data(), reference_.data(), reference_.size(),
                                       row_norms::tolerance_for(shape_.cols, threads)),
                       label);
    const double ms =
        result.right ? course::time_device(launch, kDemoWarmup, kDemoRepetitions).median_ms : 0.0;
    course::add_bandwidth_line(table, result, label, matrix_bytes(), norms_bytes(), ms,
                               ceiling_gbps_, indent);
    return result.right;
  }

  // The largest relative difference of the last right result from the CPU's norms.
  double worst_relative() const {
    double worst = 0.0;
    for (std::size_t r = 0; r < norms_.size(); ++r) {
      if (reference_[r] > 0.0) {
        worst = std::max(worst, std::fabs(norms_[r] - reference_[r]) / reference_[r]);
      }
    }
    return worst;
  }

 private:
  void prepare() {
    if (device_matrix_) return;
    const std::vector<float> matrix = row_norms::make_matrix(shape_.rows, shape_.cols, kDemoSeed);
    device_matrix_.emplace(matrix);
    device_norms_.emplace(static_cast<std::size_t>(shape_.rows));
    reference_ = row_norms::norms_in_double(matrix, shape_.rows, shape_.cols);
  }
  double matrix_bytes() const {
    return static_cast<double>(shape_.rows) * shape_.cols * sizeof(float);
  }
  double norms_bytes() const { return static_cast<double>(shape_.rows) * sizeof(float); }

  Shape shape_;
  double ceiling_gbps_;
  std::optional<course::DeviceBuffer<float>> device_matrix_;
  std::optional<course::DeviceBuffer<float>> device_norms_;
  std::vector<double> reference_;
  std::vector<float> norms_;
};

// launch_row_norms on one shape, labelled with the method it is meant to choose; then, for
// short rows, the group kernel at every width.
void demo_shape(const Shape& shape, double ceiling_gbps, course::Table& by_shape,
                course::Table& by_width, course::StudentFunction& launch,
                course::StudentFunction& group) {
  const bool block_rows = shape.cols >= kBlockPerRowMinCols;
  const std::string label =
      shape_text(shape) +
      (block_rows ? " (block per row)" : " (" + lanes_text(lanes_per_row(shape.cols)) + ")");
  ShapeRun run(shape, ceiling_gbps);
  // The launcher may give a short row any width (the choice is not judged here either):
  // its tolerance is that of one lane per row.
  if (run.line(by_shape, label, launch, block_rows ? kRowBlockThreads : 1,
               [&] { launch_row_norms(run.matrix(), run.norms(), shape.rows, shape.cols); })) {
    std::printf("    largest relative difference from the CPU's double-precision norms: %.3g "
                "(2^-24 = %.3g)\n",
                run.worst_relative(), std::ldexp(1.0, -24));
  }
  if (shape.cols > kWidthSweepMaxCols) return;
  if (!group.not_implemented()) {
    std::printf("    the group kernel at every width (launch_row_norms_group):\n");
  }
  for (const int lanes : kWidths) {
    const bool chosen = lanes == lanes_per_row(shape.cols);
    run.line(
        by_width,
        shape_text(shape) + ", " + lanes_text(lanes) + (chosen ? " (lanes_per_row's choice)" : ""),
        group, lanes,
        [&] { launch_row_norms_group(run.matrix(), run.norms(), shape.rows, shape.cols, lanes); },
        "      ");
  }
}

// ---------------------------------------------------------------------------
// The weighted norm: the weights in constant memory, or in global memory
// ---------------------------------------------------------------------------

// The student's weighted_row_norms_kernel with one change: the weights come from global
// memory, through the read-only path (const __restrict__). At every step all the lanes of
// a warp read the same weight there too, one address: the L1 cache serves it to the warp
// in one request, much as the constant cache broadcasts it.
__global__ void weighted_row_norms_global_kernel(const float* matrix,
                                                 const float* __restrict__ weights, float* norms,
                                                 int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* row_start = matrix + static_cast<std::size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float weighted = weights[c] * row_start[c];
    sum += weighted * weighted;
  }
  norms[row] = sqrtf(sum);
}

// Short rows (one thread per row reads 64 consecutive bytes) and rows as long as the table
// allows: 256 MiB and 400 MB of matrix.
constexpr Shape kWeightedShapes[] = {{4000000, 16}, {50000, kMaxConstantColumns}};

void demo_weighted(double ceiling_gbps, course::StudentFunction& weighted) {
  std::printf("\nweighted norms, sqrt(sum over c of (w[c] * matrix[r][c])^2), one thread per "
              "row, the weights w in constant memory or in global memory (median of %d):\n",
              kDemoRepetitions);
  course::Table table = course::bandwidth_table(
      "weighted_row_norms", "weighted row norms, the weights in constant or global memory");
  for (const Shape& shape : kWeightedShapes) {
    const double matrix_bytes = static_cast<double>(shape.rows) * shape.cols * sizeof(float);
    const double norms_bytes = static_cast<double>(shape.rows) * sizeof(float);
    const std::string constant_label = shape_text(shape) + ", weights in __constant__";
    const std::string global_label = shape_text(shape) + ", weights in global memory";
    if (weighted.not_implemented()) {
      course::add_bandwidth_line(table, weighted.skipped(), constant_label, matrix_bytes,
                                 norms_bytes, 0.0, ceiling_gbps);
      continue;
    }
    const std::vector<float> host_matrix =
        row_norms::make_matrix(shape.rows, shape.cols, kDemoSeed);
    const std::vector<float> host_weights = row_norms::make_weights(shape.cols, kDemoSeed);
    const std::vector<double> reference =
        row_norms::weighted_norms_in_double(host_matrix, host_weights, shape.rows, shape.cols);
    const course::Tolerance tolerance = row_norms::tolerance_for(shape.cols, 1);
    const course::DeviceBuffer<float> matrix(host_matrix);
    const course::DeviceBuffer<float> weights(host_weights);
    course::DeviceBuffer<float> norms(static_cast<std::size_t>(shape.rows));

    set_column_weights(host_weights.data(), shape.cols);
    const auto in_constant = [&] {
      launch_weighted_row_norms(matrix.data(), norms.data(), shape.rows, shape.cols);
    };
    norms.poison();
    in_constant();
    std::vector<float> got = norms.download();
    const course::Judgement result = weighted.judge(
        course::compare(got.data(), reference.data(), reference.size(), tolerance), constant_label);
    const double constant_ms =
        result.right ? course::time_device(in_constant, kDemoWarmup, kDemoRepetitions).median_ms
                     : 0.0;
    course::add_bandwidth_line(table, result, constant_label, matrix_bytes, norms_bytes,
                               constant_ms, ceiling_gbps);
    // The global-memory row is the yardstick of the student's: alone it compares nothing
    // (and a demo whose function is not written prints no figure).
    if (!result.right) continue;

    // The course's kernel, on the same launch configuration; judged as well, so that a
    // figure is printed only for right norms.
    const auto in_global = [&] {
      weighted_row_norms_global_kernel<<<course::blocks_for(static_cast<std::size_t>(shape.rows),
                                                            kWeightedBlockThreads),
                                         kWeightedBlockThreads>>>(
          matrix.data(), weights.data(), norms.data(), shape.rows, shape.cols);
      CUDA_CHECK_LAUNCH();
    };
    norms.poison();
    in_global();
    got = norms.download();
    const bool global_right =
        course::compare(got.data(), reference.data(), reference.size(), tolerance).ok();
    const double global_ms =
        global_right ? course::time_device(in_global, kDemoWarmup, kDemoRepetitions).median_ms
                     : 0.0;
    course::add_bandwidth_line(table,
                               global_right ? course::Judgement{}
                                            : course::Judgement{false, "wrong result (course)"},
                               global_label, matrix_bytes, norms_bytes, global_ms, ceiling_gbps);
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  course::StudentFunction whole("row_norms_gpu"), launch("launch_row_norms"),
      group("launch_row_norms_group"), weighted("launch_weighted_row_norms");
  demo_unit_circle(whole);
  std::printf("\nnorms[r] = sqrt(sum over c of matrix[r][c]^2); the kernels alone, median of "
              "%d:\n",
              kDemoRepetitions);
  course::Table by_shape = course::bandwidth_table("row_norms", "row norms, by matrix shape");
  course::Table by_width =
      course::bandwidth_table("row_norms_by_lanes", "row norms of short rows, by lanes per row");
  for (const Shape& shape : kDemoShapes) {
    demo_shape(shape, ceiling_gbps, by_shape, by_width, launch, group);
  }
  demo_weighted(ceiling_gbps, weighted);
  std::printf("\n(`make check-12` grades every case against a double-precision reference)\n");
  return course::demo_status({&whole, &launch, &group, &weighted});
}
