// The judge side of a check that reads hardware counters: finds Nsight Compute (ncu),
// builds the command that profiles one kernel of the program under test, and reads
// the metric values out of ncu's CSV output. Compiled into checks only (no student
// code); the check runs ncu itself, so the counters never come from the student's
// process. A case graded by counters where they can be read, and by another measurement
// elsewhere (a time ratio), is written with the two functions at the end of this file:
//
//   const std::string ncu = course::check::nsight_compute_for(c);  // "" with a note: none
//   Run run;
//   course::check::NcuReading reading;
//   if (!ncu.empty() && course::check::profile_case(c, ncu, metrics, "my_kernel",
//                                                   request::speed, {n}, timeout, run, reading)) {
//     ... judge run.results and reading.values ...
//   } else {
//     ... the fallback, whose notes say "graded by timing" ...
//   }
//
// Reading counters needs permission: root, or the driver loaded with
// NVreg_RestrictProfilingToAdminUsers=0. Without it ncu prints ERR_NVGPUCTRPERM, and
// NcuReading says so, so that the check can fall back to another measurement.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "course/check/child_process.hpp"
#include "course/check/judge.hpp"

namespace course::check {

// COURSE_NCU=/path/to/ncu picks the profiler; COURSE_NCU=none turns it off (the check
// then uses its fallback, which is how the fallback is tested on a machine with ncu).
inline constexpr const char* kNcuVariable = "COURSE_NCU";
inline constexpr const char* kNcuPermissionError = "ERR_NVGPUCTRPERM";

inline bool ncu_is_executable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

// The path of ncu, or "" with `why_not` set: COURSE_NCU, then PATH, then the CUDA
// toolkit's bin folder (CUDA_HOME, CUDA_PATH, /usr/local/cuda), where compute-sanitizer
// lives too.
std::string find_nsight_compute(Message& why_not);

// ncu collecting `metrics` for the first launch of `kernel_name` (its function name,
// without parameters) in `program`, as CSV with unscaled units; the case's arguments
// follow (CaseContext::run_with appends them).
std::vector<std::string> ncu_command(const std::string& ncu,
                                     const std::vector<std::string>& metrics,
                                     const std::string& kernel_name, const std::string& program);

// The fields of one CSV line, with quotes removed ("a","1,024" -> a | 1,024).
std::vector<std::string> split_csv_line(const std::string& line);

struct NcuReading {
  bool ok = false;                       // every metric asked for has a value
  bool permission_denied = false;        // ncu could not read the counters (ERR_NVGPUCTRPERM)
  Message why_not;                       // when !ok: what went wrong, for a person
  std::map<std::string, double> values;  // metric name -> value, summed over the rows
};

// Reads the metric rows of ncu's CSV output (the header names "Metric Name" and
// "Metric Value"; values may carry thousands separators).
NcuReading read_ncu_metrics(const ChildResult& child, const std::vector<std::string>& metrics);

// The profiler a case of `c` grades with, or "" with a note that says why there is none
// (the case then grades with its fallback).
std::string nsight_compute_for(CaseContext& c);

// Runs the `key` request of the program under test under ncu, `metrics` of the first
// launch of `kernel`; true when ncu measured them all (`run` and `reading` then hold what
// it ran and read), false with a note that says why not (the caller falls back).
bool profile_case_words(CaseContext& c, const std::string& ncu,
                        const std::vector<std::string>& metrics, const std::string& kernel,
                        const std::string& kind, const Words& params, double timeout_seconds,
                        Run& run, NcuReading& reading);
template <typename Params>
bool profile_case(CaseContext& c, const std::string& ncu, const std::vector<std::string>& metrics,
                  const std::string& kernel, const Request<Params>& key, const Params& params,
                  double timeout_seconds, Run& run, NcuReading& reading) {
  return profile_case_words(c, ncu, metrics, kernel, key.name, words_of(params), timeout_seconds,
                            run, reading);
}

}  // namespace course::check
