// Exercise 23 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/stream_probes.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "runs.cuh"
#include "stream_overlap.hpp"
#include "workload.hpp"

namespace {

using stream_overlap::best_of;
using stream_overlap::chunks_with_markers;
using stream_overlap::kMostStreams;
using stream_overlap::kSampledElements;
using stream_overlap::measure_parts;
using stream_overlap::Parts;
using stream_overlap::Workspace;
namespace asked = stream_overlap::request;
namespace result = stream_overlap::result;

void run_pinned_case(const asked::Pinned& p, std::uint64_t seed,
                     course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  float* host = allocate_pinned(n);
  results.put(result::allocated, static_cast<std::int64_t>(host != nullptr));
  results.put(result::pinned, static_cast<std::int64_t>(course::is_pinned_host(host)));
  if (host == nullptr) return;
  // Every element can be written and read back through a copy (the buffer is n floats).
  course::DeviceBuffer<float> device(stream_overlap::make_input(n, seed));
  CUDA_CHECK(cudaMemcpy(host, device.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  results.put(result::copied, std::vector<float>(host, host + n));
  free_pinned(host);
  results.put(result::pinned_after_free, static_cast<std::int64_t>(course::is_pinned_host(host)));
}

void run_streams_case(const asked::Streams& p, course::check::ResultWriter& results) {
  const int count = static_cast<int>(p.count);
  const long long live_before = course::check::live_streams();
  std::vector<cudaStream_t> streams = create_streams(count);
  std::vector<cudaStream_t> distinct = streams;
  std::sort(distinct.begin(), distinct.end());
  const bool all_distinct =
      std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end() &&
      std::find(distinct.begin(), distinct.end(), nullptr) == distinct.end();
  std::int64_t non_blocking = 0;
  for (const cudaStream_t stream : streams) {
    unsigned flags = 0;
    if (stream != nullptr && cudaStreamGetFlags(stream, &flags) == cudaSuccess &&
        (flags & cudaStreamNonBlocking) != 0) {
      ++non_blocking;
    }
  }
  cudaGetLastError();
  results.put(result::count, static_cast<std::int64_t>(streams.size()));
  results.put(result::distinct, static_cast<std::int64_t>(all_distinct));
  results.put(result::non_blocking, non_blocking);
  results.put(result::created,
              static_cast<std::int64_t>(course::check::live_streams() - live_before));
  destroy_streams(streams);
  results.put(result::emptied, static_cast<std::int64_t>(streams.empty()));
  results.put(result::left_after_destroy,
              static_cast<std::int64_t>(course::check::live_streams() - live_before));
}

// One chunk of a poisoned output: only [first, first + count) may change.
void run_chunk_case(const asked::Chunk& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const std::size_t first = static_cast<std::size_t>(p.first);
  const std::size_t count = static_cast<std::size_t>(p.count);
  const int work = static_cast<int>(p.work);
  Workspace w(n, seed);
  const course::Streams stream(1);
  enqueue_chunk(w.buffers(), first, count, work, stream[0]);
  // The whole device, not the stream: the chunk is graded here, the stream it used elsewhere.
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put(result::out, std::vector<float>(w.host_out.data(), w.host_out.data() + n));
}

// The student's run_pipeline on the runner's pinned buffers and non-blocking streams:
// whether it waited, what it computed, the time it returned.
void run_pipeline_case(const asked::Pipeline& p, std::uint64_t seed,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const std::size_t chunk = static_cast<std::size_t>(p.chunk);
  const int work = static_cast<int>(p.work);
  Workspace w(n, seed);
  const course::Streams streams(static_cast<int>(p.streams));
  CUDA_CHECK(cudaDeviceSynchronize());
  const float reported_ms = run_pipeline(w.buffers(), n, work, chunk, streams.get());
  // Asked first, before anything else can let the queued work finish.
  results.put(result::busy_streams, course::busy_streams(streams.get()));
  results.put(result::busy_default_stream, static_cast<std::int64_t>(course::stream_busy(nullptr)));
  results.put(result::out, std::vector<float>(w.host_out.data(), w.host_out.data() + n));
  results.put(result::reported_ms, static_cast<double>(reported_ms));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The shape a timed case asks for: the runner's own, or the student's choose_shape.
PipelineShape requested_shape(const asked::Overlap& p, std::size_t n) {
  if (p.shape == asked::Shape::student) return choose_shape(n);
  return PipelineShape{static_cast<std::size_t>(p.chunk), static_cast<int>(p.streams)};
}

// The timed case: the parts, measured alone, with the work balanced (or the one given);
// then the student's pipeline at the shape asked for, timed around the call.
void run_overlap_case(const asked::Overlap& p, std::uint64_t seed,
                      course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const int repetitions = static_cast<int>(p.repetitions);
  const int rounds = static_cast<int>(p.rounds);
  const int given_work = static_cast<int>(p.work);  // 0: balance
  const bool markers = p.markers;
  Workspace w(n, seed);
  Parts parts = measure_parts(w, given_work, given_work == 0, repetitions);
  const int work = parts.work;
  const PipelineShape shape = requested_shape(p, n);
  results.put(result::chunk, static_cast<std::int64_t>(shape.chunk));
  results.put(result::streams, static_cast<std::int64_t>(shape.streams));
  results.put(result::work, static_cast<std::int64_t>(work));
  if (shape.chunk < 1 || shape.streams < 1 || shape.streams > kMostStreams) return;

  const Buffers buffers = w.buffers();
  std::vector<cudaStream_t> student_streams;
  const course::Streams own(shape.streams);
  if (markers) student_streams = create_streams(shape.streams);
  const std::vector<cudaStream_t>& streams = markers ? student_streams : own.get();
  if (streams.size() != static_cast<std::size_t>(shape.streams)) {
    results.put(result::streams_made, static_cast<std::int64_t>(streams.size()));
    return;
  }
  // The first call is judged: it waits, it computes every element.
  w.poison_outputs();
  CUDA_CHECK(cudaDeviceSynchronize());
  course::WallTimer first_call;
  float reported_ms = run_pipeline(buffers, n, work, shape.chunk, streams);
  double call_ms = first_call.elapsed_ms();
  results.put(result::busy_streams, course::busy_streams(streams));
  results.put(result::busy_default_stream, static_cast<std::int64_t>(course::stream_busy(nullptr)));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> sampled;
  for (const std::size_t i : course::spread_indices(n, kSampledElements)) {
    sampled.push_back(w.host_out.data()[i]);
  }
  results.put(result::sampled_out, sampled);

  // The timed calls of the student's code are audited (timed_call.hpp): each must write
  // the whole of host_out, and its clock stops only once every stream it used is done.
  const std::vector<course::check::TimedOutput> host_out = {
      course::check::timed_output(w.host_out.data(), n)};
  float reported = 0.0f;
  auto pipeline = course::check::student_call(host_out, [&] {
    reported = run_pipeline(buffers, n, work, shape.chunk, streams);
  });
  double pipeline_ms = 0.0, plain_ms = 0.0, marked_ms = 0.0;
  for (int round = 0; round < rounds; ++round) {
    if (round > 0) parts = best_of(parts, measure_parts(w, work, false, repetitions));
    std::vector<double> calls;
    for (int r = 0; r < repetitions; ++r) {
      CUDA_CHECK(cudaDeviceSynchronize());
      calls.push_back(course::time_host_call(pipeline, r, repetitions));
      // The report and the call it came from stay together.
      if (reported < reported_ms) {
        reported_ms = reported;
        call_ms = calls.back();
      }
    }
    // The fastest call: the pipeline is enqueued by this thread, and a call during which
    // the thread lost its core to another process (a machine busy compiling) shows the
    // scheduler, not the streams. The parts, one operation each, are timed on the device.
    const double fastest = *std::min_element(calls.begin(), calls.end());
    pipeline_ms = round == 0 ? fastest : std::min(pipeline_ms, fastest);
    if (markers) {
      const auto loop = [&](std::optional<cudaStream_t> marker) {
        double loop_ms = 0.0;
        auto chunks = course::check::student_call(host_out, [&] {
          loop_ms = chunks_with_markers(buffers, n, work, shape.chunk, streams, marker);
        });
        std::vector<double> times;
        for (int r = 0; r < repetitions; ++r) {
          // chunks_with_markers times itself, its clock stopped after a cudaDeviceSynchronize:
          // the audited call's own wall time is not the one kept.
          course::time_host_call(chunks, r, repetitions);
          times.push_back(loop_ms);
        }
        return *std::min_element(times.begin(), times.end());
      };
      const double plain = loop(std::nullopt);
      const double marked = loop(cudaStreamLegacy);
      plain_ms = round == 0 ? plain : std::min(plain_ms, plain);
      marked_ms = round == 0 ? marked : std::min(marked_ms, marked);
    }
  }
  if (markers) destroy_streams(student_streams);
  results.put(result::to_device_ms, parts.to_device_ms);
  results.put(result::to_host_ms, parts.to_host_ms);
  results.put(result::both_copies_ms, parts.both_ms);
  results.put(result::kernel_ms, parts.kernel_ms);
  results.put(result::serial_ms, parts.serial_ms);
  results.put(result::pipeline_ms, pipeline_ms);
  results.put(result::reported_ms, static_cast<double>(reported_ms));
  results.put(result::call_ms, call_ms);
  results.put(result::plain_loop_ms, plain_ms);
  results.put(result::marked_loop_ms, marked_ms);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::pinned)) {
    run_pinned_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::streams)) {
    run_streams_case(*p, results);
  } else if (const auto p = request.as(asked::chunk)) {
    run_chunk_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::pipeline)) {
    run_pipeline_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::overlap)) {
    run_overlap_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
