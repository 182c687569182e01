// Exercise 17 - the demo (`make run-17`): the primary context, a source with an error and
// the log NVRTC gives for it, SAXPY compiled at run time (its compile time, its CUBIN, its
// lowered names), launched through the driver API on floats and doubles and compared bit
// for bit with the same kernel compiled by nvcc into this program, their speeds side by
// side; then the copy in, kernel, copy out pipeline on one stream, in chunks over several
// streams, and in chunks from pageable memory, each with its time beside the times of its
// parts. Every result is compared with its reference before it is shown or timed
// (course/demo_results.hpp).
//
// Build and run:  make 17 && make run-17
#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/program.hpp"
#include "course/stream_probes.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "nvrtc_streams.hpp"
#include "program_helpers.cuh"
#include "workload.hpp"

namespace {

// The helpers both halves share (program_helpers.cuh), the inputs and the constants.
using namespace nvrtc_streams;

constexpr std::uint64_t kDemoSeed = 17;
constexpr std::size_t kDemoCheckedElements = (1 << 20) + 3;          // not a multiple of a block
constexpr std::size_t kDemoSpeedElements = std::size_t{1} << 26;     // 3 x 256 MiB
constexpr std::size_t kDemoPipelineElements = std::size_t{1} << 24;  // 3 x 64 MiB
constexpr std::size_t kDemoChunks = 16;
constexpr int kDemoStreams = 4;
constexpr int kDemoRepetitions = 10;
// A source with an error, to see what NVRTC says about it.
constexpr const char* kDemoBrokenSource =
    "template <typename T>\n"
    "__global__ void saxpy(T a, const T* x, const T* y, T* out, size_t n) {\n"
    "  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = a * x[i] + y[i] + offset;\n"
    "}\n";

struct DemoFunctions {
  course::StudentFunction context{"use_primary_context"};
  course::StudentFunction architecture{"architecture_option"};
  course::StudentFunction compile{"compile_to_cubin"};
  course::StudentFunction load{"load_saxpy"};
  course::StudentFunction launch{"launch_saxpy"};
  course::StudentFunction allocate{"allocate_pipeline"};
  course::StudentFunction one_stream{"saxpy_one_stream"};
  course::StudentFunction chunked{"saxpy_chunked"};
};

// Judges use_primary_context and architecture_option; returns the device the first
// returned, with the primary context current.
CUdevice demo_context(DemoFunctions& functions, int ordinal) {
  const ContextOutcome outcome = probe_use_primary_context(ordinal);
  const CUdevice device = outcome.device;
  if (functions.context
          .judge_value(!outcome.current_is_none,
                       outcome.current_is_primary && outcome.device_is_ordinal,
                       "device " + std::to_string(ordinal),
                       "the current context is not the device's primary context")
          .right) {
    std::printf("Part 1. The current context is device %d's primary context, the one the "
                "runtime API uses: cudaMalloc'd buffers work in driver-API launches.\n",
                ordinal);
  }
  const std::string option = architecture_option(device);
  const course::DeviceSummary summary = course::query_device(ordinal);
  const int device_version = 10 * summary.cc_major + summary.cc_minor;
  const ArchitectureProbe probe = probe_architecture_option(option);
  if (functions.architecture
          .judge_value(!option.empty(), probe.loaded && probe.binary_version == device_version,
                       "device " + std::to_string(ordinal),
                       "'" + option + "' does not give a CUBIN for sm_" +
                           std::to_string(device_version))
          .right) {
    std::printf("Part 2. NVRTC compiles for this device with %s\n", option.c_str());
  }
  return device;
}

// Compiles the broken source and SAXPY; returns whether SAXPY is loaded into `loaded`.
bool demo_compile(DemoFunctions& functions, CUdevice device, SaxpyModule& loaded) {
  const Compilation broken = compile_to_cubin(kDemoBrokenSource, {kSaxpyFloatExpression}, device);
  if (functions.compile
          .judge_value(!broken.log.empty() || broken.succeeded, !broken.succeeded,
                       "a source with an error", "it reported success")
          .right) {
    std::printf("\nA source with an error ('offset' is declared nowhere): compile_to_cubin "
                "returns the log\n");
    course::print_indented(broken.log);
  }
  course::WallTimer timer;
  const Compilation compiled =
      compile_to_cubin(kSaxpySource, {kSaxpyFloatExpression, kSaxpyDoubleExpression}, device);
  const double compile_ms = timer.elapsed_ms();
  const bool is_elf = compiled.cubin.size() > sizeof nvrtc_streams::kElfMagic &&
                      std::memcmp(compiled.cubin.data(), nvrtc_streams::kElfMagic,
                                  sizeof nvrtc_streams::kElfMagic) == 0;
  const bool named = compiled.lowered_names.size() == 2;
  if (!functions.compile
           .judge_value(compiled.succeeded || !compiled.cubin.empty(),
                        compiled.succeeded && is_elf && named, "SAXPY",
                        is_elf ? "no lowered name for each name expression"
                               : "the CUBIN is not an ELF image (PTX?)")
           .right) {
    return false;
  }
  std::printf("\nSAXPY compiled in %.1f ms into a CUBIN of %zu bytes; lowered names:\n", compile_ms,
              compiled.cubin.size());
  std::printf("  %-14s -> %s\n  %-14s -> %s\n", kSaxpyFloatExpression,
              compiled.lowered_names[kFloatKernel].c_str(), kSaxpyDoubleExpression,
              compiled.lowered_names[kDoubleKernel].c_str());
  loaded = load_saxpy(compiled);
  return functions.load
      .judge_value(loaded.module != nullptr,
                   loaded.saxpy_float != nullptr && loaded.saxpy_double != nullptr, "SAXPY",
                   "a kernel was not found")
      .right;
}

template <typename T>
course::Judgement demo_bit_for_bit(DemoFunctions& functions, const SaxpyModule& loaded) {
  const std::size_t n = kDemoCheckedElements;
  const T a = static_cast<T>(nvrtc_streams::kDefaultFactor);
  course::DeviceBuffer<T> x(nvrtc_streams::make_x<T>(n, kDemoSeed));
  course::DeviceBuffer<T> y(nvrtc_streams::make_y<T>(n, kDemoSeed));
  course::DeviceBuffer<T> out(n), reference(n);
  out.poison();
  const CUfunction kernel = sizeof(T) == sizeof(float) ? loaded.saxpy_float : loaded.saxpy_double;
  launch_saxpy<T>(kernel, a, address(x.data()), address(y.data()), address(out.data()), n, nullptr);
  launch_reference<T>(a, x.data(), y.data(), reference.data(), n);
  const std::vector<T> got = out.download(), want = reference.download();
  const char* type = sizeof(T) == sizeof(float) ? "float" : "double";
  const course::Judgement result =
      functions.launch.judge(course::compare(got.data(), want.data(), n, course::kExact),
                             std::string("saxpy<") + type + ">, n = " + std::to_string(n));
  if (result.right) {
    std::printf("  saxpy<%s>, n = %zu: NVRTC's result equals nvcc's bit for bit\n", type, n);
  }
  return result;
}

void demo_speed(const SaxpyModule& loaded) {
  const std::size_t n = kDemoSpeedElements;
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  course::DeviceBuffer<float> x(nvrtc_streams::make_x<float>(n, kDemoSeed));
  course::DeviceBuffer<float> y(nvrtc_streams::make_y<float>(n, kDemoSeed));
  course::DeviceBuffer<float> out(n);
  const double bytes = 3.0 * sizeof(float) * static_cast<double>(n);
  const double nvrtc_ms = course::time_device([&] {
                            launch_saxpy<float>(loaded.saxpy_float, a, address(x.data()),
                                                address(y.data()), address(out.data()), n, nullptr);
                          }).median_ms;
  const double nvcc_ms = course::time_device([&] {
                           launch_reference<float>(a, x.data(), y.data(), out.data(), n);
                         }).median_ms;
  std::printf("\nsaxpy<float> on %zu elements (GB/s = 3 x 4 B x n / time):\n", n);
  std::printf("  NVRTC: %.3f ms, %.0f GB/s;  nvcc: %.3f ms, %.0f GB/s;  ratio %.3f\n", nvrtc_ms,
              course::gigabytes_per_second(bytes, nvrtc_ms), nvcc_ms,
              course::gigabytes_per_second(bytes, nvcc_ms), nvrtc_ms / nvcc_ms);
}

// Runs a pipeline function on the pipeline's buffers and judges its output; times it
// when right (0 otherwise).
template <typename Run>
double demo_pipeline_run(course::StudentFunction& function, const std::string& what,
                         Pipeline& pipeline, const std::vector<float>& expected, Run run) {
  course::poison(pipeline.host_out, expected.size());
  run();
  const course::Judgement result = function.judge(
      course::compare(pipeline.host_out, expected.data(), expected.size(), course::kExact), what);
  return result.right ? course::time_host(run, 1, kDemoRepetitions).median_ms : 0.0;
}

void demo_streams(DemoFunctions& functions, const SaxpyModule& loaded) {
  const std::size_t n = kDemoPipelineElements;
  const std::size_t chunk = n / kDemoChunks;
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  Pipeline pipeline = allocate_pipeline(n, kDemoStreams);
  const bool pinned = course::is_pinned_host(pipeline.host_x) &&
                      course::is_pinned_host(pipeline.host_y) &&
                      course::is_pinned_host(pipeline.host_out);
  if (!functions.allocate
           .judge_value(pipeline_usable(pipeline, n), pinned, "n = " + std::to_string(n),
                        "the host buffers are not pinned memory")
           .right) {
    if (pipeline_usable(pipeline, 0)) free_pipeline(pipeline);
    return;
  }
  fill_pipeline(pipeline, n, kDemoSeed);
  const std::vector<float> expected =
      nvrtc_streams::saxpy_reference(a, std::vector<float>(pipeline.host_x, pipeline.host_x + n),
                                     std::vector<float>(pipeline.host_y, pipeline.host_y + n));
  const double one_ms =
      demo_pipeline_run(functions.one_stream, "one stream", pipeline, expected,
                        [&] { saxpy_one_stream(loaded.saxpy_float, a, pipeline, n); });
  const double chunked_ms =
      demo_pipeline_run(functions.chunked, "chunked", pipeline, expected,
                        [&] { saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk); });
  // The same chunks from pageable buffers: each asynchronous copy is staged through a
  // pinned buffer of the driver's, and the copies no longer overlap anything.
  std::vector<float> pageable_x(pipeline.host_x, pipeline.host_x + n);
  std::vector<float> pageable_y(pipeline.host_y, pipeline.host_y + n), pageable_out(n);
  Pipeline pageable = pipeline;
  pageable.host_x = pageable_x.data();
  pageable.host_y = pageable_y.data();
  pageable.host_out = pageable_out.data();
  const double pageable_ms =
      functions.chunked.ready()
          ? demo_pipeline_run(functions.chunked, "chunked, pageable", pageable, expected,
                              [&] { saxpy_chunked(loaded.saxpy_float, a, pageable, n, chunk); })
          : 0.0;
  if (functions.one_stream.ready() && functions.chunked.ready()) {
    const PipelineParts parts = time_pipeline_parts(loaded, a, pipeline, n, kDemoRepetitions);
    const double sum = parts.to_device_ms + parts.kernel_ms + parts.to_host_ms;
    const double bound = std::max({parts.to_device_ms, parts.kernel_ms, parts.to_host_ms});
    std::printf("\nPart 4. out = a x + y on %zu floats from pinned memory, %zu chunks over %d "
                "streams:\n",
                n, kDemoChunks, kDemoStreams);
    std::printf("  parts, each alone: x and y in %.3f ms, kernel %.3f ms, out back %.3f ms\n",
                parts.to_device_ms, parts.kernel_ms, parts.to_host_ms);
    std::printf("  one stream:           %8.3f ms  (sum of the parts: %.3f ms)\n", one_ms, sum);
    std::printf("  chunked, %d streams:   %8.3f ms  (the longest part: %.3f ms); %.2fx faster\n",
                kDemoStreams, chunked_ms, bound, one_ms / chunked_ms);
    std::printf("  chunked, pageable:    %8.3f ms  (pageable memory: the copies do not overlap)\n",
                pageable_ms);
  }
  free_pipeline(pipeline);
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const int ordinal = current_ordinal();
  DemoFunctions functions;
  const CUdevice device = demo_context(functions, ordinal);
  SaxpyModule loaded;
  if (demo_compile(functions, device, loaded)) {
    std::printf("\nPart 3. Launched with cuLaunchKernel, compared with the same kernel "
                "compiled by nvcc:\n");
    const course::Judgement on_floats = demo_bit_for_bit<float>(functions, loaded);
    const course::Judgement on_doubles = demo_bit_for_bit<double>(functions, loaded);
    if (on_floats.right && on_doubles.right) {
      demo_speed(loaded);
      demo_streams(functions, loaded);
    }
  }
  unload_saxpy(loaded);
  release_primary_context(device);
  std::printf("\n(`make check-17` grades every case)\n");
  return course::demo_status({&functions.context, &functions.architecture, &functions.compile,
                              &functions.load, &functions.launch, &functions.allocate,
                              &functions.one_stream, &functions.chunked});
}
