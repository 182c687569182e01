// NCCL_CHECK: NCCL's twin of CUDA_CHECK (errors.hpp explains the format).
#pragma once

#include <nccl.h>

#include "course/errors.hpp"

namespace course {

inline void check_nccl(ncclResult_t status, const char* call, const char* file, int line) {
  if (status != ncclSuccess) {
    // NCCL has no name function; its string says what happened (ncclGetLastError adds
    // the detail of the last failure on this thread).
    exit_on_api_error("NCCL", call, file, line, ncclGetErrorString(status),
                      ncclGetLastError(nullptr));
  }
}

}  // namespace course

#define NCCL_CHECK(call) ::course::check_nccl((call), #call, __FILE__, __LINE__)
