// Exercise 26 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "workload.hpp"

// The functions under test.
#include "tensor_core_gemm.hpp"

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const auto scale = request.as(tensor_core_gemm::request::scale);
  if (!scale) course::check::unknown_case(request);
  const int n = scale->n;
  const float factor = static_cast<float>(scale->factor);
  const std::vector<float> x = tensor_core_gemm::make_input(n, request.seed);
  std::vector<float> y(x.size());
  course::poison(y.data(), y.size());
  scale_on_gpu(x.data(), y.data(), n, factor);
  results.put(tensor_core_gemm::result::y, y);
}
