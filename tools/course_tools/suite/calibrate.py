"""Site bars: the course's speed bars, checked and where needed relaxed on the GPU a course is
graded on (make calibrate).

    tools/course calibrate [--build-dir build] [--runs 3] [--only 11,12] [--out FILE]
    tools/course calibrate --from-scores DIR [DIR ...] [--out FILE]   # from earlier runs
    tools/course calibrate --check FILE                                # a file as written

The course's bars were measured on the H100 and the H200, where each reference solution clears
each bar by at least 10% (tools/course speed-margins). A class's cluster may have another GPU:
one copy engine, another L2, less bandwidth. This command grades the reference solutions --runs
times on this machine's GPU (ctest: the solutions' correctness tests, whose timed cases take
the GPU alone), reads every bar's figure from every run (scores/NN_slug.solution.speed.tsv,
written by the checks), and writes one line per bar to calibration/site-bars.tsv: the course's
bar where the reference's worst figure clears it by the margin, else that worst figure less the
margin. A site bar is never stricter than the course's, which the statements quote.

Every check then judges against the file's bars on that GPU only (make, make check-NN, make
test and the grader pass it: COURSE_SITE_BARS or --site-bars; common/course/check/speed_bar.hpp),
says so under each speed case, and keeps the course's bars on any other GPU. A students' copy
has no reference solutions and no file: its checks keep the course's bars and say that a
calibrated grading may relax them.

Exit status: 0 written (or the file checked), 1 a bar missing from a run, runs on different GPUs,
or a file that does not hold; 2 misuse; 77 no GPU here.
Python 3 standard library only.
"""
import argparse
import collections
import datetime
import glob
import math
import os
import re
import shutil
import subprocess
import sys

from course_tools.suite import speed_margins

DEFAULT_OUT = os.path.join("calibration", "site-bars.tsv")
SUFFIX = speed_margins.SUFFIX
EXIT_SKIP = 77


class CalibrationError(Exception):
    pass


def read_run(folder):
    """{(exercise number, case, figure): (kind, bar, measured)} and the GPU of one run's records."""
    figures, gpus = {}, set()
    files = sorted(glob.glob(os.path.join(folder, "*" + SUFFIX)))
    if not files:
        raise CalibrationError(f"{folder}: no speed records (*{SUFFIX})")
    for path in files:
        number = os.path.basename(path)[:2]
        try:
            gpu, _, speeds = speed_margins.read_records_with_gpu(path)
        except (OSError, ValueError) as error:
            raise CalibrationError(str(error)) from error
        gpus.add(gpu)
        for case, figure, kind, bar, measured, _ in speeds:
            figures[(number, case, figure)] = (kind, bar, measured)
    if len(gpus) != 1 or "" in gpus:
        raise CalibrationError(f"{folder}: the records name {len(gpus)} GPUs ({', '.join(sorted(gpus)) or 'none'}); "
                               f"a calibration is one GPU's")
    return figures, gpus.pop()


def three_digits(value, direction):
    """`value` to three significant digits, rounded down ("down") or up ("up")."""
    scale = 10 ** (2 - math.floor(math.log10(value)))
    # A hair of slack, so that 0.44 / 1.1 (0.39999999...) rounds to the 0.4 it is.
    if direction == "down":
        return math.floor(value * scale + 1e-9) / scale
    return math.ceil(value * scale - 1e-9) / scale


def derive(runs, margin=speed_margins.REQUIRED_MARGIN):
    """The site bars of `runs` (read_run's answers): [(number, case, figure, kind, course bar,
    site bar, worst figure)], sorted. Every run must hold the same bars, on one GPU."""
    gpus = {gpu for _, gpu in runs}
    if len(gpus) != 1:
        raise CalibrationError(f"the runs were made on different GPUs: {', '.join(sorted(gpus))}")
    keys = set(runs[0][0])
    for index, (figures, _) in enumerate(runs[1:], 2):
        if set(figures) != keys:
            missing = sorted(keys ^ set(figures))
            raise CalibrationError(f"run {index} judged other bars than run 1 ({len(missing)} differ, "
                                   f"e.g. exercise {missing[0][0]} {missing[0][1]}: {missing[0][2]}): "
                                   "did a reference solution stop before its speed case?")
    rows = []
    for key in sorted(keys):
        kind, course_bar, _ = runs[0][0][key]
        measured = [figures[key][2] for figures, _ in runs]
        if any(figures[key][:2] != (kind, course_bar) for figures, _ in runs):
            raise CalibrationError(f"exercise {key[0]} {key[1]}: the runs judged {key[2]} against different bars "
                                   "(was COURSE_SITE_BARS set?)")
        if kind == "at_least":
            worst = min(measured)
            site = course_bar if worst >= course_bar * (1 + margin) else min(course_bar, three_digits(worst / (1 + margin), "down"))
        else:
            worst = max(measured)
            site = course_bar if worst * (1 + margin) <= course_bar else max(course_bar, three_digits(worst * (1 + margin), "up"))
        rows.append((key[0], key[1], key[2], kind, course_bar, site, worst))
    return gpus.pop(), rows


def write(path, gpu, rows, runs, margin, command):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    relaxed = sum(1 for row in rows if row[5] != row[4])
    lines = [f"# Site bars for {gpu}: written by {command} on {datetime.date.today().isoformat()} from {runs} "
             f"grading(s) of the reference solutions, margin {100 * margin:.0f}%.",
             f"# {len(rows)} bars, {relaxed} relaxed. A check uses them on {gpu} only (make, make check-NN, the "
             "grader: COURSE_SITE_BARS or --site-bars); never stricter than the course's bars.",
             "# bar, exercise, case, figure, kind, the course's bar, the site bar, the reference's worst figure",
             f"gpu\t{gpu}"]
    lines += ["\t".join(["bar", number, case, figure, kind, f"{bar:g}", f"{site:g}", f"{worst:.6g}"])
              for number, case, figure, kind, bar, site, worst in rows]
    temporary = path + ".partial"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(temporary, path)


# One bar of a site bars' file: its kind, the course's bar, the site bar, the reference's worst
# figure on the file's GPU, and where the line is (path:line, for the messages).
SiteBar = collections.namedtuple("SiteBar", "kind course_bar site worst where")


def read(path):
    """(the GPU the file names, {(exercise number, case, figure): SiteBar}, problems) of a site
    bars' file, as written: a malformed line is a problem, not a bar; a file without a 'gpu'
    line names "" (the checks read it in speed_bar.cpp, the grader's speed credit here)."""
    gpu, bars, problems = "", {}, []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").split("\t")
            where = f"{path}:{number}"
            if not fields[0] or fields[0].startswith("#"):
                continue
            if fields[0] == "gpu" and len(fields) == 2 and fields[1]:
                gpu = fields[1]
                continue
            if fields[0] != "bar" or len(fields) != 8 or fields[4] not in ("at_least", "at_most"):
                problems.append(f"{where}: not a 'gpu' or 'bar' line")
                continue
            try:
                course_bar, site, worst = (float(value) for value in fields[5:8])
            except ValueError:
                problems.append(f"{where}: the bars and the figure must be numbers")
                continue
            bars[(fields[1], fields[2], fields[3])] = SiteBar(fields[4], course_bar, site, worst, where)
    return gpu, bars, problems


def check(path, margin=speed_margins.REQUIRED_MARGIN):
    """The problems of a site-bars file: malformed lines, a bar stricter than the course's, a site
    bar the reference's worst figure does not clear by the margin, no GPU named."""
    gpu, bars, problems = read(path)
    for bar in bars.values():
        at_least = bar.kind == "at_least"
        if (bar.site > bar.course_bar) if at_least else (bar.site < bar.course_bar):
            problems.append(f"{bar.where}: the site bar {bar.site:g} is stricter than the course's {bar.course_bar:g}")
        clears = (bar.worst >= bar.site * (1 + margin) * (1 - 1e-9) if at_least
                  else bar.worst * (1 + margin) <= bar.site * (1 + 1e-9))
        if not clears:
            problems.append(f"{bar.where}: the reference's worst figure {bar.worst:g} clears the site bar {bar.site:g} "
                            f"by less than {100 * margin:.0f}%")
    if not gpu:
        problems.append(f"{path}: no 'gpu' line")
    return problems


def gpu_here():
    """Whether nvidia-smi lists a GPU on this machine: the measuring commands need one."""
    return shutil.which("nvidia-smi") is not None and \
        subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


def run_solutions(build_dir, only, run_folder, environment_changes=None):
    """One grading of the reference solutions (their correctness tests), its speed records
    copied to `run_folder`; (tests passed, tests run). The course's bars are judged, unless
    `environment_changes` names site bars (COURSE_SITE_BARS)."""
    scores = os.path.join(build_dir, "scores")
    for old in glob.glob(os.path.join(scores, "*" + SUFFIX)):
        os.remove(old)
    command = ["ctest", "--test-dir", build_dir, "-L", "variant=solution", "-L", "aspect=correctness",
               "-j", str(os.cpu_count() or 1), "--output-on-failure"]
    if only:
        command += ["-R", "^(" + "|".join(only) + ")_"]
    environment = dict(os.environ)
    environment.pop("COURSE_SITE_BARS", None)
    environment.update(environment_changes or {})
    print("== " + " ".join(command), flush=True)
    answer = subprocess.run(command, env=environment, capture_output=True, text=True)
    os.makedirs(run_folder, exist_ok=True)
    with open(os.path.join(run_folder, "ctest.log"), "w", encoding="utf-8") as log:
        log.write(answer.stdout + answer.stderr)
    summary = [line for line in answer.stdout.splitlines() if "tests passed" in line or "***" in line]
    print("\n".join(summary[-12:]), flush=True)
    for path in glob.glob(os.path.join(scores, "*" + SUFFIX)):
        shutil.copy(path, run_folder)
    counted = re.search(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", answer.stdout)
    return (int(counted.group(3)) - int(counted.group(2)), int(counted.group(3))) if counted else (0, 0)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default="build", help="a build of the course for this GPU (make)")
    parser.add_argument("--runs", type=int, default=3, help="gradings of the reference solutions (3)")
    parser.add_argument("--only", default="", help="exercise numbers, e.g. 11,12 (all by default)")
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"the site bars' file ({DEFAULT_OUT})")
    parser.add_argument("--from-scores", nargs="+", metavar="DIR", help="derive from earlier runs' records")
    parser.add_argument("--check", metavar="FILE", help="check a site bars' file and write nothing")
    options = parser.parse_args(argv[1:])
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    return options


def main(argv):
    options = parse_arguments(argv)
    if options.check:
        try:
            problems = check(options.check)
        except OSError as error:
            print(f"calibrate: {error}", file=sys.stderr)
            return 2
        for problem in problems:
            print(problem)
        print(f"{'FAIL' if problems else 'PASS'}: {options.check}: {len(problems)} problem(s)")
        return 1 if problems else 0
    folders = options.from_scores
    if not folders:
        if not gpu_here():
            print("SKIPPED: make calibrate measures the reference solutions on this machine's GPU, and it has "
                  "none (run it on a node of the GPU kind the course is graded on)")
            return EXIT_SKIP
        if not os.path.isdir(os.path.join(options.build_dir, "exercises")):
            print(f"calibrate: {options.build_dir} is not a build of the course (make first)", file=sys.stderr)
            return 2
        only = [number.strip().zfill(2) for number in options.only.split(",") if number.strip()]
        folders = []
        for run in range(1, options.runs + 1):
            folder = os.path.join(options.build_dir, "calibration", f"run-{run}")
            shutil.rmtree(folder, ignore_errors=True)
            print(f"== calibration run {run} of {options.runs}", flush=True)
            run_solutions(options.build_dir, only, folder)
            folders.append(folder)
    try:
        gpu, rows = derive([read_run(folder) for folder in folders])
    except CalibrationError as error:
        print(f"FAIL: {error}")
        return 1
    write(options.out, gpu, rows, len(folders), speed_margins.REQUIRED_MARGIN, "tools/course calibrate")
    for number, case, figure, kind, bar, site, worst in rows:
        said = "kept" if site == bar else f"relaxed to {site:g}"
        print(f"{number} {case}: {figure}: worst {worst:.4g}, the course's {'>=' if kind == 'at_least' else '<='} "
              f"{bar:g} {said}")
    relaxed = sum(1 for row in rows if row[5] != row[4])
    print(f"PASS: {options.out}: {len(rows)} bars on {gpu}, {relaxed} relaxed")
    return 0
