// Exercise 13 - the demo (`make run-13`): the lab's add_kernel on 4096 elements with the
// lab's 32 x 128 grid, then with too few and too many threads; square_kernel; then
// hypot_stride on 1M and 64M elements with one thread, with the lab's fixed 128 x 64
// grid, with a grid sized by the occupancy API and with one thread per float4, each
// with its time, its bandwidth and its share of the copy ceiling measured in the same
// run, and beside them the same loop on the CPU's cores with OpenMP. Every result is
// compared with its reference before it is shown or timed: a function not written yet,
// or wrong, gets a line that says so and no figure (course/demo_results.hpp), and the
// demo then ends with status 1.
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

#include <omp.h>

#include "course/bench.hpp"
#include "course/cpu_cores.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/float4.hpp"
#include "course/launch.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "grid_stride.hpp"
#include "launches.cuh"
#include "workload.hpp"

namespace {

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

// The same hypot on every core the process may use (OpenMP): the CPU row of the table, with
// no grid and no share of the GPU's copy ceiling. The course's own loop, judged all the same.
template <typename Reference>
void add_cpu_row(course::Table& table, const std::vector<float>& a, const std::vector<float>& b,
                 const std::vector<std::size_t>& judged, const Reference& reference, double bytes) {
  const long long n = static_cast<long long>(a.size());
  std::vector<float> c(a.size());
  const auto hypot_on_cpu = [&] {
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) c[i] = std::hypot(a[i], b[i]);
  };
  hypot_on_cpu();  // also starts OpenMP's threads
  const course::Comparison comparison =
      course::compare_at(c.data(), judged, reference, kDemoTolerance);
  const std::string name = "CPU, OpenMP, " + std::to_string(omp_get_max_threads()) + " threads";
  if (!comparison.ok()) {
    table.record_row({name, course::Cell(), course::Cell(), course::Cell(), course::Cell(),
                      course::Cell(), course::Cell()},
                     "the CPU loop disagrees with hypot in double at " +
                         std::to_string(comparison.wrong) + " elements");
    return;
  }
  const double ms = course::time_host(hypot_on_cpu, 0, kDemoRepetitions).median_ms;
  table.add_row({name, course::Cell(), course::Cell(), course::Cell(), ms,
                 course::gigabytes_per_second(bytes, ms), course::Cell()});
}

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
  // hypot_stride moves four floats per access: a thread for each float4 of the arrays (the
  // last one partial) covers n in one pass, the float4 loop's one thread per element.
  const int vectors = (n + course::kFloatsPerFloat4 - 1) / course::kFloatsPerFloat4;
  rows.push_back({"one thread per float4",
                  static_cast<int>(
                      course::blocks_for(static_cast<std::size_t>(vectors), kHypotThreadsPerBlock)),
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
        grid_stride::launch_hypot(row.blocks, row.threads, device_a.data(), device_b.data(),
                                  device_c.data(), n);
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
  add_cpu_row(table, a, b, judged, reference, bytes);
  if (!with_one_thread && functions.stride.ready()) {
    std::printf("%-24s (not run: it would take seconds, n / 1M times the row above)\n",
                "one thread");
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  const course::DeviceSummary device = course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  course::print_cpu_cores();
  DemoFunctions functions;
  demo_part_one(functions);

  std::printf("\nPart 2. c[i] = hypot(a[i], b[i]) with a grid-stride loop; a, b uniform in "
              "[-12, 12)\n");
  std::printf("GB/s = (2 floats read + 1 written) * 4 B * n / time; copy ceiling (a "
              "device-to-device copy, same run) = %.1f GB/s\n",
              ceiling_gbps);
  const int occupancy_blocks = occupancy_grid_blocks(kHypotThreadsPerBlock);
  const int expected_blocks = grid_stride::reference_occupancy_blocks(kHypotThreadsPerBlock);
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
