// Exercise 09 - the demo (`make run-09`): the lab's three GPU ufuncs on the lab's data:
//   - the Gaussian density of a million floats: a CPU loop, the GPU kernel alone, the
//     GPU call with its transfers, and the same kernel in float64;
//   - the polar distance of a million pairs of points;
//   - the zero suppression of the noisy pulse train (100000 int16 samples);
// each kernel's effective bandwidth next to the copy ceiling measured in the same run.
// Each function's result is compared with its reference before it is timed: one not
// written yet, or wrong, gets a line that says so and no figure (course/demo_results.hpp),
// and the demo then ends with status 1.
//
// Build and run:  make 09 && make run-09
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "elementwise.hpp"
#include "workload.hpp"

namespace {

using course::DeviceBuffer;

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 20;
constexpr int kCpuRuns = 5;
// Past the lab's million (8 MB in and out, which a large L2 cache holds), a size whose
// buffers are far larger than any L2: there the kernels are bound by DRAM bandwidth.
constexpr int kLargeGaussianElements = 1 << 26;
constexpr int kCpuRunsLarge = 1;

// The Gaussian on the CPU, in float like the kernel, one element after the other.
void gaussian_pdf_cpu(const std::vector<float>& x, std::vector<float>& y, float mean, float sigma) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float z = (x[i] - mean) / sigma;
    y[i] = std::exp(-0.5f * z * z) / (sigma * elementwise::kSqrt2Pi);
  }
}

// The same kernel in float64, to show what double precision costs: twice the bytes,
// and a slower arithmetic (from 2x on data-centre GPUs to 64x on consumer ones).
// [slide:double-kernel]
__global__ void gaussian_pdf_double_kernel(const double* x, double* y, int n, double mean,
                                           double sigma) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double z = (x[i] - mean) / sigma;
    y[i] = exp(-0.5 * z * z) / (sigma * 2.50662827463100050242);
  }
}
// [/slide]

// The three functions, judged before any of their figures is shown.
struct DemoFunctions {
  course::StudentFunction gaussian{"gaussian_pdf_gpu"};
  course::StudentFunction polar{"polar_distance_gpu"};
  course::StudentFunction zero_suppress{"zero_suppress_gpu"};
};

// The Gaussian's reference costs a few tens of nanoseconds per element: a result is
// compared with it at this many elements at most, spread over the whole array.
constexpr std::size_t kJudgedElements = 1 << 20;

void demo_gaussian(int n, double ceiling_gbps, course::StudentFunction& gaussian) {
  using namespace elementwise;
  const std::vector<float> x = make_gaussian_x(n, kDemoSeed);
  std::printf("\nGaussian pdf of %d floats in [%g, %g), mean %g, sigma %g\n", n, kGaussianXMin,
              kGaussianXMax, kLabMean, kLabSigma);
  DeviceBuffer<float> device_x(x), device_y(x.size());
  std::vector<float> gpu_y(x.size());
  // One call judged first (none more once it is known not to be written): nothing below
  // is timed for a result that is not right.
  course::Judgement result = gaussian.skipped();
  const bool said_before = gaussian.not_implemented();
  if (!said_before) {
    device_y.poison();
    gaussian_pdf_gpu(device_x.data(), device_y.data(), n, kLabMean, kLabSigma);
    device_y.download(gpu_y.data());
    result = gaussian.judge(
        course::compare_at(
            gpu_y.data(), course::spread_indices(x.size(), kJudgedElements),
            [&](std::size_t i) { return gaussian_pdf_reference(x[i], kLabMean, kLabSigma); },
            kGaussianTolerance),
        "n = " + std::to_string(n));
  }
  const std::string size = std::to_string(n);
  course::Table times(
      "gaussian_times_" + size, "Gaussian pdf of " + size + " floats: CPU and GPU times",
      {course::Column::text("version", "version", 30), course::Column::number("ms", "ms", 9, 3),
       course::Column::number("speedup", "x the CPU", 9, 1, "x")});
  course::Table bandwidth =
      course::bandwidth_table("gaussian_" + size, "Gaussian pdf of " + size + " values");
  const double bytes = static_cast<double>(n) * sizeof(float);
  if (!result.right) {
    if (said_before) std::printf("  skipped: %s\n", result.problem.c_str());
    // The CPU loop and the float64 kernel are there to be compared with it: not timed.
    for (const char* version : {"CPU loop (one core)", "GPU kernel alone",
                                "GPU with transfers in and out", "float64 kernel alone"}) {
      times.record_row({version, course::Cell(), course::Cell()}, result.problem);
    }
    course::add_bandwidth_line(bandwidth, result, "float32 kernel", bytes, bytes, 0.0,
                               ceiling_gbps);
    course::add_bandwidth_line(bandwidth, result, "float64 kernel", 2 * bytes, 2 * bytes, 0.0,
                               ceiling_gbps);
    return;
  }

  const int cpu_runs = n > kGaussianElements ? kCpuRunsLarge : kCpuRuns;
  std::vector<float> cpu_y(x.size());
  const double cpu_ms =
      course::time_host([&] { gaussian_pdf_cpu(x, cpu_y, kLabMean, kLabSigma); }, 1, cpu_runs)
          .median_ms;
  const double kernel_ms =
      course::time_device(
          [&] { gaussian_pdf_gpu(device_x.data(), device_y.data(), n, kLabMean, kLabSigma); },
          kWarmupRuns, kTimedRuns)
          .median_ms;
  const double round_trip_ms =
      course::time_host(
          [&] {
            device_x.upload(x);
            gaussian_pdf_gpu(device_x.data(), device_y.data(), n, kLabMean, kLabSigma);
            device_y.download(gpu_y.data());
          },
          1, cpu_runs)
          .median_ms;

  std::vector<double> x_double(x.begin(), x.end());
  DeviceBuffer<double> device_x_double(x_double), device_y_double(x.size());
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const double double_ms =
      course::time_device(
          [&] {
            gaussian_pdf_double_kernel<<<blocks, kThreadsPerBlock>>>(
                device_x_double.data(), device_y_double.data(), n, kLabMean, kLabSigma);
            CUDA_CHECK_LAUNCH();
          },
          kWarmupRuns, kTimedRuns)
          .median_ms;

  const course::Comparison differences =
      course::compare(gpu_y.data(), cpu_y.data(), gpu_y.size(), course::kExact);
  std::printf("  CPU loop (one core)           %9.3f ms\n", cpu_ms);
  std::printf("  GPU kernel alone              %9.3f ms   %.0fx the CPU\n", kernel_ms,
              cpu_ms / kernel_ms);
  std::printf("  GPU with transfers in and out %9.3f ms   %.1fx the CPU\n", round_trip_ms,
              cpu_ms / round_trip_ms);
  std::printf("  the same kernel in float64    %9.3f ms   %.2fx the float32 kernel's time\n",
              double_ms, double_ms / kernel_ms);
  // The lines above, for the report: each time and the CPU's time over it.
  for (const auto& [version, ms] : {std::pair<const char*, double>{"CPU loop (one core)", cpu_ms},
                                    {"GPU kernel alone", kernel_ms},
                                    {"GPU with transfers in and out", round_trip_ms},
                                    {"float64 kernel alone", double_ms}}) {
    times.record_row({version, ms, course::Cell::number_if(ms > 0.0, cpu_ms / ms)});
  }
  course::add_bandwidth_line(bandwidth, "float32 kernel", bytes, bytes, kernel_ms, ceiling_gbps);
  course::add_bandwidth_line(bandwidth, "float64 kernel", 2 * bytes, 2 * bytes, double_ms,
                             ceiling_gbps);
  std::printf("  GPU vs CPU: %zu of %d values differ (expf vs the CPU's expf), by at most %.3g\n",
              differences.wrong, n, differences.max_abs_error);
}

void demo_polar(double ceiling_gbps, course::StudentFunction& polar) {
  using namespace elementwise;
  const int n = kPolarElements;
  const PolarPoints points = make_polar_points(n, kDemoSeed);
  const DeviceBuffer<float> rho1(points.rho1), theta1(points.theta1), rho2(points.rho2),
      theta2(points.theta2);
  DeviceBuffer<float> distance(static_cast<std::size_t>(n));
  std::printf("\nPolar distance of %d pairs of points (radii in [%g, %g), angles in [-pi, pi))\n",
              n, kRhoMin, kRhoMax);
  const auto run = [&] {
    polar_distance_gpu(rho1.data(), theta1.data(), rho2.data(), theta2.data(), distance.data(), n);
  };
  distance.poison();
  run();
  const std::vector<float> d = distance.download();
  const course::Judgement result = polar.judge(course::compare_at(
      d.data(), course::spread_indices(d.size(), d.size()),
      [&](std::size_t i) { return polar_distance_reference(points, i); }, kDistanceTolerance));
  const double kernel_ms =
      result.right ? course::time_device(run, kWarmupRuns, kTimedRuns).median_ms : 0.0;
  const double read = 4.0 * n * sizeof(float), written = 1.0 * n * sizeof(float);
  course::Table bandwidth = course::bandwidth_table(
      "polar_distance", "polar distance of " + std::to_string(n) + " pairs of points");
  course::add_bandwidth_line(bandwidth, result, "kernel", read, written, kernel_ms, ceiling_gbps);
  if (result.right) {
    double mean_distance = 0.0;
    for (const float value : d) mean_distance += value;
    std::printf("  mean distance %.4f (about 1.3 for these radii)\n", mean_distance / n);
  }
}

void demo_zero_suppress(double ceiling_gbps, course::StudentFunction& zero_suppress) {
  using namespace elementwise;
  const int n = kPulseTrainSamples;
  const std::vector<std::int16_t> waveform = make_pulse_train(n, kDemoSeed);
  const DeviceBuffer<std::int16_t> device_waveform(waveform);
  DeviceBuffer<std::int16_t> device_out(waveform.size());
  std::printf("\nZero suppression of the noisy pulse train (%d int16 samples, threshold %d)\n", n,
              kLabThreshold);
  const auto run = [&] {
    zero_suppress_gpu(device_waveform.data(), device_out.data(), n, kLabThreshold);
  };
  device_out.poison();
  run();
  const std::vector<std::int16_t> out = device_out.download();
  const course::Judgement result = zero_suppress.judge(course::compare_at(
      out.data(), course::spread_indices(out.size(), out.size()),
      [&](std::size_t i) { return suppressed_sample(waveform[i], kLabThreshold); },
      course::kExact));
  const double kernel_ms =
      result.right ? course::time_device(run, kWarmupRuns, kTimedRuns).median_ms : 0.0;
  const double bytes = static_cast<double>(n) * sizeof(std::int16_t);
  course::Table bandwidth = course::bandwidth_table(
      "zero_suppress", "zero suppression of " + std::to_string(n) + " int16 samples");
  course::add_bandwidth_line(bandwidth, result, "kernel", bytes, bytes, kernel_ms, ceiling_gbps);
  if (result.right) {
    int nonzero_before = 0, nonzero_after = 0;
    for (int i = 0; i < n; ++i) {
      nonzero_before += waveform[static_cast<std::size_t>(i)] != 0;
      nonzero_after += out[static_cast<std::size_t>(i)] != 0;
    }
    std::printf("  non-zero samples: %d before, %d after (the baseline noise is gone)\n",
                nonzero_before, nonzero_after);
    std::printf(
        "  (%d samples: too few to fill the GPU - the time is the launch's, not the work's)\n", n);
  }
}

int run_demo() {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  std::printf("GB/s = (bytes read + bytes written) / kernel time; copy ceiling %.1f GB/s\n",
              ceiling_gbps);
  DemoFunctions functions;
  demo_gaussian(elementwise::kGaussianElements, ceiling_gbps, functions.gaussian);
  demo_gaussian(kLargeGaussianElements, ceiling_gbps, functions.gaussian);
  demo_polar(ceiling_gbps, functions.polar);
  demo_zero_suppress(ceiling_gbps, functions.zero_suppress);
  std::printf("\n(`make check-09` grades every function against references)\n");
  return course::demo_status({&functions.gaussian, &functions.polar, &functions.zero_suppress});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  return run_demo();
}
