// Exercise 17 - run-time compilation with NVRTC, the driver API, streams and
// asynchronous copies: SAXPY (out = a * x + y) kept as a string, compiled while the
// program runs into a CUBIN for the very GPU it runs on, loaded and launched through
// the driver API; then the copy in, the kernel and the copy out enqueued on one stream,
// and the same work cut in chunks over several streams so that copies overlap compute.
//
// Compiling at run time lets a program specialise a kernel for what it only learns
// then: the GPU (its exact architecture), the element type, sizes and constants. The
// price is the compile time (tens of milliseconds) and doing by hand what nvcc and the
// runtime API do for a kernel compiled ahead: load the module, find the kernel by its
// mangled name, pass the arguments as an array of pointers.
//
// Build and run:  make 17 && make run-17
// Check:          make check-17   (statement: exercises/17_nvrtc_streams/README.md)
#include <nvrtc.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "course/errors_driver.hpp"
#include "course/errors_nvrtc.hpp"
#include "nvrtc_streams.hpp"

// ---------------------------------------------------------------------------
// Part 1: the primary context
// ---------------------------------------------------------------------------
// [slide:use_primary_context]
CUdevice use_primary_context(int ordinal) {
  CUdevice device = 0;
  // TODO(student): the device's primary context, made current, in four calls.
  //   1. cuInit(0).
  //   2. cuDeviceGet(&device, ordinal).
  //   3. Retain the device's primary context (cuDevicePrimaryCtxRetain).
  //   4. Make it current (cuCtxSetCurrent).
  // CU_CHECK every call.
  // END TODO(student)
  return device;
}
// [/slide]

void release_primary_context(CUdevice device) {
  // TODO(student): release the primary context retained above.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: compiling with NVRTC
// ---------------------------------------------------------------------------
std::string architecture_option(CUdevice device) {
  std::string option;
  // TODO(student): the option that names this device's real architecture.
  //   1. Read CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR and _MINOR with
  //      cuDeviceGetAttribute.
  //   2. Set option to "--gpu-architecture=sm_" followed by the major number, then the
  //      minor (sm_90 on an H100, sm_120 on compute capability 12.0).
  // END TODO(student)
  return option;
}

// [slide:compile_to_cubin]
Compilation compile_to_cubin(const std::string& source,
                             const std::vector<std::string>& name_expressions, CUdevice device) {
  Compilation result;
  // TODO(student): compile with NVRTC, in six steps.
  // [slide:compile-steps]
  //   1. nvrtcCreateProgram, with no headers.
  //   2. nvrtcAddNameExpression for each name expression.
  //   3. nvrtcCompileProgram with the options below. A source with errors makes it
  //      return NVRTC_ERROR_COMPILATION: that is the caller's to handle, not a reason to
  //      exit, so this call is not checked. Set result.succeeded.
  // [/slide]
  // [slide:cubin-steps]
  //   4. Always read the log (nvrtcGetProgramLogSize, nvrtcGetProgramLog) into result.log.
  //   5. When it compiled: the CUBIN (nvrtcGetCUBINSize, nvrtcGetCUBIN) and the lowered
  //      name of each expression (nvrtcGetLoweredName), in the same order.
  //   6. nvrtcDestroyProgram, last: the lowered names belong to the program.
  // NVRTC_CHECK every other call.
  // [/slide]
  // END TODO(student)
  return result;
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 3: loading and launching with the driver API
// ---------------------------------------------------------------------------
// [slide:load_saxpy]
SaxpyModule load_saxpy(const Compilation& compiled) {
  SaxpyModule loaded;
  // TODO(student): load the CUBIN and find both kernels.
  //   1. cuModuleLoadData from compiled.cubin.
  //   2. cuModuleGetFunction for saxpy_float and saxpy_double with the LOWERED names
  //      (compiled.lowered_names[kFloatKernel] and [kDoubleKernel]): the module knows the
  //      mangled names only.
  // END TODO(student)
  return loaded;
}
// [/slide]

void unload_saxpy(SaxpyModule& module) {
  // TODO(student): unload the module.
  //   1. cuModuleUnload, when a module was loaded.
  //   2. Reset module to {}.
  // END TODO(student)
}

// [slide:launch_saxpy]
template <typename T>
void launch_saxpy(CUfunction kernel, T a, CUdeviceptr x, CUdeviceptr y, CUdeviceptr out,
                  std::size_t n, CUstream stream) {
  // TODO(student): saxpy<T> through cuLaunchKernel, in three steps.
  //   1. Return when n == 0.
  //   2. Enough blocks of kSaxpyThreadsPerBlock threads to cover n, one thread per
  //      element.
  //   3. cuLaunchKernel with the kernel's arguments as an array of POINTERS to them, in
  //      the order of its parameters (a, x, y, out, n), no shared memory, on `stream`.
  // END TODO(student)
}
// [/slide]

template void launch_saxpy<float>(CUfunction, float, CUdeviceptr, CUdeviceptr, CUdeviceptr,
                                  std::size_t, CUstream);
template void launch_saxpy<double>(CUfunction, double, CUdeviceptr, CUdeviceptr, CUdeviceptr,
                                   std::size_t, CUstream);

// ---------------------------------------------------------------------------
// Part 4: streams and asynchronous copies
// ---------------------------------------------------------------------------
// [slide:allocate_pipeline]
Pipeline allocate_pipeline(std::size_t capacity, int stream_count) {
  Pipeline pipeline;
  // TODO(student): the pipeline's buffers and streams, in four steps.
  //   1. Three pinned host buffers of capacity floats (cuMemHostAlloc, flags 0).
  //   2. Three device buffers of capacity floats (cuMemAlloc).
  //   3. stream_count streams (cuStreamCreate with CU_STREAM_NON_BLOCKING).
  //   4. Set pipeline.capacity.
  // END TODO(student)
  return pipeline;
}
// [/slide]

void free_pipeline(Pipeline& pipeline) {
  // TODO(student): give the pipeline back, in three steps.
  //   1. Destroy the streams.
  //   2. Free the buffers (cuMemFreeHost, cuMemFree).
  //   3. Reset pipeline to {}.
  // END TODO(student)
}

// [slide:saxpy_one_stream]
void saxpy_one_stream(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n) {
  // TODO(student): the pipeline on pipeline.streams[0], in four steps.
  //   1. Copy n floats of host_x and host_y in (cuMemcpyHtoDAsync).
  //   2. launch_saxpy with saxpy_float.
  //   3. Copy n floats of device_out back into host_out (cuMemcpyDtoHAsync).
  //   4. Wait for the stream (cuStreamSynchronize) before returning.
  // END TODO(student)
}
// [/slide]

// [slide:saxpy_chunked]
void saxpy_chunked(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n,
                   std::size_t chunk) {
  // TODO(student): the pipeline in chunks over the streams, in two steps.
  //   1. For each chunk k, starting at element first = k * chunk, of min(chunk, n - first)
  //      elements: the copies in, the launch and the copy back of saxpy_one_stream, on that
  //      part of every buffer, on streams[k % streams.size()]. A CUdeviceptr counts bytes:
  //      element first is at device_x + first * sizeof(float).
  //   2. Once every chunk is enqueued, synchronize every stream.
  // END TODO(student)
}
// [/slide]
