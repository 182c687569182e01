// Error checking that names the failing call.
//
// Every CUDA call returns a status that is easy to ignore, and an ignored error
// surfaces much later as a wrong result. The macros here check a status, and on
// failure print the stringified call, file:line, the error's name and its text,
// then exit. They are never compiled out: a release build needs them as much as a
// debug one.
//
//   CUDA_CHECK(cudaMalloc(&d_x, bytes));   // runtime API
//   my_kernel<<<blocks, threads>>>(...);
//   CUDA_CHECK_LAUNCH();                   // launch errors (+ sync if COURSE_DEBUG_SYNC=1)
//
// The other API families (driver, cuBLAS, NVRTC, cuRAND, cuSPARSE) have their own
// headers beside this one, so that a program includes only the libraries it links.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace course {

// The one message format of every check macro, kept in a function so that it can
// be unit-tested without a GPU.
inline std::string format_api_error(const char* api_family, const char* call, const char* file,
                                    int line, const char* error_name, const char* error_text) {
  std::string message = std::string(api_family) + " error at " + file + ":" + std::to_string(line) +
                        "\n  call:  " + call + "\n  error: " + error_name;
  if (error_text != nullptr && error_text[0] != '\0' && std::strcmp(error_text, error_name) != 0) {
    message += " (" + std::string(error_text) + ")";
  }
  return message + "\n";
}

[[noreturn]] inline void exit_on_api_error(const char* api_family, const char* call,
                                           const char* file, int line, const char* error_name,
                                           const char* error_text) {
  // What the program printed before the error must come out before it, also when
  // both streams are captured into one.
  std::fflush(stdout);
  std::fputs(format_api_error(api_family, call, file, line, error_name, error_text).c_str(),
             stderr);
  std::exit(EXIT_FAILURE);
}

// [slide:check-runtime]
inline void check_runtime(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    exit_on_api_error("CUDA runtime", call, file, line, cudaGetErrorName(status),
                      cudaGetErrorString(status));
  }
}
// [/slide]

// A debug switch read at run time, so that students need not rebuild to localise an
// asynchronous error: with COURSE_DEBUG_SYNC=1 every checked launch also waits for
// the kernel, and an error inside it is reported at its own launch.
inline bool debug_sync_enabled() {
  const char* value = std::getenv("COURSE_DEBUG_SYNC");
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

// [slide:check-launch]
inline void check_launch(const char* file, int line) {
  // A bad launch configuration is reported by cudaGetLastError, not by the launch.
  check_runtime(cudaGetLastError(), "kernel launch", file, line);
  if (debug_sync_enabled()) {
    check_runtime(cudaDeviceSynchronize(), "kernel execution (COURSE_DEBUG_SYNC)", file, line);
  }
}
// [/slide]

}  // namespace course

// [slide:check-macros]
#define CUDA_CHECK(call) ::course::check_runtime((call), #call, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH() ::course::check_launch(__FILE__, __LINE__)
// [/slide]
