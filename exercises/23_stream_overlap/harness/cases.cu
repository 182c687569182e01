// Exercise 23 - the program around the student's functions (instructor-owned).
//
// `make run-23` runs the demo: the parts of the work on the whole array, each alone (copy
// in, copy back, both copies at once, the kernel with its work set so that it takes as
// long as the copies), the serial pipeline, then the student's pipeline over a table of
// chunk sizes and stream counts, the legacy default stream serialising streams that do
// not opt out of it, and pageable memory overlapping nothing. Every result is compared
// with its reference before it is shown or timed (course/demo_results.hpp). The check
// runs this same program with --course-case to compute its cases
// (common/course/check/runner.hpp).
//
// Build and run:  make 23 && make run-23
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/stream_probes.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "stream_overlap.hpp"
#include "workload.hpp"

// ---------------------------------------------------------------------------
// The given kernel and its launcher (declared in stream_overlap.hpp)
// ---------------------------------------------------------------------------
constexpr unsigned kThreadsPerBlock = 256;

__global__ void transform_kernel(const float* in, float* out, std::size_t count, int work) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < count) out[i] = stream_overlap::transform(in[i], work);
}

void launch_transform(const float* in, float* out, std::size_t count, int work,
                      cudaStream_t stream) {
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
  transform_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(in, out, count, work);
  CUDA_CHECK_LAUNCH();
}

namespace {

// ---------------------------------------------------------------------------
// Buffers and streams of the runner's own
// ---------------------------------------------------------------------------

// Pinned host memory of the runner's, so that the pipeline is graded apart from
// allocate_pinned.
class PinnedFloats {
 public:
  explicit PinnedFloats(std::size_t count) : count_(count) {
    CUDA_CHECK(cudaMallocHost(&data_, std::max<std::size_t>(count, 1) * sizeof(float)));
  }
  ~PinnedFloats() { cudaFreeHost(data_); }
  PinnedFloats(const PinnedFloats&) = delete;
  PinnedFloats& operator=(const PinnedFloats&) = delete;
  float* data() { return data_; }
  std::size_t size() const { return count_; }

 private:
  float* data_ = nullptr;
  std::size_t count_ = 0;
};

// Non-blocking streams of the runner's, destroyed with it.
class OwnStreams {
 public:
  explicit OwnStreams(int count, unsigned flags = cudaStreamNonBlocking) {
    for (int s = 0; s < count; ++s) {
      cudaStream_t stream = nullptr;
      CUDA_CHECK(cudaStreamCreateWithFlags(&stream, flags));
      streams_.push_back(stream);
    }
  }
  ~OwnStreams() {
    for (const cudaStream_t stream : streams_) cudaStreamDestroy(stream);
  }
  OwnStreams(const OwnStreams&) = delete;
  OwnStreams& operator=(const OwnStreams&) = delete;
  const std::vector<cudaStream_t>& get() const { return streams_; }
  cudaStream_t operator[](std::size_t s) const { return streams_[s]; }

 private:
  std::vector<cudaStream_t> streams_;
};

// A whole pipeline's memory: host input and output (pinned unless given), device
// input and output, the input drawn from the seed and both outputs poisoned.
struct Workspace {
  Workspace(std::size_t n, std::uint64_t seed)
      : host_in(n),
        host_out(n),
        device_in(std::max<std::size_t>(n, 1)),
        device_out(std::max<std::size_t>(n, 1)) {
    const std::vector<float> in = stream_overlap::make_input(n, seed);
    std::copy(in.begin(), in.end(), host_in.data());
    poison_outputs();
  }
  void poison_outputs() {
    course::poison(host_out.data(), host_out.size());
    device_out.poison();
  }
  Buffers buffers() {
    return Buffers{host_in.data(), host_out.data(), device_in.data(), device_out.data()};
  }
  std::size_t size() const { return host_in.size(); }

  PinnedFloats host_in, host_out;
  course::DeviceBuffer<float> device_in, device_out;
};

// ---------------------------------------------------------------------------
// The parts of the work, each measured alone on the whole array
// ---------------------------------------------------------------------------

// The work at which the kernel is first timed, to find the work that balances it: enough
// that the kernel is bound by its arithmetic, not by reading and writing the array.
constexpr int kProbeWork = 256;
// Beyond this the kernel would take seconds: a bus that slow is not what is measured.
constexpr int kMostWork = 1 << 20;
constexpr int kWarmup = 2;

struct Parts {
  double to_device_ms = 0.0;  // host_in -> device_in, the whole array, alone
  double to_host_ms = 0.0;    // device_out -> host_out, alone
  double both_ms = 0.0;       // both copies at once, on two streams: the copy time
  double kernel_ms = 0.0;     // the kernel on the whole array, at `work`
  double serial_ms = 0.0;     // copy in, kernel, copy back on one stream
  int work = 0;
};

// Times `work` enqueued on `first` and `second` at once: both start after an event of
// `first`, and `first` waits for `second` before the stop event.
template <typename First, typename Second>
double time_side_by_side(cudaStream_t first, cudaStream_t second, First&& on_first,
                         Second&& on_second, int repetitions) {
  cudaEvent_t fork = nullptr, join = nullptr;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  const double ms = course::time_device(
                        [&] {
                          CUDA_CHECK(cudaEventRecord(fork, first));
                          CUDA_CHECK(cudaStreamWaitEvent(second, fork, 0));
                          on_first();
                          on_second();
                          CUDA_CHECK(cudaEventRecord(join, second));
                          CUDA_CHECK(cudaStreamWaitEvent(first, join, 0));
                        },
                        kWarmup, repetitions, first)
                        .median_ms;
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  return ms;
}

// The parts at `work`; with `balance`, the work is first chosen so that the kernel takes
// as long as both copies at once (the time grows linearly with the work).
Parts measure_parts(Workspace& w, int work, bool balance, int repetitions) {
  const OwnStreams streams(2);
  const cudaStream_t a = streams[0], b = streams[1];
  const std::size_t n = w.size();
  const std::size_t bytes = n * sizeof(float);
  const auto copy_in = [&] {
    CUDA_CHECK(
        cudaMemcpyAsync(w.device_in.data(), w.host_in.data(), bytes, cudaMemcpyHostToDevice, a));
  };
  const auto copy_back = [&] {
    CUDA_CHECK(
        cudaMemcpyAsync(w.host_out.data(), w.device_out.data(), bytes, cudaMemcpyDeviceToHost, b));
  };
  Parts parts;
  parts.to_device_ms = course::time_device(copy_in, kWarmup, repetitions, a).median_ms;
  parts.to_host_ms = course::time_device(copy_back, kWarmup, repetitions, b).median_ms;
  parts.both_ms = time_side_by_side(a, b, copy_in, copy_back, repetitions);
  const auto kernel_at = [&](int at) {
    return course::time_device(
               [&] { launch_transform(w.device_in.data(), w.device_out.data(), n, at, a); },
               kWarmup, repetitions, a)
        .median_ms;
  };
  // The kernel's time grows linearly with the work once its arithmetic dominates: two
  // steps of scaling bring it to the copy time (the first from a time that may still
  // include some of the memory traffic).
  const auto scaled = [&](int from, double from_ms) {
    const double wanted = from * parts.both_ms / std::max(from_ms, 1e-3);
    return static_cast<int>(std::clamp(std::lround(wanted), 1L, static_cast<long>(kMostWork)));
  };
  parts.work = balance ? scaled(kProbeWork, kernel_at(kProbeWork)) : work;
  parts.kernel_ms = kernel_at(parts.work);
  if (balance) {
    parts.work = scaled(parts.work, parts.kernel_ms);
    parts.kernel_ms = kernel_at(parts.work);
  }
  parts.serial_ms =
      course::time_device(
          [&] {
            copy_in();
            launch_transform(w.device_in.data(), w.device_out.data(), n, parts.work, a);
            CUDA_CHECK(cudaMemcpyAsync(w.host_out.data(), w.device_out.data(), bytes,
                                       cudaMemcpyDeviceToHost, a));
          },
          kWarmup, repetitions, a)
          .median_ms;
  return parts;
}

// The best of each part over two measurements.
Parts best_of(const Parts& x, const Parts& y) {
  Parts best = x;
  best.to_device_ms = std::min(x.to_device_ms, y.to_device_ms);
  best.to_host_ms = std::min(x.to_host_ms, y.to_host_ms);
  best.both_ms = std::min(x.both_ms, y.both_ms);
  best.kernel_ms = std::min(x.kernel_ms, y.kernel_ms);
  best.serial_ms = std::min(x.serial_ms, y.serial_ms);
  return best;
}

// ---------------------------------------------------------------------------
// Pipelines the runner drives itself
// ---------------------------------------------------------------------------

// What a launch on the legacy default stream between chunks does: each chunk of the
// student's enqueue_chunk goes to streams[k % size], and with a `marker` stream an empty
// kernel follows each chunk there. Returns the wall time until all is done.
__global__ void marker_kernel() {}

double chunks_with_markers(const Buffers& buffers, std::size_t n, int work, std::size_t chunk,
                           const std::vector<cudaStream_t>& streams,
                           std::optional<cudaStream_t> marker) {
  CUDA_CHECK(cudaDeviceSynchronize());
  course::WallTimer timer;
  std::size_t k = 0;
  for (std::size_t first = 0; first < n; first += chunk, ++k) {
    enqueue_chunk(buffers, first, std::min(chunk, n - first), work, streams[k % streams.size()]);
    if (marker) {
      marker_kernel<<<1, 1, 0, *marker>>>();
      CUDA_CHECK_LAUNCH();
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return timer.elapsed_ms();
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

void run_pinned_case(const course::check::CaseRequest& request,
                     course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  float* host = allocate_pinned(n);
  results.put_value("allocated", static_cast<std::int64_t>(host != nullptr));
  results.put_value("pinned", static_cast<std::int64_t>(course::is_pinned_host(host)));
  if (host == nullptr) return;
  // Every element can be written and read back through a copy (the buffer is n floats).
  course::DeviceBuffer<float> device(stream_overlap::make_input(n, request.seed));
  CUDA_CHECK(cudaMemcpy(host, device.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
  results.put("copied", std::vector<float>(host, host + n));
  free_pinned(host);
  results.put_value("pinned_after_free", static_cast<std::int64_t>(course::is_pinned_host(host)));
}

void run_streams_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const int count = static_cast<int>(request.param_int("count"));
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
  results.put_value("count", static_cast<std::int64_t>(streams.size()));
  results.put_value("distinct", static_cast<std::int64_t>(all_distinct));
  results.put_value("non_blocking", non_blocking);
  results.put_value("created",
                    static_cast<std::int64_t>(course::check::live_streams() - live_before));
  destroy_streams(streams);
  results.put_value("emptied", static_cast<std::int64_t>(streams.empty()));
  results.put_value("left_after_destroy",
                    static_cast<std::int64_t>(course::check::live_streams() - live_before));
}

// One chunk of a poisoned output: only [first, first + count) may change.
void run_chunk_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const std::size_t first = static_cast<std::size_t>(request.param_int("first"));
  const std::size_t count = static_cast<std::size_t>(request.param_int("count"));
  const int work = static_cast<int>(request.param_int("work"));
  Workspace w(n, request.seed);
  const OwnStreams stream(1);
  enqueue_chunk(w.buffers(), first, count, work, stream[0]);
  // The whole device, not the stream: the chunk is graded here, the stream it used elsewhere.
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put("out", std::vector<float>(w.host_out.data(), w.host_out.data() + n));
}

// The student's run_pipeline on the runner's pinned buffers and non-blocking streams:
// whether it waited, what it computed, the time it returned.
void run_pipeline_case(const course::check::CaseRequest& request,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const std::size_t chunk = static_cast<std::size_t>(request.param_int("chunk"));
  const int work = static_cast<int>(request.param_int("work"));
  Workspace w(n, request.seed);
  const OwnStreams streams(static_cast<int>(request.param_int("streams")));
  CUDA_CHECK(cudaDeviceSynchronize());
  const float reported_ms = run_pipeline(w.buffers(), n, work, chunk, streams.get());
  // Asked first, before anything else can let the queued work finish.
  results.put_value("busy_streams", course::busy_streams(streams.get()));
  results.put_value("busy_default_stream", static_cast<std::int64_t>(course::stream_busy(nullptr)));
  results.put("out", std::vector<float>(w.host_out.data(), w.host_out.data() + n));
  results.put_value("reported_ms", static_cast<double>(reported_ms));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The shape a timed case asks for: the runner's own, or the student's choose_shape.
PipelineShape requested_shape(const course::check::CaseRequest& request, std::size_t n) {
  if (request.param("shape") == "student") return choose_shape(n);
  return PipelineShape{static_cast<std::size_t>(request.param_int("chunk")),
                       static_cast<int>(request.param_int("streams"))};
}

// The most streams a shape may ask for: more only costs.
constexpr int kMostStreams = 64;
// The outputs of the timed cases are compared at this many elements, spread over them.
constexpr std::size_t kSampledElements = 4096;

// The timed case: the parts, measured alone, with the work balanced (or the one given);
// then the student's pipeline at the shape asked for, timed around the call.
void run_overlap_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const int rounds = static_cast<int>(request.param_int("rounds"));
  const int given_work = static_cast<int>(request.param_int("work"));  // 0: balance
  const bool markers = request.param_int("markers") != 0;
  Workspace w(n, request.seed);
  Parts parts = measure_parts(w, given_work, given_work == 0, repetitions);
  const int work = parts.work;
  const PipelineShape shape = requested_shape(request, n);
  results.put_value("chunk", static_cast<std::int64_t>(shape.chunk));
  results.put_value("streams", static_cast<std::int64_t>(shape.streams));
  results.put_value("work", static_cast<std::int64_t>(work));
  if (shape.chunk < 1 || shape.streams < 1 || shape.streams > kMostStreams) return;

  const Buffers buffers = w.buffers();
  std::vector<cudaStream_t> student_streams;
  const OwnStreams own(shape.streams);
  if (markers) student_streams = create_streams(shape.streams);
  const std::vector<cudaStream_t>& streams = markers ? student_streams : own.get();
  if (streams.size() != static_cast<std::size_t>(shape.streams)) {
    results.put_value("streams_made", static_cast<std::int64_t>(streams.size()));
    return;
  }
  // The first call is judged: it waits, it computes every element.
  w.poison_outputs();
  CUDA_CHECK(cudaDeviceSynchronize());
  course::WallTimer first_call;
  float reported_ms = run_pipeline(buffers, n, work, shape.chunk, streams);
  double call_ms = first_call.elapsed_ms();
  results.put_value("busy_streams", course::busy_streams(streams));
  results.put_value("busy_default_stream", static_cast<std::int64_t>(course::stream_busy(nullptr)));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> sampled;
  for (const std::size_t i : course::spread_indices(n, kSampledElements)) {
    sampled.push_back(w.host_out.data()[i]);
  }
  results.put("sampled_out", sampled);

  double pipeline_ms = 0.0, plain_ms = 0.0, marked_ms = 0.0;
  for (int round = 0; round < rounds; ++round) {
    if (round > 0) parts = best_of(parts, measure_parts(w, work, false, repetitions));
    std::vector<double> calls;
    for (int r = 0; r < repetitions; ++r) {
      CUDA_CHECK(cudaDeviceSynchronize());
      course::WallTimer call;
      const float reported = run_pipeline(buffers, n, work, shape.chunk, streams);
      calls.push_back(call.elapsed_ms());
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
        std::vector<double> times;
        for (int r = 0; r < repetitions; ++r) {
          times.push_back(chunks_with_markers(buffers, n, work, shape.chunk, streams, marker));
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
  results.put_value("to_device_ms", parts.to_device_ms);
  results.put_value("to_host_ms", parts.to_host_ms);
  results.put_value("both_copies_ms", parts.both_ms);
  results.put_value("kernel_ms", parts.kernel_ms);
  results.put_value("serial_ms", parts.serial_ms);
  results.put_value("pipeline_ms", pipeline_ms);
  results.put_value("reported_ms", static_cast<double>(reported_ms));
  results.put_value("call_ms", call_ms);
  results.put_value("plain_loop_ms", plain_ms);
  results.put_value("marked_loop_ms", marked_ms);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "pinned") {
    run_pinned_case(request, results);
  } else if (kind == "streams") {
    run_streams_case(request, results);
  } else if (kind == "chunk") {
    run_chunk_case(request, results);
  } else if (kind == "pipeline") {
    run_pipeline_case(request, results);
  } else if (kind == "overlap") {
    run_overlap_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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
      const OwnStreams streams(s);
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
    const OwnStreams streams(shape.streams);
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
  const OwnStreams blocking(kDemoMarkerStreams, cudaStreamDefault);
  const OwnStreams non_blocking(kDemoMarkerStreams, cudaStreamNonBlocking);
  const Buffers b = w.buffers();
  const auto time = [&](const OwnStreams& streams, std::optional<cudaStream_t> marker) {
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
  const OwnStreams streams(kDemoMarkerStreams);
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

int demo() {
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

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
