// The check harness, one check run's session: the served program, the sanitizer, the GPU
// lock, the limits (declared in session.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/session.hpp"

namespace course::check {

bool sanitizer_found_errors(const std::string& output) {
  static const char* const kErrorStarts[] = {"Invalid ",     "Program hit",  "Leaked ",
                                             "Error",        "Malloc",       "Free ",
                                             "Out-of-range", "Misaligned",   "Uninitialized",
                                             "Barrier",      "Race ",        "Warning: Race",
                                             "Hazard",       "Unused memory"};
  const std::string prefix = std::string(kSanitizerLinePrefix) + " ";
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    if (output.compare(at, prefix.size(), prefix) == 0) {
      const std::string text = output.substr(at + prefix.size(), end - at - prefix.size());
      for (const char* start : kErrorStarts) {
        if (text.compare(0, std::string(start).size(), start) == 0) return true;
      }
      if (text.compare(0, 15, "ERROR SUMMARY: ") == 0 && text.compare(15, 8, "0 errors") != 0) {
        return true;
      }
    }
    at = end + 1;
  }
  return false;
}

std::string sanitizer_lines(const std::string& output) {
  std::string lines;
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    if (output.compare(at, std::strlen(kSanitizerLinePrefix), kSanitizerLinePrefix) == 0) {
      lines += output.substr(at, end - at) + "\n";
    }
    at = end + 1;
  }
  return lines.empty() ? output : lines;
}

double CheckSession::limit_for(const std::string& case_name, double requested) const {
  const double scale = options_.timeout_scale;
  if (!under_sanitizer()) return requested * scale;
  const auto plain = plain_seconds_.find(case_name);
  if (plain == plain_seconds_.end()) return requested * kSanitizerTimeoutScale * scale;
  return std::max(kSanitizerMinimumSeconds, kSanitizerSlowdown * plain->second) * scale;
}

ChildResult CheckSession::run_once(const std::vector<std::string>& command,
                                   const std::vector<std::string>& environment,
                                   double limit_seconds, GpuUse gpu_use,
                                   const std::string& case_name) {
  // The end of a run kills every descendant of the check: the served program must
  // not be among them, so it ends first (and starts again for the next served case).
  finish();
  std::vector<std::string> full = sanitizer_prefix();
  full.insert(full.end(), command.begin(), command.end());
  ChildLimits limits = base_limits();
  limits.timeout_seconds = limit_seconds;
  GpuLock::Hold hold = gpu_lock_.acquire(lock_mode(gpu_use), holder(case_name));
  return run_child(full, environment, limits);
}

Run CheckSession::serve(const std::vector<std::string>& words, double limit_seconds, GpuUse gpu_use,
                        const std::string& case_name) {
  if (!server_) {
    std::vector<std::string> command = sanitizer_prefix();
    command.push_back(options_.program);
    const double scale = options_.timeout_scale;
    server_ = std::make_unique<CaseServer>(
        command, std::vector<std::string>{std::string(kResultFileVariable) + "=" + result_path()},
        base_limits(), (under_sanitizer() ? kSanitizerStartupSeconds : kStartupSeconds) * scale,
        (under_sanitizer() ? kSanitizerBusyGraceSeconds : kBusyGraceSeconds) * scale);
  }
  unlink(result_path().c_str());  // a case that ends early must not find the last one's
  server_->start_ahead();
  Run run;
  {
    // A timed case shares the GPU until its program starts to measure (gpu_lock.hpp).
    const GpuUse use = lock_mode(gpu_use);
    GpuLock::Hold hold =
        gpu_lock_.acquire(use == GpuUse::timed ? GpuUse::shared : use, holder(case_name));
    const auto go_alone = [&] {
      if (use == GpuUse::timed) hold.go_alone();
    };
    const ServedCase served = server_->serve(words, limit_seconds, go_alone);
    run.child = served.child;
    run.stayed_busy = served.stayed_busy;
    run.busy_grace_seconds = served.busy_grace_seconds;
  }
  if (!server_->running()) finish_ended_process();
  std::string data;
  if (read_file(result_path(), data)) run.results = parse_results(data);
  unlink(result_path().c_str());
  return run;
}

void CheckSession::finish() {
  if (!server_) return;
  const double grace = (under_sanitizer() ? kSanitizerFinishGraceSeconds : kFinishGraceSeconds) *
                       options_.timeout_scale;
  const ServerEnd end = server_->finish(grace);
  server_.reset();
  if (server_ended_ && last_served_ != nullptr) server_ended_(*last_served_, end);
  last_served_ = nullptr;
  instance_flagged_ = false;
}

bool CheckSession::write_recorded_times() const {
  if (options_.record_times_path.empty()) return true;
  std::error_code ignored;
  const std::filesystem::path parent =
      std::filesystem::path(options_.record_times_path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* file = std::fopen(options_.record_times_path.c_str(), "w");
  if (file == nullptr) return false;
  for (const auto& [name, seconds] : recorded_)
    std::fprintf(file, "%s\t%.3f\n", name.c_str(), seconds);
  return std::fclose(file) == 0;
}

ChildLimits CheckSession::base_limits() const {
  ChildLimits limits;
  limits.memory_limit_bytes = options_.memory_limit_mb << 20;
  if (!options_.run_as.empty()) limits.confinement = confinement();
  return limits;
}

std::vector<std::string> CheckSession::sanitizer_prefix() const {
  if (!under_sanitizer()) return {};
  // Only the program itself is instrumented: a process it leaves behind (a daemon)
  // must not keep the tool waiting.
  std::vector<std::string> prefix = {options_.sanitizer, "--tool", tool_, "--target-processes",
                                     "application-only"};
  // Leaks are memcheck's alone; the other tools watch shared memory, barriers and
  // uninitialised reads.
  if (tool_ == "memcheck") {
    prefix.insert(prefix.end(), {"--leak-check", "full", "--report-api-errors", "no"});
  }
  prefix.insert(prefix.end(),
                {"--error-exitcode", std::to_string(kSanitizerErrorExit), "--print-limit", "20"});
  return prefix;
}

Confinement CheckSession::confinement() const {
  Confinement c;
  c.uid = options_.run_as_uid;
  c.gid = options_.run_as_gid;
  c.shown_paths = options_.shown_paths;
  c.hidden_paths = options_.hidden_paths;
  c.working_directory = scratch_;
  c.environment = {"PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + scratch_,
                   "TMPDIR=" + scratch_, "LANG=C.UTF-8"};
  for (const char* passed : {"CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"}) {
    if (const char* value = std::getenv(passed))
      c.environment.push_back(std::string(passed) + "=" + value);
  }
  return c;
}

void CheckSession::read_plain_times() {
  if (options_.plain_times_path.empty()) return;
  std::FILE* file = std::fopen(options_.plain_times_path.c_str(), "r");
  if (file == nullptr) return;
  char line[512];
  while (std::fgets(line, sizeof line, file) != nullptr) {
    char* tab = std::strchr(line, '\t');
    if (tab == nullptr) continue;
    *tab = '\0';
    const double seconds = std::atof(tab + 1);
    if (seconds > 0.0) plain_seconds_[line] = seconds;
  }
  std::fclose(file);
}

}  // namespace course::check
