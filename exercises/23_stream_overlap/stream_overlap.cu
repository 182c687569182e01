// Exercise 23 - streams: overlapping copies and compute.
//
// A GPU has engines that copy between host and device while its SMs compute. One
// stream runs its work in order, so a copy in, a kernel and a copy back on one stream
// take the sum of their times; cut into chunks on several streams, chunk k + 1 comes in
// while chunk k is computed and chunk k - 1 goes back, and the whole takes about as
// long as its longest part. Three things make or break it: pinned host memory (a copy
// from pageable memory is staged by the CPU and overlaps nothing), streams that do not
// wait for the legacy default stream, and no wait inside the loop.
//
// Build and run:  make 23 && make run-23
// Check:          make check-23   (statement: exercises/23_stream_overlap/README.md)
#include <algorithm>

#include "course/errors.hpp"
#include "stream_overlap.hpp"

// ---------------------------------------------------------------------------
// Part 1: pinned host memory
// ---------------------------------------------------------------------------
float* allocate_pinned(std::size_t n) {
  float* host = nullptr;
  // TODO(student): n floats of pinned host memory.
  //   Allocate n floats of page-locked host memory into `host` with cudaMallocHost,
  //   checked with CUDA_CHECK.
  // END TODO(student)
  return host;
}

void free_pinned(float* host) {
  // TODO(student): free a buffer of allocate_pinned.
  //   Free `host` with cudaFreeHost, checked with CUDA_CHECK.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: streams
// ---------------------------------------------------------------------------
// [slide:create-streams]
std::vector<cudaStream_t> create_streams(int count) {
  std::vector<cudaStream_t> streams;
  // TODO(student): `count` streams that do not wait for the default stream.
  //   For each of the `count` streams:
  //   1. Create it with cudaStreamCreateWithFlags and the flag cudaStreamNonBlocking. A
  //      plain cudaStreamCreate makes a stream that waits for every launch on the legacy
  //      default stream.
  //   2. Push it into `streams`.
  // END TODO(student)
  return streams;
}
// [/slide]

void destroy_streams(std::vector<cudaStream_t>& streams) {
  // TODO(student): destroy every stream.
  //   1. Destroy every stream of `streams` with cudaStreamDestroy.
  //   2. Empty the vector.
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 3: one chunk
// ---------------------------------------------------------------------------
// [slide:enqueue-chunk]
void enqueue_chunk(const Buffers& buffers, std::size_t first, std::size_t count, int work,
                   cudaStream_t stream) {
  // TODO(student): one chunk on `stream`, in three steps.
  //   1. Copy the `count` inputs from host_in + first to device_in + first
  //      (cudaMemcpyAsync, cudaMemcpyHostToDevice).
  //   2. launch_transform them into device_out + first.
  //   3. Copy those `count` outputs back from device_out + first to host_out + first.
  //   Check each call with CUDA_CHECK. Nothing waits.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 4: the pipeline, timed with events
// ---------------------------------------------------------------------------
// [slide:run-pipeline]
float run_pipeline(const Buffers& buffers, std::size_t n, int work, std::size_t chunk,
                   const std::vector<cudaStream_t>& streams) {
  float elapsed_ms = 0.0f;
  // TODO(student): the pipeline, timed with events, in four steps.
  // [slide:pipeline-enqueue]
  //   1. Create two events, start and stop, and record start on streams[0]. Make every
  //      other stream wait for it (cudaStreamWaitEvent), so that nothing starts before it.
  //   2. Enqueue chunk k (elements [k * chunk, min((k + 1) * chunk, n))) on
  //      streams[k % streams.size()], for every k up to the last, partial chunk. No wait
  //      inside this loop.
  // [/slide]
  //   3. The stop event must come after the work of EVERY stream: record an event on each
  //      other stream and make streams[0] wait for it, then record stop on streams[0].
  //   4. Synchronize every stream, read the time (cudaEventElapsedTime) into elapsed_ms,
  //      and destroy every event you created.
  // END TODO(student)
  return elapsed_ms;
}
// [/slide]

PipelineShape choose_shape(std::size_t n) {
  PipelineShape shape;
  // TODO(student): the pipeline's shape you recommend.
  //   Set the chunk size and stream count you found best (make run-23 prints a table of
  //   both): a chunk of at least 1 element and at least one stream. A few chunks per
  //   stream leave little at the ends of the pipeline, where nothing overlaps. Chunks of a
  //   few MiB keep each copy near the bus's full speed.
  // END TODO(student)
  return shape;
}
