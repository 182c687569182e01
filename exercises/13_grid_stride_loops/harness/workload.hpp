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

#include "course/check/request_keys.hpp"
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

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
struct Elements {
  std::int64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
// add_on_device (after an empty call for add_after_empty), square_on_device and
// hypot_on_device on n elements.
inline const course::check::Request<Elements> add{"add"};
inline const course::check::Request<Elements> add_after_empty{"add_after_empty"};
inline const course::check::Request<Elements> square{"square"};
inline const course::check::Request<Elements> hypot_occupancy{"hypot_occupancy"};

// blocks_to_cover(n, threads).
struct Cover {
  std::int64_t n = 0;
  std::int64_t threads = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("threads", threads);
  }
};
inline const course::check::Request<Cover> blocks_to_cover{"blocks_to_cover"};

// A launch on the grid the runner chooses: add_kernel, or hypot_stride.
struct Grid {
  std::int64_t n = 0;
  std::int64_t blocks = 1;
  std::int64_t threads = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("blocks", blocks), visit("threads", threads);
  }
};
inline const course::check::Request<Grid> add_launch{"add_launch"};
inline const course::check::Request<Grid> hypot_grid{"hypot_grid"};

// hypot_stride on a, b and c starting these many floats into their buffers.
struct HypotOffsets {
  std::int64_t n = 0;
  std::int64_t blocks = 1;
  std::int64_t threads = 1;
  std::int64_t a_offset = 0;
  std::int64_t b_offset = 0;
  std::int64_t c_offset = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("blocks", blocks), visit("threads", threads), visit("a_offset", a_offset),
        visit("b_offset", b_offset), visit("c_offset", c_offset);
  }
};
inline const course::check::Request<HypotOffsets> hypot_offsets{"hypot_offsets"};

// occupancy_grid_blocks for each of kOccupancyBlockSizes.
inline const course::check::Request<course::check::NoParams> occupancy{"occupancy"};

// hypot_on_device timed against the runner's one-thread-per-element kernel, after a probe
// on the first elements unless `probe` is false (under compute-sanitizer).
struct HypotSpeed {
  std::int64_t n = 0;
  int repetitions = 1;
  bool probe = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("repetitions", repetitions), visit("probe", probe);
  }
};
inline const course::check::Request<HypotSpeed> hypot_speed{"hypot_speed"};
}  // namespace request

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
