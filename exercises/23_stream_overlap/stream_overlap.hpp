// Exercise 23: the functions the student implements, with their fixed signatures: pinned
// host memory, streams that do not wait for the legacy default stream, one chunk's copy
// in, kernel and copy back on a stream, and the whole pipeline over several streams,
// timed with CUDA events. The check calls them exactly as declared here; do not change
// this file.
//
// Build and run:  make 23 && make run-23   (statement: exercises/23_stream_overlap/README.md)
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "workload.hpp"

// ---- Given: the kernel ------------------------------------------------------------
// out[i] = stream_overlap::transform(in[i], work) for 0 <= i < count, enqueued on
// `stream` (nothing when count == 0); does not wait. Defined in harness/transform.cu:
// the runner chooses `work` so that the kernel takes as long as the copies.
void launch_transform(const float* in, float* out, std::size_t count, int work,
                      cudaStream_t stream);

// ---- Part 1: pinned host memory ----------------------------------------------------

// A host buffer of n floats (n >= 1) in page-locked ("pinned") memory, with
// cudaMallocHost: only such memory is copied by the copy engines while kernels run.
float* allocate_pinned(std::size_t n);
// Frees a buffer of allocate_pinned (cudaFreeHost).
void free_pinned(float* host);

// ---- Part 2: streams ---------------------------------------------------------------

// `count` (>= 1) new streams that never wait for the legacy default stream
// (cudaStreamCreateWithFlags, cudaStreamNonBlocking).
std::vector<cudaStream_t> create_streams(int count);
// Destroys every stream of `streams` (cudaStreamDestroy) and empties the vector.
void destroy_streams(std::vector<cudaStream_t>& streams);

// ---- Part 3: one chunk -------------------------------------------------------------

// Where a pipeline reads and writes. The host buffers are pinned (allocate_pinned or
// the runner's own); the device buffers hold as many floats as the host ones.
struct Buffers {
  const float* host_in = nullptr;
  float* host_out = nullptr;
  float* device_in = nullptr;
  float* device_out = nullptr;
};

// Enqueues on `stream`, in this order: the copy of host_in[first, first + count) to
// device_in (cudaMemcpyAsync), launch_transform on those elements into device_out, and
// the copy of device_out[first, first + count) back to host_out. Does not wait.
void enqueue_chunk(const Buffers& buffers, std::size_t first, std::size_t count, int work,
                   cudaStream_t stream);

// ---- Part 4: the pipeline ----------------------------------------------------------

// host_out[i] = transform(host_in[i], work) for 0 <= i < n, in chunks of `chunk`
// elements (chunk >= 1; the last one may be shorter, or the only one when chunk >= n):
// chunk k is enqueued on streams[k % streams.size()]. Returns the time from before the
// first chunk to after the last, in ms, measured with CUDA events, once host_out holds
// the whole result and no work is left on any stream. n may be 0.
float run_pipeline(const Buffers& buffers, std::size_t n, int work, std::size_t chunk,
                   const std::vector<cudaStream_t>& streams);

// The chunk size (at least 1 element) and the stream count (1 to 64) you recommend for an
// array of n floats: the check times your pipeline at this shape as well as at its own.
struct PipelineShape {
  std::size_t chunk = 0;
  int streams = 0;
};
PipelineShape choose_shape(std::size_t n);
