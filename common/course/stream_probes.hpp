// Questions a runner asks the CUDA runtime about what the code under test left behind:
// whether a host buffer is pinned memory, and how many streams still have work queued.
// Exercises 17 (driver API) and 23 (runtime API) ask both after a pipeline returns;
// a CUstream and a cudaStream_t are the same handle, so one probe serves both.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace course {

// Whether `host` lies in page-locked host memory the runtime knows (cudaMallocHost,
// cudaHostAlloc, cuMemHostAlloc, cudaHostRegister): only such memory can be copied
// asynchronously, overlapping other work. Pageable memory (new, malloc, std::vector)
// and freed pinned memory answer cudaMemoryTypeUnregistered.
inline bool is_pinned_host(const void* host) {
  if (host == nullptr) return false;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, host) != cudaSuccess) {
    cudaGetLastError();  // not an error of the program's: clear it for the next check
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

// Whether work is still queued on `stream` (nullptr: the legacy default stream).
inline bool stream_busy(cudaStream_t stream) {
  const cudaError_t status = cudaStreamQuery(stream);
  if (status == cudaErrorNotReady) return true;
  if (status != cudaSuccess) cudaGetLastError();
  return false;
}

// How many of `streams` still have work queued: right after a function that must return
// with its results on the host, none.
inline std::int64_t busy_streams(const std::vector<cudaStream_t>& streams) {
  std::int64_t busy = 0;
  for (const cudaStream_t stream : streams) busy += stream_busy(stream) ? 1 : 0;
  return busy;
}

}  // namespace course
