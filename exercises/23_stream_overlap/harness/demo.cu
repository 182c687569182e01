// Exercise 23 - the demo (`make run-23`): the parts of the work on the whole array, each
// alone (copy in, copy back, both copies at once, the kernel with its work set so that it
// takes as long as the copies), the serial pipeline, then the student's pipeline over a
// table of chunk sizes and stream counts, the legacy default stream serialising streams
// that do not opt out of it, and pageable memory overlapping nothing. Every result is
// compared with its reference before it is shown or timed (course/demo_results.hpp).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/stream_probes.hpp"
#include "course/table.hpp"
#include "course/verify.hpp"
#include "runs.cuh"
#include "stream_overlap.hpp"
#include "workload.hpp"

namespace {

using stream_overlap::chunks_with_markers;
using stream_overlap::kMostStreams;
using stream_overlap::kSampledElements;
using stream_overlap::measure_parts;
using stream_overlap::Parts;
using stream_overlap::Workspace;

constexpr std::uint64_t kDemoSeed = 23;
constexpr std::size_t kDemoElements = std::size_t{1} << 25;  // 128 MiB each way
constexpr int kDemoRepetitions = 5;
constexpr std::size_t kDemoChunkCounts[] = {1, 4, 16, 64};
constexpr int kDemoStreamCounts[] = {1, 2, 4, 8};
constexpr std::size_t kDemoMarkerChunks = 16;
constexpr int kDemoMarkerStreams = 4;

struct DemoFunctions {
  course::StudentFunction allocate{"allocate_pinned"};
  course::StudentFunction streams{"create_streams"};
  course::StudentFunction pipeline{"run_pipeline"};
  course::StudentFunction shape{"choose_shape"};
};

// The student's pipeline on `buffers` (its output poisoned first), judged at spread
// indices against the CPU; its wall time (median) when right, else 0.
double demo_pipeline(course::StudentFunction& function, const Buffers& buffers,
                     const std::vector<float>& in, std::size_t n, int work, std::size_t chunk,
                     const std::vector<cudaStream_t>& streams, const std::string& what,
                     float* reported_ms = nullptr) {
  course::poison(buffers.host_out, n);
  const float reported = run_pipeline(buffers, n, work, chunk, streams);
  const course::Comparison comparison = course::compare_at(
      buffers.host_out, course::spread_indices(n, kSampledElements),
      [&](std::size_t i) { return stream_overlap::transform(in[i], work); }, course::kExact);
  if (!function.judge(comparison, what).right) return 0.0;
  if (reported_ms != nullptr) *reported_ms = reported;
  return course::time_host([&] { run_pipeline(buffers, n, work, chunk, streams); }, 1,
                           kDemoRepetitions)
      .median_ms;
}

void print_parts(const Parts& p, std::size_t n) {
  const double bytes = static_cast<double>(n) * sizeof(float);
  std::printf("The parts on the whole array (%zu floats, %.0f MiB each way), each alone:\n", n,
              bytes / (1 << 20));
  std::printf("  copy in         %8.3f ms  %6.1f GB/s\n", p.to_device_ms,
              course::gigabytes_per_second(bytes, p.to_device_ms));
  std::printf("  copy back       %8.3f ms  %6.1f GB/s\n", p.to_host_ms,
              course::gigabytes_per_second(bytes, p.to_host_ms));
  std::printf("  both at once    %8.3f ms  %6.1f GB/s together: the copy time\n", p.both_ms,
              course::gigabytes_per_second(2.0 * bytes, p.both_ms));
  std::printf("  kernel          %8.3f ms  (work = %d, chosen so that it takes the copy time)\n",
              p.kernel_ms, p.work);
  std::printf("  serial          %8.3f ms  (copy in, kernel, copy back on one stream)\n",
              p.serial_ms);
  std::printf("  bound           %8.3f ms  = max(copy time, kernel)\n\n",
              std::max(p.both_ms, p.kernel_ms));
}

// The pipeline over a table of shapes (a table of the benchmark report too); returns
// false when it is not right.
bool demo_shapes(DemoFunctions& f, Workspace& w, const std::vector<float>& in, const Parts& p) {
  const std::size_t n = w.size();
  course::Table table("pipeline_shapes", "run_pipeline by chunk count and stream count",
                      {course::Column::integer("chunks", "chunks", 8),
                       course::Column::integer("streams", "streams", 8),
                       course::Column::number("ms", "wall ms", 9, 3),
                       course::Column::number("speedup", "vs serial", 10, 2, "x"),
                       course::Column::number("over_bound", "/ bound", 8, 2, "x")});
  const double bound_ms = std::max(p.both_ms, p.kernel_ms);
  bool started = false;
  for (const std::size_t chunks : kDemoChunkCounts) {
    for (const int s : kDemoStreamCounts) {
      const course::Streams streams(s);
      const double ms =
          demo_pipeline(f.pipeline, w.buffers(), in, n, p.work, (n + chunks - 1) / chunks,
                        streams.get(), std::to_string(chunks) + " chunks");
      if (ms <= 0.0) return false;  // the line printed says why
      if (!started) {
        std::printf("run_pipeline's wall time, against the serial pipeline and the bound:\n");
        table.print_header();
        started = true;
      }
      table.add_row({chunks, s, ms, p.serial_ms / ms, ms / bound_ms});
    }
  }
  const PipelineShape shape = choose_shape(n);
  const bool valid = shape.chunk >= 1 && shape.streams >= 1 && shape.streams <= kMostStreams;
  if (f.shape
          .judge_value(shape.chunk != 0 || shape.streams != 0, valid, "n = " + std::to_string(n),
                       "a chunk of at least 1 element and 1 to 64 streams")
          .right) {
    const course::Streams streams(shape.streams);
    float reported = 0.0f;
    const double ms = demo_pipeline(f.pipeline, w.buffers(), in, n, p.work, shape.chunk,
                                    streams.get(), "your shape", &reported);
    if (ms > 0.0) {
      std::printf("  your shape, chunks of %zu over %d streams: %.3f ms (%.2fx the serial, %.2fx "
                  "the bound); run_pipeline's own events said %.3f ms\n",
                  shape.chunk, shape.streams, ms, p.serial_ms / ms,
                  ms / std::max(p.both_ms, p.kernel_ms), reported);
    }
  }
  std::printf("\n");
  return true;
}

// A launch on the legacy default stream after every chunk.
void demo_default_stream(Workspace& w, const Parts& p) {
  const std::size_t n = w.size();
  const std::size_t chunk = (n + kDemoMarkerChunks - 1) / kDemoMarkerChunks;
  const course::Streams blocking(kDemoMarkerStreams, cudaStreamDefault);
  const course::Streams non_blocking(kDemoMarkerStreams, cudaStreamNonBlocking);
  const Buffers b = w.buffers();
  const auto time = [&](const course::Streams& streams, std::optional<cudaStream_t> marker) {
    return chunks_with_markers(b, n, p.work, chunk, streams.get(), marker);
  };
  chunks_with_markers(b, n, p.work, chunk, blocking.get(), std::nullopt);  // warm-up
  std::printf("An empty kernel launched after each of %zu chunks (%d streams), on...\n",
              kDemoMarkerChunks, kDemoMarkerStreams);
  std::printf("  nothing:                                   %8.3f ms\n",
              time(blocking, std::nullopt));
  std::printf("  the legacy default stream, blocking streams: %6.3f ms  (each launch waits "
              "for every stream, and they for it)\n",
              time(blocking, cudaStreamLegacy));
  std::printf("  the legacy default stream, non-blocking:   %8.3f ms  (cudaStreamNonBlocking "
              "opts out)\n",
              time(non_blocking, cudaStreamLegacy));
  std::printf("  the per-thread default stream, blocking:   %8.3f ms  (cudaStreamPerThread: "
              "an ordinary stream)\n\n",
              time(blocking, cudaStreamPerThread));
}

// The same pipeline from pageable memory (std::vector): nothing overlaps.
void demo_pageable(DemoFunctions& f, Workspace& w, const std::vector<float>& in, const Parts& p) {
  const std::size_t n = w.size();
  std::vector<float> pageable_out(n);
  const Buffers pageable{in.data(), pageable_out.data(), w.device_in.data(), w.device_out.data()};
  const course::Streams streams(kDemoMarkerStreams);
  const std::size_t chunk = (n + kDemoMarkerChunks - 1) / kDemoMarkerChunks;
  const double pinned_ms =
      demo_pipeline(f.pipeline, w.buffers(), in, n, p.work, chunk, streams.get(), "pinned");
  const double pageable_ms =
      demo_pipeline(f.pipeline, pageable, in, n, p.work, chunk, streams.get(), "pageable");
  if (pinned_ms > 0.0 && pageable_ms > 0.0) {
    std::printf("%zu chunks over %d streams from pinned memory: %.3f ms; from pageable memory "
                "(std::vector): %.3f ms, %.2fx the serial pipeline\n",
                kDemoMarkerChunks, kDemoMarkerStreams, pinned_ms, pageable_ms,
                p.serial_ms / pageable_ms);
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  DemoFunctions f;
  const std::size_t n = kDemoElements;
  float* probe = allocate_pinned(1);
  if (f.allocate
          .judge_value(probe != nullptr, course::is_pinned_host(probe), "n = 1",
                       "cudaPointerGetAttributes does not call it pinned host memory")
          .right) {
    std::printf("Part 1. allocate_pinned returns page-locked host memory.\n");
  }
  if (probe != nullptr) free_pinned(probe);
  std::vector<cudaStream_t> streams = create_streams(2);
  unsigned flags = 0;
  const bool non_blocking = streams.size() == 2 &&
                            cudaStreamGetFlags(streams[0], &flags) == cudaSuccess &&
                            (flags & cudaStreamNonBlocking) != 0;
  if (f.streams
          .judge_value(!streams.empty(), non_blocking, "2 streams",
                       "not 2 streams created with cudaStreamNonBlocking")
          .right) {
    std::printf("Part 2. create_streams makes non-blocking streams.\n\n");
  }
  if (streams.size() == 2) destroy_streams(streams);

  Workspace w(n, kDemoSeed);
  const std::vector<float> in(w.host_in.data(), w.host_in.data() + n);
  const Parts parts = measure_parts(w, 0, true, kDemoRepetitions);
  print_parts(parts, n);
  if (demo_shapes(f, w, in, parts)) {
    demo_default_stream(w, parts);
    demo_pageable(f, w, in, parts);
  }
  std::printf("\n(`make check-23` grades every case)\n");
  return course::demo_status({&f.allocate, &f.streams, &f.pipeline, &f.shape});
}
