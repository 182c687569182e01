// Exercise 17: what both halves of the program (harness/cases.cu, harness/demo.cu) use:
// the runtime's device, saxpy as nvcc compiled it, a pipeline filled from a seed and its
// parts timed alone, and the probes of use_primary_context and of an architecture option.
#pragma once

#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/timed_call.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/verify.hpp"
#include "nvrtc_streams.hpp"
#include "workload.hpp"

namespace nvrtc_streams {

// The runtime's device, its primary context created first (cudaFree(nullptr)), so that
// the driver is initialised and the runtime's context exists before any driver call.
inline int current_ordinal() {
  CUDA_CHECK(cudaFree(nullptr));
  int ordinal = 0;
  CUDA_CHECK(cudaGetDevice(&ordinal));
  return ordinal;
}

inline CUdeviceptr address(const void* device_pointer) {
  return reinterpret_cast<CUdeviceptr>(device_pointer);
}

// saxpy<T> as nvcc compiled it (nvrtc_streams.hpp), on the same grid as launch_saxpy's.
template <typename T>
inline void launch_reference(T a, const T* x, const T* y, T* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks =
      static_cast<unsigned>((n + kSaxpyThreadsPerBlock - 1) / kSaxpyThreadsPerBlock);
  saxpy<T><<<blocks, kSaxpyThreadsPerBlock>>>(a, x, y, out, n);
  CUDA_CHECK_LAUNCH();
}

// Fills a pipeline's host inputs from the seed and poisons both outputs.
inline void fill_pipeline(Pipeline& pipeline, std::size_t n, std::uint64_t seed) {
  const std::vector<float> x = nvrtc_streams::make_x<float>(n, seed);
  const std::vector<float> y = nvrtc_streams::make_y<float>(n, seed);
  std::copy(x.begin(), x.end(), pipeline.host_x);
  std::copy(y.begin(), y.end(), pipeline.host_y);
  course::poison(pipeline.host_out, pipeline.capacity);
  CU_CHECK(cuMemsetD32(pipeline.device_out, course::kPoisonWord, pipeline.capacity));
  CU_CHECK(cuCtxSynchronize());
}

inline bool pipeline_usable(const Pipeline& pipeline, std::size_t n) {
  return pipeline.host_x != nullptr && pipeline.host_y != nullptr && pipeline.host_out != nullptr &&
         pipeline.device_x != 0 && pipeline.device_y != 0 && pipeline.device_out != 0 &&
         !pipeline.streams.empty() && pipeline.capacity >= n;
}

// What use_primary_context does when no context is current: whether it made the
// device's primary context current, and which device it returned. The primary context
// is current again afterwards, whatever the code did.
struct ContextOutcome {
  CUdevice device = 0;  // what use_primary_context returned
  bool current_is_primary = false;
  bool current_is_none = false;
  bool device_is_ordinal = false;
};

inline ContextOutcome probe_use_primary_context(int ordinal) {
  CUdevice expected_device = 0;
  CU_CHECK(cuDeviceGet(&expected_device, ordinal));
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, expected_device));
  CU_CHECK(cuCtxSetCurrent(nullptr));
  ContextOutcome outcome;
  outcome.device = use_primary_context(ordinal);
  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  outcome.current_is_primary = current == primary;
  outcome.current_is_none = current == nullptr;
  outcome.device_is_ordinal = outcome.device == expected_device;
  CU_CHECK(cuCtxSetCurrent(primary));
  CU_CHECK(cuDevicePrimaryCtxRelease(expected_device));
  return outcome;
}

// What an architecture option does, whatever its spelling: a one-line kernel compiled by
// NVRTC with it, whether that gave a CUBIN, whether the CUBIN loads into the current
// context, and the architecture it holds (CU_FUNC_ATTRIBUTE_BINARY_VERSION, 10 * major +
// minor). -arch=sm_90 and --gpu-architecture=sm_90 do the same; compute_90 gives no CUBIN.
struct ArchitectureProbe {
  bool compiled = false;
  std::string log;
  std::size_t cubin_bytes = 0;
  bool loaded = false;
  std::string load_error;
  int binary_version = 0;
};

inline ArchitectureProbe probe_architecture_option(const std::string& option) {
  constexpr const char* kProbeSource = "extern \"C\" __global__ void probe(int* out) { *out = 1; }";
  ArchitectureProbe probe;
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, kProbeSource, "probe.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS) {
    probe.log = "nvrtcCreateProgram failed";
    return probe;
  }
  const char* options[] = {option.c_str(), "-default-device"};
  probe.compiled = nvrtcCompileProgram(program, 2, options) == NVRTC_SUCCESS;
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 0) {
    std::string log(log_size, '\0');
    if (nvrtcGetProgramLog(program, log.data()) == NVRTC_SUCCESS) probe.log = log.c_str();
  }
  std::vector<char> cubin;
  if (probe.compiled && nvrtcGetCUBINSize(program, &probe.cubin_bytes) == NVRTC_SUCCESS &&
      probe.cubin_bytes > 0) {
    cubin.resize(probe.cubin_bytes);
    if (nvrtcGetCUBIN(program, cubin.data()) != NVRTC_SUCCESS) cubin.clear();
  } else {
    probe.cubin_bytes = 0;
  }
  nvrtcDestroyProgram(&program);
  if (cubin.empty()) return probe;
  CUmodule module = nullptr;
  const CUresult status = cuModuleLoadData(&module, cubin.data());
  if (status != CUDA_SUCCESS) {
    probe.load_error = course::driver_error_text(status);
    return probe;
  }
  CUfunction kernel = nullptr;
  probe.loaded = cuModuleGetFunction(&kernel, module, "probe") == CUDA_SUCCESS &&
                 cuFuncGetAttribute(&probe.binary_version, CU_FUNC_ATTRIBUTE_BINARY_VERSION,
                                    kernel) == CUDA_SUCCESS;
  CU_CHECK(cuModuleUnload(module));
  return probe;
}

// The parts of the one-stream pipeline, each timed alone on the pipeline's first stream
// (the copies by the runner itself, the kernel by launch_saxpy).
struct PipelineParts {
  double to_device_ms = 0.0;  // x and y in
  double kernel_ms = 0.0;
  double to_host_ms = 0.0;  // out back
};

inline PipelineParts time_pipeline_parts(const SaxpyModule& loaded, float a, Pipeline& pipeline,
                                         std::size_t n, int repetitions) {
  const CUstream stream = pipeline.streams[0];
  const std::size_t bytes = n * sizeof(float);
  const auto copy_in = [&] {
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_x, pipeline.host_x, bytes, stream));
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_y, pipeline.host_y, bytes, stream));
  };
  // The student's launch_saxpy, audited when a speed case times it (timed_call.hpp).
  auto kernel = course::check::student_call(
      {course::check::timed_output(reinterpret_cast<float*>(pipeline.device_out), n)}, [&] {
        launch_saxpy<float>(loaded.saxpy_float, a, pipeline.device_x, pipeline.device_y,
                            pipeline.device_out, n, stream);
      });
  const auto copy_out = [&] {
    CU_CHECK(cuMemcpyDtoHAsync(pipeline.host_out, pipeline.device_out, bytes, stream));
  };
  PipelineParts parts;
  parts.to_device_ms = course::time_device(copy_in, 1, repetitions, stream).median_ms;
  parts.kernel_ms = course::time_device(kernel, 1, repetitions, stream).median_ms;
  parts.to_host_ms = course::time_device(copy_out, 1, repetitions, stream).median_ms;
  return parts;
}

}  // namespace nvrtc_streams
