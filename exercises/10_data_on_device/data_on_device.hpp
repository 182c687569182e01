// Exercise 10: the functions the student implements, with their fixed signatures: the
// lab's pulse-train pipeline with its data kept on the device, first from ordinary
// (pageable) host arrays, then through pinned staging buffers reused from one waveform
// to the next, then in unified (managed) memory that host and device share. The kernels and the lab's version with a round trip through the host
// after every step are given. The check calls them exactly as declared here; do not
// change this file.
//
// Build and run:  make 10 && make run-10   (statement: exercises/10_data_on_device/README.md)
#pragma once

#include <cuda_runtime.h>

#include "course/launch.hpp"
#include "workload.hpp"

// Blocks of kThreadsPerBlock threads that cover n elements (n >= 1): every launch of
// this exercise, given or the student's, uses this one shape.
inline unsigned blocks_for(int n) {
  return course::blocks_for(static_cast<std::size_t>(n), kThreadsPerBlock);
}

// ---------------------------------------------------------------------------
// The three steps (given), one thread per sample
// ---------------------------------------------------------------------------
// pulses[i] = max(sinf(i / period) - kPulseOffset, 0) * amplitude
__global__ void make_pulses_kernel(float* pulses, int n, float period, float amplitude);
// sum[i] = a[i] + b[i]; sum may be a (in place)
__global__ void add_kernel(const float* a, const float* b, float* sum, int n);
// values[i] = 0 where values[i] < threshold, in place
__global__ void zero_suppress_kernel(float* values, int n, float threshold);

// ---------------------------------------------------------------------------
// The lab's cell as written (given): every step copies its inputs to the device and
// its output back. host_waveform receives n samples; n may be 0.
// ---------------------------------------------------------------------------
void make_waveform_round_trips(const float* host_noise, float* host_waveform, int n,
                               const PulseShape& shape);

// ---------------------------------------------------------------------------
// Part 1: the same result with the data kept on the device - the noise copied in once,
// the waveform copied out once, nothing else crossing the bus. Host arrays are
// ordinary (pageable) memory; device buffers are allocated and freed inside; n may be 0.
// ---------------------------------------------------------------------------

// Enqueues the three kernels on `stream`, in order, on device buffers of n samples:
// device_waveform receives the result. n >= 1.
void enqueue_pipeline(const float* device_noise, float* device_waveform, int n,
                      const PulseShape& shape, cudaStream_t stream);

void make_waveform_on_device(const float* host_noise, float* host_waveform, int n,
                             const PulseShape& shape);

// ---------------------------------------------------------------------------
// Part 2: a program that makes many waveforms allocates once and stages its copies
// through pinned (page-locked) host memory, which the GPU reads and writes directly.
// ---------------------------------------------------------------------------
struct WaveformBuffers {
  int capacity = 0;                // samples each buffer holds
  float* host_noise = nullptr;     // pinned (cudaMallocHost): the caller writes the noise here
  float* host_waveform = nullptr;  // pinned: the result is here when make_waveform_pinned returns
  float* device_noise = nullptr;   // device (cudaMalloc)
  float* device_waveform = nullptr;
};

// Allocates the four buffers of `capacity` samples (capacity >= 1).
WaveformBuffers allocate_waveform_buffers(int capacity);
// Frees them and resets `buffers` to empty.
void free_waveform_buffers(WaveformBuffers& buffers);

// One waveform of n <= capacity samples: copies host_noise[0, n) in with
// cudaMemcpyAsync on `stream`, enqueues the pipeline on `stream`, copies the result
// into host_waveform[0, n) with cudaMemcpyAsync on `stream`, and returns once the result
// is there. Allocates nothing. n may be 0.
void make_waveform_pinned(WaveformBuffers& buffers, int n, const PulseShape& shape,
                          cudaStream_t stream);

// ---------------------------------------------------------------------------
// Part 3: unified (managed) memory. One pointer that the host and the device both use:
// the driver moves its pages to whichever processor touches them, on demand (each
// first touch is a page fault, serviced while the kernel waits), or ahead of time when
// asked (cudaMemPrefetchAsync).
// ---------------------------------------------------------------------------
struct ManagedWaveform {
  int n = 0;                  // samples each buffer holds
  float* noise = nullptr;     // managed (cudaMallocManaged): the caller writes the noise here
  float* waveform = nullptr;  // managed: the result is here when make_waveform_managed returns
};

// How the pages reach the GPU, and come back to the host.
enum class Migration {
  on_demand,  // no hint: the kernels' page faults bring the pages over, the host's bring them back
  prefetch,   // cudaMemPrefetchAsync to the device before the kernels, to the host after them
};

// Allocates both buffers of n samples (n >= 1) with cudaMallocManaged.
ManagedWaveform allocate_managed_waveform(int n);
// Frees them and resets `buffers` to empty.
void free_managed_waveform(ManagedWaveform& buffers);

// One waveform of buffers.n samples in the managed buffers, on `stream`: enqueues the
// pipeline on noise and waveform, and returns once the host may read waveform. With
// Migration::prefetch, both buffers are prefetched to the current device before the
// kernels and the waveform back to the host after them.
void make_waveform_managed(ManagedWaveform& buffers, const PulseShape& shape, Migration migration,
                           cudaStream_t stream);
