"""Looks for everything the course needs before CMake runs, and installs what is missing
when that needs no question (the README's two commands, `make` and `make test`, start here).

    tools/course prerequisites            summary on stdout; exit 0 when every required one is found
    tools/course prerequisites --make     the same, but the summary goes to stderr and stdout holds
                                      one line only: "ok", or why make must stop (the Makefile
                                      prints that line through $(error), with no other noise)
    ... --report                      also matplotlib (python3-matplotlib), which make report's
                                      figures need (students never do)
    ... --slides                      also the decks' fonts (DejaVu Sans and Sans Mono, Debian's
                                      fonts-dejavu-core), which make slides needs: the theme names
                                      them, so every machine breaks the slides' lines alike

Required: CMake >= 3.25, a C++17 compiler (g++), nvcc (PATH or /usr/local/cuda/bin), OpenBLAS
(cblas.h and libopenblas.so, exercise 06), Python 3 and NumPy (exercise 08's Python caller).
Optional, named once in the summary: compute-sanitizer, Nsight Compute (ncu), the Slurm client
(sbatch), the slide tools (npm, which installs Marp into tools/marp; chromium for the PDFs;
pdfinfo from poppler-utils for their page counts), matplotlib (make report's figures).

A missing required package is installed with apt-get when this runs as root or `sudo -n true`
works, after saying what it installs and why; otherwise, or with COURSE_NO_INSTALL=1, it stops
with one line naming the packages and the command. Package names are Debian 12's and Ubuntu
22.04/24.04's (the same for these). Where another package manager holds apt's or dpkg's lock
(an unattended upgrade, a second terminal), it says so in one line and waits for it, at most
COURSE_APT_LOCK_SECONDS (default 300); apt-get itself waits as long (-o DPkg::Lock::Timeout).

For the course's own tests, which must not uninstall anything to prove the refusal:
    COURSE_PREREQ_LIB_DIRS, COURSE_PREREQ_INCLUDE_DIRS   where OpenBLAS is looked for (':' list)
    COURSE_PREREQ_PYTHONS                                interpreters tried for NumPy (':' list)
    COURSE_PREREQ_FONT_DIRS                              where the slides' fonts are looked for (':' list)
    COURSE_PREREQ_PRIVILEGE=root|sudo|none               act as if root, as a sudoer, or neither
    COURSE_PREREQ_APT_LOCKS                              the lock files waited for (':' list)
"""
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from course_tools.student import nvcc as nvcc_tool
from course_tools.student.paths import TOOLS

# The students' copy of the course (make release) has no benchmark report, whose figures
# alone need matplotlib.
REPORT_PRESENT = importlib.util.find_spec("course_tools.report") is not None

CUDA_BIN = "/usr/local/cuda/bin"
# Where `make slides` installs Marp (npm ci --prefix tools/marp).
MARP = os.path.join(TOOLS, "marp", "node_modules", ".bin", "marp")
CMAKE_MINIMUM = (3, 25)
CUDA_MAJOR = 13
CUDA_DOWNLOAD = "https://developer.nvidia.com/cuda-downloads"
# Ubuntu 22.04 ships CMake 3.22; these are the two ways to a newer one without building it.
NEWER_CMAKE = "python3 -m pip install --user 'cmake>=3.25' (or Kitware's APT repository, https://apt.kitware.com)"


class Item:
    """One prerequisite: what it is, its package (None: not from apt), why the course needs it."""

    def __init__(self, name, package, why, found=False, detail="", fix=""):
        self.name, self.package, self.why = name, package, why
        self.found, self.detail, self.fix = found, detail, fix


def run(command, **kwargs):
    """(status, output) of a short command; (None, reason) when it cannot start."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, **kwargs)
        return done.returncode, done.stdout + done.stderr
    except (OSError, subprocess.SubprocessError) as error:
        return None, str(error)


def version_of(text):
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(part) for part in match.groups() if part is not None) if match else ()


def dotted(version):
    return ".".join(str(part) for part in version)


def env_list(name, default):
    value = os.environ.get(name)
    return [part for part in value.split(":") if part] if value is not None else default


def apt_candidate(package):
    """The version apt would install, () when unknown (no apt, or no such package)."""
    status, output = run(["apt-cache", "policy", package])
    match = re.search(r"Candidate:\s*(?:\d+:)?(\S+)", output or "") if status == 0 else None
    return version_of(match.group(1)) if match and match.group(1) != "(none)" else ()


# --- the required ones ------------------------------------------------------------------

def find_cmake():
    item = Item("CMake >= 3.25", "cmake", "the instructor build and the tests")
    path = shutil.which("cmake")
    if path:
        version = version_of(run([path, "--version"])[1])
        item.detail = f"cmake {dotted(version)}"
        item.found = version >= CMAKE_MINIMUM
    # Ubuntu 22.04's package is too old: apt cannot help, say what can.
    candidate = apt_candidate("cmake")
    if not item.found and candidate and candidate < CMAKE_MINIMUM:
        item.package = None
        have = f"cmake {dotted(version)} is too old" if path else "cmake is missing"
        item.fix = f"{have} and this system's package is {dotted(candidate)}: {NEWER_CMAKE}"
    return item


def find_compiler():
    item = Item("a C++17 compiler (g++)", "g++", "the host code of every exercise")
    path = shutil.which("g++")
    if not path:
        return item
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "cxx17.cpp")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write("#include <optional>\nint main() { if constexpr (true) { return std::optional<int>(0).value(); } }\n")
        status, _ = run([path, "-std=c++17", source, "-o", os.path.join(scratch, "cxx17")])
    item.found = status == 0
    item.detail = "g++ " + dotted(version_of(run([path, "-dumpfullversion"])[1]))
    return item


def nvcc_path():
    return shutil.which("nvcc") or next(
        (p for p in [os.path.join(CUDA_BIN, "nvcc")] if os.access(p, os.X_OK)), None)


def find_nvcc():
    item = Item("nvcc (the CUDA toolkit)", None, "compiles every exercise",
                fix=f"install the CUDA {CUDA_MAJOR} toolkit ({CUDA_DOWNLOAD}) into /usr/local/cuda")
    path = nvcc_path()
    if path:
        release = re.search(r"release ([\d.]+)", run([path, "--version"])[1] or "")
        version = version_of(release.group(1)) if release else ()
        item.found = True
        item.detail = f"nvcc {dotted(version)} ({os.path.dirname(path)})"
        if version and version[0] < CUDA_MAJOR:
            item.detail += f": the course is made for CUDA {CUDA_MAJOR}, older toolkits are untested"
    return item


def multiarch_dirs(base):
    return sorted(glob.glob(os.path.join(base, "*-linux-gnu")))


def find_openblas():
    item = Item("OpenBLAS", "libopenblas-dev", "exercise 06's CPU SGEMM")
    lib_dirs = env_list("COURSE_PREREQ_LIB_DIRS", multiarch_dirs("/usr/lib") + [
        "/usr/lib", "/usr/lib64", "/usr/local/lib"] + env_list("LIBRARY_PATH", []))
    include_dirs = env_list("COURSE_PREREQ_INCLUDE_DIRS", multiarch_dirs("/usr/include") + [
        "/usr/include", "/usr/include/openblas", "/usr/local/include"] + env_list("CPATH", []))
    # The linker's -lopenblas and CMake's FindBLAS (BLA_VENDOR OpenBLAS) need this very name.
    library = any(os.path.exists(os.path.join(d, "libopenblas.so")) for d in lib_dirs)
    header = any(os.path.exists(os.path.join(d, "cblas.h")) for d in include_dirs)
    item.found = library and header
    if item.found:
        item.detail = "OpenBLAS"
    return item


def python_candidates():
    # The same order as exercise 08's check (python_with_numpy in its check.cpp).
    default = [c for c in [os.environ.get("COURSE_PYTHON"), "python3", "/usr/bin/python3",
                           "/usr/local/bin/python3"] if c]
    return env_list("COURSE_PREREQ_PYTHONS", default)


def find_python():
    item = Item("Python 3", "python3", "the course's tools")
    item.found = sys.version_info >= (3, 8)
    item.detail = f"Python {dotted(sys.version_info[:3])}"
    return item


def find_numpy():
    item = Item("NumPy", "python3-numpy", "exercise 08's Python caller")
    for candidate in python_candidates():
        status, output = run([candidate, "-c", "import numpy; print(numpy.__version__)"])
        if status == 0:
            item.found = True
            item.detail = f"NumPy {output.strip()} ({candidate})"
            break
    return item


def python_with_matplotlib(candidates=None):
    """An interpreter that imports matplotlib: this one, python3 on PATH, or Debian's
    /usr/bin/python3 (where python3-matplotlib installs it), or the first of `candidates`
    that does; None when none does."""
    if candidates is None:
        candidates = [sys.executable, shutil.which("python3"), "/usr/bin/python3"]
    for candidate in dict.fromkeys(c for c in candidates if c):
        try:
            done = subprocess.run([candidate, "-c", "import matplotlib"], capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return candidate
    return None


def find_matplotlib():
    item = Item("matplotlib", "python3-matplotlib", "the figures of make report")
    python = python_with_matplotlib(env_list("COURSE_PREREQ_PYTHONS", None))
    if python:
        item.found = True
        item.detail = f"matplotlib ({python})"
    return item


# The fonts tools/marp/course.css names; chromium takes another where they are missing, and
# the lines of a slide break elsewhere (a slide that fits here would not there).
SLIDE_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSansMono.ttf")
FONT_FOLDERS = ("/usr/share/fonts", "/usr/local/share/fonts")


def find_slide_fonts():
    item = Item("the slides' fonts", "fonts-dejavu-core", "the decks' type (DejaVu Sans, DejaVu Sans Mono)")
    folders = env_list("COURSE_PREREQ_FONT_DIRS", FONT_FOLDERS)
    found = [name for name in SLIDE_FONT_FILES
             if any(glob.glob(os.path.join(folder, "**", name), recursive=True) for folder in folders)]
    if len(found) == len(SLIDE_FONT_FILES):
        item.found = True
        item.detail = "DejaVu fonts"
    return item


REQUIRED = [find_cmake, find_compiler, find_nvcc, find_openblas, find_python, find_numpy]


# --- the optional ones: named once, never a failure -------------------------------------

def optional_missing():
    cuda_bins = [CUDA_BIN]
    nvcc = nvcc_path()
    if nvcc:
        cuda_bins.insert(0, os.path.dirname(nvcc))

    def present(command, extra_dirs=()):
        return shutil.which(command) or any(
            os.access(os.path.join(d, command), os.X_OK) for d in extra_dirs)

    sanitizer_dirs = cuda_bins + [os.path.join(d, "..", "compute-sanitizer") for d in cuda_bins]
    checks = [
        (present("compute-sanitizer", sanitizer_dirs),
         "compute-sanitizer: not found, its tests report skipped"),
        (present("ncu", cuda_bins),
         "Nsight Compute (ncu): not found, exercise 07 grades its coalescing case by timing"),
        (present("sbatch"),
         "Slurm client (sbatch): not found, make submit-NN works on a cluster's login node; the Slurm tests report skipped"),
        # Found where cmake/Nccl.cmake and tools/course_tools/student/nvcc.py look (the toolkit, the system, the
        # pip wheel nvidia-nccl-cu13); the packages come from NVIDIA's CUDA repository.
        (nvcc_tool.nccl_folders() is not None,
         "NCCL (libnccl-dev, libnccl2 from NVIDIA's CUDA repository, or pip's nvidia-nccl-cu13): "
         "not found, exercise 25 (two GPUs) reports skipped"),
        (present("mpicxx") and present("mpirun"),
         "MPI (openmpi-bin, libopenmpi-dev): not found, exercise 25's program of one process per "
         "GPU (ex25_ranks) is not built"),
    ]
    if REPORT_PRESENT:
        checks.append((python_with_matplotlib(),
                       "matplotlib (python3-matplotlib): not found, needed only for make report's figures"))
    messages = [message for found, message in checks if not found]
    # The slides (make slides): Marp comes from npm, PDFs from chromium, their checks from pdfinfo.
    slide_tools = [(os.access(MARP, os.X_OK) or present("npm"), "npm", "npm"),
                   (present("chromium") or present("chromium-browser"), "chromium", "chromium"),
                   (present("pdfinfo"), "pdfinfo", "poppler-utils")]
    absent = [(name, package) for found, name, package in slide_tools if not found]
    if absent:
        messages.append(f"slide tools ({', '.join(name for name, _ in absent)}): not found, needed only "
                        f"by make slides (without chromium: HTML only): apt-get install "
                        f"{' '.join(package for _, package in absent)}")
    return messages


# --- installing ---------------------------------------------------------------------------

def privilege():
    """root, sudo (sudo -n works: no password asked) or none."""
    forced = os.environ.get("COURSE_PREREQ_PRIVILEGE")
    if forced in ("root", "sudo", "none"):
        return forced
    if os.geteuid() == 0:
        return "root"
    if shutil.which("sudo") and run(["sudo", "-n", "true"])[0] == 0:
        return "sudo"
    return "none"


# What apt-get and dpkg lock while they work (fcntl locks, which /proc/locks lists).
APT_LOCKS = ("/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock", "/var/lib/apt/lists/lock",
             "/var/cache/apt/archives/lock")
APT_LOCK_SECONDS = 300


def lock_holder(paths):
    """(path, "name, process PID") of the first of `paths` another process locks, else None.
    Read from /proc/locks, which needs no permission on the lock files (sudo's case)."""
    try:
        with open("/proc/locks", encoding="utf-8") as handle:
            held = [line.split() for line in handle]
    except OSError:
        return None
    for path in paths:
        try:
            status = os.stat(path)
        except OSError:
            continue
        key = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
        for fields in held:
            # "1: POSIX  ADVISORY  WRITE 1234 fe:00:10955102 0 EOF" ("->" marks a waiter)
            if "->" in fields or key not in fields:
                continue
            pid = fields[fields.index(key) - 1]
            if pid == str(os.getpid()):
                continue
            try:
                with open(f"/proc/{pid}/comm", encoding="utf-8") as handle:
                    name = handle.read().strip()
            except OSError:
                name = "a process"
            return path, f"{name}, process {pid}"
    return None


def wait_for_package_manager(log):
    """Waits while another package manager holds apt's or dpkg's lock, saying so once; returns
    the seconds left to wait (for apt-get's own DPkg::Lock::Timeout), or the holder's
    description when the time ran out."""
    paths = [p for p in os.environ.get("COURSE_PREREQ_APT_LOCKS", "").split(":") if p] or APT_LOCKS
    seconds = int(os.environ.get("COURSE_APT_LOCK_SECONDS", APT_LOCK_SECONDS))
    deadline = time.monotonic() + seconds
    holder = lock_holder(paths)
    if holder:
        print(f"prerequisites: waiting for another package manager ({holder[1]} holds {holder[0]}), "
              f"at most {seconds} s (COURSE_APT_LOCK_SECONDS)", file=log, flush=True)
    while holder:
        if time.monotonic() >= deadline:
            return f"{holder[1]}, which held {holder[0]} for {seconds} s"
        time.sleep(0.5)
        holder = lock_holder(paths)
    return max(1, round(deadline - time.monotonic()))


def install(packages, how, log):
    """Installs `packages`; returns None when done, else the word of why not ("failed", or
    the package manager it waited for in vain)."""
    prefix = ["sudo", "-n"] if how == "sudo" else []
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    waited = wait_for_package_manager(log)
    if isinstance(waited, str):
        return waited
    # apt-get too waits for a lock taken meanwhile, as long as this was ready to wait.
    apt_get = ["apt-get", "-o", f"DPkg::Lock::Timeout={waited}"]
    # A fresh container has no package lists yet; apt-get's output goes where the summary goes.
    for command in (apt_get + ["update", "-qq"],
                    apt_get + ["install", "-y", "-qq", "--no-install-recommends"] + packages):
        full = prefix + (["env", "DEBIAN_FRONTEND=noninteractive"] if prefix else []) + command
        print("  " + " ".join(full), file=log, flush=True)
        try:
            if subprocess.run(full, stdout=log, stderr=log, env=environment).returncode != 0:
                return "failed"
        except OSError:
            return "failed"
    return None


def describe(items):
    return ", ".join(f"{i.name} ({i.package})" if i.package else i.name for i in items)


def stop_line(missing, how, busy=None):
    """The one line that says what is missing and the exact command that fixes it (once the
    package manager `busy` is done, where one kept the lock)."""
    packages = [i.package for i in missing if i.package]
    parts = []
    if packages:
        # No sudo in front of the command: on images without sudo it would fail with nothing said.
        as_who = "" if how == "root" else " as root, or with sudo"
        if shutil.which("apt-get"):
            fix = f"`apt-get install -y {' '.join(packages)}`{as_who}"
        else:
            fix = f"install {' '.join(packages)} (Debian/Ubuntu names) with this system's package manager{as_who}"
        parts.append(f"{describe([i for i in missing if i.package])}: run {fix}"
                     + (f" once the other package manager is done ({busy})" if busy else ""))
    parts += [f"{i.name}: {i.fix}" for i in missing if not i.package]
    return "missing prerequisites: " + "; ".join(parts) + "; then run make again"


def main(argv):
    make_mode = "--make" in argv[1:]
    if any(a not in ("--make", "--report", "--slides") for a in argv[1:]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    required = (REQUIRED + ([find_matplotlib] if "--report" in argv[1:] else [])
                + ([find_slide_fonts] if "--slides" in argv[1:] else []))
    log = sys.stderr if make_mode else sys.stdout
    items = [find() for find in required]
    missing = [i for i in items if not i.found]
    how = privilege()
    installable = [i for i in missing if i.package]
    may_install = (how != "none" and os.environ.get("COURSE_NO_INSTALL", "") in ("", "0")
                   and shutil.which("apt-get"))
    # Install only when that completes the set: half an installation helps nobody.
    if installable and len(installable) == len(missing) and may_install:
        as_who = "as root" if how == "root" else "with sudo"
        print(f"prerequisites: installing {', '.join(i.package for i in installable)} with apt-get "
              f"{as_who} ({'; '.join(f'{i.package}: {i.why}' for i in installable)}); "
              f"COURSE_NO_INSTALL=1 turns this off", file=log, flush=True)
        failure = install([i.package for i in installable], how, log)
        if failure and failure != "failed":
            line = stop_line(missing, how, busy=failure)
            print(line if make_mode else f"prerequisites: {line}", file=sys.stdout if make_mode else sys.stderr)
            return 1
        if failure:
            line = (f"installing {' '.join(i.package for i in installable)} with apt-get failed "
                    f"(its messages are above); install them yourself, then run make again")
            print(line if make_mode else f"prerequisites: {line}", file=sys.stdout if make_mode else sys.stderr)
            return 1
        items = [find() for find in required]
        missing = [i for i in items if not i.found]
    if missing:
        line = stop_line(missing, how)
        print(line if make_mode else f"prerequisites: {line}", file=sys.stdout if make_mode else sys.stderr)
        return 1
    print("prerequisites: " + ", ".join(i.detail for i in items), file=log)
    for message in optional_missing():
        print(f"  optional: {message}", file=log)
    if make_mode:
        print("ok")
    return 0
