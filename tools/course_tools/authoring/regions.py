"""Checks that each skeleton differs from its reference solution only inside the
student regions.

A region opens at a line containing `TODO(student)` and closes at the next line
containing `END TODO(student)`; both marker lines are part of the shared text. Outside
the regions, skeleton and solution must be identical line for line, and they must
have the same number of regions. Usage: tools/course check-regions [repository root]
"""
import os
import sys

from course_tools.student import exercises
from course_tools.student.paths import ROOT

OPEN = "TODO(student)"
CLOSE = "END TODO(student)"


def segments(lines, path):
    """The file cut at its regions: a list that starts and ends with a shared part and
    alternates shared and region parts, each a list of (line number, line). A region's
    marker lines belong to the shared parts around it (the opening one ends the part
    before it, the closing one starts the part after it), so a file with k regions gives
    2k + 1 parts. Raises ValueError on a region never closed, nested, or closed twice.
    The students' release (release/update.py, release/leaks.py) reads regions here."""
    parts, current, inside = [], [], False
    for number, line in enumerate(lines, start=1):
        if CLOSE in line:
            if not inside:
                raise ValueError(f"{path}:{number}: '{CLOSE}' without an open region")
            inside = False
            parts.append(current)
            current = [(number, line)]
        elif OPEN in line:
            if inside:
                raise ValueError(f"{path}:{number}: '{OPEN}' inside an open region")
            inside = True
            current.append((number, line))
            parts.append(current)
            current = []
        else:
            current.append((number, line))
    if inside:
        raise ValueError(f"{path}: the last region is never closed")
    parts.append(current)
    return parts


def split_regions(lines, path):
    """Returns (shared lines with their numbers, region count) or raises ValueError."""
    parts = segments(lines, path)
    shared = [line for part in parts[0::2] for line in part]
    return shared, len(parts) // 2


def compare(skeleton_path, solution_path):
    """A list of problems (empty when the pair is consistent)."""
    problems = []
    for path in (skeleton_path, solution_path):
        if not os.path.isfile(path):
            return [f"{path}: missing"]
    with open(skeleton_path, encoding="utf-8") as handle:
        skeleton_lines = handle.read().splitlines()
    with open(solution_path, encoding="utf-8") as handle:
        solution_lines = handle.read().splitlines()
    try:
        skeleton, skeleton_regions = split_regions(skeleton_lines, skeleton_path)
        solution, solution_regions = split_regions(solution_lines, solution_path)
    except ValueError as error:
        return [str(error)]
    if skeleton_regions == 0:
        problems.append(f"{skeleton_path}: no '{OPEN}' region: what does the student write?")
    if skeleton_regions != solution_regions:
        problems.append(f"{skeleton_path}: {skeleton_regions} regions, the solution has {solution_regions}")
    for (sk_number, sk_line), (so_number, so_line) in zip(skeleton, solution):
        if sk_line != so_line:
            problems.append(f"{skeleton_path}:{sk_number} and {solution_path}:{so_number} differ outside "
                            f"the student regions:\n    skeleton: {sk_line}\n    solution: {so_line}")
            break
    else:
        if len(skeleton) != len(solution):
            problems.append(f"{skeleton_path}: {len(skeleton)} shared lines, the solution has {len(solution)}")
    return problems


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else ROOT)
    try:
        found = exercises.load(root)
    except exercises.ExerciseError as error:
        print(error, file=sys.stderr)
        return 1
    problems, pairs = [], 0
    for exercise in found:
        for name in exercise.student_files:
            pairs += 1
            problems += compare(os.path.join(exercise.folder, name),
                                os.path.join(root, "solutions", exercise.id, name))
    for problem in problems:
        print(problem)
    print(f"{pairs} skeleton/solution pairs checked, {len(problems)} problems")
    return 1 if problems or pairs == 0 else 0
