// Exercise 10 - keeping data on the device: the lab's noisy pulse train (make_pulses,
// add the noise, then exercise 09's zero suppression) computed with one copy in and one
// copy out, instead of a round trip through the host after every step; then the same
// through pinned staging buffers, allocated once and reused for every waveform; then in
// unified (managed) memory, its pages moved by page faults or prefetched ahead of the kernels.
//
// The bus between host and device (PCIe, tens of GB/s) is tens of times slower than
// the GPU's own memory (thousands of GB/s): "minimise data transfers between the host
// and the device, even if it means running kernels on the GPU that do not speed
// anything up by themselves" is a high-priority recommendation of the CUDA Best
// Practices Guide.
//
// Build and run:  make 10 && make run-10
// Check:          make check-10   (statement: exercises/10_data_on_device/README.md)
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "course/errors.hpp"
#include "data_on_device.hpp"

// ---------------------------------------------------------------------------
// The three steps (given)
// ---------------------------------------------------------------------------

// [slide:make-pulses-kernel]
__global__ void make_pulses_kernel(float* pulses, int n, float period, float amplitude) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pulses[i] = fmaxf(sinf(static_cast<float>(i) / period) - kPulseOffset, 0.0f) * amplitude;
  }
}
// [/slide]

__global__ void add_kernel(const float* a, const float* b, float* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] = a[i] + b[i];
}

__global__ void zero_suppress_kernel(float* values, int n, float threshold) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] < threshold) values[i] = 0.0f;
}

// ---------------------------------------------------------------------------
// The lab's version (given): a round trip through the host after every step
// ---------------------------------------------------------------------------

void make_waveform_round_trips(const float* host_noise, float* host_waveform, int n,
                               const PulseShape& shape) {
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  std::vector<float> host_pulses(static_cast<std::size_t>(n));
  float* device_a = nullptr;
  float* device_b = nullptr;
  CUDA_CHECK(cudaMalloc(&device_a, bytes));
  CUDA_CHECK(cudaMalloc(&device_b, bytes));

  // [slide:round-trips]
  // pulses = make_pulses(t, period, amplitude): computed on the GPU, copied back.
  make_pulses_kernel<<<blocks_for(n), kThreadsPerBlock>>>(device_a, n, shape.period,
                                                          shape.amplitude);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(host_pulses.data(), device_a, bytes, cudaMemcpyDeviceToHost));

  // waveform = add_ufunc(pulses, noise): both copied in again, the sum copied back.
  CUDA_CHECK(cudaMemcpy(device_a, host_pulses.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(device_b, host_noise, bytes, cudaMemcpyHostToDevice));
  add_kernel<<<blocks_for(n), kThreadsPerBlock>>>(device_a, device_b, device_a, n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(host_waveform, device_a, bytes, cudaMemcpyDeviceToHost));
  // [/slide]

  // waveform = zero_suppress(waveform, threshold): in and out once more.
  CUDA_CHECK(cudaMemcpy(device_a, host_waveform, bytes, cudaMemcpyHostToDevice));
  zero_suppress_kernel<<<blocks_for(n), kThreadsPerBlock>>>(device_a, n, shape.threshold);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(host_waveform, device_a, bytes, cudaMemcpyDeviceToHost));

  CUDA_CHECK(cudaFree(device_a));
  CUDA_CHECK(cudaFree(device_b));
}

// ---------------------------------------------------------------------------
// Part 1: the data stays on the device
// ---------------------------------------------------------------------------

// [slide:enqueue_pipeline]
void enqueue_pipeline(const float* device_noise, float* device_waveform, int n,
                      const PulseShape& shape, cudaStream_t stream) {
  // TODO(student): the three kernels on `stream`, in order.
  //   1. make_pulses_kernel writing the pulses into device_waveform.
  //   2. add_kernel adding device_noise to device_waveform, in place.
  //   3. zero_suppress_kernel on device_waveform.
  // Launch each on `stream`, the fourth launch parameter:
  // <<<blocks_for(n), kThreadsPerBlock, 0, stream>>>. Follow each with CUDA_CHECK_LAUNCH().
  // Kernels of one stream run in the order they were launched: no wait is needed here.
  // END TODO(student)
}
// [/slide]

// [slide:make_waveform_on_device]
void make_waveform_on_device(const float* host_noise, float* host_waveform, int n,
                             const PulseShape& shape) {
  // TODO(student): one copy in, the pipeline, one copy out, in six steps.
  //   1. When n == 0, return: nothing to compute, nothing to copy.
  //   2. Allocate two device buffers of n floats, the noise and the waveform.
  //   3. Copy host_noise into the first: the only copy to the device.
  //   4. Call enqueue_pipeline(..., 0): the default stream.
  //   5. Copy the waveform back into host_waveform: the only copy to the host. cudaMemcpy
  //      waits for the kernels before it copies.
  //   6. Free both buffers.
  // Wrap every CUDA call in CUDA_CHECK(...).
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: pinned staging buffers, allocated once
// ---------------------------------------------------------------------------

// [slide:allocate_waveform_buffers]
WaveformBuffers allocate_waveform_buffers(int capacity) {
  WaveformBuffers buffers;
  buffers.capacity = capacity;
  // TODO(student): the four buffers, capacity floats each.
  //   1. The two host ones with cudaMallocHost (pinned).
  //   2. The two device ones with cudaMalloc.
  // END TODO(student)
  return buffers;
}
// [/slide]

void free_waveform_buffers(WaveformBuffers& buffers) {
  // TODO(student): free each buffer with the call that matches its allocation.
  //   cudaFreeHost for cudaMallocHost, cudaFree for cudaMalloc.
  // END TODO(student)
  buffers = WaveformBuffers{};
}

// [slide:make_waveform_pinned]
void make_waveform_pinned(WaveformBuffers& buffers, int n, const PulseShape& shape,
                          cudaStream_t stream) {
  // TODO(student): one waveform through the pinned buffers, in five steps.
  //   1. When n == 0, return.
  //   2. cudaMemcpyAsync the n noise samples from buffers.host_noise to
  //      buffers.device_noise on `stream`.
  //   3. Call enqueue_pipeline on the device buffers and `stream`.
  //   4. cudaMemcpyAsync the n results back into buffers.host_waveform on `stream`.
  //   5. Wait for the stream (cudaStreamSynchronize): until then the result is not in
  //      host_waveform, and the caller reads it as soon as this function returns.
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 3: unified (managed) memory
// ---------------------------------------------------------------------------

// [slide:allocate_managed_waveform]
ManagedWaveform allocate_managed_waveform(int n) {
  ManagedWaveform buffers;
  buffers.n = n;
  // TODO(student): both buffers, n floats each, in managed memory.
  //   cudaMallocManaged(&pointer, bytes) for each: one pointer, valid on the host and on
  //   the device. Nothing is placed anywhere yet: the first touch decides.
  // END TODO(student)
  return buffers;
}
// [/slide]

void free_managed_waveform(ManagedWaveform& buffers) {
  // TODO(student): free both buffers.
  //   cudaFree frees managed memory too.
  // END TODO(student)
  buffers = ManagedWaveform{};
}

// [slide:make_waveform_managed]
void make_waveform_managed(ManagedWaveform& buffers, const PulseShape& shape, Migration migration,
                           cudaStream_t stream) {
  // TODO(student): the pipeline on the managed buffers, in four steps.
  // [slide:managed-steps]
  //   1. With Migration::prefetch, prefetch both buffers to the device the kernels run
  //      on: cudaGetDevice(&device), the location cudaMemLocation{cudaMemLocationTypeDevice,
  //      device}, then cudaMemPrefetchAsync(pointer, bytes, location, 0, stream) for each.
  //      With Migration::on_demand, no hint at all: the kernels' page faults move the pages.
  //   2. Call enqueue_pipeline on buffers.noise, buffers.waveform, buffers.n and `stream`.
  //   3. With Migration::prefetch, prefetch the waveform back to the host, on `stream`:
  //      the location cudaMemLocation{cudaMemLocationTypeHost, 0}.
  //   4. Wait for the stream (cudaStreamSynchronize): the host reads the waveform as soon
  //      as this function returns, and the kernels may still be writing it until then.
  // [/slide]
  // END TODO(student)
}
// [/slide]
