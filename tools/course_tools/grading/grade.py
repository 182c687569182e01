"""Grades one submission or a whole class, and writes every report.

    tools/course grade CLASS_FOLDER --class --results RESULTS [options]
    tools/course grade SUBMISSION --results RESULTS [options]

A submission is a folder (a copy of the course repository, or only the exercise
files), an archive (.zip, .tar, .tar.gz, .tar.xz, .tar.bz2, and .7z where 7-Zip is
installed), a folder holding nothing but one archive (a platform's bulk download), or a
git repository, graded from its working tree (--git-head: from its last commit), with a
warning wherever the two differ in the exercise files; a class is a folder of
submissions, one per student, and each of its other entries is named with the reason it
is not graded (--list, the summary at the end, class.html). Warnings that may change a
grade (a backup copy graded, a file taken from an unexpected place, an archive unpacked
from a folder, a git working tree that differs from its last commit) are listed in the
summary and in class.html, besides each student's feedback. A results folder, or any
other folder the grader made, is never taken for a submission, wherever it lies, and a
folder given without
--class that holds two or more submissions stops the grading with the command to type
(--one-submission: grade it as one student's anyway). For each submission,
results/submissions/<student>.json is written as soon as it is graded; rerunning the
same command after an interruption grades only what is missing. At the end:
gradebook.csv, feedback/<student>.md and .html, junit.xml,
gradescope/<student>/results.json, classroom/<student>.json, and class.html (and
class.md): the class report, what the class got right and wrong.

Every check runs the student's code on a GPU. Where none is visible, grade.py refuses
and writes nothing, unless --cpu-only asks for what needs no GPU (unpacking, finding
the files, building them): the checks are then recorded "skipped", never as 0, and a
later run on a GPU grades them without --regrade.

Run as root, student code and its builds run as unprivileged users (course-sandbox-N,
created if needed) that see the system folders (/usr, /etc, /dev...), the CUDA toolkit,
Python and their own files, and nothing else: not the course, wherever it lies, the
class or the results; as another user it runs with your permissions (a warning says so).
"""
import argparse
import concurrent.futures
import fcntl
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from course_tools.authoring import answers
from course_tools.grading import class_report, engine, gpu, reports, speed_credit, submissions
from course_tools.student import exercises as course_exercises
from course_tools.student import nvcc
from course_tools.student.paths import ROOT
from course_tools.suite import calibrate


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", help="a submission, or with --class a folder of submissions")
    parser.add_argument("--results", help="where results and reports go (required, except with --list)")
    parser.add_argument("--class", dest="is_class", action="store_true",
                        help="PATH holds one submission per student")
    parser.add_argument("--one-submission", action="store_true",
                        help="PATH is one student's submission even though it looks like a class "
                             "(two or more folders or archives each holding exercise files)")
    parser.add_argument("--exercises", help="comma-separated numbers (default: every exercise)")
    parser.add_argument("--seed", type=int, help="seed of the hidden cases (default: drawn at the first grading)")
    parser.add_argument("--feedback-lang", choices=("en", "fr"),
                        help="language of the checks' messages and of the feedback pages (default en; fixed at "
                             "the first grading, like the seed); class.html and the gradebook stay English")
    parser.add_argument("--site-bars", help="the speed bars of this GPU (make calibrate; default: the course's "
                             "calibration/site-bars.tsv where it exists; 'none': the course's bars)")
    parser.add_argument("--speed-credit", type=float, metavar="POINTS",
                        help="bonus points per speed bar, POINTS x min(1, the student's figure over the reference "
                             "solution's on this GPU, from the site bars), shown apart from the grade, never in it "
                             "(default: none; fixed at the first grading, like the seed)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    parser.add_argument("--gpus", help="comma-separated CUDA_VISIBLE_DEVICES values, shared round-robin")
    parser.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every time limit")
    parser.add_argument("--memory-limit-mb", type=int, default=8192, help="host memory of a student program")
    parser.add_argument("--no-sandbox", action="store_true", help="never switch users (not recommended)")
    parser.add_argument("--show", action="append", default=[], metavar="PATH",
                        help="a folder student code and builds may see besides the system folders, "
                             "the toolkit and Python (repeatable): e.g. a driver library outside /usr")
    parser.add_argument("--index", type=int,
                        help="grade only the class's submission number INDEX (0-based, in name order): "
                             "one task of a Slurm job array")
    parser.add_argument("--list", action="store_true", help="list the class's submissions with their index")
    parser.add_argument("--no-reports", action="store_true",
                        help="write the per-submission results only (a collecting job makes the reports)")
    parser.add_argument("--reports-only", action="store_true", help="rebuild the reports from the results")
    parser.add_argument("--regrade", action="store_true", help="forget earlier results in RESULTS")
    parser.add_argument("--git-head", action="store_true",
                        help="grade a git repository's last commit (HEAD), not its working tree (the default: "
                             "what the student sees); either way a difference between the two in the "
                             "exercise files is named")
    parser.add_argument("--cpu-only", action="store_true",
                        help="without a GPU: unpack and build only, checks recorded as skipped (not 0) "
                             "for a later run on a GPU to grade")
    arguments = parser.parse_args(argv[1:])
    if not arguments.reports_only and not arguments.path:
        parser.error("PATH is required (unless --reports-only)")
    if not arguments.results and not arguments.list:
        parser.error("--results is required (except with --list)")
    if arguments.jobs < 1:
        parser.error("--jobs must be at least 1")
    if arguments.speed_credit is not None and not 0 <= arguments.speed_credit < float("inf"):
        parser.error("--speed-credit must be a number of points, 0 or more")
    if arguments.is_class and arguments.one_submission:
        parser.error("--class and --one-submission contradict each other: PATH is a class or one submission")
    return arguments


FORGOTTEN_CLASS_STATUS = 2  # a usage error, as argparse's


def forgotten_class(arguments, argv, results):
    """The message for a folder given without --class that holds a class (several
    submissions of the course), or None. Graded as one submission, a class became one
    student named after its folder, with every exercise missing."""
    if arguments.is_class or arguments.one_submission or arguments.reports_only:
        return None
    every = course_exercises.load(ROOT)
    alike = submissions.class_inside(arguments.path, [f for e in every for f in e.student_files],
                                     [e.id for e in every], skip=[results])
    if not alike:
        return None
    names = [submissions.student_name(path) for path in alike]
    shown = ", ".join(shown_name(name) for name in names[:5]) + (", ..." if len(names) > 5 else "")
    command = shlex.join([*argv[0].split(), *argv[1:], "--class"])
    return (f"grade.py: {arguments.path} looks like a class, not one submission: it holds {len(names)} "
            f"folders or archives that each hold exercise files ({shown}), and graded as one submission "
            f"it would be one student named {shown_name(submissions.student_name(arguments.path))}. "
            f"Nothing was graded.\n"
            f"  To grade each student, add --class:\n"
            f"    {command}\n"
            f"  If it is one student's submission after all, add --one-submission instead.")


def select_exercises(requested):
    """The exercises to grade, each once, in the order first named."""
    available = course_exercises.load(ROOT)
    if not requested:
        return available
    chosen = {}
    for number in requested.split(","):
        if not number.strip():
            raise course_exercises.ExerciseError(f"--exercises {requested}: an empty exercise number")
        exercise = course_exercises.find(ROOT, number.strip())
        if exercise.id in chosen:
            print(f"grade.py: exercise {exercise.number} is named more than once in --exercises: graded once",
                  file=sys.stderr)
        chosen.setdefault(exercise.id, exercise)
    return list(chosen.values())


WORK_PREFIX = submissions.GRADER_WORK_PREFIX  # how list_class knows the folder is no student's


def make_work_root():
    """A fresh folder for unpacking and building submissions, in root's /run, with the
    grader's pid in it; the folders of graders that were killed are removed first."""
    parent = "/run" if os.path.isdir("/run") else tempfile.gettempdir()
    for name in os.listdir(parent):
        if not name.startswith(WORK_PREFIX):
            continue
        try:
            with open(os.path.join(parent, name, submissions.GRADER_WORK_OWNER), encoding="utf-8") as handle:
                os.kill(int(handle.read()), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
        except (OSError, ValueError):
            pass  # not ours to judge: leave it
    folder = tempfile.mkdtemp(prefix=WORK_PREFIX, dir=parent)
    os.chmod(folder, 0o711)
    with open(os.path.join(folder, submissions.GRADER_WORK_OWNER), "w", encoding="utf-8") as handle:
        handle.write(str(os.getpid()))
    return folder


class Progress:
    """One line per event: n of N, who, elapsed, an estimate of what is left."""

    def __init__(self, total, jobs):
        self.total, self.jobs, self.done = total, jobs, 0
        self.started = time.monotonic()
        self.lock = threading.Lock()

    @staticmethod
    def clock(seconds):
        seconds = int(seconds)
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def event(self, student, what, finished=False):
        with self.lock:
            if finished:
                self.done += 1
            elapsed = time.monotonic() - self.started
            left = "?"
            if self.done:
                left = self.clock(elapsed / self.done * (self.total - self.done))
            print(f"[{self.done:>{len(str(self.total))}}/{self.total}] {shown_name(student)}: {what} "
                  f"(elapsed {self.clock(elapsed)}, about {left} left)", flush=True)


def phase_breakdown(setup_seconds, grading_seconds, phases, reports_seconds, graded):
    """Where the time went: wall-clock time of each stage of the run, and within grading
    the seconds each phase took, summed over the exercises that ran side by side."""
    busy = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in phases.items())
    return (f"grade.py: time: checks and course objects built in {setup_seconds:.1f} s "
            f"(0 when cached); {graded} submission(s) graded in {grading_seconds:.1f} s "
            f"(summed over exercises running side by side: {busy}); reports written in "
            f"{reports_seconds:.1f} s")


def shown_name(student):
    """A student's name on the terminal: as it is, or quoted when it could be taken for
    something else (spaces at its ends, a quote)."""
    return student if student == student.strip() and not set(student) & set("'\"") else ascii(student)


def outcome(result):
    """What the progress line says of a finished submission."""
    statuses = [exercise["status"] for exercise in result["exercises"]]
    if "unreadable" in statuses:
        reason = next(e["message"] for e in result["exercises"] if e["status"] == "unreadable")
        return f"UNREADABLE: {reason}"
    skipped = statuses.count("skipped")
    if skipped:
        return (f"NOT COMPLETE in {result['seconds']:.0f} s: {skipped} exercise(s) skipped, their checks need a GPU "
                f"(not graded yet); {result['score']} points from the {len(statuses) - skipped} other(s)")
    return f"{result['score']}/{result['max_score']} points in {result['seconds']:.0f} s"


def refuse_without_gpu(arguments, chosen):
    """Stops here, before anything is written, when no GPU is visible and the instructor
    did not ask for --cpu-only: a grading whose checks cannot run must not look done."""
    count, reason = gpu.visible(use_visible_devices=not arguments.gpus)
    if count or arguments.cpu_only:
        return
    numbers = ",".join(exercise.number for exercise in chosen)
    raise SystemExit(
        f"grade.py: no GPU is visible here ({reason}), and the check of every exercise ({numbers}) runs the "
        f"student's code on one: nothing was graded and nothing written.\n"
        f"  Grade on a machine with a GPU (on a cluster: slurm/grade-class, which runs on GPU nodes), or\n"
        f"  add --cpu-only to unpack and build the submissions now: missing files and build errors are "
        f"graded, the checks are recorded as skipped (not 0), and the same command run later on a GPU "
        f"grades them (no --regrade needed).")


# Top-level folders that confinement always shows (common/course/check/child_process.hpp).
SYSTEM_FOLDERS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "sys")


def shown_paths(arguments):
    """What confinement must show besides the system folders, when it lies outside them:
    the CUDA toolkit (a module's /opt/cuda or /apps/cuda-13), and the prefixes of the
    Python that exercise 08's check runs (COURSE_PYTHON, else python3 on PATH: a venv
    and the interpreter it was made from), found by asking it."""
    shown = [os.path.abspath(path) for path in arguments.show]
    toolkits = [nvcc.nvcc_path(), nvcc.compute_sanitizer_path()]
    for tool in filter(None, toolkits):
        real = os.path.realpath(tool)
        # bin/nvcc, bin/compute-sanitizer or compute-sanitizer/compute-sanitizer
        shown.append(os.path.dirname(os.path.dirname(real)))
    for python in (os.environ.get("COURSE_PYTHON"), shutil.which("python3")):
        if not python:
            continue
        shown.append(os.path.dirname(os.path.dirname(os.path.realpath(python))))
        try:
            asked = subprocess.run([python, "-c", "import sys; print(sys.prefix); print(sys.base_prefix)"],
                                   capture_output=True, text=True, timeout=30)
            shown += [line for line in asked.stdout.splitlines() if line.startswith("/")]
        except (OSError, subprocess.SubprocessError):
            pass
    outside = set()
    for path in shown:
        top = path.strip(os.sep).split(os.sep)[0]
        if path != os.sep and top not in SYSTEM_FOLDERS:
            outside.add(os.path.normpath(path))
    return sorted(outside)


def hidden_paths(arguments, results):
    """What student code must not see: the course, the results, the grader's home and
    the class. For one submission, the folder that holds it, not its own path: a
    student's name never goes into the sandbox's arguments."""
    paths = {ROOT, os.path.realpath(ROOT), results, os.path.expanduser("~")}
    for path in (os.path.abspath(arguments.path), os.path.realpath(arguments.path)):
        folder = path if arguments.is_class else os.path.dirname(path)
        if folder != os.path.dirname(folder):  # never the root of the file system
            paths.add(folder)
    return sorted(paths)


def left_out_text(class_folder, left_out):
    """The lines naming the class folder's entries that are not graded, and why ("" if none)."""
    if not left_out:
        return ""
    lines = [f"grade.py: {len(left_out)} entr{'y' if len(left_out) == 1 else 'ies'} of {class_folder} "
             f"not graded (no row in the gradebook; class.html lists them too):"]
    lines += [f"  not graded: {shown_name(name) if name.isprintable() else ascii(name)}: {reason}"
              for name, reason in left_out]
    return "\n".join(lines) + "\n"


def grade_warnings_text(results):
    """The warnings that may change a grade, by student, for the summary ("" if none)."""
    found = [(result["student"], warning) for result in results for warning in result.get("grade_warnings", [])]
    if not found:
        return ""
    lines = [f"grade.py: {len(found)} warning(s) that may change a grade, for "
             f"{len({student for student, _ in found})} submission(s) (each is on the student's feedback page "
             f"too; class.html lists them): check these before publishing the grades:"]
    lines += [f"  {shown_name(student)}: {warning}" for student, warning in found]
    return "\n".join(lines) + "\n"


def load_and_write_reports(results, exercise_ids, no_result=None, left_out=None, feedback_lang="en"):
    """(results loaded, files written); the repairs made on the way are printed.
    `no_result`: {student: reason} of the submissions this run could not grade, for the
    class report (default: those RESULTS/not_graded.txt lists); `left_out`: [(entry,
    reason)] of the class folder's entries that are no submission (default: those
    RESULTS/left_out.json lists)."""
    notes = []
    try:
        graded = reports.load_results(results, notes)
        for note in notes:
            print(f"grade.py: repaired: {note}", file=sys.stderr)
        written = reports.write_all(results, graded, exercise_ids, feedback_lang)
        return graded, written + class_report.write(results, graded, exercise_ids, no_result, left_out=left_out)
    except reports.ReportError as error:
        raise SystemExit(f"grade.py: the reports were not written: {error}")



def chosen_site_bars(arguments):
    """The site bars' file the checks judge speed against (make calibrate), checked before any
    grading: "" for the course's bars."""
    path = arguments.site_bars
    if path == "none":
        return ""
    if path is None:
        path = os.path.join(ROOT, calibrate.DEFAULT_OUT)
        if not os.path.exists(path):
            return ""
    try:
        problems = calibrate.check(path)
    except OSError as error:
        raise SystemExit(f"grade.py: --site-bars: {error}")
    if problems:
        raise SystemExit("grade.py: the site bars cannot be used (make calibrate writes them again):\n  "
                         + "\n  ".join(problems))
    print(f"grade.py: speed is judged against the site bars of {os.path.relpath(path, ROOT)} on the GPU "
          "they were measured on", file=sys.stderr)
    return os.path.abspath(path)


def main(argv):
    arguments = parse_arguments(argv)
    results = os.path.abspath(arguments.results) if arguments.results else None
    try:
        chosen = select_exercises(arguments.exercises)
    except course_exercises.ExerciseError as error:
        raise SystemExit(f"grade.py: {error}")
    exercise_ids = [e.id for e in chosen]

    if arguments.reports_only:
        feedback_lang = arguments.feedback_lang or "en"
        if os.path.exists(os.path.join(results, engine.CONFIG_FILE)):
            # The columns and the language of the grading itself.
            try:
                stored = engine.grading_settings(results, None, None, exercise_ids, create=False)
            except engine.SettingsError as error:
                raise SystemExit(f"grade.py: {error}")
            feedback_lang = arguments.feedback_lang or stored["feedback_lang"]
            if not arguments.exercises:
                exercise_ids = stored["exercises"]
        _, written = load_and_write_reports(results, exercise_ids, feedback_lang=feedback_lang)
        print(f"{len(written)} report files written in {results}; the class report: "
              f"{os.path.join(results, class_report.HTML_FILE)}")
        return 0

    forgotten = forgotten_class(arguments, argv, results)
    if forgotten:
        print(forgotten, file=sys.stderr)
        return FORGOTTEN_CLASS_STATUS
    left_out = []  # (entry, reason) of the class folder's entries that are no submission to grade
    try:
        notes = []
        if arguments.is_class:
            class_list = submissions.list_class(arguments.path, skip=[results], notes=notes, left_out=left_out)
        else:
            class_list = submissions.single(arguments.path, skip=[results])
    except submissions.SubmissionError as error:
        raise SystemExit(f"grade.py: {error}")
    for note in notes:
        print(f"grade.py: {note}", file=sys.stderr)
    if arguments.list:
        for index, (student, path) in enumerate(class_list):
            print(f"{index}\t{student}\t{path}")
        # On stderr: stdout is the list of submissions, one "index<TAB>student<TAB>path" a line.
        print(left_out_text(arguments.path, left_out), file=sys.stderr, end="")
        return 0
    if arguments.index is not None:
        if not 0 <= arguments.index < len(class_list):
            raise SystemExit(f"grade.py: --index {arguments.index} is outside the class "
                             f"(0 to {len(class_list) - 1}; --list shows them)")
        class_list = [class_list[arguments.index]]

    refuse_without_gpu(arguments, chosen)  # before anything is written
    if arguments.regrade:
        shutil.rmtree(os.path.join(results, "submissions"), ignore_errors=True)
        if os.path.exists(os.path.join(results, engine.CONFIG_FILE)):
            os.remove(os.path.join(results, engine.CONFIG_FILE))
    os.makedirs(results, exist_ok=True)
    os.chmod(results, 0o700)  # results and hidden cases are the instructor's alone
    if arguments.is_class:
        class_report.write_left_out(results, left_out)  # for class.html, whichever run writes it
    # One whole-class grading per results folder at a time; array tasks (--index) each
    # grade their own submission and may share the folder.
    lock = open(os.path.join(results, submissions.GRADER_LOCK), "w")
    try:
        fcntl.flock(lock, (fcntl.LOCK_SH if arguments.index is not None else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"grade.py: another grading is writing into {results}")
    with open(os.path.join(results, ".config.lock"), "w") as config_lock:
        fcntl.flock(config_lock, fcntl.LOCK_EX)  # array tasks start together: one draws the seed
        notes = []
        try:
            stored = engine.grading_settings(results, arguments.seed,
                                             exercise_ids if arguments.exercises else None, exercise_ids,
                                             notes=notes, feedback_lang=arguments.feedback_lang,
                                             speed_credit=arguments.speed_credit)
        except engine.SettingsError as error:
            raise SystemExit(f"grade.py: {error}, or --regrade")
        for note in notes:
            print(f"grade.py: repaired: {note}", file=sys.stderr)
    if not arguments.exercises:
        # The exercises fixed at the first grading of this folder, not every exercise.
        by_id = {exercise.id: exercise for exercise in course_exercises.load(ROOT)}
        unknown = [exercise_id for exercise_id in stored["exercises"] if exercise_id not in by_id]
        if unknown:
            raise SystemExit(f"grade.py: {results} was graded for exercise(s) the course no longer has: "
                             f"{', '.join(unknown)}: use another results folder, or --regrade")
        chosen = [by_id[exercise_id] for exercise_id in stored["exercises"]]

    sandbox = os.geteuid() == 0 and not arguments.no_sandbox
    if not sandbox:
        print("grade.py: warning: not running as root, student code runs with your own permissions "
              "(as root it runs as an unprivileged user that cannot see the course or the results)",
              file=sys.stderr)
    sanitizer = nvcc.compute_sanitizer_path()
    site_bars = chosen_site_bars(arguments)
    if stored["speed_credit"]:
        references = speed_credit.SiteReferences(site_bars)
        against = (f"against the reference solution's figures on {references.gpu}" if references.gpu
                   else references.why_none(None))
        print(f"grade.py: speed credit: up to {stored['speed_credit']:g} point(s) per speed bar, apart from the "
              f"grade; {against}", file=sys.stderr)
    try:
        config = engine.Config(
            root=ROOT, results=results, seed=stored["seed"], exercises=chosen, arch=nvcc.gpu_arch(),
            feedback_lang=stored["feedback_lang"],
            timeout_scale=arguments.timeout_scale, memory_limit_mb=arguments.memory_limit_mb,
            sanitizer=sanitizer,
            shown_paths=shown_paths(arguments), hidden_paths=hidden_paths(arguments, results),
            gpus=[g for g in (arguments.gpus or "").split(",") if g], cpu_only=arguments.cpu_only,
            git_head=arguments.git_head, site_bars=site_bars, speed_credit=stored["speed_credit"])
        nvcc.nvcc_path()
        # Builds and checks at once, over all submissions: as many as the machine has cores
        # (a check mostly waits for its program, which mostly waits for the GPU).
        slots = max(2, os.cpu_count() or 2)
        config.slots = engine.Slots(slots)
        if sandbox:
            # One user per submission graded at once owns its files and builds; one per
            # check running at once runs its student code (the check kills every process
            # of its user after each run, so no two checks share one).
            reserved = engine.reserve_sandbox_users(arguments.jobs + slots)  # held until we exit
            config.sandbox_users = [name for name, _ in reserved[:arguments.jobs]]
            config.run_users = engine.UserPool([name for name, _ in reserved[arguments.jobs:]])
            # Submissions are built outside the (hidden) results, in root's /run.
            config.work_root = make_work_root()
            config.hidden_paths.append(config.work_root)
        toolchain = engine.Toolchain(config)
        setup_started = time.monotonic()
        toolchain.prepare(lambda message: print(f"grade.py: {message}", flush=True))
        setup_seconds = time.monotonic() - setup_started
    except (nvcc.BuildError, RuntimeError) as error:
        raise SystemExit(f"grade.py: {error}")

    done_dir = os.path.join(results, "submissions")
    todo = [(s, p) for s, p in class_list
            if engine.needs_grading(os.path.join(done_dir, f"{s}.json"), arguments.cpu_only)]
    again = sum(os.path.exists(os.path.join(done_dir, f"{s}.json")) for s, _ in todo)
    print(f"grade.py: {len(class_list)} submission(s), {len(class_list) - len(todo)} already graded, "
          f"grading {len(todo)} with seed {config.seed}, {arguments.jobs} at a time"
          + (f" ({again} of them again: not completely graded before)" if again else "")
          + (" (--cpu-only: building only, the checks are recorded as skipped)" if arguments.cpu_only else ""),
          flush=True)

    course_index = engine.course_files(ROOT)
    # The student files of every exercise, graded or not: a copy of the repository holds
    # them all, and changing them is the student's work, not a change of the course.
    student_paths = {os.path.join("exercises", e.id, f) for e in course_exercises.load(ROOT)
                     for f in e.student_files + [name for _, name in answers.FILES.values()]}
    grader = engine.SubmissionGrader(config, toolchain, course_index, student_paths)
    submission_slots = queue.Queue()
    for slot in range(arguments.jobs):
        submission_slots.put(slot)
    progress = Progress(len(todo), arguments.jobs)
    failures = []
    failed = {}  # student: why, for the class report
    phases = {name: 0.0 for name in engine.Phases.NAMES}

    def grade_one(student, path):
        slot = submission_slots.get()
        try:
            progress.event(student, "grading")
            result = grader.grade(student, path, slot)
            for name, seconds in result.get("phases", {}).items():
                phases[name] += seconds
            progress.event(student, outcome(result), finished=True)
        except Exception as error:  # a grader bug must not stop the class; it is reported
            failures.append(f"{student}: {type(error).__name__}: {error}")
            failed[student] = f"grader error: {type(error).__name__}: {error}"
            progress.event(student, f"GRADER ERROR: {error}", finished=True)
        finally:
            submission_slots.put(slot)

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        for future in [pool.submit(grade_one, s, p) for s, p in todo]:
            future.result()
    grading_seconds = time.monotonic() - started
    if todo:
        print(f"grade.py: graded {len(todo)} submission(s) in {grading_seconds:.0f} s, "
              f"{grading_seconds / len(todo):.1f} s per submission with {arguments.jobs} at a time", flush=True)

    if config.work_root:
        shutil.rmtree(config.work_root, ignore_errors=True)
    if arguments.no_reports:
        for failure in failures:
            print(f"grade.py: not graded, grader error: {failure}", file=sys.stderr)
        return 1 if failures else 0
    reports_started = time.monotonic()
    no_result = {student: failed.get(student, "no result was recorded (the grading was interrupted?)")
                 for student, _ in class_list if not os.path.exists(os.path.join(done_dir, f"{student}.json"))}
    graded, written = load_and_write_reports(results, stored["exercises"], no_result,
                                             left_out if arguments.is_class else None,
                                             feedback_lang=stored["feedback_lang"])
    reports_seconds = time.monotonic() - reports_started
    print(reports.summary_table(graded, stored["exercises"]))
    print(f"grade.py: reports in {results} ({len(written)} files): gradebook.csv, feedback/, junit.xml, "
          f"gradescope/, classroom/, and the class report: {os.path.join(results, class_report.HTML_FILE)}")
    print(phase_breakdown(setup_seconds, grading_seconds, phases, reports_seconds, len(todo)), flush=True)
    students = {student for student, _ in class_list}
    mine = [result for result in graded if result["student"] in students]
    print(grade_warnings_text(mine), end="", file=sys.stderr)
    print(left_out_text(arguments.path, left_out), end="", file=sys.stderr, flush=True)
    unreadable = [result["student"] for result in mine
                  if any(exercise["status"] == "unreadable" for exercise in result["exercises"])]
    if unreadable:
        print(f"grade.py: {len(unreadable)} submission(s) could not be read and scored 0: "
              f"{', '.join(shown_name(s) for s in unreadable)} (the reason is in the gradebook's status); "
              f"replace them and run the same command again: they are graded again", file=sys.stderr)
    pending = [result["student"] for result in mine
               if any(exercise["status"] == "skipped" for exercise in result["exercises"])]
    if pending:
        print(f"grade.py: {len(pending)} submission(s) are NOT COMPLETE: their checks were skipped "
              f"({'--cpu-only' if arguments.cpu_only else 'no usable GPU'}); no report counts them as 0. "
              f"Run the same command on a machine with a GPU to grade them (no --regrade needed).",
              file=sys.stderr)
    for failure in failures:
        print(f"grade.py: not graded, grader error: {failure}", file=sys.stderr)
    return 1 if failures or (pending and not arguments.cpu_only) else 0
