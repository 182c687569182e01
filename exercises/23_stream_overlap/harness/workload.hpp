// Exercise 23: what the program and its check must agree on - the element-wise
// computation whose cost the runner tunes, the inputs drawn from a seed, the CPU
// reference, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// stream_overlap.hpp includes it for the student's code and the kernel.
//
// Used by:  make 23 && make run-23 (the program), make check-23 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

#if defined(__CUDACC__)
#define STREAM_OVERLAP_HOST_DEVICE __host__ __device__
#else
#define STREAM_OVERLAP_HOST_DEVICE
#endif

namespace stream_overlap {

// The computation: y <- y / 2 + x, `work` times, from y = x: a chain of dependent fused
// multiply-adds that no compiler can shorten, whose time grows linearly with `work`.
// It heads for 2x, so every output still depends on its own input (a chunk copied back
// to the wrong place shows). fmaf rounds once on the GPU and std::fma on the CPU: both
// give the same bits.
inline constexpr float kHalf = 0.5f;

STREAM_OVERLAP_HOST_DEVICE inline float transform(float x, int work) {
  float y = x;
  for (int k = 0; k < work; ++k) {
#if defined(__CUDA_ARCH__)
    y = fmaf(y, kHalf, x);
#else
    y = std::fma(y, kHalf, x);
#endif
  }
  return y;
}

// Inputs uniform in [-8, 8): never all zero, of both signs.
inline constexpr float kInputLimit = 8.0f;

inline std::vector<float> make_input(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, seed);
}

inline std::vector<float> reference(const std::vector<float>& in, int work) {
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = transform(in[i], work);
  return out;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
namespace request {
// allocate_pinned(n), filled through a copy, then free_pinned.
struct Pinned {
  std::uint64_t n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const course::check::Request<Pinned> pinned{"pinned"};
// create_streams(count), then destroy_streams.
struct Streams {
  std::int64_t count = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("count", count);
  }
};
inline const course::check::Request<Streams> streams{"streams"};
// enqueue_chunk on [first, first + count) of n poisoned outputs, `work` iterations each.
struct Chunk {
  std::uint64_t n = 0;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
  std::int64_t work = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("first", first), visit("count", count), visit("work", work);
  }
};
inline const course::check::Request<Chunk> chunk{"chunk"};
// run_pipeline on n elements in chunks of `chunk` over `streams` non-blocking streams.
struct Pipeline {
  std::uint64_t n = 0;
  std::uint64_t chunk = 0;
  std::int64_t streams = 0;
  std::int64_t work = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("chunk", chunk), visit("streams", streams), visit("work", work);
  }
};
inline const course::check::Request<Pipeline> pipeline{"pipeline"};
// Whose shape a timed case runs: the runner's (chunk and streams as asked) or the
// student's choose_shape.
enum class Shape { runner, student };
inline std::vector<std::pair<Shape, std::string>> choices(Shape) {
  return {{Shape::runner, "runner"}, {Shape::student, "student"}};
}
// The timed case: the parts measured alone with `work` iterations (0: balanced with the
// copies), then run_pipeline at the shape, the best of `rounds` rounds of `repetitions`
// calls; `markers` runs the chunks on the student's create_streams with and without an
// empty kernel on the legacy default stream after each.
struct Overlap {
  std::uint64_t n = 0;
  Shape shape = Shape::runner;
  std::uint64_t chunk = 0;
  std::int64_t streams = 0;
  std::int64_t work = 0;
  bool markers = false;
  std::int64_t repetitions = 0;
  std::int64_t rounds = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("shape", shape), visit("chunk", chunk), visit("streams", streams),
        visit("work", work), visit("markers", markers), visit("repetitions", repetitions),
        visit("rounds", rounds);
  }
};
inline const course::check::Request<Overlap> overlap{"overlap"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp). A flag
// is an i64 of 0 or 1.
namespace result {
using course::check::Array;
using course::check::Value;

// The case "pinned": allocate_pinned and free_pinned.
inline const Value<std::int64_t> allocated{"allocated"};  // not nullptr
inline const Value<std::int64_t> pinned{"pinned"};        // page-locked, for the driver
inline const Array<float> copied{"copied"};  // every element, written by a copy from the device
inline const Value<std::int64_t> pinned_after_free{"pinned_after_free"};

// The case "streams": create_streams and destroy_streams.
inline const Value<std::int64_t> count{"count"};                // streams returned
inline const Value<std::int64_t> distinct{"distinct"};          // all different, none the default
inline const Value<std::int64_t> non_blocking{"non_blocking"};  // how many opt out
inline const Value<std::int64_t> created{"created"};            // streams alive more than before
inline const Value<std::int64_t> emptied{"emptied"};  // destroy_streams emptied the vector
inline const Value<std::int64_t> left_after_destroy{"left_after_destroy"};

// The cases "chunk" and "pipeline": the whole host output.
inline const Array<float> out{"out"};

// The cases "pipeline" and "overlap": what run_pipeline left queued when it returned, and
// the time it returned (the best call's, in "overlap").
inline const Value<std::int64_t> busy_streams{"busy_streams"};
inline const Value<std::int64_t> busy_default_stream{"busy_default_stream"};
inline const Value<double> reported_ms{"reported_ms"};

// The case "overlap": the shape run, its output at spread indices, and the times: the
// parts each alone, the fastest call (wall time), the call that reported_ms came from,
// and the chunk loop alone and with an empty kernel on stream 0 after each chunk.
inline const Value<std::int64_t> chunk{"chunk"};
inline const Value<std::int64_t> streams{"streams"};
inline const Value<std::int64_t> work{"work"};
inline const Value<std::int64_t> streams_made{"streams_made"};  // only when not as asked
inline const Array<float> sampled_out{"sampled_out"};
inline const Value<double> to_device_ms{"to_device_ms"};
inline const Value<double> to_host_ms{"to_host_ms"};
inline const Value<double> both_copies_ms{"both_copies_ms"};
inline const Value<double> kernel_ms{"kernel_ms"};
inline const Value<double> serial_ms{"serial_ms"};
inline const Value<double> pipeline_ms{"pipeline_ms"};
inline const Value<double> call_ms{"call_ms"};
inline const Value<double> plain_loop_ms{"plain_loop_ms"};
inline const Value<double> marked_loop_ms{"marked_loop_ms"};
}  // namespace result

}  // namespace stream_overlap
