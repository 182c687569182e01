// Exercise 07: the one translation unit that compiles the given strided kernel
// (scale_rows_strided.cuh); harness/demo.cu and harness/cases.cu call its launcher
// through harness/strided.hpp.
#include "scale_rows_strided.cuh"
#include "strided.hpp"
