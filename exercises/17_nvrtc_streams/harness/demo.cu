// Exercise 17 - the demo (`make run-17`): first the whole application in the configuration of
// the CUDA Python overview (its SAXPY, 512 x 32768 floats, a = 2), phase by phase, through
// NVRTC and through nvcc, beside the overview's own figures; then the primary context, a
// source with an error and
// the log NVRTC gives for it, SAXPY compiled at run time (its compile time, its CUBIN, its
// lowered names), launched through the driver API on floats and doubles and compared bit
// for bit with the same kernel compiled by nvcc into this program, their speeds side by
// side; then the copy in, kernel, copy out pipeline on one stream, in chunks over several
// streams, and in chunks from pageable memory, each with its time beside the times of its
// parts. Every result is compared with its reference before it is shown or timed
// (course/demo_results.hpp).
//
// Build and run:  make 17 && make run-17
// The application alone (for a profiler: nsys profile -t cuda -s none --stats=true ...):
//                  make run-17 ARGS=application
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
// The CUDA Python overview's configuration (its NUM_THREADS x NUM_BLOCKS, its a), and its own
// figures (its Table 1: its C++ and its Python program, both compiling SAXPY with NVRTC for
// compute_75; the kernel timed by Nsight Systems, the application by CUDA events; the GPU
// not named). Blocks are of kSaxpyThreadsPerBlock threads here, the same elements.
constexpr std::size_t kOverviewElements = std::size_t{512} * 32768;
constexpr float kOverviewFactor = 2.0f;
constexpr double kOverviewKernelMs = 0.352;
constexpr double kOverviewCppApplicationMs = 1076.0;
constexpr double kOverviewPythonApplicationMs = 1080.0;
// The demo's one argument: run the application alone (for a profiler), not the parts.
constexpr const char* kApplicationArgument = "application";
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

// SAXPY's source compiled by the student's compile_to_cubin, both name expressions.
Compilation compile_saxpy(CUdevice device) {
  return compile_to_cubin(kSaxpySource, {kSaxpyFloatExpression, kSaxpyDoubleExpression}, device);
}

// Whether SAXPY's compilation can be loaded: it succeeded, gave an ELF image (a CUBIN, not
// PTX) and a lowered name for each name expression.
course::Judgement judge_saxpy_compilation(DemoFunctions& functions, const Compilation& compiled) {
  const bool is_elf = compiled.cubin.size() > sizeof nvrtc_streams::kElfMagic &&
                      std::memcmp(compiled.cubin.data(), nvrtc_streams::kElfMagic,
                                  sizeof nvrtc_streams::kElfMagic) == 0;
  const bool named = compiled.lowered_names.size() == 2;
  return functions.compile.judge_value(
      compiled.succeeded || !compiled.cubin.empty(), compiled.succeeded && is_elf && named, "SAXPY",
      is_elf ? "no lowered name for each name expression" : "the CUBIN is not an ELF image (PTX?)");
}

course::Judgement judge_saxpy_module(DemoFunctions& functions, const SaxpyModule& loaded) {
  return functions.load.judge_value(loaded.module != nullptr,
                                    loaded.saxpy_float != nullptr && loaded.saxpy_double != nullptr,
                                    "SAXPY", "a kernel was not found");
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
  const Compilation compiled = compile_saxpy(device);
  const double compile_ms = timer.elapsed_ms();
  if (!judge_saxpy_compilation(functions, compiled).right) return false;
  std::printf("\nSAXPY compiled in %.1f ms into a CUBIN of %zu bytes; lowered names:\n", compile_ms,
              compiled.cubin.size());
  std::printf("  %-14s -> %s\n  %-14s -> %s\n", kSaxpyFloatExpression,
              compiled.lowered_names[kFloatKernel].c_str(), kSaxpyDoubleExpression,
              compiled.lowered_names[kDoubleKernel].c_str());
  loaded = load_saxpy(compiled);
  return judge_saxpy_module(functions, loaded).right;
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

// ---- The whole application, as the CUDA Python overview times it ------------------------

// CUDA's one-time costs, every program's whatever compiled its kernels: the driver (the
// banner's first runtime calls), the device's primary context (cudaFree(nullptr)), and the
// process's first allocation and copies, a few bytes each way. Returns the ordinal.
int start_cuda_and_time_it(double& initialisation_ms) {
  const course::WallTimer timer;
  course::print_device_banner();
  const int ordinal = current_ordinal();
  float* first = nullptr;
  float value = 1.0f;
  CUDA_CHECK(cudaMalloc(&first, sizeof value));
  CUDA_CHECK(cudaMemcpy(first, &value, sizeof value, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(&value, first, sizeof value, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(first));
  initialisation_ms = timer.elapsed_ms();
  return ordinal;
}

// One path's phases, each on the wall clock (std::chrono::steady_clock), the kernel also
// between two CUDA events.
struct ApplicationPhases {
  double compile_ms = 0.0;
  double load_ms = 0.0;
  double allocate_ms = 0.0;
  double to_device_ms = 0.0;
  double kernel_wall_ms = 0.0;  // from the launch to the kernel's end, seen by the host
  double kernel_events_ms = 0.0;
  double to_host_ms = 0.0;
  double clean_up_ms = 0.0;
  double total_ms() const {
    return compile_ms + load_ms + allocate_ms + to_device_ms + kernel_wall_ms + to_host_ms +
           clean_up_ms;
  }
};

// The overview's inputs in pageable memory, as its NumPy arrays are, and the result they
// must give; drawn once for both paths and not timed (the overview draws them with NumPy,
// a cost that is neither CUDA's nor the compiler's).
struct OverviewData {
  std::vector<float> x, y, expected;
};

// The phases after the kernel is loaded: three buffers, x and y in, the kernel (`launch`
// enqueues it on the default stream), out back, the buffers freed. Returns the result.
template <typename Launch>
std::vector<float> run_on_device(const OverviewData& data, ApplicationPhases& phases,
                                 Launch launch) {
  const std::size_t n = data.x.size();
  const std::size_t bytes = n * sizeof(float);
  float *x = nullptr, *y = nullptr, *out = nullptr;
  phases.allocate_ms = course::time_once_ms([&] {
    for (float** buffer : {&x, &y, &out}) CUDA_CHECK(cudaMalloc(buffer, bytes));
  });
  // Not timed: the poison, so that an element the kernel never wrote shows as such.
  CU_CHECK(cuMemsetD32(address(out), course::kPoisonWord, n));
  std::vector<float> got(n);
  phases.to_device_ms = course::time_once_ms([&] {
    CUDA_CHECK(cudaMemcpy(x, data.x.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(y, data.y.data(), bytes, cudaMemcpyHostToDevice));
  });
  course::EventTimer events;
  phases.kernel_wall_ms = course::time_once_ms([&] {
    events.start();
    launch(x, y, out);
    events.stop();
    CUDA_CHECK(cudaDeviceSynchronize());
  });
  phases.kernel_events_ms = events.elapsed_ms();
  phases.to_host_ms = course::time_once_ms(
      [&] { CUDA_CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost)); });
  phases.clean_up_ms = course::time_once_ms([&] {
    for (float* buffer : {x, y, out}) CUDA_CHECK(cudaFree(buffer));
  });
  return got;
}

// The NVRTC path, the overview's program: compile (the process's first NVRTC compilation),
// load the module, then the device phases with launch_saxpy, then unload. Judges compile,
// load and launch; the phases are right only when all three are.
course::Judgement run_nvrtc_application(DemoFunctions& functions, CUdevice device,
                                        const OverviewData& data, ApplicationPhases& phases) {
  Compilation compiled;
  phases.compile_ms = course::time_once_ms([&] { compiled = compile_saxpy(device); });
  const course::Judgement compiled_right = judge_saxpy_compilation(functions, compiled);
  if (!compiled_right.right) return compiled_right;
  SaxpyModule loaded;
  phases.load_ms = course::time_once_ms([&] { loaded = load_saxpy(compiled); });
  const course::Judgement loaded_right = judge_saxpy_module(functions, loaded);
  if (!loaded_right.right) return loaded_right;
  const std::vector<float> got = run_on_device(data, phases, [&](float* x, float* y, float* out) {
    launch_saxpy<float>(loaded.saxpy_float, kOverviewFactor, address(x), address(y), address(out),
                        data.x.size(), nullptr);
  });
  phases.clean_up_ms += course::time_once_ms([&] { unload_saxpy(loaded); });
  return functions.launch.judge(course::compare(got.data(), data.expected.data(), got.size(),
                                                course::kExact),
                                "the overview's n = " + std::to_string(got.size()));
}

// The nvcc path: compiled before the program ran (compile 0). Under lazy loading (CUDA's
// default since 12.2) the runtime loads the kernel's module at the kernel's first use; here
// that first use is cudaFuncGetAttributes, timed, before the first launch. Returns whether
// its result is right.
bool run_nvcc_application(const OverviewData& data, ApplicationPhases& phases) {
  cudaFuncAttributes attributes{};
  phases.compile_ms = 0.0;
  phases.load_ms =
      course::time_once_ms([&] { CUDA_CHECK(cudaFuncGetAttributes(&attributes, saxpy<float>)); });
  const std::vector<float> got = run_on_device(data, phases, [&](float* x, float* y, float* out) {
    launch_reference<float>(kOverviewFactor, x, y, out, data.x.size());
  });
  return course::compare(got.data(), data.expected.data(), got.size(), course::kExact).ok();
}

// The application table: each phase for both paths, the one-time initialisation, and the
// overview's figures on the rows they stand beside.
void show_application(const ApplicationPhases& nvrtc, const ApplicationPhases& nvcc,
                      double initialisation_ms, const course::Judgement& result) {
  course::Table table(
      "application_time",
      "out = 2 x + y on the overview's 512 x 32768 floats, as a whole program, phase by phase",
      {course::Column::text("phase", "phase", 44),
       course::Column::number("nvrtc_ms", "NVRTC ms", 9, 3),
       course::Column::number("nvcc_ms", "nvcc ms", 9, 3),
       course::Column::number("overview_cpp_ms", "overview C++", 12, 3),
       course::Column::number("overview_python_ms", "overview Python", 15, 3)},
      2);
  const auto row = [&](const char* phase, double nvrtc_ms, double nvcc_ms,
                       course::Cell overview_cpp = {}, course::Cell overview_python = {}) {
    std::vector<course::Cell> cells{phase, nvrtc_ms, nvcc_ms, overview_cpp, overview_python};
    if (result.right) {
      table.add_row(cells);
    } else {
      table.record_row(cells, result.problem);  // the problem was printed once, above
    }
  };
  if (result.right) {
    std::printf("\nThe whole application, as the CUDA Python overview times it: out = %g x + y "
                "on %zu floats\n(pageable host memory, like its NumPy arrays; each phase on the "
                "wall clock, the kernel also by events):\n",
                static_cast<double>(kOverviewFactor), kOverviewElements);
  }
  row("compile (NVRTC; nvcc: ahead of time)", nvrtc.compile_ms, nvcc.compile_ms);
  row("module load (nvcc: lazy, at first use)", nvrtc.load_ms, nvcc.load_ms);
  row("3 device buffers (cudaMalloc)", nvrtc.allocate_ms, nvcc.allocate_ms);
  row("x and y in (2 x cudaMemcpy)", nvrtc.to_device_ms, nvcc.to_device_ms);
  row("kernel, from launch to end (wall clock)", nvrtc.kernel_wall_ms, nvcc.kernel_wall_ms);
  row("  the kernel alone (CUDA events)", nvrtc.kernel_events_ms, nvcc.kernel_events_ms,
      kOverviewKernelMs, kOverviewKernelMs);
  row("out back (cudaMemcpy)", nvrtc.to_host_ms, nvcc.to_host_ms);
  row("clean-up (cudaFree; NVRTC: cuModuleUnload)", nvrtc.clean_up_ms, nvcc.clean_up_ms);
  row("application (the wall-clock phases)", nvrtc.total_ms(), nvcc.total_ms());
  row("CUDA initialisation (once per process)", initialisation_ms, initialisation_ms);
  row("application + CUDA initialisation", nvrtc.total_ms() + initialisation_ms,
      nvcc.total_ms() + initialisation_ms, kOverviewCppApplicationMs, kOverviewPythonApplicationMs);
  if (!result.right) return;
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;
  CU_CHECK(cuModuleGetLoadingMode(&mode));
  std::printf("  NVRTC's compile is the process's first: it includes loading NVRTC's built-in "
              "headers.\n  nvcc's module load: %s (CUDA_MODULE_LOADING), timed around its first "
              "use, cudaFuncGetAttributes.\n",
              mode == CU_MODULE_LAZY_LOADING ? "lazy" : "eager, so done at initialisation");
  std::printf("  CUDA initialisation: driver, primary context, first allocation and copies.\n"
              "  The overview's columns are its Table 1 (GPU not named; code for compute_75): "
              "its C++ and\n  Python programs, both NVRTC, kernel by Nsight Systems, "
              "application by CUDA events.\n");
}

// The whole application on the overview's data, first through NVRTC, then through nvcc;
// the first thing the demo does after CUDA's initialisation, so that each phase is
// measured as a fresh program meets it (the first NVRTC compilation, nvcc's kernel never
// used yet). Needs no context of the student's: the runtime's primary context is current.
bool demo_application(DemoFunctions& functions, int ordinal, double initialisation_ms) {
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, ordinal));
  OverviewData data;
  data.x = nvrtc_streams::make_x<float>(kOverviewElements, kDemoSeed);
  data.y = nvrtc_streams::make_y<float>(kOverviewElements, kDemoSeed);
  data.expected = nvrtc_streams::saxpy_reference(kOverviewFactor, data.x, data.y);
  ApplicationPhases nvrtc, nvcc;
  const course::Judgement nvrtc_right = run_nvrtc_application(functions, device, data, nvrtc);
  const bool nvcc_right = nvrtc_right.right && run_nvcc_application(data, nvcc);
  course::Judgement result = nvrtc_right;
  if (nvrtc_right.right && !nvcc_right) {
    result = {false, "wrong result: the nvcc build's saxpy<float> (a fault of the course's)"};
    std::printf("%s\n", result.problem.c_str());
  }
  show_application(nvrtc, nvcc, initialisation_ms, result);
  return result.right;
}

}  // namespace

int course::program::demo(int argc, char** argv) {
  const bool application_only = argc == 2 && std::string(argv[1]) == kApplicationArgument;
  if (argc > 1 && !application_only) {
    std::fprintf(stderr, "usage: %s [%s]   (%s: the whole application alone, for a profiler)\n",
                 argv[0], kApplicationArgument, kApplicationArgument);
    return 2;
  }
  double initialisation_ms = 0.0;
  const int ordinal = start_cuda_and_time_it(initialisation_ms);
  DemoFunctions functions;
  const bool application_right = demo_application(functions, ordinal, initialisation_ms);
  if (application_only) {
    return application_right ? EXIT_SUCCESS : EXIT_FAILURE;
  }
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
  if (!application_right) return EXIT_FAILURE;
  return course::demo_status({&functions.context, &functions.architecture, &functions.compile,
                              &functions.load, &functions.launch, &functions.allocate,
                              &functions.one_stream, &functions.chunked});
}
