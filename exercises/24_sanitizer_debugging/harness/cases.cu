// Exercise 24 - the cases the check asks for, one step each, computed with the student's
// functions. They report what they found and decide nothing: harness/check.cpp judges,
// each case under its compute-sanitizer tool.
#include <string>
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "run_steps.cuh"
#include "workload.hpp"

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace workload = sanitizer_debugging;
  namespace asked = sanitizer_debugging::request;
  namespace result = sanitizer_debugging::result;
  // Each case runs under a compute-sanitizer tool that must see the memory as the
  // program left it: no poisoned allocations (initialised memory to initcheck), no
  // guard zones (inside the allocation to memcheck).
  course::check::stop_device_memory_accounting();
  if (const auto p = request.as(asked::average)) {
    const int n = static_cast<int>(p->n);
    const int frame_count = static_cast<int>(p->frames);
    results.put(result::mean,
                workload::run_average(workload::make_frames(frame_count, n, request.seed),
                                      frame_count, n));
    return;
  }
  const auto p = request.is(asked::reverse)  ? request.as(asked::reverse)
                 : request.is(asked::smooth) ? request.as(asked::smooth)
                                             : request.as(asked::block_sums);
  if (!p) course::check::unknown_case(request);
  const std::vector<float> x = workload::make_input(static_cast<int>(p->n), request.seed);
  if (request.is(asked::reverse)) {
    results.put(result::out, workload::run_reverse(x));
  } else if (request.is(asked::smooth)) {
    results.put(result::out, workload::run_smooth(x));
  } else {
    results.put(result::sums, workload::run_block_sums(x));
  }
}
