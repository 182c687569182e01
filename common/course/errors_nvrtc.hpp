// NVRTC_CHECK: NVRTC's twin of CUDA_CHECK (errors.hpp explains the format).
// A failed compilation's log is separate: read it with nvrtcGetProgramLog.
#pragma once

#include <nvrtc.h>

#include "course/errors.hpp"

namespace course {

inline void check_nvrtc(nvrtcResult status, const char* call, const char* file, int line) {
  if (status != NVRTC_SUCCESS) {
    // NVRTC's only text for a result is its name.
    exit_on_api_error("NVRTC", call, file, line, nvrtcGetErrorString(status), "");
  }
}

}  // namespace course

#define NVRTC_CHECK(call) ::course::check_nvrtc((call), #call, __FILE__, __LINE__)
