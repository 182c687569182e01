// Exercise 11 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "device_layer.cuh"
#include "hidden_layer.hpp"
#include "workload.hpp"

namespace {

using hidden_layer::DeviceLayer;
namespace result = hidden_layer::result;

LayerMethod method_of(const course::check::CaseRequest& request) {
  const std::string& method = request.param("method");
  if (method == "fused") return LayerMethod::fused;
  if (method == "three_kernels") return LayerMethod::three_kernels;
  std::fprintf(stderr, "check protocol: unknown method '%s'\n", method.c_str());
  std::exit(2);
}

// Output indices of the performance case.
enum PerformanceOutput { kCopyOutput, kFusedOutput, kThreeOutput, kPerformanceOutputs };

// The copy ceiling, the fused kernel and the three kernels, timed in turn on the same
// device arrays, in several rounds so that a slow moment of the GPU hits all three alike.
// Each figure is the median of its repetitions; the best round of each is reported.
void run_performance_case(const course::check::CaseRequest& request,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const int rounds = static_cast<int>(request.param_int("rounds"));
  const int warmup = static_cast<int>(request.param_int("warmup"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, request.seed);
  DeviceLayer layer(inputs, kPerformanceOutputs);

  double copy_ms = 0.0, fused_ms = 0.0, three_ms = 0.0;
  for (int round = 0; round < rounds; ++round) {
    const double copy =
        course::time_device(
            [&] {
              CUDA_CHECK(cudaMemcpyAsync(layer.output(kCopyOutput), layer.greyscales(),
                                         layer.bytes(), cudaMemcpyDeviceToDevice));
            },
            warmup, repetitions)
            .median_ms;
    const double fused =
        course::time_device(
            [&] {
              launch_fused(layer.greyscales(), layer.weights(), layer.output(kFusedOutput), n);
            },
            warmup, repetitions)
            .median_ms;
    const double three = course::time_device(
                             [&] {
                               launch_three_kernels(layer.greyscales(), layer.weights(),
                                                    layer.output(kThreeOutput), n);
                             },
                             warmup, repetitions)
                             .median_ms;
    copy_ms = (round == 0) ? copy : std::min(copy_ms, copy);
    fused_ms = (round == 0) ? fused : std::min(fused_ms, fused);
    three_ms = (round == 0) ? three : std::min(three_ms, three);
  }
  results.put(result::copy_ms, copy_ms);
  results.put(result::fused_ms, fused_ms);
  results.put(result::three_ms, three_ms);
  const std::vector<std::size_t> indices = hidden_layer::sample_indices(inputs.greyscales.size());
  results.put(result::fused_sample, layer.sample(kFusedOutput, indices));
  results.put(result::three_sample, layer.sample(kThreeOutput, indices));
}

// launch_fused on device arrays that start greyscales_offset, weights_offset and
// activated_offset floats into their buffers: with an offset that is not a multiple of 4,
// not on a 16-byte boundary.
void run_offsets_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const int n = static_cast<int>(request.param_int("n"));
  const auto offset = [&](const char* name) {
    return static_cast<std::size_t>(request.param_int(name));
  };
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, request.seed);
  course::DeviceBuffer<float> greyscales =
      course::device_buffer_after(offset("greyscales_offset"), inputs.greyscales);
  course::DeviceBuffer<float> weights =
      course::device_buffer_after(offset("weights_offset"), inputs.weights);
  course::DeviceBuffer<float> activated(offset("activated_offset") + static_cast<std::size_t>(n));
  launch_fused(greyscales.data() + offset("greyscales_offset"),
               weights.data() + offset("weights_offset"),
               activated.data() + offset("activated_offset"), n);
  results.put(result::activated, activated.download_from(offset("activated_offset")));
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.name == "performance") {
    run_performance_case(request, results);
    return;
  }
  if (request.name == "fused_offsets") {
    run_offsets_case(request, results);
    return;
  }
  const int n = static_cast<int>(request.param_int("n"));
  const float levels = static_cast<float>(request.param_double("levels"));
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, request.seed, levels);
  course::check::GuardedOutput<float> activated(static_cast<std::size_t>(n));
  const LayerMethod method = method_of(request);

  if (request.name == "gpu_after_empty") {
    // Empty calls first, with both methods: they must neither fail nor disturb the call after.
    const std::vector<float> no_input;
    course::check::GuardedOutput<float> no_output(0);
    create_hidden_layer_gpu(no_input.data(), no_input.data(), no_output.data(), 0,
                            LayerMethod::three_kernels);
    create_hidden_layer_gpu(no_input.data(), no_input.data(), no_output.data(), 0,
                            LayerMethod::fused);
    no_output.report(results, result::empty_activated);
  } else if (request.name != "gpu") {
    course::check::unknown_case(request);
  }
  create_hidden_layer_gpu(inputs.greyscales.data(), inputs.weights.data(), activated.data(), n,
                          method);
  activated.report(results, result::activated);
}
