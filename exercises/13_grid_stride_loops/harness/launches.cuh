// Exercise 13: the driver's own launches of the student's hypot_stride, used by the
// cases (harness/cases.cu) and the demo (harness/demo.cu).
#pragma once

#include <cuda_runtime.h>

#include "course/errors.hpp"
#include "grid_stride.hpp"

namespace grid_stride {

// The grid the occupancy API gives hypot_stride, computed here by the driver.
// [slide:occupancy-grid]
inline int reference_occupancy_blocks(int threads_per_block) {
  int per_multiprocessor = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, hypot_stride,
                                                           threads_per_block, 0));
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int multiprocessors = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return per_multiprocessor * multiprocessors;
}
// [/slide]

// hypot_stride on a grid the caller chooses: the kernel alone must cope with any.
inline void launch_hypot(int blocks, int threads, const float* a, const float* b, float* c, int n) {
  hypot_stride<<<blocks, threads>>>(a, b, c, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace grid_stride
