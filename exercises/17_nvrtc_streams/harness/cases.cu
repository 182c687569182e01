// Exercise 17 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
//
// The one translation unit of the program that includes driver_accounting.hpp: it
// defines the wrappers that the linker's --wrap flags send the driver calls to.
#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/program.hpp"
#include "course/stream_probes.hpp"
#include "course/timers.hpp"
#include "nvrtc_streams.hpp"
#include "program_helpers.cuh"
#include "workload.hpp"

namespace {

namespace asked = nvrtc_streams::request;
namespace result = nvrtc_streams::result;

// The helpers both halves share (program_helpers.cuh), the inputs and the constants.
using namespace nvrtc_streams;

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

void run_context_case(course::check::ResultWriter& results) {
  const ContextOutcome outcome = probe_use_primary_context(current_ordinal());
  results.put(result::current_is_primary, static_cast<std::int64_t>(outcome.current_is_primary));
  results.put(result::current_is_none, static_cast<std::int64_t>(outcome.current_is_none));
  results.put(result::device_is_ordinal, static_cast<std::int64_t>(outcome.device_is_ordinal));
  release_primary_context(outcome.device);
}

void run_architecture_case(course::check::ResultWriter& results) {
  const int ordinal = current_ordinal();
  const CUdevice device = use_primary_context(ordinal);
  const course::DeviceSummary summary = course::query_device(ordinal);
  const std::string option = architecture_option(device);
  results.put(result::option, option);
  results.put(result::cc_major, static_cast<std::int64_t>(summary.cc_major));
  results.put(result::cc_minor, static_cast<std::int64_t>(summary.cc_minor));
  const ArchitectureProbe probe = probe_architecture_option(option);
  results.put(result::compiled, static_cast<std::int64_t>(probe.compiled));
  results.put(result::log, probe.log);
  results.put(result::cubin_bytes, static_cast<std::int64_t>(probe.cubin_bytes));
  results.put(result::loaded, static_cast<std::int64_t>(probe.loaded));
  results.put(result::load_error, probe.load_error);
  results.put(result::binary_version, static_cast<std::int64_t>(probe.binary_version));
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
  results.put(result::loaded, static_cast<std::int64_t>(ready));
  results.put(result::modules_loaded, static_cast<std::int64_t>(counts.modules_loaded));
  results.put(result::modules_unloaded, static_cast<std::int64_t>(counts.modules_unloaded));
  results.put(result::retained, static_cast<std::int64_t>(counts.primary_retains));
  results.put(result::released, static_cast<std::int64_t>(counts.primary_releases));
}

void put_compilation(course::check::ResultWriter& results, const Compilation& compiled) {
  results.put(result::succeeded, static_cast<std::int64_t>(compiled.succeeded));
  results.put(result::log, compiled.log);
  results.put(result::cubin_bytes, static_cast<std::int64_t>(compiled.cubin.size()));
  const std::size_t head = std::min<std::size_t>(compiled.cubin.size(), 4);
  results.put(result::cubin_head,
              std::string(compiled.cubin.begin(), compiled.cubin.begin() + head));
  std::string names;
  for (const std::string& name : compiled.lowered_names) names += name + "\n";
  results.put(result::lowered_count, static_cast<std::int64_t>(compiled.lowered_names.size()));
  results.put(result::lowered_names, names);
}

void run_compile_case(const asked::Compile& p, course::check::ResultWriter& results) {
  const CUdevice device = use_primary_context(current_ordinal());
  const bool given_source = !p.source.empty();
  const std::string source = given_source ? p.source : std::string(kSaxpySource);
  const std::vector<std::string> expressions =
      given_source ? std::vector<std::string>{kSaxpyFloatExpression}
                   : std::vector<std::string>{kSaxpyFloatExpression, kSaxpyDoubleExpression};
  put_compilation(results, compile_to_cubin(source, expressions, device));
  release_primary_context(device);
}

template <typename T>
void run_saxpy(const asked::Saxpy& p, std::uint64_t seed, course::check::ResultWriter& results,
               const SaxpyModule& loaded) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const T a = static_cast<T>(p.a);
  course::DeviceBuffer<T> x(nvrtc_streams::make_x<T>(n, seed));
  course::DeviceBuffer<T> y(nvrtc_streams::make_y<T>(n, seed));
  course::DeviceBuffer<T> out(n), reference(n);
  const CUfunction kernel = sizeof(T) == sizeof(float) ? loaded.saxpy_float : loaded.saxpy_double;
  launch_saxpy<T>(kernel, a, address(x.data()), address(y.data()), address(out.data()), n, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  launch_reference<T>(a, x.data(), y.data(), reference.data(), n);
  results.put(result::out<T>, out.download());
  results.put(result::nvcc_out<T>, reference.download());
}

void run_saxpy_case(const asked::Saxpy& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put(result::loaded, static_cast<std::int64_t>(ready));
  if (ready) {
    if (p.type == asked::Element::float64) {
      run_saxpy<double>(p, seed, results, loaded);
    } else {
      run_saxpy<float>(p, seed, results, loaded);
    }
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

void run_pipeline_case(const asked::Pipeline& p, std::uint64_t seed,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const std::size_t chunk = static_cast<std::size_t>(p.chunk);  // 0: one stream
  const int stream_count = p.streams;
  const float a = static_cast<float>(p.a);
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put(result::loaded, static_cast<std::int64_t>(ready));
  if (ready) {
    Pipeline pipeline = allocate_pipeline(std::max<std::size_t>(n, 1), stream_count);
    const bool usable = pipeline_usable(pipeline, n) &&
                        pipeline.streams.size() == static_cast<std::size_t>(stream_count);
    results.put(result::allocated, static_cast<std::int64_t>(usable));
    const std::int64_t pinned = course::is_pinned_host(pipeline.host_x) +
                                course::is_pinned_host(pipeline.host_y) +
                                course::is_pinned_host(pipeline.host_out);
    results.put(result::pinned_buffers, pinned);
    if (usable) {
      fill_pipeline(pipeline, n, seed);
      if (chunk == 0) {
        saxpy_one_stream(loaded.saxpy_float, a, pipeline, n);
      } else {
        saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk);
      }
      // Asked first, before anything else can let the queued work finish.
      results.put(result::busy_streams, course::busy_streams(pipeline.streams));
      results.put(result::out<float>, std::vector<float>(pipeline.host_out, pipeline.host_out + n));
      CU_CHECK(cuCtxSynchronize());
    }
    const void* hosts[] = {pipeline.host_x, pipeline.host_y, pipeline.host_out};
    const CUdeviceptr devices[] = {pipeline.device_x, pipeline.device_y, pipeline.device_out};
    free_pipeline(pipeline);
    std::int64_t still_allocated = 0;
    for (const void* host : hosts) still_allocated += course::is_pinned_host(host);
    for (const CUdeviceptr device_buffer : devices) still_allocated += is_allocated(device_buffer);
    results.put(result::still_allocated, still_allocated);
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

void run_kernel_speed_case(const asked::KernelSpeed& p, std::uint64_t seed,
                           course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const int repetitions = p.repetitions;
  const int rounds = p.rounds;
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  double compile_ms = 0.0;
  const bool ready = compile_and_load(device, loaded, &compile_ms);
  results.put(result::loaded, static_cast<std::int64_t>(ready));
  if (ready) {
    course::DeviceBuffer<float> x(nvrtc_streams::make_x<float>(n, seed));
    course::DeviceBuffer<float> y(nvrtc_streams::make_y<float>(n, seed));
    course::DeviceBuffer<float> out(n), reference(n);
    auto student = course::check::student_call({course::check::timed_output(out.data(), n)}, [&] {
      launch_saxpy<float>(loaded.saxpy_float, a, address(x.data()), address(y.data()),
                          address(out.data()), n, nullptr);
    });
    const auto nvcc = [&] { launch_reference<float>(a, x.data(), y.data(), reference.data(), n); };
    student();
    nvcc();
    results.put(result::out<float>, out.download_spread(kSpeedSampledElements));
    results.put(result::nvcc_out<float>, reference.download_spread(kSpeedSampledElements));
    double student_ms = 0.0, nvcc_ms = 0.0;
    for (int round = 0; round < rounds; ++round) {
      const double s = course::time_device(student, kWarmup, repetitions).median_ms;
      const double r = course::time_device(nvcc, kWarmup, repetitions).median_ms;
      student_ms = round == 0 ? s : std::min(student_ms, s);
      nvcc_ms = round == 0 ? r : std::min(nvcc_ms, r);
    }
    results.put(result::nvrtc_ms, student_ms);
    results.put(result::nvcc_ms, nvcc_ms);
    results.put(result::compile_ms, compile_ms);
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

void run_overlap_case(const asked::Overlap& overlap, std::uint64_t seed,
                      course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(overlap.n);
  const std::size_t chunk = static_cast<std::size_t>(overlap.chunk);
  const int stream_count = overlap.streams;
  const int repetitions = overlap.repetitions;
  const int rounds = overlap.rounds;
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  const CUdevice device = use_primary_context(current_ordinal());
  SaxpyModule loaded;
  const bool ready = compile_and_load(device, loaded);
  results.put(result::loaded, static_cast<std::int64_t>(ready));
  if (ready) {
    Pipeline pipeline = allocate_pipeline(n, stream_count);
    const bool usable = pipeline_usable(pipeline, n);
    results.put(result::allocated, static_cast<std::int64_t>(usable));
    results.put(result::pinned_buffers,
                static_cast<std::int64_t>(course::is_pinned_host(pipeline.host_x) +
                                          course::is_pinned_host(pipeline.host_y) +
                                          course::is_pinned_host(pipeline.host_out)));
    if (usable) {
      fill_pipeline(pipeline, n, seed);
      saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk);
      results.put(result::busy_streams, course::busy_streams(pipeline.streams));
      results.put(result::out<float>, std::vector<float>(pipeline.host_out, pipeline.host_out + n));
      CU_CHECK(cuCtxSynchronize());
      // Each pipeline call writes the whole of host_out, with its copies back.
      const std::vector<course::check::TimedOutput> host_out = {
          course::check::timed_output(pipeline.host_out, n)};
      auto one_stream = course::check::student_call(host_out, [&] {
        saxpy_one_stream(loaded.saxpy_float, a, pipeline, n);
      });
      auto chunked = course::check::student_call(host_out, [&] {
        saxpy_chunked(loaded.saxpy_float, a, pipeline, n, chunk);
      });
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
      results.put(result::to_device_ms, parts.to_device_ms);
      results.put(result::kernel_ms, parts.kernel_ms);
      results.put(result::to_host_ms, parts.to_host_ms);
      results.put(result::one_stream_ms, one_stream_ms);
      results.put(result::chunked_ms, chunked_ms);
    }
    free_pipeline(pipeline);
  }
  unload_saxpy(loaded);
  release_primary_context(device);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const std::uint64_t seed = request.seed;
  if (request.is(asked::context)) {
    run_context_case(results);
  } else if (request.is(asked::architecture)) {
    run_architecture_case(results);
  } else if (request.is(asked::clean_up)) {
    run_clean_up_case(results);
  } else if (const auto p = request.as(asked::compile)) {
    run_compile_case(*p, results);
  } else if (const auto p = request.as(asked::saxpy)) {
    run_saxpy_case(*p, seed, results);
  } else if (const auto p = request.as(asked::pipeline)) {
    run_pipeline_case(*p, seed, results);
  } else if (const auto p = request.as(asked::kernel_speed)) {
    run_kernel_speed_case(*p, seed, results);
  } else if (const auto p = request.as(asked::overlap)) {
    run_overlap_case(*p, seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
