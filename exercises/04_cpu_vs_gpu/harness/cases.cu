// Exercise 04 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <algorithm>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "cpu_vs_gpu.hpp"
#include "workload.hpp"

namespace {

namespace result = cpu_vs_gpu::result;

// ---------------------------------------------------------------------------
// The check's own timing of the student's kernel
// ---------------------------------------------------------------------------

// Launches before the timed ones: the first launch loads the module (lazy loading)
// and the clocks may still be rising.
constexpr int kReferenceWarmupLaunches = 5;
constexpr int kReferenceTimedLaunches = 10;

// Device copies of one input, on which the runner launches heavy_kernel itself with
// events around each launch. Its fastest launch is a floor that a time the student's
// heavy_on_gpu reports for the same kernel cannot honestly be far below.
class ReferenceTiming {
 public:
  ReferenceTiming(const std::vector<float>& x, int threads_per_block)
      : n_(static_cast<int>(x.size())), threads_per_block_(threads_per_block) {
    const std::size_t bytes = x.size() * sizeof(float);
    CUDA_CHECK(cudaMalloc(&device_x_, bytes));
    CUDA_CHECK(cudaMalloc(&device_y_, bytes));
    CUDA_CHECK(cudaMemcpy(device_x_, x.data(), bytes, cudaMemcpyHostToDevice));
  }
  ~ReferenceTiming() {
    cudaFree(device_x_);
    cudaFree(device_y_);
  }
  ReferenceTiming(const ReferenceTiming&) = delete;
  ReferenceTiming& operator=(const ReferenceTiming&) = delete;

  double fastest_kernel_ms() {
    const int blocks = (n_ + threads_per_block_ - 1) / threads_per_block_;
    const course::TimingStats stats = course::time_device(
        [&] {
          heavy_kernel<<<blocks, threads_per_block_>>>(device_x_, device_y_, n_);
          CUDA_CHECK_LAUNCH();
        },
        kReferenceWarmupLaunches, kReferenceTimedLaunches);
    return stats.min_ms;
  }

 private:
  int n_;
  int threads_per_block_;
  float* device_x_ = nullptr;
  float* device_y_ = nullptr;
};

}  // namespace

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------
void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace asked = cpu_vs_gpu::request;
  if (const auto p = request.as(asked::cpu)) {
    const std::vector<float> x = cpu_vs_gpu::make_input(p->n, request.seed);
    course::check::GuardedOutput<float> y(static_cast<std::size_t>(p->n));
    heavy_on_cpu(x.data(), y.data(), p->n);
    y.report(results, result::y);
    return;
  }

  const bool timing = request.is(asked::gpu_timing);
  const bool after_empty = request.is(asked::gpu_after_empty);
  const auto p = timing        ? request.as(asked::gpu_timing)
                 : after_empty ? request.as(asked::gpu_after_empty)
                               : request.as(asked::gpu);
  if (!p) course::check::unknown_case(request);
  const int n = p->n;
  const int threads_per_block = p->threads_per_block;
  const std::vector<float> x = cpu_vs_gpu::make_input(n, request.seed);
  course::check::GuardedOutput<float> y(static_cast<std::size_t>(n));

  if (timing) {
    // The runner's own measurements come before and after the student's call, so that
    // neither a cold start nor clocks still rising can make the floor too high.
    ReferenceTiming reference(x, threads_per_block);
    const double fastest_before_ms = reference.fastest_kernel_ms();
    // Watched: the student's own launches timed with events, its copies and allocations
    // placed among the events it records (reported_time.hpp).
    double call_ms = 0.0;
    const float kernel_ms = course::check::watch_student_call(results, [&] {
      const course::WallTimer call_timer;
      const float returned = heavy_on_gpu(x.data(), y.data(), n, threads_per_block);
      call_ms = call_timer.elapsed_ms();
      return returned;
    });
    const double fastest_after_ms = reference.fastest_kernel_ms();
    results.put(result::kernel_ms, kernel_ms);
    results.put(result::call_ms, call_ms);
    results.put(result::reference_kernel_ms, std::min(fastest_before_ms, fastest_after_ms));
    y.report(results, result::y);
    return;
  }
  if (after_empty) {
    // An empty call first: it must neither fail nor disturb the call after it.
    const std::vector<float> no_input;
    course::check::GuardedOutput<float> no_output(0);
    heavy_on_gpu(no_input.data(), no_output.data(), 0, threads_per_block);
    no_output.report(results, result::empty_y);
  }
  heavy_on_gpu(x.data(), y.data(), n, threads_per_block);
  y.report(results, result::y);
}
