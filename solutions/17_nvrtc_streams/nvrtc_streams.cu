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
  // [slide:primary-context]
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&device, ordinal));
  CUcontext context = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CU_CHECK(cuCtxSetCurrent(context));
  // [/slide]
  // END TODO(student)
  return device;
}
// [/slide]

void release_primary_context(CUdevice device) {
  // TODO(student): release the primary context retained above.
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: compiling with NVRTC
// ---------------------------------------------------------------------------
std::string architecture_option(CUdevice device) {
  std::string option;
  // TODO(student): the option that names this device's real architecture.
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  option = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
  // END TODO(student)
  return option;
}

// [slide:compile_to_cubin]
Compilation compile_to_cubin(const std::string& source,
                             const std::vector<std::string>& name_expressions, CUdevice device) {
  Compilation result;
  // TODO(student): compile with NVRTC, in six steps.
  // [slide:nvrtc-compile]
  // [slide:nvrtc-options]
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, source.c_str(), "saxpy.cu", 0, nullptr, nullptr));
  for (const std::string& expression : name_expressions) {
    NVRTC_CHECK(nvrtcAddNameExpression(program, expression.c_str()));
  }
  // [/slide]
  const std::string architecture = architecture_option(device);
  const char* options[] = {architecture.c_str(), "-default-device", "--std=c++17", "--fmad=true"};
  const nvrtcResult compiled =
      nvrtcCompileProgram(program, static_cast<int>(std::size(options)), options);

  std::size_t log_size = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(program, &log_size));
  std::string log(log_size, '\0');
  NVRTC_CHECK(nvrtcGetProgramLog(program, log.data()));
  result.log = log.c_str();  // without the terminating '\0'
  result.succeeded = compiled == NVRTC_SUCCESS;
  // [/slide]
  if (result.succeeded) {
    // [slide:nvrtc-cubin]
    std::size_t cubin_size = 0;
    NVRTC_CHECK(nvrtcGetCUBINSize(program, &cubin_size));
    result.cubin.resize(cubin_size);
    NVRTC_CHECK(nvrtcGetCUBIN(program, result.cubin.data()));
    for (const std::string& expression : name_expressions) {
      const char* lowered = nullptr;  // owned by the program: copy it before destroying it
      NVRTC_CHECK(nvrtcGetLoweredName(program, expression.c_str(), &lowered));
      result.lowered_names.emplace_back(lowered);
    }
    // [/slide]
  }
  NVRTC_CHECK(nvrtcDestroyProgram(&program));
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
  // [slide:load-module]
  CU_CHECK(cuModuleLoadData(&loaded.module, compiled.cubin.data()));
  CU_CHECK(cuModuleGetFunction(&loaded.saxpy_float, loaded.module,
                               compiled.lowered_names[kFloatKernel].c_str()));
  CU_CHECK(cuModuleGetFunction(&loaded.saxpy_double, loaded.module,
                               compiled.lowered_names[kDoubleKernel].c_str()));
  // [/slide]
  // END TODO(student)
  return loaded;
}
// [/slide]

void unload_saxpy(SaxpyModule& module) {
  // TODO(student): unload the module.
  if (module.module != nullptr) CU_CHECK(cuModuleUnload(module.module));
  module = SaxpyModule{};
  // END TODO(student)
}

// [slide:launch_saxpy]
template <typename T>
void launch_saxpy(CUfunction kernel, T a, CUdeviceptr x, CUdeviceptr y, CUdeviceptr out,
                  std::size_t n, CUstream stream) {
  // TODO(student): saxpy<T> through cuLaunchKernel, in three steps.
  // [slide:launch-kernel]
  if (n == 0) return;
  const unsigned blocks =
      static_cast<unsigned>((n + kSaxpyThreadsPerBlock - 1) / kSaxpyThreadsPerBlock);
  void* arguments[] = {&a, &x, &y, &out, &n};
  CU_CHECK(cuLaunchKernel(kernel, blocks, 1, 1, kSaxpyThreadsPerBlock, 1, 1, 0, stream, arguments,
                          nullptr));
  // [/slide]
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
  const std::size_t bytes = capacity * sizeof(float);
  // [slide:pinned-buffers]
  for (float** host : {&pipeline.host_x, &pipeline.host_y, &pipeline.host_out}) {
    void* pinned = nullptr;
    CU_CHECK(cuMemHostAlloc(&pinned, bytes, 0));
    *host = static_cast<float*>(pinned);
  }
  // [/slide]
  for (CUdeviceptr* device : {&pipeline.device_x, &pipeline.device_y, &pipeline.device_out}) {
    CU_CHECK(cuMemAlloc(device, bytes));
  }
  pipeline.streams.resize(static_cast<std::size_t>(stream_count));
  for (CUstream& stream : pipeline.streams) {
    CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  }
  pipeline.capacity = capacity;
  // END TODO(student)
  return pipeline;
}
// [/slide]

void free_pipeline(Pipeline& pipeline) {
  // TODO(student): give the pipeline back, in three steps.
  for (CUstream stream : pipeline.streams) CU_CHECK(cuStreamDestroy(stream));
  for (float* host : {pipeline.host_x, pipeline.host_y, pipeline.host_out}) {
    CU_CHECK(cuMemFreeHost(host));
  }
  for (CUdeviceptr device : {pipeline.device_x, pipeline.device_y, pipeline.device_out}) {
    CU_CHECK(cuMemFree(device));
  }
  pipeline = Pipeline{};
  // END TODO(student)
}

// [slide:saxpy_one_stream]
void saxpy_one_stream(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n) {
  // TODO(student): the pipeline on pipeline.streams[0], in four steps.
  // [slide:one-stream]
  const CUstream stream = pipeline.streams[0];
  const std::size_t bytes = n * sizeof(float);
  CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_x, pipeline.host_x, bytes, stream));
  CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_y, pipeline.host_y, bytes, stream));
  launch_saxpy(saxpy_float, a, pipeline.device_x, pipeline.device_y, pipeline.device_out, n,
               stream);
  CU_CHECK(cuMemcpyDtoHAsync(pipeline.host_out, pipeline.device_out, bytes, stream));
  CU_CHECK(cuStreamSynchronize(stream));
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:saxpy_chunked]
void saxpy_chunked(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n,
                   std::size_t chunk) {
  // TODO(student): the pipeline in chunks over the streams, in two steps.
  // [slide:chunked]
  std::size_t k = 0;
  for (std::size_t first = 0; first < n; first += chunk, ++k) {
    const CUstream stream = pipeline.streams[k % pipeline.streams.size()];
    const std::size_t count = std::min(chunk, n - first);
    const std::size_t offset = first * sizeof(float);  // device addresses count bytes
    const std::size_t bytes = count * sizeof(float);
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_x + offset, pipeline.host_x + first, bytes, stream));
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_y + offset, pipeline.host_y + first, bytes, stream));
    launch_saxpy(saxpy_float, a, pipeline.device_x + offset, pipeline.device_y + offset,
                 pipeline.device_out + offset, count, stream);
    CU_CHECK(
        cuMemcpyDtoHAsync(pipeline.host_out + first, pipeline.device_out + offset, bytes, stream));
  }
  for (const CUstream stream : pipeline.streams) CU_CHECK(cuStreamSynchronize(stream));
  // [/slide]
  // END TODO(student)
}
// [/slide]
