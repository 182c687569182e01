// Running a program under limits and collecting what it printed (Linux).
//
// The check runs code it does not trust: it may loop forever, print without end,
// fork without end, eat memory, crash, leave daemons behind, or go looking for files
// it must not see. The child gets its own process group, no core dumps, a cap on the
// size of files it writes, a wall-clock limit, a cap on its output and on the memory
// of its process group, beyond which it is killed. When the check runs as root for a
// grader, the child can also be confined: a private mount namespace that shows the
// system folders and what the run needs, and nothing else; a dedicated unprivileged
// user with a process limit; a clean environment. The grader's builds are confined by
// the same code (sandbox_main.cpp).
//
// When a child ends, for whatever reason, everything it started ends with it: the
// check is the subreaper of its children, so a process that left the child's process
// group or session (a double fork and setsid) is still its descendant, and is killed;
// so are the processes under a launcher such as compute-sanitizer, and with them any
// kernel they left running on the GPU.
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace course::check {

// What a confined child sees is an allow-list, not a deny-list: a copy of the course
// in a folder nobody thought of (another clone, /srv/course, a home of mode 755) would
// escape a list of paths to hide. Every top-level entry of / but the system folders is
// covered by an empty read-only mount, except that one which leads to a shown path shows
// that path's branch alone (/run shows the scratch folder and nothing else): MountPlan.
struct Confinement {
  uid_t uid = 0;  // the unprivileged user the child runs as
  gid_t gid = 0;
  // Kept visible besides the system folders and the working directory: the toolkit or
  // a Python outside /usr. "/" shows everything (the allow-list off: tests prove with
  // it that an attack works without it).
  std::vector<std::string> shown_paths;
  // Covered too, even inside a system folder (a course in /usr/local), unless it holds a
  // shown path or the working directory.
  std::vector<std::string> hidden_paths;
  // /tmp, /var/tmp and /dev/shm become private, empty and small: what the program
  // leaves there disappears with it, and it sees nobody else's temporary files.
  bool private_temporary_folders = true;
  std::string working_directory;         // where the child starts (kept visible)
  std::vector<std::string> environment;  // its whole environment, NAME=VALUE
  rlim_t process_limit = 256;            // RLIMIT_NPROC of the dedicated user
};

struct ChildLimits {
  double timeout_seconds = 20.0;
  std::size_t output_kept_bytes = 4u << 20;      // what the check may parse
  std::size_t output_limit_bytes = 64u << 20;    // beyond this the child is killed
  std::size_t file_size_limit_bytes = 1u << 30;  // RLIMIT_FSIZE: also bounds the result file
  std::size_t memory_limit_bytes = 0;            // resident memory of the process group; 0: none
  std::optional<Confinement> confinement;        // only when the check runs as root
};

struct ChildResult {
  bool started = false;
  bool exited = false;  // ended by exit(); exit_code is valid
  int exit_code = -1;
  int signal = 0;  // ended by this signal (0 if it exited)
  bool timed_out = false;
  bool output_limit_hit = false;
  bool memory_limit_hit = false;
  std::size_t output_bytes = 0;  // everything it printed, kept or not
  std::size_t peak_memory_bytes = 0;
  std::string output;  // stdout and stderr, interleaved, first output_kept_bytes
  double seconds = 0.0;

  std::string describe_end() const;
};

// ---------------------------------------------------------------------------
// The processes of this machine, from /proc
// ---------------------------------------------------------------------------

struct ProcessInfo {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t group = 0;
  char state = 0;  // 'Z' for a zombie: dead, waiting to be reaped
  long long resident_pages = 0;
};

// Every process's parent, group, state and resident set, from /proc/<pid>/stat.
std::vector<ProcessInfo> list_processes();

// Resident bytes of every process in process group `group`.
std::size_t group_resident_bytes(pid_t group);

// The children this process is running right now (ChildProcess registers each one while
// it runs): when one run ends, the processes of the others and their descendants are
// theirs, not leftovers of the run that ended.
inline std::set<pid_t>& running_children() {
  static std::set<pid_t> children;
  return children;
}

// The processes descended from `root`, except the subtrees of `spared`: the live ones,
// and the zombies among root's own children (dead, waiting for root to reap them).
void descendants_of(pid_t root, const std::set<pid_t>& spared, std::vector<pid_t>& live,
                    std::vector<pid_t>& zombie_children);

inline std::vector<pid_t> live_descendants_of(pid_t root) {
  std::vector<pid_t> live, zombies;
  descendants_of(root, {}, live, zombies);
  return live;
}

// Kills every process of `uid` (daemons that left the process group included), by
// sending SIGKILL to -1 from a helper process that has become that user.
void kill_all_processes_of(uid_t uid, gid_t gid);

// Kills every process descended from this one and reaps what comes back to us, for
// at most `patience`. The check is a subreaper (run_child and ChildProcess make it
// one), so that orphans of the program - a daemon that double-forked and called
// setsid, the target of a launcher - are reparented to it and stay in reach. SIGKILL
// cannot be ignored; a fork bomb's new children are found on the next pass.
// The children still running (running_children) and their descendants are spared: they
// belong to other runs, which end them in turn.
void end_descendants(std::chrono::milliseconds patience);

// ---------------------------------------------------------------------------
// The allow-list: what a confined child does not see
// ---------------------------------------------------------------------------

// The top-level folders of / that a confined child always sees: programs, libraries,
// the toolkit under /usr, the system's settings, devices (the GPU's), /proc and /sys.
bool is_system_folder(const std::string& name);

// True if `path` is `folder` or lies below it.
inline bool is_within(const std::string& path, const std::string& folder) {
  if (folder == "/") return true;
  return path.size() >= folder.size() && path.compare(0, folder.size(), folder) == 0 &&
         (path.size() == folder.size() || path[folder.size()] == '/');
}

// The mounts that confine a child, worked out before fork (the child only makes system
// calls). A top-level entry of / that leads to nothing kept is covered: a folder by an
// empty read-only tmpfs, anything else (a file, a socket) by /dev/null bound read-only
// and unopenable. One that leads to kept paths (/run, to a scratch folder) is rebuilt:
// an empty tmpfs replaces it, holding only the folders down to each kept path and the
// kept path itself, bound back from a descriptor opened before; then it becomes
// read-only. Nothing created in the meantime (another check's scratch folder) shows,
// and nothing removed in the meantime makes the child fail.
struct MountPlan {
  struct Cover {
    std::string path;
    bool folder = true;
  };
  struct Kept {
    std::string path;
    bool folder = true;
    std::vector<std::string> parents;  // below the rebuilt folder, outermost first
    int descriptor = -1;               // opened in the child before the rebuild
  };
  struct Rebuilt {
    std::string folder;  // a top-level folder of /, or a hidden folder holding a kept path
    std::vector<Kept> kept;
  };
  std::vector<Cover> covers;
  std::vector<Rebuilt> rebuilt;
  std::vector<std::string> hides;       // the explicit --hide paths that hold nothing kept
  std::vector<Rebuilt> hidden_rebuilt;  // those that do, emptied but for the kept paths
};

// The shown paths and the working directory, resolved (links followed), without those
// that do not exist.
std::vector<std::string> kept_paths(const Confinement& c);

// `folder` emptied but for the kept paths below it (none: nothing to rebuild).
MountPlan::Rebuilt rebuilt_folder(const std::string& folder, const std::vector<std::string>& kept);

MountPlan plan_mounts(const Confinement& c);

namespace detail {

[[noreturn]] inline void child_fail(const std::string& what) {
  const std::string message = what + ": " + strerror(errno) + "\n";
  if (write(STDERR_FILENO, message.data(), message.size()) < 0) {}
  _exit(126);
}

constexpr unsigned long kHiddenFlags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;

// Covers one path (in the child: system calls only). A path that vanished since the plan
// needs no cover.
void cover(const char* path, bool folder);

// Replaces `r.folder` by an empty read-only tmpfs that holds its kept paths alone.
void rebuild(MountPlan::Rebuilt& r);

// In the child, before exec: makes the mounts of `plan` (plan_mounts) in a private mount
// namespace, then the explicit hides, gives private temporary folders, drops privileges.
// The working folder must lie outside the temporary folders (the check puts it under
// /run when it confines).
void confine(const Confinement& c, MountPlan& plan);

}  // namespace detail

// ---------------------------------------------------------------------------
// A running child
// ---------------------------------------------------------------------------

// A child process under limits, with its output collected as it comes. With a control
// channel, the child also inherits one end of a socket as file descriptor
// kControlDescriptor, on which the check and the child exchange lines (case_server.hpp).
class ChildProcess {
 public:
  static constexpr int kControlDescriptor = 3;

  // What pump() stopped on.
  enum class Event { line, exited, timed_out, output_limit, memory_limit };

  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { end(); }

  // Starts `command` (its first word a path). `environment` entries are NAME=VALUE
  // strings added to (or replacing in) the current environment, or to the
  // confinement's clean one. False if it could not be started.
  bool start(const std::vector<std::string>& command, const std::vector<std::string>& environment,
             const ChildLimits& limits, bool with_control);

  bool running() const { return pid_ > 0 && !reaped_; }
  pid_t pid() const { return pid_; }

  // Collects output and watches the limits until the child exits, `deadline` passes,
  // or (when `want_line`) a whole line arrives on the control channel, returned in `line`.
  Event pump(std::chrono::steady_clock::time_point deadline, bool want_line, std::string& line);

  // Writes a line on the control channel; false if the child no longer reads it.
  bool send_line(const std::string& text);

  // Says the child will get no more requests: it sees the end of its control channel.
  void close_control() {
    if (control_fd_ >= 0) close(control_fd_);
    control_fd_ = -1;
  }

  // What it printed since the last call (at most the limits' kept bytes), and how much.
  std::string take_output() {
    std::string taken;
    taken.swap(output_);
    return taken;
  }
  std::size_t output_bytes() const { return output_bytes_; }
  void reset_output_count() { output_bytes_ = 0; }
  std::size_t peak_memory_bytes() const { return peak_memory_bytes_; }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at_).count();
  }

  // How it ended: valid once pump() returned Event::exited.
  bool exited_normally() const { return reaped_ && WIFEXITED(status_); }
  int exit_code() const { return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1; }
  int end_signal() const { return reaped_ && WIFSIGNALED(status_) ? WTERMSIG(status_) : 0; }

  // Ends the child and everything it started (its process group, every descendant of
  // the check, every process of the confined user), then keeps what is left of its
  // output. Safe to call more than once.
  void end();

 private:
  void keep(const char* data, std::size_t size);

  void read_output();

  void read_control();

  bool take_line(std::string& line);

  ChildLimits limits_;
  pid_t pid_ = -1;
  int output_fd_ = -1;
  int control_fd_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  std::string output_;
  std::string control_;
  std::size_t output_bytes_ = 0;
  std::size_t peak_memory_bytes_ = 0;
  std::chrono::steady_clock::time_point started_at_{};
  std::chrono::steady_clock::time_point next_memory_check_{};
};

inline std::chrono::steady_clock::time_point deadline_after(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

// Runs a command to its end (or its limits) and returns how it ended and what it printed.
ChildResult run_child(const std::vector<std::string>& command,
                      const std::vector<std::string>& environment, const ChildLimits& limits);

}  // namespace course::check
