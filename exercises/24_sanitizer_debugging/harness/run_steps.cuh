// Exercise 24: the four steps, run on inputs drawn from a seed, for both halves of the
// program (harness/cases.cu, harness/demo.cu). Outputs are poisoned first, so that an
// element never written comes back as such.
#pragma once

#include <cstddef>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/verify.hpp"
#include "sanitizer_debugging.hpp"

namespace sanitizer_debugging {

inline std::vector<float> run_reverse(const std::vector<float>& x) {
  course::DeviceBuffer<float> device_x(x), out(x.size());
  out.poison();
  reverse_on_device(device_x.data(), out.data(), static_cast<int>(x.size()));
  return out.download();
}

inline std::vector<float> run_smooth(const std::vector<float>& x) {
  course::DeviceBuffer<float> device_x(x), out(x.size());
  out.poison();
  smooth_on_device(device_x.data(), out.data(), static_cast<int>(x.size()));
  return out.download();
}

inline std::vector<float> run_block_sums(const std::vector<float>& x) {
  const std::size_t blocks = (x.size() + kThreadsPerBlock - 1) / kThreadsPerBlock;
  course::DeviceBuffer<float> device_x(x), sums(blocks);
  sums.poison();
  block_sums_on_device(device_x.data(), sums.data(), static_cast<int>(x.size()));
  return sums.download();
}

inline std::vector<float> run_average(const std::vector<float>& frames, int frame_count, int n) {
  course::DeviceBuffer<float> device_frames(frames);
  std::vector<float> mean(static_cast<std::size_t>(n));
  course::poison(mean.data(), mean.size());
  average_frames_on_device(device_frames.data(), frame_count, n, mean.data());
  return mean;
}

}  // namespace sanitizer_debugging
