// Exercise 24 - the demo (`make run-24`): each step once on 1000 values (6 frames for
// step 4), compared with the CPU, and the command that runs the program under each
// compute-sanitizer tool.
//
// Build and run:  make 24 && make run-24
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "run_steps.cuh"
#include "sanitizer_debugging.hpp"
#include "workload.hpp"

namespace {

namespace workload = sanitizer_debugging;

constexpr int kDemoElements = 1000;  // four blocks, the last one partial
constexpr int kDemoFrames = 6;
constexpr std::uint64_t kDemoSeed = 42;

// Judges one step's output against its reference and says so.
void show_step(course::StudentFunction& function, const std::string& what,
               const std::vector<float>& got, const std::vector<double>& expected,
               course::Tolerance tolerance) {
  std::printf("%s:\n", what.c_str());
  const course::Comparison comparison =
      course::compare(got.data(), expected.data(), expected.size(), tolerance);
  if (function.judge(comparison, "n = " + std::to_string(kDemoElements)).right) {
    std::printf("  every value right\n");
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  const char* program = argv[0];
  course::print_device_banner();
  std::printf("\nEach step is compared with the CPU. A step can print right values and still be "
              "wrong:\nthe bugs of this exercise are found by compute-sanitizer, not by the "
              "values.\n\n");
  course::StudentFunction reverse("reverse_kernel"), smooth("smooth_kernel");
  course::StudentFunction sums("block_sums_kernel"), average("average_frames_on_device");

  const std::vector<float> x = workload::make_input(kDemoElements, kDemoSeed);
  show_step(reverse, "step 1, reverse " + std::to_string(kDemoElements) + " values",
            workload::run_reverse(x), workload::reverse_reference(x), workload::kMoveTolerance);
  show_step(smooth, "step 2, smooth " + std::to_string(kDemoElements) + " values",
            workload::run_smooth(x), workload::smooth_reference(x), workload::kMeanTolerance);
  show_step(sums, "step 3, sums of blocks of " + std::to_string(kThreadsPerBlock),
            workload::run_block_sums(x), workload::block_sums_reference(x, kThreadsPerBlock),
            workload::kBlockSumTolerance);
  const std::vector<float> frames = workload::make_frames(kDemoFrames, kDemoElements, kDemoSeed);
  show_step(average, "step 4, average of " + std::to_string(kDemoFrames) + " frames",
            workload::run_average(frames, kDemoFrames, kDemoElements),
            workload::mean_reference(frames, kDemoFrames, kDemoElements), workload::kMeanTolerance);

  std::printf("\nRun this program under each tool (it was compiled with -lineinfo, so every "
              "report\nnames the file and line):\n");
  for (const char* tool : {"memcheck", "racecheck", "synccheck", "initcheck"}) {
    std::printf("  compute-sanitizer --tool %-9s %s\n", tool, program);
  }
  std::printf("(`make check-24` runs each step under its tool and grades it)\n");
  return course::demo_status({&reverse, &smooth, &sums, &average});
}
