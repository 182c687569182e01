// Running a program under limits and collecting what it printed (POSIX).
//
// The check runs code it does not trust: it may loop forever, print without end,
// fork, or crash. The child gets its own process group (so that everything it
// started can be killed at once), no core dumps, a cap on the size of files it
// writes, a wall-clock limit, and a cap on its output, beyond which it is killed.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace course::check {

struct ChildLimits {
  double timeout_seconds = 20.0;
  std::size_t output_kept_bytes = 4u << 20;     // what the check may parse
  std::size_t output_limit_bytes = 64u << 20;   // beyond this the child is killed
  std::size_t file_size_limit_bytes = 1u << 30; // RLIMIT_FSIZE: also bounds the result file
};

struct ChildResult {
  bool started = false;
  bool exited = false;   // ended by exit(); exit_code is valid
  int exit_code = -1;
  int signal = 0;        // ended by this signal (0 if it exited)
  bool timed_out = false;
  bool output_limit_hit = false;
  std::size_t output_bytes = 0;  // everything it printed, kept or not
  std::string output;            // stdout and stderr, interleaved, first output_kept_bytes
  double seconds = 0.0;

  std::string describe_end() const {
    if (!started) return "could not be started";
    if (timed_out) return "was stopped: time limit exceeded";
    if (output_limit_hit) return "was stopped: output limit exceeded";
    if (exited) return "exited with status " + std::to_string(exit_code);
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
};

// `environment` entries are NAME=VALUE strings added to (or replacing in) the
// current environment.
inline ChildResult run_child(const std::vector<std::string>& command,
                             const std::vector<std::string>& environment,
                             const ChildLimits& limits) {
  ChildResult result;
  if (command.empty()) return result;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return result;

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    const int null_input = open("/dev/null", O_RDONLY);
    if (null_input >= 0) dup2(null_input, STDIN_FILENO);
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    const rlimit file_size{limits.file_size_limit_bytes, limits.file_size_limit_bytes};
    setrlimit(RLIMIT_FSIZE, &file_size);
    for (const std::string& entry : environment) {
      const auto equals = entry.find('=');
      if (equals != std::string::npos) {
        setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
      }
    }
    std::vector<char*> argv;
    for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    const std::string message = "cannot execute " + command[0] + ": " + strerror(errno) + "\n";
    if (write(STDERR_FILENO, message.data(), message.size()) < 0) {}
    _exit(127);
  }
  result.started = true;
  setpgid(pid, pid);  // also here, so that the group exists before we might kill it
  close(pipe_fds[1]);
  fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);

  const auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(limits.timeout_seconds));
  bool pipe_open = true;
  bool reaped = false;
  int status = 0;
  char buffer[65536];
  while (!reaped) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      result.timed_out = true;
      break;
    }
    if (pipe_open) {
      const int wait_ms = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
      pollfd watch{pipe_fds[0], POLLIN, 0};
      poll(&watch, 1, std::min(wait_ms, 100));
      while (true) {
        const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
        if (got > 0) {
          result.output_bytes += static_cast<std::size_t>(got);
          const std::size_t room = limits.output_kept_bytes - std::min(limits.output_kept_bytes,
                                                                       result.output.size());
          result.output.append(buffer, std::min(room, static_cast<std::size_t>(got)));
          continue;
        }
        if (got == 0) pipe_open = false;  // every writer closed it
        break;
      }
      if (result.output_bytes > limits.output_limit_bytes) {
        result.output_limit_hit = true;
        break;
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (waitpid(pid, &status, WNOHANG) == pid) reaped = true;
  }
  // Whatever happened, nothing the child started may outlive the check.
  kill(-pid, SIGKILL);
  if (!reaped) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  // Drain what is left in the pipe (without blocking on grandchildren holding it).
  while (pipe_open) {
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    result.output_bytes += static_cast<std::size_t>(got);
    const std::size_t room =
        limits.output_kept_bytes - std::min(limits.output_kept_bytes, result.output.size());
    result.output.append(buffer, std::min(room, static_cast<std::size_t>(got)));
  }
  close(pipe_fds[0]);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.timed_out && !result.output_limit_hit) {
    if (WIFEXITED(status)) {
      result.exited = true;
      result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      result.signal = WTERMSIG(status);
    }
  }
  return result;
}

}  // namespace course::check
