// CUDA streams that destroy themselves, for instructor-owned code (demos, check runners)
// that needs streams of its own around a student's function.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "course/errors.hpp"

namespace course {

class Streams {
 public:
  // `count` streams created with `flags` (cudaStreamNonBlocking: nothing of the legacy
  // default stream orders them; cudaStreamDefault: they wait for it and it for them).
  explicit Streams(int count, unsigned flags = cudaStreamNonBlocking) {
    for (int s = 0; s < count; ++s) {
      cudaStream_t stream = nullptr;
      CUDA_CHECK(cudaStreamCreateWithFlags(&stream, flags));
      streams_.push_back(stream);
    }
  }
  ~Streams() {
    for (const cudaStream_t stream : streams_) cudaStreamDestroy(stream);
  }
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;

  const std::vector<cudaStream_t>& get() const { return streams_; }
  cudaStream_t operator[](std::size_t s) const { return streams_[s]; }

 private:
  std::vector<cudaStream_t> streams_;
};

}  // namespace course
