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
  //   1. Ask cudaDeviceCanAccessPeer(&can_access, device, peer); leave `enabled` false
  //      when it says 0.
  //   2. Make `device` current (cudaSetDevice): enabling acts on the current device.
  //   3. Call cudaDeviceEnablePeerAccess(peer, 0). cudaErrorPeerAccessAlreadyEnabled is
  //      not a failure (a second call, or a library that enabled it first): read it
  //      away with cudaGetLastError(), then go on. Any other error goes to CUDA_CHECK.
  //   4. Set enabled = true.
  // [/slide]
  // END TODO(student)
  return enabled;
}
// [/slide]

// [slide:copies]
void peer_copy(float* destination, int destination_device, const float* source, int source_device,
               std::size_t count, cudaStream_t stream) {
  // TODO(student): one direct copy between the GPUs.
  //   1. cudaMemcpyPeerAsync(destination, destination_device, source, source_device,
  //      count * sizeof(float), stream), through CUDA_CHECK. Nothing else: no wait.
  // (Return false from enable_peer_access and this copy still works: the driver then
  // stages it through the host itself, at the staged copy's speed.)
  // END TODO(student)
}

void staged_copy(float* destination, int destination_device, const float* source, int source_device,
                 float* pinned_host, std::size_t count, cudaStream_t source_stream,
                 cudaStream_t destination_stream) {
  // TODO(student): the same copy, through the host.
  //   1. Make source_device current; enqueue cudaMemcpyAsync(pinned_host, source, ...,
  //      cudaMemcpyDeviceToHost, source_stream).
  //   2. The second copy must wait for the first, which runs on another device's stream:
  //      record an event (cudaEventCreateWithFlags(&e, cudaEventDisableTiming), then
  //      cudaEventRecord(e, source_stream)).
  //   3. Make destination_device current; cudaStreamWaitEvent(destination_stream, e, 0);
  //      enqueue cudaMemcpyAsync(destination, pinned_host, ..., cudaMemcpyHostToDevice,
  //      destination_stream).
  //   4. cudaEventDestroy(e) (allowed while work still waits for it). Return without waiting.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: NCCL
// ---------------------------------------------------------------------------
void create_communicators(ncclComm_t comms[kGpuCount]) {
  // TODO(student): one communicator per GPU, in this process.
  //   1. ncclCommInitAll(comms, kGpuCount, nullptr), through NCCL_CHECK: nullptr means
  //      devices 0 .. kGpuCount - 1, rank d on device d.
  // END TODO(student)
}

void destroy_communicators(ncclComm_t comms[kGpuCount]) {
  // TODO(student): release them.
  //   1. For each d: ncclCommDestroy(comms[d]) through NCCL_CHECK, then comms[d] = nullptr.
  // END TODO(student)
}

// [slide:all-reduce]
void all_reduce_sum(float* const buffers[kGpuCount], std::size_t count,
                    const ncclComm_t comms[kGpuCount], const cudaStream_t streams[kGpuCount]) {
  // TODO(student): one all-reduce over both GPUs.
  //   1. NCCL_CHECK(ncclGroupStart()).
  //   2. For each d: ncclAllReduce(buffers[d], buffers[d], count, ncclFloat, ncclSum,
  //      comms[d], streams[d]) - in place; count is in elements, the whole buffer.
  //   3. NCCL_CHECK(ncclGroupEnd()). Without the group, the first rank's call waits for
  //      the second rank, which this same thread never reaches: a deadlock.
  // Return without waiting: the sum is enqueued on both streams.
  // END TODO(student)
}
// [/slide]

// [slide:step]
void data_parallel_density(const float* const samples[kGpuCount], int n,
                           float* const density[kGpuCount], int bins,
                           const ncclComm_t comms[kGpuCount],
                           const cudaStream_t streams[kGpuCount]) {
  // TODO(student): compute on both GPUs at once, then sum.
  //   1. For each d: device d's share is samples [begin, end) with begin = n * d / kGpuCount
  //      and end = n * (d + 1) / kGpuCount (in 64-bit: n * d may not fit an int).
  //      cudaSetDevice(d), then launch_partial_density(samples[d] + begin, end - begin,
  //      density[d], bins, streams[d]). Both launches return at once: the GPUs compute
  //      side by side, each on its own share.
  //   2. all_reduce_sum(density, bins, comms, streams).
  //   3. Wait for both streams (cudaStreamSynchronize(streams[d])): the caller reads
  //      density[0] and density[1] as soon as you return.
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
  //   1. Make `device` current: NCCL puts the rank on the current device.
  //   2. ncclCommInitRank(&comm, ranks, id, rank), through NCCL_CHECK. Use the id you were
  //      given: it is what makes the ranks find one another. The call returns once all
  //      `ranks` ranks have made it.
  // END TODO(student)
  return comm;
}
// [/slide]
