// Exercise 07 - the cases the check asks for, computed with the student's launcher and
// the given strided kernel. They report what they found and decide nothing:
// harness/check.cpp judges (and profiles the "gpu" case with Nsight Compute).
#include <cstddef>
#include <vector>

#include "coalescing.hpp"
#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/device_buffer.hpp"
#include "course/program.hpp"
#include "strided.hpp"
#include "workload.hpp"

namespace {

using course::DeviceBuffer;

constexpr int kTimedLaunches = 7;

// The device inputs and output of one shape; out is poisoned by the check's accounting.
struct DeviceProblem {
  DeviceProblem(const std::vector<float>& samples, const std::vector<float>& gains)
      : in(samples), gain(gains), out(samples.size()) {}
  DeviceBuffer<float> in;
  DeviceBuffer<float> gain;
  DeviceBuffer<float> out;
};

// The student's kernel on one shape; returns the output (poison where nothing was written).
void run_student(DeviceProblem& problem, int rows, int cols) {
  launch_scale_rows_coalesced(problem.in.data(), problem.gain.data(), problem.out.data(), rows,
                              cols);
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The timing case: the given strided kernel, the student's kernel and a device-to-device
// copy of the same bytes, each the median of several launches on the same device in the
// same run; plus a sample of the student's output for the check to verify.
void run_timing_case(const std::vector<float>& samples, const std::vector<float>& gains, int rows,
                     int cols, course::check::ResultWriter& results) {
  using coalescing::kWarmupLaunches;
  DeviceProblem problem(samples, gains);
  DeviceBuffer<float> other_out(samples.size());  // the strided kernel's and the copy's output
  const double student_ms =
      course::time_device(
          [&] {
            launch_scale_rows_coalesced(problem.in.data(), problem.gain.data(), problem.out.data(),
                                        rows, cols);
          },
          kWarmupLaunches, kTimedLaunches)
          .median_ms;
  const double strided_ms = course::time_device(
                                [&] {
                                  launch_scale_rows_strided(problem.in.data(), problem.gain.data(),
                                                            other_out.data(), rows, cols);
                                },
                                kWarmupLaunches, kTimedLaunches)
                                .median_ms;
  const double copy_ms =
      course::time_device(
          [&] {
            CUDA_CHECK(cudaMemcpyAsync(other_out.data(), problem.in.data(), problem.in.bytes(),
                                       cudaMemcpyDeviceToDevice));
          },
          kWarmupLaunches, kTimedLaunches)
          .median_ms;
  results.put(coalescing::result::student_ms, student_ms);
  results.put(coalescing::result::strided_ms, strided_ms);
  results.put(coalescing::result::copy_ms, copy_ms);
  const std::vector<float> out = problem.out.download();
  std::vector<float> sample;
  for (std::size_t i = 0; i < out.size(); i += coalescing::kSampleStride) sample.push_back(out[i]);
  results.put(coalescing::result::sample, sample);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace asked = coalescing::request;
  const bool timing = request.is(asked::timing);
  const bool after_empty = request.is(asked::gpu_after_empty);
  const auto p = timing        ? request.as(asked::timing)
                 : after_empty ? request.as(asked::gpu_after_empty)
                               : request.as(asked::gpu);
  if (!p) course::check::unknown_case(request);
  const int rows = p->rows;
  const int cols = p->cols;
  const std::vector<float> samples = coalescing::make_samples(rows, cols, request.seed);
  const std::vector<float> gains = coalescing::make_gains(rows, request.seed);

  if (timing) {
    run_timing_case(samples, gains, rows, cols, results);
    return;
  }
  if (after_empty) {
    // Empty matrices first, with no buffers at all: nothing may be launched or touched.
    launch_scale_rows_coalesced(nullptr, nullptr, nullptr, 0, cols);
    launch_scale_rows_coalesced(nullptr, nullptr, nullptr, rows, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  course::check::GuardedOutput<float> out(samples.size());
  {
    DeviceProblem problem(samples, gains);
    run_student(problem, rows, cols);
    problem.out.download(out.data());
  }
  out.report(results, coalescing::result::out);
}
