// Exercise 05 - the demo (`make run-05`): one stencil update of a 500 x 384 x 256 grid by the
// serial loop, by the OpenMP loop with 1, 2, 4, ... threads, and by the kernel on
// blocks of several shapes, with times, effective bandwidths against the copy ceiling
// measured in the same run, and the answers to the seed's two questions: how many CPU
// cores match the GPU, and which block shapes win and why. Each version is compared with
// the double-precision reference before it is timed: one not written yet, or wrong, gets
// a line that says so and no figure (course/demo_results.hpp), and the demo then ends
// with status 1.
//
// Build and run:  make 05 && make run-05   (another grid: make run-05 ARGS="256 256 256")
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/cpu_cores.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "three_d_blocks.hpp"
#include "workload.hpp"

namespace {

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 5;
// 49 million points, 197 MB per array: several times the L2 cache of any GPU the
// course runs on, so that the kernel's figures are those of DRAM, and enough work for
// every CPU thread. x is not a multiple of 256, so blocks of 256 x 1 x 1 stick out.
constexpr int kDemoSize[3] = {500, 384, 256};
constexpr int kCpuRepetitions = 3;
constexpr int kGpuRepetitions = 5;
// A warp is 32 threads with consecutive linear thread numbers in their block, x fastest.
constexpr int kWarpSize = 32;

struct BlockShape {
  unsigned x, y, z;
};
// From a whole warp along x to a warp along y (1 x 32 x 32), and flat to cubic.
constexpr BlockShape kDemoShapes[] = {{32, 4, 2},  {16, 8, 4},  {8, 8, 8},  {4, 8, 32},
                                      {1, 32, 32}, {128, 2, 1}, {256, 1, 1}};

struct GpuRow {
  BlockShape shape;
  course::Judgement result;  // judged before it was timed
  double kernel_ms = 0.0;
};

struct CpuRow {
  int threads = 0;
  course::Judgement result;
  double ms = 0.0;
};

// What one warp of a block of this shape reads per neighbour: runs of consecutive
// floats along x, each run a separate memory segment.
std::string warp_footprint(const BlockShape& shape) {
  const int run = static_cast<int>(std::min<unsigned>(shape.x, kWarpSize));
  char text[48];
  std::snprintf(text, sizeof text, "%2d run(s) of %3d B", kWarpSize / run,
                run * static_cast<int>(sizeof(float)));
  return text;
}

// 1, 2, 4, ... and the maximum itself when it is not a power of two.
std::vector<int> thread_counts() {
  const int most = omp_get_max_threads();
  std::vector<int> counts;
  for (int t = 1; t < most; t *= 2) counts.push_back(t);
  counts.push_back(most);
  return counts;
}

double gbps_of(std::size_t points, double ms) {
  const double bytes = 2.0 * static_cast<double>(points) * sizeof(float);
  return course::gigabytes_per_second(bytes, ms);
}

// Every version is compared with the double-precision reference (workload.hpp) before
// it is timed; the count of wrong points goes into the tables.
course::Judgement judge(course::StudentFunction& function, const std::vector<float>& out,
                        const std::vector<double>& reference, const std::string& context,
                        std::size_t& wrong) {
  const course::Comparison c =
      course::compare(out.data(), reference.data(), reference.size(), three_d_blocks::kTolerance);
  wrong = c.wrong;
  return function.judge(c, context);
}

int run_demo(int nx, int ny, int nz) {
  const course::DeviceSummary device = course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  const std::size_t points = three_d_blocks::point_count(nx, ny, nz);
  const double bytes = 2.0 * static_cast<double>(points) * sizeof(float);

  std::printf("\nOne stencil update of a %d x %d x %d grid (%zu points, x fastest in memory)\n", nx,
              ny, nz, points);
  std::printf("GB/s = (%zu floats read + %zu written) x 4 B / time = %.3g B / time: each point "
              "is read once from memory (its neighbours come from cache) and written once\n",
              points, points, bytes);
  std::printf("copy ceiling of %s (a device-to-device copy): %.1f GB/s\n\n", device.name.c_str(),
              ceiling_gbps);

  const std::vector<float> in = three_d_blocks::make_input(nx, ny, nz, kDemoSeed);
  const std::vector<double> reference = three_d_blocks::reference_stencil(in, nx, ny, nz);
  std::vector<float> serial_out(points), openmp_out(points), gpu_out(points);
  course::StudentFunction serial("stencil_serial"), openmp("stencil_openmp"), gpu("stencil_on_gpu");

  // CPU: the serial loop, judged on its first run (also its first time sample), then the
  // OpenMP loop with more and more threads. The tables' headings come with their first
  // row that has a figure.
  course::print_cpu_cores();
  std::printf("CPU (%d cores visible to OpenMP, at most %d threads)\n", omp_get_num_procs(),
              omp_get_max_threads());
  course::Table cpu_table("cpu", "the stencil on the CPU, serial and OpenMP",
                          {course::Column::text("version", "version", 18),
                           course::Column::number("ms", "ms", 10, 2),
                           course::Column::number("gbps", "GB/s", 9, 1),
                           course::Column::number("speedup", "speedup", 9, 1, "x"),
                           course::Column::integer("wrong", "wrong points", 12)});
  course::poison(serial_out.data(), points);
  const course::WallTimer first_serial_run;
  stencil_serial(in.data(), serial_out.data(), nx, ny, nz);
  std::vector<double> serial_samples = {first_serial_run.elapsed_ms()};
  std::size_t serial_wrong = 0;
  const course::Judgement serial_result = judge(serial, serial_out, reference, "", serial_wrong);
  if (serial_result.right) {
    for (int r = 1; r < kCpuRepetitions; ++r) {
      const course::WallTimer timer;
      stencil_serial(in.data(), serial_out.data(), nx, ny, nz);
      serial_samples.push_back(timer.elapsed_ms());
    }
    cpu_table.add_row({"serial", serial_result.figure(course::median(serial_samples)),
                       serial_result.figure(gbps_of(points, course::median(serial_samples))),
                       serial_result.figure(1.0), serial_wrong});
  } else {
    cpu_table.record_row({"serial", course::Cell(), course::Cell(), course::Cell(), serial_wrong},
                         serial_result.problem);
  }
  const double serial_ms = serial_result.right ? course::median(serial_samples) : 0.0;
  std::vector<CpuRow> cpu_rows;
  for (const int threads : thread_counts()) {
    // A loop not written yet writes nothing with any number of threads.
    if (openmp.not_implemented()) break;
    omp_set_num_threads(threads);
    course::poison(openmp_out.data(), points);
    CpuRow row;
    row.threads = threads;
    // The first run (which also starts the threads of the OpenMP team) is judged.
    stencil_openmp(in.data(), openmp_out.data(), nx, ny, nz);
    std::size_t wrong = 0;
    const std::string label =
        "OpenMP, " + std::to_string(threads) + " thread" + (threads > 1 ? "s" : "");
    row.result = judge(openmp, openmp_out, reference, label, wrong);
    if (row.result.right) {
      row.ms = course::time_host([&] { stencil_openmp(in.data(), openmp_out.data(), nx, ny, nz); },
                                 0, kCpuRepetitions)
                   .median_ms;
    }
    const course::Judgement both = course::all_of({serial_result, row.result});
    std::vector<course::Cell> cells = {label, row.result.figure(row.ms),
                                       row.result.figure(gbps_of(points, row.ms)),
                                       both.figure(serial_ms / row.ms), wrong};
    if (row.result.right) {
      cpu_table.add_row(std::move(cells), both.problem);
    } else {
      cpu_table.record_row(std::move(cells), row.result.problem);
    }
    cpu_rows.push_back(row);
  }

  // GPU: the student's launcher for each block shape, judged on its first call (which
  // also loads the kernel), then the median of the kernel times it returns.
  std::printf("\nGPU kernel, by block shape (x fastest: a warp is 32 threads consecutive in x, "
              "then y, then z)\n");
  course::Table gpu_table("block_shapes", "the stencil kernel, by block shape",
                          {course::Column::text("block", "block", 12),
                           course::Column::integer("threads", "threads", 8),
                           course::Column::right_text("warp_reads", "a warp reads", 20),
                           course::Column::number("kernel_ms", "kernel ms", 10, 4),
                           course::Column::number("gbps", "GB/s", 9, 1),
                           course::Column::number("ceiling_percent", "ceiling", 8, 1, "%"),
                           course::Column::integer("wrong", "wrong points", 12)});
  std::vector<GpuRow> gpu_rows;
  for (const BlockShape& shape : kDemoShapes) {
    // A launcher not written yet computes nothing with any block shape.
    if (gpu.not_implemented()) break;
    const dim3 block(shape.x, shape.y, shape.z);
    char label[32];
    std::snprintf(label, sizeof label, "%ux%ux%u", shape.x, shape.y, shape.z);
    course::poison(gpu_out.data(), points);
    GpuRow row;
    row.shape = shape;
    const float first_kernel_ms = stencil_on_gpu(in.data(), gpu_out.data(), nx, ny, nz, block);
    std::size_t wrong = 0;
    row.result = judge(gpu, gpu_out, reference, std::string("block ") + label, wrong);
    if (row.result.right) row.result = gpu.judge_time(first_kernel_ms, "kernel time");
    if (row.result.right) {
      std::vector<double> samples;
      for (int r = 0; r < kGpuRepetitions; ++r) {
        samples.push_back(stencil_on_gpu(in.data(), gpu_out.data(), nx, ny, nz, block));
      }
      row.kernel_ms = course::median(samples);
    }
    const double gbps = gbps_of(points, row.kernel_ms);
    std::vector<course::Cell> cells = {
        label,
        shape.x * shape.y * shape.z,
        warp_footprint(shape),
        row.result.figure(row.kernel_ms),
        row.result.figure(gbps),
        row.result.figure(ceiling_gbps > 0.0 ? 100.0 * gbps / ceiling_gbps : NAN),
        wrong};
    if (row.result.right) {
      gpu_table.add_row(std::move(cells), row.result.problem);
    } else {
      gpu_table.record_row(std::move(cells), row.result.problem);
    }
    gpu_rows.push_back(row);
  }

  // The answers, from the versions that computed every point right.
  std::vector<GpuRow> timed;
  for (const GpuRow& row : gpu_rows) {
    if (row.result.right) timed.push_back(row);
  }
  if (timed.empty() || cpu_rows.empty() || !cpu_rows.back().result.right || !serial_result.right) {
    std::printf("\nNo answers yet: every version must compute every point right, and "
                "stencil_on_gpu must return the kernel's time (make check-05 says what is "
                "missing).\n");
    return course::demo_status({&serial, &openmp, &gpu});
  }
  const CpuRow& widest = cpu_rows.back();
  const auto by_time = [](const GpuRow& a, const GpuRow& b) { return a.kernel_ms < b.kernel_ms; };
  const GpuRow best = *std::min_element(timed.begin(), timed.end(), by_time);
  const GpuRow worst = *std::max_element(timed.begin(), timed.end(), by_time);

  std::printf("\nHow many CPU cores match the GPU?\n");
  std::printf("  The GPU's best block, %ux%ux%u, takes %.4f ms (%.1f GB/s); %d CPU threads take "
              "%.2f ms (%.1f GB/s): the GPU is %.0fx faster.\n",
              best.shape.x, best.shape.y, best.shape.z, best.kernel_ms,
              gbps_of(points, best.kernel_ms), widest.threads, widest.ms,
              gbps_of(points, widest.ms), widest.ms / best.kernel_ms);
  const CpuRow* matching = nullptr;
  for (const CpuRow& row : cpu_rows) {
    if (row.ms > 0.0 && row.ms <= best.kernel_ms && matching == nullptr) matching = &row;
  }
  if (matching != nullptr) {
    std::printf("  %d CPU threads already match it on this machine.\n", matching->threads);
  } else {
    // Extrapolated as if the CPU kept scaling linearly from its widest measurement.
    const double cores = widest.threads * widest.ms / best.kernel_ms;
    const double efficiency = cpu_rows.front().ms / (widest.threads * widest.ms);
    std::printf("  Linear scaling from %d threads would take about %.0f cores. That is a lower "
                "bound: from 1 to %d threads the CPU kept %.0f%% of perfect scaling, and a loop "
                "that moves this much data per operation stops scaling once the memory bus of "
                "the CPU is full (tens to a few hundred GB/s against the GPU's %.0f GB/s copy "
                "ceiling).\n",
                widest.threads, std::ceil(cores), widest.threads, 100.0 * efficiency, ceiling_gbps);
  }

  std::printf("\nWhich block shape, and why?\n");
  std::printf("  Best %ux%ux%u (%.4f ms), worst %ux%ux%u (%.4f ms): %.1fx apart for the same "
              "work.\n",
              best.shape.x, best.shape.y, best.shape.z, best.kernel_ms, worst.shape.x,
              worst.shape.y, worst.shape.z, worst.kernel_ms, worst.kernel_ms / best.kernel_ms);
  std::printf("  The 32 threads of a warp are consecutive in x first. With block.x >= 32 they "
              "read 32 consecutive floats, one 128-byte segment per neighbour; with block.x = 1 "
              "(1x32x32) they read 32 floats nx * 4 bytes apart, 32 segments for the same "
              "data. Memory moves whole segments: the shapes whose warps run along x "
              "(coalesced accesses) waste least.\n");

  std::printf("\n(`make check-05` grades every case against a double-precision reference)\n");
  return course::demo_status({&serial, &openmp, &gpu});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  int size[3] = {kDemoSize[0], kDemoSize[1], kDemoSize[2]};
  if (argc != 1 && argc != 4) {
    std::fprintf(stderr, "usage: %s [nx ny nz]   (default %d %d %d)\n", argv[0], kDemoSize[0],
                 kDemoSize[1], kDemoSize[2]);
    return 2;
  }
  // Every block shape of the sweep must fit: at most 65535 blocks in y and z.
  constexpr long kMaxSize = 65535;
  for (int d = 0; argc == 4 && d < 3; ++d) {
    char* end = nullptr;
    const long value = std::strtol(argv[d + 1], &end, 10);
    if (*end != '\0' || value < 1 || value > kMaxSize) {
      std::fprintf(stderr, "%s: each size must be an integer from 1 to %ld, got '%s'\n", argv[0],
                   kMaxSize, argv[d + 1]);
      return 2;
    }
    size[d] = static_cast<int>(value);
  }
  const std::size_t points = three_d_blocks::point_count(size[0], size[1], size[2]);
  if (points >= (std::size_t{1} << 31)) {
    std::fprintf(stderr, "%s: %zu points: the grid must have fewer than 2^31\n", argv[0], points);
    return 2;
  }
  return run_demo(size[0], size[1], size[2]);
}
