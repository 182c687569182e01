// The moment a time starts to be measured, for the check that may be listening.
//
// Host code alone (no CUDA). Called by the wall-clock timer and the timing loops
// (timers.hpp, bench.hpp), and in a check's programs by the wrapper of cudaEventRecord
// (check/device_accounting.hpp: every CUDA event the program records, an EventTimer's
// among them); a check's served program sets the hook (check/runner.hpp).
#pragma once

namespace course {

// Called as a time starts to be measured (a timer starts, a series of timed calls begins).
// In a check's served program it asks the check for the GPU alone the first time in a
// case, and returns once the case has the GPU to itself (course/check/runner.hpp): a timed case
// prepares its inputs side by side with the other checks and measures with the GPU to
// itself. Elsewhere (a demo, a student's own run) there is no hook and nothing happens.
using TimingHook = void (*)();
inline TimingHook& timing_hook() {
  static TimingHook hook = nullptr;
  return hook;
}
inline void timing_begins() {
  if (TimingHook hook = timing_hook()) hook();
}

}  // namespace course
