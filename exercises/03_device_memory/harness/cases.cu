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
  const int n = static_cast<int>(request.param_int("n"));
  const float scale = static_cast<float>(request.param_double("scale"));
  const float offset = static_cast<float>(request.param_double("offset"));
  if (request.name == "affine_after_empty") {
    // An empty call first: it must neither fail nor disturb the call after it.
    std::vector<float> empty;
    affine_on_gpu(empty.data(), empty.data(), 0, scale, offset);
  } else if (request.name != "affine") {
    course::check::unknown_case(request);
  }
  const std::vector<float> x = device_memory::make_input(n, request.seed);
  std::vector<float> y(x.size());
  course::poison(y.data(), y.size());
  affine_on_gpu(x.data(), y.data(), n, scale, offset);
  results.put(device_memory::result::y, y);
}
