#!/usr/bin/env python3
"""A class of known-wrong variants, to prove on a GPU that the class report's hints are
the known mistakes (tools/course_tools/grading/class_report.py). Each student hands in the reference
solutions of the chosen exercises with one known-wrong variant applied
(tests/mutants/NN_name/<variant>.mutant, the edits cmake/Mutants.cmake applies); a
variant handed in by COPIES students makes its hint the more frequent. After grading,
`check` finds, for each variant, the hint its .mutant declares in the class report's
hints, on a row that names each of its students, and prints the hints most students got.

    tests/grading/mutant_class.py write CLASS --exercises 03,04,14 [--copies 03-no_bounds_check=3,...]
    sudo tools/course grade CLASS --class --results RESULTS --exercises 03,04,14 --jobs 8
    tests/grading/mutant_class.py check CLASS RESULTS

A student is named NN-variant (NN-variant-2, -3... for the copies). Valid variants
(expect: pass) and races that only racecheck must report (racecheck: only) are left
out: their check may pass. A hint that only hidden cases printed is withheld from the page
(it may quote hidden inputs), and a .mutant's declared text may belong to the failure
message rather than to a `hint:` line: check accepts either when the results show exactly
that. Exit status of check: 0 when every variant is accounted for, 1 otherwise.
"""
import argparse
import html
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from course_tools.student import exercises as course_exercises  # noqa: E402
import run_catalog  # noqa: E402  (parse_edits, apply_edits: Mutants.cmake's edits in Python)
from course_tools.grading import class_report, reports  # noqa: E402

STUDENT = re.compile(r"(\d+)-(.+?)(?:-(\d+))?\Z")


def header(text, key):
    found = re.search(rf"^{key}:\s*(.*?)\s*$", text, re.M)
    return found.group(1) if found else None


def variants(exercise):
    """(name, hint, student file, text of the .mutant) of each known-wrong variant."""
    folder = os.path.join(ROOT, "tests", "mutants", exercise.id)
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".mutant"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            text = handle.read()
        if header(text, "expect") == "pass" or header(text, "racecheck") == "only":
            continue
        found.append((name[:-len(".mutant")], header(text, "hint"), header(text, "file") or exercise.student_files[0],
                      text))
    return found


def solution_files(exercise):
    files = {}
    for name in exercise.student_files:
        with open(os.path.join(ROOT, "solutions", exercise.id, name), encoding="utf-8") as handle:
            files[name] = handle.read()
    return files


def chosen(numbers):
    return [course_exercises.find(ROOT, number.strip()) for number in numbers.split(",")]


def write(class_dir, numbers, copies):
    exercises = chosen(numbers)
    solutions = {exercise.id: solution_files(exercise) for exercise in exercises}
    students = 0
    for exercise in exercises:
        for variant, _, target, text in variants(exercise):
            edited = run_catalog.apply_edits(solutions[exercise.id][target], run_catalog.parse_edits(text, variant),
                                             variant, target)
            for copy in range(1, copies.get(f"{exercise.number}-{variant}", copies.get(variant, 1)) + 1):
                student = f"{exercise.number}-{variant}" + (f"-{copy}" if copy > 1 else "")
                for other in exercises:
                    for name, content in solutions[other.id].items():
                        if other.id == exercise.id and name == target:
                            content = edited
                        path = os.path.join(class_dir, student, "exercises", other.id, name)
                        os.makedirs(os.path.dirname(path), exist_ok=True)
                        with open(path, "w", encoding="utf-8") as handle:
                            handle.write(content)
                students += 1
    print(f"{students} submissions written in {class_dir}, one known-wrong variant each")
    return 0


def printed_in(results, students, exercise_id, declared):
    """Where each of `students` printed the `declared` text of its variant: "hidden" when
    only hidden cases did (the class page counts such a hint without its text: it may quote
    hidden inputs), "message" when a visible case did (a .mutant's declared text may be part
    of the failure message rather than of a `hint:` line), None when some student did not."""
    places = set()
    for student in students:
        result = next((r for r in results if r.get("student") == student), None)
        items = [item for exercise in (result or {}).get("exercises", []) if exercise.get("id") == exercise_id
                 for item in exercise.get("items", []) if declared in (item.get("output") or "")]
        if not items:
            return None
        places.add("hidden" if all(item.get("hidden") for item in items) else "message")
    return "message" if "message" in places else "hidden"


def check(class_dir, results_dir):
    by_variant = {}
    for student in sorted(os.listdir(class_dir)):
        match = STUDENT.match(student)
        if match:
            by_variant.setdefault((match.group(1), match.group(2)), []).append(student)
    exercises = {exercise.number: exercise for exercise in course_exercises.load(ROOT)}
    results = reports.load_results(results_dir)
    data = class_report.gather(results, None, class_report.listed_not_graded(results_dir))
    with open(os.path.join(results_dir, class_report.HTML_FILE), encoding="utf-8") as handle:
        page = handle.read()
    problems = []
    for (number, variant), students in sorted(by_variant.items()):
        hints = {name: hint for name, hint, _, _ in variants(exercises[number])}
        declared = hints.get(variant)
        if declared is None:
            continue
        rows = [hint for hint in data.hints if hint.exercise == exercises[number].id and declared in hint.text]
        named = {student for hint in rows for student in hint.students}
        where = None if rows else printed_in(results, students, exercises[number].id, declared)
        hinted = {student for hint in data.hints if hint.exercise == exercises[number].id
                  for student in hint.students}
        if where == "hidden":
            print(f"ok: {number} {variant}: {declared!r} printed by hidden cases only: withheld from the page, "
                  f"as it must be, {len(students)} student(s)")
        elif where == "message":
            # The declared text is the failure message (a forged result, a program that never
            # launched a kernel): the page shows the failed cases; a hint row only where the
            # check printed a hint line too.
            listed = "listed under the hints their cases printed" if set(students) <= hinted else \
                "with no hint line: the failed cases' rates show it"
            print(f"ok: {number} {variant}: {declared!r} in the failure message, {len(students)} student(s) "
                  f"{listed}")
        elif not rows:
            problems.append(f"{number} {variant}: no hint containing {declared!r}")
        elif not set(students) <= named:
            problems.append(f"{number} {variant}: {declared!r} does not name {sorted(set(students) - named)}")
        else:
            print(f"ok: {number} {variant}: {declared!r}, {len(students)} student(s)")
    shown = data.hints[:class_report.MOST_HINTS]
    for hint in shown:
        if html.escape(hint.text) not in page:
            problems.append(f"class.html lacks the hint {hint.text!r}")
    print(f"\nthe hints most students got ({len(shown)} of {len(data.hints)} on the page):")
    for hint in shown[:15]:
        print(f"  {len(hint.students):3d} student(s)  {hint.exercise}: {hint.text}")
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    writing = commands.add_parser("write")
    writing.add_argument("class_dir")
    writing.add_argument("--exercises", required=True, help="comma-separated numbers")
    writing.add_argument("--copies", default="",
                         help="VARIANT=N,... or NN-VARIANT=N,...: how many students hand in that variant (default 1)")
    checking = commands.add_parser("check")
    checking.add_argument("class_dir")
    checking.add_argument("results_dir")
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "write":
            copies = {name: int(count) for name, _, count in
                      (item.partition("=") for item in arguments.copies.split(",") if item)}
            return write(arguments.class_dir, arguments.exercises, copies)
        return check(arguments.class_dir, arguments.results_dir)
    except (course_exercises.ExerciseError, run_catalog.CatalogError, reports.ReportError, ValueError) as error:
        print(f"mutant_class.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
