// Exercise 24 - the check. Each case runs one step of the student's program under the
// compute-sanitizer tool that reports that step's bug, reads the tool's report (any
// error fails the case, and is shown), then compares the step's output with a reference
// computed here: a bug hidden rather than fixed still fails. Contains no student code.
//
//   make check-24                          (students; compute-sanitizer found beside nvcc)
//   build/.../check_24 --program PROGRAM --compute-sanitizer PATH   (instructors)
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "sanitizer_debugging.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Run;
namespace workload = sanitizer_debugging;

// Not a multiple of the block size: the last block is partial, and its idle threads
// must neither write nor skip a barrier the others wait at.
constexpr int kElements = 3000;
constexpr int kFrames = 5;
// A step takes milliseconds; under a tool, seconds (the tool's start): this limit,
// scaled for the tool (session.hpp), still ends a step that hangs in minutes, not hours.
constexpr double kStepSeconds = 8.0;

std::string size_text() { return " (n = " + std::to_string(kElements) + ")"; }

// Runs one step under the case's tool; true when the tool reported nothing and the step
// finished (its output is then judged).
bool run_step(CaseContext& c, const std::string& kind, Run& run,
              const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  std::vector<std::pair<std::string, std::string>> params = {{"n", std::to_string(kElements)}};
  params.insert(params.end(), extra.begin(), extra.end());
  run = c.run_case(kind, params, 0, kStepSeconds);
  return c.finished(run);
}

void check_reverse(CaseContext& c) {
  Run run;
  if (!run_step(c, "reverse", run)) return;
  const std::vector<float> x = workload::make_input(kElements, c.seed());
  if (!c.expect_array<float>(run, "out", workload::reverse_reference(x), workload::kMoveTolerance,
                             "x[i] belongs at out[n - 1 - i]: the first value at the last place. "
                             "An index clamped into the array hides the overrun from memcheck "
                             "but still puts values in the wrong places.")) {
    c.note("(reverse_on_device" + size_text() + ")");
  }
}

void check_smooth(CaseContext& c) {
  Run run;
  if (!run_step(c, "smooth", run)) return;
  const std::vector<float> x = workload::make_input(kElements, c.seed());
  if (!c.expect_array<float>(run, "out", workload::smooth_reference(x), workload::kMeanTolerance,
                             "out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3, with 0 outside the "
                             "array: every thread reads what its neighbours loaded.")) {
    c.note("(smooth_on_device" + size_text() + ")");
  }
}

void check_block_sums(CaseContext& c) {
  Run run;
  if (!run_step(c, "block_sums", run)) return;
  const std::vector<float> x = workload::make_input(kElements, c.seed());
  if (!c.expect_array<float>(run, "sums", workload::block_sums_reference(x, kThreadsPerBlock),
                             workload::kBlockSumTolerance,
                             "sums[b] is the sum of block b's elements: every level of the tree "
                             "must see the whole level before it.")) {
    c.note("(block_sums_on_device" + size_text() + ")");
  }
}

void check_average(CaseContext& c) {
  Run run;
  if (!run_step(c, "average", run, {{"frames", std::to_string(kFrames)}})) return;
  const std::vector<float> frames = workload::make_frames(kFrames, kElements, c.seed());
  if (!c.expect_array<float>(run, "mean", workload::mean_reference(frames, kFrames, kElements),
                             workload::kMeanTolerance,
                             "the mean of the frames: a sum that starts from zeros, divided by "
                             "the number of frames.")) {
    c.note("(average_frames_on_device, " + std::to_string(kFrames) + " frames" + size_text() + ")");
  }
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::under_tool;
  course::check::Exercise exercise{
      "24",
      "sanitizer_debugging",
      {
          under_tool("memcheck", {"step1_reverse_memcheck", 5, check_reverse}),
          under_tool("racecheck", {"step2_smooth_racecheck", 5, check_smooth}),
          under_tool("synccheck", {"step3_block_sums_synccheck", 5, check_block_sums}),
          under_tool("initcheck", {"step4_average_initcheck", 5, check_average}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
