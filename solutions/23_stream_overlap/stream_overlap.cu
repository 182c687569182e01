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
  CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
  // END TODO(student)
  return host;
}

void free_pinned(float* host) {
  // TODO(student): free a buffer of allocate_pinned.
  CUDA_CHECK(cudaFreeHost(host));
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 2: streams
// ---------------------------------------------------------------------------
// [slide:create-streams]
std::vector<cudaStream_t> create_streams(int count) {
  std::vector<cudaStream_t> streams;
  // TODO(student): `count` streams that do not wait for the default stream.
  for (int s = 0; s < count; ++s) {
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams.push_back(stream);
  }
  // END TODO(student)
  return streams;
}
// [/slide]

void destroy_streams(std::vector<cudaStream_t>& streams) {
  // TODO(student): destroy every stream.
  for (const cudaStream_t stream : streams) CUDA_CHECK(cudaStreamDestroy(stream));
  streams.clear();
  // END TODO(student)
}

// ---------------------------------------------------------------------------
// Part 3: one chunk
// ---------------------------------------------------------------------------
// [slide:enqueue-chunk]
void enqueue_chunk(const Buffers& buffers, std::size_t first, std::size_t count, int work,
                   cudaStream_t stream) {
  // TODO(student): one chunk on `stream`, in three steps.
  const std::size_t bytes = count * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(buffers.device_in + first, buffers.host_in + first, bytes,
                             cudaMemcpyHostToDevice, stream));
  launch_transform(buffers.device_in + first, buffers.device_out + first, count, work, stream);
  CUDA_CHECK(cudaMemcpyAsync(buffers.host_out + first, buffers.device_out + first, bytes,
                             cudaMemcpyDeviceToHost, stream));
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
  // [slide:pipeline-start]
  const std::size_t stream_count = streams.size();
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  // [slide:pipeline-enqueue]
  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  for (std::size_t s = 1; s < stream_count; ++s) {
    CUDA_CHECK(cudaStreamWaitEvent(streams[s], start, 0));
  }
  std::size_t k = 0;
  for (std::size_t first = 0; first < n; first += chunk, ++k) {
    const std::size_t count = std::min(chunk, n - first);
    enqueue_chunk(buffers, first, count, work, streams[k % stream_count]);
  }
  // [/slide]
  // [/slide]
  // [slide:pipeline-join]
  // An event on streams[0] times streams[0] only: the other streams join it first.
  std::vector<cudaEvent_t> done(stream_count, nullptr);
  for (std::size_t s = 1; s < stream_count; ++s) {
    CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(done[s], streams[s]));
    CUDA_CHECK(cudaStreamWaitEvent(streams[0], done[s], 0));
  }
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  for (const cudaStream_t stream : streams) CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));
  for (std::size_t s = 1; s < stream_count; ++s) CUDA_CHECK(cudaEventDestroy(done[s]));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  // [/slide]
  // END TODO(student)
  return elapsed_ms;
}
// [/slide]

PipelineShape choose_shape(std::size_t n) {
  PipelineShape shape;
  // TODO(student): the pipeline's shape you recommend.
  // 4 chunks per stream; at the demo's 128 MiB, chunks of 8 MiB.
  constexpr std::size_t kChunks = 16;
  shape.chunk = std::max<std::size_t>(1, (n + kChunks - 1) / kChunks);
  shape.streams = 4;
  // END TODO(student)
  return shape;
}
