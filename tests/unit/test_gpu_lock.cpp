// The GPU lock (course/check/gpu_lock.hpp) is fair: a timed run waits for the runs
// already on the GPU, never for a stream of newcomers.
//
// Four processes share the GPU in turns that overlap (each holds it 100 ms, takes it
// again at once, and they start 25 ms apart), so that at every moment one of them holds
// it. A fifth asks for it alone half a second in. With the course's lock it gets it
// within about one turn; with a plain shared/exclusive flock (one file, no "timed" file)
// it would wait until the sharers stop, which this test also shows, so that it cannot
// pass vacuously.
//
// Two timed runs that ask 50 ms apart among the same sharers go one right after the
// other, no sharer between them: the GPU is emptied once for both. Two shared holds that
// go alone at once (a served case that starts to measure) each get the GPU alone, as a
// timed run would, and neither waits for the other's shared part. A run that needs no
// GPU never waits for the lock, and each hold is written to the lock's log when one
// exists.
//
//   unit_gpu_lock                         the test
//   unit_gpu_lock --exclusive-wait FILE   waits for FILE's lock alone, prints the ms waited
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// A lock without the "timed" file: what the course's lock must not be.
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

// A hold as the lock's log tells it, in seconds since the epoch.
struct LoggedHold {
  std::string mode, holder;
  double granted = 0, released = 0;
};

std::vector<LoggedHold> logged_holds(const std::string& text) {
  std::vector<LoggedHold> holds;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    LoggedHold hold;
    double waited = 0, held = 0, asked_at = 0;
    fields >> hold.mode >> waited >> held >> asked_at >> hold.holder;
    hold.granted = asked_at + waited;
    hold.released = hold.granted + held;
    holds.push_back(hold);
  }
  return holds;
}

// Two timed runs asking 50 ms apart among the sharers: true when the second had the GPU
// right after the first, with no sharer granted in between. `note` says what happened.
bool timed_runs_go_together(const std::string& path, std::string& note) {
  const std::string log = path + ".log";
  std::ofstream(log).flush();
  const std::vector<pid_t> sharers = start_sharers(path, false);
  std::vector<pid_t> timed;
  for (const char* name : {"first", "second"}) {
    std::this_thread::sleep_for(timed.empty() ? kExclusiveAfter : kTurn / 2);
    const pid_t pid = fork();
    if (pid == 0) {
      {
        course::check::GpuLock lock(path);
        course::check::GpuLock::Hold hold = lock.acquire(GpuUse::alone, name);
        std::this_thread::sleep_for(kTurn);
      }  // released (and logged) before _exit, which runs no destructor
      _exit(0);
    }
    timed.push_back(pid);
  }
  for (const pid_t pid : timed) waitpid(pid, nullptr, 0);
  for (const pid_t pid : sharers) waitpid(pid, nullptr, 0);
  std::vector<LoggedHold> holds = logged_holds(file_text(log));
  std::vector<LoggedHold> alone;
  std::copy_if(holds.begin(), holds.end(), std::back_inserter(alone),
               [](const LoggedHold& h) { return h.mode == "alone"; });
  if (alone.size() != 2) {
    note = std::to_string(alone.size()) + " timed holds in the log";
    return false;
  }
  std::sort(alone.begin(), alone.end(),
            [](const LoggedHold& a, const LoggedHold& b) { return a.granted < b.granted; });
  int between = 0;
  for (const LoggedHold& h : holds) {
    between += h.mode == "shared" && h.granted > alone[0].granted && h.granted < alone[1].granted;
  }
  const double gap_ms = (alone[1].granted - alone[0].released) * 1e3;
  note = std::to_string(between) + " sharer(s) in between, " + std::to_string(gap_ms) +
         " ms from the first's end to the second's start";
  return between == 0 && gap_ms < kTurn.count() / 2;
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

// A served case whose time is judged: it holds the GPU shared while it prepares, then
// goes alone. Two such holds among the sharers, converting at the same moment: how long
// the slower waited for the GPU alone, in ms (-1 if it had no exclusive hold).
long long going_alone_wait_ms(const std::string& path) {
  const std::vector<pid_t> sharers = start_sharers(path, false);
  std::this_thread::sleep_for(kExclusiveAfter);
  const auto convert = [&](const char* name) {
    course::check::GpuLock lock(path);
    course::check::GpuLock::Hold hold = lock.acquire(GpuUse::shared, name);
    std::this_thread::sleep_for(kTurn / 4);  // its preparation, beside the sharers
    const auto asked = Clock::now();
    hold.go_alone();
    const long long waited = std::chrono::duration_cast<milliseconds>(Clock::now() - asked).count();
    // Alone now: no other process holds the GPU file at all.
    const int probe = open(path.c_str(), O_RDONLY);
    const bool alone = flock(probe, LOCK_SH | LOCK_NB) != 0;
    close(probe);
    std::this_thread::sleep_for(kTurn / 4);  // its measurement
    return alone ? waited : -1;
  };
  const pid_t other = fork();
  if (other == 0) _exit(convert("converting-other") >= 0 ? 0 : 1);
  const long long mine = convert("converting");
  int status = 0;
  waitpid(other, &status, 0);
  for (const pid_t pid : sharers) waitpid(pid, nullptr, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? mine : -1;
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
         "without the timed file, overlapping sharers starve it: " + std::to_string(plain_ms) +
             " ms");

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

  std::ofstream(fair_log).flush();  // emptied: the next holds alone in it
  const long long going_alone_ms = going_alone_wait_ms(fair_path);
  expect(going_alone_ms >= 0 && going_alone_ms <= 3 * kTurn.count(),
         "two shared holds going alone at once each get the GPU alone, after the runs already "
         "on it: " +
             std::to_string(going_alone_ms) + " ms (at most " + std::to_string(3 * kTurn.count()) +
             ")");
  const std::vector<LoggedHold> converted = logged_holds(file_text(fair_log));
  const auto logged_as = [&](const std::string& mode) {
    return std::count_if(converted.begin(), converted.end(), [&](const LoggedHold& h) {
      return h.holder == "converting" && h.mode == mode;
    });
  };
  expect(logged_as("shared") == 1 && logged_as("alone") == 1,
         "a hold that went alone is logged twice, its shared part and its timed part");

  std::string batch_note;
  const bool batched = timed_runs_go_together(std::string(folder) + "/batch.lock", batch_note);
  expect(batched, "timed runs that ask together have the GPU one after the other: " + batch_note);

  // No lock file: no locking at all.
  course::check::GpuLock none("");
  course::check::GpuLock::Hold hold = none.acquire(GpuUse::alone, "timed");
  expect(!none.failed(""), "an empty path means no lock");

  for (const std::string& path : {fair_path, plain_path, std::string(folder) + "/batch.lock"}) {
    for (const char* suffix : {"", ".timed", ".log"}) std::remove((path + suffix).c_str());
  }
  rmdir(folder);
  return failures == 0 ? 0 : 1;
}
