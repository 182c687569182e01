// Exercise 17: what the program and its check must agree on - the inputs of every run
// drawn from a seed, the CPU reference, and the results a case reports. The block size
// and the kernels' name expressions are the student's contract: nvrtc_streams.hpp.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it.
//
// Used by:  make 17 && make run-17 (the program), make check-17 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

namespace nvrtc_streams {

// A CUBIN is an ELF image and starts with these four bytes; PTX is text.
inline constexpr char kElfMagic[] = {0x7f, 'E', 'L', 'F'};

// x and y uniform in [-8, 8), a = 1.75 (or what a case sets): a * x + y never
// overflows, and its rounding is where a second rounding (no FMA) would show.
inline constexpr float kInputLimit = 8.0f;
inline constexpr double kDefaultFactor = 1.75;

inline constexpr std::uint64_t kXSalt = 1;
inline constexpr std::uint64_t kYSalt = 2;

template <typename T>
std::vector<T> make_input(std::size_t n, std::uint64_t seed, std::uint64_t salt) {
  const std::vector<float> values =
      course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, salt));
  std::vector<T> out(values.begin(), values.end());
  // A double input gets bits below float's precision too, so that a double kernel
  // computed in float shows.
  if constexpr (sizeof(T) == sizeof(double)) {
    for (std::size_t i = 0; i < n; ++i) out[i] += out[i] * 1e-9 * static_cast<double>(i % 7 + 1);
  }
  return out;
}
template <typename T>
std::vector<T> make_x(std::size_t n, std::uint64_t seed) {
  return make_input<T>(n, seed, kXSalt);
}
template <typename T>
std::vector<T> make_y(std::size_t n, std::uint64_t seed) {
  return make_input<T>(n, seed, kYSalt);
}

// out = a * x + y as the GPU computes it with FMA contraction on (nvcc's and NVRTC's
// default, --fmad=true): one fused multiply-add, rounded once. std::fma rounds once
// too, so the two agree bit for bit.
template <typename T>
std::vector<T> saxpy_reference(T a, const std::vector<T>& x, const std::vector<T>& y) {
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = std::fma(a, x[i], y[i]);
  return out;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
using course::check::NoParams;
using course::check::Request;

// use_primary_context; the architecture option; the module and context given back.
inline const Request<NoParams> context{"context"};
inline const Request<NoParams> architecture{"architecture"};
inline const Request<NoParams> clean_up{"clean_up"};

// compile_to_cubin on `source` (its float instantiation), or, when empty, on the course's
// SAXPY source (both instantiations).
struct Compile {
  std::string source;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("source", source);
  }
};
inline const Request<Compile> compile{"compile"};

// The element type of a SAXPY, as the check names it.
enum class Element { float32, float64 };
inline std::vector<std::pair<Element, std::string>> choices(Element) {
  return {{Element::float32, "float"}, {Element::float64, "double"}};
}

// saxpy<type> through the driver API and nvcc's build of the same kernel, on n elements.
struct Saxpy {
  Element type = Element::float32;
  std::uint64_t n = 0;
  double a = kDefaultFactor;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("type", type), visit("n", n), visit("a", a);
  }
};
inline const Request<Saxpy> saxpy{"saxpy"};

// A pipeline of `streams` streams: saxpy_one_stream when chunk is 0, else saxpy_chunked.
struct Pipeline {
  std::uint64_t n = 0;
  std::uint64_t chunk = 0;
  int streams = 1;
  double a = kDefaultFactor;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("chunk", chunk), visit("streams", streams), visit("a", a);
  }
};
inline const Request<Pipeline> pipeline{"pipeline"};

// The NVRTC build's kernel timed against nvcc's: `rounds` rounds, each the median of
// `repetitions` launches.
struct KernelSpeed {
  std::uint64_t n = 0;
  int repetitions = 1;
  int rounds = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("repetitions", repetitions), visit("rounds", rounds);
  }
};
inline const Request<KernelSpeed> kernel_speed{"kernel_speed"};

// saxpy_chunked timed against saxpy_one_stream and the pipeline's parts.
struct Overlap {
  std::uint64_t n = 0;
  std::uint64_t chunk = 0;
  int streams = 1;
  int repetitions = 1;
  int rounds = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("chunk", chunk), visit("streams", streams),
        visit("repetitions", repetitions), visit("rounds", rounds);
  }
};
inline const Request<Overlap> overlap{"overlap"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
using course::check::Array;
using course::check::Text;
using course::check::Value;

// use_primary_context, with no context current: 1 when right, else 0.
inline const Value<std::int64_t> current_is_primary{"current_is_primary"};
inline const Value<std::int64_t> current_is_none{"current_is_none"};
inline const Value<std::int64_t> device_is_ordinal{"device_is_ordinal"};

// architecture_option: the option, the device's compute capability, and what a one-line
// kernel compiled with it gave (a CUBIN of this many bytes, loaded or not, and the
// architecture it holds, 10 * major + minor).
inline const Text option{"option"};
inline const Value<std::int64_t> cc_major{"cc_major"};
inline const Value<std::int64_t> cc_minor{"cc_minor"};
inline const Value<std::int64_t> compiled{"compiled"};
inline const Text load_error{"load_error"};
inline const Value<std::int64_t> binary_version{"binary_version"};

// compile_to_cubin (and the architecture probe): success, NVRTC's log, the CUBIN's size
// and first four bytes, the lowered names, one a line.
inline const Value<std::int64_t> succeeded{"succeeded"};
inline const Text log{"log"};
inline const Value<std::int64_t> cubin_bytes{"cubin_bytes"};
inline const Text cubin_head{"cubin_head"};
inline const Value<std::int64_t> lowered_count{"lowered_count"};
inline const Text lowered_names{"lowered_names"};

// Every case that compiles and loads SAXPY: whether both kernels loaded.
inline const Value<std::int64_t> loaded{"loaded"};

// The clean-up case: the modules loaded and unloaded, the primary context's references
// retained and released, by the student's calls alone.
inline const Value<std::int64_t> modules_loaded{"modules_loaded"};
inline const Value<std::int64_t> modules_unloaded{"modules_unloaded"};
inline const Value<std::int64_t> retained{"retained"};
inline const Value<std::int64_t> released{"released"};

// saxpy<T>'s output through launch_saxpy or a pipeline, and the same kernel compiled by
// nvcc on the same inputs: one record name for float and double, a key per type.
template <typename T>
inline const Array<T> out{"out"};
template <typename T>
inline const Array<T> nvcc_out{"nvcc_out"};

// A pipeline: whether it was usable, how many of its host buffers are pinned, how many
// streams still had work when the function returned, how many buffers outlived
// free_pipeline.
inline const Value<std::int64_t> allocated{"allocated"};
inline const Value<std::int64_t> pinned_buffers{"pinned_buffers"};
inline const Value<std::int64_t> busy_streams{"busy_streams"};
inline const Value<std::int64_t> still_allocated{"still_allocated"};

// The kernel's speed: the best median of the NVRTC and nvcc builds, and the compilation.
inline const Value<double> nvrtc_ms{"nvrtc_ms"};
inline const Value<double> nvcc_ms{"nvcc_ms"};
inline const Value<double> compile_ms{"compile_ms"};

// The overlap case: the one-stream pipeline's parts alone, and both pipelines whole.
inline const Value<double> to_device_ms{"to_device_ms"};
inline const Value<double> kernel_ms{"kernel_ms"};
inline const Value<double> to_host_ms{"to_host_ms"};
inline const Value<double> one_stream_ms{"one_stream_ms"};
inline const Value<double> chunked_ms{"chunked_ms"};
}  // namespace result

}  // namespace nvrtc_streams
