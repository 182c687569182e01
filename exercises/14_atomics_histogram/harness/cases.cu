// Exercise 14 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "histogram.hpp"
#include "workload.hpp"

namespace {

namespace asked = histogram::request;
namespace result = histogram::result;

// Fills as much shared memory as blocks can hold with a nonzero value, on every
// multiprocessor, so that a later kernel that counts into shared memory it never
// zeroed starts from garbage, as it would in a long program, instead of from the
// zeros of a fresh context. The sum written to `sink` keeps the stores alive.
constexpr int kScribbleValue = 0x01000001;
constexpr std::size_t kScribbleBytes = 48 * 1024;  // what a block gets without opting in
constexpr int kScribbleBlocksPerMultiprocessor = 8;
constexpr int kScribbleThreads = 256;

__global__ void scribble_shared_memory(int* sink) {
  extern __shared__ int words[];
  const int count = static_cast<int>(kScribbleBytes / sizeof(int));
  for (int i = threadIdx.x; i < count; i += blockDim.x) words[i] = kScribbleValue + i;
  __syncthreads();
  if (words[(threadIdx.x * 7) % count] == 0) atomicAdd(sink, 1);  // never true
}

void scribble_shared_memory_everywhere() {
  int device = 0, multiprocessors = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  course::DeviceBuffer<int> sink(1);
  scribble_shared_memory<<<multiprocessors * kScribbleBlocksPerMultiprocessor, kScribbleThreads,
                           kScribbleBytes>>>(sink.data());
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

struct HistogramRequest {
  // The n values to count, then `padding` more that the launchers must not read (see
  // read_histogram_request).
  std::vector<float> x;
  int n = 0;
  float lo = 0.0f, hi = 0.0f;
  int bins = 0, blocks = 0, threads = 0;
  // Where the values start in the device buffer (device_buffer_after): not on a 16-byte
  // boundary unless a multiple of 4.
  std::size_t offset = 0;
};

HistogramRequest read_histogram_request(const asked::Histogram& p, std::uint64_t seed) {
  HistogramRequest h;
  h.lo = p.lo;
  h.hi = p.hi;
  h.bins = p.bins;
  if (h.bins < 1 || h.bins > kMaxBins || !(h.lo < h.hi) ||
      !histogram::make_input(p.input, p.n, h.lo, h.hi, h.bins, seed, h.x)) {
    std::fprintf(stderr, "check protocol: bad histogram request\n");
    std::exit(2);
  }
  h.n = static_cast<int>(h.x.size());
  // Values after the n counted ones, each lo (in the first bin): a kernel that reads past
  // x[n - 1] counts them.
  h.x.insert(h.x.end(), static_cast<std::size_t>(p.padding), h.lo);
  h.offset = static_cast<std::size_t>(p.offset);
  return h;
}

HistogramRequest read_launch_request(const asked::Launch& p, std::uint64_t seed) {
  HistogramRequest h = read_histogram_request(p.histogram, seed);
  h.blocks = p.blocks;
  h.threads = p.threads;
  return h;
}

// The speed case: rounds of (global-atomic launch, privatised launch), each the median of
// `repetitions` timed calls; the best round of each counts.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

void run_speed_case(const asked::Speed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  HistogramRequest h = read_launch_request(p.launch, seed);
  const int repetitions = p.repetitions;
  const int n = h.n;
  course::DeviceBuffer<float> x(h.x);
  course::DeviceBuffer<int> counts(static_cast<std::size_t>(h.bins));
  // Both are the student's work: each timed call must write every count
  // (course/check/timed_call.hpp).
  const std::vector<course::check::TimedOutput> every_count = {
      course::check::timed_output(counts.data(), static_cast<std::size_t>(h.bins))};
  auto global = course::check::student_call(every_count, [&] {
    histogram_global_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  });
  auto shared = course::check::student_call(every_count, [&] {
    histogram_shared_on_device(x.data(), n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  });
  global();
  results.put(result::global_counts, counts.download());
  shared();
  results.put(result::shared_counts, counts.download());
  double global_ms = 0.0, shared_ms = 0.0;
  for (int round = 0; round < kSpeedRounds; ++round) {
    const double g = course::time_device(global, kSpeedWarmup, repetitions).median_ms;
    const double s = course::time_device(shared, kSpeedWarmup, repetitions).median_ms;
    global_ms = round == 0 ? g : std::min(global_ms, g);
    shared_ms = round == 0 ? s : std::min(shared_ms, s);
  }
  results.put(result::global_ms, global_ms);
  results.put(result::shared_ms, shared_ms);
}

// The maximum's case: `launches` calls of max_on_device on the same input, each on a
// maximum and a previous array poisoned first; reports every launch's maximum and
// previous array, for the check to judge each.
void run_max_case(const asked::Max& p, std::uint64_t seed, course::check::ResultWriter& results) {
  const int n = p.n;
  const int blocks = p.blocks;
  const int threads = p.threads;
  const int launches = p.launches;
  std::vector<float> x;
  if (n < 1 || launches < 1 || !histogram::make_max_input(p.input, n, seed, x)) {
    std::fprintf(stderr, "check protocol: bad maximum request\n");
    std::exit(2);
  }
  course::DeviceBuffer<float> device_x(x);
  course::DeviceBuffer<float> maximum(1);
  course::DeviceBuffer<float> previous(x.size());
  std::vector<float> maxima, all_previous;
  for (int launch = 0; launch < launches; ++launch) {
    maximum.poison();
    previous.poison();
    max_on_device(device_x.data(), n, maximum.data(), previous.data(), blocks, threads);
    maxima.push_back(maximum.download()[0]);
    const std::vector<float> this_launch = previous.download();
    all_previous.insert(all_previous.end(), this_launch.begin(), this_launch.end());
  }
  results.put(result::maxima, maxima);
  results.put(result::previous, all_previous);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::counter)) {
    course::DeviceBuffer<int> counter(1);
    CUDA_CHECK(cudaMemset(counter.data(), 0, sizeof(int)));
    count_threads_atomic<<<p->blocks, p->threads>>>(counter.data());
    CUDA_CHECK_LAUNCH();
    results.put(result::counter, counter.download());
    return;
  }
  if (const auto p = request.as(asked::speed)) {
    run_speed_case(*p, request.seed, results);
    return;
  }
  if (const auto p = request.as(asked::max)) {
    run_max_case(*p, request.seed, results);
    return;
  }
  if (const auto p = request.as(asked::cpu)) {
    const HistogramRequest h = read_histogram_request(*p, request.seed);
    course::check::GuardedOutput<int> counts(static_cast<std::size_t>(h.bins));
    histogram_cpu(h.x.data(), h.n, h.lo, h.hi, counts.data(), h.bins);
    counts.report(results, result::counts);
    return;
  }
  const bool shared = request.is(asked::shared);
  const auto p = shared ? request.as(asked::shared) : request.as(asked::global);
  if (!p) course::check::unknown_case(request);
  const HistogramRequest h = read_launch_request(*p, request.seed);
  const int n = h.n;
  course::DeviceBuffer<float> buffer = course::device_buffer_after(h.offset, h.x);
  const float* x = buffer.data() + h.offset;
  course::DeviceBuffer<int> counts(static_cast<std::size_t>(h.bins));
  if (shared) {
    scribble_shared_memory_everywhere();
    histogram_shared_on_device(x, n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  } else {
    histogram_global_on_device(x, n, h.lo, h.hi, counts.data(), h.bins, h.blocks, h.threads);
  }
  results.put(result::counts, counts.download());
}
