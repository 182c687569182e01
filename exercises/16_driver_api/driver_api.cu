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
// [slide:open-context]
DriverContext open_primary_context(int ordinal) {
  DriverContext opened;
  // TODO(student): the device's primary context, made current, in four calls.
  //   1. cuInit(0).
  //   2. cuDeviceGet(&opened.device, ordinal).
  //   3. cuDevicePrimaryCtxRetain(&opened.context, opened.device).
  //   4. cuCtxSetCurrent(opened.context).
  // CU_CHECK every call.
  // END TODO(student)
  return opened;
}
// [/slide]

void close_primary_context(DriverContext& context) {
  // TODO(student): give the primary context back.
  //   1. cuDevicePrimaryCtxRelease(context.device), under CU_CHECK.
  //   2. Forget the handle: context.context = nullptr.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: the module
// ---------------------------------------------------------------------------
bool load_module(const std::string& ptx_path, CUmodule& module, std::string& error) {
  // TODO(student): a module from a PTX file, failures reported, never fatal.
  //   1. Read the whole file into a std::string with a std::ifstream. If it cannot be
  //      opened, set error = "cannot read " + ptx_path and return false.
  //   2. cuModuleLoadData(&module, text.c_str()). If that fails, return false with an
  //      error that names the file and course::driver_error_text(status).
  //   3. Return true.
  // No CU_CHECK here: it would exit the program.
  return false;
  // END TODO(student)
}

bool find_kernel(CUmodule module, const char* name, CUfunction& kernel, std::string& error) {
  // TODO(student): a kernel found by name, a failure reported, never fatal.
  //   1. cuModuleGetFunction(&kernel, module, name).
  //   2. On failure return false, with an error that names the kernel and
  //      course::driver_error_text(status). Otherwise return true.
  return false;
  // END TODO(student)
}

bool load_kernels(const std::string& ptx_path, Kernels& kernels, std::string& error) {
  // TODO(student): the module and both kernels, or nothing.
  //   1. load_module into kernels.module; on failure return false.
  //   2. find_kernel for kSaxpyName into kernels.saxpy and for kSawtoothName into
  //      kernels.sawtooth.
  //   3. If a kernel is missing, unload the module before returning false: nothing may
  //      stay loaded. Otherwise return true.
  return false;
  // END TODO(student)
}

void unload_kernels(Kernels& kernels) {
  // TODO(student): unload the module.
  //   1. cuModuleUnload(kernels.module), under CU_CHECK.
  //   2. Reset the three handles.
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
  // TODO(student): saxpy through cuLaunchKernel, in three steps.
  //   1. Return if n == 0.
  //   2. An array holding the ADDRESS of each argument, in the kernel's order
  //      (float a, const float* x, float* y, size_t n): void* args[] = {&a, &x, &y, &n}.
  //   3. cuLaunchKernel(saxpy, blocks_for(n), 1, 1, kThreadsPerBlock, 1, 1, 0, stream,
  //      args, nullptr) under CU_CHECK. Do not wait for the kernel.
  // END TODO(student)
}
// [/slide]

void launch_sawtooth(CUfunction sawtooth, CUstream stream, CUdeviceptr out, std::size_t first,
                     int period, float amplitude, std::size_t n) {
  // TODO(student): sawtooth through cuLaunchKernel, like launch_saxpy.
  //   1. Return if n == 0.
  //   2. The arguments' addresses, in the kernel's order (float* out, size_t first,
  //      int period, float amplitude, size_t n). Each pointer must point at a variable of
  //      exactly the parameter's type: the driver copies sizeof(parameter) bytes from it.
  //   3. cuLaunchKernel on blocks_for(n) blocks of kThreadsPerBlock threads on `stream`,
  //      under CU_CHECK. Do not wait.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 4: memory, copies and a stream
// ---------------------------------------------------------------------------
SaxpyBuffers allocate_saxpy_buffers(std::size_t n) {
  SaxpyBuffers buffers;
  buffers.n = n;
  // TODO(student): two device buffers and a stream.
  //   1. If n > 0, cuMemAlloc buffers.x and buffers.y, n floats each. None when n == 0.
  //   2. cuStreamCreate(&buffers.stream, CU_STREAM_NON_BLOCKING).
  // CU_CHECK every call.
  // END TODO(student)
  return buffers;
}

// [slide:round-trip]
void saxpy_round_trip(const SaxpyBuffers& buffers, CUfunction saxpy, float a, const float* x,
                      float* y) {
  // TODO(student): the round trip on buffers.stream, in five steps (none when
  // buffers.n == 0).
  //   1. cuMemcpyHtoDAsync x into buffers.x.
  //   2. cuMemcpyHtoDAsync y into buffers.y.
  //   3. launch_saxpy on the same stream.
  //   4. cuMemcpyDtoHAsync buffers.y back into y.
  //   5. cuStreamSynchronize(buffers.stream). The copies return at once (the check gives
  //      pinned host memory): without the wait the caller reads y too early.
  // END TODO(student)
}
// [/slide]

void free_saxpy_buffers(SaxpyBuffers& buffers) {
  // TODO(student): free what allocate_saxpy_buffers made.
  //   1. cuMemFree each buffer that was allocated.
  //   2. cuStreamDestroy the stream.
  //   3. Reset the fields.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 5: the whole program
// ---------------------------------------------------------------------------
// [slide:whole-flow]
bool saxpy_from_ptx(const std::string& ptx_path, float a, const float* x, float* y, std::size_t n,
                    std::string& error) {
  // TODO(student): the whole program with the functions above, in six steps.
  // [slide:clean-up]
  //   1. open_primary_context(0).
  //   2. load_kernels. On failure close the context and return false.
  //   3. allocate_saxpy_buffers(n).
  //   4. saxpy_round_trip.
  //   5. The clean-up in the reverse order: free_saxpy_buffers, unload_kernels,
  //      close_primary_context.
  //   6. Return true.
  // [/slide]
  return false;
  // END TODO(student)
}
// [/slide]
