// The benchmark report's first measurement (tools/course report): the device, its driver and
// CUDA versions, and the two ceilings every figure of the report is set against, measured
// in the same run: the copy ceiling (a device-to-device copy, bench.hpp) and the FP32
// throughput of a kernel made of nothing but independent fused multiply-adds, next to the
// FP32 peak of the datasheet formula (device_info.hpp).
//
// Prints them for a person; with COURSE_REPORT_DIR set, also writes device.json
// (course/table.hpp). Exit status 77 when there is no CUDA device, as the checks.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "course/bench.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/table.hpp"

namespace {

// Each thread runs kChains independent multiply-add chains (enough to hide the FMA
// latency of 4 cycles on every SM scheduler) for kIterations steps.
constexpr int kChains = 8;
constexpr int kIterations = 4096;
constexpr int kThreadsPerBlock = 256;
constexpr int kBlocksPerMultiprocessor = 8;

__global__ void fma_throughput_kernel(float* sink, float seed) {
  float chain[kChains];
  for (int c = 0; c < kChains; ++c) chain[c] = seed + threadIdx.x + c;
  const float a = 0.999999f, b = 1e-7f;
  for (int i = 0; i < kIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) chain[c] = fmaf(chain[c], a, b);
  }
  float sum = 0.0f;
  for (int c = 0; c < kChains; ++c) sum += chain[c];
  // Never true for these inputs; without a store the compiler would drop the loop.
  if (sum == -1.0f) sink[blockIdx.x] = sum;
}

// GFLOP/s of fma_throughput_kernel: 2 FLOP per multiply-add, median of 20 launches.
double measure_fp32_gflops(const course::DeviceSummary& device) {
  const int blocks = kBlocksPerMultiprocessor * device.multiprocessors;
  float* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, blocks * sizeof(float)));
  const course::TimingStats stats = course::time_device([&] {
    fma_throughput_kernel<<<blocks, kThreadsPerBlock>>>(sink, 1.0f);
    CUDA_CHECK_LAUNCH();
  });
  CUDA_CHECK(cudaFree(sink));
  const double flops = 2.0 * kChains * kIterations * static_cast<double>(blocks) * kThreadsPerBlock;
  return course::gigaflops_per_second(flops, stats.median_ms);
}

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

int main() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::fprintf(stderr, "device_probe: no CUDA device (%s)\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "none counted");
    return 77;
  }
  const course::DeviceSummary device = course::print_device_banner();
  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  const double copy_gbps = course::measure_copy_ceiling_gbps();
  const double fp32_measured = measure_fp32_gflops(device);
  const double fp32_peak = course::fp32_peak_gflops(device);
  char capability[16];
  std::snprintf(capability, sizeof capability, "%d.%d", device.cc_major, device.cc_minor);

  course::Table table("device", "the device and its ceilings, measured in this run",
                      {course::Column::text("quantity", "quantity", 30),
                       course::Column::number("value", "value", 12, 1),
                       course::Column::text("unit", "unit", 8),
                       course::Column::text("how", "how", 0)});
  table.print_header();
  table.add_row({"device", device.name, "", ""});
  table.add_row({"compute capability", capability, "", ""});
  table.add_row({"multiprocessors", device.multiprocessors, "", ""});
  table.add_row({"SM clock", device.sm_clock_khz / 1e3, "MHz", "cudaDevAttrClockRate (boost)"});
  table.add_row({"global memory", device.global_memory_bytes / double(1ull << 30), "GiB", ""});
  table.add_row({"L2 cache", device.l2_cache_bytes / double(1 << 20), "MiB", ""});
  table.add_row({"CUDA driver API", version_text(driver), "", "cudaDriverGetVersion"});
  table.add_row({"CUDA runtime", version_text(runtime), "", "cudaRuntimeGetVersion"});
  table.add_row({"copy ceiling", copy_gbps, "GB/s",
                 "device-to-device cudaMemcpy, (bytes read + bytes written) / time, median of 20"});
  table.add_row({"DRAM bandwidth, datasheet", device.theoretical_bandwidth_gbps(), "GB/s",
                 "2 x bus width in bytes x memory clock"});
  table.add_row({"FP32, measured", fp32_measured, "GFLOP/s",
                 "a kernel of independent fused multiply-adds, 2 FLOP each, median of 20"});
  table.add_row({"FP32 peak, datasheet", course::Cell::number_if(fp32_peak > 0.0, fp32_peak),
                 "GFLOP/s", course::kFp32PeakFormula});
  return EXIT_SUCCESS;
}
