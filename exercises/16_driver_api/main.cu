// Exercise 16 - the program around the student's functions (instructor-owned).
//
// `make run-16` runs the demo: the student's code opens the primary context and loads
// the PTX that the build wrote beside this program; then the course's saxpy runs on 16M
// elements twice, once launched by the runtime (<<<...>>>, the kernel compiled into this
// program) and once by the driver (cuLaunchKernel, the kernel JIT-compiled from the PTX):
// the results must be equal, and the two kernel times and launch overheads are shown side
// by side. Then the student's sawtooth, a round trip through driver-allocated memory, and
// the whole driver-only program. Every result is compared with its reference before
// anything about it is shown (course/demo_results.hpp). The check runs this same program
// with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 16 && make run-16
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/beside_program.hpp"
#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/timers.hpp"
#include "driver_api.hpp"
#include "given_kernels.cuh"
#include "workload.hpp"

namespace {

// The PTX of kernels.cu, which the build writes beside this program.
std::string kernels_ptx() { return course::ptx_beside_program("kernels"); }

CUdeviceptr device_address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }

// Host memory the driver can copy into asynchronously (page-locked): a copy into pageable
// memory returns only once it is done, and would hide a missing cuStreamSynchronize.
class PinnedFloats {
 public:
  explicit PinnedFloats(const std::vector<float>& values) : count_(values.size()) {
    if (count_ > 0) {
      CUDA_CHECK(cudaMallocHost(&data_, count_ * sizeof(float)));
      std::copy(values.begin(), values.end(), data_);
    }
  }
  ~PinnedFloats() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  PinnedFloats(const PinnedFloats&) = delete;
  PinnedFloats& operator=(const PinnedFloats&) = delete;
  float* data() { return data_; }
  // What the memory holds now, at once: no wait for the device.
  std::vector<float> snapshot() const { return std::vector<float>(data_, data_ + count_); }

 private:
  std::size_t count_ = 0;
  float* data_ = nullptr;
};

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

// The primary context's state: 1 while something holds it (the runtime, the student's code).
int primary_context_active(CUdevice device) {
  unsigned flags = 0;
  int active = 0;
  CU_CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  return active;
}

// Run in a process of its own, where nothing else (no runtime call) holds the context.
void context_case(course::check::ResultWriter& results) {
  CU_CHECK(cuInit(0));
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, 0));
  results.put_value("active_before", static_cast<std::int64_t>(primary_context_active(device)));
  DriverContext opened = open_primary_context(0);
  results.put_value("active_after_open", static_cast<std::int64_t>(primary_context_active(device)));
  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  // The primary context's handle, the count of its holders unchanged in the end.
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  results.put_value("returned_primary", static_cast<std::int64_t>(opened.context == primary));
  results.put_value("primary_current",
                    static_cast<std::int64_t>(current != nullptr && current == primary));
  results.put_value("device_right", static_cast<std::int64_t>(opened.device == device));
  close_primary_context(opened);
  results.put_value("active_after_close",
                    static_cast<std::int64_t>(primary_context_active(device)));
}

// A missing file and a missing kernel: the student's functions must report both.
void load_failures_case(const course::check::CaseRequest& request,
                        course::check::ResultWriter& results) {
  DriverContext opened = open_primary_context(0);
  CUmodule module = nullptr;
  std::string error;
  const bool missing_loaded = load_module(request.param("missing_path"), module, error);
  results.put_value("missing_loaded", static_cast<std::int64_t>(missing_loaded));
  results.put_text("missing_error", error);
  if (missing_loaded) CU_CHECK(cuModuleUnload(module));

  error.clear();
  module = nullptr;
  const bool loaded = load_module(kernels_ptx(), module, error);
  results.put_value("loaded", static_cast<std::int64_t>(loaded));
  results.put_text("load_error", error);
  if (loaded) {
    CUfunction kernel = nullptr;
    std::string name_error;
    const bool found = find_kernel(module, request.param("wrong_name").c_str(), kernel, name_error);
    results.put_value("wrong_name_found", static_cast<std::int64_t>(found));
    results.put_text("wrong_name_error", name_error);
    // The driver's words for that error, its name and its description: either names it.
    const char* error_name = nullptr;
    const char* error_text = nullptr;
    cuGetErrorName(CUDA_ERROR_NOT_FOUND, &error_name);
    cuGetErrorString(CUDA_ERROR_NOT_FOUND, &error_text);
    results.put_text("not_found_name", error_name != nullptr ? error_name : "");
    results.put_text("not_found_text", error_text != nullptr ? error_text : "");
    std::string saxpy_error;
    results.put_value("saxpy_found", static_cast<std::int64_t>(
                                         find_kernel(module, kSaxpyName, kernel, saxpy_error)));
    CU_CHECK(cuModuleUnload(module));
  }
  close_primary_context(opened);
}

// Opens the context and loads the kernels for a case; false (reported) when they do not load.
bool open_for_case(course::check::ResultWriter& results, DriverContext& opened, Kernels& kernels) {
  opened = open_primary_context(0);
  std::string error;
  const bool loaded = load_kernels(kernels_ptx(), kernels, error);
  results.put_value("loaded", static_cast<std::int64_t>(loaded));
  results.put_text("load_error", error);
  if (!loaded) close_primary_context(opened);
  return loaded;
}

void close_after_case(DriverContext& opened, Kernels& kernels) {
  unload_kernels(kernels);
  close_primary_context(opened);
}

// The runner's buffers come from the runtime (cudaMalloc, poisoned and guarded by the
// check's accounting); the student's launches use them through the shared context.
void saxpy_case(const course::check::CaseRequest& request, course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  course::DeviceBuffer<float> x(driver_api::make_x(n, request.seed));
  course::DeviceBuffer<float> y(driver_api::make_y(n, request.seed));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  launch_saxpy(kernels.saxpy, stream, driver_api::make_a(request.seed), device_address(x.data()),
               device_address(y.data()), n);
  CU_CHECK(cuCtxSynchronize());
  CUDA_CHECK(cudaStreamDestroy(stream));
  results.put("y", y.download());
  close_after_case(opened, kernels);
}

void sawtooth_case(const course::check::CaseRequest& request,
                   course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  course::DeviceBuffer<float> out(n);
  launch_sawtooth(kernels.sawtooth, nullptr, device_address(out.data()),
                  static_cast<std::size_t>(std::stoull(request.param("first"))),
                  static_cast<int>(request.param_int("period")),
                  static_cast<float>(request.param_double("amplitude")), n);
  CU_CHECK(cuCtxSynchronize());
  results.put("out", out.download());
  close_after_case(opened, kernels);
}

// 1 when `address` lies in a live allocation of at least `bytes` bytes starting there.
std::int64_t allocated_at(CUdeviceptr address, std::size_t bytes) {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (address == 0 || cuMemGetAddressRange(&base, &size, address) != CUDA_SUCCESS) return 0;
  return base == address && size >= bytes ? 1 : 0;
}

void round_trip_case(const course::check::CaseRequest& request,
                     course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  PinnedFloats x(driver_api::make_x(n, request.seed));
  PinnedFloats y(driver_api::make_y(n, request.seed));
  SaxpyBuffers buffers = allocate_saxpy_buffers(n);
  const std::size_t bytes = n * sizeof(float);
  results.put_value("buffers_allocated",
                    allocated_at(buffers.x, bytes) + allocated_at(buffers.y, bytes));
  saxpy_round_trip(buffers, kernels.saxpy, driver_api::make_a(request.seed), x.data(), y.data());
  // Read the moment the function returns, as its caller would: the result must be there.
  results.put("y", y.snapshot());
  CU_CHECK(cuCtxSynchronize());
  const SaxpyBuffers allocated = buffers;
  free_saxpy_buffers(buffers);
  results.put_value("buffers_left",
                    allocated_at(allocated.x, bytes) + allocated_at(allocated.y, bytes));
  close_after_case(opened, kernels);
}

// Run in a process of its own: the student's program alone holds the context.
void whole_program_case(const course::check::CaseRequest& request,
                        course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const std::string& path = request.param("path");
  std::vector<float> y = driver_api::make_y(n, request.seed);
  std::string error;
  const bool ran =
      saxpy_from_ptx(path.empty() ? kernels_ptx() : path, driver_api::make_a(request.seed),
                     driver_api::make_x(n, request.seed).data(), y.data(), n, error);
  results.put_value("ran", static_cast<std::int64_t>(ran));
  results.put_text("error", error);
  results.put("y", y);
  CU_CHECK(cuInit(0));
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, 0));
  results.put_value("active_after", static_cast<std::int64_t>(primary_context_active(device)));
}

// What the clean-up gives back: the modules loaded and unloaded and the references to
// the primary context taken and released, counted by the program's --wrap accounting
// (course/check/driver_accounting.hpp) around the student's calls alone. Three rounds:
// open, load, close by hand; saxpy_from_ptx; saxpy_from_ptx on a missing file.
void put_driver_counts(course::check::ResultWriter& results, const std::string& prefix,
                       const course::check::DriverCounts& counts) {
  results.put_value(prefix + "_loaded", static_cast<std::int64_t>(counts.modules_loaded));
  results.put_value(prefix + "_unloaded", static_cast<std::int64_t>(counts.modules_unloaded));
  results.put_value(prefix + "_retained", static_cast<std::int64_t>(counts.primary_retains));
  results.put_value(prefix + "_released", static_cast<std::int64_t>(counts.primary_releases));
}

void clean_up_case(const course::check::CaseRequest& request,
                   course::check::ResultWriter& results) {
  using course::check::driver_counts;
  course::check::DriverCounts before = driver_counts();
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  close_after_case(opened, kernels);
  put_driver_counts(results, "by_hand", driver_counts() - before);

  const std::size_t n = 1000;
  std::vector<float> y = driver_api::make_y(n, request.seed);
  std::string error;
  before = driver_counts();
  const bool ran = saxpy_from_ptx(kernels_ptx(), driver_api::make_a(request.seed),
                                  driver_api::make_x(n, request.seed).data(), y.data(), n, error);
  results.put_value("whole_ran", static_cast<std::int64_t>(ran));
  put_driver_counts(results, "whole", driver_counts() - before);

  before = driver_counts();
  saxpy_from_ptx(request.param("missing_path"), 1.0f, y.data(), y.data(), n, error);
  put_driver_counts(results, "missing", driver_counts() - before);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "context") {
    context_case(results);
  } else if (kind == "load_failures") {
    load_failures_case(request, results);
  } else if (kind == "blocks_for") {
    std::vector<std::int64_t> blocks;
    for (const std::size_t n : driver_api::kBlocksForSizes) blocks.push_back(blocks_for(n));
    results.put("blocks", blocks);
  } else if (kind == "saxpy") {
    saxpy_case(request, results);
  } else if (kind == "sawtooth") {
    sawtooth_case(request, results);
  } else if (kind == "round_trip") {
    round_trip_case(request, results);
  } else if (kind == "whole_program") {
    whole_program_case(request, results);
  } else if (kind == "clean_up") {
    clean_up_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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
  PinnedFloats pinned_x(x), pinned_y(y);
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

int demo() {
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

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
