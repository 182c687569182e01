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
//   if (!ncu.empty() && course::check::profile_case(c, ncu, metrics, "my_kernel", "case",
//                                                   params, timeout, run, reading)) {
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
inline std::string find_nsight_compute(std::string& why_not) {
  if (const char* chosen = std::getenv(kNcuVariable); chosen != nullptr && chosen[0] != '\0') {
    const std::string path = chosen;
    if (path == "none" || path == "off") {
      why_not = std::string(kNcuVariable) + "=" + path + " turns it off";
      return "";
    }
    if (ncu_is_executable(path)) return path;
    why_not = std::string(kNcuVariable) + "=" + path + " is not an executable";
    return "";
  }
  std::vector<std::string> folders;
  if (const char* path = std::getenv("PATH")) {
    std::string list = path;
    std::size_t at = 0;
    while (at <= list.size()) {
      std::size_t end = list.find(':', at);
      if (end == std::string::npos) end = list.size();
      if (end > at) folders.push_back(list.substr(at, end - at));
      at = end + 1;
    }
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable)) folders.push_back(std::string(home) + "/bin");
  }
  folders.push_back("/usr/local/cuda/bin");
  for (const std::string& folder : folders) {
    if (ncu_is_executable(folder + "/ncu")) return folder + "/ncu";
  }
  why_not = "no ncu on PATH nor in /usr/local/cuda/bin (set " + std::string(kNcuVariable) +
            " to its path)";
  return "";
}

// ncu collecting `metrics` for the first launch of `kernel_name` (its function name,
// without parameters) in `program`, as CSV with unscaled units; the case's arguments
// follow (CaseContext::run_case_with appends them).
inline std::vector<std::string> ncu_command(const std::string& ncu,
                                            const std::vector<std::string>& metrics,
                                            const std::string& kernel_name,
                                            const std::string& program) {
  std::string list;
  for (const std::string& metric : metrics) list += (list.empty() ? "" : ",") + metric;
  return {ncu,         "--metrics",      list, "--csv", "--print-units", "base", "--kernel-name",
          kernel_name, "--launch-count", "1",  program};
}

// The fields of one CSV line, with quotes removed ("a","1,024" -> a | 1,024).
inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

struct NcuReading {
  bool ok = false;                       // every metric asked for has a value
  bool permission_denied = false;        // ncu could not read the counters (ERR_NVGPUCTRPERM)
  std::string why_not;                   // when !ok: what went wrong, for a person
  std::map<std::string, double> values;  // metric name -> value, summed over the rows
};

// Reads the metric rows of ncu's CSV output (the header names "Metric Name" and
// "Metric Value"; values may carry thousands separators).
inline NcuReading read_ncu_metrics(const ChildResult& child,
                                   const std::vector<std::string>& metrics) {
  NcuReading reading;
  const std::string& output = child.output;
  if (output.find(kNcuPermissionError) != std::string::npos) {
    reading.permission_denied = true;
    reading.why_not = std::string("ncu may not read the GPU's counters (") + kNcuPermissionError +
                      ": run as root, or load the driver with "
                      "NVreg_RestrictProfilingToAdminUsers=0)";
    return reading;
  }
  int name_column = -1, value_column = -1;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] != '"') continue;
    const std::vector<std::string> fields = split_csv_line(line);
    if (name_column < 0) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i] == "Metric Name") name_column = static_cast<int>(i);
        if (fields[i] == "Metric Value") value_column = static_cast<int>(i);
      }
      continue;
    }
    if (value_column < 0 ||
        static_cast<int>(fields.size()) <= std::max(name_column, value_column)) {
      continue;
    }
    std::string number;
    for (const char c : fields[static_cast<std::size_t>(value_column)]) {
      if (c != ',') number += c;
    }
    char* stop = nullptr;
    const double value = std::strtod(number.c_str(), &stop);
    if (number.empty() || *stop != '\0') continue;
    reading.values[fields[static_cast<std::size_t>(name_column)]] += value;
  }
  for (const std::string& metric : metrics) {
    if (reading.values.count(metric) == 0) {
      reading.why_not = "ncu " + child.describe_end() + " and reported no value of " + metric +
                        (value_column < 0 ? " (no CSV metric table in its output)" : "");
      return reading;
    }
  }
  reading.ok = true;
  return reading;
}

// The profiler a case of `c` grades with, or "" with a note that says why there is none
// (the case then grades with its fallback).
inline std::string nsight_compute_for(CaseContext& c) {
  std::string why_not;
  const std::string ncu = find_nsight_compute(why_not);
  if (ncu.empty()) c.note("Nsight Compute not used: " + why_not);
  return ncu;
}

// Runs case `kind` of the program under test under ncu, `metrics` of the first launch of
// `kernel`; true when ncu measured them all (`run` and `reading` then hold what it ran and
// read), false with a note that says why not (the caller falls back).
inline bool profile_case(CaseContext& c, const std::string& ncu,
                         const std::vector<std::string>& metrics, const std::string& kernel,
                         const std::string& kind,
                         const std::vector<std::pair<std::string, std::string>>& params,
                         double timeout_seconds, Run& run, NcuReading& reading) {
  run = c.run_case_with(ncu_command(ncu, metrics, kernel, c.options().program), kind, params, 0,
                        timeout_seconds);
  reading = read_ncu_metrics(run.child, metrics);
  if (!reading.ok) {
    c.note("Nsight Compute could not measure: " + reading.why_not + "; graded by timing instead");
  }
  return reading.ok;
}

}  // namespace course::check
