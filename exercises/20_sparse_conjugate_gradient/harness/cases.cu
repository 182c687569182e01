// Exercise 20 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "device_matrix.cuh"
#include "sparse_conjugate_gradient.hpp"
#include "workload.hpp"

namespace {

namespace scg = sparse_conjugate_gradient;
namespace asked = sparse_conjugate_gradient::request;
namespace result = sparse_conjugate_gradient::result;
using scg::CusparseProduct;
using scg::DeviceMatrix;

scg::CsrMatrix matrix_of(scg::MatrixKind kind, std::int64_t size, std::uint64_t seed) {
  return scg::make_matrix(kind, static_cast<int>(size),
                          course::derive_seed(seed, scg::kMatrixSalt));
}

using Product = void (*)(const DeviceCsr&, const float*, float*);

// The student's product that a case names: "scalar", "warp" (the vector kernel with a
// whole warp per row, launched by the given spmv_vector_warp_per_row), "balanced", or
// "vector" (the default).
Product product_of(const std::string& kernel) {
  if (kernel == "scalar") return spmv_scalar;
  if (kernel == "warp") return spmv_vector_warp_per_row;
  if (kernel == "balanced") return spmv_balanced;
  return spmv_vector;
}

// The speed case: rounds of (cuSPARSE, student), each the median of `repetitions` timed
// products; the best round of each counts, so that a clock still rising or a neighbour's
// burst cannot decide.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 3;

void run_speed_case(const asked::SpmvSpeed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const scg::CsrMatrix a = matrix_of(p.kind, p.size, seed);
  const Product product = product_of(p.kernel);
  const int repetitions = static_cast<int>(p.repetitions);
  DeviceMatrix matrix(a);
  course::DeviceBuffer<float> x(scg::make_x(a.rows, seed));
  course::DeviceBuffer<float> y(static_cast<std::size_t>(a.rows));
  // The student's product alone first, so that the output reported is its own.
  product(matrix.csr, x.data(), y.data());
  results.put(result::y, y.download());
  CusparseProduct library(matrix.csr, x.data(), y.data());
  // Each timed product must write the whole of y (course/check/timed_call.hpp).
  auto student_product = course::check::student_call(
      {course::check::timed_output(y.data(), static_cast<std::size_t>(a.rows))},
      [&] { product(matrix.csr, x.data(), y.data()); });
  double student_ms = 0.0, library_ms = 0.0;
  for (int round = 0; round < kSpeedRounds; ++round) {
    const double l =
        course::time_device([&] { library.run(); }, kSpeedWarmup, repetitions).median_ms;
    const double s = course::time_device(student_product, kSpeedWarmup, repetitions).median_ms;
    library_ms = round == 0 ? l : std::min(library_ms, l);
    student_ms = round == 0 ? s : std::min(student_ms, s);
  }
  results.put(result::student_ms, student_ms);
  results.put(result::cusparse_ms, library_ms);
}

void run_dot_case(const asked::Dot& p, std::uint64_t seed, course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const std::vector<float> x = scg::make_dot_input(n, seed, p.data);
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<double> device_result(1);
  results.put(result::dot, dot(device_x.data(), device_x.data(), n, device_result.data()));
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::spmv_speed)) {
    run_speed_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::dot)) {
    run_dot_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::spmv)) {
    const scg::CsrMatrix a = matrix_of(p->kind, p->size, request.seed);
    DeviceMatrix matrix(a);
    course::DeviceBuffer<float> x(scg::make_x(a.rows, request.seed));
    course::DeviceBuffer<float> y(static_cast<std::size_t>(a.rows));
    product_of(p->kernel)(matrix.csr, x.data(), y.data());
    results.put(result::y, y.download());
  } else if (const auto p = request.as(asked::cg)) {
    const scg::CsrMatrix a = matrix_of(p->kind, p->size, request.seed);
    DeviceMatrix matrix(a);
    course::DeviceBuffer<float> b(scg::make_rhs(a, request.seed, p->scale));
    course::DeviceBuffer<float> x(static_cast<std::size_t>(a.rows));
    const CgResult solved = conjugate_gradient(matrix.csr, b.data(), x.data(), p->tolerance,
                                               static_cast<int>(p->max_iterations));
    results.put(result::x, x.download());
    results.put(result::status, static_cast<std::int64_t>(solved.status));
    results.put(result::iterations, static_cast<std::int64_t>(solved.iterations));
  } else {
    course::check::unknown_case(request);
  }
}
