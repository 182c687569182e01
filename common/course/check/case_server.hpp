// The check's side of a served program (protocol.hpp): one process of the program under
// test computes the check's cases one after the other, so that its start - above all
// the CUDA context, about 0.3 s of system time - is paid once per check instead of once
// per case. It is started again only when it must be: after a crash, a time-out, an
// exit in the middle of a case, a broken CUDA context, or a program still busy on the
// GPU once its result is written (a kernel it left running).
//
// What a case's run looks like to the check is unchanged (a ChildResult): its output is
// what the program printed while it computed that case, its end is "exited with status
// 0" when the case was served to its end, and how the program ended when it did not.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "course/check/child_process.hpp"
#include "course/check/protocol.hpp"

namespace course::check {

static_assert(ChildProcess::kControlDescriptor == kServeDescriptor,
              "the served program reads its requests where the check writes them");

// One case as the served program computed it.
struct ServedCase {
  ChildResult child;
  // The program was still busy on the GPU (a kernel running) after it wrote the result:
  // it was stopped after the grace given to it, and this says how long that was.
  bool stayed_busy = false;
  double busy_grace_seconds = 0.0;
};

// How a served program ended once it had no more requests.
struct ServerEnd {
  bool was_running = false;  // false: it had already ended (or never started)
  bool exited = false;       // it ended by itself within the grace
  int exit_code = -1;
  std::string output;  // what it printed after its last case
};

class CaseServer {
 public:
  // `command`: the launcher words (compute-sanitizer and its options, if any) and the
  // program; `environment` as for run_child. `startup_seconds` bounds the time to
  // "ready", `busy_grace_seconds` the time from "written" to "idle".
  CaseServer(std::vector<std::string> command, std::vector<std::string> environment,
             ChildLimits limits, double startup_seconds, double busy_grace_seconds)
      : command_(std::move(command)),
        environment_(std::move(environment)),
        limits_(std::move(limits)),
        startup_seconds_(startup_seconds),
        busy_grace_seconds_(busy_grace_seconds) {
    command_.push_back(kServeFlag);
  }

  // Computes one case: `words` as a one-shot run would take them on its command line;
  // the result file is the one the environment names. None may hold a tab or newline.
  // When the program asks for the GPU alone (protocol.hpp), `go_alone` runs (it may wait
  // for the GPU lock: that wait is not counted in the case's time limit), then the
  // program gets its "go".
  ServedCase serve(const std::vector<std::string>& words, double timeout_seconds,
                   const std::function<void()>& go_alone = {});

  // Starts the program, unless it runs, and waits for its "ready". The check calls this
  // before it takes the GPU lock for the next case, so that a start (above all the CUDA
  // context: seconds when many programs start at once) keeps no timed run waiting. What
  // the start showed (how it failed, what it printed) is the next case's.
  void start_ahead();

  // No more requests: the program ends by itself within `grace` (compute-sanitizer
  // prints its last reports then, and its exit status says whether it found errors),
  // or is ended, with everything it started.
  ServerEnd finish(double grace);

  // False once the program has ended (after a crash, a time-out, a stop), until the
  // next case starts it again.
  bool running() const { return process_.running(); }

  ~CaseServer() { process_.end(); }

 private:
  bool start(ChildResult& result);

  // Pumps until the reply `word`; otherwise records how the program ended in `result`
  // (and ends it). A request for the GPU alone runs `go_alone` and is answered, its wait
  // added to the deadline; other lines are not the protocol's: ignored.
  bool await(const std::string& word, std::chrono::steady_clock::time_point deadline,
             ChildResult& result, const std::function<void()>& go_alone = {});

  // The program stopped reading or said it is broken: it is ending by itself.
  void wait_for_end(ChildResult& result);

  void record_exit(ChildResult& result) {
    result.exited = process_.exited_normally();
    result.exit_code = process_.exit_code();
    result.signal = process_.end_signal();
  }

  ServedCase& finish_case(ServedCase& served, std::chrono::steady_clock::time_point started);

  // How long a program that stopped reading its requests may take to exit.
  static constexpr double kEndingSeconds = 2.0;

  std::vector<std::string> command_;
  std::vector<std::string> environment_;
  ChildLimits limits_;
  double startup_seconds_;
  double busy_grace_seconds_;
  ChildProcess process_;
  // A start made by start_ahead() that no case has reported yet.
  struct StartAhead {
    std::chrono::steady_clock::time_point started;
    ChildResult result;
    bool ready = false;
  };
  std::optional<StartAhead> ahead_;
};

}  // namespace course::check
