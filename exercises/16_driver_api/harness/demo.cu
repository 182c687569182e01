// Exercise 16 - the demo (`make run-16`): the student's code opens the primary context
// and loads the PTX that the build wrote beside this program; then the course's saxpy runs
// on 16M elements twice, once launched by the runtime (<<<...>>>, the kernel compiled into
// this program) and once by the driver (cuLaunchKernel, the kernel JIT-compiled from the
// PTX): the results must be equal, and the two kernel times and launch overheads are shown
// side by side. Then the student's sawtooth, a round trip through driver-allocated memory,
// and the whole driver-only program. Every result is compared with its reference before
// anything about it is shown (course/demo_results.hpp).
//
// Build and run:  make 16 && make run-16
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/pinned_buffer.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "driver_api.hpp"
#include "given_kernels.cuh"
#include "kernels_beside.hpp"
#include "workload.hpp"

namespace {

using driver_api::device_address;
using driver_api::kernels_ptx;

constexpr std::uint64_t kDemoSeed = 42;
constexpr std::size_t kDemoElements = std::size_t{1} << 24;
constexpr int kKernelRepetitions = 20;
// Launch overhead: the host time of kLaunchesPerRound launches of an empty kernel, per
// launch, median of kLaunchRounds rounds; each round ends with a synchronize, outside
// its time, so that the launch queue never fills and blocks a launch.
constexpr int kLaunchesPerRound = 100;
constexpr int kLaunchRounds = 200;

struct DemoFunctions {
  course::StudentFunction open{"open_primary_context"};
  course::StudentFunction load{"load_kernels"};
  course::StudentFunction saxpy{"launch_saxpy"};
  course::StudentFunction sawtooth{"sawtooth"};
  course::StudentFunction round_trip{"saxpy_round_trip"};
  course::StudentFunction whole{"saxpy_from_ptx"};
};

// Microseconds per launch of `launch_one`, median over the rounds.
template <typename Launch>
double launch_overhead_us(Launch&& launch_one) {
  std::vector<double> per_launch_us;
  for (int round = 0; round < kLaunchRounds; ++round) {
    CU_CHECK(cuCtxSynchronize());
    course::WallTimer timer;
    for (int i = 0; i < kLaunchesPerRound; ++i) launch_one();
    per_launch_us.push_back(1e3 * timer.elapsed_ms() / kLaunchesPerRound);
  }
  CU_CHECK(cuCtxSynchronize());
  return course::median(per_launch_us);
}

// saxpy on 16M elements through both APIs, on the same inputs, in the same context.
// [slide:both-launches]
void demo_runtime_and_driver(const Kernels& kernels, DemoFunctions& functions) {
  const std::size_t n = kDemoElements;
  const float a = driver_api::make_a(kDemoSeed);
  const std::vector<float> x = driver_api::make_x(n, kDemoSeed);
  const std::vector<float> y = driver_api::make_y(n, kDemoSeed);
  course::DeviceBuffer<float> device_x(x), by_runtime(y), by_driver(y);
  const unsigned blocks = static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
  const auto runtime_launch = [&] {
    saxpy<<<blocks, kThreadsPerBlock>>>(a, device_x.data(), by_runtime.data(), n);
  };
  const auto driver_launch = [&] {
    launch_saxpy(kernels.saxpy, nullptr, a, device_address(device_x.data()),
                 device_address(by_driver.data()), n);
  };
  runtime_launch();
  CUDA_CHECK_LAUNCH();
  driver_launch();
  CU_CHECK(cuCtxSynchronize());
  const std::vector<float> runtime_y = by_runtime.download(), driver_y = by_driver.download();
  // [/slide]
  const std::vector<double> expected = driver_api::saxpy_reference(a, x, y);
  if (!functions.saxpy
           .judge(course::compare(driver_y.data(), expected.data(), n, driver_api::kSaxpyTolerance),
                  "n = 2^24")
           .right) {
    return;
  }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) differ += runtime_y[i] != driver_y[i] ? 1 : 0;
  std::printf("saxpy on 2^24 elements: the driver's result %s the runtime's (%zu of %zu differ)\n",
              differ == 0 ? "equals" : "DIFFERS FROM", differ, n);

  const double runtime_ms = course::time_device(runtime_launch, 2, kKernelRepetitions).median_ms;
  const double driver_ms = course::time_device(driver_launch, 2, kKernelRepetitions).median_ms;
  std::printf("  kernel time (CUDA events, median of %d): runtime %.4f ms, driver %.4f ms\n",
              kKernelRepetitions, runtime_ms, driver_ms);

  std::string error;
  CUfunction empty = nullptr;
  if (!find_kernel(kernels.module, "empty_kernel", empty, error)) {
    std::printf("  (no launch overheads: %s)\n", error.c_str());
    return;
  }
  const double runtime_us = launch_overhead_us([] { empty_kernel<<<1, 1>>>(); });
  const double driver_us = launch_overhead_us(
      [&] { CU_CHECK(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr)); });
  std::printf("  launch overhead (host time of one launch of an empty kernel, median of %d "
              "rounds of %d):\n    runtime %.2f us, driver %.2f us\n",
              kLaunchRounds, kLaunchesPerRound, runtime_us, driver_us);
}

void demo_sawtooth(const Kernels& kernels, DemoFunctions& functions) {
  constexpr std::size_t kSamples = 12;
  constexpr std::size_t kFirst = (std::size_t{5} << 32) + 3;
  constexpr int kPeriod = 5;
  constexpr float kAmplitude = 0.25f;
  course::DeviceBuffer<float> out(kSamples);
  out.poison();
  launch_sawtooth(kernels.sawtooth, nullptr, device_address(out.data()), kFirst, kPeriod,
                  kAmplitude, kSamples);
  CU_CHECK(cuCtxSynchronize());
  const std::vector<float> got = out.download();
  const std::vector<double> expected =
      driver_api::sawtooth_reference(kFirst, kPeriod, kAmplitude, kSamples);
  if (functions.sawtooth
          .judge(course::compare(got.data(), expected.data(), kSamples,
                                 driver_api::kSawtoothTolerance),
                 "first = 5 * 2^32 + 3")
          .right) {
    std::printf("sawtooth, period %d, amplitude %g, samples 5 * 2^32 + 3 onwards:", kPeriod,
                kAmplitude);
    for (const float value : got) std::printf(" %g", value);
    std::printf("\n");
  }
}

void demo_round_trip(const Kernels& kernels, DemoFunctions& functions) {
  constexpr std::size_t n = std::size_t{1} << 20;
  const float a = driver_api::make_a(kDemoSeed);
  const std::vector<float> x = driver_api::make_x(n, kDemoSeed);
  const std::vector<float> y = driver_api::make_y(n, kDemoSeed);
  const std::vector<double> expected = driver_api::saxpy_reference(a, x, y);
  course::PinnedBuffer<float> pinned_x(x), pinned_y(y);
  SaxpyBuffers buffers = allocate_saxpy_buffers(n);
  saxpy_round_trip(buffers, kernels.saxpy, a, pinned_x.data(), pinned_y.data());
  const std::vector<float> got = pinned_y.snapshot();
  CU_CHECK(cuCtxSynchronize());
  free_saxpy_buffers(buffers);
  if (functions.round_trip
          .judge(course::compare(got.data(), expected.data(), n, driver_api::kSaxpyTolerance),
                 "n = 2^20")
          .right) {
    std::printf("saxpy_round_trip on 2^20 elements (cuMemAlloc, async copies, one stream): "
                "every value right\n");
  }
}

void demo_whole_program(DemoFunctions& functions) {
  constexpr std::size_t n = std::size_t{1} << 20;
  const float a = driver_api::make_a(kDemoSeed);
  const std::vector<float> x = driver_api::make_x(n, kDemoSeed);
  std::vector<float> y = driver_api::make_y(n, kDemoSeed);
  const std::vector<double> expected = driver_api::saxpy_reference(a, x, y);
  std::string error;
  const bool ran = saxpy_from_ptx(kernels_ptx(), a, x.data(), y.data(), n, error);
  const course::Judgement result =
      ran ? functions.whole.judge(course::compare(y.data(), expected.data(), n,
                                                  driver_api::kSaxpyTolerance),
                                  "n = 2^20")
          : functions.whole.judge_value(!error.empty(), false, "", error);
  if (result.right) {
    std::printf("saxpy_from_ptx on 2^20 elements, the whole driver-API program: every value "
                "right\n");
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  DemoFunctions functions;
  std::printf("\nPart 1. The primary context\n");
  DriverContext opened = open_primary_context(0);
  // A runtime call now attaches the runtime to the context current on this thread.
  CUDA_CHECK(cudaFree(nullptr));
  CUcontext runtime_context = nullptr;
  CU_CHECK(cuCtxGetCurrent(&runtime_context));
  if (functions.open
          .judge_value(opened.context != nullptr, opened.context == runtime_context, "",
                       "the runtime's context is another one")
          .right) {
    std::printf("device %d's primary context is current; the runtime uses the same one\n",
                static_cast<int>(opened.device));
  }

  std::printf("\nPart 2. The module\n");
  const std::string ptx = kernels_ptx();
  Kernels kernels;
  std::string error;
  const bool loaded = load_kernels(ptx, kernels, error);
  if (functions.load.judge_value(loaded || !error.empty(), loaded, ptx, error).right) {
    int registers = 0;
    CU_CHECK(cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernels.saxpy));
    std::printf("loaded %s\n  saxpy and sawtooth found; saxpy uses %d registers per thread\n",
                ptx.c_str(), registers);
    Kernels missing;
    std::string missing_error;
    if (!load_kernels(ptx + ".missing", missing, missing_error)) {
      std::printf("  a missing file is reported: %s\n", missing_error.c_str());
    }
  }

  if (loaded) {
    std::printf("\nPart 3. One kernel, two APIs\n");
    demo_runtime_and_driver(kernels, functions);
    std::printf("\nPart 4. The student's kernel\n");
    demo_sawtooth(kernels, functions);
    std::printf("\nPart 5. Driver memory and a stream\n");
    demo_round_trip(kernels, functions);
    unload_kernels(kernels);
  }
  std::printf("\nPart 6. The whole program with the driver API alone\n");
  demo_whole_program(functions);
  if (opened.context != nullptr) close_primary_context(opened);
  std::printf("\n(`make check-16` grades every case)\n");
  return course::demo_status({&functions.open, &functions.load, &functions.saxpy,
                              &functions.sawtooth, &functions.round_trip, &functions.whole});
}
