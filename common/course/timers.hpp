// Two timers: one for host code, one for device work.
//
// Device work is asynchronous: a host clock read right after a launch measures the
// launch, not the kernel. EventTimer records CUDA events in the stream around the
// work and waits for the second one before reading the time between them.
//
//   course::EventTimer timer;          // events created here, destroyed with it
//   timer.start();
//   kernel<<<blocks, threads>>>(...);
//   timer.stop();
//   float ms = timer.elapsed_ms();     // waits for the kernel to finish
#pragma once

#include <cuda_runtime.h>

#include <chrono>

#include "course/errors.hpp"
#include "course/timing_hook.hpp"

namespace course {

// Host wall-clock time from a monotonic clock (never goes backwards, unlike the
// time of day).
class WallTimer {
 public:
  WallTimer() : start_((timing_begins(), Clock::now())) {}
  void restart() {
    timing_begins();
    start_ = Clock::now();
  }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Wall-clock milliseconds of one call of `work`: for a phase that a program does once
// (a compilation, a module load, its first copies), where the first time is the point and
// a warm-up or a median would measure something else.
template <typename Work>
double time_once_ms(Work&& work) {
  const WallTimer timer;
  work();
  return timer.elapsed_ms();
}

class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream = nullptr) : stream_(stream) {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    // No check here: a destructor must not exit, and a failed destroy leaks only a handle.
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // [slide:event-timer]
  void start() { CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  void stop() { CUDA_CHECK(cudaEventRecord(stop_, stream_)); }

  // Milliseconds between start() and stop(); blocks until the stop event has happened.
  float elapsed_ms() const {
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
  // [/slide]

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace course
