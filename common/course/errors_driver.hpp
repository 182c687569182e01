// CU_CHECK: the driver API's twin of CUDA_CHECK (errors.hpp explains the format).
#pragma once

#include <cuda.h>

#include <string>

#include "course/errors.hpp"

namespace course {

// A driver status's name and text, e.g. "CUDA_ERROR_NOT_FOUND" and "named symbol not found".
inline void driver_error_words(CUresult status, const char*& name, const char*& text) {
  if (cuGetErrorName(status, &name) != CUDA_SUCCESS) name = "unknown CUresult";
  if (cuGetErrorString(status, &text) != CUDA_SUCCESS) text = "";
}

// "CUDA_ERROR_NOT_FOUND (named symbol not found)": for code that reports a failed call
// and carries on, where CU_CHECK would exit.
inline std::string driver_error_text(CUresult status) {
  const char* name = nullptr;
  const char* text = nullptr;
  driver_error_words(status, name, text);
  return text[0] == '\0' ? std::string(name) : std::string(name) + " (" + text + ")";
}

inline void check_driver(CUresult status, const char* call, const char* file, int line) {
  if (status != CUDA_SUCCESS) {
    const char* name = nullptr;
    const char* text = nullptr;
    driver_error_words(status, name, text);
    exit_on_api_error("CUDA driver", call, file, line, name, text);
  }
}

}  // namespace course

#define CU_CHECK(call) ::course::check_driver((call), #call, __FILE__, __LINE__)
