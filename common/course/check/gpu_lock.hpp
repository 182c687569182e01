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

// How a run uses the GPU: not at all (a case that runs only CPU code takes no lock),
// side by side with others, or alone (its time is judged).
enum class GpuUse { none, shared, alone };

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
      if (timed_fd_ >= 0) flock(timed_fd_, LOCK_UN);
      gpu_fd_ = timed_fd_ = -1;
      if (log_fd_ >= 0) log(Clock::now());
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
    int timed_fd_ = -1;  // held by a timed run
    int log_fd_ = -1;
    bool exclusive_ = false;
    Clock::time_point asked_{};
    std::chrono::system_clock::time_point asked_at_{};
    Clock::time_point granted_{};
    std::string holder_;
  };

  // `holder` names the run in the log (the program and the case).
  Hold acquire(GpuUse use, const std::string& holder);

 private:
  static void lock(int fd, int operation) {
    while (flock(fd, operation) != 0 && errno == EINTR) {}
  }

  int gpu_fd_ = -1;
  int timed_fd_ = -1;
  int log_fd_ = -1;
};

}  // namespace course::check
