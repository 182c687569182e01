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
  //   1. An allocation that failed (cudaErrorMemoryAllocation) is VECLIB_ERROR_OUT_OF_MEMORY,
  //      any other error VECLIB_ERROR_CUDA (veclib.h).
  //   2. Clear the runtime's last error with cudaGetLastError(): the runtime remembers the
  //      error, and the launch check of the next, valid call would read it.
  const veclib_status status = VECLIB_ERROR_CUDA;  // every error, for now
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
  //   1. Compute the index i as a size_t: arrays of more than 2^31 floats (8 GiB) fit in a
  //      large GPU's memory, and an int index would overflow.
  //   2. If i < n, write y[i] = a * x[i] + y[i].
  // (y is left unchanged for now)
  // END TODO(student)
}

[[maybe_unused]] __global__ void clamp_kernel(float* x, std::size_t n, float lo, float hi) {
  // TODO(student): x[i] = min(max(x[i], lo), hi), with fminf and fmaxf.
  // (x is left unchanged for now)
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Device work, on buffers the caller allocated and will free
// ---------------------------------------------------------------------------

[[maybe_unused]] veclib_status saxpy_on_device(float a, const float* x, float* y, std::size_t n,
                                               float* device_x, float* device_y) {
  // TODO(student): saxpy on the device buffers, in four steps.
  //   1. Copy x and y in.
  //   2. Launch saxpy_kernel on blocks_for(n) blocks of kThreadsPerBlock threads.
  //   3. Check the launch with VECLIB_RETURN_IF_FAILED(cudaGetLastError()).
  //   4. Copy y back, and return VECLIB_SUCCESS.
  // Every CUDA call goes through VECLIB_RETURN_IF_FAILED.
  (void)a, (void)x, (void)y, (void)n, (void)device_x, (void)device_y;
  return record_error(VECLIB_ERROR_CUDA, "not implemented yet: saxpy_on_device");
  // END TODO(student)
}

[[maybe_unused]] veclib_status clamp_on_device(float* x, std::size_t n, float lo, float hi,
                                               float* device_x) {
  // TODO(student): the same for clamp_kernel, in place on one buffer.
  (void)x, (void)n, (void)lo, (void)hi, (void)device_x;
  return record_error(VECLIB_ERROR_CUDA, "not implemented yet: clamp_on_device");
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
  // [slide:vec-saxpy-cleanup]
  //   1. x or y NULL: return VECLIB_ERROR_NULL_POINTER, whatever n is.
  //   2. n too large to count its bytes (byte_count_fits): VECLIB_ERROR_INVALID_VALUE.
  //   3. n == 0: return VECLIB_SUCCESS at once. A grid of zero blocks is a CUDA error.
  //   4. Allocate both device buffers (allocate_floats) and run saxpy_on_device.
  //   5. Free what was allocated on every path, the error paths too. Return the first
  //      failure's status.
  // [/slide]
  (void)a, (void)x, (void)y, (void)n;
  return record_error(VECLIB_ERROR_CUDA, "not implemented yet: vec_saxpy");
  // END TODO(student)
}
// [/slide]

extern "C" veclib_status vec_clamp(float* x, size_t n, float lo, float hi) {
  // TODO(student): as vec_saxpy, with one more check after the NULL one.
  //   !(lo <= hi), that is lo above hi or either one NaN, is VECLIB_ERROR_INVALID_VALUE.
  (void)x, (void)n, (void)lo, (void)hi;
  return record_error(VECLIB_ERROR_CUDA, "not implemented yet: vec_clamp");
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
