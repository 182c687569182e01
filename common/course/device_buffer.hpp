// A device array that frees itself: cudaMalloc in the constructor, cudaFree in the
// destructor, and checked copies to and from host vectors.
//
// For instructor-owned code (demos, check runners) that needs device inputs and
// outputs around a student's launcher. Exercises that teach cudaMalloc and cudaMemcpy
// keep those calls in the student's code; this class is for everything around it.
// Its cudaMalloc goes through the check's accounting like any other (device
// allocations are poisoned and guarded while a case runs), so a kernel that writes
// past the end of one of these buffers is caught when it is freed.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "course/errors.hpp"
#include "course/verify.hpp"

namespace course {

// Copies `count` elements from the host to the current device's memory, and returns once
// they are there for every stream. From pageable memory cudaMemcpy returns as soon as the
// data is staged for the DMA, before it lands; only later work on the legacy default
// stream is ordered after it. A copy or kernel on a non-blocking stream (a student's) could
// read what was there before - the tail of a large buffer, under load - so this waits.
template <typename T>
void copy_to_device(T* device, const T* host, std::size_t count) {
  if (count == 0) return;
  CUDA_CHECK(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Fills `count` elements of device memory with the poison of verify.hpp, so that an
// element a kernel never wrote is seen as such once downloaded (cudaMalloc leaves
// whatever was there).
template <typename T>
void poison_device(T* device, std::size_t count) {
  if (count == 0) return;
  std::vector<T> poisoned(count);
  course::poison(poisoned.data(), poisoned.size());
  copy_to_device(device, poisoned.data(), count);
}

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
  }
  // A buffer holding a copy of `values`.
  explicit DeviceBuffer(const std::vector<T>& values) : DeviceBuffer(values.size()) {
    upload(values);
  }
  ~DeviceBuffer() {
    // No check: a destructor must not exit, and after a kernel fault every call fails.
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // Copies size() elements from the host (copy_to_device: in place for every stream).
  void upload(const std::vector<T>& values) { copy_to_device(data_, values.data(), count_); }
  // Fills the buffer with the poison (poison_device).
  void poison() { poison_device(data_, count_); }
  // Copies size() elements to `host`, which must hold that many.
  void download(T* host) const {
    if (count_ > 0) CUDA_CHECK(cudaMemcpy(host, data_, bytes(), cudaMemcpyDeviceToHost));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    download(host.data());
    return host;
  }
  // The elements from index `first` on: the output of a kernel that was given
  // data() + first (device_buffer_after).
  std::vector<T> download_from(std::size_t first) const {
    std::vector<T> all = download();
    all.erase(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(first, all.size())));
    return all;
  }
  // At most `most` elements spread over the buffer (spread_indices): what a speed case
  // compares, where every element of a buffer of hundreds of MiB would weigh on the check.
  std::vector<T> download_spread(std::size_t most) const {
    const std::vector<T> all = download();
    std::vector<T> samples;
    for (const std::size_t i : spread_indices(count_, most)) samples.push_back(all[i]);
    return samples;
  }

 private:
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

// A buffer of `offset` zeros followed by `values`, which start at data() + offset. For
// floats and an offset that is not a multiple of 4, that pointer is not 16-byte aligned:
// what a check gives a kernel that must not read float4 there (course/float4.hpp).
template <typename T>
DeviceBuffer<T> device_buffer_after(std::size_t offset, const std::vector<T>& values) {
  std::vector<T> padded(offset, T{});
  padded.insert(padded.end(), values.begin(), values.end());
  return DeviceBuffer<T>(padded);
}

}  // namespace course
