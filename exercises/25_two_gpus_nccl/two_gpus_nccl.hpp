// Exercise 25: what the student implements. The check's program calls these functions
// as they are declared here, so the student never edits this file.
//
// Every function works on devices 0 and 1 of this machine. The course's program creates
// the buffers and one non-blocking stream per device (streams[d] belongs to device d)
// before it calls them.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>

// The GPUs this exercise uses: devices 0 and 1.
inline constexpr int kGpuCount = 2;

// [slide:api]
// Part 1: peer-to-peer. Returns whether `device` can read and write `peer`'s memory
// (cudaDeviceCanAccessPeer) and, where it can, leaves that access enabled. Calling it
// again must also work: access already enabled is not an error.
bool enable_peer_access(int device, int peer);

// Copies `count` floats from `source` (on source_device) to `destination` (on
// destination_device) directly between the GPUs, enqueued on `stream`; returns at once.
void peer_copy(float* destination, int destination_device, const float* source, int source_device,
               std::size_t count, cudaStream_t stream);

// The same copy through the host: source -> pinned_host (count floats of pinned memory)
// -> destination. The first half runs on source_stream (a stream of source_device), the
// second on destination_stream (of destination_device); returns at once.
void staged_copy(float* destination, int destination_device, const float* source, int source_device,
                 float* pinned_host, std::size_t count, cudaStream_t source_stream,
                 cudaStream_t destination_stream);

// Part 2: NCCL. One communicator per GPU, all in this process (comms[d] for device d).
void create_communicators(ncclComm_t comms[kGpuCount]);
void destroy_communicators(ncclComm_t comms[kGpuCount]);

// Sums buffers[0] (on device 0) and buffers[1] (on device 1), `count` floats each, and
// leaves the sum in both, enqueued on streams[d]; returns at once.
void all_reduce_sum(float* const buffers[kGpuCount], std::size_t count,
                    const ncclComm_t comms[kGpuCount], const cudaStream_t streams[kGpuCount]);

// The data-parallel step. samples[d] holds all n samples, on device d. Each GPU computes
// the partial density of its own half of them into density[d] (`bins` floats on device d,
// with launch_partial_density below), then the partials are summed across the GPUs:
// density[0] and density[1] both hold the density of all n samples when it returns.
void data_parallel_density(const float* const samples[kGpuCount], int n,
                           float* const density[kGpuCount], int bins,
                           const ncclComm_t comms[kGpuCount],
                           const cudaStream_t streams[kGpuCount]);

// Part 3: one process per GPU, as across nodes. Each rank calls this at the same time with
// the same `id` (made by rank 0 with ncclGetUniqueId, carried to the others by MPI): it
// joins, as rank `rank` of `ranks`, the communicator `id` names, on GPU `device` of its
// node, and returns it. The check calls it from one thread per rank; harness/ranks.cpp
// from one MPI process per rank.
ncclComm_t join_communicator(const ncclUniqueId& id, int ranks, int rank, int device);
// [/slide]

// Given by the course (harness/density.cu): zeroes density (bins floats) and adds to bin
// j the kernel density of `count` samples at that bin's centre, on `stream` - a stream
// of the CURRENT device, where samples and density must live.
void launch_partial_density(const float* samples, int count, float* density, int bins,
                            cudaStream_t stream);
