// Exercise 08 - veclib: two vector operations on the GPU behind a C interface.
//
// vec_saxpy (y = a x + y) and vec_clamp (x = min(max(x, lo), hi)) take host arrays,
// move them to the device, run one kernel and bring the result back. What matters
// here is the boundary: the functions are extern "C" (veclib.h), so C programs and
// Python's ctypes call them by their plain names, and every failure - a NULL array,
// a bad argument, a CUDA error - comes back as a veclib_status, never as an exit():
// a library must not end the program that called it.
//
// Build and run:  make 08 && make run-08        (C demo; `make check-08` grades)
// Python:         python3 exercises/08_interfacing_c_python/veclib.py \
//                     build/make/08_interfacing_c_python.so
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "veclib.h"

namespace {

// The helpers below are [[maybe_unused]]: the skeleton compiles without warnings before
// it calls them.

// One thread per element; a multiple of the warp size (32).
constexpr unsigned kThreadsPerBlock = 256;
// The longest text veclib_last_error_message returns, terminating zero included.
constexpr std::size_t kMessageBytes = 256;

// One message per thread: two threads that fail at once keep their own details.
thread_local char last_error_message[kMessageBytes] = "";

// ---------------------------------------------------------------------------
// Error reporting: statuses, never exit()
// ---------------------------------------------------------------------------

// Records what went wrong and returns `status`, so that a failing path reads
// `return record_error(VECLIB_ERROR_..., "what happened");`.
veclib_status record_error(veclib_status status, const char* what) {
  std::snprintf(last_error_message, kMessageBytes, "%s", what);
  return status;
}

// The status of a failed CUDA call, with the call and the CUDA error in the message.
veclib_status record_cuda_error(cudaError_t error, const char* call) {
  // TODO(student): a CUDA error becomes a veclib_status, in two steps.
  const veclib_status status =
      (error == cudaErrorMemoryAllocation) ? VECLIB_ERROR_OUT_OF_MEMORY : VECLIB_ERROR_CUDA;
  cudaGetLastError();
  // END TODO(student)
  std::snprintf(last_error_message, kMessageBytes, "%s failed: %s (%s)", call,
                cudaGetErrorName(error), cudaGetErrorString(error));
  return status;
}

// The course's CUDA_CHECK prints and calls exit(): right for a program, wrong for a
// library. This one returns the status from the enclosing function instead.
// [slide:return-if-failed]
#define VECLIB_RETURN_IF_FAILED(call)                 \
  do {                                                \
    const cudaError_t veclib_error_ = (call);         \
    if (veclib_error_ != cudaSuccess) {               \
      return record_cuda_error(veclib_error_, #call); \
    }                                                 \
  } while (0)
// [/slide]

// A size_t count of floats whose bytes a size_t can hold.
[[maybe_unused]] bool byte_count_fits(std::size_t n) { return n <= SIZE_MAX / sizeof(float); }

// Blocks of kThreadsPerBlock threads that cover n elements, rounded up. Any n whose
// arrays fit in device memory gives far fewer than gridDim.x's limit of 2^31 - 1.
[[maybe_unused]] unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

[[maybe_unused]] __global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  // TODO(student): one element per thread, with a size_t index.
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  // END TODO(student)
}

[[maybe_unused]] __global__ void clamp_kernel(float* x, std::size_t n, float lo, float hi) {
  // TODO(student): x[i] = min(max(x[i], lo), hi), with fminf and fmaxf.
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) x[i] = fminf(fmaxf(x[i], lo), hi);
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Device work, on buffers the caller allocated and will free
// ---------------------------------------------------------------------------

[[maybe_unused]] veclib_status saxpy_on_device(float a, const float* x, float* y, std::size_t n,
                                               float* device_x, float* device_y) {
  // TODO(student): saxpy on the device buffers, in four steps.
  const std::size_t bytes = n * sizeof(float);
  VECLIB_RETURN_IF_FAILED(cudaMemcpy(device_x, x, bytes, cudaMemcpyHostToDevice));
  VECLIB_RETURN_IF_FAILED(cudaMemcpy(device_y, y, bytes, cudaMemcpyHostToDevice));
  saxpy_kernel<<<blocks_for(n), kThreadsPerBlock>>>(a, device_x, device_y, n);
  VECLIB_RETURN_IF_FAILED(cudaGetLastError());
  // The copy back waits for the kernel, and returns the errors of its execution.
  VECLIB_RETURN_IF_FAILED(cudaMemcpy(y, device_y, bytes, cudaMemcpyDeviceToHost));
  return VECLIB_SUCCESS;
  // END TODO(student)
}

[[maybe_unused]] veclib_status clamp_on_device(float* x, std::size_t n, float lo, float hi,
                                               float* device_x) {
  // TODO(student): the same for clamp_kernel, in place on one buffer.
  const std::size_t bytes = n * sizeof(float);
  VECLIB_RETURN_IF_FAILED(cudaMemcpy(device_x, x, bytes, cudaMemcpyHostToDevice));
  clamp_kernel<<<blocks_for(n), kThreadsPerBlock>>>(device_x, n, lo, hi);
  VECLIB_RETURN_IF_FAILED(cudaGetLastError());
  VECLIB_RETURN_IF_FAILED(cudaMemcpy(x, device_x, bytes, cudaMemcpyDeviceToHost));
  return VECLIB_SUCCESS;
  // END TODO(student)
}

// Allocates n floats on the device, reporting a failure as a status.
[[maybe_unused]] veclib_status allocate_floats(float** device_pointer, std::size_t n,
                                               const char* what) {
  const cudaError_t error = cudaMalloc(reinterpret_cast<void**>(device_pointer), n * sizeof(float));
  if (error != cudaSuccess) {
    *device_pointer = nullptr;
    return record_cuda_error(error, what);
  }
  return VECLIB_SUCCESS;
}

}  // namespace

// ---------------------------------------------------------------------------
// The C interface (veclib.h)
// ---------------------------------------------------------------------------

// [slide:vec-saxpy]
extern "C" veclib_status vec_saxpy(float a, const float* x, float* y, size_t n) {
  // TODO(student): the checks, then the work, in this order.
  if (x == nullptr || y == nullptr) {
    return record_error(VECLIB_ERROR_NULL_POINTER, "vec_saxpy: x or y is NULL");
  }
  if (!byte_count_fits(n)) {
    return record_error(VECLIB_ERROR_INVALID_VALUE, "vec_saxpy: n floats do not fit in a size_t");
  }
  if (n == 0) return VECLIB_SUCCESS;
  // [slide:vec-saxpy-cleanup]
  float* device_x = nullptr;
  float* device_y = nullptr;
  veclib_status status = allocate_floats(&device_x, n, "cudaMalloc of x");
  if (status == VECLIB_SUCCESS) status = allocate_floats(&device_y, n, "cudaMalloc of y");
  if (status == VECLIB_SUCCESS) status = saxpy_on_device(a, x, y, n, device_x, device_y);
  // cudaFree(nullptr) does nothing; a failure to free changes nothing the caller can use.
  cudaFree(device_x);
  cudaFree(device_y);
  return status;
  // [/slide]
  // END TODO(student)
}
// [/slide]

extern "C" veclib_status vec_clamp(float* x, size_t n, float lo, float hi) {
  // TODO(student): as vec_saxpy, with one more check after the NULL one.
  if (x == nullptr) return record_error(VECLIB_ERROR_NULL_POINTER, "vec_clamp: x is NULL");
  if (!(lo <= hi)) {
    return record_error(VECLIB_ERROR_INVALID_VALUE, "vec_clamp: needs lo <= hi, neither NaN");
  }
  if (!byte_count_fits(n)) {
    return record_error(VECLIB_ERROR_INVALID_VALUE, "vec_clamp: n floats do not fit in a size_t");
  }
  if (n == 0) return VECLIB_SUCCESS;
  float* device_x = nullptr;
  veclib_status status = allocate_floats(&device_x, n, "cudaMalloc of x");
  if (status == VECLIB_SUCCESS) status = clamp_on_device(x, n, lo, hi, device_x);
  cudaFree(device_x);
  return status;
  // END TODO(student)
}

extern "C" const char* veclib_status_string(veclib_status status) {
  switch (status) {
    case VECLIB_SUCCESS: return "success";
    case VECLIB_ERROR_NULL_POINTER: return "an array argument is NULL";
    case VECLIB_ERROR_INVALID_VALUE: return "an argument is out of its range";
    case VECLIB_ERROR_OUT_OF_MEMORY: return "out of device memory";
    case VECLIB_ERROR_CUDA: return "CUDA error";
  }
  return "unknown veclib status";
}

extern "C" const char* veclib_last_error_message(void) { return last_error_message; }
