// Exercise 06: what the student's program and its check must agree on - the course's
// SGEMM problem (course/sgemm_problem.hpp: the shape, the inputs drawn from a seed, the
// float64 reference and its error bound), which exercise 21 grades the same way, and
// the results a case reports.
//
// Used by:  make 06 && make run-06 (the program), make check-06 (the check)
#pragma once

#include <cstdint>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/sgemm_problem.hpp"

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu): one
// problem (sgemm::make_problem), its shape given as sgemm::Shape's fields.
namespace sgemm_cublas::request {
struct Multiply {
  int m = 1, n = 1, k = 1;
  int lda = 1, ldb = 1, ldc = 1;
  float alpha = 1.0f;
  float beta = 0.0f;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("m", m), visit("n", n), visit("k", k), visit("lda", lda), visit("ldb", ldb),
        visit("ldc", ldc), visit("alpha", alpha), visit("beta", beta);
  }
};
// sgemm_on_cpu and sgemm_on_gpu on the problem; gpu_timing also reports the time
// sgemm_on_gpu returned beside the runner's own timing of sgemm_on_device.
inline const course::check::Request<Multiply> cpu{"cpu"};
inline const course::check::Request<Multiply> gpu{"gpu"};
inline const course::check::Request<Multiply> gpu_timing{"gpu_timing"};
}  // namespace sgemm_cublas::request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace sgemm_cublas::result {
// C after sgemm_on_cpu or sgemm_on_gpu, padding included (m * ldc floats).
inline const course::check::Array<float> c{"c"};
// The multiply time sgemm_on_gpu returned, and its whole call timed around it.
inline const course::check::Value<double> sgemm_ms{"sgemm_ms"};
inline const course::check::Value<double> call_ms{"call_ms"};
// The fastest sgemm_on_device the runner timed itself on the same problem.
inline const course::check::Value<double> reference_sgemm_ms{"reference_sgemm_ms"};
// The cuBLAS calls the student's code made during the case (cases.cu counts them).
inline const course::check::Value<std::int64_t> cublas_handles_created{"cublas_handles_created"};
inline const course::check::Value<std::int64_t> cublas_handles_destroyed{
    "cublas_handles_destroyed"};
inline const course::check::Value<std::int64_t> cublas_sgemm_calls{"cublas_sgemm_calls"};
}  // namespace sgemm_cublas::result
