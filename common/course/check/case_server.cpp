// The check harness, the served program: one process that computes the check's cases one
// after another (declared in case_server.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/case_server.hpp"

namespace course::check {

ServedCase CaseServer::serve(const std::vector<std::string>& words, double timeout_seconds,
                             const std::function<void()>& go_alone) {
  ServedCase served;
  ChildResult& result = served.child;
  auto started = std::chrono::steady_clock::now();
  if (ahead_) {
    // Started by start_ahead(): how that went is this case's.
    started = ahead_->started;
    result = ahead_->result;
    const bool ready = ahead_->ready;
    ahead_.reset();
    if (!ready) return finish_case(served, started);
  } else if (!process_.running() && !start(result)) {
    return finish_case(served, started);
  }
  result.started = true;
  process_.reset_output_count();
  std::string request = kRequestWord;
  for (const std::string& word : words) request += "\t" + word;
  if (!process_.send_line(request)) {
    wait_for_end(result);
    return finish_case(served, started);
  }
  std::string line;
  if (!await(kWrittenReply, deadline_after(timeout_seconds), result, go_alone)) {
    return finish_case(served, started);
  }
  // The result is complete; the program must now let the GPU go idle, or be stopped.
  const ChildProcess::Event event = process_.pump(deadline_after(busy_grace_seconds_), true, line);
  if (event == ChildProcess::Event::line && line == kIdleReply) {
    result.exited = true;  // served to its end: what a one-shot run's exit(0) said
    result.exit_code = 0;
    return finish_case(served, started);
  }
  result.exited = true;
  result.exit_code = 0;
  if (event == ChildProcess::Event::timed_out) {
    served.stayed_busy = true;
    served.busy_grace_seconds = busy_grace_seconds_;
  }
  // "broken", an exit, or a program that stayed busy: the next case gets a new process.
  process_.end();
  return finish_case(served, started);
}

void CaseServer::start_ahead() {
  if (ahead_ || process_.running()) return;
  ahead_.emplace();
  ahead_->started = std::chrono::steady_clock::now();
  ahead_->ready = start(ahead_->result);
}

ServerEnd CaseServer::finish(double grace) {
  ServerEnd end;
  if (!process_.running()) {
    process_.end();
    return end;
  }
  end.was_running = true;
  process_.close_control();
  process_.reset_output_count();
  std::string unused;
  const ChildProcess::Event event = process_.pump(deadline_after(grace), false, unused);
  if (event == ChildProcess::Event::exited && process_.exited_normally()) {
    end.exited = true;
    end.exit_code = process_.exit_code();
  }
  process_.end();
  end.output = process_.take_output();
  return end;
}

bool CaseServer::start(ChildResult& result) {
  if (!process_.start(command_, environment_, limits_, true)) return false;
  result.started = true;
  if (await(kReadyReply, deadline_after(startup_seconds_), result)) return true;
  return false;
}

bool CaseServer::await(const std::string& word, std::chrono::steady_clock::time_point deadline,
                       ChildResult& result, const std::function<void()>& go_alone) {
  std::string line;
  while (true) {
    const ChildProcess::Event event = process_.pump(deadline, true, line);
    switch (event) {
      case ChildProcess::Event::line:
        if (line == word) return true;
        if (line == kAloneRequest) {
          const auto asked = std::chrono::steady_clock::now();
          if (go_alone) go_alone();
          deadline += std::chrono::steady_clock::now() - asked;
          if (!process_.send_line(kGoReply)) {
            wait_for_end(result);
            return false;
          }
          continue;
        }
        if (line.compare(0, std::string(kBrokenReply).size(), kBrokenReply) == 0) {
          wait_for_end(result);
          return false;
        }
        continue;
      case ChildProcess::Event::exited:
        record_exit(result);
        process_.end();
        return false;
      case ChildProcess::Event::timed_out: result.timed_out = true; break;
      case ChildProcess::Event::output_limit: result.output_limit_hit = true; break;
      case ChildProcess::Event::memory_limit: result.memory_limit_hit = true; break;
    }
    process_.end();
    return false;
  }
}

void CaseServer::wait_for_end(ChildResult& result) {
  std::string unused;
  if (process_.pump(deadline_after(kEndingSeconds), false, unused) == ChildProcess::Event::exited) {
    record_exit(result);
  }
  process_.end();
}

ServedCase& CaseServer::finish_case(ServedCase& served,
                                    std::chrono::steady_clock::time_point started) {
  ChildResult& result = served.child;
  result.output = process_.take_output();
  result.output_bytes = process_.output_bytes();
  result.peak_memory_bytes = process_.peak_memory_bytes();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return served;
}

}  // namespace course::check
