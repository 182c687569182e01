// The check harness, running a child process under limits: its output, its end, its
// confinement (declared in child_process.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/child_process.hpp"

namespace course::check {

std::string ChildResult::describe_end() const {
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

std::vector<ProcessInfo> list_processes() {
  std::vector<ProcessInfo> processes;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return processes;
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
    ProcessInfo info;
    info.pid = static_cast<pid_t>(std::atol(entry->d_name));
    long parent = 0, group = 0;
    int consumed = 0;
    if (std::sscanf(after_name + 1, " %c %ld %ld%n", &info.state, &parent, &group, &consumed) !=
        3) {
      continue;
    }
    info.parent = static_cast<pid_t>(parent);
    info.group = static_cast<pid_t>(group);
    const char* rest = after_name + 1 + consumed;
    for (int field = 6; field <= 24; ++field) {
      int used = 0;
      long long value = 0;
      if (std::sscanf(rest, " %lld%n", &value, &used) != 1) break;
      rest += used;
      if (field == 24) info.resident_pages = value;
    }
    processes.push_back(info);
  }
  closedir(proc);
  return processes;
}

std::size_t group_resident_bytes(pid_t group) {
  static const long page = sysconf(_SC_PAGESIZE);
  std::size_t total = 0;
  for (const ProcessInfo& p : list_processes()) {
    if (p.group == group && p.resident_pages > 0) {
      total += static_cast<std::size_t>(p.resident_pages) * static_cast<std::size_t>(page);
    }
  }
  return total;
}

void descendants_of(pid_t root, const std::set<pid_t>& spared, std::vector<pid_t>& live,
                    std::vector<pid_t>& zombie_children) {
  const std::vector<ProcessInfo> processes = list_processes();
  std::multimap<pid_t, const ProcessInfo*> children;
  for (const ProcessInfo& p : processes) children.emplace(p.parent, &p);
  std::vector<pid_t> frontier = {root};
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    const auto range = children.equal_range(parent);
    for (auto it = range.first; it != range.second; ++it) {
      const ProcessInfo& child = *it->second;
      if (spared.count(child.pid) != 0) continue;
      frontier.push_back(child.pid);
      if (child.state != 'Z') {
        live.push_back(child.pid);
      } else if (parent == root) {
        zombie_children.push_back(child.pid);
      }
    }
  }
}

void kill_all_processes_of(uid_t uid, gid_t gid) {
  const pid_t killer = fork();
  if (killer == 0) {
    if (setgid(gid) == 0 && setuid(uid) == 0) kill(-1, SIGKILL);
    _exit(0);
  }
  if (killer > 0) waitpid(killer, nullptr, 0);
}

void end_descendants(std::chrono::milliseconds patience) {
  const auto give_up = std::chrono::steady_clock::now() + patience;
  while (true) {
    std::vector<pid_t> alive, zombies;
    descendants_of(getpid(), running_children(), alive, zombies);
    for (const pid_t pid : alive) kill(pid, SIGKILL);
    // Only the zombies found are reaped: waitpid(-1) could reap a running child's exit,
    // which its ChildProcess must see itself.
    for (const pid_t pid : zombies) waitpid(pid, nullptr, WNOHANG);
    if (alive.empty() || std::chrono::steady_clock::now() >= give_up) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

bool is_system_folder(const std::string& name) {
  for (const char* folder :
       {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "sys"}) {
    if (name == folder) return true;
  }
  return false;
}

std::vector<std::string> kept_paths(const Confinement& c) {
  std::vector<std::string> kept;
  std::vector<std::string> wanted = c.shown_paths;
  if (!c.working_directory.empty()) wanted.push_back(c.working_directory);
  for (const std::string& path : wanted) {
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) != nullptr &&
        std::find(kept.begin(), kept.end(), resolved) == kept.end()) {
      kept.emplace_back(resolved);
    }
  }
  return kept;
}

MountPlan::Rebuilt rebuilt_folder(const std::string& folder, const std::vector<std::string>& kept) {
  MountPlan::Rebuilt rebuilt{folder, {}};
  for (const std::string& k : kept) {
    if (k == folder || !is_within(k, folder)) continue;
    // One inside another kept path below `folder` comes with it.
    const bool comes_with_another =
        std::any_of(kept.begin(), kept.end(), [&](const std::string& o) {
          return o != k && o != folder && is_within(o, folder) && is_within(k, o);
        });
    if (comes_with_another) continue;
    struct stat status;
    if (stat(k.c_str(), &status) != 0) continue;
    MountPlan::Kept entry{k, S_ISDIR(status.st_mode), {}, -1};
    for (std::size_t slash = k.find('/', folder.size() + 1); slash != std::string::npos;
         slash = k.find('/', slash + 1)) {
      entry.parents.push_back(k.substr(0, slash));
    }
    rebuilt.kept.push_back(entry);
  }
  return rebuilt;
}

MountPlan plan_mounts(const Confinement& c) {
  MountPlan plan;
  const std::vector<std::string> kept = kept_paths(c);
  const bool everything_shown = std::find(kept.begin(), kept.end(), "/") != kept.end();
  if (!everything_shown) {
    DIR* root = opendir("/");
    std::vector<std::string> names;
    if (root != nullptr) {
      while (dirent* entry = readdir(root)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      closedir(root);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      const std::string top = "/" + name;
      // /tmp is replaced by a private one anyway; a link points to a covered or a system
      // folder.
      if (is_system_folder(name) || (c.private_temporary_folders && name == "tmp")) continue;
      if (std::find(kept.begin(), kept.end(), top) != kept.end()) continue;
      struct stat status;
      if (lstat(top.c_str(), &status) != 0 || S_ISLNK(status.st_mode)) continue;
      MountPlan::Rebuilt rebuilt = rebuilt_folder(top, kept);
      if (!rebuilt.kept.empty() && S_ISDIR(status.st_mode)) {
        plan.rebuilt.push_back(rebuilt);
      } else {
        plan.covers.push_back({top, S_ISDIR(status.st_mode)});
      }
    }
  }
  // A hidden folder that holds a kept path (the folder of all builds holds a build's own
  // tree; a Python inside a course in /usr/local) is rebuilt like an ancestor of /, after it.
  for (const std::string& path : c.hidden_paths) {
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) == nullptr) continue;
    MountPlan::Rebuilt rebuilt = rebuilt_folder(resolved, kept);
    struct stat status;
    const bool holds_kept = std::any_of(kept.begin(), kept.end(), [&](const std::string& k) {
      return is_within(k, resolved);
    });
    if (!holds_kept) {
      plan.hides.push_back(resolved);
    } else if (!rebuilt.kept.empty() && stat(resolved, &status) == 0 && S_ISDIR(status.st_mode)) {
      plan.hidden_rebuilt.push_back(rebuilt);
    }  // else it is a kept path itself: shown
  }
  return plan;
}

}  // namespace course::check

namespace course::check::detail {

void cover(const char* path, bool folder) {
  if (folder) {
    if (mount("course-hidden", path, "tmpfs", kHiddenFlags, "size=4k,mode=0555") != 0 &&
        errno != ENOENT) {
      child_fail(std::string("sandbox: hiding ") + path);
    }
    return;
  }
  if (mount("/dev/null", path, nullptr, MS_BIND, nullptr) != 0) {
    if (errno == ENOENT) return;
    child_fail(std::string("sandbox: hiding ") + path);
  }
  if (mount(nullptr, path, nullptr, MS_REMOUNT | MS_BIND | kHiddenFlags, nullptr) != 0) {
    child_fail(std::string("sandbox: hiding ") + path);
  }
}

void rebuild(MountPlan::Rebuilt& r) {
  for (MountPlan::Kept& k : r.kept) {
    k.descriptor = open(k.path.c_str(), O_PATH | O_CLOEXEC);
    if (k.descriptor < 0) child_fail("sandbox: opening " + k.path);
  }
  if (mount("course-hidden", r.folder.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
            "size=64k,mode=0755") != 0) {
    child_fail("sandbox: emptying " + r.folder);
  }
  for (MountPlan::Kept& k : r.kept) {
    for (const std::string& parent : k.parents) {
      if (mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) child_fail("sandbox: " + parent);
    }
    if (k.folder ? mkdir(k.path.c_str(), 0755) != 0
                 : close(open(k.path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) != 0) {
      child_fail("sandbox: making " + k.path);
    }
    char source[32] = "/proc/self/fd/";
    char digits[12];
    int length = 0;
    for (int n = k.descriptor; length == 0 || n > 0; n /= 10) digits[length++] = '0' + n % 10;
    char* end = source + 14;
    while (length > 0) *end++ = digits[--length];
    *end = '\0';
    if (mount(source, k.path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
      child_fail("sandbox: showing " + k.path);
    }
    close(k.descriptor);
  }
  if (mount("course-hidden", r.folder.c_str(), "tmpfs", MS_REMOUNT | kHiddenFlags,
            "size=64k,mode=0755") != 0) {
    child_fail("sandbox: making " + r.folder + " read-only");
  }
}

void confine(const Confinement& c, MountPlan& plan) {
  if (unshare(CLONE_NEWNS) != 0) child_fail("sandbox: unshare(CLONE_NEWNS)");
  // Our mounts must not leak back into the grader's namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    child_fail("sandbox: making / private");
  }
  for (const MountPlan::Cover& covered : plan.covers) {
    cover(covered.path.c_str(), covered.folder);
  }
  for (MountPlan::Rebuilt& rebuilt : plan.rebuilt) rebuild(rebuilt);
  // After the allow-list: a path it already hid no longer exists.
  for (const std::string& path : plan.hides) {
    struct stat status;
    if (lstat(path.c_str(), &status) != 0) continue;
    cover(path.c_str(), S_ISDIR(status.st_mode));
  }
  for (MountPlan::Rebuilt& rebuilt : plan.hidden_rebuilt) rebuild(rebuilt);
  if (c.private_temporary_folders) {
    // /var is covered unless shown: its tmp then does not exist, and is skipped.
    for (const char* folder : {"/tmp", "/var/tmp", "/dev/shm"}) {
      if (access(folder, F_OK) != 0) continue;
      if (mount("course-tmp", folder, "tmpfs", MS_NOSUID | MS_NODEV, "size=512m,mode=1777") != 0) {
        child_fail(std::string("sandbox: a private ") + folder);
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

}  // namespace course::check::detail

namespace course::check {

bool ChildProcess::start(const std::vector<std::string>& command,
                         const std::vector<std::string>& environment, const ChildLimits& limits,
                         bool with_control) {
  end();  // a previous run of this object, if any, is over
  limits_ = limits;
  reaped_ = false;
  status_ = 0;
  output_.clear();
  control_.clear();
  output_bytes_ = peak_memory_bytes_ = 0;
  if (command.empty()) return false;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return false;
  int control_fds[2] = {-1, -1};
  if (with_control && socketpair(AF_UNIX, SOCK_STREAM, 0, control_fds) != 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return false;
  }
  // Orphans of the program (daemons, a fork bomb's children) become ours to reap and end.
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // Built before fork: the child only calls async-signal-safe functions and exec.
  std::vector<std::string> child_environment;
  MountPlan plan;
  if (limits.confinement) {
    plan = plan_mounts(*limits.confinement);
    child_environment = limits.confinement->environment;
    for (const std::string& entry : environment) {
      const std::string name = entry.substr(0, entry.find('=') + 1);
      child_environment.erase(std::remove_if(child_environment.begin(), child_environment.end(),
                                             [&](const std::string& e) {
                                               return e.compare(0, name.size(), name) == 0;
                                             }),
                              child_environment.end());
      child_environment.push_back(entry);
    }
  }
  std::vector<char*> argv;
  for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const std::string& entry : child_environment)
    envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  started_at_ = std::chrono::steady_clock::now();
  pid_ = fork();
  if (pid_ < 0) {
    for (int fd : {pipe_fds[0], pipe_fds[1], control_fds[0], control_fds[1]}) {
      if (fd >= 0) close(fd);
    }
    pid_ = -1;
    return false;
  }
  if (pid_ == 0) {
    setpgid(0, 0);
    // The control end becomes descriptor 3 (the pipe's read end, the only lower
    // descriptor of ours, is not needed here), output goes to the pipe, and nothing
    // else of the check's is inherited: not its lock files, not the other ends.
    if (with_control && control_fds[1] != kControlDescriptor) {
      dup2(control_fds[1], kControlDescriptor);
    }
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    for (int fd = with_control ? kControlDescriptor + 1 : kControlDescriptor; fd < 1024; ++fd) {
      close(fd);
    }
    const int null_input = open("/dev/null", O_RDONLY);
    if (null_input >= 0) dup2(null_input, STDIN_FILENO);
    if (null_input > STDERR_FILENO && !(with_control && null_input == kControlDescriptor)) {
      close(null_input);
    }
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    const rlimit file_size{limits.file_size_limit_bytes, limits.file_size_limit_bytes};
    setrlimit(RLIMIT_FSIZE, &file_size);
    if (limits.confinement) {
      detail::confine(*limits.confinement, plan);
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
  setpgid(pid_, pid_);  // also here, so that the group exists before we might kill it
  running_children().insert(pid_);
  close(pipe_fds[1]);
  output_fd_ = pipe_fds[0];
  fcntl(output_fd_, F_SETFL, O_NONBLOCK);
  if (with_control) {
    close(control_fds[1]);
    control_fd_ = control_fds[0];
    fcntl(control_fd_, F_SETFL, O_NONBLOCK);
    fcntl(control_fd_, F_SETFD, FD_CLOEXEC);
  }
  fcntl(output_fd_, F_SETFD, FD_CLOEXEC);
  return true;
}

ChildProcess::Event ChildProcess::pump(std::chrono::steady_clock::time_point deadline,
                                       bool want_line, std::string& line) {
  while (true) {
    if (want_line && take_line(line)) return Event::line;
    if (reaped_) {
      read_output();  // what is left, without blocking on holders of the pipe
      return Event::exited;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return Event::timed_out;
    if (limits_.memory_limit_bytes > 0 && now >= next_memory_check_) {
      next_memory_check_ = now + std::chrono::milliseconds(100);
      const std::size_t resident = group_resident_bytes(pid_);
      peak_memory_bytes_ = std::max(peak_memory_bytes_, resident);
      if (resident > limits_.memory_limit_bytes) return Event::memory_limit;
    }
    pollfd watch[2];
    nfds_t count = 0;
    if (output_fd_ >= 0) watch[count++] = {output_fd_, POLLIN, 0};
    if (control_fd_ >= 0) watch[count++] = {control_fd_, POLLIN, 0};
    const long long left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    // While nothing is left to watch, wait a little for the exit.
    const int wait_ms = static_cast<int>(std::min<long long>(left_ms, count > 0 ? 100 : 5));
    if (count > 0) {
      poll(watch, count, wait_ms);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    }
    read_output();
    if (output_bytes_ > limits_.output_limit_bytes) return Event::output_limit;
    read_control();
    if (waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
  }
}

bool ChildProcess::send_line(const std::string& text) {
  if (control_fd_ < 0) return false;
  const std::string data = text + "\n";
  std::size_t sent = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (sent < data.size()) {
    const ssize_t wrote = send(control_fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (wrote > 0) {
      sent += static_cast<std::size_t>(wrote);
      continue;
    }
    if (wrote < 0 && errno != EAGAIN && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() >= give_up) return false;
    pollfd watch{control_fd_, POLLOUT, 0};
    poll(&watch, 1, 50);
  }
  return true;
}

void ChildProcess::end() {
  if (pid_ <= 0) return;
  running_children().erase(pid_);
  if (!reaped_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
    reaped_ = true;
  } else {
    kill(-pid_, SIGKILL);
  }
  if (limits_.confinement)
    kill_all_processes_of(limits_.confinement->uid, limits_.confinement->gid);
  end_descendants(std::chrono::milliseconds(2000));
  read_output();  // what is left, without blocking on holders of the pipe
  close_control();
  if (output_fd_ >= 0) close(output_fd_);
  output_fd_ = -1;
  pid_ = -1;
}

void ChildProcess::keep(const char* data, std::size_t size) {
  output_bytes_ += size;
  const std::size_t room =
      limits_.output_kept_bytes - std::min(limits_.output_kept_bytes, output_.size());
  output_.append(data, std::min(room, size));
}

void ChildProcess::read_output() {
  if (output_fd_ < 0) return;
  char buffer[65536];
  while (true) {
    const ssize_t got = read(output_fd_, buffer, sizeof buffer);
    if (got > 0) {
      keep(buffer, static_cast<std::size_t>(got));
      if (output_bytes_ > limits_.output_limit_bytes) return;
      continue;
    }
    if (got == 0) {  // every writer closed it
      close(output_fd_);
      output_fd_ = -1;
    }
    return;
  }
}

void ChildProcess::read_control() {
  if (control_fd_ < 0) return;
  char buffer[4096];
  while (true) {
    const ssize_t got = recv(control_fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (got > 0) {
      // A line longer than this is not the protocol's: keep it bounded.
      if (control_.size() < 65536) control_.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got == 0) close_control();
    return;
  }
}

bool ChildProcess::take_line(std::string& line) {
  const std::size_t end = control_.find('\n');
  if (end == std::string::npos) return false;
  line = control_.substr(0, end);
  control_.erase(0, end + 1);
  return true;
}

ChildResult run_child(const std::vector<std::string>& command,
                      const std::vector<std::string>& environment, const ChildLimits& limits) {
  ChildResult result;
  ChildProcess child;
  if (!child.start(command, environment, limits, false)) return result;
  result.started = true;
  std::string unused;
  const ChildProcess::Event event =
      child.pump(deadline_after(limits.timeout_seconds), false, unused);
  result.timed_out = event == ChildProcess::Event::timed_out;
  result.output_limit_hit = event == ChildProcess::Event::output_limit;
  result.memory_limit_hit = event == ChildProcess::Event::memory_limit;
  child.end();
  result.output = child.take_output();
  result.output_bytes = child.output_bytes();
  result.peak_memory_bytes = child.peak_memory_bytes();
  result.seconds = child.seconds();
  if (event == ChildProcess::Event::exited) {
    result.exited = child.exited_normally();
    result.exit_code = child.exit_code();
    result.signal = child.end_signal();
  }
  return result;
}

}  // namespace course::check
