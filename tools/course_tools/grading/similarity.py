"""Submissions whose code for one exercise is nearly the same: the pairs the class report
shows, side by side, for the instructor to look at (a flag, never a grade).

What is compared: each student's own lines, the files the grade was given for, kept by the
grader under RESULTS/sources/<student>/<exercise id>/ (engine.py), with every line that the
exercise's skeleton also has left out (the TODO comments, the signatures, the includes), so
that two students are not alike for what they were both given.

How: Debian's similarity-tester (sim_c, Dick Grune's SIM for C, which reads C++ and CUDA
well enough: it compares token runs, so that layout, comments and renamed identifiers do
not hide a copy). `sim_c -p -a` says, for each file, what share of it is also in another; a
pair is flagged when each of the two is at least THRESHOLD percent the other's material.

What it cannot see: code rewritten by hand (statements reordered, a loop turned into
another), copying from outside the class (a web page, an assistant), and the exercises
whose own code is short: there the right answer is nearly unique and every good
submission looks like every other. An exercise whose students wrote fewer than
LEAST_TOKENS tokens of their own (the median) is not compared, and the report says so.
"""
import os
import re
import shutil
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field

SOURCES_DIR = "sources"        # RESULTS/sources/<student>/<exercise id>/<file>
SIM = "sim_c"
PACKAGE = "similarity-tester"
THRESHOLD = 80                 # percent, each way
LEAST_TOKENS = 120             # own tokens, the class's median, for an exercise to be compared
LARGEST_SOURCE = 1 << 20       # bytes: a larger "source" is not kept
SIM_LINE = re.compile(r"^(\d+)\.cu consists for (\d+) % of (\d+)\.cu material$")
TOKENS_LINE = re.compile(r"^File (\d+)\.cu: (\d+) tokens")


@dataclass
class Pair:
    exercise: str
    first: str
    second: str
    first_in_second: int       # percent of the first's own code found in the second
    second_in_first: int
    first_lines: list = field(default_factory=list)
    second_lines: list = field(default_factory=list)


@dataclass
class Outcome:
    pairs: list = field(default_factory=list)      # Pair, most alike first
    compared: list = field(default_factory=list)   # (exercise, submissions compared)
    too_short: list = field(default_factory=list)  # (exercise, median own tokens)
    missing_tool: str = ""                         # why nothing was compared, if so


def keep_sources(results_dir, student, raw, exercises):
    """Copies the files each exercise was graded on (raw/<found>, exercise["files"]) under
    RESULTS/sources/<student>/, replacing what an earlier grading kept."""
    folder = os.path.join(results_dir, SOURCES_DIR, student)
    shutil.rmtree(folder, ignore_errors=True)
    for exercise in exercises:
        for wanted, found in (exercise.get("files") or {}).items():
            source = os.path.join(raw, found)
            inside = os.path.realpath(source).startswith(os.path.realpath(raw) + os.sep)
            if not inside or not os.path.isfile(source) or os.path.getsize(source) > LARGEST_SOURCE:
                continue  # a link out of the submission, or no source file: nothing to compare
            target = os.path.join(folder, exercise["id"], os.path.basename(wanted))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)


def skeleton_lines(course_root, exercise_id):
    """The stripped, non-empty lines of every file of the exercise's skeleton folder."""
    lines = set()
    folder = os.path.join(course_root, "exercises", exercise_id)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines |= {line.strip() for line in handle if line.strip()}
    return lines


def own_lines(results_dir, student, exercise_id, given):
    """The student's lines of one exercise that the skeleton does not have, file by file."""
    folder = os.path.join(results_dir, SOURCES_DIR, student, exercise_id)
    lines = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
            lines += [line.rstrip("\n") for line in handle if line.strip() and line.strip() not in given]
    return lines


def run_sim(texts):
    """({index: tokens}, [(i, j, percent of i in j)]) of sim_c over texts, by index."""
    with tempfile.TemporaryDirectory(prefix="similarity-") as scratch:
        names = []
        for index, text in enumerate(texts):
            name = f"{index}.cu"
            with open(os.path.join(scratch, name), "w", encoding="utf-8") as handle:
                handle.write(text)
            names.append(name)
        done = subprocess.run([SIM, "-p", "-a", "-e", "-t", "1", *names], cwd=scratch, capture_output=True,
                              text=True, timeout=600)
    tokens, found = {}, []
    for line in done.stdout.splitlines() + done.stderr.splitlines():
        match = TOKENS_LINE.match(line.strip())
        if match:
            tokens[int(match.group(1))] = int(match.group(2))
        match = SIM_LINE.match(line.strip())
        if match:
            found.append((int(match.group(1)), int(match.group(3)), int(match.group(2))))
    return tokens, found


def compare(results_dir, course_root, columns, students):
    """The Outcome of comparing, exercise by exercise (`columns`), the kept sources of `students`."""
    outcome = Outcome()
    if not shutil.which(SIM):
        outcome.missing_tool = (f"{SIM} is not installed (Debian and Ubuntu: apt-get install {PACKAGE}): "
                                f"submissions were not compared")
        return outcome
    for exercise_id in columns:
        given = skeleton_lines(course_root, exercise_id)
        own = [(student, own_lines(results_dir, student, exercise_id, given)) for student in students]
        own = [(student, lines) for student, lines in own if lines]
        if len(own) < 2:
            continue
        tokens, found = run_sim(["\n".join(lines) + "\n" for _, lines in own])
        median = statistics.median(tokens.get(index, 0) for index in range(len(own)))
        if median < LEAST_TOKENS:
            outcome.too_short.append((exercise_id, median))
            continue
        outcome.compared.append((exercise_id, len(own)))
        share = {(i, j): percent for i, j, percent in found}
        for (i, j), percent in share.items():
            back = share.get((j, i), 0)
            if i < j and percent >= THRESHOLD and back >= THRESHOLD:
                outcome.pairs.append(Pair(exercise_id, own[i][0], own[j][0], percent, back,
                                          own[i][1], own[j][1]))
    outcome.pairs.sort(key=lambda pair: (-min(pair.first_in_second, pair.second_in_first), pair.exercise,
                                         pair.first, pair.second))
    return outcome
