// Exercise 04 - the check. Runs the student's program case by case and compares
// what it reports with a double-precision reference computed here. Contains no
// student code.
//
//   make check-04                          (students)
//   build/.../check_04 --program PROGRAM   (instructors; --help lists the options)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/reported_time.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Request;
using course::check::Run;
namespace request = cpu_vs_gpu::request;
namespace result = cpu_vs_gpu::result;

const std::string kFormulaHint = "each element must be heavy(x[i]) = the sum over k = 1 .. " +
                                 std::to_string(kHeavyTerms) +
                                 " of g(x[i] / k), in float with "
                                 "sinf, expf and sqrtf (the formula is in cpu_vs_gpu.hpp).";
const std::string kBlockSizeHint = "the launch must use threads_per_block threads per block: the "
                                   "number the block count was computed with.";

// The threads per block of the cases that do not test the block size.
constexpr int kDefaultThreads = 256;

// The reference of every element (workload.hpp: heavy() in double, and the tolerance).
std::vector<double> reference(int n, std::uint64_t seed) {
  const std::vector<float> x = cpu_vs_gpu::make_input(n, seed);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = cpu_vs_gpu::heavy_reference(x[i]);
  return y;
}

bool expect_gpu_guard_untouched(CaseContext& c, const Run& run) {
  return c.expect_host_guard_untouched(run, result::y, "heavy_on_gpu",
                                       "copy back n * sizeof(float) bytes into host_y, no more.");
}

// The values and the host guard of one heavy_on_gpu output.
bool expect_gpu_output(CaseContext& c, const Run& run, int n, const std::string& wrong_hint) {
  return expect_gpu_guard_untouched(c, run) &&
         c.expect_array(run, result::y, reference(n, c.seed()), cpu_vs_gpu::kTolerance, wrong_hint);
}

// One heavy_on_gpu call (after an empty one for kind request::gpu_after_empty).
bool check_gpu(CaseContext& c, int n, int threads_per_block,
               const Request<request::Gpu>& kind = request::gpu,
               const std::string& wrong_hint = kFormulaHint) {
  const Run run = c.run(kind, {n, threads_per_block});
  bool ok = c.finished(run) && c.expect_kernel_launched(run);
  if (ok && kind.name == request::gpu_after_empty.name) {
    ok = c.expect_host_guard_untouched(run, result::empty_y, "heavy_on_gpu with n = 0",
                                       "with n = 0 there is nothing to copy: return at once.");
  }
  ok = ok && expect_gpu_output(c, run, n, wrong_hint);
  if (!ok) {
    c.note("(heavy_on_gpu with n = " + std::to_string(n) +
           ", threads_per_block = " + std::to_string(threads_per_block) + ")");
  }
  return ok;
}

bool check_cpu(CaseContext& c, int n) {
  const Run run = c.run(request::cpu, {n});
  if (!c.finished(run)) return false;
  if (!c.expect_host_guard_untouched(
          run, result::y, "heavy_on_cpu",
          "the CPU loop must stop before i = n: for (i = 0; i < n; ++i).")) {
    return false;
  }
  return c.expect_array(run, result::y, reference(n, c.seed()), cpu_vs_gpu::kTolerance,
                        kFormulaHint);
}

// ---------------------------------------------------------------------------
// The time heavy_on_gpu returns
// ---------------------------------------------------------------------------

// Large enough that the kernel runs for a good fraction of a millisecond even on an
// H200, while a launch returns in microseconds; not a multiple of any block size.
constexpr int kTimingElements = (1 << 24) + 43;
// The runner also times the same kernel on the same input with events, its fastest of
// several launches (course/check/reported_time.hpp says how the time is judged).

void check_kernel_time(CaseContext& c) {
  const Run run = c.run(request::gpu_timing, {kTimingElements, kDefaultThreads});
  if (!c.finished(run)) return;
  course::check::ReportedTime t{"heavy_on_gpu", "kernel",
                                std::to_string(kTimingElements) + " elements"};
  if (!c.read_value(run, result::kernel_ms, t.reported_ms) ||
      !c.read_value(run, result::call_ms, t.call_ms) ||
      !c.read_value(run, result::reference_kernel_ms, t.fastest_ms) ||
      !course::check::read_watched_call(c, run, t)) {
    return;
  }
  // The values of this large output are graded by the other cases; here it must at
  // least have been computed everywhere, so that the time is that of the whole kernel.
  if (!expect_gpu_guard_untouched(c, run)) return;
  std::vector<float> y;
  if (!c.read_array(run, result::y, y)) return;
  if (y.size() != static_cast<std::size_t>(kTimingElements)) {
    c.fail("the program reported no output 'y' of " + std::to_string(kTimingElements) + " floats");
    return;
  }
  std::size_t unwritten = 0;
  for (const float value : y) {
    if (course::is_poison(value)) ++unwritten;
  }
  if (unwritten > 0) {
    c.fail("heavy_on_gpu left " + std::to_string(unwritten) + " of " +
           std::to_string(kTimingElements) +
           " elements of y unwritten: this is not the time "
           "of the whole computation");
    c.hint("the other cases say what is missing; this one needs every element computed.");
    return;
  }

  course::check::expect_plausible_time(
      c, t,
      {"time the kernel with a course::EventTimer: start() before the launch, stop() after "
       "it, and return elapsed_ms().",
       "return the kernel's own time in milliseconds (elapsed_ms() of one launch), not "
       "microseconds nor a total over several calls.",
       "time the kernel alone: start() right before the launch and stop() right after it, "
       "with the copies and cudaMalloc/cudaFree outside the timed region.",
       "the launch returns before the kernel ends: a host clock read right after it "
       "measures the launch, not the kernel. Record CUDA events around the kernel and read "
       "elapsed_ms(), which waits for the stop event."});
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

// A size and a block size the student has not seen: drawn from the seed, so graders
// change them with --seed.
constexpr int kHiddenMaxElements = 2000000;
constexpr int kHiddenBlockSizes[] = {32, 64, 128, 256, 512, 1024};
constexpr std::uint64_t kHiddenShapeSalt = 4;

void check_hidden(CaseContext& c) {
  // A stream of its own, apart from the one that draws the inputs from the same seed.
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  const int block_size_count = static_cast<int>(std::size(kHiddenBlockSizes));
  const int threads_per_block = kHiddenBlockSizes[rng.uniform_int(0, block_size_count - 1)];
  check_gpu(c, n, threads_per_block);
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "04",
      "cpu_vs_gpu",
      {
          course::check::host_only(
              {"cpu_loop_on_its_own", 2, [](CaseContext& c) { check_cpu(c, 100003); }}),
          {"n_is_one", 1, [](CaseContext& c) { check_gpu(c, 1, kDefaultThreads); }},
          {"n_zero_then_1000", 2,
           [](CaseContext& c) { check_gpu(c, 1000, kDefaultThreads, request::gpu_after_empty); }},
          {"n_255_smaller_than_a_block", 1,
           [](CaseContext& c) { check_gpu(c, 255, kDefaultThreads); }},
          {"n_256_exactly_one_block", 1,
           [](CaseContext& c) { check_gpu(c, 256, kDefaultThreads); }},
          {"n_257_one_past_a_block", 2, [](CaseContext& c) { check_gpu(c, 257, kDefaultThreads); }},
          {"three_million_and_17", 2,
           [](CaseContext& c) { check_gpu(c, 3000017, kDefaultThreads); }},
          {"blocks_of_128_odd_n", 1,
           [](CaseContext& c) { check_gpu(c, 100001, 128, request::gpu, kBlockSizeHint); }},
          {"blocks_of_1024_odd_n", 2,
           [](CaseContext& c) { check_gpu(c, 1000003, 1024, request::gpu, kBlockSizeHint); }},
          {"hidden_size_from_seed", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"kernel_time_is_plausible", 2, check_kernel_time},
                               {course::check::kHonestTimeBar}),
          {"frees_its_device_memory", 2,
           [](CaseContext& c) {
             const int n = 1 << 20;
             const Run run = c.run(request::gpu, {n, kDefaultThreads});
             if (c.finished(run) && expect_gpu_output(c, run, n, kFormulaHint)) {
               c.expect_no_leak(run);
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
