// Exercise 25 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/errors_nccl.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "two_gpus.cuh"
#include "workload.hpp"

// The functions under test.
#include "two_gpus_nccl.hpp"

namespace {

using namespace two_gpus_nccl;
using course::check::CaseRequest;
using course::check::ResultWriter;
namespace asked = two_gpus_nccl::request;

std::int64_t as_flag(bool value) { return value ? 1 : 0; }

// Whether `device` may read `peer` right now: enabling it again says it already is. A
// success means it was not, and undoes nothing a later case relies on.
bool peer_access_enabled(int device, int peer) {
  CUDA_CHECK(cudaSetDevice(device));
  const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
  cudaGetLastError();
  if (status == cudaSuccess) cudaDeviceDisablePeerAccess(peer);
  cudaGetLastError();
  return status == cudaErrorPeerAccessAlreadyEnabled;
}

// Peer access as a fresh process has it (a library may have enabled it earlier in this one).
void disable_peer_access(int device, int peer) {
  cudaSetDevice(device);
  cudaDeviceDisablePeerAccess(peer);
  cudaGetLastError();
}

void run_peer_access(ResultWriter& results) {
  disable_peer_access(0, 1);
  disable_peer_access(1, 0);
  int can_0_1 = 0, can_1_0 = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can_0_1, 0, 1));
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can_1_0, 1, 0));
  results.put(result::can_access_0_1, as_flag(can_0_1 != 0));
  results.put(result::can_access_1_0, as_flag(can_1_0 != 0));
  const bool first_0_1 = enable_peer_access(0, 1);
  const bool first_1_0 = enable_peer_access(1, 0);
  results.put(result::returned_0_1, as_flag(first_0_1));
  results.put(result::returned_1_0, as_flag(first_1_0));
  // A second call finds the access enabled: it must return the same, not stop.
  const bool again_0_1 = enable_peer_access(0, 1);
  const bool again_1_0 = enable_peer_access(1, 0);
  results.put(result::returned_again, as_flag(again_0_1 == first_0_1 && again_1_0 == first_1_0));
  // An error left behind is found by the next call that checks cudaGetLastError (a kernel
  // launch's check): clearing it is the student's job.
  results.put(result::left_error, as_flag(cudaGetLastError() != cudaSuccess));
  results.put(result::enabled_0_1, as_flag(peer_access_enabled(0, 1)));
  results.put(result::enabled_1_0, as_flag(peer_access_enabled(1, 0)));
}

// The bytes that crossed between host and device so far in this case (device_accounting.hpp).
struct HostTraffic {
  long long in = 0, out = 0;
  static HostTraffic now() {
    auto& ledger = course::check::device_memory_ledger();
    return {ledger.device_to_host_bytes.load(), ledger.host_to_device_bytes.load()};
  }
};

// A copy of n floats from device 0 to device 1, peer or staged.
void run_copy(const asked::CopyParams& p, std::uint64_t seed, ResultWriter& results) {
  const auto n = static_cast<std::size_t>(p.n);
  const bool staged = p.kind == asked::Copy::staged;
  const std::vector<float> values = make_values(n, seed);
  DeviceFloats source(0, n, &values);
  DeviceFloats destination(1, n);  // poisoned by the accounting's cudaMalloc
  DeviceStreams streams;
  float* pinned = nullptr;
  if (staged) CUDA_CHECK(cudaMallocHost(&pinned, std::max<std::size_t>(n, 1) * sizeof(float)));
  const HostTraffic before = HostTraffic::now();
  if (staged) {
    staged_copy(destination.data, 1, source.data, 0, pinned, n, streams.streams[0],
                streams.streams[1]);
  } else {
    peer_copy(destination.data, 1, source.data, 0, n, streams.streams[0]);
  }
  synchronize_both();
  const HostTraffic after = HostTraffic::now();
  results.put(result::host_bytes_in, after.in - before.in);
  results.put(result::host_bytes_out, after.out - before.out);
  results.put(result::copied, destination.read());
  if (pinned != nullptr) CUDA_CHECK(cudaFreeHost(pinned));
}

// Communicators from the student's create_communicators, destroyed with theirs.
struct Communicators {
  ncclComm_t comms[kGpuCount] = {};
  bool created = false;
  Communicators() {
    create_communicators(comms);
    created = std::all_of(comms, comms + kGpuCount, [](ncclComm_t c) { return c != nullptr; });
  }
  ~Communicators() {
    if (created) destroy_communicators(comms);
  }
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
};

void run_all_reduce(const asked::Elements& p, std::uint64_t seed, ResultWriter& results) {
  const auto n = static_cast<std::size_t>(p.n);
  const std::vector<float> on_0 = make_values(n, seed);
  const std::vector<float> on_1 = make_values(n, course::derive_seed(seed, 1));
  DeviceFloats buffer_0(0, n, &on_0);
  DeviceFloats buffer_1(1, n, &on_1);
  DeviceStreams streams;
  Communicators communicators;
  results.put(result::communicators, as_flag(communicators.created));
  if (!communicators.created) return;
  float* const buffers[kGpuCount] = {buffer_0.data, buffer_1.data};
  all_reduce_sum(buffers, n, communicators.comms, streams.streams);
  streams.synchronize();
  results.put(result::sum_0, buffer_0.read());
  results.put(result::sum_1, buffer_1.read());
}

// Part 3: the ranks join one communicator, each from its own thread, at once, as the
// processes of an MPI job would; then the course's own all-reduce proves it works.
void run_join(const asked::Elements& p, std::uint64_t seed, ResultWriter& results) {
  const auto n = static_cast<std::size_t>(p.n);
  ncclUniqueId id;
  NCCL_CHECK(ncclGetUniqueId(&id));
  ncclComm_t comms[kGpuCount] = {};
  {
    std::vector<std::thread> ranks;
    for (int r = 0; r < kGpuCount; ++r) {
      ranks.emplace_back([&comms, &id, r] {
        comms[r] = join_communicator(id, kGpuCount, r, join_device(r, kGpuCount));
      });
    }
    for (std::thread& rank : ranks) rank.join();
  }
  const bool joined =
      std::all_of(comms, comms + kGpuCount, [](ncclComm_t c) { return c != nullptr; });
  results.put(result::communicators, as_flag(joined));
  if (!joined) return;
  std::vector<std::int64_t> ranks, devices, counts;
  for (const ncclComm_t comm : comms) {
    int rank = -1, device = -1, count = -1;
    NCCL_CHECK(ncclCommUserRank(comm, &rank));
    NCCL_CHECK(ncclCommCuDevice(comm, &device));
    NCCL_CHECK(ncclCommCount(comm, &count));
    ranks.push_back(rank);
    devices.push_back(device);
    counts.push_back(count);
  }
  results.put(result::joined_ranks, ranks);
  results.put(result::joined_devices, devices);
  results.put(result::joined_counts, counts);
  bool placed = true;
  for (int r = 0; r < kGpuCount; ++r) placed = placed && devices[r] == join_device(r, kGpuCount);
  if (placed) {
    const std::vector<float> on_0 = make_values(n, seed);
    const std::vector<float> on_1 = make_values(n, course::derive_seed(seed, 1));
    DeviceFloats buffer_0(join_device(0, kGpuCount), n, &on_0);
    DeviceFloats buffer_1(join_device(1, kGpuCount), n, &on_1);
    float* const buffers[kGpuCount] = {buffer_0.data, buffer_1.data};
    DeviceStreams streams;  // streams[d] is device d's
    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < kGpuCount; ++r) {
      NCCL_CHECK(ncclAllReduce(buffers[r], buffers[r], n, ncclFloat, ncclSum, comms[r],
                               streams.streams[join_device(r, kGpuCount)]));
    }
    NCCL_CHECK(ncclGroupEnd());
    streams.synchronize();
    results.put(result::sum_0, buffer_0.read());
    results.put(result::sum_1, buffer_1.read());
  }
  for (const ncclComm_t comm : comms) NCCL_CHECK(ncclCommDestroy(comm));
}

// The same samples on both devices, and a density buffer on each.
struct DensityInputs {
  DeviceFloats samples_0, samples_1, density_0, density_1;
  DensityInputs(const std::vector<float>& samples, int bins)
      : samples_0(0, samples.size(), &samples),
        samples_1(1, samples.size(), &samples),
        density_0(0, static_cast<std::size_t>(bins)),
        density_1(1, static_cast<std::size_t>(bins)) {}
  const float* samples[kGpuCount] = {samples_0.data, samples_1.data};
  float* density[kGpuCount] = {density_0.data, density_1.data};
};

void run_density(const asked::Density& p, std::uint64_t seed, ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int bins = static_cast<int>(p.bins);
  const std::vector<float> samples = make_samples(static_cast<std::size_t>(n), seed);
  DensityInputs inputs(samples, bins);
  DeviceStreams streams;
  Communicators communicators;
  results.put(result::communicators, as_flag(communicators.created));
  if (!communicators.created) return;
  data_parallel_density(inputs.samples, n, inputs.density, bins, communicators.comms,
                        streams.streams);
  results.put(result::busy_streams, static_cast<std::int64_t>(streams.busy()));
  synchronize_both();
  results.put(result::density_0, inputs.density_0.read());
  results.put(result::density_1, inputs.density_1.read());
}

// The whole step on two GPUs against the same work on device 0 alone, in turns.
void run_speed(const asked::Speed& p, std::uint64_t seed, ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int bins = static_cast<int>(p.bins);
  const int repetitions = static_cast<int>(p.repetitions);
  const std::vector<float> samples = make_samples(static_cast<std::size_t>(n), seed);
  DensityInputs inputs(samples, bins);
  DeviceStreams streams;
  Communicators communicators;
  results.put(result::communicators, as_flag(communicators.created));
  if (!communicators.created) return;
  auto one_gpu = [&] {
    CUDA_CHECK(cudaSetDevice(0));
    launch_partial_density(inputs.samples[0], n, inputs.density[0], bins, streams.streams[0]);
    CUDA_CHECK(cudaStreamSynchronize(streams.streams[0]));
  };
  auto two_gpus = [&](std::int64_t* busy) {
    data_parallel_density(inputs.samples, n, inputs.density, bins, communicators.comms,
                          streams.streams);
    if (busy != nullptr) *busy = streams.busy();
    synchronize_both();
  };
  // The first calls pay for loading the kernels and NCCL's first connections.
  std::int64_t busy = 0;
  one_gpu();
  two_gpus(&busy);
  results.put(result::busy_streams, busy);
  // The student's step is audited (timed_call.hpp): each timed call must write the whole
  // density on both GPUs. The yardstick, the course's kernel alone, is timed as it is.
  auto step = course::check::student_call(
      {course::check::timed_output(inputs.density[0], static_cast<std::size_t>(bins)),
       course::check::timed_output(inputs.density[1], static_cast<std::size_t>(bins))},
      [&] { two_gpus(nullptr); });
  std::vector<double> one_ms, two_ms;
  for (int r = 0; r < repetitions; ++r) {
    one_ms.push_back(course::time_host_call(one_gpu, r, repetitions));
    two_ms.push_back(course::time_host_call(step, r, repetitions));
  }
  results.put(result::one_gpu_ms, course::median(one_ms));
  results.put(result::two_gpus_ms, course::median(two_ms));
  const std::vector<float> density = inputs.density_1.read();
  std::vector<float> sampled;
  for (const std::size_t j : course::spread_indices(density.size(), kSpeedCheckedBins)) {
    sampled.push_back(density[j]);
  }
  results.put(result::sampled_density, sampled);
}

}  // namespace

void course::program::run_check_case(const CaseRequest& request, ResultWriter& results) {
  keep_nvlink_multicast_off();
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  results.put(result::devices, static_cast<std::int64_t>(devices));
  if (devices < kGpuCount) return;  // the check skips this exercise here
  if (request.is(asked::peer_access)) {
    run_peer_access(results);
  } else if (const auto p = request.as(asked::copy)) {
    run_copy(*p, request.seed, results);
  } else if (const auto p = request.as(asked::all_reduce)) {
    run_all_reduce(*p, request.seed, results);
  } else if (const auto p = request.as(asked::density)) {
    run_density(*p, request.seed, results);
  } else if (const auto p = request.as(asked::join)) {
    run_join(*p, request.seed, results);
  } else if (const auto p = request.as(asked::speed)) {
    run_speed(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
