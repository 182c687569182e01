// Page-locked ("pinned") host memory that frees itself, for instructor-owned code
// (demos, check runners). Copies between pinned memory and the device can run
// asynchronously and overlap kernels; a copy into pageable memory returns only once it
// is done, which would hide a missing stream synchronisation.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "course/errors.hpp"

namespace course {

template <typename T>
class PinnedBuffer {
 public:
  // `count` elements, uninitialised (at least one byte is allocated, so data() is a
  // valid pinned pointer even for 0 elements).
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK(cudaMallocHost(&data_, std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  // A pinned copy of `values`.
  explicit PinnedBuffer(const std::vector<T>& values) : PinnedBuffer(values.size()) {
    std::copy(values.begin(), values.end(), data_);
  }
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  // What the memory holds now, at once: no wait for the device.
  std::vector<T> snapshot() const { return std::vector<T>(data_, data_ + count_); }

 private:
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

}  // namespace course
