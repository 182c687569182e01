/* Exercise 08: the C interface of a small CUDA vector library, "veclib".
 *
 * This header is plain C: a C program includes it as it is, C++ and CUDA files see
 * the same declarations inside extern "C" (unmangled names, so that a C linker and
 * Python's ctypes find them as `vec_saxpy`, not as `_Z9vec_saxpyfPKfPfm`).
 * Every function works on host arrays, and reports failure by its return value:
 * the library never prints, never exits, never aborts - the caller decides.
 *
 * Used by:  c_caller.c (C), veclib.py (Python, ctypes), harness/ (the demo and check);
 * build and run:  make 08 && make run-08   (statement: exercises/08_interfacing_c_python/README.md)
 * Do not change this file.
 */
#ifndef VECLIB_H
#define VECLIB_H

#include <stddef.h>

// [slide:extern-c]
#ifdef __cplusplus
extern "C" {
#endif
// [/slide]

/* What every function returns. The values are part of the interface: veclib.py
 * repeats them, so they never change. */
typedef enum {
  VECLIB_SUCCESS = 0,
  VECLIB_ERROR_NULL_POINTER = 1,  /* an array argument is NULL (checked whatever n is) */
  VECLIB_ERROR_INVALID_VALUE = 2, /* an argument is out of its range (see each function) */
  VECLIB_ERROR_OUT_OF_MEMORY = 3, /* a device allocation failed (cudaErrorMemoryAllocation) */
  VECLIB_ERROR_CUDA = 4           /* any other CUDA error */
} veclib_status;

/* y[i] = a * x[i] + y[i] for 0 <= i < n, on the GPU; x and y are host arrays of n
 * floats. n = 0 does nothing and succeeds. n larger than SIZE_MAX / sizeof(float)
 * (its bytes cannot be counted in a size_t) is VECLIB_ERROR_INVALID_VALUE. On any
 * error y is left unchanged and no device memory stays allocated. */
// [slide:saxpy-declaration]
veclib_status vec_saxpy(float a, const float* x, float* y, size_t n);
// [/slide]

/* x[i] = min(max(x[i], lo), hi) for 0 <= i < n, on the GPU, in place; x is a host
 * array of n floats. lo > hi, or lo or hi NaN, is VECLIB_ERROR_INVALID_VALUE; n as in
 * vec_saxpy. On any error x is left unchanged and no device memory stays allocated. */
veclib_status vec_clamp(float* x, size_t n, float lo, float hi);

/* A fixed English text for a status ("out of device memory"); never NULL. */
const char* veclib_status_string(veclib_status status);

/* What went wrong in this thread's last failed call, with the details a status cannot
 * carry (which call, which CUDA error); "" before any failure. The text stays valid
 * until this thread's next call of the library. */
const char* veclib_last_error_message(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VECLIB_H */
