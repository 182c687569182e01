// Exercise 13: what the student's program and its check must agree on - the lab's
// launch configurations, the block sizes of the launchers, the inputs of every run,
// drawn from a seed, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// grid_stride.hpp includes it for the student's code.
//
// Used by:  make 13 && make run-13 (the program), make check-13 (the check)
#pragma once

#include <cstdint>
#include <vector>

#include "course/check/result_keys.hpp"
#include "course/data.hpp"

// The lab's first kernel: n = 4096 elements, 32 blocks of 128 threads, one thread each.
inline constexpr int kLabAddElements = 4096;
inline constexpr int kLabAddBlocks = 32;
inline constexpr int kLabThreadsPerBlock = 128;

// The block size of add_on_device and square_on_device (the lab's 128).
inline constexpr int kElementwiseThreadsPerBlock = kLabThreadsPerBlock;

// The lab's fixed grid for hypot_stride: 128 blocks of 64 threads, 8192 threads for a
// million elements (and, in the demo, for 64 million).
inline constexpr int kLabStrideBlocks = 128;
inline constexpr int kLabStrideThreadsPerBlock = 64;

// The block size of hypot_on_device, whose grid the occupancy API sizes.
inline constexpr int kHypotThreadsPerBlock = 256;

namespace grid_stride {

// add: random ints in [1, 2^20] (never 0, and no sum can overflow an int).
inline constexpr int kAddValueMax = 1 << 20;
// square: floats in [-100, 100).
inline constexpr float kSquareInputLimit = 100.0f;
// hypot: the lab's inputs, uniform in [-12, 12).
inline constexpr float kHypotInputLimit = 12.0f;

// Salts so that the two inputs of one case are independent streams of its seed.
inline constexpr std::uint64_t kFirstInputSalt = 1;
inline constexpr std::uint64_t kSecondInputSalt = 2;

inline std::vector<int> make_add_x(int n, std::uint64_t seed) {
  return course::random_ints(static_cast<std::size_t>(n), 1, kAddValueMax,
                             course::derive_seed(seed, kFirstInputSalt));
}
inline std::vector<int> make_add_y(int n, std::uint64_t seed) {
  return course::random_ints(static_cast<std::size_t>(n), 1, kAddValueMax,
                             course::derive_seed(seed, kSecondInputSalt));
}
inline std::vector<float> make_square_input(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -kSquareInputLimit, kSquareInputLimit,
                               course::derive_seed(seed, kFirstInputSalt));
}
inline std::vector<float> make_hypot_a(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -kHypotInputLimit, kHypotInputLimit,
                               course::derive_seed(seed, kFirstInputSalt));
}
inline std::vector<float> make_hypot_b(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), -kHypotInputLimit, kHypotInputLimit,
                               course::derive_seed(seed, kSecondInputSalt));
}

// The block sizes whose occupancy grid the check compares (the value differs for each
// on every GPU the course supports).
inline constexpr int kOccupancyBlockSizes[] = {64, 256, 1024};

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// The outputs, copied back from the device: add's sums and square's squares (both named
// "out"), and hypot's c.
inline const course::check::Array<std::int32_t> add_out{"out"};
inline const course::check::Array<float> square_out{"out"};
inline const course::check::Array<float> c{"c"};
// blocks_to_cover's answer.
inline const course::check::Value<std::int64_t> blocks{"blocks"};
// occupancy_grid_blocks for each of kOccupancyBlockSizes, and the driver's own answer.
inline const course::check::Array<std::int64_t> student_blocks{"student_blocks"};
inline const course::check::Array<std::int64_t> expected_blocks{"expected_blocks"};
// The speed case: the elements of the timed launches, and the best median time of the
// student's launch and of the driver's one-thread-per-element kernel, in milliseconds.
inline const course::check::Value<std::int64_t> timed_elements{"timed_elements"};
inline const course::check::Value<double> student_ms{"student_ms"};
inline const course::check::Value<double> one_per_element_ms{"one_per_element_ms"};
}  // namespace result

}  // namespace grid_stride
