// Exercise 03 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "device_memory.hpp"
#include "workload.hpp"

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace asked = device_memory::request;
  const bool after_empty = request.is(asked::affine_after_empty);
  const auto p = after_empty ? request.as(asked::affine_after_empty) : request.as(asked::affine);
  if (!p) course::check::unknown_case(request);
  const float scale = static_cast<float>(p->scale);
  const float offset = static_cast<float>(p->offset);
  if (after_empty) {
    // An empty call first: it must neither fail nor disturb the call after it.
    std::vector<float> empty;
    affine_on_gpu(empty.data(), empty.data(), 0, scale, offset);
  }
  const int n = static_cast<int>(p->n);
  const std::vector<float> x = device_memory::make_input(n, request.seed);
  std::vector<float> y(x.size());
  course::poison(y.data(), y.size());
  affine_on_gpu(x.data(), y.data(), n, scale, offset);
  results.put(device_memory::result::y, y);
}
