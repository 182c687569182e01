// Exercise 11 - the demo (`make run-11`), for the lab's hidden layers of one million and
// one hundred million neurons: the CPU loop, the student's round trips (three kernels,
// fused), the kernels alone with their bandwidth against the copy ceiling measured in the
// same run, and how far the GPU's results are from the CPU's. Each result is compared with
// the double-precision reference before it is timed: a function not written yet, or
// wrong, gets a line that says so and no figure (course/demo_results.hpp), and the demo
// then ends with status 1.
//
// Build and run:  make 11 && make run-11   (one size only: make run-11 ARGS=1000000)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "device_layer.cuh"
#include "hidden_layer.hpp"
#include "workload.hpp"

namespace {

using hidden_layer::DeviceLayer;

// ---------------------------------------------------------------------------
// CPU reference: the lab's three steps, one element after the other
// ---------------------------------------------------------------------------
void create_hidden_layer_cpu(const float* greyscales, const float* weights, float* activated,
                             int n) {
  for (int i = 0; i < n; ++i) {
    const float normalized = greyscales[i] / kGreyscaleScale;
    activated[i] = std::tanh(normalized * weights[i]);
  }
}

// The bytes each version moves for n neurons (floats): the fused kernel reads two inputs
// and writes one output; the three kernels read 1 + 2 + 1 arrays and write 3.
constexpr double kFusedArraysRead = 2.0, kFusedArraysWritten = 1.0;
constexpr double kThreeArraysRead = 4.0, kThreeArraysWritten = 3.0;

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
// The lab's hidden layer: a million neurons, then the hundred million of its assessment.
constexpr int kDemoSizes[] = {1000000, 100000000};
constexpr int kDemoWarmup = 3;
constexpr int kDemoKernelRepetitions = 10;
constexpr int kDemoCallRepetitions = 3;

// The functions, judged before any of their figures is shown: the whole call (with
// either method) and each launcher on device arrays.
struct DemoFunctions {
  course::StudentFunction call{"create_hidden_layer_gpu"};
  course::StudentFunction three{"launch_three_kernels"};
  course::StudentFunction fused{"launch_fused"};
};

// A result is compared with the double-precision reference at this many elements at
// most, spread over the whole array (tanh in double costs tens of nanoseconds).
constexpr std::size_t kJudgedElements = 1 << 20;

course::Judgement judge_layer(course::StudentFunction& function, const hidden_layer::Inputs& inputs,
                              const std::vector<float>& activated, const std::string& context) {
  return function.judge(
      course::compare_at(
          activated.data(), course::spread_indices(activated.size(), kJudgedElements),
          [&](std::size_t i) {
            return hidden_layer::neuron_reference(inputs.greyscales[i], inputs.weights[i]);
          },
          hidden_layer::kTolerance),
      context);
}

void demo_size(int n, double ceiling_gbps, DemoFunctions& functions) {
  std::printf("\n--- hidden layer of %d neurons (%.0f MB per array) ---\n", n,
              n * sizeof(float) / 1e6);
  const std::string size = std::to_string(n);
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, kDemoSeed);
  std::vector<float> three(inputs.greyscales.size()), fused(three.size());

  // The whole calls: each judged on its first call (the warm-up), then timed.
  auto call = [&](std::vector<float>& out, LayerMethod method, const char* what) {
    course::poison(out.data(), out.size());
    create_hidden_layer_gpu(inputs.greyscales.data(), inputs.weights.data(), out.data(), n, method);
    const course::Judgement result =
        judge_layer(functions.call, inputs, out, std::string(what) + ", n = " + size);
    const double ms =
        result.right ? course::time_host(
                           [&] {
                             create_hidden_layer_gpu(inputs.greyscales.data(),
                                                     inputs.weights.data(), out.data(), n, method);
                           },
                           0, kDemoCallRepetitions)
                           .median_ms
                     : 0.0;
    return std::make_pair(result, ms);
  };
  const auto [three_call, three_call_ms] = call(three, LayerMethod::three_kernels, "three kernels");
  const auto [fused_call, fused_call_ms] = call(fused, LayerMethod::fused, "fused");

  // The given CPU loop, timed only when a GPU call has a time to set beside it.
  std::vector<float> cpu(inputs.greyscales.size());
  const bool cpu_timed = three_call.right || fused_call.right;
  const double cpu_ms = cpu_timed
                            ? course::time_host(
                                  [&] {
                                    create_hidden_layer_cpu(inputs.greyscales.data(),
                                                            inputs.weights.data(), cpu.data(), n);
                                  },
                                  0, 1)
                                  .median_ms
                            : 0.0;
  course::Table calls("calls_" + size, "hidden layer of " + size + " neurons: whole calls",
                      {course::Column::text("version", "version", 14),
                       course::Column::number("ms", "ms", 10, 2),
                       course::Column::number("speedup", "x the CPU", 9, 1, "x")});
  calls.record_row({"CPU loop", course::Cell::number_if(cpu_timed, cpu_ms),
                    course::Cell::number_if(cpu_timed, 1.0)},
                   cpu_timed ? "" : "not timed: no GPU call to compare with");
  if (cpu_timed) {
    std::printf("whole call (allocate, copy in, compute, copy back, free), median of %d:\n",
                kDemoCallRepetitions);
    std::printf("  CPU loop       %10.2f ms\n", cpu_ms);
  }
  for (const auto& [version, result, ms] : {std::tuple<const char*, course::Judgement, double>{
                                                "three kernels", three_call, three_call_ms},
                                            {"fused kernel", fused_call, fused_call_ms}}) {
    calls.record_row({version, result.figure(ms), result.figure(cpu_ms / ms)}, result.problem);
    if (result.right) {
      std::printf("  %-13s  %10.2f ms   (%.1fx the CPU)\n", version, ms, cpu_ms / ms);
    }
  }

  // The kernels alone, on arrays already on the device: each judged on its first launch.
  DeviceLayer layer(inputs, 1);
  auto launch = [&](course::StudentFunction& function, auto&& work) {
    layer.poison_output(0);
    work();
    const course::Judgement result =
        judge_layer(function, inputs, layer.download(0), "n = " + size);
    const double ms = result.right
                          ? course::time_device(work, kDemoWarmup, kDemoKernelRepetitions).median_ms
                          : 0.0;
    return std::make_pair(result, ms);
  };
  float* out = layer.output(0);
  const auto [three_kernels, three_ms] = launch(functions.three, [&] {
    launch_three_kernels(layer.greyscales(), layer.weights(), out, n);
  });
  const auto [fused_kernel, fused_ms] =
      launch(functions.fused, [&] { launch_fused(layer.greyscales(), layer.weights(), out, n); });
  const double array_bytes = static_cast<double>(layer.bytes());
  if (three_kernels.right || fused_kernel.right) {
    std::printf("kernels alone, on device arrays (median of %d):\n", kDemoKernelRepetitions);
  }
  course::Table bandwidth =
      course::bandwidth_table("kernels_" + size, "hidden layer of " + size + " neurons: kernels");
  course::add_bandwidth_line(bandwidth, three_kernels, "three kernels",
                             kThreeArraysRead * array_bytes, kThreeArraysWritten * array_bytes,
                             three_ms, ceiling_gbps);
  course::add_bandwidth_line(bandwidth, fused_kernel, "fused kernel ",
                             kFusedArraysRead * array_bytes, kFusedArraysWritten * array_bytes,
                             fused_ms, ceiling_gbps);

  // The CPU's std::tanh and the GPU's tanhf round differently: a few ulp apart at most.
  for (const auto& [name, result, gpu] :
       {std::tuple<const char*, course::Judgement, const std::vector<float>*>{"three kernels",
                                                                              three_call, &three},
        {"fused kernel", fused_call, &fused}}) {
    if (!result.right) continue;
    const course::Comparison c =
        course::compare(gpu->data(), cpu.data(), cpu.size(), course::kExact);
    std::printf("  %s: %zu of %zu elements differ from the CPU's, by at most %.3g\n", name, c.wrong,
                c.count, c.max_abs_error);
  }
}

int run_demo(const std::vector<int>& sizes) {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  std::printf("activated[i] = tanh(greyscales[i] / 255 * weights[i]); blocks of %d threads\n",
              kThreadsPerBlock);
  DemoFunctions functions;
  for (const int n : sizes) {
    // Nothing written yet: a larger size would show nothing more.
    if (functions.call.not_implemented() && functions.three.not_implemented() &&
        functions.fused.not_implemented()) {
      break;
    }
    demo_size(n, ceiling_gbps, functions);
  }
  std::printf("\n(`make check-11` grades every case against a double-precision reference)\n");
  return course::demo_status({&functions.call, &functions.three, &functions.fused});
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  std::vector<int> sizes(std::begin(kDemoSizes), std::end(kDemoSizes));
  if (argc > 1) {
    char* end = nullptr;
    const long requested = std::strtol(argv[1], &end, 10);
    if (argc > 2 || *end != '\0' || requested < 1 || requested > kDemoSizes[1]) {
      std::fprintf(stderr, "usage: %s [neurons, 1 to %d; default: %d and %d]\n", argv[0],
                   kDemoSizes[1], kDemoSizes[0], kDemoSizes[1]);
      return 2;
    }
    sizes = {static_cast<int>(requested)};
  }
  return run_demo(sizes);
}
