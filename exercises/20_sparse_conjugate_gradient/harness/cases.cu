// Exercise 20 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "device_matrix.cuh"
#include "sparse_conjugate_gradient.hpp"
#include "workload.hpp"

namespace {

namespace scg = sparse_conjugate_gradient;
namespace result = sparse_conjugate_gradient::result;
using scg::CusparseProduct;
using scg::DeviceMatrix;

scg::CsrMatrix matrix_of(const course::check::CaseRequest& request) {
  return scg::make_matrix(scg::kind_from_name(request.param("kind")),
                          static_cast<int>(request.param_int("size")),
                          course::derive_seed(request.seed, scg::kMatrixSalt));
}

using Product = void (*)(const DeviceCsr&, const float*, float*);

// The student's product that a case names: "scalar", "warp" (the vector kernel with a
// whole warp per row, launched by the given spmv_vector_warp_per_row), "balanced", or
// "vector" (the default).
Product product_of(const course::check::CaseRequest& request) {
  const std::string& kernel = request.param("kernel");
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

void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const scg::CsrMatrix a = matrix_of(request);
  const Product product = product_of(request);
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  DeviceMatrix matrix(a);
  course::DeviceBuffer<float> x(scg::make_x(a.rows, request.seed));
  course::DeviceBuffer<float> y(static_cast<std::size_t>(a.rows));
  // The student's product alone first, so that the output reported is its own.
  product(matrix.csr, x.data(), y.data());
  results.put(result::y, y.download());
  CusparseProduct library(matrix.csr, x.data(), y.data());
  double student_ms = 0.0, library_ms = 0.0;
  for (int round = 0; round < kSpeedRounds; ++round) {
    const double l =
        course::time_device([&] { library.run(); }, kSpeedWarmup, repetitions).median_ms;
    const double s = course::time_device([&] { product(matrix.csr, x.data(), y.data()); },
                                         kSpeedWarmup, repetitions)
                         .median_ms;
    library_ms = round == 0 ? l : std::min(library_ms, l);
    student_ms = round == 0 ? s : std::min(student_ms, s);
  }
  results.put(result::student_ms, student_ms);
  results.put(result::cusparse_ms, library_ms);
}

void run_dot_case(const course::check::CaseRequest& request, course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const std::vector<float> x = scg::make_dot_input(n, request.seed, request.param("data"));
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<double> device_result(1);
  results.put(result::dot, dot(device_x.data(), device_x.data(), n, device_result.data()));
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "spmv_speed") {
    run_speed_case(request, results);
    return;
  }
  if (kind == "dot") {
    run_dot_case(request, results);
    return;
  }
  const scg::CsrMatrix a = matrix_of(request);
  DeviceMatrix matrix(a);
  if (kind == "spmv") {
    course::DeviceBuffer<float> x(scg::make_x(a.rows, request.seed));
    course::DeviceBuffer<float> y(static_cast<std::size_t>(a.rows));
    product_of(request)(matrix.csr, x.data(), y.data());
    results.put(result::y, y.download());
    return;
  }
  if (kind == "cg") {
    course::DeviceBuffer<float> b(scg::make_rhs(a, request.seed, request.param_double("scale")));
    course::DeviceBuffer<float> x(static_cast<std::size_t>(a.rows));
    const CgResult solved =
        conjugate_gradient(matrix.csr, b.data(), x.data(), request.param_double("tolerance"),
                           static_cast<int>(request.param_int("max_iterations")));
    results.put(result::x, x.download());
    results.put(result::status, static_cast<std::int64_t>(solved.status));
    results.put(result::iterations, static_cast<std::int64_t>(solved.iterations));
    return;
  }
  course::check::unknown_case(request);
}
