/* Exercise 08 - a C caller of veclib (instructor-owned).
 *
 * Plain C, compiled by the host C compiler (cc), not by nvcc: it knows veclib only
 * through veclib.h and finds vec_saxpy at link time by its C name. c_caller_demo()
 * shows a C program's side of the contract: check every status, and on a failure
 * print veclib_status_string() and veclib_last_error_message() and carry on.
 *
 * Build and run:  make 08 && make run-08
 * (or alone, see the README:  cc c_program.c c_caller.c veclib.o -lcudart -lstdc++)
 */
#include "c_caller.h"

#include <math.h>
#include <stdio.h>

veclib_status c_call_saxpy(float a, const float* x, float* y, size_t n) {
  return vec_saxpy(a, x, y, n);
}

veclib_status c_call_clamp(float* x, size_t n, float lo, float hi) {
  return vec_clamp(x, n, lo, hi);
}

/* ------------------------------------------------------------------------- */
/* Demo                                                                       */
/* ------------------------------------------------------------------------- */

enum { kDemoElements = 8 };

/* Far more than any GPU holds: 2^40 floats, 4 TiB per array. */
static const size_t kTooManyElements = (size_t)1 << 40;

static void print_array(const char* name, const float* values, size_t n) {
  size_t i;
  printf("  %-6s=", name);
  for (i = 0; i < n; ++i) printf(" %6.2f", values[i]);
  printf("\n");
}

/* Prints a failed call's status and details; returns 1 if it is not `expected`. */
static int report_failure(const char* call, veclib_status status, veclib_status expected) {
  printf("  %-38s -> status %d: %s\n", call, (int)status, veclib_status_string(status));
  if (status != VECLIB_SUCCESS) printf("  %-38s    details: %s\n", "", veclib_last_error_message());
  return status != expected;
}

int c_caller_demo(void) {
  float x[kDemoElements], y[kDemoElements];
  const float a = 2.0f;
  int problems = 0;
  size_t i;
  veclib_status status;

  for (i = 0; i < kDemoElements; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  printf("From C: vec_saxpy(%.1f, x, y, %d), then vec_clamp(y, %d, 3, 10)\n", a, kDemoElements,
         kDemoElements);
  print_array("x", x, kDemoElements);
  /* y is shown only after a call that succeeded: after a failure it says nothing. */
  status = vec_saxpy(a, x, y, kDemoElements);
  problems += report_failure("vec_saxpy", status, VECLIB_SUCCESS);
  if (status == VECLIB_SUCCESS) print_array("y", y, kDemoElements);
  status = vec_clamp(y, kDemoElements, 3.0f, 10.0f);
  problems += report_failure("vec_clamp", status, VECLIB_SUCCESS);
  if (status == VECLIB_SUCCESS) print_array("y", y, kDemoElements);
  for (i = 0; i < kDemoElements; ++i) {
    const float expected = fminf(fmaxf(a * (float)i + 1.0f, 3.0f), 10.0f);
    if (y[i] != expected) ++problems;
  }

  printf("\nFailures come back as statuses; the program goes on:\n");
  problems += report_failure("vec_saxpy(a, NULL, y, 8)", vec_saxpy(a, NULL, y, kDemoElements),
                             VECLIB_ERROR_NULL_POINTER);
  problems += report_failure("vec_clamp(y, 8, 10, 3)", vec_clamp(y, kDemoElements, 10.0f, 3.0f),
                             VECLIB_ERROR_INVALID_VALUE);
  problems += report_failure("vec_saxpy(a, x, y, 2^40)", vec_saxpy(a, x, y, kTooManyElements),
                             VECLIB_ERROR_OUT_OF_MEMORY);
  problems += report_failure("vec_saxpy(a, x, y, 8) after them", vec_saxpy(a, x, y, kDemoElements),
                             VECLIB_SUCCESS);
  printf("%s\n", problems == 0 ? "The library behaved as veclib.h documents."
                               : "Some calls did not behave as veclib.h documents.");
  return problems == 0 ? 0 : 1;
}
