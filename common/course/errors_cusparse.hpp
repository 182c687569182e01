// CUSPARSE_CHECK: cuSPARSE's twin of CUDA_CHECK (errors.hpp explains the format).
#pragma once

#include <cusparse.h>

#include "course/errors.hpp"

namespace course {

inline void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    exit_on_api_error("cuSPARSE", call, file, line, cusparseGetErrorName(status),
                      cusparseGetErrorString(status));
  }
}

}  // namespace course

#define CUSPARSE_CHECK(call) ::course::check_cusparse((call), #call, __FILE__, __LINE__)
