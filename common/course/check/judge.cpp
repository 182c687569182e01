// The check harness, the judge: a case's runs and verdicts (CaseContext), and
// judge_main, which runs the cases and decides (declared in judge.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/judge.hpp"

#include <dlfcn.h>

namespace course::check {

std::vector<std::string> program_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.pop_back();
    }
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line.compare(0, std::strlen(kSanitizerLinePrefix), kSanitizerLinePrefix) == 0) continue;
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string indent_excerpt(const std::string& text, std::size_t max_lines,
                           const std::string& prefix) {
  std::string out;
  std::size_t lines = 0, at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (lines < max_lines)
      out += prefix + text.substr(at, std::min<std::size_t>(end - at, 300)) + "\n";
    ++lines;
    at = end + 1;
  }
  if (lines > max_lines)
    out += prefix + "... (" + std::to_string(lines - max_lines) + " more lines)\n";
  return out;
}

std::string sanitizer_hint(const std::string& tool) {
  if (tool == "racecheck") {
    return "a shared-memory race: two threads of a block touch the same shared location, one "
           "of them writing, with no __syncthreads() between; the report names both accesses "
           "(build with -lineinfo for file:line).";
  }
  if (tool == "synccheck") {
    return "a barrier that not every thread of the block reaches: a __syncthreads() inside a "
           "branch that some threads skip (an if on threadIdx.x or on the bounds) is divergent; "
           "the report names the kernel, the thread and the line of the barrier.";
  }
  if (tool == "initcheck") {
    return "a read of device memory that nothing wrote: cudaMalloc gives memory with no "
           "defined contents; write it (cudaMemset, a copy, a kernel) before a kernel reads it.";
  }
  return "read the first error of compute-sanitizer's report: it names the kernel, the thread "
         "and the address (build with -lineinfo for file:line).";
}

Run CaseContext::run_program(const std::vector<std::string>& args,
                             const std::vector<std::string>& environment, double timeout_seconds) {
  std::string key = std::to_string(timeout_seconds);
  for (const auto& words : {args, environment}) {
    key += '\n';
    for (const std::string& word : words) key += word + '\t';
  }
  auto& remembered = session_.remembered_runs();
  auto found = remembered.find(key);
  if (found == remembered.end()) {
    std::vector<std::string> command = {options_.program};
    command.insert(command.end(), args.begin(), args.end());
    Run run;
    run.child = session_.run_once(command, environment, session_.limit_for(name_, timeout_seconds),
                                  gpu_use_, name_);
    found = remembered.emplace(key, std::move(run)).first;
  }
  Run run = found->second;
  note_run(run);
  return run;
}

Run CaseContext::run_command(const std::vector<std::string>& program_and_args,
                             const std::vector<std::string>& environment, double timeout_seconds) {
  Run run;
  run.child = session_.run_once(program_and_args, environment,
                                session_.limit_for(name_, timeout_seconds), gpu_use_, name_);
  note_run(run);
  return run;
}

Run CaseContext::run_case(const std::string& kind,
                          const std::vector<std::pair<std::string, std::string>>& params,
                          std::uint64_t seed, double timeout_seconds) {
  Run run = session_.serve(case_words(kind, params, seed),
                           session_.limit_for(name_, timeout_seconds), gpu_use_, name_);
  note_run(run);
  session_.note_served(*this, run.sanitizer_errors);
  if (run.stayed_busy) note_stayed_busy(run);
  return run;
}

Run CaseContext::run_case_with(const std::vector<std::string>& launcher, const std::string& kind,
                               const std::vector<std::pair<std::string, std::string>>& params,
                               std::uint64_t seed, double timeout_seconds) {
  const std::string result_path =
      scratch_ + "/result-" + std::to_string(++run_counter_) + "-" + name_ + ".bin";
  unlink(result_path.c_str());
  std::vector<std::string> command = launcher;
  for (const std::string& word : case_words(kind, params, seed)) command.push_back(word);
  Run run =
      run_command(command, {std::string(kResultFileVariable) + "=" + result_path}, timeout_seconds);
  std::string data;
  if (read_file(result_path, data)) run.results = parse_results(data);
  unlink(result_path.c_str());
  return run;
}

bool CaseContext::ended_by_itself(const Run& run, const std::string& what_ran) {
  const ChildResult& child = run.child;
  if (run.sanitizer_errors || child.output_limit_hit) return false;  // reported by note_run
  if (child.exited) return true;
  fail(what_ran + " " + child.describe_end() +
       (child.output.empty() ? "; it printed nothing"
                             : "; its output began:\n" + indent_excerpt(child.output, 10)));
  if (child.timed_out) {
    hint("the program never ended: every loop and every kernel thread must reach its end, "
         "and the program must not wait for input.");
  } else if (child.started) {
    hint("the program crashed on the host: check pointers and array sizes around the line "
         "where its output stops.");
  }
  return false;
}

bool CaseContext::finished(const Run& run) {
  if (run.sanitizer_errors) return false;  // already reported by note_run
  if (!run.results.format_error.empty()) {
    fail("the program's result file is malformed (" + run.results.format_error + ")");
    return false;
  }
  if (!run.results.finished) {
    std::string what = "the program " + run.child.describe_end() + " before finishing this case";
    fail(what + (run.child.output.empty() ? "; it printed nothing"
                                          : "; its output:\n" + indent_excerpt(run.child.output)));
    if (run.child.timed_out) {
      hint("a loop that never ends, or a kernel that never returns? Every thread must reach "
           "the end of the kernel.");
    } else if (run.child.exited && run.child.exit_code == 0) {
      hint("the program exited in the middle of the case: code under test must return to its "
           "caller, never call exit().");
    } else if (run.child.output.find("call:  kernel launch") != std::string::npos &&
               (run.child.output.find("cudaErrorInvalidConfiguration") != std::string::npos ||
                run.child.output.find("cudaErrorInvalidValue") != std::string::npos)) {
      hint("invalid launch configuration: a grid needs at least one block (when n = 0, launch "
           "nothing) and a block at most 1024 threads.");
    } else if (run.child.output.find("cudaErrorMisalignedAddress") != std::string::npos) {
      hint("misaligned address: a float4 access needs an address that is a multiple of 16 bytes "
           "(x + 1 is not). Test every pointer with course::is_float4_aligned first, and fall "
           "back to one float per access when one of them is not aligned.");
    } else if (run.child.output.find("cudaErrorIllegalAddress") != std::string::npos) {
      hint("illegal address: a kernel read or wrote far outside its arrays. Check every index "
           "and every loop's bound against the length of what it reads (a float4 loop over "
           "n floats runs while v < n / 4).");
    } else if (run.child.signal != 0) {
      hint("a crash on the host: check host pointers, array sizes and that device pointers are "
           "never dereferenced on the host.");
    }
    return false;
  }
  const std::int64_t overruns = value_or(run, kOverrunRecord, 0);
  if (overruns > 0) {
    std::string detail;
    auto found = run.results.records.find(kOverrunDetailRecord);
    if (found != run.results.records.end() && found->second.count == 2) {
      const auto values = found->second.values<std::int64_t>();
      detail = " (a buffer of " + std::to_string(values[0]) + " bytes was written at byte offset " +
               std::to_string(values[1]) + ")";
    }
    fail("a kernel wrote past the end of a device buffer" + detail);
    hint("out of bounds: threads beyond the last element must not write. Does the kernel "
         "check its index against n?");
    return false;
  }
  return true;
}

bool CaseContext::expect_kernel_launched(const Run& run) {
  if (value_or(run, kKernelLaunchesRecord, 0) > 0) return true;
  fail("the result was computed without launching a kernel");
  hint("this exercise computes on the GPU: the work must be done by a kernel launched with "
       "<<<blocks, threads>>>, not by a loop on the host.");
  return false;
}

bool CaseContext::expect_no_leak(const Run& run) {
  const std::int64_t bytes = value_or(run, kLeakedBytesRecord, 0);
  const std::int64_t count = value_or(run, kLeakedAllocationsRecord, 0);
  if (bytes == 0 && count == 0) return true;
  fail("device memory leaked: " + std::to_string(count) + " allocation(s), " +
       std::to_string(bytes) + " bytes still allocated at the end");
  hint("every cudaMalloc needs its cudaFree once the data is back on the host.");
  return false;
}

bool CaseContext::expect_transfer_bytes(const Run& run, std::int64_t host_to_device,
                                        std::int64_t device_to_host, const std::string& fix) {
  std::int64_t to_device = 0, to_host = 0, copies_in = 0, copies_out = 0;
  if (!read_value(run, kHostToDeviceBytesRecord, to_device) ||
      !read_value(run, kDeviceToHostBytesRecord, to_host) ||
      !read_value(run, kHostToDeviceCopiesRecord, copies_in) ||
      !read_value(run, kDeviceToHostCopiesRecord, copies_out)) {
    return false;
  }
  if (to_device == host_to_device && to_host == device_to_host) return true;
  fail("host -> device: " + std::to_string(to_device) + " bytes in " + std::to_string(copies_in) +
       " copies, expected " + std::to_string(host_to_device) + " bytes; device -> host: " +
       std::to_string(to_host) + " bytes in " + std::to_string(copies_out) + " copies, expected " +
       std::to_string(device_to_host) + " bytes");
  hint(fix);
  return false;
}

bool CaseContext::expect_speed(const SpeedBar& bar, double measured, const std::string& figures) {
  const bool declared = std::any_of(declared_bars_.begin(), declared_bars_.end(),
                                    [&](const SpeedBar& own) { return same_bar(own, bar); });
  if (!declared) {
    // The course's mistake, not the student's: the statements and the margin test read
    // each case's bars from its declaration, so a bar judged elsewhere would escape them.
    fail(std::string("the check judges a bar its case does not declare (\"") + bar.figure +
         "\"): declare it in timed(case, {bars})");
    return false;
  }
  speed_records_.push_back({name_, bar, measured});
  if (!figures.empty()) add_line(figures);
  // A zero or missing time gives an infinite or undefined ratio: never a pass.
  const bool measurement = std::isfinite(measured) && measured > 0.0;
  if (measurement && clears(bar, measured)) {
    add_line(describe_speed(bar, measured));
    return true;
  }
  fail(describe_speed(bar, measured) +
       (measurement ? ": on the wrong side of the bar" : ": not a measurement (a time of 0?)"));
  return false;
}

bool CaseContext::read_times(const Run& run, std::initializer_list<TimeRead> times) {
  std::string measured;
  bool all_positive = true;
  for (const TimeRead& time : times) {
    if (!read_value(run, time.key, time.ms)) return false;
    all_positive = all_positive && time.ms > 0.0 && std::isfinite(time.ms);
    measured += (measured.empty() ? "" : ", ") + time.key.name + " " + format_number(time.ms);
  }
  if (!all_positive) fail("the times measured are not all positive: " + measured + " (ms)");
  return all_positive;
}

bool CaseContext::judge_speed(const SpeedBar& bar, double ratio, const std::string& figures,
                              const std::vector<std::string>& hints) {
  if (under_sanitizer()) {
    note("(times are not judged under compute-sanitizer)");
    return true;
  }
  if (expect_speed(bar, ratio, figures)) return true;
  for (const std::string& text : hints) hint(text);
  return false;
}

bool CaseContext::read_text(const Run& run, const std::string& name, std::string& text) {
  if (!find_text(run, name, text)) {
    fail("the program reported no text '" + name + "'");
    return false;
  }
  return true;
}

bool CaseContext::find_text(const Run& run, const std::string& name, std::string& text) {
  auto found = run.results.records.find(name);
  if (found == run.results.records.end() || found->second.type != ValueType::i32) return false;
  const std::vector<std::int32_t> bytes = found->second.values<std::int32_t>();
  text.assign(bytes.begin(), bytes.end());
  return true;
}

void CaseContext::not_graded(const std::string& reason) {
  not_graded_ = true;
  lines_.clear();
  hints_.clear();
  add_line("not graded here: " + reason);
}

void CaseContext::hint(const std::string& text) {
  for (const std::string& known : hints_) {
    if (known == text) return;
  }
  hints_.push_back(text);
}

std::int64_t CaseContext::value_or(const Run& run, const std::string& name,
                                   std::int64_t fallback) const {
  auto found = run.results.records.find(name);
  if (found == run.results.records.end() || found->second.type != ValueType::i64 ||
      found->second.count != 1) {
    return fallback;
  }
  return found->second.values<std::int64_t>()[0];
}

void CaseContext::note_run(Run& run) {
  const ChildResult& c = run.child;
  if (c.timed_out || c.output_limit_hit || c.memory_limit_hit || (c.started && !c.exited)) {
    abnormal_ = true;
  }
  if (c.timed_out) ++timeouts_;
  if (c.memory_limit_hit) {
    fail("the program used more than " + std::to_string(options_.memory_limit_mb) +
         " MiB of host memory and was stopped");
    hint("a buffer sized with the wrong count, or an allocation inside a loop?");
  }
  if (c.output_limit_hit) {
    fail("the program printed more than " + std::to_string(c.output_bytes >> 20) +
         " MiB and was stopped");
    hint("printing inside a large loop or kernel? Print a summary instead.");
  }
  if (under_sanitizer() &&
      ((c.exited && c.exit_code == kSanitizerErrorExit) || sanitizer_found_errors(c.output))) {
    run.sanitizer_errors = true;
    fail("compute-sanitizer " + tool_ + " found errors:\n" +
         indent_excerpt(sanitizer_lines(c.output), 40));
    hint(sanitizer_hint(tool_));
  }
}

void CaseContext::note_stayed_busy(const Run& run) {
  const std::string what = "the program was still busy on the GPU " +
                           format_number(run.busy_grace_seconds) +
                           " s after writing its result (a kernel left running?) and was stopped";
  if (!under_sanitizer()) {
    note("note: " + what);
    return;
  }
  // Under the sanitizer every such case costs the grace and a new start of the tool:
  // it counts as a time-out, so that --stop-after-timeouts bounds them.
  abnormal_ = true;
  ++timeouts_;
  fail("compute-sanitizer could not check the program to its end: " + what);
  hint("every kernel a function launches must have finished when it returns: wait for it "
       "(a copy back, cudaDeviceSynchronize) or do not launch it.");
}

void CaseContext::add_line(const std::string& message) {
  std::size_t at = 0;
  while (at < message.size()) {
    std::size_t end = message.find('\n', at);
    if (end == std::string::npos) end = message.size();
    lines_ += "         " + message.substr(at, end - at) + "\n";
    at = end + 1;
  }
}

std::vector<std::string> CaseContext::case_words(
    const std::string& kind, const std::vector<std::pair<std::string, std::string>>& params,
    std::uint64_t seed) const {
  std::vector<std::string> words = {kCaseFlag, kind, kSeedFlag,
                                    std::to_string(seed != 0 ? seed : seed_)};
  for (const auto& [key, value] : params) {
    words.push_back(kParamFlag);
    words.push_back(key + "=" + value);
  }
  return words;
}

int visible_device_count(std::string& reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // The runtime says "insufficient driver" when there is no driver at all: tell the two
    // apart by loading the driver library, as tools/course_tools/student/cuda_device.py does.
    void* driver =
        status == cudaErrorInsufficientDriver ? dlopen("libcuda.so.1", RTLD_LAZY) : nullptr;
    if (status == cudaErrorInsufficientDriver && driver == nullptr) {
      reason = "no NVIDIA driver: libcuda.so.1 is not installed";
    } else if (status == cudaErrorNoDevice) {
      reason = "the NVIDIA driver sees no GPU (cudaErrorNoDevice; CUDA_VISIBLE_DEVICES?)";
    } else {
      reason = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    }
    if (driver != nullptr) dlclose(driver);
    return 0;
  }
  if (count == 0) reason = "the NVIDIA driver sees no GPU";
  return count;
}

bool write_summary(const std::string& path, const Exercise& exercise, const std::string& variant,
                   int score, int max_score, bool passed) {
  std::error_code ignored;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* summary = std::fopen(path.c_str(), "w");
  if (summary == nullptr) return false;
  std::fprintf(summary, "%s_%s\t%s\t%d\t%d\t%s\n", exercise.number.c_str(), exercise.name.c_str(),
               variant.c_str(), score, max_score, passed ? "PASS" : "FAIL");
  return std::fclose(summary) == 0;
}

bool prepare_confinement(Options& options, const std::string& scratch, std::string& error) {
  if (geteuid() != 0) {
    error = "--run-as needs the check to run as root";
    return false;
  }
  const passwd* user = getpwnam(options.run_as.c_str());
  if (user == nullptr) {
    error = "no user named '" + options.run_as + "'";
    return false;
  }
  if (user->pw_uid == 0) {
    error = "--run-as must name an unprivileged user";
    return false;
  }
  options.run_as_uid = user->pw_uid;
  options.run_as_gid = user->pw_gid;
  const std::string copy = scratch + "/program";
  std::error_code failed;
  std::filesystem::copy_file(options.program, copy, failed);
  if (failed || chmod(copy.c_str(), 0755) != 0 ||
      chown(scratch.c_str(), options.run_as_uid, options.run_as_gid) != 0) {
    error = "cannot prepare " + scratch + " for " + options.run_as;
    return false;
  }
  // The PTX that the build wrote beside the program (PTX_SOURCES; beside_program.hpp)
  // goes beside the copy, named after it, where the program looks for it.
  const std::filesystem::path original(options.program);
  const std::string prefix = original.filename().string() + ".";
  const std::filesystem::path folder =
      original.has_parent_path() ? original.parent_path() : std::filesystem::path(".");
  for (const auto& entry : std::filesystem::directory_iterator(folder, failed)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind(prefix, 0) != 0 ||
        entry.path().extension() != ".ptx") {
      continue;
    }
    const std::string target = copy + "." + name.substr(prefix.size());
    std::filesystem::copy_file(entry.path(), target, failed);
    if (failed || chmod(target.c_str(), 0644) != 0) break;
  }
  if (failed) {
    error = "cannot copy the PTX beside " + options.program + " into " + scratch;
    return false;
  }
  options.program = copy;
  // The student's shared library and the instructor-owned callers beside it (Python
  // scripts) are copied too: the confined caller reads them from the scratch folder.
  if (!options.library.empty()) {
    const std::string library_copy =
        scratch + "/" + std::filesystem::path(options.library).filename().string();
    std::filesystem::copy_file(options.library, library_copy, failed);
    if (failed || chmod(library_copy.c_str(), 0755) != 0) {
      error = "cannot copy the library " + options.library + " into " + scratch;
      return false;
    }
    options.library = library_copy;
  }
  if (!options.exercise_dir.empty()) {
    const std::string callers = scratch + "/exercise";
    std::filesystem::create_directory(callers, failed);
    for (const auto& entry : std::filesystem::directory_iterator(options.exercise_dir, failed)) {
      if (!entry.is_regular_file()) continue;
      const std::string target = callers + "/" + entry.path().filename().string();
      std::filesystem::copy_file(entry.path(), target, failed);
      if (failed || chmod(target.c_str(), 0644) != 0) break;
    }
    if (failed) {
      error = "cannot copy " + options.exercise_dir + " into " + scratch;
      return false;
    }
    options.exercise_dir = callers;
  }
  return true;
}

std::string case_block(const CaseOutcome& outcome) {
  const Case& c = *outcome.c;
  const CaseContext& context = *outcome.context;
  char points[32];
  if (context.is_not_graded()) {
    std::snprintf(points, sizeof points, "SKIP   -/%-3d", c.points);
  } else {
    const bool ok = context.passed();
    std::snprintf(points, sizeof points, "%s %3d/%-3d", ok ? "PASS" : "FAIL", ok ? c.points : 0,
                  c.points);
  }
  char line[256];
  std::snprintf(line, sizeof line, "  %s %-34s (%.2f s)\n", points, c.name.c_str(),
                outcome.seconds);
  return line + context.report();
}

void judge_sanitizer_end(CaseContext& last, const ServerEnd& end, const CheckSession& session) {
  if (!end.was_running || !last.under_sanitizer()) return;
  if (!end.exited) {
    last.fail("compute-sanitizer could not check the program to its end: it did not end "
              "after its last case (a process or a kernel it left running?) and was stopped" +
              (end.output.empty() ? std::string()
                                  : ":\n" + indent_excerpt(sanitizer_lines(end.output), 20)));
    last.hint("every kernel a function launches must have finished when it returns, and the "
              "program must not leave processes behind.");
    return;
  }
  const bool errors = end.exit_code == kSanitizerErrorExit || sanitizer_found_errors(end.output);
  if (!errors || session.instance_flagged()) return;
  const bool memcheck = last.sanitizer_tool() == "memcheck";
  last.fail("compute-sanitizer " + last.sanitizer_tool() +
            " found errors, reported when the program ended after this case" +
            (memcheck ? " (leaks are reported then)" : "") + ":\n" +
            indent_excerpt(sanitizer_lines(end.output), 40));
  last.hint(memcheck ? "read the first error of compute-sanitizer's report: a leak names the "
                       "cudaMalloc whose cudaFree is missing."
                     : sanitizer_hint(last.sanitizer_tool()));
}

std::string exercise_json(const Exercise& exercise) {
  int total_points = 0;
  std::string cases;
  for (const Case& c : exercise.cases) {
    total_points += c.points;
    std::string bars;
    for (const SpeedBar& bar : c.bars) {
      bars += std::string(bars.empty() ? "" : ", ") + "{\"figure\": " + json_string(bar.figure) +
              ", \"kind\": " + (bar.kind == BarKind::at_least ? "\"at_least\"" : "\"at_most\"") +
              ", \"bar\": " + format_number(bar.bar) +
              ", \"reference\": " + json_string(bar.reference) + "}";
    }
    cases += std::string(cases.empty() ? "" : ",\n") + "    {\"name\": " + json_string(c.name) +
             ", \"points\": " + std::to_string(c.points) +
             ", \"hidden\": " + (c.hidden ? "true" : "false") +
             ", \"needs_gpu\": " + (c.needs_gpu ? "true" : "false") +
             ", \"judges_time\": " + (c.judges_time ? "true" : "false") +
             ", \"sanitizer_tool\": " + json_string(c.sanitizer_tool) + ", \"bars\": [" + bars +
             "]}";
  }
  return "{\n  \"number\": " + json_string(exercise.number) +
         ",\n  \"name\": " + json_string(exercise.name) +
         ",\n  \"points\": " + std::to_string(total_points) + ",\n  \"cases\": [\n" + cases +
         "\n  ]\n}\n";
}

int judge_main(int argc, char** argv, const Exercise& exercise) {
  Options options;
  std::string error;
  if (!parse_options(argc, argv, options, error)) {
    print_usage(exercise.number);
    if (error == "help") return kExitPass;
    std::fprintf(stderr, "check_%s: %s\n", exercise.number.c_str(), error.c_str());
    return kExitMisuse;
  }
  int total_points = 0;
  for (const Case& c : exercise.cases) total_points += c.points;
  if (options.list_json) {
    std::fputs(exercise_json(exercise).c_str(), stdout);
    return kExitPass;
  }
  if (options.list_only) {
    // Points first, in a column of their own: a long case name cannot shift them.
    for (const Case& c : exercise.cases) {
      std::printf("%3d %-6s %s%s%s\n", c.points, c.points == 1 ? "point" : "points", c.name.c_str(),
                  c.hidden ? " (hidden)" : "", c.needs_gpu ? "" : " (no GPU needed)");
    }
    std::printf("%3d %-6s total\n", total_points, total_points == 1 ? "point" : "points");
    return kExitPass;
  }
  if (options.declared_points >= 0 && options.declared_points != total_points) {
    std::fprintf(stderr,
                 "check_%s: CMake declares %d points but the cases add up to %d: update one\n",
                 exercise.number.c_str(), options.declared_points, total_points);
    return kExitMisuse;
  }
  for (const std::string& wanted : options.only_cases) {
    bool known = false;
    for (const Case& c : exercise.cases) known = known || c.name == wanted;
    if (!known) {
      std::fprintf(stderr, "check_%s: no case named '%s' (--list shows them)\n",
                   exercise.number.c_str(), wanted.c_str());
      return kExitMisuse;
    }
  }
  if (!is_executable(options.program)) {
    std::fprintf(stderr,
                 "check_%s: the program under test '%s' does not exist or cannot be run "
                 "(did it build?)\n",
                 exercise.number.c_str(), options.program.c_str());
    return kExitMisuse;
  }
  const std::string variant = options.variant.empty() ? options.program : options.variant;
  auto skip = [&](const std::string& why) {
    std::printf("SKIPPED: %s\n", why.c_str());
    if (!options.report_json_path.empty()) {
      write_report_json(options.report_json_path, exercise.number, exercise.name, variant,
                        options.seed, {}, why);
    }
    return kExitSkip;
  };
  auto selected = [&](const Case& c) {
    if (options.host_only && c.needs_gpu) return false;
    // CPU code alone gives compute-sanitizer nothing to check.
    if (options.sanitizer_requested && !c.needs_gpu) return false;
    if (options.only_cases.empty()) return true;
    for (const std::string& wanted : options.only_cases) {
      if (wanted == c.name) return true;
    }
    return false;
  };
  bool needs_gpu = false;
  int selected_cases = 0;
  for (const Case& c : exercise.cases) {
    if (!selected(c)) continue;
    ++selected_cases;
    needs_gpu = needs_gpu || (exercise.needs_gpu && c.needs_gpu);
  }
  if (selected_cases == 0) {
    std::fprintf(stderr, "check_%s: no case to run%s\n", exercise.number.c_str(),
                 options.host_only ? ": this exercise has no case that runs without a GPU" : "");
    return kExitMisuse;
  }
  std::string reason;
  const int devices = needs_gpu ? visible_device_count(reason) : 0;
  if (needs_gpu && devices == 0) {
    return skip("check " + exercise.number + " " + exercise.name +
                " needs a CUDA device, and this machine has none (" + reason + ")");
  }
  if (needs_gpu && devices < exercise.devices) {
    return skip("check " + exercise.number + " " + exercise.name + " needs " +
                std::to_string(exercise.devices) + " CUDA devices, and this machine has " +
                std::to_string(devices));
  }
  if (options.sanitizer_requested && options.sanitizer.empty()) {
    return skip("compute-sanitizer was not found on this machine");
  }

  // A confined program gets private, empty temporary folders: its scratch folder, which
  // the check must see too, lives under /run (root's) instead of /tmp.
  std::string scratch_template = "/tmp/course-check-XXXXXX";
  if (!options.run_as.empty()) scratch_template = "/run/course-check-XXXXXX";
  const char* scratch = mkdtemp(scratch_template.data());
  if (scratch == nullptr) {
    std::perror("mkdtemp");
    return kExitMisuse;
  }
  if (!options.run_as.empty() && !prepare_confinement(options, scratch, error)) {
    std::fprintf(stderr, "check_%s: %s\n", exercise.number.c_str(), error.c_str());
    std::filesystem::remove_all(scratch);
    return kExitMisuse;
  }
  std::printf("== check %s %s: %s, seed %llu%s%s ==\n", exercise.number.c_str(),
              exercise.name.c_str(), variant.c_str(), static_cast<unsigned long long>(options.seed),
              options.sanitizer_requested
                  ? (", under compute-sanitizer " + options.sanitizer_tool).c_str()
                  : "",
              options.host_only ? ", the cases that need no GPU" : "");
  if (needs_gpu) std::printf("[%s]\n", describe_device(query_device(0)).c_str());
  std::fflush(stdout);

  CheckSession session(options, scratch);
  session.on_server_end(
      [&](CaseContext& last, const ServerEnd& end) { judge_sanitizer_end(last, end, session); });
  // A case under compute-sanitizer may still inherit what the tool reports when its
  // program ends (after the next case has started, or after the last): the cases are
  // printed once every program has ended.
  bool print_at_end = false;
  for (const Case& c : exercise.cases) print_at_end = print_at_end || !tool_of(c, options).empty();
  if (session.gpu_lock_failed()) {
    std::fprintf(stderr, "check_%s: cannot open the GPU lock %s\n", exercise.number.c_str(),
                 options.gpu_lock_path.c_str());
    std::filesystem::remove_all(scratch);
    return kExitMisuse;
  }
  std::vector<CaseOutcome> outcomes;
  int timeouts = 0;
  // A self-test that expects a failure with given hints, and nothing about the score or
  // the runs, is proved as soon as a case failed and every hint was printed: the other
  // cases (a known-wrong variant's timed runs among them) would prove nothing more.
  const bool stops_when_proved =
      options.expect == "fail" && options.expect_score < 0 && !options.expect_clean;
  std::string report_so_far;
  bool failed_so_far = false;
  // Such a self-test runs the timed cases last: they hold the GPU alone, and the failure
  // it expects is most often found before them.
  std::vector<const Case*> order;
  for (const Case& c : exercise.cases) {
    if (selected(c) && !(stops_when_proved && c.judges_time)) order.push_back(&c);
  }
  for (const Case& c : exercise.cases) {
    if (selected(c) && stops_when_proved && c.judges_time) order.push_back(&c);
  }
  int cases_left = static_cast<int>(order.size());
  for (const Case* next : order) {
    const Case& c = *next;
    if (stops_when_proved && failed_so_far &&
        std::all_of(options.expect_hints.begin(), options.expect_hints.end(),
                    [&](const std::string& h) {
                      return report_so_far.find(h) != std::string::npos;
                    })) {
      std::printf("  (the %d case(s) left are not run: the check already fails with every "
                  "expected hint)\n",
                  cases_left);
      break;
    }
    --cases_left;
    const std::string tool = tool_of(c, options);
    CaseOutcome outcome{&c,
                        std::make_unique<CaseContext>(options, session, c.name,
                                                      derive_seed(options.seed, name_hash(c.name)),
                                                      scratch, gpu_use(c), tool)};
    CaseContext& context = *outcome.context;
    context.declare_bars(c.bars);
    outcome.run = options.stop_after_timeouts <= 0 || timeouts < options.stop_after_timeouts;
    session.use_tool(tool);
    WallTimer timer;
    if (outcome.run && !tool.empty() && options.sanitizer.empty()) {
      context.not_graded("compute-sanitizer not found: this case runs the program under "
                         "compute-sanitizer " +
                         tool + " (give its path with --compute-sanitizer PATH)");
    } else if (outcome.run) {
      c.body(context);
    } else {
      context.fail("not run: the program already exceeded its time limit " +
                   std::to_string(timeouts) + " times");
    }
    outcome.seconds = timer.elapsed_ms() / 1e3;
    if (!context.is_not_graded()) timeouts += context.timeouts();
    if (outcome.run) session.record_time(c.name, outcome.seconds);
    failed_so_far = failed_so_far || (!context.is_not_graded() && !context.passed());
    report_so_far += context.report();
    outcomes.push_back(std::move(outcome));
    if (!print_at_end) print_case(outcomes.back());
  }
  session.finish();
  if (print_at_end) {
    for (const CaseOutcome& outcome : outcomes) print_case(outcome);
  }
  std::filesystem::remove_all(scratch);
  if (!options.speed_record_path.empty()) {
    std::vector<std::string> timed_cases;
    std::vector<SpeedRecord> records;
    for (const CaseOutcome& outcome : outcomes) {
      if (!outcome.c->judges_time || outcome.context->under_sanitizer()) continue;
      timed_cases.push_back(outcome.c->name);
      const auto& judged = outcome.context->speed_records();
      records.insert(records.end(), judged.begin(), judged.end());
    }
    if (!write_speed_records(options.speed_record_path, timed_cases, records)) {
      std::fprintf(stderr, "check_%s: cannot write the speed records %s\n", exercise.number.c_str(),
                   options.speed_record_path.c_str());
      return kExitMisuse;
    }
  }
  if (!session.write_recorded_times()) {
    std::fprintf(stderr, "check_%s: cannot write the case times %s\n", exercise.number.c_str(),
                 options.record_times_path.c_str());
    return kExitMisuse;
  }

  int score = 0, max_score = 0, cases_run = 0, cases_passed = 0;
  int cases_not_graded = 0, points_not_graded = 0;
  bool any_abnormal = false;
  std::string full_report;
  std::vector<CaseReport> reports;
  for (const CaseOutcome& outcome : outcomes) {
    const Case& c = *outcome.c;
    const CaseContext& context = *outcome.context;
    // A case not graded here (a tool it needs is missing) is out of the score and its
    // maximum; the others count.
    const bool graded = !context.is_not_graded();
    const bool ok = graded && context.passed();
    if (graded) {
      ++cases_run;
      max_score += c.points;
      if (ok) {
        ++cases_passed;
        score += c.points;
      }
      any_abnormal = any_abnormal || context.abnormal();
    } else {
      ++cases_not_graded;
      points_not_graded += c.points;
    }
    full_report += case_block(outcome);
    reports.push_back(
        {c.name, c.points, ok, c.hidden, outcome.run && graded, outcome.seconds, context.report()});
  }

  const bool passed = cases_passed == cases_run;
  const char* verdict = passed ? "PASS" : "FAIL";
  if (cases_run == 0) verdict = "NOT GRADED";
  std::printf("score: %d/%d points, %d of %d cases passed: %s\n", score, max_score, cases_passed,
              cases_run, verdict);
  if (cases_not_graded > 0) {
    std::printf("SKIPPED: %d case(s) worth %d points could not run here and are not graded "
                "(see SKIP above)\n",
                cases_not_graded, points_not_graded);
  }
  if (!options.summary_path.empty() &&
      !write_summary(options.summary_path, exercise, variant, score, max_score, passed)) {
    std::fprintf(stderr, "check_%s: cannot write the summary file %s\n", exercise.number.c_str(),
                 options.summary_path.c_str());
    return kExitMisuse;
  }
  if (!options.report_json_path.empty() &&
      !write_report_json(options.report_json_path, exercise.number, exercise.name, variant,
                         options.seed, reports, "")) {
    std::fprintf(stderr, "check_%s: cannot write the report %s\n", exercise.number.c_str(),
                 options.report_json_path.c_str());
    return kExitMisuse;
  }
  // Nothing graded here (every case needs a missing tool): skipped, never passed.
  if (options.expect.empty()) {
    if (cases_run == 0 && cases_not_graded > 0) return kExitSkip;
    return passed ? kExitPass : kExitFail;
  }

  // Self-test mode: the verdict is compared with what CTest declared; a case not graded
  // here leaves it unproved (skipped), whatever the other cases gave.
  if (cases_not_graded > 0) {
    std::printf("SKIPPED: the expectation cannot be proved here: %d case(s) not graded\n",
                cases_not_graded);
    return kExitSkip;
  }
  std::vector<std::string> unmet;
  if ((options.expect == "pass") != passed)
    unmet.push_back("verdict " + std::string(passed ? "PASS" : "FAIL"));
  for (const std::string& h : options.expect_hints) {
    if (full_report.find(h) == std::string::npos) unmet.push_back("no hint containing '" + h + "'");
  }
  if (options.expect_score >= 0 && score != options.expect_score) {
    unmet.push_back("score " + std::to_string(score) + " instead of " +
                    std::to_string(options.expect_score));
  }
  if (options.expect_clean && any_abnormal)
    unmet.push_back("a run crashed, hung or flooded its output");
  if (unmet.empty()) {
    std::printf("expectation met: %s\n", options.expect == "pass" ? "passes" : "fails as declared");
    return kExitPass;
  }
  std::printf("EXPECTATION NOT MET (expected %s):\n", options.expect.c_str());
  for (const std::string& u : unmet) std::printf("  - %s\n", u.c_str());
  return kExitFail;
}

}  // namespace course::check
