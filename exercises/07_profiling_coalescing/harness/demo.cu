// Exercise 07 - the demo (`make run-07`): the given strided kernel and the student's
// coalesced kernel scale the rows of a 8192 x 4096 matrix (or ROWS x COLS given as
// arguments); each is timed with CUDA events, its bandwidth printed with its formula next
// to the copy ceiling measured in the same run. The student's kernel is compared with the
// CPU first: one not written yet, or wrong, is not timed and gets a line that says so
// (course/demo_results.hpp), and the demo then ends with status 1. The program is also
// what Nsight Compute and Nsight Systems profile (README.md).
//
// Build and run:  make 07 && make run-07   (another shape: make run-07 ARGS="1000 999")
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "coalescing.hpp"
#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/verify.hpp"
#include "strided.hpp"
#include "workload.hpp"

namespace {

using course::DeviceBuffer;

// ---------------------------------------------------------------------------
// CPU reference (the demo's; the check computes its own in double precision)
// ---------------------------------------------------------------------------
void scale_rows_on_cpu(const float* in, const float* gain, float* out, int rows, int cols) {
  for (int row = 0; row < rows; ++row) {
    const std::size_t start = static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
    for (int col = 0; col < cols; ++col) out[start + col] = gain[row] * in[start + col];
  }
}

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kDemoLaunches = 10;
// Larger shapes need more memory than most GPUs have for three buffers and the host copies.
constexpr long kMaxDemoElements = 1L << 28;
// The grid's y dimension holds at most 65535 blocks of kBlockRows rows.
constexpr long kMaxDemoRows = 65535L * kBlockRows;

// Times one launcher on the problem (its output was judged before).
template <typename Launch>
double time_launches(Launch launch) {
  return course::time_device(launch, coalescing::kWarmupLaunches, kDemoLaunches).median_ms;
}

int run_demo(int rows, int cols) {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();

  const std::vector<float> samples = coalescing::make_samples(rows, cols, kDemoSeed);
  const std::vector<float> gains = coalescing::make_gains(rows, kDemoSeed);
  std::vector<float> expected(samples.size());
  scale_rows_on_cpu(samples.data(), gains.data(), expected.data(), rows, cols);

  // The output starts poisoned, so that an element nobody wrote shows as such.
  DeviceBuffer<float> in(samples), gain(gains), strided_out(samples.size()),
      coalesced_out(samples.size());
  coalesced_out.poison();

  std::printf("\nout[row][col] = gain[row] * in[row][col], %d x %d floats (%.0f MiB in, as "
              "much out)\n",
              rows, cols, static_cast<double>(in.bytes()) / (1 << 20));
  std::printf("each kernel: median of %d launches after %d warm-up launches\n\n", kDemoLaunches,
              coalescing::kWarmupLaunches);
  // The student's kernel is judged on its first launch, before it is timed. Float
  // products round the same way on both sides: the result must match exactly.
  course::StudentFunction coalesced("launch_scale_rows_coalesced");
  launch_scale_rows_coalesced(in.data(), gain.data(), coalesced_out.data(), rows, cols);
  CUDA_CHECK(cudaDeviceSynchronize());
  const course::Judgement coalesced_result = coalesced.judge(course::compare(
      coalesced_out.download().data(), expected.data(), expected.size(), course::kExact));

  // The given strided kernel is timed in any case: it is what README.md profiles first.
  const double strided_ms = time_launches(
      [&] { launch_scale_rows_strided(in.data(), gain.data(), strided_out.data(), rows, cols); });
  const double coalesced_ms = coalesced_result.right ? time_launches([&] {
    launch_scale_rows_coalesced(in.data(), gain.data(), coalesced_out.data(), rows, cols);
  })
                                                     : 0.0;
  CUDA_CHECK(cudaDeviceSynchronize());

  // Each element is read once and written once, and each row's gain read once.
  const double bytes_read = static_cast<double>(in.bytes() + gain.bytes());
  const double bytes_written = static_cast<double>(in.bytes());
  course::Table bandwidth = course::bandwidth_table("scale_rows", "scaling the rows of a matrix");
  course::add_bandwidth_line(bandwidth, "scale_rows_strided (given)", bytes_read, bytes_written,
                             strided_ms, ceiling_gbps);
  course::add_bandwidth_line(bandwidth, coalesced_result, "scale_rows_coalesced      ", bytes_read,
                             bytes_written, coalesced_ms, ceiling_gbps);
  if (coalesced_result.right && coalesced_ms > 0.0) {
    std::printf("  the coalesced kernel is %.1fx faster than the strided one\n",
                strided_ms / coalesced_ms);
  }
  const course::Comparison strided = course::compare(strided_out.download().data(), expected.data(),
                                                     expected.size(), course::kExact);
  if (!strided.ok()) {
    std::printf("  the given strided kernel's output differs from the CPU's: %s",
                course::describe(strided, course::kExact, "out").c_str());
  }

  std::printf("\nNext: profile both kernels (README.md, \"Profiling\"), e.g.\n"
              "  ncu --section MemoryWorkloadAnalysis --kernel-name scale_rows_strided "
              "--launch-count 1 build/make/07_profiling_coalescing\n"
              "(`make check-07` grades the coalesced kernel)\n");
  return strided.ok() ? course::demo_status({&coalesced}) : EXIT_FAILURE;
}

// A positive int from the command line, or 0.
int parse_extent(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return (*end == '\0' && value > 0 && value <= kMaxDemoElements) ? static_cast<int>(value) : 0;
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  int rows = coalescing::kTimingRows;
  int cols = coalescing::kTimingCols;
  if (argc == 3) {
    rows = parse_extent(argv[1]);
    cols = parse_extent(argv[2]);
  }
  if ((argc != 1 && argc != 3) || rows == 0 || cols == 0 || rows > kMaxDemoRows ||
      static_cast<long>(rows) * cols > kMaxDemoElements) {
    std::fprintf(stderr,
                 "usage: %s [ROWS COLS]   (default %d %d; at most %ld rows and %ld elements)\n",
                 argv[0], coalescing::kTimingRows, coalescing::kTimingCols, kMaxDemoRows,
                 kMaxDemoElements);
    return 2;
  }
  return run_demo(rows, cols);
}
