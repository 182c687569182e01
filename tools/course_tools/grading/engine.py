"""Grading one submission: isolate it, build it, run its checks, record the result.

Each submission is built in a fresh copy of the course (common/ and exercises/, never
solutions/) into which only the declared student files are copied; anything else the
student changed is named in a warning and never used. The checks, which contain no
student code, are built once from the pristine course and run the student's programs
under limits (as an unprivileged user that sees the system folders, the toolkit and
its own files only, when the grader runs as root). The result is written atomically as
submissions/<student>.json (SCHEMA.md), so that an interrupted grading resumes.

A student's name is data: the submission is unpacked, built and run under a folder
named after a hash of it, so that nothing the student named reaches a shell, the
compiler's command line or the sandbox; the name appears only in the reports.
"""
import concurrent.futures
import contextlib
import datetime
import fcntl
import hashlib
import heapq
import itertools
import json
import os
import queue
import re
import secrets
import shlex
import shutil
import subprocess
import textwrap
import threading
import time
from dataclasses import dataclass, field

from course_tools.authoring import answers
from course_tools.grading import gpu, similarity, speed_credit, submissions
from course_tools.release import write as release_write
from course_tools.student import atomic_write
from course_tools.student import nvcc

SCHEMA_VERSION = 1
BUILD_LOG_LINES = 150
# Builds run at a lower priority than checks: a check's timed case has the GPU alone, but
# the CPU thread that enqueues its work must not wait for a core behind compilers (on the
# GPU suite's 16 cores, 17's and 23's stream pipelines lost their overlap that way).
BUILD_NICENESS = 10
CHECK_OUTPUT_BYTES = 20000
# What the item of a tool says when the tool found nothing.
SANITIZER_CLEAN = {
    "memcheck": "compute-sanitizer memcheck (leak check on) found no error in any case",
    "racecheck": "compute-sanitizer racecheck found no shared-memory hazard in any case",
    "synccheck": "compute-sanitizer synccheck found no invalid barrier use in any case",
}


def sanitizer_failure_texts(tool):
    """What the check writes under a case that compute-sanitizer `tool` flagged, or could
    not check to its end (common/course/check/judge.hpp)."""
    return (f"compute-sanitizer {tool} found errors", "compute-sanitizer could not")


EXIT_SKIP = 77
GPU_LOCK_FOLDER = "/tmp"
# Course files compared with a submission's copies (anything else is the student's own);
# only code and build files: a changed statement or note is nobody's concern.
COURSE_FOLDERS = ("common", "exercises", "cmake", "tools", "tests", "slurm")
COURSE_TOP_FILES = ("CMakeLists.txt", "CMakePresets.json", "Makefile")
COMPARED_SUFFIXES = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".c", ".cmake", ".txt", ".json", ".py", ".sh",
                     ".mutant", "Makefile")


# What a student's file has no reason to name: the check's own accounting, linked into the
# program beside it (common/course/check/: the launch and copy counts, the timed-call audit,
# the linker's wrappers). A file that names it can change what the check reads; the grader
# cannot tell a forged count from a true one, so it says so in the results.
CHECK_MACHINERY = re.compile(r'#\s*include\s*[<"][^>"]*course/check/[^>"]*[>"]|\bcourse::check\b|\b__(?:wrap|real)_\w+')


def reaches_into_the_check(path):
    """The distinct names of the check's machinery that the file at `path` uses (CHECK_MACHINERY)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    return sorted(set(CHECK_MACHINERY.findall(text)))[:3]


@dataclass
class Config:
    root: str                     # the instructor's repository
    results: str                  # the results folder
    seed: int
    exercises: list               # exercises.Exercise, in gradebook order
    arch: str
    # The language of the checks' messages, hence of the feedback pages: "en" or "fr"
    # (--feedback-lang, fixed with the seed at a results folder's first grading).
    feedback_lang: str = "en"
    timeout_scale: float = 1.0
    memory_limit_mb: int = 8192
    stop_after_timeouts: int = 2
    sanitizer: str = ""           # compute-sanitizer's path, or "" when absent
    sandbox_users: list = field(default_factory=list)  # one per slot; empty: no confinement (not root)
    # Confinement shows the system folders and what a run needs (an allow-list,
    # common/course/check/child_process.hpp); these are kept visible too (the toolkit or a
    # Python outside /usr), and the hidden ones are covered even inside /usr.
    shown_paths: list = field(default_factory=list)
    hidden_paths: list = field(default_factory=list)
    gpus: list = field(default_factory=list)  # CUDA_VISIBLE_DEVICES values, one per slot in turn
    cpu_only: bool = False        # build only: checks are recorded "skipped", for a GPU grading to complete
    git_head: bool = False        # a git repository is graded at its last commit, not its working tree
    site_bars: str = ""           # the site bars' file (make calibrate) the checks judge speed against; "": the course's
    # Bonus points per speed bar, scaled by the ratio to the reference on this GPU and kept
    # apart from the score (--speed-credit, fixed with the seed; 0: off; speed_credit.py).
    speed_credit: float = 0.0
    work_root: str = ""           # where submissions are unpacked and built (default: in the results)
    build_timeout: int = 300
    check_timeout: int = 3600
    # Builds and checks running at once, over all submissions: each takes a slot
    # (Slots; None: no limit).
    slots: object = None
    # The users that checks run student code as, one per check running (UserPool; None:
    # not confined). The sandbox_users above own each submission's files and builds.
    run_users: object = None
    # Threads a student's program may use for its CPU libraries (OpenBLAS, OpenMP).
    program_threads: int = 2

    @property
    def grader_dir(self):
        return os.path.join(self.results, ".grader")

    @property
    def work_dir(self):
        return self.work_root or os.path.join(self.grader_dir, "work")

    @property
    def build_cache(self):
        return os.path.join(self.grader_dir, "builds")


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_json_atomically(path, data):
    """A result file: whole, and on the disk before it replaces the old one (a grading
    resumes from these files after a crash)."""
    atomic_write.write_json(path, data, sort_keys=True, durable=True)


CONFIG_FILE = submissions.GRADER_SETTINGS  # also how a results folder is recognised


class SettingsError(Exception):
    """A results folder asked to continue a grading with other settings."""


def grading_settings(results, seed, requested, default, create=True, notes=None, feedback_lang=None,
                     speed_credit=None):
    """The seed, exercises, feedback language and speed credit of a results folder ({"seed",
    "exercises", "feedback_lang", "speed_credit"}), fixed at its first grading so that a rerun
    (or an array task) continues the same grading instead of mixing two (a folder from before
    the language or the credit was recorded is English, without credit). `requested` is None
    when the caller named no exercises, `feedback_lang` when it named no language, and
    `speed_credit` when it named no credit.
    An exercise listed twice (what `--exercises 03,03` left before duplicates were
    merged) is listed once, the file rewritten, and `notes` (a list) says so."""
    path = os.path.join(results, CONFIG_FILE)
    if requested is not None:
        requested = list(dict.fromkeys(requested))
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                stored = json.load(handle)
            if not isinstance(stored.get("seed"), int) or not isinstance(stored.get("exercises"), list):
                raise ValueError("no seed or no list of exercises")
        except (OSError, ValueError, AttributeError) as error:
            raise SettingsError(f"{path} cannot be read ({error}): remove it (the seed of the grading "
                                f"is lost with it) or use another results folder") from error
        merged = list(dict.fromkeys(stored["exercises"]))
        if merged != stored["exercises"]:
            stored["exercises"] = merged
            if create:
                write_json_atomically(path, stored)
            if notes is not None:
                notes.append(f"{path} listed an exercise twice: repaired, each is graded once "
                             f"({','.join(merged)})")
        if seed is not None and seed != stored["seed"]:
            raise SettingsError(f"{results} was graded with seed {stored['seed']}, not {seed}: "
                                f"use another results folder")
        if requested is not None and requested != stored["exercises"]:
            raise SettingsError(f"{results} was graded for exercises {','.join(stored['exercises'])}: "
                                f"use another results folder")
        stored.setdefault("feedback_lang", "en")
        if feedback_lang is not None and feedback_lang != stored["feedback_lang"]:
            raise SettingsError(f"{results} was graded with feedback in {stored['feedback_lang']!r}, not "
                                f"{feedback_lang!r}: use another results folder")
        stored.setdefault("speed_credit", 0)
        if speed_credit is not None and speed_credit != stored["speed_credit"]:
            raise SettingsError(f"{results} was graded with --speed-credit {stored['speed_credit']:g}, not "
                                f"{speed_credit:g}: use another results folder")
        return stored
    settings = {"seed": seed if seed is not None else secrets.randbits(62), "exercises": requested or default,
                "feedback_lang": feedback_lang or "en", "speed_credit": speed_credit or 0}
    if create:
        os.makedirs(results, exist_ok=True)
        os.chmod(results, 0o700)  # results and hidden cases are the instructor's alone
        write_json_atomically(path, settings)
    return settings


def needs_grading(path, cpu_only=False):
    """Whether the student whose result file is `path` must be graded (again) by this
    run: no result, a result that cannot be read (it is replaced), a submission that
    could not be read (retried: the instructor may have replaced it), or, unless this
    run is --cpu-only itself, an exercise that was skipped because its check could not
    run (no GPU): a grading on a GPU completes it without --regrade."""
    try:
        with open(path, encoding="utf-8") as handle:
            result = json.load(handle)
        statuses = {exercise.get("status") for exercise in result["exercises"]}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return True
    if "unreadable" in statuses:
        return True
    return "skipped" in statuses and not cpu_only


def work_name(student):
    """The neutral name of a student's folder under the grader's work folder."""
    return "s-" + hashlib.sha256(student.encode("utf-8", "surrogateescape")).hexdigest()[:16]


SANDBOX_LOCKS = "/tmp/course-sandbox-{}.lock"


def reserve_sandbox_users(count, limit=256):
    """Reserves `count` unprivileged users for student code, one per parallel slot, and
    creates them if needed. A user is never shared with another grading running on the
    same machine (a lock file each, held until this process ends): the check kills every
    process of its user after each run."""
    reserved = []
    for index in range(limit):
        if len(reserved) == count:
            break
        handle = open(SANDBOX_LOCKS.format(index), "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        name = f"course-sandbox-{index}"
        if subprocess.run(["id", "-u", name], capture_output=True).returncode != 0:
            created = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                      "--user-group", name], capture_output=True, text=True)
            if created.returncode != 0:
                raise RuntimeError(f"cannot create the sandbox user {name}: {created.stderr.strip()}")
        reserved.append((name, handle))
    if len(reserved) < count:
        raise RuntimeError(f"only {len(reserved)} sandbox users are free on this machine")
    return reserved


class UserPool:
    """Sandbox users lent to one check at a time: the check kills every process of its
    user when a run ends, so two checks running at once must never share one."""

    def __init__(self, names):
        self.free = queue.Queue()
        for name in names:
            self.free.put(name)

    @contextlib.contextmanager
    def lend(self):
        name = self.free.get()
        try:
            yield name
        finally:
            self.free.put(name)


class Slots:
    """The machine's slots for builds and checks, given to the longest work first.

    A submission's exercises are graded side by side and its grading ends with its longest
    exercise, so a slot that comes free goes to the waiting work of the exercise expected
    to take longest (priority), and among equals to the one that asked first. Handing
    slots out in arrival order let the longest exercise (21, under three sanitizer tools)
    start last and set the submission's time alone."""

    def __init__(self, count):
        self.free = count
        self.condition = threading.Condition()
        self.waiting = []  # a heap of (-priority, ticket)
        self.tickets = itertools.count()

    @contextlib.contextmanager
    def take(self, priority=0):
        with self.condition:
            mine = (-priority, next(self.tickets))
            heapq.heappush(self.waiting, mine)
            while not (self.free > 0 and self.waiting[0] == mine):
                self.condition.wait()
            heapq.heappop(self.waiting)
            self.free -= 1
            self.condition.notify_all()  # the next in line may take another free slot
        try:
            yield
        finally:
            with self.condition:
                self.free += 1
                self.condition.notify_all()


def expected_cost(exercise):
    """How long an exercise's grading is expected to take, as an order: more compute-sanitizer
    runs first, then the later exercises, whose checks are the longest (tools/course grade's
    time line and docs/instructors.md give the figures)."""
    return len(exercise.sanitizer_tools) * 100 + int(exercise.number)


@contextlib.contextmanager
def machine_slot(config, exercise):
    """One of the machine's slots for a build or a check of `exercise` (Config.slots)."""
    if config.slots is None:
        yield
        return
    with config.slots.take(expected_cost(exercise)):
        yield


class Phases:
    """Seconds spent per phase of grading (build, checks, sanitizer), summed over the
    exercises that ran them, whether or not they overlapped."""

    NAMES = ("build", "checks", "sanitizer")

    def __init__(self):
        self.seconds = {name: 0.0 for name in self.NAMES}
        self.lock = threading.Lock()

    @contextlib.contextmanager
    def timing(self, name):
        started = time.monotonic()
        try:
            yield
        finally:
            with self.lock:
                self.seconds[name] += time.monotonic() - started


# ---------------------------------------------------------------------------
# The course, built once
# ---------------------------------------------------------------------------
class Toolchain:
    """A pristine snapshot of the course, the checks built from it, and each exercise's
    instructor-owned files (the driver, C callers) compiled once to objects that every
    student's program links: a student's build then compiles the student's files only."""

    def __init__(self, config):
        self.config = config
        self.snapshot = os.path.join(config.grader_dir, "course")
        self.bin = os.path.join(config.grader_dir, "bin")

    def fingerprint(self):
        digest = hashlib.sha256(self.config.arch.encode())
        for folder in ("common", "exercises"):
            for relative in submissions.all_files(os.path.join(self.config.root, folder)):
                path = os.path.join(self.config.root, folder, relative)
                digest.update(relative.encode())
                digest.update(submissions.digest(path).encode())
        return digest.hexdigest()

    def check_path(self, exercise):
        return os.path.join(self.bin, f"check_{exercise.number}")

    @property
    def sandbox_path(self):
        """course_sandbox, which runs the builds confined (sandbox_main.cpp)."""
        return os.path.join(self.bin, "course_sandbox")

    @staticmethod
    def object_name(source):
        """The object of an instructor-owned source, relative to the tree's objects/NN_name/."""
        return os.path.splitext(os.path.basename(source))[0] + ".o"

    def instructor_files(self, exercise):
        return [f for f in exercise.program_files if f not in exercise.student_files]

    def prepare(self, log):
        os.makedirs(self.config.grader_dir, exist_ok=True)
        stamp = os.path.join(self.config.grader_dir, "course.stamp")
        fingerprint = self.fingerprint()
        self.fingerprint_value = fingerprint
        with open(os.path.join(self.config.grader_dir, "toolchain.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            # A --cpu-only grading never runs a check: it needs the snapshot alone.
            if os.path.exists(stamp) and open(stamp).read().strip() == fingerprint and os.path.exists(
                    self.sandbox_path) and (self.config.cpu_only or all(
                    os.path.exists(self.check_path(e)) for e in self.config.exercises)):
                return
            shutil.rmtree(self.snapshot, ignore_errors=True)
            shutil.rmtree(self.bin, ignore_errors=True)  # checks of another course state: never reused
            for folder in ("common", "exercises"):
                shutil.copytree(os.path.join(self.config.root, folder), os.path.join(self.snapshot, folder),
                                ignore=shutil.ignore_patterns("build", "__pycache__"))
            os.makedirs(self.bin, exist_ok=True)
            common = os.path.join(self.snapshot, "common")
            # Every grading needs it: a --cpu-only one builds confined too.
            commands = [("the build sandbox (course_sandbox)", nvcc.sandbox_command(common, self.sandbox_path))]
            # The harness every check links (course_check), compiled once: its objects first,
            # then its archive, then the checks (below).
            library_builds = [] if self.config.cpu_only else nvcc.check_library_builds(
                common, os.path.join(self.bin, "course_check"))
            if library_builds:
                os.makedirs(os.path.join(self.bin, "course_check"), exist_ok=True)
            library_objects = [(f"the check harness's {os.path.basename(inputs[0])}", command)
                               for command, _, inputs in library_builds[:-1]]
            checks = []
            for exercise in self.config.exercises:
                exercise_dir = os.path.join(self.snapshot, "exercises", exercise.id)
                # A --cpu-only grading builds the students' programs, never runs a check.
                if not self.config.cpu_only:
                    checks.append((f"the check of exercise {exercise.number}",
                                   nvcc.check_command(exercise, self.check_path(exercise), common,
                                                      exercise_dir, self.config.arch, library_builds[-1][1])))
                objects = os.path.join(self.snapshot, "objects", exercise.id)
                os.makedirs(objects, exist_ok=True)
                for source in self.instructor_files(exercise):
                    commands.append((f"{source} of exercise {exercise.number}",
                                     nvcc.object_command(exercise, os.path.join(exercise_dir, source),
                                                         os.path.join(objects, self.object_name(source)),
                                                         common, exercise_dir, self.config.arch)))
            log(f"building {len(library_builds) + len(commands) + len(checks)} checks and course objects, "
                f"{os.cpu_count() or 2} at a time")

            def build(item):
                what, command = item
                result = subprocess.run(command, capture_output=True, text=True, timeout=self.config.build_timeout)
                if result.returncode != 0:
                    raise RuntimeError(f"{what} does not build:\n" + result.stdout + result.stderr)

            with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
                # The harness's objects are queued first; the checks, once its archive is
                # made, queue behind what is left of the others.
                waiting = [pool.submit(build, item) for item in library_objects + commands]
                for future in waiting[:len(library_objects)]:
                    future.result()
                if library_builds:
                    build(("the check harness (course_check)", library_builds[-1][0]))
                waiting += [pool.submit(build, item) for item in checks]
                for future in waiting:
                    future.result()
            with open(stamp, "w") as handle:
                handle.write(fingerprint + "\n")


# ---------------------------------------------------------------------------
# One submission
# ---------------------------------------------------------------------------
def speed_record_path(report):
    """Where the check writes its speed records (--speed-record), beside its JSON report."""
    return os.path.splitext(report)[0] + ".speed"


def read_speed_records(path):
    """({case: [{"figure", "direction", "bar", "measured"}]}, the GPU the check ran on) of a
    check's speed records (common/course/check/speed_bar.cpp: a line 'gpu<TAB>name', then
    'speed<TAB>case<TAB>figure<TAB>at_least|at_most<TAB>bar<TAB>measured<TAB>margin' lines);
    ({}, "") where the check wrote none."""
    found, gpu_name = {}, ""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return found, gpu_name
    for line in lines:
        fields = line.split("\t")
        if len(fields) == 2 and fields[0] == "gpu":
            gpu_name = fields[1]
        if len(fields) != 7 or fields[0] != "speed":
            continue
        try:
            bar, measured = float(fields[4]), float(fields[5])
        except ValueError:
            continue
        found.setdefault(fields[1], []).append({"figure": fields[2], "direction": fields[3], "bar": bar,
                                                "measured": measured})
    return found, gpu_name


def course_files(root):
    """Relative path -> sha256 of every course file a student might have changed."""
    found = {}
    for folder in COURSE_FOLDERS:
        top = os.path.join(root, folder)
        if os.path.isdir(top):
            for relative in submissions.all_files(top):
                if relative.endswith(COMPARED_SUFFIXES):
                    found[os.path.join(folder, relative)] = None
    for name in COURSE_TOP_FILES:
        if os.path.isfile(os.path.join(root, name)):
            found[name] = None
    return found


class SubmissionGrader:
    def __init__(self, config, toolchain, course_index, student_file_paths):
        self.config = config
        self.toolchain = toolchain
        self.course_index = course_index            # relative path -> None (digest on demand)
        self.student_file_paths = student_file_paths  # exercises/NN/file.cu paths of student files
        self.turn = 0                                  # the GPUs' round-robin
        self.turn_lock = threading.Lock()
        self.keyed_locks = {}                          # cache key -> lock (keyed_lock)
        self.keyed_locks_lock = threading.Lock()
        self.references = {}                           # exercise id -> bar_references()
        # The reference figures of the speed credit (none where it is off).
        self.site_references = speed_credit.SiteReferences(config.site_bars if config.speed_credit else "")

    def course_digest(self, relative):
        """The digests a copy of the course file `relative` may have without being changed:
        the course's own, and the one the students' release ships (tools/course release
        filters Makefile, CMakePresets.json, the exercises' CMakeLists.txt...), computed by
        the release's own filter, so that a copy of the release is no changed course."""
        if self.course_index.get(relative) is None:
            path = os.path.join(self.config.root, relative)
            with open(path, "rb") as handle:
                data = handle.read()
            accepted = {hashlib.sha256(data).hexdigest()}
            try:
                shipped = release_write.filter_file(relative.replace(os.sep, "/"), data)
                accepted.add(hashlib.sha256(shipped).hexdigest())
            except Exception:  # a file the release would refuse ships nowhere: its own digest alone
                pass
            self.course_index[relative] = accepted
        return self.course_index[relative]

    def course_digest_of(self, relative):
        """The digest of the course's own copy of a file (a student file's skeleton, an
        answers file), or None where the course has none: of two copies a student handed
        in, the one equal to it is the one left untouched."""
        path = os.path.join(self.config.root, relative)
        return submissions.digest(path) if os.path.isfile(path) else None

    def ignored_changes(self, raw, files):
        """Warnings for course files the submission changed: they are never used."""
        warnings = []
        root = submissions.repository_root(raw, files)
        by_name = {}
        for relative in self.course_index:
            by_name.setdefault(os.path.basename(relative), []).append(relative)
        for found in files:
            normalized = found.replace(os.sep, "/")
            if root is not None and normalized.startswith(root):
                candidates = [normalized[len(root):]]
            else:
                candidates = by_name.get(os.path.basename(found), [])
            candidates = [c for c in candidates if c in self.course_index and c not in self.student_file_paths]
            if not candidates:
                continue
            mine = submissions.digest(os.path.join(raw, found))
            if all(mine not in self.course_digest(c) for c in candidates):
                course_copy = candidates[0] if len(candidates) == 1 else f"copies of {os.path.basename(found)}"
                warnings.append(f"{found}: differs from the course's {course_copy}: ignored "
                                f"(only the exercise files you edit are graded)")
        return warnings

    def grade(self, student, source, slot):
        started = time.monotonic()
        work = os.path.join(self.config.work_dir, work_name(student))  # never the name itself
        shutil.rmtree(work, ignore_errors=True)
        raw = os.path.join(work, "raw")
        result = {"schema": SCHEMA_VERSION, "student": student, "source": os.path.abspath(source),
                  "seed": self.config.seed, "graded_at": now_utc(), "warnings": [], "exercises": []}
        if self.config.cpu_only:
            result["cpu_only"] = True
        unreadable = ""
        graded_files = [name for exercise in self.config.exercises for name in exercise.student_files]
        try:
            result["warnings"] += submissions.unpack(source, raw, git_head=self.config.git_head,
                                                     student_files=graded_files)
            files = submissions.all_files(raw)
        except submissions.SubmissionError as error:
            unreadable = str(error)
            result["warnings"].append(unreadable)
            files = []
        if not files and not unreadable:
            result["warnings"].append("the submission holds no files")
        result["warnings"] += self.ignored_changes(raw, files)
        tree = os.path.join(work, "tree")
        shutil.copytree(self.toolchain.snapshot, tree)
        os.makedirs(os.path.join(work, "bin"))
        if self.config.sandbox_users:
            # The compiler runs as the slot's user too: the submission's files, the tree
            # and what gets built are that user's, and nobody else's.
            self.give_to(work, self.config.sandbox_users[slot])
        # The exercises are graded side by side, each taking a machine slot for its build
        # and for each of its checks (Config.slots); the checks share the GPU through its
        # lock, and only the cases whose time is judged have it alone.
        phases = Phases()
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(self.config.exercises) or 1) as pool:
            futures = [pool.submit(self.grade_exercise, exercise, raw, files, tree, work, slot,
                                   result["warnings"], phases) for exercise in self.config.exercises]
            result["exercises"] = [future.result() for future in futures]
        located_any = any(record["status"] != "missing" for record in result["exercises"])
        if unreadable:
            for record in result["exercises"]:
                record.update(status="unreadable", message=unreadable)
        result["phases"] = {name: round(seconds, 2) for name, seconds in phases.seconds.items()}
        if files and not located_any:
            result["warnings"].append("no file of any exercise was found in the submission "
                                      "(expected e.g. exercises/03_device_memory/device_memory.cu)")
        result["score"] = sum(e["score"] for e in result["exercises"])
        result["max_score"] = sum(e["max_score"] for e in result["exercises"])
        if self.config.speed_credit:
            # Beside the score, never in it.
            speed_credit.add_credit(result, self.config.speed_credit, self.site_references)
        # The warnings that may change the grade go to the instructor too (console, class.html).
        result["grade_warnings"] = [str(w) for w in result["warnings"] if isinstance(w, submissions.GradeWarning)]
        result["warnings"] = [str(w) for w in result["warnings"]]
        result["seconds"] = round(time.monotonic() - started, 2)
        # The files graded, kept for the class report's comparison of submissions (similarity.py).
        similarity.keep_sources(self.config.results, student, raw, result["exercises"])
        write_json_atomically(os.path.join(self.config.results, "submissions", f"{student}.json"), result)
        shutil.rmtree(work, ignore_errors=True)
        return result

    def grade_exercise(self, exercise, raw, files, tree, work, slot, warnings, phases):
        started = time.monotonic()
        record = {"number": exercise.number, "id": exercise.id, "title": exercise.name.replace("_", " "),
                  "status": "graded", "score": 0, "max_score": exercise.max_score,
                  "seconds": 0.0, "files": {}, "message": "", "build_log": "", "items": []}
        missing = []
        for wanted in exercise.student_files:
            skeleton = self.course_digest_of(os.path.join("exercises", exercise.id, wanted))
            try:
                found, notes = submissions.locate(raw, files, exercise.id, wanted, skeleton_digest=skeleton)
            except submissions.SubmissionError as error:
                record.update(status="incomplete", message=str(error))
                return record
            if found is None:
                missing.append(wanted)
                continue
            warnings.extend(notes)
            if os.path.exists(os.path.join(raw, found + ".unreadable")):
                record.update(status="incomplete", message=f"{found}: could not be read")
                return record
            record["files"][wanted] = found
            reached = reaches_into_the_check(os.path.join(raw, found))
            if reached:
                warnings.append(f"{found}: reaches into the check's own accounting ({', '.join(reached)}): whatever "
                                "it scored may be forged; read it before the grade counts")
            shutil.copyfile(os.path.join(raw, found), os.path.join(tree, "exercises", exercise.id, wanted))
        self.read_answers(exercise, raw, files, record, warnings)
        if missing:
            status = "missing" if len(missing) == len(exercise.student_files) else "incomplete"
            record.update(status=status, message="not in the submission: " + ", ".join(missing))
            return record
        program = os.path.join(work, "bin", exercise.id)
        build_key = self.build_key(exercise, tree)
        with phases.timing("build"):
            built, log = self.cached_build(exercise, tree, program, slot, build_key)
        if not built:
            record.update(status="build_failed", build_log=log,
                          message="the files do not compile: the first errors are in the build log")
            return record
        self.run_checks(exercise, program, work, record, phases, build_key)
        record["seconds"] = round(time.monotonic() - started, 2)
        return record

    def read_answers(self, exercise, raw, files, record, warnings):
        """The student's answers to the statement's Questions (answers.md or answers.fr.md,
        authoring/answers.py), where the file was filled in: record["answers"] is
        {"file", "answered": {question: text}, "questions"}. Graded nothing: the teacher reads them."""
        # Every exercise folder has its answers.md: only the one in this exercise's folder
        # is this exercise's (another's is no copy of it).
        own = [f for f in files if os.path.basename(os.path.dirname(f)) == exercise.id]
        for lang, (_, name) in answers.FILES.items():
            course_copy = os.path.join("exercises", exercise.id, name)
            try:
                found, _ = submissions.locate(raw, own, exercise.id, name,
                                              skeleton_digest=self.course_digest_of(course_copy))
            except submissions.SubmissionError as error:
                warnings.append(f"{name} of exercise {exercise.number}: {error}")
                continue
            if found is None or submissions.digest(os.path.join(raw, found)) == self.course_digest_of(course_copy):
                continue
            with open(os.path.join(raw, found), encoding="utf-8", errors="replace") as handle:
                text = handle.read(answers.LARGEST_ANSWERS + 1)
            given = answers.parse(text, lang)
            record["answers"] = {"file": found, "questions": len(given),
                                 "answered": {str(n): a for n, a in sorted(given.items()) if a}}
            return

    def build_key(self, exercise, tree):
        """What a build's output depends on: the course (its fingerprint covers common/
        and exercises/, the drivers included, and the architecture) and the student's
        files. Equal keys, equal programs: a regrade, or two identical submissions, build
        once."""
        digest = hashlib.sha256(self.toolchain.fingerprint_value.encode())
        digest.update(exercise.id.encode())
        for name in exercise.student_files:
            digest.update(b"\0" + name.encode() + b"\0")
            digest.update(submissions.digest(os.path.join(tree, "exercises", exercise.id, name)).encode())
        return digest.hexdigest()

    def cached_build(self, exercise, tree, program, slot, key):
        """build(), or its outputs (the program, its library, or the compiler's errors)
        from the cache of identical inputs (`key`, build_key's)."""
        # Identical inputs graded at the same time (copies of one solution) build once:
        # the others wait for that build and take it from the cache.
        with self.keyed_lock(key):
            return self.build_or_reuse(exercise, tree, program, slot, key)

    def keyed_lock(self, key):
        """One lock per cache key, so that work on identical inputs is done once."""
        with self.keyed_locks_lock:
            return self.keyed_locks.setdefault(key, threading.Lock())

    def build_or_reuse(self, exercise, tree, program, slot, key):
        cached = os.path.join(self.config.build_cache, key)
        # The program and what is built beside it (its library, its PTX files), each kept
        # in the cache under its name beside "program".
        outputs = [(program, "program")] + [(path, "program" + path[len(program):])
                                            for path in nvcc.side_outputs(exercise, program)]
        log_path = os.path.join(cached, "build.log")
        if os.path.exists(os.path.join(cached, "done")):
            with open(log_path, encoding="utf-8") as handle:
                log = handle.read()
            built = os.path.exists(os.path.join(cached, "program"))
            for path, name in outputs if built else []:
                shutil.copy2(os.path.join(cached, name), path)
                if self.config.sandbox_users:
                    shutil.chown(path, self.config.sandbox_users[slot], self.config.sandbox_users[slot])
            return built, log
        with machine_slot(self.config, exercise):
            built, log = self.build(exercise, tree, program, slot)
        staging = cached + f".{os.getpid()}.{threading.get_ident()}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(staging)
        with open(os.path.join(staging, "build.log"), "w", encoding="utf-8") as handle:
            handle.write(log)
        for path, name in outputs if built else []:
            shutil.copy2(path, os.path.join(staging, name))
        open(os.path.join(staging, "done"), "w").close()
        try:
            os.rename(staging, cached)
        except OSError:  # built at the same time by another grader thread: keep theirs
            shutil.rmtree(staging, ignore_errors=True)
        return built, log

    @staticmethod
    def give_to(folder, user):
        for base, folders, files in os.walk(folder):
            for name in [base] + [os.path.join(base, f) for f in folders + files]:
                shutil.chown(name, user, user)
        os.chmod(folder, 0o700)

    def confined(self, command, slot, tree):
        """The build command, run by course_sandbox as the slot's user: it sees the system
        folders, the toolkit and its own submission's work folder, nothing else (no
        course, class, results, home or other submission), and a private /tmp. Student
        sources are read by the compiler, and an `#include` of an absolute path (the
        reference solution, /etc/shadow) must find nothing."""
        user = self.config.sandbox_users[slot]
        wrapped = [self.toolchain.sandbox_path, "--run-as", user, "--show", os.path.dirname(tree)]
        for path in self.config.shown_paths:
            wrapped += ["--show", path]
        for path in self.config.hidden_paths:
            wrapped += ["--hide", path]  # one that holds the work folder is skipped there
        return wrapped + ["--"] + command

    def build(self, exercise, tree, program, slot):
        os.makedirs(os.path.dirname(program), exist_ok=True)
        exercise_dir = os.path.join("exercises", exercise.id)
        student_sources = [os.path.join(exercise_dir, f) for f in exercise.linked_student_files]
        sources = student_sources + [os.path.join("objects", exercise.id, self.toolchain.object_name(f))
                                     for f in self.toolchain.instructor_files(exercise)]
        command = nvcc.program_command(exercise, sources, program, "common", exercise_dir,
                                       self.config.arch)
        side_builds = nvcc.side_builds(exercise, program, lambda name: os.path.join(exercise_dir, name),
                                       "common", exercise_dir, self.config.arch)
        if side_builds:
            # Every build in one confined shell: the program, then what the program's other
            # callers load (the student files alone as a shared library) or the program
            # itself loads (PTX).
            command = ["sh", "-c", " && ".join(" ".join(shlex.quote(w) for w in c)
                                               for c in [command] + [c for c, _ in side_builds])]
        if self.config.sandbox_users:
            command = self.confined(command, slot, tree)
        command = ["nice", "-n", str(BUILD_NICENESS)] + command
        try:
            result = subprocess.run(command, cwd=tree, capture_output=True, text=True, errors="replace",
                                    timeout=self.config.build_timeout)
        except subprocess.TimeoutExpired:
            return False, f"the compiler ran for more than {self.config.build_timeout} s and was stopped"
        log = (result.stdout + result.stderr).replace(tree + os.sep, "")
        lines = log.splitlines()
        if len(lines) > BUILD_LOG_LINES:
            lines = lines[:BUILD_LOG_LINES] + [f"... ({len(lines) - BUILD_LOG_LINES} more lines)"]
        return result.returncode == 0, "\n".join(lines)

    def check_command(self, exercise, program, report, times, gpu_lock, run_user, sanitizer, tool="memcheck"):
        command = [self.toolchain.check_path(exercise), "--program", program,
                   "--variant", "student", "--report-json", report,
                   "--timeout-scale", str(self.config.timeout_scale),
                   "--stop-after-timeouts", str(self.config.stop_after_timeouts),
                   "--memory-limit-mb", str(self.config.memory_limit_mb),
                   "--gpu-lock", gpu_lock]
        # The plain run records each case's time; the sanitizer's limits follow from them. It
        # also writes each speed bar's figure, for the class report's leaderboard.
        command += ["--plain-times", times] if sanitizer else ["--record-times", times,
                                                               "--speed-record", speed_record_path(report)]
        if exercise.shared_library:
            command += ["--library", nvcc.library_path(program), "--exercise-dir", exercise.folder]
        if self.config.site_bars:
            command += ["--site-bars", self.config.site_bars]
        if sanitizer:
            command += ["--sanitizer", sanitizer, "--sanitizer-tool", tool]
        elif self.config.sanitizer:
            # For the cases that run under a compute-sanitizer tool of their own.
            command += ["--compute-sanitizer", self.config.sanitizer]
        if run_user:
            command += ["--run-as", run_user]
            for path in self.config.shown_paths:
                command += ["--show", path]
            for path in self.config.hidden_paths:
                command += ["--hide", path]
        return command

    def bar_references(self, exercise):
        """{(case, figure): the reference solution's figures the check declares for that bar
        ("2.34-2.43 on H100, ...")}, from the check's --list-json, asked once per exercise
        (one lock per exercise: the submissions graded side by side ask it once between them)."""
        with self.keyed_lock(("bar references", exercise.id)):
            if exercise.id not in self.references:
                self.references[exercise.id] = self.listed_bar_references(exercise)
            return self.references[exercise.id]

    def listed_bar_references(self, exercise):
        found = {}
        try:
            listed = subprocess.run([self.toolchain.check_path(exercise), "--list-json"], capture_output=True,
                                    text=True, timeout=60)
            for case in json.loads(listed.stdout).get("cases", []):
                for bar in case.get("bars", []):
                    found[(case["name"], bar.get("figure", ""))] = str(bar.get("reference", ""))
        except (OSError, subprocess.SubprocessError, ValueError, AttributeError):
            found = {}
        return found

    def gpu_device(self):
        """The CUDA_VISIBLE_DEVICES value of the next check: the GPUs are shared round-robin."""
        if not self.config.gpus:
            return None
        with self.turn_lock:
            self.turn += 1
            return self.config.gpus[self.turn % len(self.config.gpus)]

    @staticmethod
    def gpu_lock_path(device=None):
        """The lock through which every check of this machine shares a GPU (the grader's,
        another grading's, CTest's: cmake/CourseExercise.cmake's COURSE_GPU_LOCK)."""
        return os.path.join(GPU_LOCK_FOLDER, f"course-gpu-{device or 'all'}.lock")

    def run_check(self, exercise, program, report, times, sanitizer="", tool="memcheck"):
        """Runs the check in a slot, as a user of its own; returns (exit status, report
        dict or None, console output). The check takes the GPU lock for each run of the
        program itself: shared, or alone for the cases whose time is judged."""
        environment = dict(os.environ)
        # The seed goes through the environment: a command line is visible to every user.
        environment["COURSE_CHECK_SEED"] = str(self.config.seed)
        # The messages the check writes into the results are in the feedback's language.
        environment["COURSE_LANG"] = self.config.feedback_lang
        # The site bars are the grading's choice (--site-bars), never the shell's.
        environment.pop("COURSE_SITE_BARS", None)
        # CPU libraries get the threads a program is granted, not one spinning thread per core.
        for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
            environment[variable] = str(self.config.program_threads)
        device = self.gpu_device()
        if device is not None:
            environment["CUDA_VISIBLE_DEVICES"] = device
        users = self.config.run_users.lend() if self.config.run_users else contextlib.nullcontext(None)
        with machine_slot(self.config, exercise), users as run_user:
            command = self.check_command(exercise, program, report, times, self.gpu_lock_path(device),
                                         run_user, sanitizer, tool)
            try:
                result = subprocess.run(command, capture_output=True, text=True, errors="replace", env=environment,
                                        timeout=self.config.check_timeout)
                status, output = result.returncode, result.stdout + result.stderr
            except subprocess.TimeoutExpired as timeout:
                status, output = -1, f"the check ran for more than {timeout.timeout} s and was stopped"
        data = None
        if os.path.exists(report):
            with open(report, encoding="utf-8") as handle:
                data = json.load(handle)
        return status, data, output[-CHECK_OUTPUT_BYTES:]

    def run_checks(self, exercise, program, work, record, phases, build_key):
        if self.config.cpu_only:
            record.update(status="skipped", message="built; its check needs a GPU and this grading was --cpu-only: "
                                                    "a grading on a GPU checks it")
            return
        reports = os.path.join(work, "reports")
        os.makedirs(reports, exist_ok=True)
        times = os.path.join(reports, f"{exercise.id}.times")
        with phases.timing("checks"):
            status, data, output = self.run_check(exercise, program, os.path.join(reports, f"{exercise.id}.json"),
                                                  times)
        if status == EXIT_SKIP:
            record.update(status="skipped", message=(data or {}).get("skip_reason") or output.strip())
            return
        if status not in (0, 1) or data is None:
            record.update(status="error", message=f"the check failed (status {status}):\n{output}")
            return
        speeds, check_gpu = read_speed_records(speed_record_path(os.path.join(reports, f"{exercise.id}.json")))
        for case in data["cases"]:
            record["items"].append({"name": case["name"], "kind": "case", "score": case["points"],
                                    "max_score": case["max_points"], "passed": case["passed"],
                                    "hidden": case["hidden"], "seconds": case["seconds"],
                                    "output": textwrap.dedent(case["text"]).strip("\n")})
            if speeds.get(case["name"]) and not case["hidden"]:
                references = self.bar_references(exercise)
                record["items"][-1]["speed"] = [dict(speed, reference=references.get((case["name"], speed["figure"]), ""))
                                                for speed in speeds[case["name"]]]
        if speeds:
            # The GPU the check measured on, as it names it (the name the site bars are matched
            # with); nvidia-smi's names of the grading's GPUs where the records have none.
            record["gpu"] = check_gpu or gpu.names(self.config.gpus)
        tools = exercise.sanitizer_tools
        if tools:
            # The tools' runs are independent runs of the same program: side by side, each
            # in a slot of its own, so that racecheck and synccheck add little to memcheck's
            # wall time (the GPU lock lets their untimed runs share the GPU).
            with phases.timing("sanitizer"), concurrent.futures.ThreadPoolExecutor(max_workers=len(tools)) as pool:
                futures = [pool.submit(self.sanitizer_item, exercise, tool, program, reports, times, data,
                                       build_key) for tool in tools]
                record["items"] += [future.result() for future in futures]
        record["score"] = sum(item["score"] for item in record["items"])
        record["max_score"] = sum(item["max_score"] for item in record["items"])

    def sanitizer_item(self, exercise, tool, program, reports, times, correctness, build_key):
        """The item of one compute-sanitizer tool (memcheck, racecheck, synccheck). Its
        verdict on a program depends on the program and its inputs alone: a program built
        from files identical to another submission's (the cache key of its build), checked
        with the same seed, is checked once per grading and tool, and the verdict kept
        (RESULTS/.grader/sanitizer)."""
        if not self.config.sanitizer or correctness["score"] == 0:
            return self.run_sanitizer(exercise, tool, program, reports, times, correctness)[0]  # not run
        key = hashlib.sha256("\0".join([build_key, str(self.config.seed), self.config.sanitizer,
                                         tool]).encode()).hexdigest()
        cached = os.path.join(self.config.grader_dir, "sanitizer", key + ".json")
        with self.keyed_lock(key):
            if os.path.exists(cached):
                with open(cached, encoding="utf-8") as handle:
                    return dict(json.load(handle), seconds=0.0)
            item, complete = self.run_sanitizer(exercise, tool, program, reports, times, correctness)
            if complete:
                write_json_atomically(cached, item)
            return item

    def run_sanitizer(self, exercise, tool, program, reports, times, correctness):
        """(the tool's item, whether its verdict came from a check that ran to its end)."""
        item = {"name": tool, "kind": "sanitizer", "score": 0, "max_score": exercise.memcheck_points,
                "passed": False, "hidden": False, "seconds": 0.0, "output": ""}
        if not self.config.sanitizer:
            item["output"] = "not run: compute-sanitizer was not found on the grading machine"
            return item, False
        if correctness["score"] == 0:
            item["output"] = f"not run: {tool} points go to code that earns correctness points"
            return item, False
        started = time.monotonic()
        status, data, output = self.run_check(exercise, program, os.path.join(reports, f"{exercise.id}.{tool}.json"),
                                              times, sanitizer=self.config.sanitizer, tool=tool)
        item["seconds"] = round(time.monotonic() - started, 2)
        if data is None or status not in (0, 1):
            item["output"] = f"compute-sanitizer {tool} could not complete the check (status {status}):\n{output}"
            return item, False
        failure_texts = sanitizer_failure_texts(tool)
        flagged = [c for c in data["cases"] if any(text in c["text"] for text in failure_texts)]
        if flagged:
            item["output"] = "\n".join(f"{c['name']}:\n{c['text']}" for c in flagged[:3])
            return item, True
        item.update(passed=True, score=exercise.memcheck_points, output=SANITIZER_CLEAN[tool])
        return item, True
