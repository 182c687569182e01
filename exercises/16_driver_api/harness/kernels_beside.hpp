// Exercise 16: what both halves of the program (harness/cases.cu, harness/demo.cu) need to
// reach the kernels: the PTX file the build writes beside the program, and the driver's
// view of a runtime allocation.
#pragma once

#include <cuda.h>

#include <string>

#include "course/beside_program.hpp"

namespace driver_api {

// The PTX of kernels.cu, which the build writes beside this program.
inline std::string kernels_ptx() { return course::ptx_beside_program("kernels"); }

// A runtime allocation (cudaMalloc) as the driver names it: both APIs share one address
// space in the primary context.
inline CUdeviceptr device_address(const void* pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

}  // namespace driver_api
