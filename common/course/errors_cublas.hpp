// CUBLAS_CHECK: cuBLAS's twin of CUDA_CHECK (errors.hpp explains the format).
#pragma once

#include <cublas_v2.h>

#include "course/errors.hpp"

namespace course {

inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    exit_on_api_error("cuBLAS", call, file, line, cublasGetStatusName(status),
                      cublasGetStatusString(status));
  }
}

}  // namespace course

#define CUBLAS_CHECK(call) ::course::check_cublas((call), #call, __FILE__, __LINE__)
