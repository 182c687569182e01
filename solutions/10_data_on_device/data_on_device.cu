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
  // [slide:enqueue-pipeline]
  make_pulses_kernel<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(device_waveform, n,
                                                                     shape.period, shape.amplitude);
  CUDA_CHECK_LAUNCH();
  // [slide:enqueue-add]
  add_kernel<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(device_waveform, device_noise,
                                                             device_waveform, n);
  CUDA_CHECK_LAUNCH();
  zero_suppress_kernel<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(device_waveform, n,
                                                                       shape.threshold);
  CUDA_CHECK_LAUNCH();
  // [/slide]
  // [/slide]
  // END TODO(student)
}
// [/slide]

// [slide:make_waveform_on_device]
void make_waveform_on_device(const float* host_noise, float* host_waveform, int n,
                             const PulseShape& shape) {
  // TODO(student): one copy in, the pipeline, one copy out, in six steps.
  // [slide:on-device]
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  float* device_noise = nullptr;
  float* device_waveform = nullptr;
  CUDA_CHECK(cudaMalloc(&device_noise, bytes));
  CUDA_CHECK(cudaMalloc(&device_waveform, bytes));
  CUDA_CHECK(cudaMemcpy(device_noise, host_noise, bytes, cudaMemcpyHostToDevice));
  enqueue_pipeline(device_noise, device_waveform, n, shape, 0);
  CUDA_CHECK(cudaMemcpy(host_waveform, device_waveform, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_noise));
  CUDA_CHECK(cudaFree(device_waveform));
  // [/slide]
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
  // [slide:pinned-allocation]
  const std::size_t bytes = static_cast<std::size_t>(capacity) * sizeof(float);
  CUDA_CHECK(cudaMallocHost(&buffers.host_noise, bytes));
  CUDA_CHECK(cudaMallocHost(&buffers.host_waveform, bytes));
  CUDA_CHECK(cudaMalloc(&buffers.device_noise, bytes));
  CUDA_CHECK(cudaMalloc(&buffers.device_waveform, bytes));
  // [/slide]
  // END TODO(student)
  return buffers;
}
// [/slide]

void free_waveform_buffers(WaveformBuffers& buffers) {
  // TODO(student): free each buffer with the call that matches its allocation.
  CUDA_CHECK(cudaFreeHost(buffers.host_noise));
  CUDA_CHECK(cudaFreeHost(buffers.host_waveform));
  CUDA_CHECK(cudaFree(buffers.device_noise));
  CUDA_CHECK(cudaFree(buffers.device_waveform));
  // END TODO(student)
  buffers = WaveformBuffers{};
}

// [slide:make_waveform_pinned]
void make_waveform_pinned(WaveformBuffers& buffers, int n, const PulseShape& shape,
                          cudaStream_t stream) {
  // TODO(student): one waveform through the pinned buffers, in five steps.
  // [slide:pinned-pipeline]
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(buffers.device_noise, buffers.host_noise, bytes,
                             cudaMemcpyHostToDevice, stream));
  enqueue_pipeline(buffers.device_noise, buffers.device_waveform, n, shape, stream);
  CUDA_CHECK(cudaMemcpyAsync(buffers.host_waveform, buffers.device_waveform, bytes,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  // [/slide]
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
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMallocManaged(&buffers.noise, bytes));
  CUDA_CHECK(cudaMallocManaged(&buffers.waveform, bytes));
  // END TODO(student)
  return buffers;
}
// [/slide]

void free_managed_waveform(ManagedWaveform& buffers) {
  // TODO(student): free both buffers.
  CUDA_CHECK(cudaFree(buffers.noise));
  CUDA_CHECK(cudaFree(buffers.waveform));
  // END TODO(student)
  buffers = ManagedWaveform{};
}

// [slide:make_waveform_managed]
void make_waveform_managed(ManagedWaveform& buffers, const PulseShape& shape, Migration migration,
                           cudaStream_t stream) {
  // TODO(student): the pipeline on the managed buffers, in four steps.
  // [slide:managed-pipeline]
  const std::size_t bytes = static_cast<std::size_t>(buffers.n) * sizeof(float);
  if (migration == Migration::prefetch) {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    const cudaMemLocation gpu{cudaMemLocationTypeDevice, device};
    CUDA_CHECK(cudaMemPrefetchAsync(buffers.noise, bytes, gpu, 0, stream));
    CUDA_CHECK(cudaMemPrefetchAsync(buffers.waveform, bytes, gpu, 0, stream));
  }
  enqueue_pipeline(buffers.noise, buffers.waveform, buffers.n, shape, stream);
  if (migration == Migration::prefetch) {
    const cudaMemLocation host{cudaMemLocationTypeHost, 0};
    CUDA_CHECK(cudaMemPrefetchAsync(buffers.waveform, bytes, host, 0, stream));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  // [/slide]
  // END TODO(student)
}
// [/slide]
