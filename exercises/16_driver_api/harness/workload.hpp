// Exercise 16: what the program and its check must agree on - the inputs of every run,
// drawn from a seed, their references, and the results a case reports. The launch
// configuration and the kernels' names are the student's contract: driver_api.hpp.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it.
//
// Used by:  make 16 && make run-16 (the program), make check-16 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

namespace driver_api {

// The sizes whose block count the check asks blocks_for for: empty, less than a block, a
// block and one more, the largest grid and one element past it, and sizes far beyond.
inline constexpr std::size_t kBlocksForSizes[] = {
    0, 1, 255, 256, 257, 1000, 262144, 262145, 262401, 999999, 1000000000, std::size_t{5} << 32};

// saxpy's inputs: floats in [-1, 1), and a in [0.5, 2).
inline constexpr float kInputLimit = 1.0f;
inline constexpr std::uint64_t kXSalt = 1;
inline constexpr std::uint64_t kYSalt = 2;
inline constexpr std::uint64_t kShapeSalt = 3;

inline std::vector<float> make_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kXSalt));
}
inline std::vector<float> make_y(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kYSalt));
}
inline float make_a(std::uint64_t seed) {
  course::Rng rng(course::derive_seed(seed, kShapeSalt));
  return rng.uniform(0.5f, 2.0f);
}

// a * x + y in float is the exact value rounded at most twice (the product, then the sum;
// or once, fused): within 2 ulp of the double-precision value, relative to the larger
// term, which is at most 3 (|a| < 2, |x|, |y| < 1): 3 * 2 * 2^-24 ~ 3.6e-7 absolute.
inline constexpr course::Tolerance kSaxpyTolerance{4e-7, 0.0};

inline std::vector<double> saxpy_reference(float a, const std::vector<float>& x,
                                           const std::vector<float>& y) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = static_cast<double>(a) * x[i] + y[i];
  return out;
}

// The sawtooth: out[k] = amplitude * ((first + k) % period). (first + k) % period is an
// integer below 2^24, exact in float; the product is rounded once: half an ulp, 6e-8
// relative. Any other formula is off by a whole step of the ramp.
inline constexpr course::Tolerance kSawtoothTolerance{0.0, 1.2e-7};

inline std::vector<double> sawtooth_reference(std::uint64_t first, int period, float amplitude,
                                              std::size_t n) {
  std::vector<double> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[k] = static_cast<double>(amplitude) * static_cast<double>((first + k) % period);
  }
  return out;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
using course::check::NoParams;
using course::check::Request;

// open_primary_context and close_primary_context, in a process of its own.
inline const Request<NoParams> context{"context"};

// load_module on a missing file, find_kernel with a name the PTX does not hold.
struct LoadFailures {
  std::string missing_path;
  std::string wrong_name;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("missing_path", missing_path), visit("wrong_name", wrong_name);
  }
};
inline const Request<LoadFailures> load_failures{"load_failures"};

// blocks_for for each n of kBlocksForSizes.
inline const Request<NoParams> blocks_for{"blocks_for"};

// launch_saxpy on n elements; saxpy_round_trip on n elements.
struct Saxpy {
  std::uint64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const Request<Saxpy> saxpy{"saxpy"};
inline const Request<Saxpy> round_trip{"round_trip"};

// launch_sawtooth: n samples of amplitude * ((first + k) % period).
struct Sawtooth {
  std::uint64_t n = 0;
  std::uint64_t first = 0;
  int period = 1;
  float amplitude = 1.0f;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("first", first), visit("period", period), visit("amplitude", amplitude);
  }
};
inline const Request<Sawtooth> sawtooth{"sawtooth"};

// saxpy_from_ptx on n elements, alone in its process; `path` empty: the build's PTX.
struct WholeProgram {
  std::uint64_t n = 0;
  std::string path;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("path", path);
  }
};
inline const Request<WholeProgram> whole_program{"whole_program"};

// The clean-up counted by hand, through saxpy_from_ptx, and through it on missing_path.
struct CleanUp {
  std::string missing_path;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("missing_path", missing_path);
  }
};
inline const Request<CleanUp> clean_up{"clean_up"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
using course::check::Array;
using course::check::Family;
using course::check::Text;
using course::check::Value;

// The context case: whether the device's primary context is active (1) or not (0)...
inline const Value<std::int64_t> active_before{"active_before"};
inline const Value<std::int64_t> active_after_open{"active_after_open"};
inline const Value<std::int64_t> active_after_close{"active_after_close"};
// ...and what open_primary_context returned: 1 when right.
inline const Value<std::int64_t> returned_primary{"returned_primary"};
inline const Value<std::int64_t> primary_current{"primary_current"};
inline const Value<std::int64_t> device_right{"device_right"};

// load_module and find_kernel on a missing file and a missing kernel, and the driver's
// name and description of CUDA_ERROR_NOT_FOUND.
inline const Value<std::int64_t> missing_loaded{"missing_loaded"};
inline const Text missing_error{"missing_error"};
inline const Value<std::int64_t> wrong_name_found{"wrong_name_found"};
inline const Text wrong_name_error{"wrong_name_error"};
inline const Text not_found_name{"not_found_name"};
inline const Text not_found_text{"not_found_text"};
inline const Value<std::int64_t> saxpy_found{"saxpy_found"};

// Every case that loads the kernels: whether they loaded, and the error if not.
inline const Value<std::int64_t> loaded{"loaded"};
inline const Text load_error{"load_error"};

// blocks_for(n) for each n of kBlocksForSizes.
inline const Array<std::int64_t> blocks{"blocks"};
// saxpy's y (the saxpy, round_trip and whole_program cases); sawtooth's samples.
inline const Array<float> y{"y"};
inline const Array<float> out{"out"};

// The round trip: how many of the two buffers are live allocations of n floats, after
// allocate_saxpy_buffers and after free_saxpy_buffers.
inline const Value<std::int64_t> buffers_allocated{"buffers_allocated"};
inline const Value<std::int64_t> buffers_left{"buffers_left"};

// saxpy_from_ptx: its return value and error, and the primary context's state after it.
inline const Value<std::int64_t> ran{"ran"};
inline const Text error{"error"};
inline const Value<std::int64_t> active_after{"active_after"};

// The clean-up case: whether saxpy_from_ptx ran, and per round ("by_hand", "whole",
// "missing") the modules loaded and unloaded and the primary context's references taken
// and given back.
inline const Value<std::int64_t> whole_ran{"whole_ran"};
inline const Family<Value<std::int64_t>> modules_loaded{"", "_loaded"};
inline const Family<Value<std::int64_t>> modules_unloaded{"", "_unloaded"};
inline const Family<Value<std::int64_t>> primary_retained{"", "_retained"};
inline const Family<Value<std::int64_t>> primary_released{"", "_released"};
}  // namespace result

}  // namespace driver_api
