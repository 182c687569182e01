// Exercise 22 - the program around the student's functions (instructor-owned).
//
// `make run-22` runs the demo: each of the three transposes on a 1000 x 999 matrix,
// compared element by element with the CPU's; then, on 8192 x 8192 floats, a table of
// their times and bandwidths beside a copy kernel of the same shape (the same tiles, the
// same blocks, the same loop, out[i] = in[i]): the ceiling a transpose can reach, and
// cudaMemcpy's device-to-device copy for scale. Every result is compared with the
// transpose before it is shown or timed: a function not written yet, or wrong, gets a
// line that says so and no figure (course/demo_results.hpp), and the demo then ends with
// status 1. The check runs this same program with --course-case to compute its cases
// (common/course/check/runner.hpp).
//
// Build and run:  make 22 && make run-22
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/table.hpp"
#include "course/verify.hpp"
#include "transpose.hpp"
#include "workload.hpp"

namespace {

using Kernel = void (*)(const float*, float*, int, int);

// ---------------------------------------------------------------------------
// The ceiling: a copy of the same shape
// ---------------------------------------------------------------------------

// [slide:copy]
// The transposes' yardstick: the same grid of tiles, the same blocks and the same loop,
// but each element goes back to where it came from. Reads and writes are both rows:
// what a transpose reaches at best.
__global__ void copy_tile_shaped(const float* in, float* out, int rows, int cols) {
  const int col = blockIdx.x * kTileDim + threadIdx.x;
  const int first_row = blockIdx.y * kTileDim + threadIdx.y;
  for (int j = 0; j < kTileDim; j += kBlockRows) {
    const int row = first_row + j;
    if (col < cols && row < rows) out[row * cols + col] = in[row * cols + col];
  }
}
// [/slide]

const dim3 kBlock(kTileDim, kBlockRows);

// The copy's grid, the runner's own: one whose student version is wrong must not slow
// the yardstick down.
void launch_copy(const float* in, float* out, int rows, int cols) {
  const dim3 grid(static_cast<unsigned>(transpose::tiles_across(cols)),
                  static_cast<unsigned>(transpose::tiles_across(rows)));
  copy_tile_shaped<<<grid, kBlock>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------
// The student's kernels, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;   // the check's
  const char* label;  // the demo's
  Kernel kernel;
};

const Step kSteps[] = {
    {"naive", "1 transpose_naive", transpose_naive},
    {"tiled", "2 transpose_tiled", transpose_tiled},
    {"padded", "3 transpose_padded", transpose_padded},
};

const Step& step_named(const std::string& name) {
  for (const Step& step : kSteps) {
    if (name == step.name) return step;
  }
  std::fprintf(stderr, "check protocol: unknown kernel '%s'\n", name.c_str());
  std::exit(2);
}

// A student's kernel on the student's grid.
void launch(const Step& step, const float* in, float* out, int rows, int cols) {
  step.kernel<<<tile_grid(rows, cols), kBlock>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// The input of a run and its output, poisoned.
struct DeviceMatrices {
  DeviceMatrices(int rows, int cols, std::uint64_t seed)
      : in(transpose::make_input(rows, cols, seed)),
        out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
    out.poison();
  }
  course::DeviceBuffer<float> in, out;
};

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

// tile_grid on every shape of kGridShapes: x, y, z for each, in turn.
void run_grid_case(course::check::ResultWriter& results) {
  std::vector<std::int32_t> grids;
  for (const transpose::Shape& shape : transpose::kGridShapes) {
    const dim3 grid = tile_grid(shape.rows, shape.cols);
    for (const unsigned extent : {grid.x, grid.y, grid.z}) {
      grids.push_back(static_cast<std::int32_t>(extent));
    }
  }
  results.put("grids", grids);
}

// One kernel on one matrix: every element of its output.
void run_transpose_case(const course::check::CaseRequest& request,
                        course::check::ResultWriter& results) {
  const Step& step = step_named(request.param("kernel"));
  const int rows = static_cast<int>(request.param_int("rows"));
  const int cols = static_cast<int>(request.param_int("cols"));
  DeviceMatrices m(rows, cols, request.seed);
  launch(step, m.in.data(), m.out.data(), rows, cols);
  results.put("out", m.out.download());
}

// Every kSampleStride-th element of a downloaded output.
std::vector<float> sample_of(const std::vector<float>& out) {
  std::vector<float> sample;
  for (std::size_t k = 0; k < out.size(); k += transpose::kSampleStride) sample.push_back(out[k]);
  return sample;
}

// Timing: rounds of (copy, naive, tiled, padded), each the median of `repetitions` timed
// launches; the best round of each counts, so that a clock still rising or a neighbour's
// burst cannot decide.
constexpr int kSpeedRounds = 3;
constexpr int kSpeedWarmup = 2;

// Every kernel on one matrix: first each student kernel once on a poisoned output, a
// sample of which is reported (<name>_sample: the check judges it before any time), then
// the times copy_ms, <name>_ms, and the device-to-device copy's GB/s as copy_gbps (0 when
// the check says ceiling=0: under compute-sanitizer its buffers are hundreds of MiB).
void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const int rows = static_cast<int>(request.param_int("rows"));
  const int cols = static_cast<int>(request.param_int("cols"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  DeviceMatrices m(rows, cols, request.seed);
  for (const Step& step : kSteps) {
    m.out.poison();
    launch(step, m.in.data(), m.out.data(), rows, cols);
    results.put(std::string(step.name) + "_sample", sample_of(m.out.download()));
  }
  double copy_ms = 0.0, step_ms[3] = {0.0, 0.0, 0.0};
  for (int round = 0; round < kSpeedRounds; ++round) {
    const auto best = [&](auto&& work, double so_far) {
      const double ms = course::time_device(work, kSpeedWarmup, repetitions).median_ms;
      return round == 0 ? ms : std::min(so_far, ms);
    };
    copy_ms = best([&] { launch_copy(m.in.data(), m.out.data(), rows, cols); }, copy_ms);
    for (int s = 0; s < 3; ++s) {
      step_ms[s] =
          best([&] { launch(kSteps[s], m.in.data(), m.out.data(), rows, cols); }, step_ms[s]);
    }
  }
  results.put_value("copy_ms", copy_ms);
  for (int s = 0; s < 3; ++s) results.put_value(std::string(kSteps[s].name) + "_ms", step_ms[s]);
  const bool ceiling = request.param_int("ceiling") != 0;
  results.put_value("copy_gbps", ceiling ? course::measure_copy_ceiling_gbps() : 0.0);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "grid") {
    run_grid_case(results);
  } else if (kind == "transpose") {
    run_transpose_case(request, results);
  } else if (kind == "speed") {
    run_speed_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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
  std::printf("\nPart 2. Speed on %s floats: GB/s = 2 * 4 B * rows * cols / time (every "
              "element read once and written once); %% of copy = against the copy kernel of "
              "the same shape, timed in the same run (%.1f GB/s), a device-to-device "
              "cudaMemcpy reaches %.1f GB/s\n",
              shape_text(rows, cols).c_str(), copy_kernel_gbps,
              course::measure_copy_ceiling_gbps());
  course::Table table = course::bandwidth_table("transpose_8192", "transposes of 8192 x 8192");
  course::add_bandwidth_line(table, "copy, same tiles (ceiling)", bytes / 2, bytes / 2, copy_ms,
                             copy_kernel_gbps);
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
                               copy_kernel_gbps);
  }
  if (ms[1] > 0.0 && ms[2] > 0.0) {
    std::printf("  the padding alone: transpose_padded runs %.2fx as fast as transpose_tiled\n",
                ms[1] / ms[2]);
  }
}

int demo() {
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

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
