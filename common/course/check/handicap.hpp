// A smaller GPU for an experiment: with COURSE_HANDICAP_SMS=K in its environment, a program
// serving a check's cases runs them on K of its GPU's multiprocessors, in a green context
// (CUDA 12.4 and newer: an SM partition of the device, made current before the runtime makes
// its own). The memory, its bandwidth and the L2 stay the whole GPU's, so the balance of
// compute and memory moves as it does from one card to a smaller one. tools/course handicap
// uses it to show that site bars (make calibrate) keep the reference solutions' points where
// the course's fixed bars would not; nothing else sets the variable.
//
// The driver's functions come through the runtime (cudaGetDriverEntryPointByVersion), so
// that no program links the driver library for an experiment. The runtime uses the context
// current on the thread that first calls it; threads of the program's own, and a call of
// cudaSetDevice, use the device's primary context, on the whole GPU.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace course::check {

namespace handicap_detail {

template <typename Function>
bool driver_function(const char* name, Function*& function) {
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  void* address = nullptr;
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(name, &address, 12040, cudaEnableDefault, &found);
  function = reinterpret_cast<Function*>(address);
  return status == cudaSuccess && found == cudaDriverEntryPointSuccess && address != nullptr;
}

// Makes a green context of `count` multiprocessors current; false with `error` set.
inline bool use_multiprocessors(unsigned count, std::string& error) {
  decltype(&cuInit) init = nullptr;
  decltype(&cuDeviceGet) device_get = nullptr;
  decltype(&cuDeviceGetDevResource) get_resource = nullptr;
  decltype(&cuDevSmResourceSplitByCount) split = nullptr;
  decltype(&cuDevResourceGenerateDesc) describe = nullptr;
  decltype(&cuGreenCtxCreate) create = nullptr;
  decltype(&cuCtxFromGreenCtx) as_context = nullptr;
  decltype(&cuCtxSetCurrent) set_current = nullptr;
  if (!driver_function("cuInit", init) || !driver_function("cuDeviceGet", device_get) ||
      !driver_function("cuDeviceGetDevResource", get_resource) ||
      !driver_function("cuDevSmResourceSplitByCount", split) ||
      !driver_function("cuDevResourceGenerateDesc", describe) ||
      !driver_function("cuGreenCtxCreate", create) ||
      !driver_function("cuCtxFromGreenCtx", as_context) ||
      !driver_function("cuCtxSetCurrent", set_current)) {
    error = "this driver has no green contexts (CUDA 12.4 or newer)";
    return false;
  }
  CUdevice device = 0;
  CUdevResource whole{}, part{}, rest{};
  unsigned groups = 1;
  CUdevResourceDesc description = nullptr;
  CUgreenCtx green = nullptr;
  CUcontext context = nullptr;
  if (init(0) != CUDA_SUCCESS || device_get(&device, 0) != CUDA_SUCCESS ||
      get_resource(device, &whole, CU_DEV_RESOURCE_TYPE_SM) != CUDA_SUCCESS) {
    error = "cannot read the GPU's multiprocessors";
    return false;
  }
  if (count >= whole.sm.smCount) {
    error = "COURSE_HANDICAP_SMS=" + std::to_string(count) + " leaves no multiprocessor out of " +
            std::to_string(whole.sm.smCount);
    return false;
  }
  if (split(&part, &groups, &whole, &rest, 0, count) != CUDA_SUCCESS || groups != 1 ||
      describe(&description, &part, 1) != CUDA_SUCCESS ||
      create(&green, description, device, CU_GREEN_CTX_DEFAULT_STREAM) != CUDA_SUCCESS ||
      as_context(&context, green) != CUDA_SUCCESS || set_current(context) != CUDA_SUCCESS) {
    error = "cannot make a green context of " + std::to_string(count) + " multiprocessors";
    return false;
  }
  std::fprintf(stderr, "(handicap: the cases run on %u of the GPU's %u multiprocessors)\n",
               part.sm.smCount, whole.sm.smCount);
  return true;
}

}  // namespace handicap_detail

// COURSE_HANDICAP_SMS's green context, made current before the runtime's first call; a value
// that cannot be honoured stops the program (an experiment must not measure the whole GPU
// while it says it measured a part).
inline void apply_handicap_from_environment() {
  const char* value = std::getenv("COURSE_HANDICAP_SMS");
  if (value == nullptr || *value == '\0') return;
  char* end = nullptr;
  const unsigned long count = std::strtoul(value, &end, 10);
  std::string error = "COURSE_HANDICAP_SMS must be a number of multiprocessors";
  if (*end != '\0' || count == 0 || !handicap_detail::use_multiprocessors(count, error)) {
    std::fprintf(stderr, "handicap: %s\n", error.c_str());
    std::exit(2);
  }
}

}  // namespace course::check
