// The GPU lock (course/check/gpu_lock.hpp) is fair: a timed run waits for the runs
// already on the GPU, never for a stream of newcomers.
//
// Four processes share the GPU in turns that overlap (each holds it 100 ms, takes it
// again at once, and they start 25 ms apart), so that at every moment one of them holds
// it. A fifth asks for it alone half a second in. With the course's lock it gets it
// within about one turn; with a plain shared/exclusive flock (the same files, no gate)
// it would wait until the sharers stop, which this test also shows, so that it cannot
// pass vacuously.
//
// It also proves that a run which needs no GPU never waits for the lock, and that each
// hold is written to the lock's log when one exists.
//
//   unit_gpu_lock                         the test
//   unit_gpu_lock --exclusive-wait FILE   waits for FILE's lock alone, prints the ms waited
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "course/check/gpu_lock.hpp"

namespace {

using course::check::GpuUse;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int kSharers = 4;
constexpr milliseconds kTurn{100};
constexpr milliseconds kSharingFor{3000};
constexpr milliseconds kExclusiveAfter{500};

int failures = 0;

void expect(bool condition, const std::string& what) {
  std::printf("%s %s\n", condition ? "ok  " : "FAIL", what.c_str());
  if (!condition) ++failures;
}

// A lock without the gate: what the course's lock must not be.
struct PlainLock {
  int fd;
  explicit PlainLock(const std::string& path) : fd(open(path.c_str(), O_RDONLY | O_CREAT, 0666)) {}
  void acquire(bool exclusive) { flock(fd, exclusive ? LOCK_EX : LOCK_SH); }
  void release() { flock(fd, LOCK_UN); }
};

// Starts the sharers; each takes the lock in turns until kSharingFor has passed.
std::vector<pid_t> start_sharers(const std::string& path, bool plain) {
  std::vector<pid_t> sharers;
  for (int i = 0; i < kSharers; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      std::this_thread::sleep_for(kTurn / kSharers * i);
      const auto stop = Clock::now() + kSharingFor;
      course::check::GpuLock lock(path);
      PlainLock plain_lock(path);
      while (Clock::now() < stop) {
        if (plain) {
          plain_lock.acquire(false);
          std::this_thread::sleep_for(kTurn);
          plain_lock.release();
        } else {
          course::check::GpuLock::Hold hold = lock.acquire(GpuUse::shared, "sharer");
          std::this_thread::sleep_for(kTurn);
        }
      }
      _exit(0);
    }
    sharers.push_back(pid);
  }
  return sharers;
}

// How long a run that needs no GPU waits while another holds the GPU alone, in ms.
long long cpu_only_wait_ms(const std::string& path) {
  const pid_t holder = fork();
  if (holder == 0) {
    course::check::GpuLock lock(path);
    course::check::GpuLock::Hold hold = lock.acquire(GpuUse::alone, "timed");
    std::this_thread::sleep_for(kSharingFor);
    _exit(0);
  }
  std::this_thread::sleep_for(kExclusiveAfter);
  course::check::GpuLock lock(path);
  const auto asked = Clock::now();
  { course::check::GpuLock::Hold hold = lock.acquire(GpuUse::none, "cpu only"); }
  const long long waited = std::chrono::duration_cast<milliseconds>(Clock::now() - asked).count();
  waitpid(holder, nullptr, 0);
  return waited;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// How long the exclusive request waited, in milliseconds.
long long exclusive_wait_ms(const std::string& path, bool plain) {
  const std::vector<pid_t> sharers = start_sharers(path, plain);
  std::this_thread::sleep_for(kExclusiveAfter);
  const auto asked = Clock::now();
  long long waited = 0;
  if (plain) {
    PlainLock lock(path);
    lock.acquire(true);
    waited = std::chrono::duration_cast<milliseconds>(Clock::now() - asked).count();
    lock.release();
  } else {
    course::check::GpuLock lock(path);
    course::check::GpuLock::Hold hold = lock.acquire(GpuUse::alone, "timed");
    waited = std::chrono::duration_cast<milliseconds>(Clock::now() - asked).count();
  }
  for (const pid_t pid : sharers) waitpid(pid, nullptr, 0);
  return waited;
}

}  // namespace

int main(int argc, char** argv) {
  // Used by tests/harness/process_end_test.sh: waits for the lock alone and prints how long.
  if (argc == 3 && std::string(argv[1]) == "--exclusive-wait") {
    course::check::GpuLock lock(argv[2]);
    const auto asked = Clock::now();
    course::check::GpuLock::Hold hold = lock.acquire(GpuUse::alone, "exclusive-wait");
    std::printf("%lld\n",
                static_cast<long long>(
                    std::chrono::duration_cast<milliseconds>(Clock::now() - asked).count()));
    return 0;
  }
  char folder_template[] = "/tmp/course-gpu-lock-test-XXXXXX";
  const char* folder = mkdtemp(folder_template);
  if (folder == nullptr) {
    std::perror("mkdtemp");
    return 2;
  }
  const std::string fair_path = std::string(folder) + "/fair.lock";
  const std::string plain_path = std::string(folder) + "/plain.lock";
  const std::string fair_log = fair_path + ".log";
  std::ofstream(fair_log).flush();  // its existence turns the log on

  const long long fair_ms = exclusive_wait_ms(fair_path, false);
  expect(fair_ms <= 2 * kTurn.count(),
         "a timed run waits for the runs already on the GPU only: " + std::to_string(fair_ms) +
             " ms (at most " + std::to_string(2 * kTurn.count()) + ")");

  const long long plain_ms = exclusive_wait_ms(plain_path, true);
  expect(plain_ms >= (kSharingFor - kExclusiveAfter).count() / 2,
         "without the gate, overlapping sharers starve it: " + std::to_string(plain_ms) + " ms");

  const std::string log = file_text(fair_log);
  expect(log.find("alone\t") != std::string::npos && log.find("\ttimed\n") != std::string::npos,
         "the timed hold is in the lock's log");
  expect(log.find("shared\t") != std::string::npos && log.find("\tsharer\n") != std::string::npos,
         "the shared holds are in the lock's log");
  expect(file_text(plain_path + ".log").empty() && access((plain_path + ".log").c_str(), F_OK) != 0,
         "no log where none was made");

  const long long cpu_only_ms = cpu_only_wait_ms(fair_path);
  expect(cpu_only_ms < kTurn.count(), "a run that needs no GPU does not wait for a timed one: " +
                                          std::to_string(cpu_only_ms) + " ms");
  expect(file_text(fair_log).find("cpu only") == std::string::npos,
         "a run that needs no GPU holds nothing");

  // No lock file: no locking at all.
  course::check::GpuLock none("");
  course::check::GpuLock::Hold hold = none.acquire(GpuUse::alone, "timed");
  expect(!none.failed(""), "an empty path means no lock");

  for (const std::string& path : {fair_path, plain_path}) {
    for (const char* suffix : {"", ".gate", ".log"}) std::remove((path + suffix).c_str());
  }
  rmdir(folder);
  return failures == 0 ? 0 : 1;
}
