// Exercise 06 - SGEMM on both sides: C = alpha A B + beta C in single precision, with
// OpenBLAS on the CPU and cuBLAS on the GPU, for row-major matrices with leading
// dimensions, and the GPU's multiply timed on its own.
//
// Matrix products are where GPUs shine, and nobody writes a fast one by hand for
// production: the vendors' BLAS libraries do it. Calling cuBLAS right means speaking
// its language: it stores matrices column by column (Fortran's column-major order),
// where C and OpenBLAS's CblasRowMajor store them row by row.
//
// Build and run:  make 06 && make run-06
// Check:          make check-06   (statement: exercises/06_sgemm_cublas/README.md)
#include <cblas.h>

#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "course/timers.hpp"
#include "sgemm_cublas.hpp"

// ---------------------------------------------------------------------------
// CPU: OpenBLAS, told that the matrices are row-major
// ---------------------------------------------------------------------------
// [slide:cblas-call]
void sgemm_on_cpu(int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                  int ldb, float beta, float* c, int ldc) {
  // TODO(student): one call of cblas_sgemm.
  // [slide:cblas-sgemm]
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c,
              ldc);
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// GPU: cuBLAS, which reads every matrix column by column
// ---------------------------------------------------------------------------
// [slide:cublas-call]
void sgemm_on_device(cublasHandle_t handle, int m, int n, int k, float alpha, const float* a,
                     int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  // TODO(student): one call of cublasSgemm, with the operands swapped.
  // [slide:cublas-sgemm]
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k,  // C^T = B^T A^T
                           &alpha, b, ldb, a, lda, &beta, c, ldc));
  // [/slide]
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The round trip: handle, device memory, copies, the timed multiply, clean-up
// ---------------------------------------------------------------------------
float sgemm_on_gpu(int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                   int ldb, float beta, float* c, int ldc) {
  float sgemm_ms = 0.0f;
  // TODO(student): the round trip, with the multiply timed, in five steps.
  cublasHandle_t handle = nullptr;
  CUBLAS_CHECK(cublasCreate(&handle));

  const size_t a_bytes = static_cast<size_t>(m) * lda * sizeof(float);
  const size_t b_bytes = static_cast<size_t>(k) * ldb * sizeof(float);
  const size_t c_bytes = static_cast<size_t>(m) * ldc * sizeof(float);
  float* device_a = nullptr;
  float* device_b = nullptr;
  float* device_c = nullptr;
  CUDA_CHECK(cudaMalloc(&device_a, a_bytes));
  CUDA_CHECK(cudaMalloc(&device_b, b_bytes));
  CUDA_CHECK(cudaMalloc(&device_c, c_bytes));
  CUDA_CHECK(cudaMemcpy(device_a, a, a_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(device_b, b, b_bytes, cudaMemcpyHostToDevice));
  // C goes in too: beta C is part of the result.
  CUDA_CHECK(cudaMemcpy(device_c, c, c_bytes, cudaMemcpyHostToDevice));

  // cublasSgemm returns as soon as its kernels are queued: events recorded around it
  // in the same stream (the handle's default stream) time the multiply itself.
  course::EventTimer sgemm_timer;
  sgemm_timer.start();
  sgemm_on_device(handle, m, n, k, alpha, device_a, lda, device_b, ldb, beta, device_c, ldc);
  sgemm_timer.stop();
  sgemm_ms = sgemm_timer.elapsed_ms();

  CUDA_CHECK(cudaMemcpy(c, device_c, c_bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(device_a));
  CUDA_CHECK(cudaFree(device_b));
  CUDA_CHECK(cudaFree(device_c));
  CUBLAS_CHECK(cublasDestroy(handle));
  // END TODO(student)
  return sgemm_ms;
}
