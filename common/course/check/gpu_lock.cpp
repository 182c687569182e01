// The check harness, taking the machine's GPU lock for one run, shared or alone (declared in
// gpu_lock.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/gpu_lock.hpp"

namespace course::check {

GpuLock::Hold GpuLock::acquire(GpuUse use, const std::string& holder) {
  Hold hold;
  if (use == GpuUse::none || gpu_fd_ < 0 || timed_fd_ < 0) return hold;
  hold.asked_ = Hold::Clock::now();
  hold.asked_at_ = std::chrono::system_clock::now();
  const bool alone = use == GpuUse::alone || use == GpuUse::timed;
  if (alone) {
    flock_retrying(timed_fd_, LOCK_SH);  // from now on, no shared run starts
    flock_retrying(gpu_fd_, LOCK_EX);  // the shared runs on the GPU end, and the timed runs before
  } else {
    flock_retrying(timed_fd_, LOCK_EX);  // no timed run waits or runs...
    flock_retrying(gpu_fd_, LOCK_SH);    // ...so this is granted at once
    flock(timed_fd_, LOCK_UN);
  }
  hold.granted_ = Hold::Clock::now();
  hold.gpu_fd_ = gpu_fd_;
  hold.timed_fd_ = timed_fd_;
  hold.log_fd_ = log_fd_;
  hold.exclusive_ = alone;
  hold.holder_ = holder;
  return hold;
}

}  // namespace course::check
