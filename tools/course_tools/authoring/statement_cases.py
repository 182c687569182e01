"""What an exercise's statement says of each case of its check: the cases table of
exercises/NN_name/README.md ("## What the check verifies"), read by the reports that
name a case to people (the class report, tools/course_tools/grading/class_report.py).

The table is the one whose header starts with "case":

    | case | points | what it catches |
    |---|---|---|
    | `n_is_one` | 2 | the smallest array: one block with one useful thread |
    | `<step>_multiples_of_the_tile` | 2 each | ... |

A name written `<step>_rest` stands for every case named `anything_rest` (exercise
21's cases, one per step). Columns between the points and the last one (exercise 24's
"runs under") are put before the description: "runs under memcheck: ...".
"""
import os
import re

from course_tools.student.paths import EXERCISES

# A cell separator: a '|' not escaped as '\|'.
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
NAME = re.compile(r"`([^`]+)`")
PLACEHOLDER = re.compile(r"<[^<>]+>")
# A marker for the case-tables test (`<!-- bar 04 case -->` after a quoted figure): not words.
MARKER = re.compile(r"\s*<!--.*?-->")


def cells(line):
    parts = CELL_SEPARATOR.split(line.strip())
    return [part.strip().replace("\\|", "|") for part in parts[1:-1]]


def is_rule(row):
    return bool(row) and all(re.fullmatch(r":?-{3,}:?", cell) for cell in row)


def parse(text):
    """[(name, description)] of every cases table in a statement's text, in its order."""
    found = []
    header = None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            header = row if row and row[0].lower() == "case" else []
            continue
        if not header or is_rule(row) or len(row) < 2:
            continue
        names = NAME.findall(row[0]) or [row[0]]
        extra = [f"{header[index]} {row[index].replace('`', '')}" for index in range(2, min(len(row), len(header)) - 1)]
        description = MARKER.sub("", row[-1]) if len(row) > 2 else ""
        if extra:
            description = "; ".join(extra) + (f": {description}" if description else "")
        found += [(name, description) for name in names]
    return found


class Cases:
    """The descriptions of one exercise's cases; describe(name) finds one or ''."""

    def __init__(self, entries):
        self.exact = {}
        self.patterns = []
        for name, description in entries:
            if PLACEHOLDER.search(name):
                parts = PLACEHOLDER.split(name)
                self.patterns.append((re.compile(".+".join(re.escape(part) for part in parts) + r"\Z"), description))
            else:
                self.exact.setdefault(name, description)

    def describe(self, name):
        if name in self.exact:
            return self.exact[name]
        for pattern, description in self.patterns:
            if pattern.match(name):
                return description
        return ""


def load(exercise_id, exercises_dir=EXERCISES):
    """The Cases of exercises/<exercise_id>/README.md; empty where it has none."""
    if not re.fullmatch(r"[0-9]+_\w+", exercise_id):
        return Cases([])  # not an exercise's folder name
    path = os.path.join(exercises_dir, exercise_id, "README.md")
    try:
        with open(path, encoding="utf-8") as handle:
            return Cases(parse(handle.read()))
    except (OSError, UnicodeDecodeError):
        return Cases([])
