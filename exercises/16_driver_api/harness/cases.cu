// Exercise 16 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
//
// The one translation unit of the program that includes driver_accounting.hpp: it
// defines the wrappers that the linker's --wrap flags send the driver calls to.
#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/pinned_buffer.hpp"
#include "course/program.hpp"
#include "course/streams.hpp"
#include "driver_api.hpp"
#include "kernels_beside.hpp"
#include "workload.hpp"

namespace {

namespace asked = driver_api::request;
namespace result = driver_api::result;
using driver_api::device_address;
using driver_api::kernels_ptx;

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
  results.put(result::active_before, static_cast<std::int64_t>(primary_context_active(device)));
  DriverContext opened = open_primary_context(0);
  results.put(result::active_after_open, static_cast<std::int64_t>(primary_context_active(device)));
  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  // The primary context's handle, the count of its holders unchanged in the end.
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  results.put(result::returned_primary, static_cast<std::int64_t>(opened.context == primary));
  results.put(result::primary_current,
              static_cast<std::int64_t>(current != nullptr && current == primary));
  results.put(result::device_right, static_cast<std::int64_t>(opened.device == device));
  close_primary_context(opened);
  results.put(result::active_after_close,
              static_cast<std::int64_t>(primary_context_active(device)));
}

// A missing file and a missing kernel: the student's functions must report both.
void load_failures_case(const asked::LoadFailures& p, course::check::ResultWriter& results) {
  DriverContext opened = open_primary_context(0);
  CUmodule module = nullptr;
  std::string error;
  const bool missing_loaded = load_module(p.missing_path, module, error);
  results.put(result::missing_loaded, static_cast<std::int64_t>(missing_loaded));
  results.put(result::missing_error, error);
  if (missing_loaded) CU_CHECK(cuModuleUnload(module));

  error.clear();
  module = nullptr;
  const bool loaded = load_module(kernels_ptx(), module, error);
  results.put(result::loaded, static_cast<std::int64_t>(loaded));
  results.put(result::load_error, error);
  if (loaded) {
    CUfunction kernel = nullptr;
    std::string name_error;
    const bool found = find_kernel(module, p.wrong_name.c_str(), kernel, name_error);
    results.put(result::wrong_name_found, static_cast<std::int64_t>(found));
    results.put(result::wrong_name_error, name_error);
    // The driver's words for that error, its name and its description: either names it.
    const char* error_name = nullptr;
    const char* error_text = nullptr;
    cuGetErrorName(CUDA_ERROR_NOT_FOUND, &error_name);
    cuGetErrorString(CUDA_ERROR_NOT_FOUND, &error_text);
    results.put(result::not_found_name, error_name != nullptr ? error_name : "");
    results.put(result::not_found_text, error_text != nullptr ? error_text : "");
    std::string saxpy_error;
    results.put(result::saxpy_found,
                static_cast<std::int64_t>(find_kernel(module, kSaxpyName, kernel, saxpy_error)));
    CU_CHECK(cuModuleUnload(module));
  }
  close_primary_context(opened);
}

// Opens the context and loads the kernels for a case; false (reported) when they do not load.
bool open_for_case(course::check::ResultWriter& results, DriverContext& opened, Kernels& kernels) {
  opened = open_primary_context(0);
  std::string error;
  const bool loaded = load_kernels(kernels_ptx(), kernels, error);
  results.put(result::loaded, static_cast<std::int64_t>(loaded));
  results.put(result::load_error, error);
  if (!loaded) close_primary_context(opened);
  return loaded;
}

void close_after_case(DriverContext& opened, Kernels& kernels) {
  unload_kernels(kernels);
  close_primary_context(opened);
}

// The runner's buffers come from the runtime (cudaMalloc, poisoned and guarded by the
// check's accounting); the student's launches use them through the shared context.
void saxpy_case(const asked::Saxpy& p, std::uint64_t seed, course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  course::DeviceBuffer<float> x(driver_api::make_x(n, seed));
  course::DeviceBuffer<float> y(driver_api::make_y(n, seed));
  {
    const course::Streams own(1, cudaStreamDefault);  // destroyed before the case closes
    launch_saxpy(kernels.saxpy, own[0], driver_api::make_a(seed), device_address(x.data()),
                 device_address(y.data()), n);
    CU_CHECK(cuCtxSynchronize());
  }
  results.put(result::y, y.download());
  close_after_case(opened, kernels);
}

void sawtooth_case(const asked::Sawtooth& p, std::uint64_t seed,
                   course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  course::DeviceBuffer<float> out(n);
  launch_sawtooth(kernels.sawtooth, nullptr, device_address(out.data()),
                  static_cast<std::size_t>(p.first), p.period, p.amplitude, n);
  CU_CHECK(cuCtxSynchronize());
  results.put(result::out, out.download());
  close_after_case(opened, kernels);
}

// 1 when `address` lies in a live allocation of at least `bytes` bytes starting there.
std::int64_t allocated_at(CUdeviceptr address, std::size_t bytes) {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (address == 0 || cuMemGetAddressRange(&base, &size, address) != CUDA_SUCCESS) return 0;
  return base == address && size >= bytes ? 1 : 0;
}

void round_trip_case(const asked::Saxpy& p, std::uint64_t seed,
                     course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  course::PinnedBuffer<float> x(driver_api::make_x(n, seed));
  course::PinnedBuffer<float> y(driver_api::make_y(n, seed));
  SaxpyBuffers buffers = allocate_saxpy_buffers(n);
  const std::size_t bytes = n * sizeof(float);
  results.put(result::buffers_allocated,
              allocated_at(buffers.x, bytes) + allocated_at(buffers.y, bytes));
  saxpy_round_trip(buffers, kernels.saxpy, driver_api::make_a(seed), x.data(), y.data());
  // Read the moment the function returns, as its caller would: the result must be there.
  results.put(result::y, y.snapshot());
  CU_CHECK(cuCtxSynchronize());
  const SaxpyBuffers allocated = buffers;
  free_saxpy_buffers(buffers);
  results.put(result::buffers_left,
              allocated_at(allocated.x, bytes) + allocated_at(allocated.y, bytes));
  close_after_case(opened, kernels);
}

// Run in a process of its own: the student's program alone holds the context.
void whole_program_case(const asked::WholeProgram& p, std::uint64_t seed,
                        course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const std::string& path = p.path;
  std::vector<float> y = driver_api::make_y(n, seed);
  std::string error;
  const bool ran = saxpy_from_ptx(path.empty() ? kernels_ptx() : path, driver_api::make_a(seed),
                                  driver_api::make_x(n, seed).data(), y.data(), n, error);
  results.put(result::ran, static_cast<std::int64_t>(ran));
  results.put(result::error, error);
  results.put(result::y, y);
  CU_CHECK(cuInit(0));
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, 0));
  results.put(result::active_after, static_cast<std::int64_t>(primary_context_active(device)));
}

// What the clean-up gives back: the modules loaded and unloaded and the references to
// the primary context taken and released, counted by the program's --wrap accounting
// (course/check/driver_accounting.hpp) around the student's calls alone. Three rounds:
// open, load, close by hand; saxpy_from_ptx; saxpy_from_ptx on a missing file.
void put_driver_counts(course::check::ResultWriter& results, const std::string& prefix,
                       const course::check::DriverCounts& counts) {
  results.put(result::modules_loaded(prefix), static_cast<std::int64_t>(counts.modules_loaded));
  results.put(result::modules_unloaded(prefix), static_cast<std::int64_t>(counts.modules_unloaded));
  results.put(result::primary_retained(prefix), static_cast<std::int64_t>(counts.primary_retains));
  results.put(result::primary_released(prefix), static_cast<std::int64_t>(counts.primary_releases));
}

void clean_up_case(const asked::CleanUp& p, std::uint64_t seed,
                   course::check::ResultWriter& results) {
  using course::check::driver_counts;
  course::check::DriverCounts before = driver_counts();
  DriverContext opened;
  Kernels kernels;
  if (!open_for_case(results, opened, kernels)) return;
  close_after_case(opened, kernels);
  put_driver_counts(results, "by_hand", driver_counts() - before);

  const std::size_t n = 1000;
  std::vector<float> y = driver_api::make_y(n, seed);
  std::string error;
  before = driver_counts();
  const bool ran = saxpy_from_ptx(kernels_ptx(), driver_api::make_a(seed),
                                  driver_api::make_x(n, seed).data(), y.data(), n, error);
  results.put(result::whole_ran, static_cast<std::int64_t>(ran));
  put_driver_counts(results, "whole", driver_counts() - before);

  before = driver_counts();
  saxpy_from_ptx(p.missing_path, 1.0f, y.data(), y.data(), n, error);
  put_driver_counts(results, "missing", driver_counts() - before);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const std::uint64_t seed = request.seed;
  if (request.is(asked::context)) {
    context_case(results);
  } else if (const auto p = request.as(asked::load_failures)) {
    load_failures_case(*p, results);
  } else if (request.is(asked::blocks_for)) {
    std::vector<std::int64_t> blocks;
    for (const std::size_t n : driver_api::kBlocksForSizes) blocks.push_back(blocks_for(n));
    results.put(result::blocks, blocks);
  } else if (const auto p = request.as(asked::saxpy)) {
    saxpy_case(*p, seed, results);
  } else if (const auto p = request.as(asked::sawtooth)) {
    sawtooth_case(*p, seed, results);
  } else if (const auto p = request.as(asked::round_trip)) {
    round_trip_case(*p, seed, results);
  } else if (const auto p = request.as(asked::whole_program)) {
    whole_program_case(*p, seed, results);
  } else if (const auto p = request.as(asked::clean_up)) {
    clean_up_case(*p, seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
