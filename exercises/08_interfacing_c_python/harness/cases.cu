// Exercise 08 - the cases the check asks for of the C caller. Every call goes through
// the C functions of c_caller.c, compiled as C. They report what they found and decide
// nothing: harness/check.cpp judges (and runs veclib.py for the Python cases).
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "c_caller.h"
#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "veclib.h"
#include "workload.hpp"

namespace {

using course::check::CaseRequest;
using course::check::GuardedOutput;
using course::check::ResultWriter;
namespace result = veclib_workload::result;

// An in-out array with a guard zone, holding `values` before the call.
GuardedOutput<float> guarded_copy(const std::vector<float>& values) {
  GuardedOutput<float> guarded(values.size());
  if (!values.empty()) std::memcpy(guarded.data(), values.data(), values.size() * sizeof(float));
  return guarded;
}

// One saxpy of the case's inputs, reported as result::status and result::y.
void saxpy_case(std::size_t n, std::uint64_t seed, ResultWriter& results) {
  const std::vector<float> x = veclib_workload::saxpy_x(n, seed);
  GuardedOutput<float> y = guarded_copy(veclib_workload::saxpy_y(n, seed));
  results.put(result::status, c_call_saxpy(veclib_workload::kSaxpyA, x.data(), y.data(), n));
  y.report(results, result::y);
}

}  // namespace

void course::program::run_check_case(const CaseRequest& request, ResultWriter& results) {
  namespace asked = veclib_workload::request;
  // Every C case takes one size, n.
  std::optional<asked::Size> size;
  for (const auto* kind :
       {&asked::saxpy, &asked::saxpy_after_empty, &asked::clamp, &asked::null_pointers,
        &asked::invalid_values, &asked::out_of_memory, &asked::error_path_frees}) {
    if (request.is(*kind)) size = request.as(*kind);
  }
  if (!size) course::check::unknown_case(request);
  const std::size_t n = size->n;
  const std::uint64_t seed = request.seed;
  const float a = veclib_workload::kSaxpyA;

  if (request.is(asked::saxpy)) {
    saxpy_case(n, seed, results);
  } else if (request.is(asked::saxpy_after_empty)) {
    // n = 0 with real arrays: success, and nothing written.
    GuardedOutput<float> empty_y(0);
    const float no_x = 0.0f;
    results.put(result::empty_status, c_call_saxpy(a, &no_x, empty_y.data(), 0));
    empty_y.report(results, result::empty_y);
    saxpy_case(n, seed, results);
  } else if (request.is(asked::clamp)) {
    GuardedOutput<float> x = guarded_copy(veclib_workload::clamp_x(n, seed));
    results.put(result::status,
                c_call_clamp(x.data(), n, veclib_workload::kClampLo, veclib_workload::kClampHi));
    x.report(results, result::x);
  } else if (request.is(asked::null_pointers)) {
    const std::vector<float> x = veclib_workload::saxpy_x(n, seed);
    GuardedOutput<float> y = guarded_copy(veclib_workload::saxpy_y(n, seed));
    results.put(result::null_x_status, c_call_saxpy(a, nullptr, y.data(), n));
    results.put(result::null_y_status, c_call_saxpy(a, x.data(), nullptr, n));
    results.put(result::null_y_empty_status, c_call_saxpy(a, x.data(), nullptr, 0));
    results.put(result::null_clamp_status, c_call_clamp(nullptr, n, -1.0f, 1.0f));
    y.report(results, result::y_after_errors);
    saxpy_case(n, seed, results);
  } else if (request.is(asked::invalid_values)) {
    GuardedOutput<float> x = guarded_copy(veclib_workload::clamp_x(n, seed));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    results.put(result::reversed_status, c_call_clamp(x.data(), n, 2.0f, 1.0f));
    results.put(result::nan_status, c_call_clamp(x.data(), n, nan, 1.0f));
    // SIZE_MAX / 2 floats: their bytes do not fit in a size_t.
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
    results.put(result::overflow_status, c_call_clamp(x.data(), huge, -1.0f, 1.0f));
    x.report(results, result::x_after_errors);
    results.put(result::status,
                c_call_clamp(x.data(), n, veclib_workload::kClampLo, veclib_workload::kClampHi));
    x.report(results, result::x);
  } else if (request.is(asked::out_of_memory)) {
    const std::vector<float> x = veclib_workload::saxpy_x(n, seed);
    GuardedOutput<float> y = guarded_copy(veclib_workload::saxpy_y(n, seed));
    // The arrays are short, but the allocation fails before anything is copied.
    const veclib_status oom =
        c_call_saxpy(a, x.data(), y.data(), veclib_workload::kTooManyElements);
    results.put(result::oom_status, oom);
    results.put(result::oom_message_length,
                static_cast<std::int64_t>(std::strlen(veclib_last_error_message())));
    results.put(result::oom_text_length,
                static_cast<std::int64_t>(std::strlen(veclib_status_string(oom))));
    y.report(results, result::y_after_errors);
    saxpy_case(n, seed, results);
  } else if (request.is(asked::error_path_frees)) {
    const std::vector<float> x = veclib_workload::saxpy_x(n, seed);
    GuardedOutput<float> y = guarded_copy(veclib_workload::saxpy_y(n, seed));
    // The library's second cudaMalloc fails as on a full device (device_accounting.hpp):
    // the first buffer must then be freed on the way out.
    course::check::fail_device_allocation(2);
    const veclib_status status = c_call_saxpy(a, x.data(), y.data(), n);
    results.put(result::status, status);
    y.report(results, result::y_after_errors);
  }
}
