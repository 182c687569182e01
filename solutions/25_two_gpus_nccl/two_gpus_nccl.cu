// Exercise 25 - two GPUs: peer-to-peer copies, then a data-parallel step whose partial
// results NCCL sums across the GPUs, and last the communicator of one process per GPU.
//
// A CUDA call acts on the CURRENT device, the one cudaSetDevice last named on this host
// thread: its allocations, its launches, its streams. Driving two GPUs from one thread
// means naming the device before each of its calls. Peer access lets one GPU read the
// other's memory over NVLink or PCIe without a trip through the host; NCCL's all-reduce
// sums a buffer across GPUs and leaves the sum on every one.
//
// Build and run:  make 25 && make run-25
// Check:          make check-25   (statement: README.md of exercise 25)
#include "two_gpus_nccl.hpp"

#include "course/errors.hpp"
#include "course/errors_nccl.hpp"

// ---------------------------------------------------------------------------
// Part 1: peer-to-peer
// ---------------------------------------------------------------------------
// [slide:enable-peer]
bool enable_peer_access(int device, int peer) {
  bool enabled = false;
  // TODO(student): peer access from `device` to `peer`.
  // [slide:enable-peer-core]
  int can_access = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can_access, device, peer));
  if (can_access) {
    // Enabling acts on the current device: it may then read `peer`'s memory.
    CUDA_CHECK(cudaSetDevice(device));
    const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled) {
      // Not an error for us; but it stays this thread's last error until it is read.
      cudaGetLastError();
    } else {
      CUDA_CHECK(status);
    }
    enabled = true;
  }
  // [/slide]
  // END TODO(student)
  return enabled;
}
// [/slide]

// [slide:copies]
void peer_copy(float* destination, int destination_device, const float* source, int source_device,
               std::size_t count, cudaStream_t stream) {
  // TODO(student): one direct copy between the GPUs.
  CUDA_CHECK(cudaMemcpyPeerAsync(destination, destination_device, source, source_device,
                                 count * sizeof(float), stream));
  // END TODO(student)
}

void staged_copy(float* destination, int destination_device, const float* source, int source_device,
                 float* pinned_host, std::size_t count, cudaStream_t source_stream,
                 cudaStream_t destination_stream) {
  // TODO(student): the same copy, through the host.
  const std::size_t bytes = count * sizeof(float);
  CUDA_CHECK(cudaSetDevice(source_device));
  CUDA_CHECK(cudaMemcpyAsync(pinned_host, source, bytes, cudaMemcpyDeviceToHost, source_stream));
  // The second half may start only once the first has landed in pinned_host.
  cudaEvent_t landed;
  CUDA_CHECK(cudaEventCreateWithFlags(&landed, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(landed, source_stream));
  CUDA_CHECK(cudaSetDevice(destination_device));
  CUDA_CHECK(cudaStreamWaitEvent(destination_stream, landed, 0));
  CUDA_CHECK(
      cudaMemcpyAsync(destination, pinned_host, bytes, cudaMemcpyHostToDevice, destination_stream));
  // Destroying an event that work still waits for is allowed: it is released afterwards.
  CUDA_CHECK(cudaEventDestroy(landed));
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: NCCL
// ---------------------------------------------------------------------------
void create_communicators(ncclComm_t comms[kGpuCount]) {
  // TODO(student): one communicator per GPU, in this process.
  // nullptr: the devices 0 .. kGpuCount - 1, rank d on device d.
  NCCL_CHECK(ncclCommInitAll(comms, kGpuCount, nullptr));
  // END TODO(student)
}

void destroy_communicators(ncclComm_t comms[kGpuCount]) {
  // TODO(student): release them.
  for (int d = 0; d < kGpuCount; ++d) {
    NCCL_CHECK(ncclCommDestroy(comms[d]));
    comms[d] = nullptr;
  }
  // END TODO(student)
}

// [slide:all-reduce]
void all_reduce_sum(float* const buffers[kGpuCount], std::size_t count,
                    const ncclComm_t comms[kGpuCount], const cudaStream_t streams[kGpuCount]) {
  // TODO(student): one all-reduce over both GPUs.
  // One thread issues every rank's call: inside a group NCCL launches them together,
  // where one call alone would wait forever for the other rank.
  NCCL_CHECK(ncclGroupStart());
  for (int d = 0; d < kGpuCount; ++d) {
    NCCL_CHECK(
        ncclAllReduce(buffers[d], buffers[d], count, ncclFloat, ncclSum, comms[d], streams[d]));
  }
  NCCL_CHECK(ncclGroupEnd());
  // END TODO(student)
}
// [/slide]

// [slide:step]
void data_parallel_density(const float* const samples[kGpuCount], int n,
                           float* const density[kGpuCount], int bins,
                           const ncclComm_t comms[kGpuCount],
                           const cudaStream_t streams[kGpuCount]) {
  // TODO(student): compute on both GPUs at once, then sum.
  for (int d = 0; d < kGpuCount; ++d) {
    // Device d's share: samples [begin, end), about n / kGpuCount of them.
    const int begin = static_cast<int>(static_cast<long long>(n) * d / kGpuCount);
    const int end = static_cast<int>(static_cast<long long>(n) * (d + 1) / kGpuCount);
    // The launch goes to the current device: streams[d] and density[d] are device d's.
    CUDA_CHECK(cudaSetDevice(d));
    launch_partial_density(samples[d] + begin, end - begin, density[d], bins, streams[d]);
  }
  all_reduce_sum(density, static_cast<std::size_t>(bins), comms, streams);
  for (int d = 0; d < kGpuCount; ++d) {
    CUDA_CHECK(cudaStreamSynchronize(streams[d]));
  }
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 3: one process per GPU
// ---------------------------------------------------------------------------
// [slide:join]
ncclComm_t join_communicator(const ncclUniqueId& id, int ranks, int rank, int device) {
  ncclComm_t comm = nullptr;
  // TODO(student): this rank's communicator, on its GPU.
  // NCCL puts the rank on the current device.
  CUDA_CHECK(cudaSetDevice(device));
  // Waits until all `ranks` ranks have called it with the same id.
  NCCL_CHECK(ncclCommInitRank(&comm, ranks, id, rank));
  // END TODO(student)
  return comm;
}
// [/slide]
