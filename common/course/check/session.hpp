// How one check runs the program under test: the served process that computes the API
// cases (case_server.hpp), one-shot runs of whole programs and of other callers, the
// GPU lock around each run (gpu_lock.hpp), the time limit of each run, and
// compute-sanitizer around them: around all of them (--sanitizer), or around the runs of
// the cases that name a tool of their own (judge.hpp's under_tool). The cases of a check
// share one session; judge.hpp decides what their runs mean.
//
// Time limits follow the program. A plain run gets the limit its case asks for (20 s
// unless the case says otherwise) times --timeout-scale. A run under compute-sanitizer
// gets kSanitizerSlowdown times what the same case took in the plain run of the same
// program (--plain-times, written by that run's --record-times), at least
// kSanitizerMinimumSeconds; without those times, kSanitizerTimeoutScale times the
// plain limit.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "course/check/case_server.hpp"
#include "course/check/child_process.hpp"
#include "course/check/gpu_lock.hpp"
#include "course/check/judge_options.hpp"
#include "course/check/protocol.hpp"
#include "course/check/results.hpp"

namespace course::check {

// A run under compute-sanitizer may take this many times its plain run...
// (memcheck costs most per launch: 20's conjugate gradient on 4096 rows, hundreds of small
// launches, took more than 20 times its plain run on an H200 with the suite's 16 checks
// side by side, and was stopped at 5.4 s)
inline constexpr double kSanitizerSlowdown = 50.0;
// ...and never less than this: the tool's own start and reports take seconds, and a case
// of hundreds of launches pays memcheck's cost per launch whatever its plain time (20's
// conjugate gradient on 4096 rows, 0.02-0.3 s plain, took 0.3 s to 7.8 s under a tool
// with the GPU suite or a grading beside it, and was stopped at a floor of 10 s twice:
// H100, 2026-12-07).
inline constexpr double kSanitizerMinimumSeconds = 30.0;
// The served program's start (its CUDA context; the tool's start under the sanitizer).
inline constexpr double kStartupSeconds = 20.0;
inline constexpr double kSanitizerStartupSeconds = 60.0;
// A correct program is idle the moment its result is written; one still busy this long
// after (a kernel left running) is stopped.
inline constexpr double kBusyGraceSeconds = 2.0;
inline constexpr double kSanitizerBusyGraceSeconds = 5.0;
// After its last case the program ends by itself within this time, or is ended.
inline constexpr double kFinishGraceSeconds = 2.0;
inline constexpr double kSanitizerFinishGraceSeconds = 15.0;

// One run of the program under test: how it ended, what it printed, what it reported.
struct Run {
  ChildResult child;
  Results results;
  bool sanitizer_errors = false;
  // Served runs: the program stayed busy after its result and was stopped, after this
  // grace (see ServedCase).
  bool stayed_busy = false;
  double busy_grace_seconds = 0.0;
};

// compute-sanitizer prefixes its own lines with this; a check parsing a program's
// output must skip them when it runs under the sanitizer.
inline constexpr const char* kSanitizerLinePrefix = "=========";

// True when compute-sanitizer's lines in `output` report an error: a memory access, an
// API or launch failure, a leak, a race, a barrier error. Its banner and summaries of
// zero errors are not. (Its exit status, kSanitizerErrorExit, says the same at its end.)
bool sanitizer_found_errors(const std::string& output);

// compute-sanitizer's own lines of `output` (the whole output when it has none).
std::string sanitizer_lines(const std::string& output);

class CaseContext;  // judge.hpp

class CheckSession {
 public:
  CheckSession(const Options& options, std::string scratch)
      : options_(options),
        scratch_(std::move(scratch)),
        gpu_lock_(options.gpu_lock_path),
        tool_(options.sanitizer_requested ? options.sanitizer_tool : "") {
    read_plain_times();
  }

  // The compute-sanitizer tool of the runs that follow ("" for none): judge.hpp sets the
  // tool of each case before it runs. The served program is started again under another
  // tool: cases under the same tool, one after the other, share one process.
  void use_tool(const std::string& tool) {
    if (tool == tool_) return;
    finish();
    tool_ = tool;
  }
  const std::string& tool() const { return tool_; }
  bool under_sanitizer() const { return !tool_.empty(); }
  bool gpu_lock_failed() const { return gpu_lock_.failed(options_.gpu_lock_path); }

  // The limit of one run of case `case_name` that asks for `requested` seconds.
  double limit_for(const std::string& case_name, double requested) const;

  // Runs `command` (a program and its arguments) to its end, under the case's limit,
  // the sanitizer and the confinement, holding the GPU as the case needs it.
  ChildResult run_once(const std::vector<std::string>& command,
                       const std::vector<std::string>& environment, double limit_seconds,
                       GpuUse gpu_use, const std::string& case_name);

  // Computes one API case in the served program (`words` as a one-shot run would take
  // them) and reads its results.
  Run serve(const std::vector<std::string>& words, double limit_seconds, GpuUse gpu_use,
            const std::string& case_name);

  // The case that last ran in the served program, and whether compute-sanitizer
  // reported errors in a case of its current process.
  void note_served(CaseContext& context, bool sanitizer_errors) {
    last_served_ = &context;
    if (sanitizer_errors) instance_flagged_ = true;
  }
  bool instance_flagged() const { return instance_flagged_; }

  // Called when the served program ends after its last case (with that case): what
  // compute-sanitizer reported then is judged there (judge.hpp).
  void on_server_end(std::function<void(CaseContext&, const ServerEnd&)> handler) {
    server_ended_ = std::move(handler);
  }

  // No more served cases for now: ends the served program (see CaseServer::finish).
  void finish();

  // Whole-program runs that several cases judge (the same command, environment and
  // limit): the program runs once and each case reads what it printed.
  std::map<std::string, Run>& remembered_runs() { return remembered_runs_; }

  // The plain times of this run's cases, for a later run under the sanitizer.
  void record_time(const std::string& case_name, double seconds) {
    recorded_.emplace_back(case_name, seconds);
  }
  bool write_recorded_times() const;

 private:
  std::string result_path() const { return scratch_ + "/result.bin"; }

  // Under the sanitizer times mean nothing: no run needs the GPU alone.
  GpuUse lock_mode(GpuUse use) const {
    return (use == GpuUse::alone || use == GpuUse::timed) && under_sanitizer() ? GpuUse::shared
                                                                               : use;
  }
  std::string holder(const std::string& case_name) const {
    return options_.program + "\t" + case_name + (under_sanitizer() ? "\tsanitizer" : "");
  }

  ChildLimits base_limits() const;

  std::vector<std::string> sanitizer_prefix() const;

  Confinement confinement() const;

  // --plain-times: "case<TAB>seconds" lines; a missing or unreadable file leaves the
  // sanitizer's limits at their fallback.
  void read_plain_times();

  // The served process ended during a case (a crash, a time-out, a program that stayed
  // busy): that case's run already says how, so nothing is left to judge at its end.
  void finish_ended_process() {
    last_served_ = nullptr;
    instance_flagged_ = false;
  }

  const Options& options_;
  std::string scratch_;
  GpuLock gpu_lock_;
  std::unique_ptr<CaseServer> server_;
  CaseContext* last_served_ = nullptr;
  bool instance_flagged_ = false;
  std::function<void(CaseContext&, const ServerEnd&)> server_ended_;
  std::string tool_;
  std::map<std::string, Run> remembered_runs_;
  std::map<std::string, double> plain_seconds_;
  std::vector<std::pair<std::string, double>> recorded_;
};

}  // namespace course::check
