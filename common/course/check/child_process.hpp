// Running a program under limits and collecting what it printed (Linux).
//
// The check runs code it does not trust: it may loop forever, print without end,
// fork without end, eat memory, crash, or go looking for files it must not see. The
// child gets its own process group (so that everything it started can be killed at
// once), no core dumps, a cap on the size of files it writes, a wall-clock limit, a
// cap on its output and on the memory of its process group, beyond which it is
// killed. When the check runs as root for a grader, the child can also be confined:
// paths hidden behind empty read-only mounts in a private mount namespace, a
// dedicated unprivileged user with a process limit, a clean environment; and every
// process of that user is killed when the run ends, including daemons that left the
// process group.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace course::check {

struct Confinement {
  uid_t uid = 0;                          // the unprivileged user the child runs as
  gid_t gid = 0;
  std::vector<std::string> hidden_paths;  // covered by empty read-only mounts
  // /tmp, /var/tmp and /dev/shm become private, empty and small: what the program
  // leaves there disappears with it, and it sees nobody else's temporary files.
  bool private_temporary_folders = true;
  std::string working_directory;          // where the child starts (kept visible)
  std::vector<std::string> environment;   // its whole environment, NAME=VALUE
  rlim_t process_limit = 256;             // RLIMIT_NPROC of the dedicated user
};

struct ChildLimits {
  double timeout_seconds = 20.0;
  std::size_t output_kept_bytes = 4u << 20;     // what the check may parse
  std::size_t output_limit_bytes = 64u << 20;   // beyond this the child is killed
  std::size_t file_size_limit_bytes = 1u << 30; // RLIMIT_FSIZE: also bounds the result file
  std::size_t memory_limit_bytes = 0;           // resident memory of the process group; 0: none
  std::optional<Confinement> confinement;       // only when the check runs as root
};

struct ChildResult {
  bool started = false;
  bool exited = false;   // ended by exit(); exit_code is valid
  int exit_code = -1;
  int signal = 0;        // ended by this signal (0 if it exited)
  bool timed_out = false;
  bool output_limit_hit = false;
  bool memory_limit_hit = false;
  std::size_t output_bytes = 0;  // everything it printed, kept or not
  std::size_t peak_memory_bytes = 0;
  std::string output;            // stdout and stderr, interleaved, first output_kept_bytes
  double seconds = 0.0;

  std::string describe_end() const {
    if (!started) return "could not be started";
    if (timed_out) return "was stopped: time limit exceeded";
    if (output_limit_hit) return "was stopped: output limit exceeded";
    if (memory_limit_hit) {
      return "was stopped: memory limit exceeded (" + std::to_string(peak_memory_bytes >> 20) +
             " MiB resident)";
    }
    if (exited) return "exited with status " + std::to_string(exit_code);
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
};

// Resident bytes of every process in process group `group`, from /proc.
inline std::size_t group_resident_bytes(pid_t group) {
  std::size_t total = 0;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return 0;
  static const long page = sysconf(_SC_PAGESIZE);
  while (dirent* entry = readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
    std::FILE* file = std::fopen(path, "r");
    if (file == nullptr) continue;
    char line[1024];
    const bool read = std::fgets(line, sizeof line, file) != nullptr;
    std::fclose(file);
    if (!read) continue;
    // The command name is in parentheses and may hold spaces: parse after the last ')'.
    // Fields 3 to 5 are state, ppid, pgrp; field 24 is the resident set in pages.
    const char* after_name = std::strrchr(line, ')');
    if (after_name == nullptr) continue;
    char state = 0;
    long parent = 0, process_group = 0;
    long long resident_pages = 0;
    int consumed = 0;
    if (std::sscanf(after_name + 1, " %c %ld %ld%n", &state, &parent, &process_group, &consumed) != 3) {
      continue;
    }
    // Fields 6 to 23 (session ... vsize), then 24: rss.
    const char* rest = after_name + 1 + consumed;
    bool parsed = true;
    for (int field = 6; field <= 24 && parsed; ++field) {
      int used = 0;
      long long value = 0;
      parsed = std::sscanf(rest, " %lld%n", &value, &used) == 1;
      rest += used;
      if (field == 24) resident_pages = value;
    }
    if (parsed && process_group == group && resident_pages > 0) {
      total += static_cast<std::size_t>(resident_pages) * static_cast<std::size_t>(page);
    }
  }
  closedir(proc);
  return total;
}

// Kills every process of `uid` (daemons that left the process group included), by
// sending SIGKILL to -1 from a helper process that has become that user.
inline void kill_all_processes_of(uid_t uid, gid_t gid) {
  const pid_t killer = fork();
  if (killer == 0) {
    if (setgid(gid) == 0 && setuid(uid) == 0) kill(-1, SIGKILL);
    _exit(0);
  }
  if (killer > 0) waitpid(killer, nullptr, 0);
}

namespace detail {

[[noreturn]] inline void child_fail(const std::string& what) {
  const std::string message = what + ": " + strerror(errno) + "\n";
  if (write(STDERR_FILENO, message.data(), message.size()) < 0) {}
  _exit(126);
}

// In the child, before exec: hides paths, drops privileges, chooses the environment.
// The working folder must lie outside the hidden and the temporary folders (the
// check puts it under /run when it confines).
inline void confine(const Confinement& c) {
  if (!c.hidden_paths.empty() || c.private_temporary_folders) {
    if (unshare(CLONE_NEWNS) != 0) child_fail("sandbox: unshare(CLONE_NEWNS)");
    // Our mounts must not leak back into the grader's namespace.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      child_fail("sandbox: making / private");
    }
    for (const std::string& path : c.hidden_paths) {
      if (access(path.c_str(), F_OK) != 0) continue;
      if (mount("course-hidden", path.c_str(), "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                "size=4k,mode=0555") != 0) {
        child_fail("sandbox: hiding " + path);
      }
    }
    if (c.private_temporary_folders) {
      for (const char* folder : {"/tmp", "/var/tmp", "/dev/shm"}) {
        if (access(folder, F_OK) != 0) continue;
        if (mount("course-tmp", folder, "tmpfs", MS_NOSUID | MS_NODEV, "size=512m,mode=1777") != 0) {
          child_fail(std::string("sandbox: a private ") + folder);
        }
      }
    }
  }
  if (!c.working_directory.empty() && chdir(c.working_directory.c_str()) != 0) {
    child_fail("sandbox: chdir " + c.working_directory);
  }
  if (setgroups(0, nullptr) != 0) child_fail("sandbox: setgroups");
  if (setgid(c.gid) != 0) child_fail("sandbox: setgid");
  const rlimit processes{c.process_limit, c.process_limit};
  setrlimit(RLIMIT_NPROC, &processes);
  if (setuid(c.uid) != 0) child_fail("sandbox: setuid");
  if (setuid(0) == 0) {  // must be impossible now
    errno = EPERM;
    child_fail("sandbox: privileges were not dropped");
  }
}

}  // namespace detail

// Reaps every child left (the orphans of the program, which come to us as their
// subreaper), waiting at most `patience` for the killed ones to die: an init that
// never reaps would otherwise collect a zombie for each process a fork bomb made.
inline void reap_orphans(std::chrono::milliseconds patience) {
  const auto give_up = std::chrono::steady_clock::now() + patience;
  while (true) {
    const pid_t reaped = waitpid(-1, nullptr, WNOHANG);
    if (reaped > 0) continue;
    if (reaped < 0 && errno == ECHILD) return;
    if (std::chrono::steady_clock::now() >= give_up) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// `environment` entries are NAME=VALUE strings added to (or replacing in) the
// current environment, or to the confinement's clean environment.
inline ChildResult run_child(const std::vector<std::string>& command,
                             const std::vector<std::string>& environment,
                             const ChildLimits& limits) {
  ChildResult result;
  if (command.empty()) return result;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return result;
  // Orphans of the program (daemons, a fork bomb's children) become ours to reap.
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // Built before fork: the child only calls async-signal-safe functions and exec.
  std::vector<std::string> child_environment;
  if (limits.confinement) {
    child_environment = limits.confinement->environment;
    for (const std::string& entry : environment) {
      const std::string name = entry.substr(0, entry.find('=') + 1);
      child_environment.erase(
          std::remove_if(child_environment.begin(), child_environment.end(),
                         [&](const std::string& e) { return e.compare(0, name.size(), name) == 0; }),
          child_environment.end());
      child_environment.push_back(entry);
    }
  }
  std::vector<char*> argv;
  for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const std::string& entry : child_environment) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

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
    if (limits.confinement) {
      detail::confine(*limits.confinement);
      execve(argv[0], argv.data(), envp.data());
    } else {
      for (const std::string& entry : environment) {
        const auto equals = entry.find('=');
        if (equals != std::string::npos) {
          setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
        }
      }
      execv(argv[0], argv.data());
    }
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
  auto keep = [&](const char* data, std::size_t size) {
    result.output_bytes += size;
    const std::size_t room =
        limits.output_kept_bytes - std::min(limits.output_kept_bytes, result.output.size());
    result.output.append(data, std::min(room, size));
  };
  bool pipe_open = true;
  bool reaped = false;
  int status = 0;
  char buffer[65536];
  auto next_memory_check = start;
  while (!reaped) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      result.timed_out = true;
      break;
    }
    if (limits.memory_limit_bytes > 0 && now >= next_memory_check) {
      next_memory_check = now + std::chrono::milliseconds(100);
      const std::size_t resident = group_resident_bytes(pid);
      result.peak_memory_bytes = std::max(result.peak_memory_bytes, resident);
      if (resident > limits.memory_limit_bytes) {
        result.memory_limit_hit = true;
        break;
      }
    }
    if (pipe_open) {
      const int wait_ms = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count());
      pollfd watch{pipe_fds[0], POLLIN, 0};
      poll(&watch, 1, std::min(wait_ms, 100));
      while (true) {
        const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
        if (got > 0) {
          keep(buffer, static_cast<std::size_t>(got));
          if (result.output_bytes > limits.output_limit_bytes) break;
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
  if (limits.confinement) kill_all_processes_of(limits.confinement->uid, limits.confinement->gid);
  reap_orphans(std::chrono::milliseconds(2000));
  // Drain what is left in the pipe (without blocking on grandchildren holding it).
  while (pipe_open) {
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    keep(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_fds[0]);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.timed_out && !result.output_limit_hit && !result.memory_limit_hit) {
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
