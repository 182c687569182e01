// Exercise 12 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstddef>
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "row_norms.hpp"
#include "workload.hpp"

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.name != "gpu") course::check::unknown_case(request);
  const int rows = static_cast<int>(request.param_int("rows"));
  const int cols = static_cast<int>(request.param_int("cols"));
  const row_norms::MatrixKind kind = row_norms::matrix_kind_from_name(request.param("matrix"));
  const std::vector<float> matrix = row_norms::make_matrix(rows, cols, request.seed, kind);
  course::check::GuardedOutput<float> norms(static_cast<std::size_t>(rows));
  row_norms_gpu(matrix.data(), norms.data(), rows, cols);
  norms.report(results, row_norms::result::norms);
}
