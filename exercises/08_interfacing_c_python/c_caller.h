/* Exercise 08: the C side of the program - functions written in C, compiled by the
 * C compiler, that call veclib through veclib.h. The course's C++ side (harness/demo.cu,
 * harness/cases.cu) calls them, so every call of the demo and of the check crosses the
 * C interface exactly as a C program would: if veclib's functions were not extern "C",
 * this would not link.
 * Instructor-owned; do not change. */
#ifndef C_CALLER_H
#define C_CALLER_H

#include <stddef.h>

#include "veclib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vec_saxpy and vec_clamp, called from C; return what the library returned. */
veclib_status c_call_saxpy(float a, const float* x, float* y, size_t n);
veclib_status c_call_clamp(float* x, size_t n, float lo, float hi);

/* The demo of a C caller: a small saxpy and clamp, then how a C program handles a
 * failure (status, veclib_status_string, veclib_last_error_message). Prints; returns
 * 0 when everything behaved as documented, 1 otherwise. */
int c_caller_demo(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* C_CALLER_H */
