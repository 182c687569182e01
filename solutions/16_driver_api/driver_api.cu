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
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&opened.device, ordinal));
  CU_CHECK(cuDevicePrimaryCtxRetain(&opened.context, opened.device));
  CU_CHECK(cuCtxSetCurrent(opened.context));
  // END TODO(student)
  return opened;
}
// [/slide]

void close_primary_context(DriverContext& context) {
  // TODO(student): give the primary context back.
  CU_CHECK(cuDevicePrimaryCtxRelease(context.device));
  context.context = nullptr;
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: the module
// ---------------------------------------------------------------------------
bool load_module(const std::string& ptx_path, CUmodule& module, std::string& error) {
  // TODO(student): a module from a PTX file, failures reported, never fatal.
  std::ifstream file(ptx_path, std::ios::binary);
  if (!file) {
    error = "cannot read " + ptx_path;
    return false;
  }
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const CUresult status = cuModuleLoadData(&module, text.c_str());
  if (status != CUDA_SUCCESS) {
    error = "cuModuleLoadData(" + ptx_path + "): " + course::driver_error_text(status);
    return false;
  }
  return true;
  // END TODO(student)
}

bool find_kernel(CUmodule module, const char* name, CUfunction& kernel, std::string& error) {
  // TODO(student): a kernel found by name, a failure reported, never fatal.
  const CUresult status = cuModuleGetFunction(&kernel, module, name);
  if (status != CUDA_SUCCESS) {
    error =
        "cuModuleGetFunction(\"" + std::string(name) + "\"): " + course::driver_error_text(status);
    return false;
  }
  return true;
  // END TODO(student)
}

bool load_kernels(const std::string& ptx_path, Kernels& kernels, std::string& error) {
  // TODO(student): the module and both kernels, or nothing.
  if (!load_module(ptx_path, kernels.module, error)) return false;
  if (!find_kernel(kernels.module, kSaxpyName, kernels.saxpy, error) ||
      !find_kernel(kernels.module, kSawtoothName, kernels.sawtooth, error)) {
    unload_kernels(kernels);
    return false;
  }
  return true;
  // END TODO(student)
}

void unload_kernels(Kernels& kernels) {
  // TODO(student): unload the module.
  CU_CHECK(cuModuleUnload(kernels.module));
  kernels = Kernels{};
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 3: launches
// ---------------------------------------------------------------------------
unsigned blocks_for(std::size_t n) {
  // TODO(student): ceil(n / kThreadsPerBlock) in integers, at most kMaxBlocks.
  return static_cast<unsigned>(
      std::min<std::size_t>((n + kThreadsPerBlock - 1) / kThreadsPerBlock, kMaxBlocks));
  // END TODO(student)
}

// [slide:launch-saxpy]
void launch_saxpy(CUfunction saxpy, CUstream stream, float a, CUdeviceptr x, CUdeviceptr y,
                  std::size_t n) {
  // TODO(student): saxpy through cuLaunchKernel, in three steps.
  if (n == 0) return;
  void* args[] = {&a, &x, &y, &n};
  CU_CHECK(
      cuLaunchKernel(saxpy, blocks_for(n), 1, 1, kThreadsPerBlock, 1, 1, 0, stream, args, nullptr));
  // END TODO(student)
}
// [/slide]

void launch_sawtooth(CUfunction sawtooth, CUstream stream, CUdeviceptr out, std::size_t first,
                     int period, float amplitude, std::size_t n) {
  // TODO(student): sawtooth through cuLaunchKernel, like launch_saxpy.
  if (n == 0) return;
  void* args[] = {&out, &first, &period, &amplitude, &n};
  CU_CHECK(cuLaunchKernel(sawtooth, blocks_for(n), 1, 1, kThreadsPerBlock, 1, 1, 0, stream, args,
                          nullptr));
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 4: memory, copies and a stream
// ---------------------------------------------------------------------------
SaxpyBuffers allocate_saxpy_buffers(std::size_t n) {
  SaxpyBuffers buffers;
  buffers.n = n;
  // TODO(student): two device buffers and a stream.
  if (n > 0) {
    CU_CHECK(cuMemAlloc(&buffers.x, n * sizeof(float)));
    CU_CHECK(cuMemAlloc(&buffers.y, n * sizeof(float)));
  }
  CU_CHECK(cuStreamCreate(&buffers.stream, CU_STREAM_NON_BLOCKING));
  // END TODO(student)
  return buffers;
}

// [slide:round-trip]
void saxpy_round_trip(const SaxpyBuffers& buffers, CUfunction saxpy, float a, const float* x,
                      float* y) {
  // TODO(student): the round trip on buffers.stream, in five steps (none when
  const std::size_t bytes = buffers.n * sizeof(float);
  if (bytes == 0) return;
  CU_CHECK(cuMemcpyHtoDAsync(buffers.x, x, bytes, buffers.stream));
  CU_CHECK(cuMemcpyHtoDAsync(buffers.y, y, bytes, buffers.stream));
  launch_saxpy(saxpy, buffers.stream, a, buffers.x, buffers.y, buffers.n);
  CU_CHECK(cuMemcpyDtoHAsync(y, buffers.y, bytes, buffers.stream));
  CU_CHECK(cuStreamSynchronize(buffers.stream));
  // END TODO(student)
}
// [/slide]

void free_saxpy_buffers(SaxpyBuffers& buffers) {
  // TODO(student): free what allocate_saxpy_buffers made.
  if (buffers.x != 0) CU_CHECK(cuMemFree(buffers.x));
  if (buffers.y != 0) CU_CHECK(cuMemFree(buffers.y));
  CU_CHECK(cuStreamDestroy(buffers.stream));
  buffers = SaxpyBuffers{};
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
  DriverContext context = open_primary_context(0);
  Kernels kernels;
  if (!load_kernels(ptx_path, kernels, error)) {
    close_primary_context(context);
    return false;
  }
  SaxpyBuffers buffers = allocate_saxpy_buffers(n);
  saxpy_round_trip(buffers, kernels.saxpy, a, x, y);
  free_saxpy_buffers(buffers);
  unload_kernels(kernels);
  close_primary_context(context);
  // [/slide]
  return true;
  // END TODO(student)
}
// [/slide]
