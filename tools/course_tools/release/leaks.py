"""Does a students' release show solution code? (tools/course release runs this on every
release it writes; the release's build test runs it again on the built programs.)

    tools/course release-leaks RELEASE [--course ROOT] [--verbose]

Compared with the course at ROOT (default: this one), RELEASE leaks when:

  - a path of it lies under solutions/ or tests/ (the reference solutions, the known-wrong
    variants, the grading catalog), or is one of the pages for instructors and maintainers
    (docs/instructors.md, docs/maintainers.md: grading, the catalog, the release itself);
  - one of its text files holds the code of a whole solutions/ file, or the code of the
    solution side of a TODO(student) region (its lines between the markers, read by
    tools/course check-regions). Code is compared without comments and without any
    whitespace, so re-indenting, re-flowing or re-commenting a solution hides nothing.
    Regions with fewer than 3 lines of code (a `return x;`) are too common to tell a leak
    from the skeleton's own code, regions whose code the skeleton holds too reveal nothing,
    and a region holding a comment `release-leaks: public` is shown on purpose (a check's
    reference that must compute the very rule its statement spells out): all are counted,
    and named with --verbose, never compared;
  - a program, object or library in it (an ELF file, built ones included: run it after a
    build of the release) names a solutions/NN_ path, which every file compiled from a
    solution carries (-lineinfo, __FILE__ in CUDA_CHECK), or holds a string literal that
    only the solutions' regions contain (8 characters or more);
  - a compile_commands.json in it names a file under solutions/NN_.

Build folders (build/) are read for their programs and compile databases only. Exit
status: 0 no leak, 1 a leak (each one named), 2 a usage error or an unreadable solution.
"""
import argparse
import json
import os
import re
import sys

from course_tools.authoring import regions as check_student_regions
from course_tools.student import exercises
from course_tools.student.paths import ROOT

MIN_REGION_LINES = 3      # regions with fewer lines of code are not compared
MIN_LITERAL_LENGTH = 8    # shorter string literals are too common to prove anything
INSTRUCTOR_FOLDERS = ("solutions/", "tests/")
INSTRUCTOR_PAGES = ("docs/instructors.md", "docs/maintainers.md")
SOLUTION_PATH = re.compile(rb"(?:^|[/\\\0\"' ])solutions/[0-9][0-9]_")
C_FAMILY = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".c")
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'"}
SKIPPED_FOLDERS = (".git", "node_modules", "__pycache__")
# A comment line holding this, inside a solution's region, says the course shows that code
# on purpose (a check's reference that must compute the very rule the statement spells out).
PUBLIC = "release-leaks: public"


class LeakCheckError(Exception):
    pass


def code_lines(text, follow_block_comments):
    """Each line's code: comments removed (// to the end of the line; /* */ within the line,
    or across lines where `follow_block_comments`: in prose a "/*" opens nothing), string
    literals kept, then every whitespace character removed."""
    result, in_block = [], False
    for line in text.splitlines():
        code, at, in_string = [], 0, False
        while at < len(line):
            if in_block:
                end = line.find("*/", at)
                if end < 0:
                    at = len(line)
                    break
                in_block, at = False, end + 2
                continue
            char = line[at]
            if in_string:
                code.append(line[at:at + 2] if char == "\\" else char)
                at += 2 if char == "\\" else 1
                in_string = char != '"'
                continue
            if line.startswith("//", at):
                break
            if line.startswith("/*", at):
                in_block, at = True, at + 2
                continue
            in_string = char == '"'
            code.append(char)
            at += 1
        if in_block and not follow_block_comments:
            in_block = False
        result.append(re.sub(r"\s+", "", "".join(code)))
    return result


def read_text(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def unescaped(literal):
    """The bytes a C string literal puts in a program, or None for escapes not handled here."""
    out, at = [], 0
    while at < len(literal):
        if literal[at] == "\\":
            if literal[at + 1:at + 2] not in ESCAPES:
                return None
            out.append(ESCAPES[literal[at + 1]])
            at += 2
        else:
            out.append(literal[at])
            at += 1
    return "".join(out)


class SolutionCode:
    """What a release must not show: each solution file's code, each region's code, and the
    string literals of the regions."""

    def __init__(self, course):
        self.needles = []          # (description, code without comments or whitespace)
        self.skipped = []          # (description, why)
        self.literals = {}         # literal as written -> description
        self.files = 0
        self.regions = 0
        try:
            found = exercises.load(course)
        except (OSError, exercises.ExerciseError) as error:
            raise LeakCheckError(f"cannot read the course's exercises: {error}")
        student_files = {}
        for exercise in found:
            for name in exercise.student_files:
                student_files[os.path.join("solutions", exercise.id, name)] = os.path.join(exercise.folder, name)
        solutions = os.path.join(course, "solutions")
        for base, _, names in sorted(os.walk(solutions)):
            for name in sorted(names):
                path = os.path.join(base, name)
                relative = os.path.relpath(path, course)
                text = read_text(path)
                if text is None:
                    continue
                self.files += 1
                self._add_file(relative, text, student_files.get(relative))

    def _add_file(self, relative, text, skeleton_path):
        c_family = relative.endswith(C_FAMILY)
        code = code_lines(text, c_family)
        skeleton_code = ""
        if skeleton_path and os.path.isfile(skeleton_path):
            skeleton_code = "".join(code_lines(read_text(skeleton_path) or "", c_family))
        whole = "".join(code)
        if whole and whole not in skeleton_code:
            self.needles.append((f"the whole of {relative}", whole))
        if not skeleton_path:
            return
        try:
            parts = check_student_regions.segments(text.splitlines(), relative)
        except ValueError as error:
            raise LeakCheckError(str(error))
        for index, region in enumerate(parts[1::2], start=1):
            self.regions += 1
            if not region:
                self.skipped.append((f"{relative} region {index}", "empty"))
                continue
            first, last = region[0][0], region[-1][0]
            described = f"region {index} of {relative} (lines {first}-{last})"
            region_code = code[first - 1:last]
            lines_of_code = sum(1 for line in region_code if re.search(r"\w", line))
            joined = "".join(region_code)
            public = next((line.split(PUBLIC, 1)[1].strip(" :") for _, line in region if PUBLIC in line), None)
            if public is not None:
                self.skipped.append((described, f"declared public: {public}"))
            elif lines_of_code < MIN_REGION_LINES:
                self.skipped.append((described, f"{lines_of_code} line(s) of code, fewer than {MIN_REGION_LINES}"))
            elif joined in skeleton_code:
                self.skipped.append((described, "its code is the skeleton's too"))
            else:
                self.needles.append((described, joined))
            for _, line in region:
                for literal in LITERAL.findall(line.split("//")[0]):
                    if len(unescaped(literal) or "") >= MIN_LITERAL_LENGTH:
                        self.literals.setdefault(literal, described)


class Report:
    def __init__(self, release):
        self.release = release
        self.leaks = []
        self.text_files = 0
        self.binary_files = 0
        self.programs = 0
        self.unique_literals = {}  # bytes only a solution's region holds -> where
        self.solution = None

    def lines(self, verbose=False):
        code = self.solution
        skipped_reasons = {}
        for _, why in code.skipped:
            key = ("the skeleton's too" if "skeleton" in why else "declared public" if why.startswith("declared")
                   else "empty" if why == "empty" else "too short")
            skipped_reasons[key] = skipped_reasons.get(key, 0) + 1
        skipped = ", ".join(f"{count} {reason}" for reason, count in sorted(skipped_reasons.items()))
        out = [f"release_leaks: {self.release}: {self.text_files} text files compared with {code.files} solution "
               f"files and {code.regions} solution regions ({code.regions - len(code.skipped)} compared; "
               f"{len(code.skipped)} not: {skipped or 'none'}; too short = fewer than {MIN_REGION_LINES} "
               f"lines of code); {self.programs} programs and objects searched for solutions/ paths and "
               f"{len(self.unique_literals)} string literals found only in solutions; "
               f"{self.binary_files} other binary files (images) not read"]
        if verbose:
            out += [f"  not compared: {what}: {why}" for what, why in code.skipped]
        out += [f"LEAK: {leak}" for leak in self.leaks]
        out.append(f"release_leaks: {len(self.leaks)} leak(s)" if self.leaks else "release_leaks: no leak")
        return out


def release_files(release):
    for base, folders, names in os.walk(release):
        folders[:] = sorted(f for f in folders if f not in SKIPPED_FOLDERS)
        for name in sorted(names):
            path = os.path.join(base, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path, os.path.relpath(path, release)


def scan(release, course=ROOT, shown_as=None):
    """Compares every file of `release` with the solutions of `course`; returns a Report
    (which names the release `shown_as`, by default its path)."""
    release, course = os.path.abspath(release), os.path.abspath(course)
    if not os.path.isdir(release):
        raise LeakCheckError(f"{release}: no such folder")
    code = SolutionCode(course)
    report = Report(shown_as or release)
    report.solution = code
    texts = {}
    for path, relative in release_files(release):
        generated = relative.split(os.sep)[0] == "build"
        if relative.startswith(INSTRUCTOR_FOLDERS):
            report.leaks.append(f"{relative}: an instructor's folder ({relative.split('/')[0]}/) is in the release")
        if relative.replace(os.sep, "/") in INSTRUCTOR_PAGES:
            report.leaks.append(f"{relative}: a page for instructors or maintainers is in the release")
        with open(path, "rb") as handle:
            head = handle.read(4)
        if head == b"\x7fELF":
            report.programs += 1
            texts[relative] = None
            continue
        if generated and os.path.basename(relative) != "compile_commands.json":
            continue
        text = read_text(path)
        if text is None:
            report.binary_files += 1
            continue
        texts[relative] = text
        if os.path.basename(relative) == "compile_commands.json":
            check_compile_database(relative, text, report)
            continue
        report.text_files += 1
        haystack = "".join(code_lines(text, relative.endswith(C_FAMILY)))
        for described, needle in code.needles:
            if needle in haystack:
                report.leaks.append(f"{relative} holds the code of {described}")
    # The literals no release text holds: a program can only have them from a solution.
    shown = [t for t in texts.values() if t]
    unique = {unescaped(l).encode("utf-8"): d for l, d in code.literals.items()
              if unescaped(l) is not None and not any(l in t for t in shown)}
    report.unique_literals = unique
    for relative, text in texts.items():
        if text is None:
            check_program(release, relative, unique, report)
    return report


def check_compile_database(relative, text, report):
    try:
        entries = json.loads(text)
    except ValueError:
        report.leaks.append(f"{relative}: not a readable compile database, so its sources are unknown")
        return
    for entry in entries if isinstance(entries, list) else []:
        source = str(entry.get("file", "")) if isinstance(entry, dict) else ""
        if SOLUTION_PATH.search(source.replace("\\", "/").encode("utf-8")):
            report.leaks.append(f"{relative} compiles {source}, a solution")


def check_program(release, relative, unique, report):
    with open(os.path.join(release, relative), "rb") as handle:
        data = handle.read()
    match = SOLUTION_PATH.search(data)
    if match:
        start = max(0, match.start() - 40)
        context = data[start:match.end() + 40].split(b"\0")
        shown = next((part for part in context if b"solutions/" in part), b"").decode("utf-8", "replace")
        report.leaks.append(f"{relative} was built from a solution: it names {shown.strip()!r}")
    for literal, described in unique.items():
        if literal in data:
            report.leaks.append(f"{relative} holds the string {literal.decode()!r}, found only in {described}")


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("release")
    parser.add_argument("--course", default=ROOT)
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args(argv[1:])
    try:
        report = scan(options.release, options.course)
    except LeakCheckError as error:
        print(f"release_leaks: {error}", file=sys.stderr)
        return 2
    for line in report.lines(options.verbose):
        print(line)
    return 1 if report.leaks else 0
