// Exercise 06 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
//
// Their cuBLAS calls are counted here too (handles created and destroyed, multiplies):
// the check asks whether the student's round trip destroys its handle.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "course/bench.hpp"
#include "course/check/runner.hpp"
#include "course/errors_cublas.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "sgemm_cublas.hpp"
#include "workload.hpp"

// ---------------------------------------------------------------------------
// cuBLAS call accounting
// ---------------------------------------------------------------------------
// cuBLAS launches its kernels inside its own library, out of reach of the launch
// counter of device_accounting.hpp, and allocates its workspace there too, so a
// handle never destroyed leaks nothing the course's cudaMalloc wrapper sees. So this
// program defines cublasCreate_v2, cublasDestroy_v2 and cublasSgemm_v2 itself (the
// names cublas_v2.h gives cublasCreate, cublasDestroy and cublasSgemm): a definition in
// the executable takes precedence over the shared library's for every call the
// program makes. Each one counts the call and passes it on to libcublas's own
// function, found with dlsym(RTLD_NEXT, ...).
namespace {

struct CublasCallCounts {
  std::atomic<long long> handles_created{0};
  std::atomic<long long> handles_destroyed{0};
  std::atomic<long long> sgemm_calls{0};
};

// A function-local static: it exists before any static constructor can call cuBLAS.
CublasCallCounts& cublas_call_counts() {
  static CublasCallCounts counts;
  return counts;
}

template <typename Function>
Function libcublas_function(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (symbol == nullptr) {
    std::fprintf(stderr, "cannot find %s in libcublas: %s\n", name, dlerror());
    std::exit(2);
  }
  return reinterpret_cast<Function>(symbol);
}

}  // namespace

extern "C" cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
  using Create = cublasStatus_t (*)(cublasHandle_t*);
  static const Create create = libcublas_function<Create>("cublasCreate_v2");
  const cublasStatus_t status = create(handle);
  if (status == CUBLAS_STATUS_SUCCESS) ++cublas_call_counts().handles_created;
  // A handle allocates device memory (its workspace): inside a timed region, other work.
  course::check::note_student_step(course::check::StudentKernelTimer::Step::allocation);
  return status;
}

extern "C" cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
  using Destroy = cublasStatus_t (*)(cublasHandle_t);
  static const Destroy destroy = libcublas_function<Destroy>("cublasDestroy_v2");
  const cublasStatus_t status = destroy(handle);
  if (status == CUBLAS_STATUS_SUCCESS) ++cublas_call_counts().handles_destroyed;
  return status;
}

extern "C" cublasStatus_t CUBLASWINAPI cublasSgemm_v2(cublasHandle_t handle,
                                                      cublasOperation_t transa,
                                                      cublasOperation_t transb, int m, int n, int k,
                                                      const float* alpha, const float* a, int lda,
                                                      const float* b, int ldb, const float* beta,
                                                      float* c, int ldc) {
  using Sgemm = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const float*, const float*, int, const float*, int,
                                   const float*, float*, int);
  static const Sgemm sgemm = libcublas_function<Sgemm>("cublasSgemm_v2");
  ++cublas_call_counts().sgemm_calls;
  // Timed by the check (events on the handle's stream) while a StudentKernelTimer lives.
  cudaStream_t stream = nullptr;
  if (cublasGetStream(handle, &stream) != CUBLAS_STATUS_SUCCESS) stream = nullptr;
  return course::check::time_student_work(stream, [&] {
    return sgemm(handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  });
}

namespace {

namespace result = sgemm_cublas::result;

// The calls one piece of code made: the counts after it minus the counts before.
struct CublasCalls {
  long long handles_created = 0;
  long long handles_destroyed = 0;
  long long sgemm_calls = 0;
};

CublasCalls cublas_calls_so_far() {
  const CublasCallCounts& counts = cublas_call_counts();
  return {counts.handles_created.load(), counts.handles_destroyed.load(),
          counts.sgemm_calls.load()};
}

void put_cublas_calls(course::check::ResultWriter& results, const CublasCalls& before) {
  const CublasCalls after = cublas_calls_so_far();
  results.put(result::cublas_handles_created, after.handles_created - before.handles_created);
  results.put(result::cublas_handles_destroyed, after.handles_destroyed - before.handles_destroyed);
  results.put(result::cublas_sgemm_calls, after.sgemm_calls - before.sgemm_calls);
}

// ---------------------------------------------------------------------------
// The check's own timing of the student's multiply
// ---------------------------------------------------------------------------

// Calls before the timed ones: the first loads cuBLAS's kernels, and the clocks may
// still be rising.
constexpr int kReferenceWarmupCalls = 3;
constexpr int kReferenceTimedCalls = 10;

// Device copies of one problem and a handle of the runner's own, on which the runner
// calls the student's sgemm_on_device with events around each call. Its fastest call
// is a floor that a time the student's sgemm_on_gpu reports for the same multiply
// cannot honestly be far below.
class ReferenceTiming {
 public:
  explicit ReferenceTiming(const sgemm::Problem& problem) : problem_(problem) {
    CUBLAS_CHECK(cublasCreate(&handle_));
    device_a_ = to_device(problem.a);
    device_b_ = to_device(problem.b);
    device_c_ = to_device(problem.c);
  }
  ~ReferenceTiming() {
    cudaFree(device_a_);
    cudaFree(device_b_);
    cudaFree(device_c_);
    cublasDestroy(handle_);
  }
  ReferenceTiming(const ReferenceTiming&) = delete;
  ReferenceTiming& operator=(const ReferenceTiming&) = delete;

  double fastest_sgemm_ms() {
    const sgemm::Shape& s = problem_.shape;
    const course::TimingStats stats = course::time_device(
        [&] {
          sgemm_on_device(handle_, s.m, s.n, s.k, problem_.alpha, device_a_, s.lda, device_b_,
                          s.ldb, problem_.beta, device_c_, s.ldc);
        },
        kReferenceWarmupCalls, kReferenceTimedCalls);
    return stats.min_ms;
  }

 private:
  static float* to_device(const std::vector<float>& host) {
    float* device = nullptr;
    const std::size_t bytes = host.size() * sizeof(float);
    CUDA_CHECK(cudaMalloc(&device, bytes));
    CUDA_CHECK(cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice));
    return device;
  }

  const sgemm::Problem& problem_;
  cublasHandle_t handle_ = nullptr;
  float* device_a_ = nullptr;
  float* device_b_ = nullptr;
  float* device_c_ = nullptr;
};

}  // namespace

// ---------------------------------------------------------------------------
// Check cases: compute, report, decide nothing.
// ---------------------------------------------------------------------------
void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  namespace asked = sgemm_cublas::request;
  const bool on_cpu = request.is(asked::cpu);
  const bool timing = request.is(asked::gpu_timing);
  const auto p = on_cpu   ? request.as(asked::cpu)
                 : timing ? request.as(asked::gpu_timing)
                          : request.as(asked::gpu);
  if (!p) course::check::unknown_case(request);
  const sgemm::Shape s{p->m, p->n, p->k, p->lda, p->ldb, p->ldc};
  const float alpha = p->alpha;
  const float beta = p->beta;
  const sgemm::Problem problem = sgemm::make_problem(s, alpha, beta, request.seed);
  // C, padding included, followed by a guard zone that no call may write.
  course::check::GuardedOutput<float> c(s.c_elements());
  std::copy(problem.c.begin(), problem.c.end(), c.data());

  if (on_cpu) {
    sgemm_on_cpu(s.m, s.n, s.k, alpha, problem.a.data(), s.lda, problem.b.data(), s.ldb, beta,
                 c.data(), s.ldc);
    c.report(results, result::c);
    return;
  }

  if (timing) {
    // The runner's own measurements come before and after the student's call, so that
    // neither a cold start nor clocks still rising can make the floor too high.
    ReferenceTiming reference(problem);
    const double fastest_before_ms = reference.fastest_sgemm_ms();
    const CublasCalls before = cublas_calls_so_far();
    // Watched: the student's multiply timed with events, its copies, allocations and
    // handle placed among the events it records (reported_time.hpp).
    double call_ms = 0.0;
    const float sgemm_ms = course::check::watch_student_call(results, [&] {
      const course::WallTimer call_timer;
      const float returned = sgemm_on_gpu(s.m, s.n, s.k, alpha, problem.a.data(), s.lda,
                                          problem.b.data(), s.ldb, beta, c.data(), s.ldc);
      call_ms = call_timer.elapsed_ms();
      return returned;
    });
    put_cublas_calls(results, before);
    const double fastest_after_ms = reference.fastest_sgemm_ms();
    results.put(result::sgemm_ms, sgemm_ms);
    results.put(result::call_ms, call_ms);
    results.put(result::reference_sgemm_ms, std::min(fastest_before_ms, fastest_after_ms));
    c.report(results, result::c);
    return;
  }

  const CublasCalls before = cublas_calls_so_far();
  sgemm_on_gpu(s.m, s.n, s.k, alpha, problem.a.data(), s.lda, problem.b.data(), s.ldb, beta,
               c.data(), s.ldc);
  put_cublas_calls(results, before);
  c.report(results, result::c);
}
