// Exercise 24 - the program around the student's four steps (instructor-owned).
//
// `make run-24` runs the demo: each step once on 1000 values (6 frames for step 4),
// compared with the CPU, and the command that runs the program under each
// compute-sanitizer tool. The check runs this same program with --course-case, one step
// per case, each under its tool (common/course/check/runner.hpp).
//
// Build and run:  make 24 && make run-24
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/verify.hpp"
#include "sanitizer_debugging.hpp"
#include "workload.hpp"

namespace {

namespace workload = sanitizer_debugging;

// ---------------------------------------------------------------------------
// The four steps, on inputs drawn from a seed; outputs poisoned first, so that an
// element never written comes back as such.
// ---------------------------------------------------------------------------
std::vector<float> run_reverse(const std::vector<float>& x) {
  course::DeviceBuffer<float> device_x(x), out(x.size());
  out.poison();
  reverse_on_device(device_x.data(), out.data(), static_cast<int>(x.size()));
  return out.download();
}

std::vector<float> run_smooth(const std::vector<float>& x) {
  course::DeviceBuffer<float> device_x(x), out(x.size());
  out.poison();
  smooth_on_device(device_x.data(), out.data(), static_cast<int>(x.size()));
  return out.download();
}

std::vector<float> run_block_sums(const std::vector<float>& x) {
  const std::size_t blocks = (x.size() + kThreadsPerBlock - 1) / kThreadsPerBlock;
  course::DeviceBuffer<float> device_x(x), sums(blocks);
  sums.poison();
  block_sums_on_device(device_x.data(), sums.data(), static_cast<int>(x.size()));
  return sums.download();
}

std::vector<float> run_average(const std::vector<float>& frames, int frame_count, int n) {
  course::DeviceBuffer<float> device_frames(frames);
  std::vector<float> mean(static_cast<std::size_t>(n));
  course::poison(mean.data(), mean.size());
  average_frames_on_device(device_frames.data(), frame_count, n, mean.data());
  return mean;
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------
void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  // Each case runs under a compute-sanitizer tool that must see the memory as the
  // program left it: no poisoned allocations (initialised memory to initcheck), no
  // guard zones (inside the allocation to memcheck).
  course::check::stop_device_memory_accounting();
  const int n = static_cast<int>(request.param_int("n"));
  const std::string& kind = request.name;
  if (kind == "average") {
    const int frame_count = static_cast<int>(request.param_int("frames"));
    results.put("mean",
                run_average(workload::make_frames(frame_count, n, request.seed), frame_count, n));
    return;
  }
  const std::vector<float> x = workload::make_input(n, request.seed);
  if (kind == "reverse") {
    results.put("out", run_reverse(x));
  } else if (kind == "smooth") {
    results.put("out", run_smooth(x));
  } else if (kind == "block_sums") {
    results.put("sums", run_block_sums(x));
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------
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

int demo(const char* program) {
  course::print_device_banner();
  std::printf("\nEach step is compared with the CPU. A step can print right values and still be "
              "wrong:\nthe bugs of this exercise are found by compute-sanitizer, not by the "
              "values.\n\n");
  course::StudentFunction reverse("reverse_kernel"), smooth("smooth_kernel");
  course::StudentFunction sums("block_sums_kernel"), average("average_frames_on_device");

  const std::vector<float> x = workload::make_input(kDemoElements, kDemoSeed);
  show_step(reverse, "step 1, reverse " + std::to_string(kDemoElements) + " values", run_reverse(x),
            workload::reverse_reference(x), workload::kMoveTolerance);
  show_step(smooth, "step 2, smooth " + std::to_string(kDemoElements) + " values", run_smooth(x),
            workload::smooth_reference(x), workload::kMeanTolerance);
  show_step(sums, "step 3, sums of blocks of " + std::to_string(kThreadsPerBlock),
            run_block_sums(x), workload::block_sums_reference(x, kThreadsPerBlock),
            workload::kBlockSumTolerance);
  const std::vector<float> frames = workload::make_frames(kDemoFrames, kDemoElements, kDemoSeed);
  show_step(average, "step 4, average of " + std::to_string(kDemoFrames) + " frames",
            run_average(frames, kDemoFrames, kDemoElements),
            workload::mean_reference(frames, kDemoFrames, kDemoElements), workload::kMeanTolerance);

  std::printf("\nRun this program under each tool (it was compiled with -lineinfo, so every "
              "report\nnames the file and line):\n");
  for (const char* tool : {"memcheck", "racecheck", "synccheck", "initcheck"}) {
    std::printf("  compute-sanitizer --tool %-9s %s\n", tool, program);
  }
  std::printf("(`make check-24` runs each step under its tool and grades it)\n");
  return course::demo_status({&reverse, &smooth, &sums, &average});
}

}  // namespace

int main(int argc, char** argv) {
  if (auto request = course::check::parse_case_request(argc, argv)) {
    return course::check::run_case(*request, run_check_case);
  }
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
    return 2;
  }
  return demo(argv[0]);
}
