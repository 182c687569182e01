// Exercise 08: what the program, the Python caller and the check must agree on - the
// inputs of every case, drawn from a seed, the sizes of the error cases, and the results
// a case reports.
//
// Plain C++ (the check includes it, compiled without nvcc).
// Used by:  make 08 && make run-08 (the program), make check-08 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

namespace veclib_workload {

// saxpy's inputs are uniform in [-kSaxpyRange, kSaxpyRange): both signs, so that
// a x + y sometimes nearly cancels.
inline constexpr float kSaxpyRange = 2.0f;
inline constexpr float kSaxpyA = 2.5f;
// clamp's inputs are uniform in [-kClampRange, kClampRange), wider than [kClampLo,
// kClampHi], so that both bounds clamp many elements and many pass unchanged.
inline constexpr float kClampRange = 4.0f;
inline constexpr float kClampLo = -1.0f;
inline constexpr float kClampHi = 1.5f;

// More floats than any GPU holds (2^40 floats = 4 TiB per array): cudaMalloc fails
// with cudaErrorMemoryAllocation, and the library must say VECLIB_ERROR_OUT_OF_MEMORY.
inline constexpr std::size_t kTooManyElements = std::size_t{1} << 40;
// Seed salts, so that x and y of one case differ.
inline constexpr std::uint64_t kSaltX = 1;
inline constexpr std::uint64_t kSaltY = 2;

inline std::vector<float> saxpy_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kSaxpyRange, kSaxpyRange, course::derive_seed(seed, kSaltX));
}
inline std::vector<float> saxpy_y(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kSaxpyRange, kSaxpyRange, course::derive_seed(seed, kSaltY));
}
inline std::vector<float> clamp_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kClampRange, kClampRange, course::derive_seed(seed, kSaltX));
}

// What the check asks for (harness/check.cpp) and a case computes: harness/cases.cu for the
// C cases, veclib.py for the Python ones, which reads the same words.
namespace request {
struct Size {
  std::size_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
// The C cases, each on n elements drawn from the seed.
inline const course::check::Request<Size> saxpy{"saxpy"};
// vec_saxpy with n = 0 first.
inline const course::check::Request<Size> saxpy_after_empty{"saxpy_after_empty"};
inline const course::check::Request<Size> clamp{"clamp"};
inline const course::check::Request<Size> null_pointers{"null_pointers"};
inline const course::check::Request<Size> invalid_values{"invalid_values"};
inline const course::check::Request<Size> out_of_memory{"out_of_memory"};
inline const course::check::Request<Size> error_path_frees{"error_path_frees"};

// The Python cases: the inputs come in raw float32 files the check wrote.
namespace python {
struct Saxpy {
  float a = 0.0f;
  std::string x_file;
  std::string y_file;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("a", a), visit("x_file", x_file), visit("y_file", y_file);
  }
};
struct Clamp {
  float lo = 0.0f;
  float hi = 0.0f;
  std::string x_file;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("lo", lo), visit("hi", hi), visit("x_file", x_file);
  }
};
inline const course::check::Request<Saxpy> saxpy{"saxpy"};
inline const course::check::Request<Clamp> clamp{"clamp"};
// The failing calls, then a valid saxpy.
inline const course::check::Request<Saxpy> errors{"errors"};
}  // namespace python
}  // namespace request

// What a case reports (harness/cases.cu for the C cases, veclib.py for the Python ones,
// which spells the same names) and the check reads (harness/check.cpp). A status is a
// veclib_status as an int32.
namespace result {
using course::check::Array;
using course::check::Value;
// The last valid call's status, and its array after it (C and Python).
inline const Value<std::int32_t> status{"status"};
inline const Array<float> y{"y"};  // saxpy
inline const Array<float> x{"x"};  // clamp
// vec_saxpy with n = 0, and its (empty, guarded) y.
inline const Value<std::int32_t> empty_status{"empty_status"};
inline const Array<float> empty_y{"empty_y"};
// The calls with a NULL array.
inline const Value<std::int32_t> null_x_status{"null_x_status"};
inline const Value<std::int32_t> null_y_status{"null_y_status"};
inline const Value<std::int32_t> null_y_empty_status{"null_y_empty_status"};
inline const Value<std::int32_t> null_clamp_status{"null_clamp_status"};
// clamp with lo > hi (C and Python), with a NaN bound, with n whose bytes overflow.
inline const Value<std::int32_t> reversed_status{"reversed_status"};
inline const Value<std::int32_t> nan_status{"nan_status"};
inline const Value<std::int32_t> overflow_status{"overflow_status"};
// saxpy of kTooManyElements (C and Python), and the lengths of the texts that say why.
inline const Value<std::int32_t> oom_status{"oom_status"};
inline const Value<std::int64_t> oom_message_length{"oom_message_length"};
inline const Value<std::int64_t> oom_text_length{"oom_text_length"};
// The arrays after the failed calls (y: C and Python).
inline const Array<float> y_after_errors{"y_after_errors"};
inline const Array<float> x_after_errors{"x_after_errors"};
// Python only: 1 when ctypes refused a float64 array before calling the library.
inline const Value<std::int32_t> float64_refused{"float64_refused"};
}  // namespace result

}  // namespace veclib_workload
