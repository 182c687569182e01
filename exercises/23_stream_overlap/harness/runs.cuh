// Exercise 23: what the demo (harness/demo.cu) and the check's cases (harness/cases.cu)
// both run: the runner's own pinned buffers and streams, the parts of the work measured
// alone on the whole array, and a chunk loop with a launch on another stream after each
// chunk (harness/runs.cu).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/pinned_buffer.hpp"
#include "course/streams.hpp"
#include "course/verify.hpp"
#include "stream_overlap.hpp"
#include "workload.hpp"

namespace stream_overlap {

// The most streams a shape may ask for: more only costs.
inline constexpr int kMostStreams = 64;
// The outputs of the timed runs are compared at this many elements, spread over them.
inline constexpr std::size_t kSampledElements = 4096;

// A whole pipeline's memory: host input and output (pinned unless given), device
// input and output, the input drawn from the seed and both outputs poisoned.
struct Workspace {
  Workspace(std::size_t n, std::uint64_t seed)
      : host_in(make_input(n, seed)),
        host_out(n),
        device_in(std::max<std::size_t>(n, 1)),
        device_out(std::max<std::size_t>(n, 1)) {
    poison_outputs();
  }
  void poison_outputs() {
    course::poison(host_out.data(), host_out.size());
    device_out.poison();
  }
  Buffers buffers() {
    return Buffers{host_in.data(), host_out.data(), device_in.data(), device_out.data()};
  }
  std::size_t size() const { return host_in.size(); }

  course::PinnedBuffer<float> host_in, host_out;
  course::DeviceBuffer<float> device_in, device_out;
};

// ---------------------------------------------------------------------------
// The parts of the work, each measured alone on the whole array
// ---------------------------------------------------------------------------

struct Parts {
  double to_device_ms = 0.0;  // host_in -> device_in, the whole array, alone
  double to_host_ms = 0.0;    // device_out -> host_out, alone
  double both_ms = 0.0;       // both copies at once, on two streams: the copy time
  double kernel_ms = 0.0;     // the kernel on the whole array, at `work`
  double serial_ms = 0.0;     // copy in, kernel, copy back on one stream
  int work = 0;
};

// The parts at `work`; with `balance`, the work is first chosen so that the kernel takes
// as long as both copies at once (the time grows linearly with the work).
Parts measure_parts(Workspace& w, int work, bool balance, int repetitions);

// The best of each part over two measurements.
Parts best_of(const Parts& x, const Parts& y);

// What a launch on the legacy default stream between chunks does: each chunk of the
// student's enqueue_chunk goes to streams[k % size], and with a `marker` stream an empty
// kernel follows each chunk there. Returns the wall time until all is done.
double chunks_with_markers(const Buffers& buffers, std::size_t n, int work, std::size_t chunk,
                           const std::vector<cudaStream_t>& streams,
                           std::optional<cudaStream_t> marker);

}  // namespace stream_overlap
