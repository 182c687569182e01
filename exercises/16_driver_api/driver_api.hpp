// Exercise 16: the functions the student implements, with their fixed signatures: the
// host side of the CUDA driver API (a context, a module loaded from PTX, memory, launches
// with cuLaunchKernel) around two kernels: the course's saxpy (given_kernels.cuh) and the
// student's own sawtooth (kernels.cu). Every CUdeviceptr here is DEVICE memory. The check
// calls them exactly as declared here; do not change this file.
//
// Build and run:  make 16 && make run-16   (statement: exercises/16_driver_api/README.md)
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

// Every launch of the exercise: blocks of this many threads...
inline constexpr unsigned kThreadsPerBlock = 256;
// ...and at most this many blocks; both kernels loop over what one grid does not cover.
inline constexpr unsigned kMaxBlocks = 1024;

// The kernels' names in the PTX (extern "C", so not mangled).
inline constexpr const char* kSaxpyName = "saxpy";
inline constexpr const char* kSawtoothName = "sawtooth";

// ---- Part 1: the context -------------------------------------------------------------

// A device and its primary context: the one context per device that the runtime API
// (cudaMalloc, <<<...>>>) uses too, so that both APIs see the same memory and modules.
struct DriverContext {
  CUdevice device = 0;
  CUcontext context = nullptr;
};

// cuInit(0); cuDeviceGet(ordinal); retain the device's primary context
// (cuDevicePrimaryCtxRetain) and make it current on this thread (cuCtxSetCurrent).
DriverContext open_primary_context(int ordinal);

// Gives back the reference open_primary_context took (cuDevicePrimaryCtxRelease). The
// context ends when nothing holds it any more: neither this code nor the runtime.
void close_primary_context(DriverContext& context);

// ---- Part 2: the module --------------------------------------------------------------

// Loads the PTX file `ptx_path` into the current context. On failure it returns false and
// sets `error` to one line that names the file and what went wrong; it never exits: a
// program that loads kernels at run time reports a missing file and carries on.
bool load_module(const std::string& ptx_path, CUmodule& module, std::string& error);

// Looks the kernel `name` up in `module` (cuModuleGetFunction). On failure: false, and
// `error` names the kernel and the driver's error; never exits.
bool find_kernel(CUmodule module, const char* name, CUfunction& kernel, std::string& error);

// The module and the two kernels this exercise launches.
struct Kernels {
  CUmodule module = nullptr;
  CUfunction saxpy = nullptr;
  CUfunction sawtooth = nullptr;
};

// load_module, then find_kernel for kSaxpyName and kSawtoothName. On failure: false with
// `error` set, and nothing left loaded.
bool load_kernels(const std::string& ptx_path, Kernels& kernels, std::string& error);

// Unloads the module (cuModuleUnload); its CUfunctions are invalid afterwards.
void unload_kernels(Kernels& kernels);

// ---- Part 3: launches ----------------------------------------------------------------

// The blocks of kThreadsPerBlock threads that cover n elements, one thread each, but at
// most kMaxBlocks (the kernels loop over the rest). 0 for n = 0.
unsigned blocks_for(std::size_t n);

// y = a * x + y for n elements, with the kernel `saxpy` (given_kernels.cuh) on
// blocks_for(n) blocks of kThreadsPerBlock threads on `stream`, through cuLaunchKernel.
// n = 0 launches nothing. Does not wait for the kernel.
void launch_saxpy(CUfunction saxpy, CUstream stream, float a, CUdeviceptr x, CUdeviceptr y,
                  std::size_t n);

// out[k] = amplitude * ((first + k) % period) for 0 <= k < n: the samples first ...
// first + n - 1 of a sawtooth wave of `period` samples (first may exceed 2^32: a long
// signal produced in chunks), with the student's kernel `sawtooth` (kernels.cu), launched
// like launch_saxpy. n = 0 launches nothing. Does not wait.
void launch_sawtooth(CUfunction sawtooth, CUstream stream, CUdeviceptr out, std::size_t first,
                     int period, float amplitude, std::size_t n);

// ---- Part 4: memory, copies and a stream ---------------------------------------------

// Device buffers for saxpy on n elements, and the stream their work goes on.
struct SaxpyBuffers {
  CUdeviceptr x = 0;
  CUdeviceptr y = 0;
  std::size_t n = 0;
  CUstream stream = nullptr;
};

// cuMemAlloc two buffers of n floats (none when n = 0) and cuStreamCreate a stream.
SaxpyBuffers allocate_saxpy_buffers(std::size_t n);

// y = a * x + y on the HOST arrays x and y of buffers.n floats (y is written back in
// place): copies x and y in (cuMemcpyHtoDAsync), launch_saxpy, copies y back
// (cuMemcpyDtoHAsync), all on buffers.stream; returns once y holds the result.
void saxpy_round_trip(const SaxpyBuffers& buffers, CUfunction saxpy, float a, const float* x,
                      float* y);

// Frees what allocate_saxpy_buffers made (cuMemFree, cuStreamDestroy).
void free_saxpy_buffers(SaxpyBuffers& buffers);

// ---- Part 5: the whole program -------------------------------------------------------

// Everything in order, as a program that uses only the driver API does: open the primary
// context of device 0, load the kernels from `ptx_path`, allocate, saxpy_round_trip, then
// clean up in the reverse order. On a load failure: false with `error` set, and nothing
// left allocated or held.
bool saxpy_from_ptx(const std::string& ptx_path, float a, const float* x, float* y, std::size_t n,
                    std::string& error);
