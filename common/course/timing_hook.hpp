// The moment a time starts to be measured, for the check that may be listening.
//
// Host code alone (no CUDA): the course's timers (timers.hpp), its timing loops (bench.hpp)
// and a check's served program (check/runner.hpp, which sets the hook) include it.
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
