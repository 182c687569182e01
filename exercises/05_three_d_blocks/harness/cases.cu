// Exercise 05 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "three_d_blocks.hpp"
#include "workload.hpp"

namespace {

namespace result = three_d_blocks::result;

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------
int size_param(const course::check::CaseRequest& request, const std::string& key) {
  const long long value = request.param_int(key);
  if (value < 0 || value > (1 << 30)) {
    std::fprintf(stderr, "check protocol: parameter %s = %lld is out of range\n", key.c_str(),
                 value);
    std::exit(2);
  }
  return static_cast<int>(value);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const int nx = size_param(request, "nx");
  const int ny = size_param(request, "ny");
  const int nz = size_param(request, "nz");
  const std::vector<float> in = three_d_blocks::make_input(nx, ny, nz, request.seed);
  course::check::GuardedOutput<float> out(in.size());

  if (request.name == "serial") {
    stencil_serial(in.data(), out.data(), nx, ny, nz);
    out.report(results, result::out);
    return;
  }
  if (request.name == "openmp") {
    // The thread count is the case's: the student's loop must work with any.
    omp_set_num_threads(size_param(request, "threads"));
    stencil_openmp(in.data(), out.data(), nx, ny, nz);
    out.report(results, result::out);
    return;
  }

  const dim3 block(size_param(request, "block_x"), size_param(request, "block_y"),
                   size_param(request, "block_z"));
  if (request.name == "gpu_after_empty") {
    // A grid without points first (nx = 0): it must launch nothing and break nothing.
    const std::vector<float> no_input;
    course::check::GuardedOutput<float> no_output(0);
    stencil_on_gpu(no_input.data(), no_output.data(), 0, ny, nz, block);
    no_output.report(results, result::empty_out);
  } else if (request.name != "gpu") {
    course::check::unknown_case(request);
  }
  // Watched: the student's own launches timed with events, its copies and allocations
  // placed among the events it records (reported_time.hpp).
  double call_ms = 0.0;
  const float kernel_ms = course::check::watch_student_call(results, [&] {
    const course::WallTimer call_timer;
    const float returned = stencil_on_gpu(in.data(), out.data(), nx, ny, nz, block);
    call_ms = call_timer.elapsed_ms();
    return returned;
  });
  results.put(result::call_ms, call_ms);
  results.put(result::kernel_ms, kernel_ms);
  out.report(results, result::out);
}
