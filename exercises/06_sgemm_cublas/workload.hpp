// Exercise 06: what the student's program and its check must agree on - the course's
// SGEMM problem (course/sgemm_problem.hpp: the shape, the inputs drawn from a seed, the
// float64 reference and its error bound), which exercise 21 grades the same way.
//
// Used by:  make 06 && make run-06 (the program), make check-06 (the check)
#pragma once

#include "course/sgemm_problem.hpp"
