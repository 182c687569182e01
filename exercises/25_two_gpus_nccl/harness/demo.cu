// Exercise 25 - the demo (`make run-25`): the two GPUs and how they are linked, peer
// access, a direct copy against one staged through the host, NCCL's all-reduce bandwidth,
// and the data-parallel density step on two GPUs against one.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "two_gpus.cuh"
#include "workload.hpp"

// The functions under test.
#include "two_gpus_nccl.hpp"

namespace {

using namespace two_gpus_nccl;

constexpr std::uint64_t kDemoSeed = 42;
constexpr int kRepetitions = 5;
// Copies and the all-reduce: 64M floats, 256 MiB, far more than any cache.
constexpr std::size_t kBigElements = std::size_t{1} << 26;
// The untimed first calls, judged against the CPU.
constexpr std::size_t kJudgedElements = std::size_t{1} << 20;
// The density step, as the check's speed case.
constexpr int kStepSamples = 1 << 23;
constexpr int kStepBins = 1024;

// The median of kRepetitions runs of `work`, which returns once both GPUs are done.
template <typename Work>
double median_ms(Work work) {
  std::vector<double> times;
  for (int r = 0; r < kRepetitions; ++r) {
    course::WallTimer timer;
    work();
    times.push_back(timer.elapsed_ms());
  }
  return course::median(times);
}

// How the GPUs are linked (NVLink, PCIe switch, host bridge), as the driver sees it.
void print_topology() {
  if (std::system("command -v nvidia-smi > /dev/null 2>&1") != 0) {
    std::printf("nvidia-smi not found: the topology (nvidia-smi topo -m) is not shown\n");
    return;
  }
  std::FILE* pipe = popen("nvidia-smi topo -m 2>&1", "r");
  if (pipe == nullptr) {
    std::printf("nvidia-smi topo -m could not be started\n");
    return;
  }
  std::string text;
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) text += line;
  pclose(pipe);
  // nvidia-smi underlines its heading with terminal escapes (ESC [ 4 m ... ESC [ 0 m), which
  // a log file shows as noise.
  for (std::size_t escape; (escape = text.find('\x1b')) != std::string::npos;) {
    const std::size_t end = text.find('m', escape);
    text.erase(escape, end == std::string::npos ? std::string::npos : end - escape + 1);
  }
  std::printf("nvidia-smi topo -m:\n");
  course::print_indented(text);
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  keep_nvlink_multicast_off();
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  if (devices < kGpuCount) {
    std::printf("exercise 25 needs %d GPUs, and this machine has %d: nothing to show here\n",
                kGpuCount, devices);
    return 77;  // skipped (tests/tools/unfinished_demo.py, CTest)
  }
  for (int d = 0; d < kGpuCount; ++d) {
    CUDA_CHECK(cudaSetDevice(d));
    course::print_device_banner();
  }
  print_topology();

  // Part 1: peer access, then the two copies.
  course::StudentFunction enable("enable_peer_access");
  for (int d = 0; d < kGpuCount; ++d) {
    const int peer = 1 - d;
    int can = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, d, peer));
    const bool returned = enable_peer_access(d, peer);
    enable.judge_value(returned || !can, returned == (can != 0),
                       std::to_string(d) + " -> " + std::to_string(peer),
                       "returned " + std::to_string(returned) + ", cudaDeviceCanAccessPeer says " +
                           std::to_string(can));
    std::printf("peer access %d -> %d: %s\n", d, peer,
                can ? (returned ? "enabled" : "possible, not enabled") : "not possible");
  }
  DeviceStreams streams;
  course::StudentFunction peer("peer_copy");
  course::StudentFunction staged("staged_copy");
  {
    const std::vector<float> values = make_values(kJudgedElements, kDemoSeed);
    DeviceFloats source(0, kJudgedElements, &values);
    DeviceFloats destination(1, kJudgedElements);
    std::vector<double> expected(values.begin(), values.end());
    float* pinned = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinned, kBigElements * sizeof(float)));
    destination.poison();
    peer_copy(destination.data, 1, source.data, 0, kJudgedElements, streams.streams[0]);
    synchronize_both();
    std::vector<float> got = destination.read();
    const Judgement peer_right =
        peer.judge(course::compare(got.data(), expected.data(), got.size(), course::kExact));
    destination.poison();
    staged_copy(destination.data, 1, source.data, 0, pinned, kJudgedElements, streams.streams[0],
                streams.streams[1]);
    synchronize_both();
    got = destination.read();
    const Judgement staged_right =
        staged.judge(course::compare(got.data(), expected.data(), got.size(), course::kExact));
    if (peer_right.right || staged_right.right) {
      DeviceFloats big_source(0, kBigElements);
      DeviceFloats big_destination(1, kBigElements);
      const double bytes = static_cast<double>(kBigElements * sizeof(float));
      std::printf("copies of %.0f MiB from device 0 to device 1 (median of %d):\n",
                  bytes / (1 << 20), kRepetitions);
      if (peer_right.right) {
        const double ms = median_ms([&] {
          peer_copy(big_destination.data, 1, big_source.data, 0, kBigElements, streams.streams[0]);
          synchronize_both();
        });
        std::printf("  peer (cudaMemcpyPeerAsync)        %8.3f ms  %7.1f GB/s\n", ms,
                    course::gigabytes_per_second(bytes, ms));
      }
      if (staged_right.right) {
        const double ms = median_ms([&] {
          staged_copy(big_destination.data, 1, big_source.data, 0, pinned, kBigElements,
                      streams.streams[0], streams.streams[1]);
          synchronize_both();
        });
        std::printf("  staged (device -> host -> device) %8.3f ms  %7.1f GB/s\n", ms,
                    course::gigabytes_per_second(bytes, ms));
      }
      std::printf("  (GB/s = bytes copied / time)\n");
    }
    CUDA_CHECK(cudaFreeHost(pinned));
  }

  // Part 2: NCCL.
  course::StudentFunction create("create_communicators");
  course::StudentFunction reduce("all_reduce_sum");
  course::StudentFunction step("data_parallel_density");
  ncclComm_t comms[kGpuCount] = {};
  create_communicators(comms);
  const bool created = comms[0] != nullptr && comms[1] != nullptr;
  create.judge_value(created, created, "", "");
  if (created) {
    const std::vector<float> on_0 = make_values(kJudgedElements, kDemoSeed);
    const std::vector<float> on_1 = make_values(kJudgedElements, kDemoSeed + 1);
    std::vector<double> expected(kJudgedElements);
    for (std::size_t i = 0; i < kJudgedElements; ++i) expected[i] = double{on_0[i]} + on_1[i];
    DeviceFloats buffer_0(0, kJudgedElements, &on_0);
    DeviceFloats buffer_1(1, kJudgedElements, &on_1);
    float* const buffers[kGpuCount] = {buffer_0.data, buffer_1.data};
    all_reduce_sum(buffers, kJudgedElements, comms, streams.streams);
    streams.synchronize();
    const std::vector<float> got_0 = buffer_0.read();
    const std::vector<float> got_1 = buffer_1.read();
    Judgement sum = reduce.judge(
        course::compare(got_0.data(), expected.data(), got_0.size(), kSumTolerance), "device 0");
    if (sum.right) {
      sum = reduce.judge(
          course::compare(got_1.data(), expected.data(), got_1.size(), kSumTolerance), "device 1");
    }
    if (sum.right) {
      DeviceFloats big_0(0, kBigElements);
      DeviceFloats big_1(1, kBigElements);
      float* const big[kGpuCount] = {big_0.data, big_1.data};
      all_reduce_sum(big, kBigElements, comms, streams.streams);  // warm-up
      streams.synchronize();
      const double ms = median_ms([&] {
        all_reduce_sum(big, kBigElements, comms, streams.streams);
        streams.synchronize();
      });
      // nccl-tests' definitions: algbw = bytes / time; busbw = algbw * 2 (n - 1) / n,
      // the rate each link carries, comparable across GPU counts.
      const double bytes = static_cast<double>(kBigElements * sizeof(float));
      const double algbw = course::gigabytes_per_second(bytes, ms);
      const double busbw = algbw * 2.0 * (kGpuCount - 1) / kGpuCount;
      std::printf("all-reduce (sum) of %.0f MiB on %d GPUs: %.3f ms, algbw %.1f GB/s, busbw "
                  "%.1f GB/s\n  (algbw = bytes / time, busbw = algbw * 2 (n - 1) / n)\n",
                  bytes / (1 << 20), kGpuCount, ms, algbw, busbw);
    }

    // The data-parallel step against the same work on device 0 alone.
    const std::vector<float> samples = make_samples(kStepSamples, kDemoSeed);
    DeviceFloats samples_0(0, samples.size(), &samples);
    DeviceFloats samples_1(1, samples.size(), &samples);
    DeviceFloats density_0(0, kStepBins);
    DeviceFloats density_1(1, kStepBins);
    density_0.poison();
    density_1.poison();
    const float* const on_devices[kGpuCount] = {samples_0.data, samples_1.data};
    float* const density[kGpuCount] = {density_0.data, density_1.data};
    data_parallel_density(on_devices, kStepSamples, density, kStepBins, comms, streams.streams);
    synchronize_both();
    const std::vector<float> got = density_1.read();
    std::vector<float> sampled;
    std::vector<double> expected_bins;
    for (const std::size_t j : course::spread_indices(kStepBins, kSpeedCheckedBins)) {
      sampled.push_back(got[j]);
      double sum = 0.0;
      for (const float x : samples) {
        const double t = (x - bin_centre(static_cast<int>(j), kStepBins)) * kInverseBandwidth;
        sum += std::exp(-0.5 * t * t);
      }
      expected_bins.push_back(sum);
    }
    const Judgement step_right =
        step.judge(course::compare(sampled.data(), expected_bins.data(), sampled.size(),
                                   density_tolerance(kStepSamples)),
                   "8 bins spread over the 1024, on device 1");
    if (step_right.right) {
      const double one_ms = median_ms([&] {
        CUDA_CHECK(cudaSetDevice(0));
        launch_partial_density(samples_0.data, kStepSamples, density_0.data, kStepBins,
                               streams.streams[0]);
        CUDA_CHECK(cudaStreamSynchronize(streams.streams[0]));
      });
      const double two_ms = median_ms([&] {
        data_parallel_density(on_devices, kStepSamples, density, kStepBins, comms, streams.streams);
        synchronize_both();
      });
      std::printf("density of 2^23 samples at 1024 bins (all-reduce of 4 KiB):\n"
                  "  one GPU %.3f ms, two GPUs %.3f ms: %.2fx\n",
                  one_ms, two_ms, one_ms / two_ms);
    }
    destroy_communicators(comms);
  }
  std::printf("(`make check-25` grades every case)\n");
  return course::demo_status({&enable, &peer, &staged, &create, &reduce, &step});
}
