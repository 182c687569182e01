// The check's command line: what to check, how, and what to expect of the verdict.
// judge.hpp documents the protocol; `check_NN --help` prints this list.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace course::check {

inline constexpr int kExitPass = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitMisuse = 2;
inline constexpr int kExitSkip = 77;
inline constexpr int kSanitizerErrorExit = 86;  // --error-exitcode given to compute-sanitizer
inline constexpr std::uint64_t kDefaultSeed = 20191001;
inline constexpr double kDefaultTimeoutSeconds = 20.0;
// The seed a case's runs get unless they ask for another: the case's own (drawn from the
// check's --seed and the case's name).
inline constexpr std::uint64_t kCaseSeed = 0;
inline constexpr double kSanitizerTimeoutScale = 15.0;

struct Options {
  std::string program;
  std::uint64_t seed = kDefaultSeed;
  double timeout_scale = 1.0;
  bool sanitizer_requested = false;         // --sanitizer: every case runs under the tool
  std::string sanitizer;                    // path to compute-sanitizer; empty when not found
  std::string sanitizer_tool = "memcheck";  // or racecheck, synccheck, initcheck
  std::string variant;
  std::vector<std::string> only_cases;
  std::string summary_path;
  bool list_only = false;
  bool list_json = false;  // --list-json: the cases as JSON (list_exercise_json)
  // Only the cases that need no GPU (Case::needs_gpu false): what a machine without a
  // GPU can still prove of an exercise's CPU side.
  bool host_only = false;
  // The messages' language, "fr" or "en" (--lang); "": the environment's (message.hpp),
  // except in a self-test, whose expected hints are English.
  std::string lang;
  // Self-test expectations (CTest proves the checks with these).
  std::string expect;  // "", "pass" or "fail"
  std::vector<std::string> expect_hints;
  int expect_score = -1;
  bool expect_clean = false;
  int declared_points = -1;
  // Grading (tools/course grade): a structured report, limits, and confinement.
  std::string report_json_path;
  int stop_after_timeouts = 0;  // 0: never; else the cases after that many time-outs are not run
  std::size_t memory_limit_mb = 0;  // resident memory of the program; 0: no limit
  std::string run_as;               // user the program runs as (the check itself runs as root)
  // Confinement's allow-list (child_process.hpp): folders kept visible besides the system
  // ones and the scratch folder, and folders covered even inside a system one.
  std::vector<std::string> shown_paths;
  std::vector<std::string> hidden_paths;
  // Exercises whose code is also called from outside the program (course_exercise's
  // SHARED_LIBRARY): the student's files built as a shared library, and the exercise's
  // folder, where the instructor-owned callers (a Python script) are.
  std::string library;
  std::string exercise_dir;
  // Sharing the GPU with other checks (gpu_lock.hpp); empty: no lock.
  std::string gpu_lock_path;
  // The time of each case, written by a plain run and read by a run under the
  // sanitizer, whose limits derive from it (session.hpp).
  std::string record_times_path;
  // Where each speed bar's measured figure is written (speed.hpp, --speed-record).
  std::string speed_record_path;
  // The site bars (speed_bar.hpp: make calibrate) to judge speed against on their GPU; empty:
  // COURSE_SITE_BARS's, or none (the course's bars).
  std::string site_bars_path;
  std::string plain_times_path;
  // Filled by judge_main when confining: the user's ids, and the scratch folder that
  // holds the program's copy (the only place the confined program works in).
  uid_t run_as_uid = 0;
  gid_t run_as_gid = 0;
};

// The compute-sanitizer tools a check may run the program under.
inline bool is_sanitizer_tool(const std::string& name) {
  return name == "memcheck" || name == "racecheck" || name == "synccheck" || name == "initcheck";
}

void print_usage(const std::string& exercise_number);

// Fills `options`; on a problem returns false with `error` set ("help" for --help).
// A grader may give the seed in COURSE_CHECK_SEED instead of --seed: unlike a command
// line, the environment of a root process is not readable by other users.
bool parse_options(int argc, char** argv, Options& options, std::string& error);

}  // namespace course::check
