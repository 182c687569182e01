// Sharing one GPU among the checks that run at once (CTest -j, the grader's concurrent
// exercises and submissions).
//
// Most runs may share the GPU: their results do not depend on who else computes. A case
// whose time is judged (a speed gate, a self-reported kernel time) must have the GPU to
// itself. The lock is taken per run of the program, never for a whole check, so that
// the wait is bounded by what runs at the moment:
//
//   - shared runs hold the GPU in shared mode, timed runs in exclusive mode (flock);
//   - both first pass through a gate, which a timed run keeps while it waits: runs that
//     arrive after it queue behind it instead of overtaking it. A timed run therefore
//     waits at most for the runs already on the GPU, each bounded by its own time limit,
//     never for a stream of newcomers (a plain shared/exclusive flock lets readers that
//     overlap one another starve a writer forever).
//
// The lock files live where every check of one machine sees them (the grader's folder,
// the build folder); a check killed while holding the lock releases it with its
// descriptors. An empty path means no locking (a student's own machine).
//
// Where a file named like the lock plus ".log" exists (the GPU suite makes one), each
// hold appends a line to it when released: mode, seconds waited, seconds held, and who
// held it. That is how the suite tells how long the GPU was kept by timed runs alone.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>

namespace course::check {

// How a run uses the GPU: not at all (a case that runs only CPU code takes no lock),
// side by side with others, or alone (its time is judged).
enum class GpuUse { none, shared, alone };

class GpuLock {
 public:
  explicit GpuLock(const std::string& path) {
    if (path.empty()) return;
    gpu_fd_ = open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    gate_fd_ = open((path + ".gate").c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    log_fd_ = open((path + ".log").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);  // only if it exists
  }
  ~GpuLock() {
    for (int fd : {gpu_fd_, gate_fd_, log_fd_}) {
      if (fd >= 0) close(fd);
    }
  }
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  // True when the lock files could not be opened (the check says so and stops).
  bool failed(const std::string& path) const {
    return !path.empty() && (gpu_fd_ < 0 || gate_fd_ < 0);
  }

  // Held while it lives; released when destroyed.
  class Hold {
   public:
    Hold() = default;
    Hold(Hold&& other) noexcept
        : fd_(other.fd_),
          log_fd_(other.log_fd_),
          exclusive_(other.exclusive_),
          asked_(other.asked_),
          granted_(other.granted_),
          holder_(std::move(other.holder_)) {
      other.fd_ = -1;
    }
    Hold& operator=(Hold&&) = delete;
    Hold(const Hold&) = delete;
    ~Hold() { release(); }
    void release() {
      if (fd_ < 0) return;
      flock(fd_, LOCK_UN);
      fd_ = -1;
      if (log_fd_ < 0) return;
      const Clock::time_point released = Clock::now();
      char line[1024];
      const int length =
          std::snprintf(line, sizeof line, "%s\t%.3f\t%.3f\t%s\n", exclusive_ ? "alone" : "shared",
                        seconds(asked_, granted_), seconds(granted_, released), holder_.c_str());
      // One short write with O_APPEND: lines of concurrent holders never interleave.
      if (length > 0) {
        [[maybe_unused]] const ssize_t written =
            write(log_fd_, line, std::min<std::size_t>(length, sizeof line - 1));
      }
    }

   private:
    friend class GpuLock;
    using Clock = std::chrono::steady_clock;
    static double seconds(Clock::time_point from, Clock::time_point to) {
      return std::chrono::duration<double>(to - from).count();
    }
    int fd_ = -1;
    int log_fd_ = -1;
    bool exclusive_ = false;
    Clock::time_point asked_{};
    Clock::time_point granted_{};
    std::string holder_;
  };

  // `holder` names the run in the log (the program and the case).
  Hold acquire(GpuUse use, const std::string& holder) {
    Hold hold;
    if (use == GpuUse::none || gpu_fd_ < 0 || gate_fd_ < 0) return hold;
    const bool exclusive = use == GpuUse::alone;
    hold.asked_ = Hold::Clock::now();
    lock(gate_fd_, LOCK_EX);
    lock(gpu_fd_, exclusive ? LOCK_EX : LOCK_SH);
    flock(gate_fd_, LOCK_UN);
    hold.granted_ = Hold::Clock::now();
    hold.fd_ = gpu_fd_;
    hold.log_fd_ = log_fd_;
    hold.exclusive_ = exclusive;
    hold.holder_ = holder;
    return hold;
  }

 private:
  static void lock(int fd, int operation) {
    while (flock(fd, operation) != 0 && errno == EINTR) {}
  }

  int gpu_fd_ = -1;
  int gate_fd_ = -1;
  int log_fd_ = -1;
};

}  // namespace course::check
