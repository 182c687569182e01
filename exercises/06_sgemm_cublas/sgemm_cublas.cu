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
  //   Row-major storage (CblasRowMajor), neither matrix transposed (CblasNoTrans
  //   twice), then the arguments in the order this function received them.
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
  //   Read as column-major, our row-major C is C^T (n x m, leading dimension ldc), and
  //   likewise A is A^T and B is B^T. Since C = A B is the same as C^T = B^T A^T, ask
  //   cuBLAS for the column-major product B^T A^T: no transposes (CUBLAS_OP_N twice),
  //   the sizes n, m, k, then B with ldb first, A with lda second, and C with ldc.
  //   alpha and beta are passed by address. a, b and c are device pointers with the
  //   same leading dimensions as on the host. Wrap the call in CUBLAS_CHECK(...).
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
  //   1. Create a cuBLAS handle with cublasCreate(&handle).
  //   2. Allocate device buffers as large as the host matrices, padding included:
  //      m * lda floats for A, k * ldb for B, m * ldc for C.
  //   3. Copy A, B and C to the device as they are, with one cudaMemcpy each. The
  //      padding travels too, so the leading dimensions stay the same on the device.
  //      C must go in too, because beta C is part of the result. (cudaMemcpy2D can copy
  //      only the used columns, if you prefer.)
  //   4. Time sgemm_on_device with a course::EventTimer (timers.hpp): start(), the call,
  //      stop(), then sgemm_ms = elapsed_ms().
  //   5. Copy C back into c. Free the three buffers and destroy the handle
  //      (cublasDestroy).
  // Wrap every CUDA call in CUDA_CHECK(...) and every cuBLAS call in CUBLAS_CHECK(...).
  // END TODO(student)
  return sgemm_ms;
}
