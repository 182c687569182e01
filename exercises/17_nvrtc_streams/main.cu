// Exercise 17 - the program around the student's functions (instructor-owned).
//
// `make run-17` runs the demo: the primary context, a source with an error and the log
// NVRTC gives for it, SAXPY compiled at run time (its compile time, its CUBIN, its
// lowered names), launched through the driver API on floats and doubles and compared
// bit for bit with the same kernel compiled by nvcc into this program, their speeds
// side by side; then the copy in, kernel, copy out pipeline on one stream, in chunks
// over several streams, and in chunks from pageable memory, each with its time beside
// the times of its parts. Every result is compared with its reference before it is
// shown or timed (course/demo_results.hpp). The check runs this same program with
// --course-case to compute its cases (common/course/check/runner.hpp).
//
// Build and run:  make 17 && make run-17
#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/stream_probes.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "nvrtc_streams.hpp"
#include "workload.hpp"

namespace {

// ---------------------------------------------------------------------------
// Helpers of the runner and the demo
// ---------------------------------------------------------------------------

// The runtime's device, its primary context created first (cudaFree(nullptr)), so that
// the driver is initialised and the runtime's context exists before any driver call.
int current_ordinal() {
  CUDA_CHECK(cudaFree(nullptr));
  int ordinal = 0;
  CUDA_CHECK(cudaGetDevice(&ordinal));
  return ordinal;
}

CUdeviceptr address(const void* device_pointer) {
  return reinterpret_cast<CUdeviceptr>(device_pointer);
}

// saxpy<T> as nvcc compiled it (nvrtc_streams.hpp), on the same grid as launch_saxpy's.
template <typename T>
void launch_reference(T a, const T* x, const T* y, T* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks =
      static_cast<unsigned>((n + kSaxpyThreadsPerBlock - 1) / kSaxpyThreadsPerBlock);
  saxpy<T><<<blocks, kSaxpyThreadsPerBlock>>>(a, x, y, out, n);
  CUDA_CHECK_LAUNCH();
}

// Whether a device address still lies in a live allocation.
bool is_allocated(CUdeviceptr device) {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  return device != 0 && cuMemGetAddressRange(&base, &size, device) == CUDA_SUCCESS;
}

// SAXPY compiled by the student's compile_to_cubin and loaded by load_saxpy; the time
// of the compilation in ms. False (and nothing loaded) when either came out empty.
bool compile_and_load(CUdevice device, SaxpyModule& loaded, double* compile_ms = nullptr) {
  course::WallTimer timer;
  const Compilation compiled =
      compile_to_cubin(kSaxpySource, {kSaxpyFloatExpression, kSaxpyDoubleExpression}, device);
  if (compile_ms != nullptr) *compile_ms = timer.elapsed_ms();
  if (!compiled.succeeded || compiled.cubin.empty() || compiled.lowered_names.size() != 2) {
    return false;
  }
  loaded = load_saxpy(compiled);
  return loaded.module != nullptr && loaded.saxpy_float != nullptr &&
         loaded.saxpy_double != nullptr;
}

// Fills a pipeline's host inputs from the seed and poisons both outputs.
void fill_pipeline(Pipeline& pipeline, std::size_t n, std::uint64_t seed) {
  const std::vector<float> x = nvrtc_streams::make_x<float>(n, seed);
  const std::vector<float> y = nvrtc_streams::make_y<float>(n, seed);
  std::copy(x.begin(), x.end(), pipeline.host_x);
  std::copy(y.begin(), y.end(), pipeline.host_y);
  course::poison(pipeline.host_out, pipeline.capacity);
  CU_CHECK(cuMemsetD32(pipeline.device_out, course::kPoisonWord, pipeline.capacity));
  CU_CHECK(cuCtxSynchronize());
}

bool pipeline_usable(const Pipeline& pipeline, std::size_t n) {
  return pipeline.host_x != nullptr && pipeline.host_y != nullptr && pipeline.host_out != nullptr &&
         pipeline.device_x != 0 && pipeline.device_y != 0 && pipeline.device_out != 0 &&
         !pipeline.streams.empty() && pipeline.capacity >= n;
}

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------

// What use_primary_context does when no context is current: whether it made the
// device's primary context current, and which device it returned. The primary context
// is current again afterwards, whatever the code did.
struct ContextOutcome {
  CUdevice device = 0;  // what use_primary_context returned
  bool current_is_primary = false;
  bool current_is_none = false;
  bool device_is_ordinal = false;
};

ContextOutcome probe_use_primary_context(int ordinal) {
  CUdevice expected_device = 0;
  CU_CHECK(cuDeviceGet(&expected_device, ordinal));
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, expected_device));
  CU_CHECK(cuCtxSetCurrent(nullptr));
  ContextOutcome outcome;
  outcome.device = use_primary_context(ordinal);
  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  outcome.current_is_primary = current == primary;
  outcome.current_is_none = current == nullptr;
  outcome.device_is_ordinal = outcome.device == expected_device;
  CU_CHECK(cuCtxSetCurrent(primary));
  CU_CHECK(cuDevicePrimaryCtxRelease(expected_device));
  return outcome;
}

void run_context_case(course::check::ResultWriter& results) {
  const ContextOutcome outcome = probe_use_primary_context(current_ordinal());
  results.put_value("current_is_primary", static_cast<std::int64_t>(outcome.current_is_primary));
  results.put_value("current_is_none", static_cast<std::int64_t>(outcome.current_is_none));
  results.put_value("device_is_ordinal", static_cast<std::int64_t>(outcome.device_is_ordinal));
  release_primary_context(outcome.device);
}

// What an architecture option does, whatever its spelling: a one-line kernel compiled by
// NVRTC with it, whether that gave a CUBIN, whether the CUBIN loads into the current
// context, and the architecture it holds (CU_FUNC_ATTRIBUTE_BINARY_VERSION, 10 * major +
// minor). -arch=sm_90 and --gpu-architecture=sm_90 do the same; compute_90 gives no CUBIN.
struct ArchitectureProbe {
  bool compiled = false;
  std::string log;
  std::size_t cubin_bytes = 0;
  bool loaded = false;
  std::string load_error;
  int binary_version = 0;
};

ArchitectureProbe probe_architecture_option(const std::string& option) {
  constexpr const char* kProbeSource = "extern \"C\" __global__ void probe(int* out) { *out = 1; }";
  ArchitectureProbe probe;
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, kProbeSource, "probe.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS) {
    probe.log = "nvrtcCreateProgram failed";
    return probe;
  }
  const char* options[] = {option.c_str(), "-default-device"};
  probe.compiled = nvrtcCompileProgram(program, 2, options) == NVRTC_SUCCESS;
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 0) {
    std::string log(log_size, '\0');
    if (nvrtcGetProgramLog(program, log.data()) == NVRTC_SUCCESS) probe.log = log.c_str();
  }
  std::vector<char> cubin;
  if (probe.compiled && nvrtcGetCUBINSize(program, &probe.cubin_bytes) == NVRTC_SUCCESS &&
      probe.cubin_bytes > 0) {
    cubin.resize(probe.cubin_bytes);
    if (nvrtcGetCUBIN(program, cubin.data()) != NVRTC_SUCCESS) cubin.clear();
  } else {
    probe.cubin_bytes = 0;
  }
  nvrtcDestroyProgram(&program);
  if (cubin.empty()) return probe;
  CUmodule module = nullptr;
  const CUresult status = cuModuleLoadData(&module, cubin.data());
  if (status != CUDA_SUCCESS) {
    probe.load_error = course::driver_error_text(status);
    return probe;
  }
  CUfunction kernel = nullptr;
  probe.loaded = cuModuleGetFunction(&kernel, module, "probe") == CUDA_SUCCESS &&
                 cuFuncGetAttribute(&probe.binary_version, CU_FUNC_ATTRIBUTE_BINARY_VERSION,
                                    kernel) == CUDA_SUCCESS;
  CU_CHECK(cuModuleUnload(module));
  return probe;
}

void run_architecture_case(course::check::ResultWriter& results) {
  const int ordinal = current_ordinal();
  const CUdevice device = use_primary_context(ordinal);
  const course::DeviceSummary summary = course::query_device(ordinal);
  const std::string option = architecture_option(device);
  results.put_text("option", option);
  results.put_value("cc_major", static_cast<std::int64_t>(summary.cc_major));
  results.put_value("cc_minor", static_cast<std::int64_t>(summary.cc_minor));
  const ArchitectureProbe probe = probe_architecture_option(option);
  results.put_value("compiled", static_cast<std::int64_t>(probe.compiled));
  results.put_text("log", probe.log);
  results.put_value("cubin_bytes", static_cast<std::int64_t>(probe.cubin_bytes));
  results.put_value("loaded", static_cast<std::int64_t>(probe.loaded));
  results.put_text("load_error", probe.load_error);
  results.put_value("binary_version", static_cast<std::int64_t>(probe.binary_version));
  release_primary_context(device);
}

// What the student's code takes and gives back through the driver API, counted by the
// program's --wrap accounting (course/check/driver_accounting.hpp) around its calls
// alone: the primary context retained and released, the module loaded and unloaded.
void run_clean_up_case(course::check::ResultWriter& results) {
  const int ordinal = current_ordinal();  // the runtime's own context first, not counted
  const course::check::DriverCounts before = course::check::driver_counts();
  const CUdevice device = use_primary_context(ordinal);
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  unload_saxpy(loaded);
  release_primary_context(device);
  const course::check::DriverCounts counts = course::check::driver_counts() - before;
  results.put_value("loaded", static_cast<std::int64_t>(ready));
  results.put_value("modules_loaded", static_cast<std::int64_t>(counts.modules_loaded));
  results.put_value("modules_unloaded", static_cast<std::int64_t>(counts.modules_unloaded));
  results.put_value("retained", static_cast<std::int64_t>(counts.primary_retains));
  results.put_value("released", static_cast<std::int64_t>(counts.primary_releases));
}

void put_compilation(course::check::ResultWriter& results, const Compilation& compiled) {
  results.put_value("succeeded", static_cast<std::int64_t>(compiled.succeeded));
  results.put_text("log", compiled.log);
  results.put_value("cubin_bytes", static_cast<std::int64_t>(compiled.cubin.size()));
  const std::size_t head = std::min<std::size_t>(compiled.cubin.size(), 4);
  std::vector<std::int32_t> magic;
  for (std::size_t i = 0; i < head; ++i)
    magic.push_back(static_cast<unsigned char>(compiled.cubin[i]));
  results.put("cubin_head", magic);
  std::string names;
  for (const std::string& name : compiled.lowered_names) names += name + "\n";
  results.put_value("lowered_count", static_cast<std::int64_t>(compiled.lowered_names.size()));
  results.put_text("lowered_names", names);
}

void run_compile_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const CUdevice device = use_primary_context(current_ordinal());
  const bool given_source = request.params.count("source") != 0;
  const std::string source = given_source ? request.param("source") : std::string(kSaxpySource);
  const std::vector<std::string> expressions =
      given_source ? std::vector<std::string>{kSaxpyFloatExpression}
                   : std::vector<std::string>{kSaxpyFloatExpression, kSaxpyDoubleExpression};
  put_compilation(results, compile_to_cubin(source, expressions, device));
  release_primary_context(device);
}

template <typename T>
void run_saxpy(const course::check::CaseRequest& request, course::check::ResultWriter& results,
               const SaxpyModule& loaded) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const T a = static_cast<T>(request.param_double("a"));
  course::DeviceBuffer<T> x(nvrtc_streams::make_x<T>(n, request.seed));
  course::DeviceBuffer<T> y(nvrtc_streams::make_y<T>(n, request.seed));
  course::DeviceBuffer<T> out(n), reference(n);
  const CUfunction kernel = sizeof(T) == sizeof(float) ? loaded.saxpy_float : loaded.saxpy_double;
  launch_saxpy<T>(kernel, a, address(x.data()), address(y.data()), address(out.data()), n, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  launch_reference<T>(a, x.data(), y.data(), reference.data(), n);
  results.put("out", out.download());
  results.put("nvcc_out", reference.download());
}

void run_saxpy_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put_value("loaded", static_cast<std::int64_t>(ready));
  if (ready) {
    if (request.param("type") == "double") {
      run_saxpy<double>(request, results, loaded);
    } else {
      run_saxpy<float>(request, results, loaded);
    }
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

void run_pipeline_case(const course::check::CaseRequest& request,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const std::size_t chunk = static_cast<std::size_t>(request.param_int("chunk"));  // 0: one stream
  const int stream_count = static_cast<int>(request.param_int("streams"));
  const float a = static_cast<float>(request.param_double("a"));
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put_value("loaded", static_cast<std::int64_t>(ready));
  if (ready) {
    Pipeline pipeline = allocate_pipeline(std::max<std::size_t>(n, 1), stream_count);
    const bool usable = pipeline_usable(pipeline, n) &&
                        pipeline.streams.size() == static_cast<std::size_t>(stream_count);
    results.put_value("allocated", static_cast<std::int64_t>(usable));
    const std::int64_t pinned = course::is_pinned_host(pipeline.host_x) +
                                course::is_pinned_host(pipeline.host_y) +
                                course::is_pinned_host(pipeline.host_out);
    results.put_value("pinned_buffers", pinned);
    if (usable) {
      fill_pipeline(pipeline, n, request.seed);
      if (chunk == 0) {
        saxpy_one_stream(loaded.saxpy_float, a, pipeline, n);
      } else {
        saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk);
      }
      // Asked first, before anything else can let the queued work finish.
      results.put_value("busy_streams", course::busy_streams(pipeline.streams));
      results.put("out", std::vector<float>(pipeline.host_out, pipeline.host_out + n));
      CU_CHECK(cuCtxSynchronize());
    }
    const void* hosts[] = {pipeline.host_x, pipeline.host_y, pipeline.host_out};
    const CUdeviceptr devices[] = {pipeline.device_x, pipeline.device_y, pipeline.device_out};
    free_pipeline(pipeline);
    std::int64_t still_allocated = 0;
    for (const void* host : hosts) still_allocated += course::is_pinned_host(host);
    for (const CUdeviceptr device_buffer : devices) still_allocated += is_allocated(device_buffer);
    results.put_value("still_allocated", still_allocated);
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

// The speed cases: rounds of (reference, student), each the median of `repetitions`
// timed runs after a warm-up; the best round of each counts, so that a clock still
// rising or a neighbour's burst cannot decide.
constexpr int kWarmup = 3;
// The outputs of the speed cases are compared at this many elements, spread over them.
constexpr std::size_t kSpeedSampledElements = 1 << 16;

void run_kernel_speed_case(const course::check::CaseRequest& request,
                           course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const int rounds = static_cast<int>(request.param_int("rounds"));
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  double compile_ms = 0.0;
  const bool ready = compile_and_load(device, loaded, &compile_ms);
  results.put_value("loaded", static_cast<std::int64_t>(ready));
  if (ready) {
    course::DeviceBuffer<float> x(nvrtc_streams::make_x<float>(n, request.seed));
    course::DeviceBuffer<float> y(nvrtc_streams::make_y<float>(n, request.seed));
    course::DeviceBuffer<float> out(n), reference(n);
    const auto student = [&] {
      launch_saxpy<float>(loaded.saxpy_float, a, address(x.data()), address(y.data()),
                          address(out.data()), n, nullptr);
    };
    const auto nvcc = [&] { launch_reference<float>(a, x.data(), y.data(), reference.data(), n); };
    student();
    nvcc();
    results.put("out", out.download_spread(kSpeedSampledElements));
    results.put("nvcc_out", reference.download_spread(kSpeedSampledElements));
    double student_ms = 0.0, nvcc_ms = 0.0;
    for (int round = 0; round < rounds; ++round) {
      const double s = course::time_device(student, kWarmup, repetitions).median_ms;
      const double r = course::time_device(nvcc, kWarmup, repetitions).median_ms;
      student_ms = round == 0 ? s : std::min(student_ms, s);
      nvcc_ms = round == 0 ? r : std::min(nvcc_ms, r);
    }
    results.put_value("nvrtc_ms", student_ms);
    results.put_value("nvcc_ms", nvcc_ms);
    results.put_value("compile_ms", compile_ms);
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

// The parts of the one-stream pipeline, each timed alone on the pipeline's first stream
// (the copies by the runner itself, the kernel by launch_saxpy).
struct PipelineParts {
  double to_device_ms = 0.0;  // x and y in
  double kernel_ms = 0.0;
  double to_host_ms = 0.0;  // out back
};

PipelineParts time_pipeline_parts(const SaxpyModule& loaded, float a, Pipeline& pipeline,
                                  std::size_t n, int repetitions) {
  const CUstream stream = pipeline.streams[0];
  const std::size_t bytes = n * sizeof(float);
  const auto copy_in = [&] {
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_x, pipeline.host_x, bytes, stream));
    CU_CHECK(cuMemcpyHtoDAsync(pipeline.device_y, pipeline.host_y, bytes, stream));
  };
  const auto kernel = [&] {
    launch_saxpy<float>(loaded.saxpy_float, a, pipeline.device_x, pipeline.device_y,
                        pipeline.device_out, n, stream);
  };
  const auto copy_out = [&] {
    CU_CHECK(cuMemcpyDtoHAsync(pipeline.host_out, pipeline.device_out, bytes, stream));
  };
  PipelineParts parts;
  parts.to_device_ms = course::time_device(copy_in, 1, repetitions, stream).median_ms;
  parts.kernel_ms = course::time_device(kernel, 1, repetitions, stream).median_ms;
  parts.to_host_ms = course::time_device(copy_out, 1, repetitions, stream).median_ms;
  return parts;
}

void run_overlap_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const std::size_t chunk = static_cast<std::size_t>(request.param_int("chunk"));
  const int stream_count = static_cast<int>(request.param_int("streams"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const int rounds = static_cast<int>(request.param_int("rounds"));
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put_value("loaded", static_cast<std::int64_t>(ready));
  if (ready) {
    Pipeline pipeline = allocate_pipeline(n, stream_count);
    const bool usable = pipeline_usable(pipeline, n);
    results.put_value("allocated", static_cast<std::int64_t>(usable));
    results.put_value("pinned_buffers",
                      static_cast<std::int64_t>(course::is_pinned_host(pipeline.host_x) +
                                                course::is_pinned_host(pipeline.host_y) +
                                                course::is_pinned_host(pipeline.host_out)));
    if (usable) {
      fill_pipeline(pipeline, n, request.seed);
      saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk);
      results.put_value("busy_streams", course::busy_streams(pipeline.streams));
      results.put("out", std::vector<float>(pipeline.host_out, pipeline.host_out + n));
      CU_CHECK(cuCtxSynchronize());
      const auto one_stream = [&] { saxpy_one_stream(loaded.saxpy_float, a, pipeline, n); };
      const auto chunked = [&] { saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk); };
      PipelineParts parts;
      double one_stream_ms = 0.0, chunked_ms = 0.0;
      for (int round = 0; round < rounds; ++round) {
        const PipelineParts p = time_pipeline_parts(loaded, a, pipeline, n, repetitions);
        // The fastest call of each: both are enqueued by this thread, and a call during
        // which it lost its core to another process (a machine busy compiling) would show
        // the scheduler, not the streams.
        const double one = course::time_host(one_stream, 1, repetitions).min_ms;
        const double split = course::time_host(chunked, 1, repetitions).min_ms;
        const bool first = round == 0;
        parts.to_device_ms = first ? p.to_device_ms : std::min(parts.to_device_ms, p.to_device_ms);
        parts.kernel_ms = first ? p.kernel_ms : std::min(parts.kernel_ms, p.kernel_ms);
        parts.to_host_ms = first ? p.to_host_ms : std::min(parts.to_host_ms, p.to_host_ms);
        one_stream_ms = first ? one : std::min(one_stream_ms, one);
        chunked_ms = first ? split : std::min(chunked_ms, split);
      }
      results.put_value("to_device_ms", parts.to_device_ms);
      results.put_value("kernel_ms", parts.kernel_ms);
      results.put_value("to_host_ms", parts.to_host_ms);
      results.put_value("one_stream_ms", one_stream_ms);
      results.put_value("chunked_ms", chunked_ms);
    }
    free_pipeline(pipeline);
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "context") {
    run_context_case(results);
  } else if (kind == "architecture") {
    run_architecture_case(results);
  } else if (kind == "clean_up") {
    run_clean_up_case(results);
  } else if (kind == "compile") {
    run_compile_case(request, results);
  } else if (kind == "saxpy") {
    run_saxpy_case(request, results);
  } else if (kind == "pipeline") {
    run_pipeline_case(request, results);
  } else if (kind == "kernel_speed") {
    run_kernel_speed_case(request, results);
  } else if (kind == "overlap") {
    run_overlap_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

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

int demo() {
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

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
