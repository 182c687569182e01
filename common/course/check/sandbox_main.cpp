// course_sandbox: runs one command confined as the check confines a student's program
// (child_process.hpp), for the grader's builds (tools/course_tools/grading/engine.py). A compiler
// reads student sources, and an `#include` of an absolute path (the reference solution,
// another student's file) must find nothing: the build sees the system folders, the
// toolkit, its own tree, and nothing else.
//
//   course_sandbox --run-as USER [--show PATH]... [--hide PATH]... -- COMMAND [ARGS]...
//
// Run as root, from the folder the command starts in (kept visible). It becomes the
// command (exec, no fork): its exit status and its end are the command's. Compiled by
// the grader like the checks (tools/course_tools/student/nvcc.py sandbox_command).
#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "course/check/child_process.hpp"

namespace {

int usage(const std::string& problem) {
  std::fprintf(
      stderr,
      "course_sandbox: %s\n"
      "usage: course_sandbox --run-as USER [--show PATH]... [--hide PATH]... -- COMMAND...\n"
      "  runs COMMAND as USER (the sandbox must run as root) with a clean environment,\n"
      "  in a private mount namespace that shows /bin /sbin /lib* /usr /etc /dev /proc\n"
      "  /sys, the current folder and the --show paths; every other folder is an empty\n"
      "  read-only folder, /tmp and /dev/shm are private and empty, and the --hide paths\n"
      "  are hidden even inside /usr\n",
      problem.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Confinement confinement;
  std::string user;
  int first = argc;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--") {
      first = i + 1;
      break;
    }
    if (i + 1 >= argc) return usage(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--run-as") {
      user = value;
    } else if (flag == "--show") {
      confinement.shown_paths.push_back(value);
    } else if (flag == "--hide") {
      confinement.hidden_paths.push_back(value);
    } else {
      return usage("unknown option " + flag);
    }
  }
  if (first >= argc) return usage("no command");
  if (user.empty()) return usage("--run-as is required");
  if (geteuid() != 0) return usage("it must run as root");
  const passwd* account = getpwnam(user.c_str());
  if (account == nullptr || account->pw_uid == 0) {
    return usage("'" + user + "' is not an unprivileged user");
  }
  confinement.uid = account->pw_uid;
  confinement.gid = account->pw_gid;
  char here[PATH_MAX];
  if (getcwd(here, sizeof here) == nullptr) return usage("no current folder");
  confinement.working_directory = here;
  // The compiler finds its host compiler and tools on PATH; the rest of the grader's
  // environment is not the build's business.
  confinement.environment = {"PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin",
                             std::string("HOME=") + here, "TMPDIR=/tmp", "LANG=C.UTF-8"};

  std::vector<char*> command(argv + first, argv + argc);
  command.push_back(nullptr);
  std::vector<char*> environment;
  for (std::string& entry : confinement.environment) environment.push_back(entry.data());
  environment.push_back(nullptr);
  course::check::MountPlan plan = course::check::plan_mounts(confinement);
  course::check::detail::confine(confinement, plan);
  // The command's first word is looked up on the build's PATH, as a shell would.
  execvpe(command[0], command.data(), environment.data());
  std::perror(("course_sandbox: cannot execute " + std::string(command[0])).c_str());
  return 127;
}
