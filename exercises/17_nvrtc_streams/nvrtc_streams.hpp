// Exercise 17: the functions the student implements, with their fixed signatures:
// the primary context through the driver API, a kernel compiled at run time by NVRTC
// into a CUBIN for this device, loaded and launched through the driver API, and a
// copy-in / kernel / copy-out pipeline on one stream, then in chunks over several.
// The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 17 && make run-17   (statement: exercises/17_nvrtc_streams/README.md)
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>
#include <vector>

// The block size of launch_saxpy: one thread per element, blocks of 256 threads.
inline constexpr unsigned kSaxpyThreadsPerBlock = 256;

// The name expressions compile_to_cubin is given for the SAXPY source, in this order:
// lowered_names[kFloatKernel] is the mangled name of saxpy<float>.
inline constexpr const char* kSaxpyFloatExpression = "saxpy<float>";
inline constexpr const char* kSaxpyDoubleExpression = "saxpy<double>";
inline constexpr std::size_t kFloatKernel = 0;
inline constexpr std::size_t kDoubleKernel = 1;

// ---- The kernel, written once -----------------------------------------------------
// The same tokens are compiled twice: by nvcc into the program (the runner's
// reference, the code below) and by NVRTC at run time (kSaxpySource, those tokens as
// a string: the # operator turns its operand into text before any macro in it expands,
// and __global__ is one under nvcc). Both compile with --fmad=true (nvcc's default;
// NVRTC is given it explicitly), so both turn a * x[i] + y[i] into one fused
// multiply-add and their results can be compared bit for bit.
#define SAXPY_CODE_AND_TEXT(text_name, ...) \
  __VA_ARGS__                               \
  inline constexpr const char* text_name = #__VA_ARGS__;

// clang-format off
// [slide:saxpy-source]
SAXPY_CODE_AND_TEXT(kSaxpySource,
  template <typename T>
  __global__ void saxpy(T a, const T* x, const T* y, T* out, size_t n) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
  })
// [/slide]
// clang-format on

// ---- Part 1: the context -----------------------------------------------------------

// Initialises the driver API (cuInit), gets the device of this ordinal, retains its
// PRIMARY context (cuDevicePrimaryCtxRetain) and makes it current (cuCtxSetCurrent),
// so that driver calls and the runtime's (cudaMalloc...) share one context. Returns the
// device. Every call checked with CU_CHECK.
CUdevice use_primary_context(int ordinal);
// Releases what use_primary_context retained.
void release_primary_context(CUdevice device);

// ---- Part 2: compiling with NVRTC --------------------------------------------------

// "--gpu-architecture=sm_XY" for the device's compute capability X.Y (read with
// cuDeviceGetAttribute): a real architecture, so that NVRTC can produce a CUBIN.
std::string architecture_option(CUdevice device);

// [slide:compilation]
struct Compilation {
  bool succeeded = false;   // nvrtcCompileProgram returned NVRTC_SUCCESS
  std::string log;          // the program log: the errors when it failed (may be empty otherwise)
  std::vector<char> cubin;  // the CUBIN (an ELF image) when it succeeded, else empty
  std::vector<std::string> lowered_names;  // one per name expression, same order
};
// [/slide]

// Compiles `source` with NVRTC for `device` (options: architecture_option(device),
// -default-device, --std=c++17, --fmad=true), with each of `name_expressions` added
// (nvrtcAddNameExpression) before and looked up (nvrtcGetLoweredName) after. A source
// with errors is not a failure of the program: it returns succeeded = false with the
// log, and exits on nothing. Destroys the NVRTC program before returning.
Compilation compile_to_cubin(const std::string& source,
                             const std::vector<std::string>& name_expressions, CUdevice device);

// ---- Part 3: loading and launching with the driver API -----------------------------

struct SaxpyModule {
  CUmodule module = nullptr;
  CUfunction saxpy_float = nullptr;   // saxpy<float>
  CUfunction saxpy_double = nullptr;  // saxpy<double>
};

// Loads the CUBIN of kSaxpySource compiled with {kSaxpyFloatExpression,
// kSaxpyDoubleExpression} (cuModuleLoadData) and finds both kernels by their lowered
// names (cuModuleGetFunction).
SaxpyModule load_saxpy(const Compilation& compiled);
// Unloads the module (cuModuleUnload) and resets `module` to empty.
void unload_saxpy(SaxpyModule& module);

// Enqueues saxpy<T> (`kernel`) on `stream`: out[i] = a * x[i] + y[i] for 0 <= i < n,
// one thread per element on blocks of kSaxpyThreadsPerBlock threads, enough blocks to
// cover n (none when n == 0), with cuLaunchKernel. Does not wait. x, y and out are
// device addresses; instantiated for float and double.
template <typename T>
void launch_saxpy(CUfunction kernel, T a, CUdeviceptr x, CUdeviceptr y, CUdeviceptr out,
                  std::size_t n, CUstream stream);

// ---- Part 4: streams and asynchronous copies ---------------------------------------

struct Pipeline {
  std::size_t capacity = 0;   // elements each buffer holds
  float* host_x = nullptr;    // pinned host memory (cuMemHostAlloc): the caller writes x here
  float* host_y = nullptr;    // pinned: the caller writes y here
  float* host_out = nullptr;  // pinned: the result is here when a pipeline function returns
  CUdeviceptr device_x = 0, device_y = 0, device_out = 0;  // cuMemAlloc
  std::vector<CUstream> streams;  // cuStreamCreate(..., CU_STREAM_NON_BLOCKING)
};

// Allocates the six buffers of `capacity` floats (capacity >= 1) and creates
// `stream_count` streams (>= 1).
Pipeline allocate_pipeline(std::size_t capacity, int stream_count);
// Frees every buffer, destroys every stream, and resets `pipeline` to empty.
void free_pipeline(Pipeline& pipeline);

// out = a * x + y for the first n <= capacity elements, all on pipeline.streams[0]:
// copy x and y in (cuMemcpyHtoDAsync), launch_saxpy, copy out back (cuMemcpyDtoHAsync).
// Returns once host_out holds the result. n may be 0.
void saxpy_one_stream(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n);

// The same result in chunks of `chunk` elements (chunk >= 1; the last one may be
// shorter): chunk k's copy in, kernel and copy out go to streams[k % streams.size()],
// so that one chunk's copies overlap another's kernel and copies. Returns once host_out
// holds the whole result, with no work left on any stream. n may be 0.
void saxpy_chunked(CUfunction saxpy_float, float a, Pipeline& pipeline, std::size_t n,
                   std::size_t chunk);
