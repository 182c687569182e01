// Exercise 11 - the program around the student's functions (instructor-owned).
//
// `make run-11` runs the demo, for the lab's hidden layers of one million and one hundred
// million neurons: the CPU loop, the student's round trips (three kernels, fused), the
// kernels alone with their bandwidth against the copy ceiling measured in the same run,
// and how far the GPU's results are from the CPU's. The check runs this same program
// with --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 11 && make run-11   (one size only: make run-11 ARGS=1000000)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_info.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"
#include "hidden_layer.hpp"
#include "workload.hpp"

namespace {

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

  // The elements of output `which` at `indices`, copied to the host.
  std::vector<float> sample(int which, const std::vector<std::size_t>& indices) {
    std::vector<float> all(n_);
    CUDA_CHECK(cudaMemcpy(all.data(), output(which), bytes(), cudaMemcpyDeviceToHost));
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

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------
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
  results.put_value("copy_ms", copy_ms);
  results.put_value("fused_ms", fused_ms);
  results.put_value("three_ms", three_ms);
  const std::vector<std::size_t> indices = hidden_layer::sample_indices(inputs.greyscales.size());
  results.put("fused_sample", layer.sample(kFusedOutput, indices));
  results.put("three_sample", layer.sample(kThreeOutput, indices));
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  if (request.name == "performance") {
    run_performance_case(request, results);
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
    no_output.report(results, "empty_activated");
  } else if (request.name != "gpu") {
    course::check::unknown_case(request);
  }
  create_hidden_layer_gpu(inputs.greyscales.data(), inputs.weights.data(), activated.data(), n,
                          method);
  activated.report(results, "activated");
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 42;
// The lab's hidden layer: a million neurons, then the hundred million of its assessment.
constexpr int kDemoSizes[] = {1000000, 100000000};
constexpr int kDemoWarmup = 3;
constexpr int kDemoKernelRepetitions = 10;
constexpr int kDemoCallRepetitions = 3;

void demo_size(int n, double ceiling_gbps) {
  std::printf("\n--- hidden layer of %d neurons (%.0f MB per array) ---\n", n,
              n * sizeof(float) / 1e6);
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, kDemoSeed);
  std::vector<float> cpu(inputs.greyscales.size());
  std::vector<float> three(cpu.size()), fused(cpu.size());
  course::poison(three.data(), three.size());
  course::poison(fused.data(), fused.size());

  const double cpu_ms =
      course::time_host(
          [&] {
            create_hidden_layer_cpu(inputs.greyscales.data(), inputs.weights.data(), cpu.data(), n);
          },
          0, 1)
          .median_ms;
  auto call = [&](std::vector<float>& out, LayerMethod method) {
    return course::time_host(
               [&] {
                 create_hidden_layer_gpu(inputs.greyscales.data(), inputs.weights.data(),
                                         out.data(), n, method);
               },
               1, kDemoCallRepetitions)
        .median_ms;
  };
  const double three_call_ms = call(three, LayerMethod::three_kernels);
  const double fused_call_ms = call(fused, LayerMethod::fused);
  std::printf("whole call (allocate, copy in, compute, copy back, free), median of %d:\n",
              kDemoCallRepetitions);
  std::printf("  CPU loop       %10.2f ms\n", cpu_ms);
  std::printf("  three kernels  %10.2f ms   (%.1fx the CPU)\n", three_call_ms,
              three_call_ms > 0.0 ? cpu_ms / three_call_ms : 0.0);
  std::printf("  fused kernel   %10.2f ms   (%.1fx the CPU)\n", fused_call_ms,
              fused_call_ms > 0.0 ? cpu_ms / fused_call_ms : 0.0);
  // The lines above, for the report.
  course::Table calls("calls_" + std::to_string(n),
                      "hidden layer of " + std::to_string(n) + " neurons: whole calls",
                      {course::Column::text("version", "version", 14),
                       course::Column::number("ms", "ms", 10, 2),
                       course::Column::number("speedup", "x the CPU", 9, 1, "x")});
  for (const auto& [version, ms] : {std::pair<const char*, double>{"CPU loop", cpu_ms},
                                    {"three kernels", three_call_ms},
                                    {"fused kernel", fused_call_ms}}) {
    calls.record_row({version, ms, course::Cell::number_if(ms > 0.0, cpu_ms / ms)});
  }

  // The kernels alone, on arrays already on the device.
  DeviceLayer layer(inputs, 1);
  float* out = layer.output(0);
  const double three_ms =
      course::time_device(
          [&] { launch_three_kernels(layer.greyscales(), layer.weights(), out, n); }, kDemoWarmup,
          kDemoKernelRepetitions)
          .median_ms;
  const double fused_ms =
      course::time_device([&] { launch_fused(layer.greyscales(), layer.weights(), out, n); },
                          kDemoWarmup, kDemoKernelRepetitions)
          .median_ms;
  const double array_bytes = static_cast<double>(layer.bytes());
  std::printf("kernels alone, on device arrays (median of %d):\n", kDemoKernelRepetitions);
  course::Table bandwidth = course::bandwidth_table(
      "kernels_" + std::to_string(n), "hidden layer of " + std::to_string(n) + " neurons: kernels");
  course::add_bandwidth_line(bandwidth, "three kernels", kThreeArraysRead * array_bytes,
                             kThreeArraysWritten * array_bytes, three_ms, ceiling_gbps);
  course::add_bandwidth_line(bandwidth, "fused kernel ", kFusedArraysRead * array_bytes,
                             kFusedArraysWritten * array_bytes, fused_ms, ceiling_gbps);

  // The CPU's std::tanh and the GPU's tanhf round differently: a few ulp apart at most.
  for (const auto& [name, gpu] :
       {std::pair<const char*, const std::vector<float>*>{"three kernels", &three},
        {"fused kernel", &fused}}) {
    const course::Comparison c =
        course::compare(gpu->data(), cpu.data(), cpu.size(), course::kExact);
    std::printf("  %s: %zu of %zu elements differ from the CPU's, by at most %.3g%s\n", name,
                c.wrong - c.unwritten, c.count, c.max_abs_error,
                c.unwritten > 0 ? (", " + std::to_string(c.unwritten) + " never written").c_str()
                                : "");
  }
}

int demo(const std::vector<int>& sizes) {
  course::print_device_banner();
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  std::printf("activated[i] = tanh(greyscales[i] / 255 * weights[i]); blocks of %d threads\n",
              kThreadsPerBlock);
  for (const int n : sizes) demo_size(n, ceiling_gbps);
  std::printf("\n(`make check-11` grades every case against a double-precision reference)\n");
  return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (auto request = course::check::parse_case_request(argc, argv)) {
    return course::check::run_case(*request, run_check_case);
  }
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
  return demo(sizes);
}
