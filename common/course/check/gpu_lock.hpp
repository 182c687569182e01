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
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace course::check {

class GpuLock {
 public:
  explicit GpuLock(const std::string& path) {
    if (path.empty()) return;
    gpu_fd_ = open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    gate_fd_ = open((path + ".gate").c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
  }
  ~GpuLock() {
    for (int fd : {gpu_fd_, gate_fd_}) {
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
    explicit Hold(int fd) : fd_(fd) {}
    Hold(Hold&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    Hold& operator=(Hold&&) = delete;
    Hold(const Hold&) = delete;
    ~Hold() { release(); }
    void release() {
      if (fd_ >= 0) flock(fd_, LOCK_UN);
      fd_ = -1;
    }

   private:
    int fd_;
  };

  Hold acquire(bool exclusive) {
    if (gpu_fd_ < 0 || gate_fd_ < 0) return Hold(-1);
    lock(gate_fd_, LOCK_EX);
    lock(gpu_fd_, exclusive ? LOCK_EX : LOCK_SH);
    flock(gate_fd_, LOCK_UN);
    return Hold(gpu_fd_);
  }

 private:
  static void lock(int fd, int operation) {
    while (flock(fd, operation) != 0 && errno == EINTR) {}
  }

  int gpu_fd_ = -1;
  int gate_fd_ = -1;
};

}  // namespace course::check
