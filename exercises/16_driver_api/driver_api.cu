// Exercise 16 - the CUDA driver API: the host side that the runtime API hides. A
// context on the device (its primary context, shared with the runtime), a module loaded
// from the PTX that the build wrote beside the program, device memory, copies on a
// stream, and kernels launched with cuLaunchKernel.
//
// Each runtime call has a driver call below it: cudaMalloc is cuMemAlloc, cudaMemcpyAsync
// is cuMemcpyHtoDAsync / cuMemcpyDtoHAsync, <<<...>>> is cuLaunchKernel on a CUfunction
// found by name in a module. What the runtime does implicitly - initialise the driver,
// pick the context, load the program's kernels - is written out here.
//
// Build and run:  make 16 && make run-16
// Check:          make check-16   (statement: exercises/16_driver_api/README.md)
#include <cuda.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "course/errors_driver.hpp"
#include "driver_api.hpp"

// ---------------------------------------------------------------------------
// Part 1: the context
// ---------------------------------------------------------------------------
// [slide:primary-context]
DriverContext open_primary_context(int ordinal) {
  DriverContext opened;
  // TODO(student): cuInit(0), then cuDeviceGet(&opened.device, ordinal), then
  // cuDevicePrimaryCtxRetain(&opened.context, opened.device) and
  // cuCtxSetCurrent(opened.context). CU_CHECK every call.
  // END TODO(student)
  return opened;
}

void close_primary_context(DriverContext& context) {
  // TODO(student): cuDevicePrimaryCtxRelease(context.device), then forget the handle.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: the module
// ---------------------------------------------------------------------------
bool load_module(const std::string& ptx_path, CUmodule& module, std::string& error) {
  // TODO(student): read the whole file into a std::string (std::ifstream; if it cannot
  // be opened: error = "cannot read " + ptx_path, return false), then
  // cuModuleLoadData(&module, text.c_str()). If that fails, return false with an error
  // that names the file and course::driver_error_text(status). No CU_CHECK here: it
  // would exit the program.
  return false;
  // END TODO(student)
}

bool find_kernel(CUmodule module, const char* name, CUfunction& kernel, std::string& error) {
  // TODO(student): cuModuleGetFunction(&kernel, module, name); on failure return false
  // with an error that names the kernel and course::driver_error_text(status).
  return false;
  // END TODO(student)
}

bool load_kernels(const std::string& ptx_path, Kernels& kernels, std::string& error) {
  // TODO(student): load_module into kernels.module, then find_kernel for kSaxpyName into
  // kernels.saxpy and for kSawtoothName into kernels.sawtooth. If a kernel is missing,
  // unload the module before returning false: nothing may stay loaded.
  return false;
  // END TODO(student)
}

void unload_kernels(Kernels& kernels) {
  // TODO(student): cuModuleUnload(kernels.module), then reset the three handles.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 3: launches
// ---------------------------------------------------------------------------
unsigned blocks_for(std::size_t n) {
  // TODO(student): ceil(n / kThreadsPerBlock) in integers, at most kMaxBlocks.
  return 0;
  // END TODO(student)
}

// [slide:launch-saxpy]
void launch_saxpy(CUfunction saxpy, CUstream stream, float a, CUdeviceptr x, CUdeviceptr y,
                  std::size_t n) {
  // TODO(student): return if n == 0. Otherwise an array holding the ADDRESS of each
  // argument, in the kernel's order (float a, const float* x, float* y, size_t n), and
  // cuLaunchKernel(saxpy, blocks_for(n), 1, 1, kThreadsPerBlock, 1, 1, 0, stream, args,
  // nullptr) under CU_CHECK.
  // END TODO(student)
}
// [/slide]

void launch_sawtooth(CUfunction sawtooth, CUstream stream, CUdeviceptr out, std::size_t first,
                     int period, float amplitude, std::size_t n) {
  // TODO(student): the same for sawtooth (float* out, size_t first, int period,
  // float amplitude, size_t n). Each pointer must point at a variable of exactly the
  // parameter's type: the driver copies sizeof(parameter) bytes from it.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 4: memory, copies and a stream
// ---------------------------------------------------------------------------
SaxpyBuffers allocate_saxpy_buffers(std::size_t n) {
  SaxpyBuffers buffers;
  buffers.n = n;
  // TODO(student): if n > 0, cuMemAlloc buffers.x and buffers.y, n floats each; then
  // cuStreamCreate(&buffers.stream, CU_STREAM_NON_BLOCKING).
  // END TODO(student)
  return buffers;
}

// [slide:round-trip]
void saxpy_round_trip(const SaxpyBuffers& buffers, CUfunction saxpy, float a, const float* x,
                      float* y) {
  // TODO(student): if buffers.n > 0: cuMemcpyHtoDAsync x and y into the buffers on
  // buffers.stream, launch_saxpy on the same stream, cuMemcpyDtoHAsync y back. The copies
  // return at once (the check gives pinned host memory): wait for the stream
  // (cuStreamSynchronize) before returning, or the caller reads y too early.
  // END TODO(student)
}
// [/slide]

void free_saxpy_buffers(SaxpyBuffers& buffers) {
  // TODO(student): cuMemFree both buffers (if allocated), cuStreamDestroy the stream,
  // then reset the fields.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 5: the whole program
// ---------------------------------------------------------------------------
// [slide:whole-flow]
bool saxpy_from_ptx(const std::string& ptx_path, float a, const float* x, float* y, std::size_t n,
                    std::string& error) {
  // TODO(student): open_primary_context(0); load_kernels (on failure: close the context
  // and return false); allocate_saxpy_buffers(n); saxpy_round_trip; then the clean-up
  // in the reverse order: free_saxpy_buffers, unload_kernels, close_primary_context.
  return false;
  // END TODO(student)
}
// [/slide]
