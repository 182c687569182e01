// What the code under test holds through the CUDA driver API: the modules it loads and
// unloads, and the references to a primary context it takes and gives back. A module
// left loaded or a context never released is not device memory the runtime allocated:
// device_accounting.hpp does not see it, and compute-sanitizer's leak check does not
// either. These counts let a case compare what was taken with what was given back.
//
// The programs of exercises that link the driver API (LIBRARIES cuda) are linked with
//   --wrap=cuModuleLoad,--wrap=cuModuleLoadData,--wrap=cuModuleLoadDataEx,
//   --wrap=cuModuleLoadFatBinary,--wrap=cuModuleUnload,--wrap=cuDevicePrimaryCtxRetain,
//   --wrap=cuDevicePrimaryCtxRelease_v2,--wrap=cuLaunchKernel
// (cuda.h spells cuDevicePrimaryCtxRelease as its _v2 symbol). The flags live in
// cmake/CourseExercise.cmake and tools/course_tools/student/nvcc.py. Include this header in exactly one
// translation unit of such a program (its harness/cases.cu): it defines the wrappers the
// linker looks for. The runtime reaches the driver through its own entry points, not through
// these symbols: its retain of the primary context is not counted, only the calls of the
// program's own code (the student's and the runner's). A case counts the difference
// between two snapshots taken around the calls it judges.
#pragma once

#include <cuda.h>

#include "course/check/device_accounting.hpp"

#include <atomic>

namespace course::check {

struct DriverCounts {
  long long modules_loaded = 0;  // successful cuModuleLoad* calls
  long long modules_unloaded = 0;
  long long primary_retains = 0;  // successful cuDevicePrimaryCtxRetain calls
  long long primary_releases = 0;
};

struct DriverLedger {
  std::atomic<long long> modules_loaded{0}, modules_unloaded{0};
  std::atomic<long long> primary_retains{0}, primary_releases{0};
};

inline DriverLedger& driver_ledger() {
  static DriverLedger ledger;
  return ledger;
}

// The counts since the program started: subtract a snapshot taken before the calls.
inline DriverCounts driver_counts() {
  const DriverLedger& ledger = driver_ledger();
  return {ledger.modules_loaded.load(), ledger.modules_unloaded.load(),
          ledger.primary_retains.load(), ledger.primary_releases.load()};
}

inline DriverCounts operator-(const DriverCounts& after, const DriverCounts& before) {
  return {after.modules_loaded - before.modules_loaded,
          after.modules_unloaded - before.modules_unloaded,
          after.primary_retains - before.primary_retains,
          after.primary_releases - before.primary_releases};
}

inline CUresult count_if_success(CUresult status, std::atomic<long long>& counter) {
  if (status == CUDA_SUCCESS) ++counter;
  return status;
}

}  // namespace course::check

extern "C" CUresult __real_cuModuleLoad(CUmodule*, const char*);
extern "C" CUresult __wrap_cuModuleLoad(CUmodule* module, const char* path) {
  return course::check::count_if_success(__real_cuModuleLoad(module, path),
                                         course::check::driver_ledger().modules_loaded);
}

extern "C" CUresult __real_cuModuleLoadData(CUmodule*, const void*);
extern "C" CUresult __wrap_cuModuleLoadData(CUmodule* module, const void* image) {
  return course::check::count_if_success(__real_cuModuleLoadData(module, image),
                                         course::check::driver_ledger().modules_loaded);
}

extern "C" CUresult __real_cuModuleLoadDataEx(CUmodule*, const void*, unsigned, CUjit_option*,
                                              void**);
extern "C" CUresult __wrap_cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned count,
                                              CUjit_option* options, void** values) {
  return course::check::count_if_success(__real_cuModuleLoadDataEx(module, image, count, options,
                                                                   values),
                                         course::check::driver_ledger().modules_loaded);
}

extern "C" CUresult __real_cuModuleLoadFatBinary(CUmodule*, const void*);
extern "C" CUresult __wrap_cuModuleLoadFatBinary(CUmodule* module, const void* image) {
  return course::check::count_if_success(__real_cuModuleLoadFatBinary(module, image),
                                         course::check::driver_ledger().modules_loaded);
}

extern "C" CUresult __real_cuModuleUnload(CUmodule);
extern "C" CUresult __wrap_cuModuleUnload(CUmodule module) {
  return course::check::count_if_success(__real_cuModuleUnload(module),
                                         course::check::driver_ledger().modules_unloaded);
}

extern "C" CUresult __real_cuDevicePrimaryCtxRetain(CUcontext*, CUdevice);
extern "C" CUresult __wrap_cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  return course::check::count_if_success(__real_cuDevicePrimaryCtxRetain(context, device),
                                         course::check::driver_ledger().primary_retains);
}

extern "C" CUresult __real_cuDevicePrimaryCtxRelease_v2(CUdevice);
extern "C" CUresult __wrap_cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  return course::check::count_if_success(__real_cuDevicePrimaryCtxRelease_v2(device),
                                         course::check::driver_ledger().primary_releases);
}

extern "C" CUresult __real_cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                          unsigned, unsigned, unsigned, CUstream, void**, void**);
extern "C" CUresult __wrap_cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y,
                                          unsigned grid_z, unsigned block_x, unsigned block_y,
                                          unsigned block_z, unsigned shared_bytes, CUstream stream,
                                          void** parameters, void** extra) {
  course::check::count_launch(dim3(grid_x, grid_y, grid_z), dim3(block_x, block_y, block_z),
                              stream);
  return __real_cuLaunchKernel(function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
                               shared_bytes, stream, parameters, extra);
}
