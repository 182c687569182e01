// Exercise 19 - the demo (`make run-19`): lin_comb (z = a x + y) generated, its source
// shown, built three times - compiled by NVRTC, found in memory, found on disk by a
// second cache - with the time of each; an expression with an error and the log NVRTC
// gives for it; the kernel checked against the CPU; the autotuner's trials; and lin_comb
// at 64M elements beside the copy ceiling and the same expression written by hand and
// compiled by nvcc. The cache lives in a temporary folder removed at the end. Every
// result is compared with its reference before it is shown or timed
// (course/demo_results.hpp).
//
// Build and run:  make 19 && make run-19
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "elementwise_kernel.hpp"
#include "generated_kernels.hpp"
#include "lin_comb.cuh"
#include "workload.hpp"

namespace {

namespace gk = generated_kernels;
using gk::kWarmup;
using gk::launch_by_hand;
using gk::lin_comb_source;
using gk::LinCombBuffers;

constexpr std::uint64_t kDemoSeed = 19;
constexpr std::size_t kDemoCheckedElements = (1 << 20) + 3;       // not a multiple of a block
constexpr std::size_t kDemoSpeedElements = std::size_t{1} << 26;  // 3 x 256 MiB
constexpr int kDemoRepetitions = 20;

struct DemoFunctions {
  course::StudentFunction generate{"generate_source"};
  course::StudentFunction build{"build_kernel"};
  course::StudentFunction cache{"KernelCache::lookup/store"};
  course::StudentFunction timing{"time_launches_ms"};
};

// Builds lin_comb three ways and shows what each cost; true when all three gave it.
bool demo_cache(DemoFunctions& functions, const std::string& folder, int architecture) {
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  if (!functions.generate
           .judge_value(!source.empty(), source.find(gk::kLinCombName) != std::string::npos,
                        "lin_comb", "the source does not name the kernel")
           .right) {
    return false;
  }
  std::printf("The source generated for lin_comb (%s; %s):\n", gk::kLinCombArguments,
              gk::kLinCombOperation);
  course::print_indented(source);
  KernelCache cache(folder);
  course::WallTimer compile_timer;
  const Build compiled = build_kernel(cache, gk::kLinCombName, source, architecture);
  const double compile_ms = compile_timer.elapsed_ms();
  if (!functions.build
           .judge_value(compiled.succeeded || !compiled.log.empty(), compiled.succeeded, "lin_comb",
                        "it did not compile:\n" + compiled.log)
           .right) {
    return false;
  }
  course::WallTimer memory_timer;
  const Build from_memory = build_kernel(cache, gk::kLinCombName, source, architecture);
  const double memory_ms = memory_timer.elapsed_ms();
  KernelCache second_cache(folder);  // what another process finds
  course::WallTimer disk_timer;
  const Build from_disk = build_kernel(second_cache, gk::kLinCombName, source, architecture);
  const double disk_ms = disk_timer.elapsed_ms();
  const bool cached = from_memory.from_cache && from_disk.from_cache &&
                      from_memory.cubin == compiled.cubin && from_disk.cubin == compiled.cubin;
  if (!functions.cache
           .judge_value(from_memory.from_cache || from_disk.from_cache, cached, "lin_comb",
                        "the second and third builds did not come from the cache with the "
                        "first one's CUBIN")
           .right) {
    return false;
  }
  std::printf("\nkey %s, in %s\n", compiled.key.c_str(), folder.c_str());
  std::printf("  compiled by NVRTC:        %8.3f ms (a CUBIN of %zu bytes for sm_%d)\n", compile_ms,
              compiled.cubin.size(), architecture);
  std::printf("  found in memory:          %8.3f ms\n", memory_ms);
  std::printf("  found on disk, new cache: %8.3f ms (what a second process pays)\n", disk_ms);
  std::printf("  NVRTC compilations so far: %d\n", nvrtc_compilations());
  const std::string broken = lin_comb_source(gk::kBrokenOperation, gk::kLinCombName);
  const Build failed = build_kernel(cache, gk::kLinCombName, broken, architecture);
  if (functions.build
          .judge_value(true, !failed.succeeded && !failed.log.empty(), "a broken expression",
                       failed.succeeded ? "it reported success" : "it returned no log")
          .right) {
    std::printf("\nThe expression '%s' does not compile; the log reaches the caller:\n",
                gk::kBrokenOperation.c_str());
    course::print_indented(failed.log);
  }
  return true;
}

bool demo_results(DemoFunctions& functions, ElementwiseKernel& lin_comb) {
  const std::size_t n = kDemoCheckedElements;
  LinCombBuffers buffers(n, kDemoSeed);
  lin_comb(n, gk::kDefaultFactor, buffers.x.data(), buffers.y.data(), buffers.z.data());
  const std::vector<float> got = buffers.z.download();
  const std::vector<float> want = gk::lin_comb_reference(
      gk::kDefaultFactor, gk::make_x(n, kDemoSeed), gk::make_y(n, kDemoSeed));
  const course::Judgement result =
      functions.generate.judge(course::compare(got.data(), want.data(), n, course::kExact),
                               "lin_comb, n = " + std::to_string(n));
  if (result.right) {
    std::printf("\nlin_comb on %zu elements (blocks of %u threads, %u elements per thread): "
                "equal to the CPU's fma, bit for bit\n",
                n, kDefaultConfig.block, kDefaultConfig.elements_per_thread);
  }
  return result.right;
}

void demo_speed(DemoFunctions& functions, ElementwiseKernel& lin_comb) {
  const std::size_t n = kDemoSpeedElements;
  const float a = gk::kDefaultFactor;
  LinCombBuffers buffers(n, kDemoSeed);
  course::DeviceBuffer<float> by_hand(n);
  const float* x = buffers.x.data();
  const float* y = buffers.y.data();
  float* z = buffers.z.data();
  const Tuning tuning = lin_comb.tune(n, a, x, y, z);
  double fastest = 0.0;
  for (const Trial& trial : tuning.trials)
    fastest = fastest == 0.0 ? trial.ms : std::min(fastest, trial.ms);
  if (!functions.timing.judge_time(tuning.from_cache ? 1.0 : fastest, "mean time").right) return;
  std::printf("\nThe autotuner on %zu elements (mean ms of %d launches after a warm-up):\n", n,
              kTuningRepetitions);
  std::printf("  %-6s", "block");
  for (const unsigned elements : kCandidateElementsPerThread) std::printf("  %u/thread", elements);
  std::printf("\n");
  for (std::size_t t = 0; t < tuning.trials.size(); ++t) {
    const Trial& trial = tuning.trials[t];
    if (trial.config.elements_per_thread == kCandidateElementsPerThread[0]) {
      std::printf("  %-6u", trial.config.block);
    }
    std::printf("  %8.4f", trial.ms);
    if (t + 1 == tuning.trials.size() || tuning.trials[t + 1].config.block != trial.config.block) {
      std::printf("\n");
    }
  }
  std::printf("  chosen: %u threads, %u elements per thread%s\n", tuning.chosen.block,
              tuning.chosen.elements_per_thread, tuning.from_cache ? " (from the cache)" : "");
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  const double bytes_read = 2.0 * sizeof(float) * static_cast<double>(n);
  const double bytes_written = sizeof(float) * static_cast<double>(n);
  const double generated_ms =
      course::time_device([&] { lin_comb.launch(n, tuning.chosen, nullptr, a, x, y, z); }, kWarmup,
                          kDemoRepetitions)
          .median_ms;
  const double hand_ms = course::time_device([&] { launch_by_hand(a, x, y, by_hand.data(), n); },
                                             kWarmup, kDemoRepetitions)
                             .median_ms;
  std::printf("\nlin_comb on %zu elements, GB/s = (2 x 4 B read + 4 B written) x n / time:\n", n);
  std::printf("  %s\n", course::bandwidth_report("generated (NVRTC)", bytes_read, bytes_written,
                                                 generated_ms, ceiling_gbps)
                            .c_str());
  std::printf("  %s\n", course::bandwidth_report("by hand (nvcc)   ", bytes_read, bytes_written,
                                                 hand_ms, ceiling_gbps)
                            .c_str());
  std::printf("  generated / by hand: %.3f\n", generated_ms / hand_ms);
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const CUdevice device = current_device();
  const int architecture = architecture_of(device);
  // A fresh folder of this run: a demo never leaves a cache in the user's home.
  std::string folder_template =
      (std::filesystem::temp_directory_path() / "course-19-cache-XXXXXX").string();
  const char* made = mkdtemp(folder_template.data());
  if (made == nullptr) {
    std::perror("mkdtemp");
    return EXIT_FAILURE;
  }
  const std::string folder = made;
  DemoFunctions functions;
  if (demo_cache(functions, folder, architecture)) {
    KernelCache cache(folder);
    try {
      ElementwiseKernel lin_comb(gk::kLinCombArguments, gk::kLinCombOperation, gk::kLinCombName,
                                 cache);
      if (demo_results(functions, lin_comb)) demo_speed(functions, lin_comb);
    } catch (const std::exception& error) {
      functions.generate.judge_value(true, false, "lin_comb", error.what());
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  std::printf("\n(`make check-19` grades every case)\n");
  return course::demo_status(
      {&functions.generate, &functions.build, &functions.cache, &functions.timing});
}
