// CU_CHECK: the driver API's twin of CUDA_CHECK (errors.hpp explains the format).
#pragma once

#include <cuda.h>

#include "course/errors.hpp"

namespace course {

inline void check_driver(CUresult status, const char* call, const char* file, int line) {
  if (status != CUDA_SUCCESS) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(status, &name) != CUDA_SUCCESS) name = "unknown CUresult";
    if (cuGetErrorString(status, &text) != CUDA_SUCCESS) text = "";
    exit_on_api_error("CUDA driver", call, file, line, name, text);
  }
}

}  // namespace course

#define CU_CHECK(call) ::course::check_driver((call), #call, __FILE__, __LINE__)
