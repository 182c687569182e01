// The judge side of a check: named cases with points, a report for a person, and
// the verdict. This code is compiled without any student code; it runs the program
// that contains it as a child process (child_process.hpp), reads what that program
// reported (protocol.hpp), compares with references it computes itself, and
// decides. Exit status: 0 pass, 1 fail, 77 no CUDA device (CTest's skip code),
// 2 the check itself was misused.
//
// An exercise's check.cpp declares its cases and hands them to judge_main:
//
//   int main(int argc, char** argv) {
//     course::check::Exercise exercise{"03", "device_memory", {
//         {"n_is_one", 2, [](course::check::CaseContext& c) { ... }},
//         ...}};
//     return course::check::judge_main(argc, argv, exercise);
//   }
//
// The options are in judge_options.hpp (`check_NN --help` lists them).
// The bodies of this header and of those under it are in the .cpp files beside them,
// compiled once into the course_check library that every check links (CMakeLists.txt).
#pragma once

#include <cuda_runtime.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "course/check/child_process.hpp"
#include "course/check/judge_options.hpp"
#include "course/check/message.hpp"
#include "course/check/protocol.hpp"
#include "course/check/report_json.hpp"
#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/check/results.hpp"
#include "course/check/session.hpp"
#include "course/check/speed_bar.hpp"
#include "course/data.hpp"
#include "course/device_info.hpp"
#include "course/float4.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"

namespace course::check {

struct NcuReading;  // nsight_compute.hpp

// The lines a whole program printed, without compute-sanitizer's lines or blank ones,
// trailing blanks and '\r' removed (indentation kept).
std::vector<std::string> program_lines(const std::string& output);

std::string indent_excerpt(const std::string& text, std::size_t max_lines = 20,
                           const std::string& prefix = "  | ");

// How a child process ended, for a person ("exited with status 3"), in the chosen language
// (ChildResult::describe_end's words, which the sandbox and the grader's logs keep in English).
Message how_it_ended(const ChildResult& child);

// What a report of compute-sanitizer `tool` usually means, and where to look.
Message sanitizer_hint(const std::string& tool);

// A mismatch for a person, in the chosen language: what failed, where, by how much,
// under which tolerance (course::describe's report, for a check).
Message describe_mismatch(const Comparison& comparison, Tolerance tolerance,
                          const std::string& what);

class CaseContext {
 public:
  CaseContext(const Options& options, CheckSession& session, std::string name, std::uint64_t seed,
              std::string scratch_dir, GpuUse gpu_use, std::string sanitizer_tool = "")
      : options_(options),
        session_(session),
        name_(std::move(name)),
        seed_(seed),
        scratch_(std::move(scratch_dir)),
        gpu_use_(gpu_use),
        tool_(std::move(sanitizer_tool)) {}

  const std::string& name() const { return name_; }
  // This case's seed: derived from the check's --seed and the case's name.
  std::uint64_t seed() const { return seed_; }
  // True when every run of this case goes through compute-sanitizer (whose own lines,
  // starting with "=========", are then mixed into the program's output): all cases
  // with --sanitizer, or a case that names its tool (under_tool).
  bool under_sanitizer() const { return !tool_.empty(); }
  // The compute-sanitizer tool of this case's runs; "" when they run without one.
  const std::string& sanitizer_tool() const { return tool_; }
  // The check's options (--library, --exercise-dir, ...).
  const Options& options() const { return options_; }
  // The scratch folder of this check run: where a case may put files for its runs.
  const std::string& scratch_dir() const { return scratch_; }

  // Runs the program with arbitrary arguments (whole-program exercises). A run that
  // compute-sanitizer flags fails the case here; everything else is the caller's.
  // Cases that ask for the same run (arguments, environment, limit) share one: the
  // program runs once, and each case judges what it printed.
  Run run_program(const std::vector<std::string>& args,
                  const std::vector<std::string>& environment = {},
                  double timeout_seconds = kDefaultTimeoutSeconds);

  // Runs any command (its first word a program path) under the same limits, sanitizer
  // and confinement as the program under test: for instructor-owned callers of the
  // student's code other than the program, such as a Python script loading --library.
  Run run_command(const std::vector<std::string>& program_and_args,
                  const std::vector<std::string>& environment = {},
                  double timeout_seconds = kDefaultTimeoutSeconds);

  // Runs one case of an API exercise's program (runner.hpp) and reads its results: the
  // `key` request with these parameters (request_keys.hpp, declared in the exercise's
  // workload.hpp). The program serves the check's cases one after the other (protocol.hpp).
  // `seed` kCaseSeed: the case's own seed (c.seed()).
  template <typename Params>
  Run run(const Request<Params>& key, const Params& params, std::uint64_t seed = kCaseSeed,
          double timeout_seconds = kDefaultTimeoutSeconds) {
    return run_case(key.name, words_of(params), seed, timeout_seconds);
  }

  // The same case protocol, spoken by another caller: `launcher` is the command the
  // case arguments are appended to (e.g. {python, script, library}). One run per case.
  template <typename Params>
  Run run_with(const std::vector<std::string>& launcher, const Request<Params>& key,
               const Params& params, std::uint64_t seed = kCaseSeed,
               double timeout_seconds = kDefaultTimeoutSeconds) {
    return run_case_with(launcher, key.name, words_of(params), seed, timeout_seconds);
  }

  // True when a whole program ended by itself, whatever its exit status; otherwise the
  // case fails here with how it ended (time limit, signal, output flood, sanitizer
  // errors) and the start of what it printed. `what_ran` names the command for a person.
  bool ended_by_itself(const Run& run, const Message& what_ran);

  // True when an API run ended normally and its results can be compared; otherwise
  // the case fails here with what happened and the start of what it printed.
  // An overrun of a device buffer fails the case too: it is a wrong program even
  // when the values happen to be right.
  bool finished(const Run& run);

  // Compares the record `name` with `expected`; every element must be written and
  // within `tolerance`. `wrong_hint` is printed under a mismatch.
  template <typename T, typename Ref>
  bool expect_array(const Run& run, const std::string& name, const std::vector<Ref>& expected,
                    Tolerance tolerance, const Message& wrong_hint = {}) {
    auto found = run.results.records.find(name);
    if (found == run.results.records.end()) {
      fail(Message{"the program reported no output '{}'",
                   "le programme n'a rendu aucune sortie « {} »"}
               .with(name));
      return false;
    }
    const Record& record = found->second;
    if (record.type != TypeOf<T>::value) {
      fail(Message{"output '{}' has type {}, expected {}",
                   "la sortie « {} » est de type {} au lieu de {}"}
               .with(name, type_name(record.type), type_name(TypeOf<T>::value)));
      return false;
    }
    if (record.count != expected.size()) {
      fail(Message{"output '{}' has {} elements, expected {}",
                   "la sortie « {} » a {} éléments au lieu de {}"}
               .with(name, record.count, expected.size()));
      return false;
    }
    const std::vector<T> got = record.values<T>();
    const Comparison comparison = compare(got.data(), expected.data(), expected.size(), tolerance);
    if (comparison.ok()) return true;
    fail(describe_mismatch(comparison, tolerance, name));
    if (comparison.unwritten == comparison.count) {
      hint(Message{"no element of '{}' was written: is the function implemented, and is the "
                   "result copied back to the host?",
                   "aucun élément de « {} » n'a été écrit : la fonction est-elle écrite, et le "
                   "résultat est-il recopié vers l'hôte ?"}
               .with(name));
    } else if (comparison.unwritten > 0) {
      hint({"some elements were never written: does the grid cover every element (round the "
            "block count up)?",
            "certains éléments n'ont jamais été écrits : la grille couvre-t-elle chaque élément "
            "(arrondir le nombre de blocs au-dessus) ?"});
    }
    if (!wrong_hint.empty() && comparison.unwritten < comparison.count) hint(wrong_hint);
    return false;
  }

  template <typename T, typename Ref>
  bool expect_array(const Run& run, const Array<T>& key, const std::vector<Ref>& expected,
                    Tolerance tolerance, const Message& wrong_hint = {}) {
    return expect_array<T>(run, key.name, expected, tolerance, wrong_hint);
  }

  // The values of an array record, without comparing them; fails the case when the
  // record is missing or of another type.
  template <typename T>
  bool read_array(const Run& run, const Array<T>& key, std::vector<T>& out) {
    auto found = run.results.records.find(key.name);
    if (found == run.results.records.end() || found->second.type != TypeOf<T>::value) {
      fail(Message{"the program reported no output '{}'",
                   "le programme n'a rendu aucune sortie « {} »"}
               .with(key.name));
      return false;
    }
    out = found->second.template values<T>();
    return true;
  }
  // For a kernel that moves floats four at a time (course/float4.hpp), then the last
  // n % 4 elements one by one: prints `tail_hint` when every wrong element of `key` is
  // among those last n % 4 and some float4 came before them (the loop after the float4
  // loop forgotten, or started at the wrong element; below 4 elements, a kernel that
  // wrote nothing looks the same). For a case whose expect_array has already failed.
  template <typename T, typename Ref>
  void hint_if_only_float4_tail_wrong(const Run& run, const Array<T>& key,
                                      const std::vector<Ref>& expected, Tolerance tolerance,
                                      const Message& tail_hint) {
    auto found = run.results.records.find(key.name);
    if (found == run.results.records.end() || found->second.type != TypeOf<T>::value) return;
    const std::vector<T> got = found->second.template values<T>();
    if (got.size() != expected.size()) return;
    const Comparison comparison = compare(got.data(), expected.data(), got.size(), tolerance, 1);
    const std::size_t in_vectors = got.size() / kFloatsPerFloat4 * kFloatsPerFloat4;
    if (in_vectors > 0 && !comparison.ok() && comparison.first.front().index >= in_vectors) {
      hint(tail_hint);
    }
  }
  // Whether the program reported this record at all (a case that reports a value only
  // in some runs).
  template <typename Key>
  static bool reported(const Run& run, const Key& key) {
    return run.results.records.count(key.name) != 0;
  }

  // A host output reported by runner.hpp's GuardedOutput must leave its guard zone
  // alone; `function` names the call that wrote it, `fix` says what to change.
  template <typename T>
  bool expect_host_guard_untouched(const Run& run, const Array<T>& key, const std::string& function,
                                   const Message& fix) {
    const std::string& name = key.name;
    std::int64_t guard_writes = 0;
    if (!read_value(run, name + ".guard_writes", guard_writes)) return false;
    if (guard_writes == 0) return true;
    fail(Message{"{} wrote {} element(s) past the end of its output '{}' on the host",
                 "{} a écrit {} élément(s) au-delà de la fin de sa sortie « {} » sur l'hôte"}
             .with(function, guard_writes, name));
    hint(fix);
    return false;
  }

  // An exercise about computing on the GPU: the code under test must have launched a
  // kernel (runner.hpp counts the launches), not computed the result on the host.
  bool expect_kernel_launched(const Run& run);

  // The code under test must free every device buffer it allocates.
  bool expect_no_leak(const Run& run);

  // The code under test must have copied exactly `host_to_device` bytes to the device
  // and `device_to_host` bytes back (device_accounting.hpp counts every cudaMemcpy and
  // cudaMemcpyAsync between host and device memory while a case runs). `fix` is the
  // hint under a mismatch.
  bool expect_transfer_bytes(const Run& run, std::int64_t host_to_device,
                             std::int64_t device_to_host, const Message& fix);

  // Judges a ratio measured in this run against its bar (speed_bar.hpp): prints the
  // figure, the bar and the reference solution's figures under the case (with `figures`,
  // the measurements it came from, first), fails the case below the bar, and records the
  // judgement for the margin test. False below the bar.
  // The bar must be one its case declares (timed(case, {bars})): --list prints those, and
  // the statements and tests/speed_bars.md are held against them.
  bool expect_speed(const SpeedBar& bar, double measured, const Message& figures = {});
  const std::vector<SpeedRecord>& speed_records() const { return speed_records_; }

  // The scaffolding every speed case shares. timing(timed) is how its program times:
  // `timed`, or one short round under compute-sanitizer (whose times mean nothing).
  Timing timing(Timing timed) const { return under_sanitizer() ? Timing{1, 0, 1} : timed; }
  // Reads the times a run reported, each into its `ms`; fails the case unless every one
  // was reported and is positive (a time of 0 makes every ratio meaningless).
  struct TimeRead {
    const Value<double>& key;
    double& ms;
  };
  // First, the run must have timed the code under test through student_call, and every
  // timed call must have done its work (expect_timed_calls_did_their_work).
  bool read_times(const Run& run, std::initializer_list<TimeRead> times);
  // Every audited timed call of the code under test (course/check/timed_call.hpp) launched
  // a kernel and wrote its output; else the case fails with what was seen. finished() asks
  // it of every run, read_times() also requires that the run audited a call (speed_case).
  bool expect_timed_calls_did_their_work(const Run& run, bool speed_case);
  // Judges `ratio` against `bar` (expect_speed) with `figures` above it and `hints` under
  // a figure on the wrong side. Under compute-sanitizer it judges nothing and says so
  // (true). False below the bar.
  bool judge_speed(const SpeedBar& bar, double ratio, const Message& figures = {},
                   const std::vector<Message>& hints = {});
  // False under compute-sanitizer, whose times mean nothing, after a note saying so (a note
  // is shown once however often it is asked): a case that judges times in its own way
  // returns there.
  bool times_judged();
  // The bars this case may judge (the Case's own list).
  void declare_bars(std::vector<SpeedBar> bars) { declared_bars_ = std::move(bars); }

  template <typename T>
  bool read_value(const Run& run, const std::string& name, T& value) {
    auto found = run.results.records.find(name);
    if (found == run.results.records.end() || found->second.type != TypeOf<T>::value ||
        found->second.count != 1) {
      fail(Message{"the program reported no value '{}'",
                   "le programme n'a rendu aucune valeur « {} »"}
               .with(name));
      return false;
    }
    value = found->second.values<T>()[0];
    return true;
  }

  template <typename T>
  bool read_value(const Run& run, const Value<T>& key, Keyed<T>& value) {
    return read_value(run, key.name, value);
  }
  bool read_text(const Run& run, const Text& key, std::string& text) {
    return read_text(run, key.name, text);
  }
  static std::string text_or_empty(const Run& run, const Text& key) {
    return text_or_empty(run, key.name);
  }

  // A text record (ResultWriter::put_text); fails the case when there is none.
  bool read_text(const Run& run, const std::string& name, std::string& text);

  // A text record, or "" when there is none (a run that stopped before reporting it).
  static std::string text_or_empty(const Run& run, const std::string& name) {
    std::string text;
    find_text(run, name, text);
    return text;
  }

  static bool find_text(const Run& run, const std::string& name, std::string& text);

  void fail(const Message& message) {
    passed_ = false;
    add_line(message.text());
  }
  // This case cannot run on this machine (a tool it needs is missing): it is reported
  // as SKIPPED with the reason and left out of the score and of its maximum, never
  // counted as passed. Its other messages are dropped.
  void not_graded(const Message& reason);
  bool is_not_graded() const { return not_graded_; }
  void note(const Message& message) { add_line(message.text()); }
  void hint(const Message& text);

  bool passed() const { return passed_; }
  bool abnormal() const { return abnormal_; }
  int timeouts() const { return timeouts_; }
  std::string report() const {
    std::string text = lines_;
    const std::string label = Message{"hint: ", "piste : "}.text();
    for (const std::string& h : hints_) text += "         " + label + h + "\n";
    return text;
  }

 private:
  std::int64_t value_or(const Run& run, const std::string& name, std::int64_t fallback) const;

  void note_run(Run& run);

  // A served program still busy after writing its result (a kernel left running) was
  // stopped: the result stands, but the sanitizer could not check the program to its end.
  void note_stayed_busy(const Run& run);

  // Indents every line of a message under its case's line.
  void add_line(const std::string& message);

  // The protocol's words of a request: private, so that every check asks through a typed
  // request (run, run_with) and a misspelt name or parameter does not compile.
  Run run_case(const std::string& kind, const Words& params, std::uint64_t seed,
               double timeout_seconds);
  Run run_case_with(const std::vector<std::string>& launcher, const std::string& kind,
                    const Words& params, std::uint64_t seed, double timeout_seconds);
  friend bool profile_case_words(CaseContext& c, const std::string& ncu,
                                 const std::vector<std::string>& metrics, const std::string& kernel,
                                 const std::string& kind, const Words& params,
                                 double timeout_seconds, Run& run, NcuReading& reading);

  std::vector<std::string> case_words(
      const std::string& kind, const std::vector<std::pair<std::string, std::string>>& params,
      std::uint64_t seed) const;

  const Options& options_;
  CheckSession& session_;
  std::string name_;
  std::uint64_t seed_;
  std::string scratch_;
  GpuUse gpu_use_ = GpuUse::shared;
  std::string tool_;
  int run_counter_ = 0;
  bool passed_ = true;
  bool not_graded_ = false;
  bool abnormal_ = false;
  int timeouts_ = 0;
  std::string lines_;
  std::vector<std::string> hints_;
  std::vector<SpeedRecord> speed_records_;
  std::vector<SpeedBar> declared_bars_;
  bool times_not_judged_noted_ = false;  // times_judged()'s note, once a case
  std::string bar_note_;                 // whose bar expect_speed judges against, once a case
};

struct Case {
  std::string name;
  int points = 0;
  std::function<void(CaseContext&)> body;
  // A case whose inputs come from the grading seed: graders keep its details from
  // students (Gradescope's "hidden" visibility).
  bool hidden = false;
  // False for a case that runs only CPU code (a CPU reference, an OpenMP loop): it also
  // runs with --host-only, which is how CI proves an exercise's CPU side without a GPU.
  bool needs_gpu = true;
  // A case whose runs must have the GPU to themselves (gpu_lock.hpp): one that judges a
  // time (a speed ratio, a self-reported kernel time: from the moment its program starts
  // to measure), or one that relies on what its own earlier kernels left on the GPU (the
  // whole run). Every other case shares it.
  bool gpu_alone = false;
  // A case whose verdict depends on a time (timed()).
  bool judges_time = false;
  // The speed bars it judges (timed(case, {bars})): the one place of each bar's number.
  std::vector<SpeedBar> bars;
  // A case that proves what one compute-sanitizer tool reports (under_tool()): each of
  // its runs goes through that tool, with or without --sanitizer. Without compute-sanitizer
  // (--compute-sanitizer or --sanitizer PATH) it is not graded.
  std::string sanitizer_tool;
};
inline constexpr bool kHiddenCase = true;

// Marks a case as needing no GPU:  host_only({"cpu_loop", 2, check_cpu_loop}).
inline Case host_only(Case c) {
  c.needs_gpu = false;
  return c;
}

// Marks a case whose verdict depends on a time, with the speed bars it judges:
//   timed({"fused_near_copy_ceiling", 4, check_speed}, {kCopyCeilingBar, kThreeKernelsBar}).
inline Case timed(Case c, std::vector<SpeedBar> bars = {}) {
  c.gpu_alone = true;
  c.judges_time = true;
  c.bars = std::move(bars);
  return c;
}

// Marks a case that relies on the state its program left on the GPU (what shared memory
// holds before a kernel that must zero it): another program's kernels would change it.
inline Case alone_on_gpu(Case c) {
  c.gpu_alone = true;
  return c;
}

// Runs every run of a case under one compute-sanitizer tool (memcheck, racecheck,
// synccheck or initcheck):  under_tool("racecheck", {"tile_race", 3, check_tile}).
inline Case under_tool(const std::string& tool, Case c) {
  c.sanitizer_tool = tool;
  return c;
}

// The tool a case's runs go through in this check run: its own, else --sanitizer's.
inline std::string tool_of(const Case& c, const Options& options) {
  if (!c.sanitizer_tool.empty()) return c.sanitizer_tool;
  return options.sanitizer_requested ? options.sanitizer_tool : "";
}

// How a case's runs hold the GPU lock: a case that runs only CPU code takes none (it
// cannot disturb a timed run's GPU, and need not wait for one).
inline GpuUse gpu_use(const Case& c) {
  if (c.judges_time) return GpuUse::timed;
  if (c.gpu_alone) return GpuUse::alone;
  return c.needs_gpu ? GpuUse::shared : GpuUse::none;
}

struct Exercise {
  std::string number;
  std::string name;
  std::vector<Case> cases;
  // Only the course's own harness tests run host-only programs; every exercise
  // needs a GPU, and its check reports "skipped" (77) without one (with --host-only,
  // its cases marked host_only still run).
  bool needs_gpu = true;
  // The CUDA devices its program uses (two for a multi-GPU exercise): with fewer, its
  // check reports skipped, with the count, never a pass.
  int devices = 1;
};

inline std::uint64_t name_hash(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

inline bool is_executable(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Counts the devices this process sees, without creating a context.
int visible_device_count(Message& reason);

// One tab-separated line for the score table: exercise, variant, score, maximum, verdict.
bool write_summary(const std::string& path, const Exercise& exercise, const std::string& variant,
                   int score, int max_score, bool passed);

// Confinement (--run-as): the scratch folder becomes the user's, and the program is
// copied into it, since every other path the grader hides may hold the original.
bool prepare_confinement(Options& options, const std::string& scratch, std::string& error);

// One case of a check run: its context (verdict, messages) and how long it took.
struct CaseOutcome {
  const Case* c = nullptr;
  std::unique_ptr<CaseContext> context;
  bool run = true;  // false when not run (--stop-after-timeouts)
  double seconds = 0.0;
};

// The case's line (PASS/FAIL/SKIP, points, time) and the messages under it.
std::string case_block(const CaseOutcome& outcome);

inline void print_case(const CaseOutcome& outcome) {
  std::fputs(case_block(outcome).c_str(), stdout);
  std::fflush(stdout);
}

// compute-sanitizer reports leaks, and its verdict, when the served program ends after
// its last case: what no case's output showed goes to that last case. A program that
// does not end (a process or kernel it left running) cannot be checked to its end, and
// that case fails too.
void judge_sanitizer_end(CaseContext& last, const ServerEnd& end, const CheckSession& session);

// The exercise's cases as JSON (--list-json): name, points, hidden, needs_gpu, judges_time,
// sanitizer_tool and the speed bars each case declares.
std::string exercise_json(const Exercise& exercise);

int judge_main(int argc, char** argv, const Exercise& exercise);

}  // namespace course::check
