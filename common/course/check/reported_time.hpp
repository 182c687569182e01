// Judging a time that the student's own code measured and returned (exercises 04, 05 and
// 06 ask for one): the check cannot know the true time, but it can tell a time that no
// honest measurement gives. Three tests, in this order:
//   - a time is a positive, finite number of milliseconds;
//   - it is at most the whole call, which the check timed around it (more means
//     microseconds, or a total over several calls);
//   - where the runner watched the call (device_accounting.hpp's StudentKernelTimer),
//     no copy and no allocation lies between the first and the last CUDA event the
//     student's code recorded (its timed region holds the work alone), and the time is
//     not far longer than the student's own kernels, which the runner timed with events
//     around each launch (host work inside the region, or a clock read elsewhere);
//   - where the runner timed the same work with CUDA events (its fastest run, before and
//     after the student's call), it is at least a quarter of that: one honest
//     measurement is about as long, and a host clock read right after an asynchronous
//     launch or library call, without waiting, measures microseconds instead.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "course/check/judge.hpp"
#include "course/verify.hpp"

namespace course::check {

// An honest measurement of one run is about as long as the fastest run the runner timed,
// never four times shorter.
inline constexpr SpeedBar kHonestTimeBar{"the time returned over the fastest run the check timed",
                                         BarKind::at_least, 0.25, "about 1 on H100 and H200"};
// An honest measurement of the student's own kernels is theirs plus what separates the
// student's events from the check's: microseconds, or milliseconds when the machine is
// busy and the host thread waits for a core while the GPU idles. Beyond this, the time
// is not the kernels'.
inline constexpr double kLongestHonestMultipleOfMeasured = 3.0;
inline constexpr double kMeasurementSlackMs = 2.0;

struct ReportedTime {
  std::string function;  // the student's function that returned it, e.g. "heavy_on_gpu"
  Message work;          // what it timed, for messages: {"the kernel", "le kernel"}
  Message size;          // the size of that work, for messages ("16777259 elements"); may be empty
  double reported_ms = 0.0;
  double call_ms = 0.0;     // the whole call, timed by the check around it
  double fastest_ms = 0.0;  // the same work timed by the runner with events; 0: not timed
  // The student's own kernels during the call, timed by the check; 0 or less: not timed.
  double measured_ms = 0.0;
  // Copies and allocations (or frees) between the student's own first and last event.
  std::int64_t copies_inside = 0;
  std::int64_t allocations_inside = 0;
};

// The exercise's own words for each mistake: how to time with its function's names.
struct ReportedTimeHints {
  Message not_positive;
  Message longer_than_call;
  Message longer_than_work;
  Message shorter_than_work;
};

// Reads what the runner saw of the student's call (StudentKernelTimer) into `t`: the
// kernels' time and the work inside the student's own timed region. False (the case
// failed) when the program did not report it.
bool read_watched_call(CaseContext& c, const Run& run, ReportedTime& t);

// Fails the case with the matching hint when the time is implausible; true when it is not.
bool expect_plausible_time(CaseContext& c, const ReportedTime& t, const ReportedTimeHints& hints);

}  // namespace course::check
