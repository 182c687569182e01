// Exercise 11 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <cstddef>
#include <cstdint>
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
namespace asked = hidden_layer::request;
namespace result = hidden_layer::result;

LayerMethod layer_method(asked::Method method) {
  return method == asked::Method::fused ? LayerMethod::fused : LayerMethod::three_kernels;
}

// Output indices of the performance case.
enum PerformanceOutput { kCopyOutput, kFusedOutput, kThreeOutput, kPerformanceOutputs };

// The copy ceiling, the fused kernel and the three kernels, timed in turn on the same
// device arrays, in several rounds so that a slow moment of the GPU hits all three alike.
// Each figure is the median of its repetitions; the best round of each is reported.
void run_performance_case(const asked::Performance& p, std::uint64_t seed,
                          course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const int rounds = p.rounds;
  const int warmup = p.warmup;
  const int repetitions = p.repetitions;
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, seed);
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
            course::check::student_call({course::check::timed_output(layer.output(kFusedOutput),
                                                                     static_cast<std::size_t>(n))},
                                        [&] {
                                          launch_fused(layer.greyscales(), layer.weights(),
                                                       layer.output(kFusedOutput), n);
                                        }),
            warmup, repetitions)
            .median_ms;
    const double three =
        course::time_device(
            course::check::student_call({course::check::timed_output(layer.output(kThreeOutput),
                                                                     static_cast<std::size_t>(n))},
                                        [&] {
                                          launch_three_kernels(layer.greyscales(), layer.weights(),
                                                               layer.output(kThreeOutput), n);
                                        }),
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
void run_offsets_case(const asked::FusedOffsets& p, std::uint64_t seed,
                      course::check::ResultWriter& results) {
  const int n = static_cast<int>(p.n);
  const auto greyscales_offset = static_cast<std::size_t>(p.greyscales_offset);
  const auto weights_offset = static_cast<std::size_t>(p.weights_offset);
  const auto activated_offset = static_cast<std::size_t>(p.activated_offset);
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, seed);
  course::DeviceBuffer<float> greyscales =
      course::device_buffer_after(greyscales_offset, inputs.greyscales);
  course::DeviceBuffer<float> weights = course::device_buffer_after(weights_offset, inputs.weights);
  course::DeviceBuffer<float> activated(activated_offset + static_cast<std::size_t>(n));
  launch_fused(greyscales.data() + greyscales_offset, weights.data() + weights_offset,
               activated.data() + activated_offset, n);
  results.put(result::activated, activated.download_from(activated_offset));
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::performance)) {
    run_performance_case(*p, request.seed, results);
    return;
  }
  if (const auto p = request.as(asked::fused_offsets)) {
    run_offsets_case(*p, request.seed, results);
    return;
  }
  const bool after_empty = request.is(asked::gpu_after_empty);
  const auto p = after_empty ? request.as(asked::gpu_after_empty) : request.as(asked::gpu);
  if (!p) course::check::unknown_case(request);
  const int n = static_cast<int>(p->n);
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, request.seed, p->levels);
  course::check::GuardedOutput<float> activated(static_cast<std::size_t>(n));

  if (after_empty) {
    // Empty calls first, with both methods: they must neither fail nor disturb the call after.
    const std::vector<float> no_input;
    course::check::GuardedOutput<float> no_output(0);
    create_hidden_layer_gpu(no_input.data(), no_input.data(), no_output.data(), 0,
                            LayerMethod::three_kernels);
    create_hidden_layer_gpu(no_input.data(), no_input.data(), no_output.data(), 0,
                            LayerMethod::fused);
    no_output.report(results, result::empty_activated);
  }
  create_hidden_layer_gpu(inputs.greyscales.data(), inputs.weights.data(), activated.data(), n,
                          layer_method(p->method));
  activated.report(results, result::activated);
}
