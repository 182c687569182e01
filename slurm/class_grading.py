#!/usr/bin/env python3
"""The bookkeeping of a class graded by Slurm (slurm/grade-class): which submissions
an array task grades, and what became of each.

    slurm/class_grading.py prepare COURSE_ROOT CLASS RESULTS [--exercises L] [--seed N] [--cpu-only] [--dry-run]
    slurm/class_grading.py task RESULTS STUDENT    one array task's summary of its student
    slurm/class_grading.py collect RESULTS         the collecting job's summary of the class

`prepare` (on the login node, before submitting) lists the class with the course's
tools/course grade --list into RESULTS/slurm/class.tsv (index, student, path: the array
task numbers), fixes the grading's seed and exercises in RESULTS/grading.json as
tools/course grade does at its first run (so that no seed ever appears on a command line
that squeue shows), and prints, one "key<TAB>value" a line: exercises (numbers),
students, todo (the indices to grade, as a Slurm array range) and todo_count. A
student is to grade when tools/course grade would grade it (engine.needs_grading): no
result, an unreadable submission, or (unless --cpu-only) exercises skipped for lack
of a GPU. Names that cannot name a report file (a tab, a newline...) are refused by
tools/course grade --list, so class.tsv never holds one.

`task` and `collect` read what the tasks leave in RESULTS: one result per graded
student (submissions/<student>.json) and the marker of each task that did not finish
(incomplete/<student>.txt). `collect` writes RESULTS/not_graded.txt (student, tab,
reason), or removes it when every student is graded, then writes the class report
again (RESULTS/class.html and class.md, tools/course_tools/grading/class_report.py), whose first
section lists them, and exits 1 when some are not graded.
Python 3 standard library only (the class report's plots use matplotlib where there is one).
"""
import argparse
import json
import os
import subprocess
import sys

NOT_GRADED_FILE = "not_graded.txt"
COURSE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_result(results, student):
    path = os.path.join(results, "submissions", f"{student}.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def points(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


def exercise_line(exercise):
    score = "-" if exercise["status"] == "skipped" else points(exercise["score"])  # skipped: not graded, not 0
    text = f"{exercise['id']}: {exercise['status']}, {score}/{points(exercise['max_score'])}"
    message = (exercise.get("message") or "").strip().splitlines()
    if exercise["status"] != "graded" and message:
        text += f": {message[0]}"
    return text


def task(results, student):
    result = load_result(results, student)
    if result is None:
        print(f"{student}: no result in {os.path.join(results, 'submissions')}")
        return 1
    complete = all(e["status"] != "skipped" for e in result["exercises"])
    score = (f"{points(result['score'])}/{points(result['max_score'])} points" if complete
             else f"not completely graded (skipped exercises count neither way; {points(result['max_score'])} points in all)")
    print(f"{student}: {score}, graded in {result['seconds']:.0f} s")
    for exercise in result["exercises"]:
        print(f"  {exercise_line(exercise)}")
    for warning in result.get("warnings", []):
        print(f"  warning: {warning}")
    skipped = [e["id"] for e in result["exercises"] if e["status"] == "skipped"]
    if skipped:
        print(f"SKIPPED: {', '.join(skipped)} could not be checked on this node (no usable GPU, or --cpu-only): "
              f"not graded yet (never counted as 0); the next slurm/grade-class run on GPU nodes grades them")
    return 0


def read_class(results):
    path = os.path.join(results, "slurm", "class.tsv")
    if not os.path.exists(path):
        raise SystemExit(f"class_grading.py: {path} is missing: submit the grading with slurm/grade-class")
    students = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                index, student, source = line.rstrip("\n").split("\t", 2)
                students.append((int(index), student, source))
    return students


def not_graded_reason(results, student):
    marker = os.path.join(results, "incomplete", f"{student}.txt")
    if os.path.exists(marker):
        with open(marker, encoding="utf-8", errors="replace") as handle:
            lines = [" ".join(line.split()) for line in handle if line.strip()]
        if lines and lines[0].startswith(f"{student}: "):
            lines[0] = lines[0][len(student) + 2:]
        return "; ".join(lines + [f"incomplete/{student}.txt"])
    return "no result and no trace of its task: the task did not run (cancelled while pending?)"


def collect(results):
    students = read_class(results)
    rows, missing, skipped = [], [], []
    for _, student, _ in students:
        result = load_result(results, student)
        if result is None:
            missing.append((student, not_graded_reason(results, student)))
            rows.append((student, "NOT GRADED", "see below"))
            continue
        stale = os.path.join(results, "incomplete", f"{student}.txt")
        if os.path.exists(stale):
            os.remove(stale)  # an earlier attempt's marker; the student is graded now
        statuses = [f"{e['number']}: {e['status']}" for e in result["exercises"] if e["status"] != "graded"]
        skipped += [f"{student} {e['number']}" for e in result["exercises"] if e["status"] == "skipped"]
        complete = all(e["status"] != "skipped" for e in result["exercises"])
        rows.append((student, f"{points(result['score'])}/{points(result['max_score'])}" if complete
                     else f"-/{points(result['max_score'])}", "; ".join(statuses) or "ok"))

    print(f"== class: {len(students)} submission(s), {len(students) - len(missing)} graded, "
          f"{len(missing)} not graded")
    width = max([len("student")] + [len(row[0]) for row in rows])
    print(f"{'student':<{width}}  {'points':>10}  status")
    for student, score, status in rows:
        print(f"{student:<{width}}  {score:>10}  {status}")
    if skipped:
        print(f"== SKIPPED: {len(skipped)} exercise result(s) could not be checked (no usable GPU on the node, "
              f"or --cpu-only): {', '.join(skipped)}; they are not graded yet and the gradebook leaves them empty: "
              f"submit the grading again on GPU nodes (slurm/grade-class CLASS RESULTS) to grade them")

    listing = os.path.join(results, NOT_GRADED_FILE)
    if not missing:
        if os.path.exists(listing):
            os.remove(listing)
        print("== every submission is graded")
        write_class_report(results, missing)
        return 0
    temporary = listing + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        for student, reason in missing:
            handle.write(f"{student}\t{reason}\n")
    os.replace(temporary, listing)
    print(f"== NOT GRADED ({len(missing)}), listed in {listing}; they are absent from the gradebook:")
    for student, reason in missing:
        print(f"  {student}: {reason}")
    print("== submit the same grading again (slurm/grade-class CLASS RESULTS): only these are graded")
    write_class_report(results, missing)
    return 1


def write_class_report(results, missing):
    """The class report again, now that the submissions without a result and the reasons
    are known (tools/course grade --reports-only wrote it before). A failure is said in the
    log; it changes nothing else, the gradebook and the list above being written."""
    sys.path.insert(0, os.path.join(COURSE_ROOT, "tools"))
    from course_tools.grading import class_report, engine, reports
    try:
        exercises = engine.grading_settings(results, None, None, None, create=False)["exercises"]
        written = class_report.write(results, reports.load_results(results), exercises, dict(missing))
    except (engine.SettingsError, reports.ReportError) as error:
        print(f"== the class report was not written: {error}")
        return
    print(f"== class report: {written[0]}")


def array_ranges(indices):
    """[0, 1, 2, 5, 7, 8] -> '0-2,5,7-8' (Slurm's --array syntax)."""
    parts, start = [], None
    for position, index in enumerate(indices):
        if start is None:
            start = index
        if position + 1 == len(indices) or indices[position + 1] != index + 1:
            parts.append(str(start) if start == index else f"{start}-{index}")
            start = None
    return ",".join(parts)


def prepare(argv):
    parser = argparse.ArgumentParser(prog="class_grading.py prepare")
    parser.add_argument("course_root")
    parser.add_argument("class_folder")
    parser.add_argument("results")
    parser.add_argument("--exercises")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--cpu-only", action="store_true", help="the tasks grade --cpu-only")
    parser.add_argument("--dry-run", action="store_true", help="write nothing")
    arguments = parser.parse_args(argv)
    tools = os.path.join(arguments.course_root, "tools")
    launcher = os.path.join(tools, "course")
    grade = os.path.join(tools, "course_tools", "grading", "grade.py")
    if not os.path.isfile(grade):
        raise SystemExit(f"class_grading.py: {grade} does not exist: COURSE_ROOT must be a copy of the course")
    sys.path.insert(0, tools)
    from course_tools.student import exercises as course_exercises  # the grader's view of the exercises
    from course_tools.grading import engine

    listing = subprocess.run([sys.executable, launcher, "grade", arguments.class_folder, "--class", "--results", arguments.results,
                              "--list"], capture_output=True, text=True)
    if listing.returncode != 0:
        sys.stderr.write(listing.stderr)
        raise SystemExit(f"class_grading.py: the class {arguments.class_folder} cannot be listed (above)")
    lines = [line for line in listing.stdout.splitlines() if line.strip()]

    try:
        if arguments.exercises:
            requested = list(dict.fromkeys(course_exercises.find(arguments.course_root, n.strip()).id
                                           for n in arguments.exercises.split(",")))
        else:
            requested = None
        every = [e.id for e in course_exercises.load(arguments.course_root)]
    except course_exercises.ExerciseError as error:
        raise SystemExit(f"class_grading.py: {error}")
    notes = []
    try:
        settings = engine.grading_settings(arguments.results, arguments.seed, requested, every,
                                           create=not arguments.dry_run, notes=notes)
    except engine.SettingsError as error:
        raise SystemExit(f"class_grading.py: {error}")
    for note in notes:
        print(f"class_grading.py: repaired: {note}", file=sys.stderr)
    exercise_ids = settings["exercises"]

    todo = []
    for line in lines:
        index, student, _ = line.split("\t", 2)
        if engine.needs_grading(os.path.join(arguments.results, "submissions", f"{student}.json"),
                                arguments.cpu_only):
            todo.append(int(index))
    if not arguments.dry_run:
        for folder in ("slurm", "logs", "incomplete"):
            os.makedirs(os.path.join(arguments.results, folder), exist_ok=True)
        path = os.path.join(arguments.results, "slurm", "class.tsv")
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
        os.replace(path + ".tmp", path)
    print(f"exercises\t{','.join(i.split('_', 1)[0] for i in exercise_ids)}")
    print(f"students\t{len(lines)}")
    print(f"todo\t{array_ranges(todo)}")
    print(f"todo_count\t{len(todo)}")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "prepare":
        return prepare(argv[2:])
    if len(argv) == 4 and argv[1] == "task":
        return task(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "collect":
        return collect(argv[2])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
