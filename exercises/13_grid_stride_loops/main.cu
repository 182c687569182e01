// Exercise 13 - the program around the student's functions (instructor-owned).
//
// `make run-13` runs the demo: the lab's add_kernel on 4096 elements with the lab's
// 32 x 128 grid, then with too few and too many threads; square_kernel; then
// hypot_stride on 1M and 64M elements with one thread, with the lab's fixed 128 x 64
// grid, with a grid sized by the occupancy API and with one thread per element, each
// with its time, its bandwidth and its share of the copy ceiling measured in the same
// run. Every result is compared with its reference before it is shown or timed: a
// function not written yet, or wrong, gets a line that says so and no figure
// (course/demo_results.hpp), and the demo then ends with status 1. The check runs this
// same program with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 13 && make run-13
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "grid_stride.hpp"
#include "workload.hpp"

namespace {

// The grid the occupancy API gives hypot_stride, computed here by the driver.
// [slide:occupancy-grid]
int reference_occupancy_blocks(int threads_per_block) {
  int per_multiprocessor = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, hypot_stride,
                                                           threads_per_block, 0));
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int multiprocessors = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return per_multiprocessor * multiprocessors;
}
// [/slide]

// The yardstick of the speed case: the driver's own one-thread-per-element kernel, the
// same arithmetic as hypot_stride. Not the student's kernel: one whose stride is wrong
// would slow its own yardstick down as much as itself.
// [slide:one-thread-per-element]
__global__ void reference_hypot_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = hypotf(a[i], b[i]);
}
// [/slide]

void launch_hypot(int blocks, int threads, const float* a, const float* b, float* c, int n) {
  hypot_stride<<<blocks, threads>>>(a, b, c, n);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

// The block sizes whose occupancy grid the check compares (the value differs for each
// on every GPU the course supports).
constexpr int kOccupancyBlockSizes[] = {64, 256, 1024};

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

void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  course::DeviceBuffer<float> a(grid_stride::make_hypot_a(n, request.seed));
  course::DeviceBuffer<float> b(grid_stride::make_hypot_b(n, request.seed));
  course::DeviceBuffer<float> c(static_cast<std::size_t>(n));

  // No probe under compute-sanitizer (the check says probe=0): times mean nothing there.
  const bool probe = request.param_int("probe") != 0;
  int elements = probe ? std::max(1, n / kProbeDivisor) : n;
  auto reference_launch = [&] {
    const int blocks = (elements + kHypotThreadsPerBlock - 1) / kHypotThreadsPerBlock;
    reference_hypot_kernel<<<blocks, kHypotThreadsPerBlock>>>(a.data(), b.data(), c.data(),
                                                              elements);
    CUDA_CHECK_LAUNCH();
  };
  auto student_launch = [&] { hypot_on_device(a.data(), b.data(), c.data(), elements); };

  double reference_ms = 0.0, student_ms = 0.0;
  if (probe) {
    reference_ms = course::time_device(reference_launch, 1, kProbeRepetitions).median_ms;
    student_ms = course::time_device(student_launch, 1, kProbeRepetitions).median_ms;
  }
  if (!probe || student_ms <= kProbeSlowdownLimit * reference_ms) {
    elements = n;
    // The student's launch alone first, so that the output reported is its own.
    student_launch();
    results.put("c", c.download());
    // One timed launch of each on the whole array; the rounds only if it is close.
    reference_ms = course::time_device(reference_launch, 1, 1).min_ms;
    student_ms = course::time_device(student_launch, 0, 1).min_ms;
    const int rounds = student_ms <= kProbeSlowdownLimit * reference_ms ? kSpeedRounds : 0;
    const auto reference_batch = [&] {
      for (int launch = 0; launch < kLaunchesPerSample; ++launch) reference_launch();
    };
    const auto student_batch = [&] {
      for (int launch = 0; launch < kLaunchesPerSample; ++launch) student_launch();
    };
    for (int round = 0; round < rounds; ++round) {
      const double r = course::time_device(reference_batch, kSpeedWarmup, repetitions).median_ms /
                       kLaunchesPerSample;
      const double s = course::time_device(student_batch, kSpeedWarmup, repetitions).median_ms /
                       kLaunchesPerSample;
      reference_ms = std::min(reference_ms, r);
      student_ms = std::min(student_ms, s);
    }
  }
  results.put_value("timed_elements", static_cast<std::int64_t>(elements));
  results.put_value("student_ms", student_ms);
  results.put_value("one_per_element_ms", reference_ms);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "occupancy") {
    std::vector<std::int64_t> student, expected;
    for (const int threads : kOccupancyBlockSizes) {
      student.push_back(occupancy_grid_blocks(threads));
      expected.push_back(reference_occupancy_blocks(threads));
    }
    results.put("student_blocks", student);
    results.put("expected_blocks", expected);
    return;
  }
  if (kind == "hypot_speed") {
    run_speed_case(request, results);
    return;
  }

  const int n = static_cast<int>(request.param_int("n"));
  if (kind == "add" || kind == "add_after_empty" || kind == "add_launch") {
    course::DeviceBuffer<int> x(grid_stride::make_add_x(n, request.seed));
    course::DeviceBuffer<int> y(grid_stride::make_add_y(n, request.seed));
    course::DeviceBuffer<int> out(static_cast<std::size_t>(n));
    if (kind == "add_launch") {
      // The runner chooses the grid: the kernel alone must cope with it.
      const int blocks = static_cast<int>(request.param_int("blocks"));
      const int threads = static_cast<int>(request.param_int("threads"));
      add_kernel<<<blocks, threads>>>(x.data(), y.data(), out.data(), n);
      CUDA_CHECK_LAUNCH();
    } else {
      if (kind == "add_after_empty") {
        // An empty call first: it must neither fail nor disturb the call after it.
        course::DeviceBuffer<int> nothing(0);
        add_on_device(nothing.data(), nothing.data(), nothing.data(), 0);
        CUDA_CHECK(cudaDeviceSynchronize());
      }
      add_on_device(x.data(), y.data(), out.data(), n);
    }
    results.put("out", out.download());
    return;
  }
  if (kind == "square") {
    course::DeviceBuffer<float> a(grid_stride::make_square_input(n, request.seed));
    course::DeviceBuffer<float> out(static_cast<std::size_t>(n));
    square_on_device(a.data(), out.data(), n);
    results.put("out", out.download());
    return;
  }
  if (kind == "blocks_to_cover") {
    const int threads = static_cast<int>(request.param_int("threads"));
    results.put_value("blocks", static_cast<std::int64_t>(blocks_to_cover(n, threads)));
    return;
  }
  if (kind == "hypot_grid" || kind == "hypot_occupancy") {
    course::DeviceBuffer<float> a(grid_stride::make_hypot_a(n, request.seed));
    course::DeviceBuffer<float> b(grid_stride::make_hypot_b(n, request.seed));
    course::DeviceBuffer<float> c(static_cast<std::size_t>(n));
    if (kind == "hypot_grid") {
      launch_hypot(static_cast<int>(request.param_int("blocks")),
                   static_cast<int>(request.param_int("threads")), a.data(), b.data(), c.data(), n);
    } else {
      hypot_on_device(a.data(), b.data(), c.data(), n);
    }
    results.put("c", c.download());
    return;
  }
  course::check::unknown_case(request);
}

// ---------------------------------------------------------------------------
// Demo, part 1: the lab's add_kernel and square_kernel, and the wrong grids
// ---------------------------------------------------------------------------

// The student's functions, judged before anything they computed is shown.
struct DemoFunctions {
  course::StudentFunction add{"add_kernel"};
  course::StudentFunction square{"square_on_device"};
  course::StudentFunction cover{"blocks_to_cover"};
  course::StudentFunction occupancy{"occupancy_grid_blocks"};
  course::StudentFunction stride{"hypot_stride"};
  course::StudentFunction hypot{"hypot_on_device"};
};

// Runs add_kernel on the lab's x = 0..n-1, y = 1 with the given grid, from an output
// poisoned first; returns the output.
std::vector<int> run_add_grid(int blocks, int threads) {
  const int n = kLabAddElements;
  std::vector<int> x(n), y(n, 1);
  for (int i = 0; i < n; ++i) x[i] = i;
  course::DeviceBuffer<int> device_x(x), device_y(y), device_out(static_cast<std::size_t>(n));
  device_out.poison();
  add_kernel<<<blocks, threads>>>(device_x.data(), device_y.data(), device_out.data(), n);
  CUDA_CHECK_LAUNCH();
  return device_out.download();
}

// Prints how many elements of a grid's output came out right and how many were never
// written.
void print_add_grid(const char* what, int blocks, int threads, const std::vector<int>& out) {
  const int n = static_cast<int>(out.size());
  int right = 0, unwritten = 0;
  for (int i = 0; i < n; ++i) {
    if (out[i] == i + 1) ++right;
    if (course::is_poison(out[i])) ++unwritten;
  }
  const auto shown = [](int value) {
    return course::is_poison(value) ? std::string("?") : std::to_string(value);
  };
  std::printf("  %-30s %4d x %4d = %5d threads: %4d of %d right, %4d never written; "
              "out = [%s %s ... %s]\n",
              what, blocks, threads, blocks * threads, right, n, unwritten, shown(out[0]).c_str(),
              shown(out[1]).c_str(), shown(out[n - 1]).c_str());
}

void demo_part_one(DemoFunctions& functions) {
  const int n = kLabAddElements;
  std::printf("\nPart 1. out[i] = x[i] + y[i], x = 0..%d, y = 1 (the lab's add_kernel):\n", n - 1);
  // The kernel is judged on the lab's grid, which covers the array exactly: the other
  // grids show what a grid too small or too large does to a kernel that is right.
  const std::vector<int> lab = run_add_grid(kLabAddBlocks, kLabThreadsPerBlock);
  std::vector<int> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = i + 1;
  if (functions.add
          .judge(course::compare(lab.data(), expected.data(), expected.size(), course::kExact),
                 "the lab's grid")
          .right) {
    print_add_grid("the lab's grid", kLabAddBlocks, kLabThreadsPerBlock, lab);
    for (const auto& [what, blocks, threads] :
         {std::tuple<const char*, int, int>{"fewer threads per block", kLabAddBlocks,
                                            kLabThreadsPerBlock / 2},
          {"fewer blocks", kLabAddBlocks / 2, kLabThreadsPerBlock},
          {"too many threads (bounds check)", 2 * kLabAddBlocks, kLabThreadsPerBlock}}) {
      print_add_grid(what, blocks, threads, run_add_grid(blocks, threads));
    }
    std::printf("  (too many threads write past the end without `if (i < n)`: try it under\n"
                "   compute-sanitizer, which names the kernel, the thread and the address)\n");
  }

  // add_on_device and square_on_device choose their own grid.
  std::vector<float> a(n);
  std::vector<double> squares(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    squares[i] = static_cast<double>(i) * i;  // i * i < 2^24: exact in float
  }
  course::DeviceBuffer<float> device_a(a), device_out(static_cast<std::size_t>(n));
  device_out.poison();
  square_on_device(device_a.data(), device_out.data(), n);
  const std::vector<float> out = device_out.download();
  const int blocks = blocks_to_cover(n, kElementwiseThreadsPerBlock);
  const int expected_blocks = (n + kElementwiseThreadsPerBlock - 1) / kElementwiseThreadsPerBlock;
  const bool covered =
      functions.cover
          .judge_value(blocks != 0, blocks == expected_blocks,
                       "n = " + std::to_string(n) + ", " +
                           std::to_string(kElementwiseThreadsPerBlock) + " threads per block",
                       "returned " + std::to_string(blocks) + ", expected " +
                           std::to_string(expected_blocks))
          .right;
  const bool squared =
      functions.square
          .judge(course::compare(out.data(), squares.data(), squares.size(), course::kExact))
          .right;
  if (covered && squared) {
    std::printf("  square_on_device, a = 0..%d: %d blocks of %d threads, every element right; "
                "out = [%g %g ... %g]\n",
                n - 1, blocks, kElementwiseThreadsPerBlock, out[0], out[1], out[n - 1]);
  }
}

// ---------------------------------------------------------------------------
// Demo, part 2: hypot_stride with different grids
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoSmallElements = 1000000;   // the lab's n
constexpr int kDemoLargeElements = 64 << 20;  // 64 Mi: 768 MiB for a, b and c
constexpr int kDemoRepetitions = 10;
// hypot in float: within a few ulp of the double-precision value.
constexpr course::Tolerance kDemoTolerance{0.0, 5e-7};
// A result is compared with hypot in double at this many elements at most, spread over
// the whole array.
constexpr std::size_t kJudgedElements = 1 << 20;

struct GridRow {
  std::string name;
  int blocks = 0;
  int threads = 0;
};

void demo_hypot(int n, bool with_one_thread, double ceiling_gbps, int occupancy_blocks,
                DemoFunctions& functions) {
  const std::vector<float> a = grid_stride::make_hypot_a(n, kDemoSeed);
  const std::vector<float> b = grid_stride::make_hypot_b(n, kDemoSeed);
  course::DeviceBuffer<float> device_a(a), device_b(b), device_c(static_cast<std::size_t>(n));
  // Two floats read and one written per element.
  const double bytes = 3.0 * sizeof(float) * static_cast<double>(n);
  const std::vector<std::size_t> judged =
      course::spread_indices(static_cast<std::size_t>(n), kJudgedElements);
  const auto reference = [&](std::size_t i) {
    return std::hypot(static_cast<double>(a[i]), static_cast<double>(b[i]));
  };

  std::vector<GridRow> rows;
  if (with_one_thread) rows.push_back({"one thread", 1, 1});
  rows.push_back({"the lab's fixed grid", kLabStrideBlocks, kLabStrideThreadsPerBlock});
  rows.push_back({"occupancy-sized grid", occupancy_blocks, kHypotThreadsPerBlock});
  rows.push_back({"one thread per element", (n + kHypotThreadsPerBlock - 1) / kHypotThreadsPerBlock,
                  kHypotThreadsPerBlock});

  std::printf("\nn = %d:\n", n);
  // Its headings come with its first row that has a figure; a row without one is only
  // recorded (its problem was printed once).
  course::Table table(
      "hypot_" + std::to_string(n), "hypot_stride on " + std::to_string(n) + " elements, by grid",
      {course::Column::text("grid", "grid", 24), course::Column::integer("blocks", "blocks", 9),
       course::Column::integer("threads", "threads", 7),
       course::Column::number("per_thread", "elem/thread", 11, 1),
       course::Column::number("ms", "ms", 12, 4), course::Column::number("gbps", "GB/s", 9, 1),
       course::Column::number("ceiling_percent", "% of copy", 12, 1, "%")});
  for (const GridRow& row : rows) {
    const bool occupancy_row = row.name == "occupancy-sized grid";
    course::StudentFunction& function = occupancy_row ? functions.hypot : functions.stride;
    const auto launch = [&] {
      if (occupancy_row) {
        hypot_on_device(device_a.data(), device_b.data(), device_c.data(), n);
      } else {
        launch_hypot(row.blocks, row.threads, device_a.data(), device_b.data(), device_c.data(), n);
      }
    };
    course::Judgement result = function.skipped();
    double ms = 0.0;
    if (!function.not_implemented()) {
      // The first launch judged, then timed; one thread walks the whole array alone:
      // one timed launch is plenty.
      device_c.poison();
      launch();
      result = function.judge(course::compare_at(device_c.download().data(), judged, reference,
                                                 kDemoTolerance),
                              row.name + ", n = " + std::to_string(n));
      const bool single = row.blocks * row.threads == 1;
      if (result.right) {
        ms = course::time_device(launch, single ? 0 : 2, single ? 1 : kDemoRepetitions).median_ms;
      }
    }
    const double gbps = course::gigabytes_per_second(bytes, ms);
    const double per_thread =
        static_cast<double>(n) / (static_cast<double>(row.blocks) * row.threads);
    std::vector<course::Cell> cells = {
        row.name,
        row.blocks,
        row.threads,
        course::Cell::number_if(row.blocks > 0, per_thread),
        result.figure(ms),
        result.figure(gbps),
        result.figure(ceiling_gbps > 0.0 ? 100.0 * gbps / ceiling_gbps : NAN)};
    if (result.right) {
      table.add_row(std::move(cells), result.problem);
    } else {
      table.record_row(std::move(cells), result.problem);
    }
  }
  if (!with_one_thread && functions.stride.ready()) {
    std::printf("%-24s (not run: it would take seconds, n / 1M times the row above)\n",
                "one thread");
  }
}

int demo() {
  const course::DeviceSummary device = course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  DemoFunctions functions;
  demo_part_one(functions);

  std::printf("\nPart 2. c[i] = hypot(a[i], b[i]) with a grid-stride loop; a, b uniform in "
              "[-12, 12)\n");
  std::printf("GB/s = (2 floats read + 1 written) * 4 B * n / time; copy ceiling (a "
              "device-to-device copy, same run) = %.1f GB/s\n",
              ceiling_gbps);
  const int occupancy_blocks = occupancy_grid_blocks(kHypotThreadsPerBlock);
  const int expected_blocks = reference_occupancy_blocks(kHypotThreadsPerBlock);
  if (functions.occupancy
          .judge_value(occupancy_blocks != 0, occupancy_blocks == expected_blocks,
                       std::to_string(kHypotThreadsPerBlock) + " threads per block",
                       "returned " + std::to_string(occupancy_blocks) +
                           ", the occupancy API gives " + std::to_string(expected_blocks))
          .right) {
    std::printf("occupancy-sized grid = blocks per SM x %d SMs = %d blocks of %d threads\n",
                device.multiprocessors, occupancy_blocks, kHypotThreadsPerBlock);
  }
  demo_hypot(kDemoSmallElements, true, ceiling_gbps, occupancy_blocks, functions);
  // Neither the kernel nor its launcher written yet: the larger size would show nothing more.
  if (!(functions.stride.not_implemented() && functions.hypot.not_implemented())) {
    demo_hypot(kDemoLargeElements, false, ceiling_gbps, occupancy_blocks, functions);
  }
  std::printf("\n(`make check-13` grades every case)\n");
  return course::demo_status({&functions.add, &functions.square, &functions.cover,
                              &functions.occupancy, &functions.stride, &functions.hypot});
}

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
