// Exercise 13 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "grid_stride.hpp"
#include "launches.cuh"
#include "workload.hpp"

namespace {

namespace asked = grid_stride::request;
namespace result = grid_stride::result;

// The yardstick of the speed case: the driver's own one-thread-per-element kernel, the
// same arithmetic as hypot_stride. Not the student's kernel: one whose stride is wrong
// would slow its own yardstick down as much as itself.
// [slide:one-thread-per-element]
__global__ void reference_hypot_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = hypotf(a[i], b[i]);
}
// [/slide]

// The speed case: rounds of (runner's launch, student's launch), each the median of
// `repetitions` timed launches; the best round of each counts, so that a clock still
// rising or a neighbour's burst cannot decide.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 3;
// Each timed sample of a round is this many launches back to back: the host's work
// before each launch (the student's occupancy queries) then overlaps the kernels queued
// before it, as in a program that launches repeatedly, instead of adding to the time of
// one 20 us kernel. With every core busy (a class graded at once), that host work could
// cost a correct launch the check's 25%.
constexpr int kLaunchesPerSample = 8;
// First a probe on the first n / kProbeDivisor elements, then one launch of each on the
// whole array: a student's launch more than kProbeSlowdownLimit times slower than the
// runner's at either step is not timed further, where a stride that forgets gridDim.x
// (work growing as n squared) would take minutes. A correct launch is about as fast
// as the runner's; the check's 25% gate is stricter.
constexpr int kProbeDivisor = 16;
constexpr int kProbeRepetitions = 3;
constexpr double kProbeSlowdownLimit = 2.0;

void run_speed_case(const asked::HypotSpeed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int repetitions = p.repetitions;
  course::DeviceBuffer<float> a(grid_stride::make_hypot_a(n, seed));
  course::DeviceBuffer<float> b(grid_stride::make_hypot_b(n, seed));
  course::DeviceBuffer<float> c(static_cast<std::size_t>(n));

  // No probe under compute-sanitizer (the check says probe=0): times mean nothing there.
  const bool probe = p.probe;
  int elements = probe ? std::max(1, n / kProbeDivisor) : n;
  auto reference_launch = [&] {
    const int blocks = (elements + kHypotThreadsPerBlock - 1) / kHypotThreadsPerBlock;
    reference_hypot_kernel<<<blocks, kHypotThreadsPerBlock>>>(a.data(), b.data(), c.data(),
                                                              elements);
    CUDA_CHECK_LAUNCH();
  };
  // The student's work, audited whenever it is timed (course/check/timed_call.hpp): each
  // timed sample of `launches` launches on the first `count` elements must write them all.
  const auto student_launches = [&](int count, int launches) {
    return course::check::student_call(
        {course::check::timed_output(c.data(), static_cast<std::size_t>(count))},
        [&a, &b, &c, count, launches] {
          for (int launch = 0; launch < launches; ++launch) {
            hypot_on_device(a.data(), b.data(), c.data(), count);
          }
        });
  };

  double reference_ms = 0.0, student_ms = 0.0;
  if (probe) {
    reference_ms = course::time_device(reference_launch, 1, kProbeRepetitions).median_ms;
    student_ms = course::time_device(student_launches(elements, 1), 1, kProbeRepetitions).median_ms;
  }
  if (!probe || student_ms <= kProbeSlowdownLimit * reference_ms) {
    elements = n;
    auto student_launch = student_launches(n, 1);
    // The student's launch alone first, so that the output reported is its own.
    student_launch();
    results.put(result::c, c.download());
    // One timed launch of each on the whole array; the rounds only if it is close.
    reference_ms = course::time_device(reference_launch, 1, 1).min_ms;
    student_ms = course::time_device(student_launch, 0, 1).min_ms;
    const int rounds = student_ms <= kProbeSlowdownLimit * reference_ms ? kSpeedRounds : 0;
    const auto reference_batch = [&] {
      for (int launch = 0; launch < kLaunchesPerSample; ++launch) reference_launch();
    };
    auto student_batch = student_launches(n, kLaunchesPerSample);
    for (int round = 0; round < rounds; ++round) {
      const double r = course::time_device(reference_batch, kSpeedWarmup, repetitions).median_ms /
                       kLaunchesPerSample;
      const double s = course::time_device(student_batch, kSpeedWarmup, repetitions).median_ms /
                       kLaunchesPerSample;
      reference_ms = std::min(reference_ms, r);
      student_ms = std::min(student_ms, s);
    }
  }
  results.put(result::timed_elements, elements);
  results.put(result::student_ms, student_ms);
  results.put(result::one_per_element_ms, reference_ms);
}

// add's inputs and output on the device; `add` computes out from x and y.
template <typename Add>
void run_add_case(int n, std::uint64_t seed, course::check::ResultWriter& results, Add&& add) {
  course::DeviceBuffer<int> x(grid_stride::make_add_x(n, seed));
  course::DeviceBuffer<int> y(grid_stride::make_add_y(n, seed));
  course::DeviceBuffer<int> out(static_cast<std::size_t>(n));
  add(x.data(), y.data(), out.data());
  results.put(result::add_out, out.download());
}

// hypot's inputs and output on the device; `hypot` computes c from a and b.
template <typename Hypot>
void run_hypot_case(int n, std::uint64_t seed, course::check::ResultWriter& results,
                    Hypot&& hypot) {
  course::DeviceBuffer<float> a(grid_stride::make_hypot_a(n, seed));
  course::DeviceBuffer<float> b(grid_stride::make_hypot_b(n, seed));
  course::DeviceBuffer<float> c(static_cast<std::size_t>(n));
  hypot(a.data(), b.data(), c.data());
  results.put(result::c, c.download());
}

// a, b and c start a_offset, b_offset and c_offset floats into their buffers: with an
// offset that is not a multiple of 4, not on a 16-byte boundary.
void run_hypot_offsets_case(const asked::HypotOffsets& p, std::uint64_t seed,
                            course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const auto a_offset = static_cast<std::size_t>(p.a_offset);
  const auto b_offset = static_cast<std::size_t>(p.b_offset);
  const auto c_offset = static_cast<std::size_t>(p.c_offset);
  course::DeviceBuffer<float> a =
      course::device_buffer_after(a_offset, grid_stride::make_hypot_a(n, seed));
  course::DeviceBuffer<float> b =
      course::device_buffer_after(b_offset, grid_stride::make_hypot_b(n, seed));
  course::DeviceBuffer<float> c(c_offset + static_cast<std::size_t>(n));
  grid_stride::launch_hypot(static_cast<int>(p.blocks), static_cast<int>(p.threads),
                            a.data() + a_offset, b.data() + b_offset, c.data() + c_offset, n);
  results.put(result::c, c.download_from(c_offset));
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const std::uint64_t seed = request.seed;
  if (request.is(asked::occupancy)) {
    std::vector<std::int64_t> student, expected;
    for (const int threads : grid_stride::kOccupancyBlockSizes) {
      student.push_back(occupancy_grid_blocks(threads));
      expected.push_back(grid_stride::reference_occupancy_blocks(threads));
    }
    results.put(result::student_blocks, student);
    results.put(result::expected_blocks, expected);
  } else if (const auto p = request.as(asked::hypot_speed)) {
    run_speed_case(*p, seed, results);
  } else if (const auto p = request.as(asked::add_launch)) {
    // The runner chooses the grid: the kernel alone must cope with it.
    const int n = static_cast<int>(p->n);
    run_add_case(n, seed, results, [&](const int* x, const int* y, int* out) {
      add_kernel<<<static_cast<int>(p->blocks), static_cast<int>(p->threads)>>>(x, y, out, n);
      CUDA_CHECK_LAUNCH();
    });
  } else if (const auto p = request.as(asked::add)) {
    const int n = static_cast<int>(p->n);
    run_add_case(n, seed, results,
                 [&](const int* x, const int* y, int* out) { add_on_device(x, y, out, n); });
  } else if (const auto p = request.as(asked::add_after_empty)) {
    const int n = static_cast<int>(p->n);
    run_add_case(n, seed, results, [&](const int* x, const int* y, int* out) {
      {
        // An empty call first: it must neither fail nor disturb the call after it.
        course::DeviceBuffer<int> nothing(0);
        add_on_device(nothing.data(), nothing.data(), nothing.data(), 0);
        CUDA_CHECK(cudaDeviceSynchronize());
      }
      add_on_device(x, y, out, n);
    });
  } else if (const auto p = request.as(asked::square)) {
    const int n = static_cast<int>(p->n);
    course::DeviceBuffer<float> a(grid_stride::make_square_input(n, seed));
    course::DeviceBuffer<float> out(static_cast<std::size_t>(n));
    square_on_device(a.data(), out.data(), n);
    results.put(result::square_out, out.download());
  } else if (const auto p = request.as(asked::blocks_to_cover)) {
    results.put(result::blocks,
                blocks_to_cover(static_cast<int>(p->n), static_cast<int>(p->threads)));
  } else if (const auto p = request.as(asked::hypot_offsets)) {
    run_hypot_offsets_case(*p, seed, results);
  } else if (const auto p = request.as(asked::hypot_grid)) {
    const int n = static_cast<int>(p->n);
    run_hypot_case(n, seed, results, [&](const float* a, const float* b, float* c) {
      grid_stride::launch_hypot(static_cast<int>(p->blocks), static_cast<int>(p->threads), a, b, c,
                                n);
    });
  } else if (const auto p = request.as(asked::hypot_occupancy)) {
    const int n = static_cast<int>(p->n);
    run_hypot_case(n, seed, results,
                   [&](const float* a, const float* b, float* c) { hypot_on_device(a, b, c, n); });
  } else {
    course::check::unknown_case(request);
  }
}
