// What device a run is on, printed at the start of every run so that each figure
// a program prints can be traced back to the hardware that produced it.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "course/errors.hpp"

namespace course {

struct DeviceSummary {
  int index = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int multiprocessors = 0;
  std::size_t global_memory_bytes = 0;
  int l2_cache_bytes = 0;
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;

  // Peak DRAM bandwidth from the datasheet formula: 2 transfers per clock (DDR)
  // x bus width in bytes x memory clock. A lead, not a measurement.
  double theoretical_bandwidth_gbps() const {
    return 2.0 * (memory_bus_bits / 8.0) * (memory_clock_khz * 1e3) / 1e9;
  }
};

inline DeviceSummary query_device(int device) {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceSummary s;
  s.index = device;
  s.name = prop.name;
  s.cc_major = prop.major;
  s.cc_minor = prop.minor;
  s.multiprocessors = prop.multiProcessorCount;
  s.global_memory_bytes = prop.totalGlobalMem;
  s.l2_cache_bytes = prop.l2CacheSize;
  s.memory_bus_bits = prop.memoryBusWidth;
  // The clocks left cudaDeviceProp in CUDA 13; the attributes remain.
  CUDA_CHECK(cudaDeviceGetAttribute(&s.sm_clock_khz, cudaDevAttrClockRate, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&s.memory_clock_khz, cudaDevAttrMemoryClockRate, device));
  return s;
}

inline std::string describe_device(const DeviceSummary& s) {
  char text[512];
  std::snprintf(text, sizeof text,
                "device %d: %s, compute capability %d.%d, %d SMs at %.0f MHz, %.1f GiB, "
                "L2 %.0f MiB, memory bus %d bits at %.0f MHz",
                s.index, s.name.c_str(), s.cc_major, s.cc_minor, s.multiprocessors,
                s.sm_clock_khz / 1e3, s.global_memory_bytes / double(1ull << 30),
                s.l2_cache_bytes / double(1 << 20), s.memory_bus_bits, s.memory_clock_khz / 1e3);
  return text;
}

// FP32 lanes ("CUDA cores") per SM, by compute capability (CUDA C++ Programming Guide,
// arithmetic throughput table: 64 or 128 fused multiply-adds per clock per SM); 0 for
// a chip this table does not know.
inline int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  switch (cc_major) {
    case 7: return 64;                        // 7.5 Turing
    case 8: return cc_minor == 0 ? 64 : 128;  // 8.0 A100: 64; 8.6, 8.7, 8.9: 128
    case 9: return 128;                       // 9.0 Hopper
    case 10:
    case 11:
    case 12: return 128;  // Blackwell
    default: return 0;
  }
}

// How fp32_peak_gflops() is computed, for programs to print next to the figure.
inline constexpr const char* kFp32PeakFormula =
    "SMs x FP32 lanes per SM x 2 FLOP per fused multiply-add x SM clock";

// The FP32 peak in GFLOP/s (kFp32PeakFormula), at the clock cudaDevAttrClockRate gives
// (the highest boost clock: under a long, heavy load the chip may run slower). 0 when
// fp32_lanes_per_sm() does not know the chip.
inline double fp32_peak_gflops(const DeviceSummary& s) {
  return s.multiprocessors * static_cast<double>(fp32_lanes_per_sm(s.cc_major, s.cc_minor)) * 2.0 *
         (s.sm_clock_khz * 1e3) / 1e9;
}

// Prints the current device in one line; exits with a clear message when there is none.
inline DeviceSummary print_device_banner(std::FILE* out = stdout) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  DeviceSummary s = query_device(device);
  std::fprintf(out, "[%s]\n", describe_device(s).c_str());
  return s;
}

}  // namespace course
