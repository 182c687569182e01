// Sharing one GPU among the checks that run at once (CTest -j, the grader's concurrent
// exercises and submissions).
//
// Most runs may share the GPU: their results do not depend on who else computes. A case
// whose time is judged (a speed gate, a self-reported kernel time) must have the GPU to
// itself. The lock is taken per run of the program, never for a whole check, so that
// the wait is bounded by what runs at the moment:
//
//   - shared runs hold the GPU file in shared mode, timed runs in exclusive mode (flock);
//   - a timed run also holds the "timed" file in shared mode, from its request to its
//     end, and a shared run enters only through that file in exclusive mode: when no
//     timed run waits or runs. A timed run therefore waits at most for the runs already
//     on the GPU when it asked, each bounded by its own time limit, and for the timed
//     runs before it; never for a stream of newcomers (a plain shared/exclusive flock
//     lets readers that overlap one another starve a writer forever);
//   - timed runs that ask while another waits go one after the other before the shared
//     runs come back: the GPU is emptied once for all of them, not once each (emptying
//     it means waiting for the longest run on it while nothing new starts).
//   - a served case whose time is judged starts as a shared run and becomes a timed one
//     when its program starts to measure (protocol.hpp's "alone"): drawing its inputs,
//     uploading them and checking a first result share the GPU; only the measurement,
//     and what follows it in the case, has the GPU alone.
//
// The lock files live where every check of one machine sees them (the grader's folder,
// the build folder); a check killed while holding the lock releases it with its
// descriptors. An empty path means no locking (a student's own machine).
//
// Where a file named like the lock plus ".log" exists (the GPU suite makes one), each
// hold appends a line to it when released: mode, seconds waited, seconds held, when it
// was asked for (seconds since the epoch), and who held it. That is how the suite tells
// how long timed runs kept the GPU alone, and who waited for whom.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

namespace course::check {

// flock, again when a signal interrupts the wait.
inline void flock_retrying(int fd, int operation) {
  while (flock(fd, operation) != 0 && errno == EINTR) {}
}

// How a run uses the GPU: not at all (a case that runs only CPU code takes no lock),
// side by side with others, alone while it measures (its time is judged: a served case
// shares the GPU until its program starts to measure, a whole-program run has it alone
// throughout), or alone throughout (it relies on what its own kernels left on the GPU).
enum class GpuUse { none, shared, timed, alone };

class GpuLock {
 public:
  explicit GpuLock(const std::string& path) {
    if (path.empty()) return;
    gpu_fd_ = open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    timed_fd_ = open((path + ".timed").c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    log_fd_ = open((path + ".log").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);  // only if it exists
  }
  ~GpuLock() {
    for (int fd : {gpu_fd_, timed_fd_, log_fd_}) {
      if (fd >= 0) close(fd);
    }
  }
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  // True when the lock files could not be opened (the check says so and stops).
  bool failed(const std::string& path) const {
    return !path.empty() && (gpu_fd_ < 0 || timed_fd_ < 0);
  }

  // Held while it lives; released when destroyed.
  class Hold {
   public:
    Hold() = default;
    Hold(Hold&& other) noexcept
        : gpu_fd_(std::exchange(other.gpu_fd_, -1)),
          timed_fd_(std::exchange(other.timed_fd_, -1)),
          log_fd_(other.log_fd_),
          exclusive_(other.exclusive_),
          asked_(other.asked_),
          asked_at_(other.asked_at_),
          granted_(other.granted_),
          holder_(std::move(other.holder_)) {}
    Hold& operator=(Hold&&) = delete;
    Hold(const Hold&) = delete;
    ~Hold() { release(); }
    void release() {
      if (gpu_fd_ < 0) return;
      flock(gpu_fd_, LOCK_UN);
      if (exclusive_) flock(timed_fd_, LOCK_UN);
      gpu_fd_ = timed_fd_ = -1;
      if (log_fd_ >= 0) log(Clock::now());
    }

    // A shared hold becomes a timed one: the run's preparation shared the GPU, its
    // measurement has it alone. It waits as a timed run asking now would (for the runs on
    // the GPU, never for newcomers); the log gets the shared part and the timed part as
    // two holds. Converting a flock lets go of the shared lock first, so two holds going
    // alone at once do not wait for each other.
    void go_alone() {
      if (gpu_fd_ < 0 || exclusive_) return;
      const Clock::time_point asked = Clock::now();
      if (log_fd_ >= 0) log(asked);
      asked_ = asked;
      asked_at_ = std::chrono::system_clock::now();
      flock_retrying(timed_fd_, LOCK_SH);
      flock_retrying(gpu_fd_, LOCK_EX);
      granted_ = Clock::now();
      exclusive_ = true;
    }

   private:
    friend class GpuLock;
    using Clock = std::chrono::steady_clock;

    void log(Clock::time_point released) const {
      const auto seconds = [](Clock::time_point from, Clock::time_point to) {
        return std::chrono::duration<double>(to - from).count();
      };
      char line[1024];
      const int length = std::snprintf(
          line, sizeof line, "%s\t%.3f\t%.3f\t%.3f\t%s\n", exclusive_ ? "alone" : "shared",
          seconds(asked_, granted_), seconds(granted_, released),
          std::chrono::duration<double>(asked_at_.time_since_epoch()).count(), holder_.c_str());
      // One short write with O_APPEND: lines of concurrent holders never interleave.
      if (length > 0) {
        [[maybe_unused]] const ssize_t written =
            write(log_fd_, line, std::min<std::size_t>(length, sizeof line - 1));
      }
    }

    int gpu_fd_ = -1;
    int timed_fd_ = -1;  // held (shared) while the hold is exclusive
    int log_fd_ = -1;
    bool exclusive_ = false;
    Clock::time_point asked_{};
    std::chrono::system_clock::time_point asked_at_{};
    Clock::time_point granted_{};
    std::string holder_;
  };

  // `holder` names the run in the log (the program and the case). GpuUse::timed is held
  // alone from the start: a served case asks for it shared, then calls go_alone().
  Hold acquire(GpuUse use, const std::string& holder);

 private:
  int gpu_fd_ = -1;
  int timed_fd_ = -1;
  int log_fd_ = -1;
};

}  // namespace course::check
