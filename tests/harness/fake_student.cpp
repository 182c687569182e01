// A stand-in for a student's file, for the harness's own tests: it implements
// sum_of() correctly or in one of the ways a hostile or broken submission would.
// Compiled once per behaviour (-DBEHAVIOUR_...) with a plain C++ compiler, so that
// these tests prove the verdict's independence on machines without a GPU.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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

namespace {
long long correct_sum(const int* values, int n) {
  long long total = 0;
  for (int i = 0; i < n; ++i) total += values[i];
  return total;
}
}  // namespace

// The behaviours below try to escape a confined run (tests/harness/sandbox_test.sh):
// each is bounded, so that even unconfined it cannot harm the machine.
long long sum_of(const int* values, int n) {
#if defined(BEHAVIOUR_READS_HIDDEN_FILE)
  // Right only if the secret stays out of reach.
  if (std::FILE* secret = std::fopen(SECRET_FILE, "r")) {
    char text[64] = {0};
    if (std::fgets(text, sizeof text, secret) != nullptr) std::printf("LEAKED %s\n", text);
    std::fclose(secret);
    return correct_sum(values, n) + 1;
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_READS_COURSE_COPY)
  // A copy of the course that nobody listed with --hide, readable by anyone: only the
  // allow-list keeps it out of reach.
  if (std::FILE* solution = std::fopen(COURSE_COPY_FILE, "r")) {
    char text[64] = {0};
    if (std::fgets(text, sizeof text, solution) != nullptr) std::printf("LEAKED %s\n", text);
    std::fclose(solution);
    return correct_sum(values, n) + 1;
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_WRITES_OUTSIDE)
  if (std::FILE* planted = std::fopen(OUTSIDE_DIR "/PWNED-by-student", "w")) std::fclose(planted);
  if (std::FILE* planted = std::fopen(TMP_PLANT, "w")) std::fclose(planted);
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_FORK_BOMB)
  // Forks until fork() fails (the process limit), at most 5000 times; the children
  // wait to be killed.
  for (int i = 0; i < 5000; ++i) {
    const pid_t child = fork();
    if (child == 0) {
      pause();
      _exit(0);
    }
    if (child < 0) break;
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_LEAVES_A_DAEMON)
  if (fork() == 0) {
    setsid();  // leaves the process group the check kills
    sleep(600);
    _exit(0);
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_HOGS_MEMORY)
  // 4 GiB, touched page by page, 64 MiB at a time.
  std::vector<char*> blocks;
  for (int i = 0; i < 64; ++i) {
    char* block = static_cast<char*>(std::malloc(64u << 20));
    if (block == nullptr) break;
    std::memset(block, 1, 64u << 20);
    blocks.push_back(block);
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_LINKS_RESULT_TO_SECRET)
  // Replaces its own result file by a link to a file only root can read, hoping the
  // check copies that file's text into its report.
  if (const char* path = std::getenv("COURSE_RESULT_FILE")) {
    unlink(path);
    if (symlink(SECRET_FILE, path) != 0) std::perror("symlink");
  }
  return correct_sum(values, n);
#elif defined(BEHAVIOUR_EXITS_WITH_SUCCESS)
  std::exit(0);
#elif defined(BEHAVIOUR_PRINTS_FORGED_SUCCESS)
  std::printf("  PASS  5/5  small_sum\n  PASS  5/5  large_sum\n");
  std::printf("score: 10/10 points, 2 of 2 cases passed: PASS\nexpectation met: passes\n");
  return 0;
#elif defined(BEHAVIOUR_HANGS)
  while (true) pause();
#elif defined(BEHAVIOUR_IGNORES_SIGTERM)
  // A polite stop would not end it: only SIGKILL does.
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  while (true) pause();
#elif defined(BEHAVIOUR_DETACHED_WRITER)
  // A double fork and setsid: the writer leaves the program's process group and session,
  // keeps its output open, and appends to a file every 20 ms for a minute.
  if (const pid_t child = fork(); child == 0) {
    if (fork() == 0) {
      setsid();
      const char* path = std::getenv("COURSE_TEST_WRITER_FILE");
      for (int tick = 0; tick < 3000 && path != nullptr; ++tick) {
        if (std::FILE* file = std::fopen(path, "a")) {
          std::fprintf(file, "tick %d\n", tick);
          std::fclose(file);
        }
        usleep(20000);
      }
      _exit(0);
    }
    _exit(0);
  } else if (child > 0) {
    waitpid(child, nullptr, 0);
  }
  return correct_sum(values, n);
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
  return correct_sum(values, n);
#endif
}
