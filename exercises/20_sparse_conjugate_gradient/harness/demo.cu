// Exercise 20 - the demo (`make run-20`): y = A x with a thread per row, a group of lanes
// per row, the nonzeros split evenly among threads, and cuSPARSE's cusparseSpMV on three
// large matrices (2D Poisson, banded, power-law rows), each with its time, GB/s, share of
// the copy ceiling and cuSPARSE's time over its own; then conjugate gradient on a Poisson
// matrix, its time per iteration split into the product, the dot products and the vector
// updates. Every result is compared with its reference before it is shown or timed
// (course/demo_results.hpp); the demo ends with status 1 while something is unfinished.
//
// Build and run:  make 20 && make run-20
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "device_matrix.cuh"
#include "sparse_conjugate_gradient.hpp"
#include "workload.hpp"

namespace {

namespace scg = sparse_conjugate_gradient;
using scg::CusparseProduct;
using scg::DeviceMatrix;

// ---------------------------------------------------------------------------
// Demo, part 1: four products on three matrices
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoRepetitions = 20;
// The rows at which a product is compared with the double one, spread over the matrix.
constexpr std::size_t kJudgedRows = 1 << 18;

struct DemoFunctions {
  course::StudentFunction scalar{"spmv_scalar"};
  course::StudentFunction vector{"spmv_vector"};
  course::StudentFunction balanced{"spmv_balanced"};
  course::StudentFunction dot{"dot"};
  course::StudentFunction cg{"conjugate_gradient"};
};

struct DemoMatrix {
  const char* title;
  scg::MatrixKind kind;
  int size;
};
// [slide:demo-matrices]
constexpr DemoMatrix kDemoMatrices[] = {
    {"2D Poisson 2048 x 2048", scg::MatrixKind::poisson, 2048},
    {"banded, 33 per row", scg::MatrixKind::banded, 1 << 20},
    {"power-law rows", scg::MatrixKind::power_law, 1 << 20},
};
// [/slide]

void demo_products(const DemoMatrix& demo, double ceiling_gbps, DemoFunctions& functions) {
  const scg::CsrMatrix a =
      scg::make_matrix(demo.kind, demo.size, course::derive_seed(kDemoSeed, scg::kMatrixSalt));
  int longest = 0;
  for (int i = 0; i < a.rows; ++i) longest = std::max(longest, a.row_length(i));
  std::printf("\n%s: %d rows, %d nonzeros (mean %.1f a row, longest %d); vector lanes per "
              "row: %d\n",
              demo.title, a.rows, a.nonzeros(), static_cast<double>(a.nonzeros()) / a.rows, longest,
              vector_lanes_per_row(a.rows, a.nonzeros()));
  const std::vector<float> x = scg::make_x(a.rows, kDemoSeed);
  DeviceMatrix matrix(a);
  course::DeviceBuffer<float> device_x(x), device_y(static_cast<std::size_t>(a.rows));
  const std::vector<std::size_t> judged =
      course::spread_indices(static_cast<std::size_t>(a.rows), kJudgedRows);
  CusparseProduct library(matrix.csr, device_x.data(), device_y.data());
  const double bytes = scg::product_bytes(a);
  const double library_ms =
      course::time_device([&] { library.run(); }, 3, kDemoRepetitions).median_ms;
  // Its headings come with its first row that has figures; a row without any is only
  // recorded (its problem was printed once).
  course::Table table(
      std::string("spmv_") + scg::kind_name(demo.kind), std::string("y = A x, ") + demo.title,
      {course::Column::text("product", "product", 30), course::Column::number("ms", "ms", 10, 4),
       course::Column::number("gbps", "GB/s", 9, 1),
       course::Column::number("ceiling_percent", "% of copy", 10, 1, "%"),
       course::Column::number("vs_cusparse", "cuSPARSE's time / this", 23, 2)});
  const auto add = [&](const char* label, const course::Judgement& result, double ms) {
    const double gbps = course::gigabytes_per_second(bytes, ms);
    std::vector<course::Cell> cells = {label, result.figure(ms), result.figure(gbps),
                                       result.figure(100.0 * gbps / ceiling_gbps),
                                       result.figure(library_ms / ms)};
    if (result.right) {
      table.add_row(std::move(cells), result.problem);
    } else {
      table.record_row(std::move(cells), result.problem);
    }
  };
  struct Row {
    const char* label;
    course::StudentFunction* function;
    void (*launch)(const DeviceCsr&, const float*, float*);
  };
  for (const Row& row :
       {Row{"thread per row (scalar)", &functions.scalar, spmv_scalar},
        Row{"lanes per row (vector)", &functions.vector, spmv_vector},
        Row{"8 nonzeros a thread (balanced)", &functions.balanced, spmv_balanced}}) {
    course::Judgement result = row.function->skipped();
    double ms = 0.0;
    if (!row.function->not_implemented()) {
      device_y.poison();
      row.launch(matrix.csr, device_x.data(), device_y.data());
      const std::vector<float> y = device_y.download();
      result = row.function->judge(scg::compare_product(a, x, y.data(), judged), demo.title);
      if (result.right) {
        ms = course::time_device([&] { row.launch(matrix.csr, device_x.data(), device_y.data()); },
                                 3, kDemoRepetitions)
                 .median_ms;
      }
    }
    add(row.label, result, ms);
  }
  // The library's figures only beside a product of the student's that is right.
  const bool compared =
      functions.scalar.ready() || functions.vector.ready() || functions.balanced.ready();
  add("cusparseSpMV (CSR)",
      compared ? course::Judgement{} : course::Judgement{false, "no product of yours to compare"},
      library_ms);
}

// ---------------------------------------------------------------------------
// Demo, part 2: conjugate gradient and where its time goes
// ---------------------------------------------------------------------------

constexpr int kDemoCgGrid = 512;
constexpr int kDemoCgMaxIterations = 5000;
constexpr double kDemoCgTolerance = 1e-6;
// The true residual of a float solution that met the recursive 1e-6 (the check's limit).
constexpr double kDemoTrueResidualLimit = 2e-6;

void demo_cg(DemoFunctions& functions) {
  const scg::CsrMatrix a = scg::poisson_2d(kDemoCgGrid, scg::kPoissonDiagonal);
  const std::vector<float> b = scg::make_rhs(a, kDemoSeed, 1.0);
  std::printf("\nPart 2. Conjugate gradient on 2D Poisson %d x %d (%d rows), b = A x_true, "
              "to ||r|| <= %g ||b||\n",
              kDemoCgGrid, kDemoCgGrid, a.rows, kDemoCgTolerance);
  // dot first: CG is built on it.
  {
    const int n = 1 << 20;
    const std::vector<float> ones(n, 1.0f);
    course::DeviceBuffer<float> device_ones(ones);
    course::DeviceBuffer<double> scratch(1);
    const double got = dot(device_ones.data(), device_ones.data(), n, scratch.data());
    functions.dot.judge_value(got != 0.0, got == n, "x = y = 1, n = 2^20",
                              "returned " + course::format_number(got) + ", expected " +
                                  std::to_string(n));
  }
  if (!functions.vector.ready() || !functions.dot.ready()) {
    std::printf("(conjugate_gradient needs spmv_vector and dot: not run)\n");
    functions.cg.judge_value(false, false, "", "");
    return;
  }
  DeviceMatrix matrix(a);
  course::DeviceBuffer<float> device_b(b), device_x(static_cast<std::size_t>(a.rows));
  device_x.poison();
  CgResult solved{};
  const double total_ms = course::time_device(
                              [&] {
                                solved =
                                    conjugate_gradient(matrix.csr, device_b.data(), device_x.data(),
                                                       kDemoCgTolerance, kDemoCgMaxIterations);
                              },
                              0, 1)
                              .median_ms;
  const std::vector<float> x = device_x.download();
  const double residual = scg::true_relative_residual(a, b, x);
  const course::Judgement result = functions.cg.judge_value(
      solved.status != scg::CgStatus::not_converged || solved.iterations > 0,
      solved.status == scg::CgStatus::converged && residual <= kDemoTrueResidualLimit,
      "Poisson " + std::to_string(kDemoCgGrid),
      std::string(scg::status_name(solved.status)) + " after " + std::to_string(solved.iterations) +
          " iterations, true residual " + course::format_number(residual));
  if (!result.right) return;

  // The parts of one iteration, each timed alone on the same vectors: one product, two
  // dot products (each with its copy of a double to the host), three vector updates.
  const int n = a.rows;
  const int blocks = blocks_for(n);
  course::DeviceBuffer<float> p(b), q(static_cast<std::size_t>(n));
  course::DeviceBuffer<double> scratch(1);
  const double spmv_ms =
      course::time_device([&] { spmv_vector(matrix.csr, p.data(), q.data()); }).median_ms;
  const double dot_ms =
      course::time_device([&] { dot(p.data(), q.data(), n, scratch.data()); }).median_ms;
  const double axpy_ms = course::time_device([&] {
                           axpy_kernel<<<blocks, kThreadsPerBlock>>>(1e-3f, p.data(), q.data(), n);
                           CUDA_CHECK_LAUNCH();
                         }).median_ms;
  const double per_iteration = total_ms / std::max(1, solved.iterations);
  const double parts = spmv_ms + 2.0 * dot_ms + 3.0 * axpy_ms;
  std::printf("converged in %d iterations, %.3f ms in all, true residual ||b - Ax|| / ||b|| = "
              "%.3g (double, on the host)\n",
              solved.iterations, total_ms, residual);
  std::printf("per iteration: %.4f ms = product %.4f + 2 dots x %.4f + 3 updates x %.4f "
              "(= %.4f) + the rest %.4f (launch gaps, waits for the host)\n",
              per_iteration, spmv_ms, dot_ms, axpy_ms, parts, per_iteration - parts);
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  DemoFunctions functions;
  std::printf("\nPart 1. y = A x in CSR, x uniform in [-1, 1)\n");
  std::printf("GB/s = (4 B value + 4 B column per nonzero + 4 B per row offset + 4 B of x and "
              "4 B of y per row) / time; copy ceiling (same run) = %.1f GB/s\n",
              ceiling_gbps);
  for (const DemoMatrix& demo : kDemoMatrices) demo_products(demo, ceiling_gbps, functions);
  demo_cg(functions);
  std::printf("\n(`make check-20` grades every case)\n");
  return course::demo_status(
      {&functions.scalar, &functions.vector, &functions.balanced, &functions.dot, &functions.cg});
}
