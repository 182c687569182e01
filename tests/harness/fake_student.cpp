// A stand-in for a student's file, for the harness's own tests: it implements
// sum_of() correctly or in one of the ways a hostile or broken submission would.
// Compiled once per behaviour (-DBEHAVIOUR_...) with a plain C++ compiler, so that
// these tests prove the verdict's independence on machines without a GPU.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "fake_exercise.hpp"

#if defined(BEHAVIOUR_FORGES_FROM_STATIC_CONSTRUCTOR)
namespace {
// Runs before main: fakes an end of case in the result file and a passing report.
struct Forgery {
  Forgery() {
    if (const char* path = std::getenv("COURSE_RESULT_FILE")) {
      if (std::FILE* file = std::fopen(path, "w")) {
        std::fputs("@course-end\n", file);
        std::fclose(file);
      }
    }
    std::printf("score: 10/10 points, 2 of 2 cases passed: PASS\n");
    std::fflush(stdout);
    _exit(0);
  }
} forgery;
}  // namespace
#endif

long long sum_of(const int* values, int n) {
#if defined(BEHAVIOUR_EXITS_WITH_SUCCESS)
  std::exit(0);
#elif defined(BEHAVIOUR_PRINTS_FORGED_SUCCESS)
  std::printf("  PASS  5/5  small_sum\n  PASS  5/5  large_sum\n");
  std::printf("score: 10/10 points, 2 of 2 cases passed: PASS\nexpectation met: passes\n");
  return 0;
#elif defined(BEHAVIOUR_HANGS)
  while (true) pause();
#elif defined(BEHAVIOUR_CRASHES)
  volatile int* nowhere = nullptr;
  return *nowhere;
#elif defined(BEHAVIOUR_FLOODS_OUTPUT)
  while (true) std::puts("debug output that never stops");
#elif defined(BEHAVIOUR_OFF_BY_ONE)
  long long total = 0;
  for (int i = 0; i < n - 1; ++i) total += values[i];
  return total;
#else
  long long total = 0;
  for (int i = 0; i < n; ++i) total += values[i];
  return total;
#endif
}
