// Exercise 06: the functions the student implements, with their fixed signatures:
// C = alpha A B + beta C in single precision (SGEMM) on the CPU with OpenBLAS and on
// the GPU with cuBLAS, for matrices stored row by row (row-major) with leading
// dimensions. The check calls them exactly as declared here; do not change this file.
//
// Build and run:  make 06 && make run-06   (statement: exercises/06_sgemm_cublas/README.md)
#pragma once

#include <cublas_v2.h>

// Every function below takes the same arguments, in the order of cblas_sgemm:
//   m, n, k    C is m x n, A is m x k, B is k x n (all at least 1);
//   alpha      the factor of the product A B;
//   a, lda     A, row-major: element (i, p) is a[i * lda + p], lda >= k;
//   b, ldb     B, row-major: element (p, j) is b[p * ldb + j], ldb >= n;
//   beta       the factor of the C given on entry (when beta is 0, C is not read);
//   c, ldc     C, row-major: element (i, j) is c[i * ldc + j], ldc >= n.
// The elements between the width and the leading dimension of each row (the padding)
// are neither read nor written.

// On the CPU, with OpenBLAS's cblas_sgemm.
void sgemm_on_cpu(int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                  int ldb, float beta, float* c, int ldc);

// On the GPU, for matrices already on the device, with cublasSgemm and the given
// handle (cuBLAS's default math mode: FP32 arithmetic). Asynchronous, like a kernel
// launch: it returns once the work is queued on the handle's stream.
void sgemm_on_device(cublasHandle_t handle, int m, int n, int k, float alpha, const float* a,
                     int lda, const float* b, int ldb, float beta, float* c, int ldc);

// The round trip for host matrices: creates a cuBLAS handle, allocates A, B and C on
// the device, copies them in, calls sgemm_on_device, copies C back, frees the device
// memory and destroys the handle. Returns the time of sgemm_on_device alone, in
// milliseconds, measured with CUDA events.
float sgemm_on_gpu(int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                   int ldb, float beta, float* c, int ldc);
