// Exercise 25 - what the demo and the cases both set up on the two GPUs before they call
// the student's functions: NCCL's environment, one stream per device, buffers on a device.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "two_gpus_nccl.hpp"

namespace two_gpus_nccl {

// NVLink multicast (NVLS) stays off on the course's machines: NCCL would otherwise use it
// on NVSwitch systems for the all-reduce. A value set by the person running it wins.
inline void keep_nvlink_multicast_off() { setenv("NCCL_NVLS_ENABLE", "0", 0); }

// One non-blocking stream per device: streams[d] belongs to device d.
struct DeviceStreams {
  cudaStream_t streams[kGpuCount] = {};
  DeviceStreams() {
    for (int d = 0; d < kGpuCount; ++d) {
      CUDA_CHECK(cudaSetDevice(d));
      CUDA_CHECK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
    }
  }
  ~DeviceStreams() {
    for (int d = 0; d < kGpuCount; ++d) {
      cudaSetDevice(d);
      cudaStreamDestroy(streams[d]);
    }
  }
  DeviceStreams(const DeviceStreams&) = delete;
  DeviceStreams& operator=(const DeviceStreams&) = delete;
  // Waits for both streams.
  void synchronize() const {
    for (int d = 0; d < kGpuCount; ++d) CUDA_CHECK(cudaStreamSynchronize(streams[d]));
  }
  // How many of them still have work queued.
  int busy() const {
    int count = 0;
    for (int d = 0; d < kGpuCount; ++d) {
      const cudaError_t status = cudaStreamQuery(streams[d]);
      if (status == cudaErrorNotReady) {
        ++count;
      } else {
        CUDA_CHECK(status);
      }
    }
    return count;
  }
};

// `count` floats on `device`, freed with it; filled from `values` when given.
struct DeviceFloats {
  float* data = nullptr;
  std::size_t count = 0;
  int device = 0;
  DeviceFloats(int on_device, std::size_t n, const std::vector<float>* values = nullptr)
      : count(n), device(on_device) {
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaMalloc(&data, count * sizeof(float)));
    // In place before any stream of the student's reads it (copy_to_device).
    if (values != nullptr) course::copy_to_device(data, values->data(), count);
  }
  ~DeviceFloats() {
    cudaSetDevice(device);
    cudaFree(data);
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  // Fills it with the poison (course::poison_device).
  void poison() const {
    CUDA_CHECK(cudaSetDevice(device));
    course::poison_device(data, count);
  }
  std::vector<float> read() const {
    std::vector<float> values(count);
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaMemcpy(values.data(), data, count * sizeof(float), cudaMemcpyDeviceToHost));
    return values;
  }
};

// Waits for every stream of both devices (a copy on a device's legacy stream does not
// wait for its non-blocking streams).
inline void synchronize_both() {
  for (int d = 0; d < kGpuCount; ++d) {
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
}

}  // namespace two_gpus_nccl
