// Exercise 11: device arrays for the two inputs of a layer and its outputs, used by the
// performance case (harness/cases.cu) and the demo (harness/demo.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/verify.hpp"
#include "workload.hpp"

namespace hidden_layer {

// Device arrays of n floats for the two inputs and some outputs, freed on every path.
class DeviceLayer {
 public:
  DeviceLayer(const hidden_layer::Inputs& inputs, int outputs)
      : n_(inputs.greyscales.size()), outputs_(static_cast<std::size_t>(outputs), nullptr) {
    CUDA_CHECK(cudaMalloc(&greyscales_, bytes()));
    CUDA_CHECK(cudaMalloc(&weights_, bytes()));
    for (float*& output : outputs_) CUDA_CHECK(cudaMalloc(&output, bytes()));
    CUDA_CHECK(cudaMemcpy(greyscales_, inputs.greyscales.data(), bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(weights_, inputs.weights.data(), bytes(), cudaMemcpyHostToDevice));
  }
  ~DeviceLayer() {
    cudaFree(greyscales_);
    cudaFree(weights_);
    for (float* output : outputs_) cudaFree(output);
  }
  DeviceLayer(const DeviceLayer&) = delete;
  DeviceLayer& operator=(const DeviceLayer&) = delete;

  std::size_t bytes() const { return n_ * sizeof(float); }
  const float* greyscales() const { return greyscales_; }
  const float* weights() const { return weights_; }
  float* output(int which) { return outputs_[static_cast<std::size_t>(which)]; }

  // Fills output `which` with the poison, so that an element no kernel wrote is seen as such.
  void poison_output(int which) { course::poison_device(output(which), n_); }

  // Output `which`, copied to the host.
  std::vector<float> download(int which) {
    std::vector<float> all(n_);
    CUDA_CHECK(cudaMemcpy(all.data(), output(which), bytes(), cudaMemcpyDeviceToHost));
    return all;
  }

  // The elements of output `which` at `indices`, copied to the host.
  std::vector<float> sample(int which, const std::vector<std::size_t>& indices) {
    const std::vector<float> all = download(which);
    std::vector<float> picked;
    picked.reserve(indices.size());
    for (const std::size_t i : indices) picked.push_back(all[i]);
    return picked;
  }

 private:
  std::size_t n_;
  float* greyscales_ = nullptr;
  float* weights_ = nullptr;
  std::vector<float*> outputs_;
};

}  // namespace hidden_layer
