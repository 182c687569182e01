// Exercise 22 - the demo (`make run-22`): each of the three transposes on a 1000 x 999
// matrix, compared element by element with the CPU's; then, on 8192 x 8192 floats, a
// table of their times and bandwidths as shares of a device-to-device cudaMemcpy, beside
// a copy kernel of the same shape (the same tiles, the same blocks, the same loop,
// out[i] = in[i]), the check's yardstick. Every result is compared with
// the transpose before it is shown or timed: a function not written yet, or wrong, gets a
// line that says so and no figure (course/demo_results.hpp), and the demo then ends with
// status 1.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/verify.hpp"
#include "steps.cuh"
#include "transpose.hpp"
#include "workload.hpp"

namespace {

using transpose::DeviceMatrices;
using transpose::kSteps;
using transpose::launch;
using transpose::launch_copy;

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoRaggedRows = 1000;
constexpr int kDemoRaggedCols = 999;
constexpr int kDemoRepetitions = 20;
// The 8192 x 8192 results are compared with the transpose at this many elements, spread
// over the whole matrix.
constexpr std::size_t kJudgedElements = 1 << 20;

// The student's functions, judged before anything they computed is shown.
struct DemoFunctions {
  course::StudentFunction naive{"transpose_naive"};
  course::StudentFunction tiled{"transpose_tiled"};
  course::StudentFunction padded{"transpose_padded"};
  course::StudentFunction& of(int step) {
    course::StudentFunction* all[] = {&naive, &tiled, &padded};
    return *all[step];
  }
  bool any_written() {
    return !naive.not_implemented() || !tiled.not_implemented() || !padded.not_implemented();
  }
};

std::string shape_text(int rows, int cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// Part 1: every element of a matrix whose sides are not multiples of the tile.
void demo_ragged(DemoFunctions& functions) {
  const int rows = kDemoRaggedRows, cols = kDemoRaggedCols;
  std::printf("\nPart 1. out = in^T for a %s matrix (edge tiles cut by the matrix's end)\n",
              shape_text(rows, cols).c_str());
  const std::vector<float> expected = transpose::reference(rows, cols, kDemoSeed);
  DeviceMatrices m(rows, cols, kDemoSeed);
  for (int s = 0; s < 3; ++s) {
    m.out.poison();
    launch(kSteps[s], m.in.data(), m.out.data(), rows, cols);
    const std::vector<float> got = m.out.download();
    if (functions.of(s)
            .judge(course::compare(got.data(), expected.data(), expected.size(), course::kExact),
                   shape_text(rows, cols))
            .right) {
      std::printf("  %-20s every one of the %d elements in its place\n", kSteps[s].label,
                  rows * cols);
    }
  }
}

// Part 2: the speed of each kernel, on a matrix far larger than L2.
void demo_speed(DemoFunctions& functions) {
  const int rows = transpose::kSpeedExtent, cols = transpose::kSpeedExtent;
  const double bytes = transpose::bytes_moved(rows, cols);
  DeviceMatrices m(rows, cols, kDemoSeed);
  const std::vector<std::size_t> judged =
      course::spread_indices(static_cast<std::size_t>(rows) * cols, kJudgedElements);
  const auto reference = [&](std::size_t k) {
    return transpose::input_value(kDemoSeed, transpose::source_index(static_cast<std::int64_t>(k),
                                                                     rows, cols));
  };
  const auto time_of = [&](auto&& work) {
    return course::time_device(work, 2, kDemoRepetitions).median_ms;
  };
  const double copy_ms = time_of([&] { launch_copy(m.in.data(), m.out.data(), rows, cols); });
  const double copy_kernel_gbps = course::gigabytes_per_second(bytes, copy_ms);
  // Every row's share is of one ceiling, the one the other exercises use: a device-to-device
  // cudaMemcpy timed in this run. The copy kernel with the transposes' tiles is a row of
  // its own: a ceiling for the tiles' shape, slower than cudaMemcpy.
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  std::printf("\nPart 2. Speed on %s floats: GB/s = 2 * 4 B * rows * cols / time (every "
              "element read once and written once); %% of copy = against a device-to-device "
              "cudaMemcpy timed in the same run (%.1f GB/s); the copy kernel with the same "
              "tiles reaches %.1f GB/s\n",
              shape_text(rows, cols).c_str(), ceiling_gbps, copy_kernel_gbps);
  course::Table table = course::bandwidth_table("transpose_8192", "transposes of 8192 x 8192");
  course::add_bandwidth_line(table, "copy kernel, same tiles", bytes / 2, bytes / 2, copy_ms,
                             ceiling_gbps);
  double ms[3] = {0.0, 0.0, 0.0};
  for (int s = 0; s < 3; ++s) {
    course::StudentFunction& function = functions.of(s);
    course::Judgement result = function.skipped();
    if (!function.not_implemented()) {
      m.out.poison();
      launch(kSteps[s], m.in.data(), m.out.data(), rows, cols);
      result = function.judge(course::compare_at(m.out.download().data(), judged, reference,
                                                 course::kExact),
                              shape_text(rows, cols));
    }
    if (result.right) {
      ms[s] = time_of([&] { launch(kSteps[s], m.in.data(), m.out.data(), rows, cols); });
    }
    course::add_bandwidth_line(table, result, kSteps[s].label, bytes / 2, bytes / 2, ms[s],
                               ceiling_gbps);
  }
  if (ms[1] > 0.0 && ms[2] > 0.0) {
    std::printf("  the padding alone: transpose_padded runs %.2fx as fast as transpose_tiled\n",
                ms[1] / ms[2]);
  }
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  DemoFunctions functions;
  demo_ragged(functions);
  if (functions.any_written()) {
    demo_speed(functions);
  } else {
    // Nothing of yours to compare: the copy is not timed either.
    std::printf("\nPart 2. Speed: not run, no kernel of yours is written yet\n");
  }
  std::printf("\n(`make check-22` grades every case)\n");
  return course::demo_status({&functions.naive, &functions.tiled, &functions.padded});
}
