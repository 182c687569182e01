"""Each number in one place: the checks. Every check prints its cases (`check_NN --list-json`:
name, points, and the speed bars a timed case judges, each with the reference solution's
figures); this tool holds the pages that repeat them against that list.

- statements: the table of exercises/NN_name/README.md ("## What the check verifies") and of
  README.fr.md ("## Ce que vérifie le correcteur") has one row for every case (a name with
  `<placeholder>` covers several, "2 each" gives each its points), the check's points, the
  total in the heading where it quotes one, and in a timed case's row the number of each of
  its bars (0.6 may be written 60%; in French 0,6 or 60 %);
- speed-bars: the table of tests/speed_bars.md, between its two `case_tables` lines, is
  written from the checks (--write), or compared with what would be written;
- quoted: a bar or a reference figure quoted in a slide or a statement's prose carries an
  HTML comment naming its case, right after the number:

      the check asks for 1.15<!-- bar 17 streams_overlap_copies -->
      0.63-0.68<!-- reference 12 short_rows_speed_4m_x_3 --> of the copy ceiling on an H200

  `bar` wants one of the case's bars (`bar 18 steps_first_pass_speed 2`: its second),
  `reference` a number or a range whose every end is one of its bars' reference figures
  (0.92-0.96 for "0.95-0.96 on H100, 0.92-0.93 on H200"); a share may be written as a
  percentage. The comment shows on no rendered page. On a line that announces a figure
  ("Graded", "the check asks", "the reference: 1.3", their French), a decimal, a percentage
  or "1.5x" without such a comment fails (an estimate "≈ 1.5" excepted): a quoted figure
  cannot escape the test.

The checks come from --checks: check executables (run with --list-json), saved JSON files,
or folders of them. Exit status: 0 when every page agrees, 1 when one differs (each message
names the file, the line, the case, what the check says and what the page says), 2 on misuse.

    tools/course case-tables all --checks build/default/exercises/*/check_[0-9][0-9]
    tools/course case-tables speed-bars --write --checks saved_json/
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

from course_tools.student.paths import ROOT

HEADINGS = {"en": "## What the check verifies", "fr": "## Ce que vérifie le correcteur"}
TABLE_FIRST_CELL = {"case", "cas"}
EACH = re.compile(r"^(\d+)(?:\s+(each|chacun|chacune))?$")
PLACEHOLDER = re.compile(r"<[^<>`]+>")
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
TICKED = re.compile(r"`([^`]+)`")
MARKER = re.compile(r"<!--\s*(bar|reference)\s+(\d+)\s+([A-Za-z0-9_]+)(?:\s+(\d+))?\s*-->")
ANY_MARKER = re.compile(r"<!--\s*(bar|reference)\b")
AFTER_FIGURE = re.compile(r"\s*<!--\s*(bar|reference)\b")
# Words that announce a bar or a reference figure: a line holding one and a number must
# carry the comment, so that a figure cannot be quoted where no test sees it.
# French pages put a no-break space (U+00A0, U+202F) where English puts a space or none:
# every space between words is \s.
ANNOUNCES_FIGURE = re.compile(r"\bGraded\b|\bNoté\b|the\s+check\s+asks|le\s+correcteur\s+demande|the\s+reference\s*:\s*\d|"
                              r"la\s+référence\s*:\s*\d|reference\s+solution\s+reaches|solution\s+de\s+référence\s+atteint",
                              re.IGNORECASE)
BEGIN = "<!-- case_tables: begin (written by tools/course case-tables speed-bars --write; edit the checks, not this table) -->"
END = "<!-- case_tables: end -->"
SPEED_BARS = os.path.join("tests", "speed_bars.md")


class Misuse(Exception):
    pass


class Problems:
    def __init__(self):
        self.lines = []

    def add(self, path, line, message):
        where = os.path.relpath(path, ROOT_IN_USE) if os.path.isabs(path) else path
        self.lines.append(f"{where}:{line}: {message}" if line else f"{where}: {message}")


ROOT_IN_USE = ROOT


# ---------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------

def load_checks(sources):
    """{number: the check's JSON} from executables, JSON files and folders of JSON files."""
    checks = {}
    for source in sources:
        if os.path.isdir(source):
            paths = sorted(glob.glob(os.path.join(source, "*.json")))
            if not paths:
                raise Misuse(f"{source}: a folder without any .json file")
        else:
            paths = [source]
        for path in paths:
            if path.endswith(".json"):
                try:
                    with open(path, encoding="utf-8") as stream:
                        text = stream.read()
                except OSError as error:
                    raise Misuse(f"{path}: {error.strerror}")
            elif os.access(path, os.X_OK) and os.path.isfile(path):
                run = subprocess.run([path, "--list-json"], capture_output=True, text=True, timeout=60)
                if run.returncode != 0:
                    raise Misuse(f"{path} --list-json: exit status {run.returncode}: {run.stderr.strip()}")
                text = run.stdout
            else:
                raise Misuse(f"{path}: neither a check executable, a .json file nor a folder")
            try:
                check = json.loads(text)
                number = check["number"]
                for case in check["cases"]:
                    case["name"], case["points"], case.get("bars", [])
            except (ValueError, KeyError, TypeError) as error:
                raise Misuse(f"{path}: not a check's --list-json ({error})")
            if number in checks:
                raise Misuse(f"{path}: a second check for exercise {number}")
            check["source"] = path
            checks[number] = check
    if not checks:
        raise Misuse("no check given (--checks)")
    return checks


def exercise_dir(root, check):
    folder = os.path.join(root, "exercises", f"{check['number']}_{check['name']}")
    return folder if os.path.isdir(folder) else None


# ---------------------------------------------------------------------------------------
# Numbers as pages write them
# ---------------------------------------------------------------------------------------

def number_pattern(french):
    decimal = r"\d+(?:,\d+)?" if french else r"\d+(?:\.\d+)?"
    return decimal


def to_float(text, french):
    return float(text.replace(",", ".") if french else text)


def same(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def numbers_in(text, french):
    """Every number of a text, a percentage also as its share (60% -> 0.6 and 60)."""
    found = []
    for match in re.finditer(r"(?<![\w.,])(" + number_pattern(french) + r")(\s*%)?", text):
        value = to_float(match.group(1), french)
        found.append(value / 100 if match.group(2) else value)
        found.append(value)
    return found


def show(value):
    return f"{value:g}"


def shown_bar(bar):
    return (">= " if bar["kind"] == "at_least" else "<= ") + show(bar["bar"])


def direction(bar, french=False):
    if french:
        return ("au moins " if bar["kind"] == "at_least" else "au plus ") + show(bar["bar"]).replace(".", ",")
    return ("at least " if bar["kind"] == "at_least" else "at most ") + show(bar["bar"])


def reference_ranges(reference):
    """[(low, high)] of the figures in a bar's reference text ("0.73-0.78 on H100, 0.63 on
    H200" -> [(0.73, 0.78), (0.63, 0.63)]); GPU names (H100, two H200s) are not figures."""
    text = re.sub(r"\b[A-Z]\d+\w*", " ", reference)
    ranges = []
    for match in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?:-|to)\s*(\d+(?:\.\d+)?))?", text):
        low = float(match.group(1))
        high = float(match.group(2)) if match.group(2) else low
        ranges.append((low, high))
    return ranges


def smallest_margin(bar):
    """How far the reference's worst figure lies on the good side of the bar, relative."""
    figures = [value for pair in reference_ranges(bar["reference"]) for value in pair]
    if not figures or bar["bar"] <= 0:
        return None
    if bar["kind"] == "at_least":
        return min(figures) / bar["bar"] - 1.0
    return bar["bar"] / max(figures) - 1.0


# ---------------------------------------------------------------------------------------
# Statements' case tables
# ---------------------------------------------------------------------------------------

def cells(line):
    parts = CELL_SEPARATOR.split(line.strip())
    return [part.strip() for part in parts[1:-1]]


def read_section(path, language):
    """(heading line number, heading, [(line number, cells)]) of the statement's section
    on the check, or None where the statement has no such section."""
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    heading_at = None
    rows = []
    in_table = False
    for index, line in enumerate(lines, 1):
        if line.startswith("## "):
            if heading_at is not None:
                break
            if line.startswith(HEADINGS[language]):
                heading_at = index
            continue
        if heading_at is None:
            continue
        if not line.lstrip().startswith("|"):
            in_table = False
            continue
        row = cells(line)
        if not in_table:
            in_table = bool(row) and row[0].lower() in TABLE_FIRST_CELL
            continue
        if all(re.fullmatch(r":?-{3,}:?", cell) for cell in row):
            continue
        rows.append((index, row))
    if heading_at is None:
        return None
    return heading_at, lines[heading_at - 1], rows


def check_statement(path, language, check, problems):
    french = language == "fr"
    section = read_section(path, language)
    if section is None:
        problems.add(path, 0, f"no section '{HEADINGS[language]}' (the check's cases go in a table there)")
        return
    heading_at, heading, rows = section
    quoted_total = re.search(r"\((\d+) points", heading)
    if quoted_total and int(quoted_total.group(1)) != check["points"]:
        problems.add(path, heading_at, f"the heading quotes {quoted_total.group(1)} points, "
                                       f"the check's cases add up to {check['points']}")
    if not rows:
        problems.add(path, heading_at, "no case table ('| case | points | ... |') in this section")
        return
    cases = {case["name"]: case for case in check["cases"]}
    entries = []  # (line, row, points written, each, {name: pattern or None})
    for line, row in rows:
        if len(row) < 2:
            problems.add(path, line, "a row of the case table without a points column")
            continue
        names = TICKED.findall(row[0]) or [row[0]]
        points = EACH.match(row[1].strip())
        if not points:
            problems.add(path, line, f"points '{row[1]}': write a number, or 'N each' for a name that covers several cases")
            continue
        each = bool(points.group(2)) or len(names) == 1
        entries.append((line, row, int(points.group(1)), each, names))
    # A case belongs to the row naming it, else to the most specific placeholder that
    # matches it (`<step>_edges_not_multiples_of_the_tile` before `<step>_multiples_of_the_tile`).
    owners = {}
    for line, row, written, each, names in entries:
        for name in names:
            if PLACEHOLDER.search(name):
                literal = PLACEHOLDER.split(name)
                pattern = re.compile(".+".join(re.escape(part) for part in literal) + r"\Z")
                matched = [case for case in cases if pattern.match(case)]
                if not matched:
                    problems.add(path, line, f"`{name}` names no case of the check (its cases: check_{check['number']} --list)")
                rank = len("".join(literal))
            elif name in cases:
                matched, rank = [name], 10**6
            else:
                problems.add(path, line, f"case `{name}`: the check has no such case, the page lists it with {row[1]} points")
                matched = []
            for case in matched:
                owners.setdefault(case, []).append((rank, line))
    covered = {}
    for case, claims in owners.items():
        best = max(rank for rank, _ in claims)
        lines = sorted(line for rank, line in claims if rank == best)
        if len(lines) > 1:
            problems.add(path, lines[1], f"case `{case}` is listed twice (also on line {lines[0]})")
        covered[case] = lines[0]
    for line, row, written, each, names in entries:
        row_cases = [case for case, owner in covered.items() if owner == line]
        if each:
            for case in row_cases:
                if cases[case]["points"] != written:
                    problems.add(path, line, f"case `{case}`: the check gives {cases[case]['points']} points, the page {written}")
        elif row_cases:
            total = sum(cases[case]["points"] for case in row_cases)
            if total != written:
                problems.add(path, line, f"cases {', '.join(row_cases)}: the check gives {total} points together, the page {written}")
        present = numbers_in(" | ".join(row[2:]), french)
        for case in row_cases:
            for bar in cases[case].get("bars", []):
                if not any(same(value, bar["bar"]) for value in present):
                    problems.add(path, line, f"case `{case}`: the check's bar is {direction(bar, french)} "
                                             f"({bar['figure']}), the row never says {show(bar['bar']).replace('.', ',') if french else show(bar['bar'])}")
    for name, case in cases.items():
        if name not in covered:
            problems.add(path, heading_at, f"case `{name}` ({case['points']} points) is missing from the table")


def check_statements(root, checks, languages, problems):
    for number, check in sorted(checks.items()):
        folder = exercise_dir(root, check)
        if folder is None:
            problems.add(os.path.join(root, "exercises"), 0, f"no folder {number}_{check['name']} for check_{number}")
            continue
        for language in languages:
            name = "README.md" if language == "en" else "README.fr.md"
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                problems.add(path, 0, "missing: every exercise has a statement in English and in French")
                continue
            check_statement(path, language, check, problems)


# ---------------------------------------------------------------------------------------
# tests/speed_bars.md
# ---------------------------------------------------------------------------------------

def speed_table(checks):
    escape = lambda text: text.replace("|", "\\|")
    lines = ["| exercise | case | figure | bar | reference solution | smallest margin |",
             "|---|---|---|---|---|---|"]
    for number, check in sorted(checks.items()):
        for case in check["cases"]:
            for bar in case.get("bars", []):
                margin = smallest_margin(bar)
                shown = "-" if margin is None else f"{math.floor(margin * 100 + 1e-9)}%"
                lines.append(f"| {number} | `{case['name']}` | {escape(bar['figure'])} | {shown_bar(bar)} | "
                             f"{escape(bar['reference'])} | {shown} |")
    return lines


def speed_bars_page(path, checks):
    """(the page as it is, the page as the checks write it)."""
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    lines = text.splitlines()
    if lines.count(BEGIN) != 1 or lines.count(END) != 1 or lines.index(BEGIN) > lines.index(END):
        raise Misuse(f"{path}: the table goes between one line '{BEGIN}' and one line '{END}'")
    begin, end = lines.index(BEGIN), lines.index(END)
    written = lines[:begin + 1] + [""] + speed_table(checks) + [""] + lines[end:]
    return text, "\n".join(written) + "\n"


def check_speed_bars(root, checks, write, problems):
    path = os.path.join(root, SPEED_BARS)
    now, wanted = speed_bars_page(path, checks)
    if now == wanted:
        return
    if write:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(wanted)
        print(f"{SPEED_BARS}: written from the checks")
        return
    before = len(problems.lines)
    old, new = now.splitlines(), wanted.splitlines()
    old_rows = {line: index for index, line in enumerate(old, 1) if line.startswith("| ")}
    new_rows = set(line for line in new if line.startswith("| "))
    for line, index in old_rows.items():
        if line not in new_rows:
            problems.add(path, index, f"the page has a row the checks do not give: {line}")
    for line in new:
        if line.startswith("| ") and line not in old_rows:
            problems.add(path, 0, f"the checks give a row the page lacks: {line}")
    if len(problems.lines) == before:
        problems.add(path, 0, "the table differs from the checks (blank lines or order)")
    problems.add(path, 0, "write it again: tools/course case-tables speed-bars --write --checks ...")


# ---------------------------------------------------------------------------------------
# Figures quoted in slides and statements
# ---------------------------------------------------------------------------------------

def quoted_pages(root):
    pages = sorted(glob.glob(os.path.join(root, "slides", "*.md")))
    pages += sorted(glob.glob(os.path.join(root, "exercises", "[0-9][0-9]_*", "README*.md")))
    return pages


def quoted_figure(before, french):
    """(low, high, text) of the number or range that ends `before`, or None."""
    number = number_pattern(french)
    match = re.search(r"(" + number + r")(?:\s*(?:-|–|to|à)\s*(" + number + r"))?(\s*%)?x?[\s`*_)]*$", before)
    if not match:
        return None
    scale = 100.0 if match.group(3) else 1.0
    low = to_float(match.group(1), french) / scale
    high = to_float(match.group(2), french) / scale if match.group(2) else low
    return low, high, match.group(0).strip()


def unmarked_figures(line, french):
    """The figures (a decimal, a percentage, "1.5x") of a line that announces a bar or a
    reference figure, left without a comment after them. A case table's rows are held by
    the statements' check; an estimate written "≈ 1.5" is no quoted figure."""
    if line.lstrip().startswith("|") or not ANNOUNCES_FIGURE.search(line):
        return []
    number = number_pattern(french)
    separator = "," if french else "."
    found = []
    for match in re.finditer(r"(?<![\w.,])(" + number + r")(?:\s*(?:-|–|to|à)\s*(" + number + r"))?(\s*%|x\b)?", line):
        if not (match.group(3) or separator in match.group(0)):
            continue
        if re.search(r"[≈~]\s*$", line[:match.start()]) or AFTER_FIGURE.match(line, match.end()):
            continue
        found.append(match.group(0).strip())
    return found


def check_quoted(root, checks, problems, pages=None):
    for path in pages or quoted_pages(root):
        french = path.endswith(".fr.md")
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
        for index, line in enumerate(lines, 1):
            found = list(MARKER.finditer(line))
            for figure in unmarked_figures(line, french):
                problems.add(path, index, f"{figure}: a bar or a reference figure quoted without its comment: write "
                                          "'1.15<!-- bar NN case_name -->' or '0.97<!-- reference NN case_name -->'")
            if len(found) != len(ANY_MARKER.findall(line)):
                problems.add(path, index, "a '<!-- bar ... -->' or '<!-- reference ... -->' comment is written "
                                          "'<!-- bar NN case_name -->' (optionally the bar's rank: '... case_name 2 -->')")
            for marker in found:
                what, number, name, rank = marker.group(1), marker.group(2).zfill(2), marker.group(3), marker.group(4)
                check = checks.get(number)
                if check is None:
                    problems.add(path, index, f"{what} of {number} {name}: no check for exercise {number} was given")
                    continue
                case = next((case for case in check["cases"] if case["name"] == name), None)
                if case is None:
                    problems.add(path, index, f"{what} of {number} {name}: check_{number} has no case named {name}")
                    continue
                bars = case.get("bars", [])
                if rank:
                    if not 1 <= int(rank) <= len(bars):
                        problems.add(path, index, f"{what} of {number} {name}: the case declares {len(bars)} bar(s), not a bar {rank}")
                        continue
                    bars = [bars[int(rank) - 1]]
                if not bars:
                    problems.add(path, index, f"{what} of {number} {name}: the check declares no bar for this case")
                    continue
                quoted = quoted_figure(line[:marker.start()], french)
                if quoted is None:
                    problems.add(path, index, f"{what} of {number} {name}: no number right before the comment")
                    continue
                low, high, text = quoted
                if what == "bar":
                    if low != high or not any(same(low, bar["bar"]) for bar in bars):
                        says = " or ".join(direction(bar, french) for bar in bars)
                        problems.add(path, index, f"bar of {number} {name}: the check says {says}, the page says {text}")
                else:
                    figures = [value for bar in bars for pair in reference_ranges(bar["reference"]) for value in pair]
                    if not all(any(same(quoted, figure) for figure in figures) for quoted in (low, high)):
                        says = "; ".join(bar["reference"] for bar in bars)
                        problems.add(path, index, f"reference of {number} {name}: the check says '{says}', the page says {text}")


# ---------------------------------------------------------------------------------------

def main(argv):
    global ROOT_IN_USE
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checks", nargs="+", required=True, metavar="PATH",
                        help="check executables, their saved --list-json output, or folders of it")
    parser.add_argument("--root", default=ROOT, help="the course's folder (default: this tool's)")
    parser.add_argument("what", choices=["statements", "statements-en", "statements-fr", "speed-bars", "quoted", "all"])
    parser.add_argument("--write", action="store_true", help="speed-bars: write the table instead of comparing")
    try:
        arguments = parser.parse_args(argv[1:])
    except SystemExit as exit:
        return 0 if exit.code == 0 else 2
    root = os.path.abspath(arguments.root)
    ROOT_IN_USE = root
    if arguments.write and arguments.what != "speed-bars":
        print("case_tables.py: --write goes with speed-bars", file=sys.stderr)
        return 2
    problems = Problems()
    try:
        checks = load_checks(arguments.checks)
        if arguments.what in ("statements", "statements-en", "all"):
            check_statements(root, checks, ["en"], problems)
        if arguments.what in ("statements", "statements-fr", "all"):
            check_statements(root, checks, ["fr"], problems)
        if arguments.what in ("speed-bars", "all"):
            check_speed_bars(root, checks, arguments.write, problems)
        if arguments.what in ("quoted", "all"):
            check_quoted(root, checks, problems)
    except Misuse as error:
        print(f"case_tables.py: {error}", file=sys.stderr)
        return 2
    for line in problems.lines:
        print(line)
    if problems.lines:
        print(f"case_tables.py: {len(problems.lines)} difference(s) between the pages and the checks "
              f"({len(checks)} check(s) read)")
        return 1
    print(f"case_tables.py {arguments.what}: the pages agree with {len(checks)} check(s)")
    return 0

