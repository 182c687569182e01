// Exercise 05 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// A size the program can allocate: any other is the check and the program disagreeing
// on the protocol.
int size_param(int value, const char* key) {
  if (value < 0 || value > (1 << 30)) {
    std::fprintf(stderr, "check protocol: parameter %s = %d is out of range\n", key, value);
    std::exit(2);
  }
  return value;
}

// A request's grid: its sizes, its input drawn from the seed and its output, poisoned.
struct Grid {
  template <typename Params>
  Grid(const Params& p, std::uint64_t seed)
      : nx(size_param(p.nx, "nx")),
        ny(size_param(p.ny, "ny")),
        nz(size_param(p.nz, "nz")),
        in(three_d_blocks::make_input(nx, ny, nz, seed)),
        out(in.size()) {}
  int nx, ny, nz;
  std::vector<float> in;
  course::check::GuardedOutput<float> out;
};

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace asked = three_d_blocks::request;
  if (const auto p = request.as(asked::serial)) {
    Grid g(*p, request.seed);
    stencil_serial(g.in.data(), g.out.data(), g.nx, g.ny, g.nz);
    g.out.report(results, result::out);
    return;
  }
  if (const auto p = request.as(asked::openmp)) {
    Grid g(*p, request.seed);
    // The thread count is the case's: the student's loop must work with any.
    omp_set_num_threads(size_param(p->threads, "threads"));
    stencil_openmp(g.in.data(), g.out.data(), g.nx, g.ny, g.nz);
    g.out.report(results, result::out);
    return;
  }

  const bool after_empty = request.is(asked::gpu_after_empty);
  const auto p = after_empty ? request.as(asked::gpu_after_empty) : request.as(asked::gpu);
  if (!p) course::check::unknown_case(request);
  Grid g(*p, request.seed);
  const dim3 block(size_param(p->block_x, "block_x"), size_param(p->block_y, "block_y"),
                   size_param(p->block_z, "block_z"));
  if (after_empty) {
    // A grid without points first (nx = 0): it must launch nothing and break nothing.
    const std::vector<float> no_input;
    course::check::GuardedOutput<float> no_output(0);
    stencil_on_gpu(no_input.data(), no_output.data(), 0, g.ny, g.nz, block);
    no_output.report(results, result::empty_out);
  }
  // Watched: the student's own launches timed with events, its copies and allocations
  // placed among the events it records (reported_time.hpp).
  double call_ms = 0.0;
  const float kernel_ms = course::check::watch_student_call(results, [&] {
    const course::WallTimer call_timer;
    const float returned = stencil_on_gpu(g.in.data(), g.out.data(), g.nx, g.ny, g.nz, block);
    call_ms = call_timer.elapsed_ms();
    return returned;
  });
  results.put(result::call_ms, call_ms);
  results.put(result::kernel_ms, kernel_ms);
  g.out.report(results, result::out);
}
