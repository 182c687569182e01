"""The French statements (exercises/NN_name/README.fr.md) say what the English ones say:
the parity rules of the French edition, checked on the text's structure, never on its words.

    python3 tools/course statement-parity              every exercise has a README.fr.md, and each
                                                   one matches its README.md (what CTest runs)
    python3 tools/course statement-parity --existing   only the pairs present (a partial edition)
    python3 tools/course statement-parity [--existing] exercises/03_device_memory ...   those only

For each pair, README.md against README.fr.md:
  1. the same headings, at the same levels, in the same order; the course's house headings
     ("## Background", "## What to do", ...) translated exactly as the edition says;
  2. the same fenced code blocks (``` or ~~~), byte for byte, in the same order;
  3. the cases table (header "| case | points | ...") with the same rows in the same order:
     the case names (first column) identical, the points' numbers identical, the columns
     between them and the description identical; any other table with as many rows and
     columns;
  4. the same link and image targets ([..](target), ![..](target), <https://...>), in the
     same order, inline code left out; a link to a heading of the page itself may name the
     translated heading, as long as it is the same heading;
  5. the same numbered lists, each as long;
  6. the version lines: the first line after the title of README.md is
     `*[Version française](README.fr.md)*`, that of README.fr.md `*[English version](README.md)*`
     (their links are left out of rule 4).

Each difference is printed as `FILE:LINE: what differs` (the French file's line, the English
line named in the text); the exit status is 1 on any, 0 otherwise, 2 on bad arguments.
Standard library only; the Markdown rules are GitHub's, simplified: fences of three or more
backticks or tildes (indented or not), ATX headings outside fences, pipe tables made of a
header row and a delimiter row.
"""
import argparse
import difflib
import glob
import os
import re
import sys

from course_tools.student.paths import ROOT

ENGLISH, FRENCH = "README.md", "README.fr.md"
VERSION_LINES = {ENGLISH: "*[Version française](README.fr.md)*", FRENCH: "*[English version](README.md)*"}

FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
NUMBERED_ITEM = re.compile(r"^( *)(\d{1,9})[.)](?:[ \t]|$)")
# What ends a paragraph rather than continuing it: a bullet item, a quote, a table row, a rule.
OTHER_BLOCK = re.compile(r"^ {0,3}(?:[-*+](?:[ \t]|$)|>|\||(?:[-*_][ \t]*){3,}$)")
TABLE_ROW = re.compile(r"^ {0,3}\|")
DELIMITER_CELL = re.compile(r"^:?-{1,}:?$")
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
# [text](target "title") and ![alt](target): the target; <scheme://...> autolinks.
LINK = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
NUMBER = re.compile(r"\d+")

# The house headings, translated once for the whole edition.
HOUSE_HEADINGS = (
    (re.compile(r"^Background$"), lambda m: "Contexte"),
    (re.compile(r"^What to do$"), lambda m: "Travail demandé"),
    (re.compile(r"^Build, run, check$"), lambda m: "Compiler, exécuter, vérifier"),
    (re.compile(r"^Hints$"), lambda m: "Pistes"),
    (re.compile(r"^Questions$"), lambda m: "Questions"),
    (re.compile(r"^What the check verifies \((\d+) points?, (\d+) when graded\)$"),
     lambda m: f"Ce que vérifie le correcteur ({m.group(1)} points, {m.group(2)} à la notation)"),
    (re.compile(r"^What the check verifies \((\d+) points?\)$"),
     lambda m: f"Ce que vérifie le correcteur ({m.group(1)} points)"),
)


# --- reading a statement ----------------------------------------------------------------------

class Statement:
    """What the parity rules compare in one Markdown text: headings, code blocks, tables,
    links, numbered lists and the version line, each with its line number (from 1)."""

    def __init__(self, text):
        self.lines = text.splitlines()
        self.headings = []      # (line, level, title)
        self.code_blocks = []   # (line, [lines, fences included])
        self.tables = []        # (line, [rows of cells]), the delimiter row left out
        self.links = []         # (line, target)
        self.lists = []         # (line, number of items)
        self.prose = []         # (line, text): the lines outside fences
        self._read()

    def _read(self):
        fence = None  # (indent, marker, line, [lines])
        for number, line in enumerate(self.lines, start=1):
            opening = FENCE.match(line)
            if fence is not None:
                fence[3].append(line)
                if opening and opening.group(2)[0] == fence[1][0] and len(opening.group(2)) >= len(fence[1]) \
                        and not opening.group(3).strip():
                    self.code_blocks.append((fence[2], fence[3]))
                    fence = None
                continue
            if opening and not (opening.group(2)[0] == "`" and "`" in opening.group(3)):
                fence = (len(opening.group(1)), opening.group(2), number, [line])
                continue
            self.prose.append((number, line))
        if fence is not None:  # an unclosed fence runs to the end, as GitHub shows it
            self.code_blocks.append((fence[2], fence[3]))
        self._read_prose()

    def _read_prose(self):
        numbers = [number for number, _ in self.prose]
        texts = [text for _, text in self.prose]
        open_lists = []  # [indent, line, items], innermost last
        index = 0
        while index < len(texts):
            number, line = numbers[index], texts[index]
            heading = HEADING.match(line)
            if heading:
                self._close_lists(open_lists, 0)
                self.headings.append((number, len(heading.group(1)), (heading.group(2) or "").strip()))
                index += 1
                continue
            for target in links_of(line):
                self.links.append((number, target))
            # A table: a row, then a delimiter row with as many cells, on the next line.
            if TABLE_ROW.match(line) and index + 1 < len(texts) and numbers[index + 1] == number + 1 \
                    and is_delimiter_row(texts[index + 1]):
                rows = [cells(line)]
                end = index + 2
                while end < len(texts) and numbers[end] == numbers[end - 1] + 1 and TABLE_ROW.match(texts[end]):
                    rows.append(cells(texts[end]))
                    for target in links_of(texts[end]):
                        self.links.append((numbers[end], target))
                    end += 1
                self.tables.append((number, rows))
                self._close_lists(open_lists, 0)
                index = end
                continue
            previous = self.lines[number - 2] if number > 1 else ""
            after_paragraph = bool(previous.strip()) and index > 0 and numbers[index - 1] == number - 1 \
                and not HEADING.match(previous) and not TABLE_ROW.match(previous)
            self._follow_lists(open_lists, number, line, texts[index + 1:], after_paragraph)
            index += 1
        self._close_lists(open_lists, 0)

    def _follow_lists(self, open_lists, number, line, following, after_paragraph):
        if not line.strip():
            # A blank line ends the lists only when what follows is not indented under them
            # and is not one of their items.
            nxt = next((text for text in following if text.strip()), None)
            if nxt is None:
                self._close_lists(open_lists, 0)
                return
            indent = len(nxt) - len(nxt.lstrip(" "))
            item = NUMBERED_ITEM.match(nxt)
            while open_lists and indent <= open_lists[-1][0] and not (item and indent == open_lists[-1][0]):
                self._close_lists(open_lists, len(open_lists) - 1)
            return
        indent = len(line) - len(line.lstrip(" "))
        item = NUMBERED_ITEM.match(line)
        if item and after_paragraph and not open_lists and not item.group(2).lstrip("0") == "1":
            item = None  # only "1." starts a list in the middle of a paragraph ("32. Measured ...")
        if not item and open_lists and after_paragraph and not OTHER_BLOCK.match(line):
            return  # a lazy continuation line of the item's paragraph
        while open_lists and (indent < open_lists[-1][0] or (indent == open_lists[-1][0] and not item)):
            self._close_lists(open_lists, len(open_lists) - 1)
        if item:
            if open_lists and open_lists[-1][0] == indent:
                open_lists[-1][2] += 1
            else:
                open_lists.append([indent, number, 1])

    def _close_lists(self, open_lists, keep):
        while len(open_lists) > keep:
            indent, line, items = open_lists.pop()
            self.lists.append((line, items))

    def title_line(self):
        """(line number, text) of the first non-blank line after the first heading, or None."""
        if not self.headings:
            return None
        for number in range(self.headings[0][0] + 1, len(self.lines) + 1):
            if self.lines[number - 1].strip():
                return number, self.lines[number - 1].strip()
        return None


def links_of(line):
    bare = INLINE_CODE.sub("", line)
    found = [(match.start(), match.group(1)) for match in LINK.finditer(bare)]
    found += [(match.start(), match.group(1)) for match in AUTOLINK.finditer(bare)]
    return [target for _, target in sorted(found)]


def cells(line):
    parts = CELL_SEPARATOR.split(line.strip())
    if parts and not parts[0].strip():
        parts = parts[1:]
    if parts and not parts[-1].strip() and line.rstrip().endswith("|"):
        parts = parts[:-1]
    return [part.strip() for part in parts]


def is_delimiter_row(line):
    row = cells(line)
    return bool(row) and TABLE_ROW.match(line) is not None and all(DELIMITER_CELL.match(cell) for cell in row)


def slug(title):
    """The anchor GitHub gives a heading."""
    title = re.sub(r"[^\w\s-]", "", title.strip().lower())
    return re.sub(r"\s", "-", title)


# --- comparing two statements -----------------------------------------------------------------

def compare(english_text, french_text, english_name=ENGLISH, french_name=FRENCH):
    """['FILE:LINE: what differs'] for a README.md and its README.fr.md (their texts)."""
    en, fr = Statement(english_text), Statement(french_text)
    problems = []

    def report(line, message):
        problems.append(f"{french_name}:{line}: {message}")

    check_version_lines(en, fr, english_name, french_name, problems)
    paired = check_headings(en, fr, english_name, report)
    check_code_blocks(en, fr, english_name, report, len(fr.lines))
    check_tables(en, fr, english_name, report, len(fr.lines))
    check_links(en, fr, paired, english_name, report, len(fr.lines))
    check_lists(en, fr, english_name, report, len(fr.lines))
    return problems


def check_version_lines(en, fr, english_name, french_name, problems):
    for statement, name, wanted in ((en, english_name, VERSION_LINES[ENGLISH]),
                                    (fr, french_name, VERSION_LINES[FRENCH])):
        if not statement.headings or statement.headings[0][1] != 1:
            problems.append(f"{name}:1: the statement does not start with its title ('# ...'), "
                            f"above the version line {wanted}")
            continue
        found = statement.title_line()
        if found is None or found[1] != wanted:
            line = found[0] if found else statement.headings[0][0]
            problems.append(f"{name}:{line}: the first line under the title must be {wanted}"
                            + (f", not {found[1]!r}" if found else ""))


def version_link_lines(statement, name):
    found = statement.title_line()
    if found and found[1] == VERSION_LINES[name]:
        return {found[0]}
    return set()


def align(en_keys, fr_keys):
    """Pairs the items of two sequences by their keys: (i, j) for an item of each side that
    match or stand in each other's place, (i, None) for an English item with no counterpart,
    (None, j) for an extra French item."""
    matcher = difflib.SequenceMatcher(None, en_keys, fr_keys, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + offset, j1 + offset
            yield (i if i < i2 else None), (j if j < j2 else None)


def house_translation(title):
    """The edition's French for one of the house headings, or None."""
    for pattern, translation in HOUSE_HEADINGS:
        match = pattern.match(title)
        if match:
            return translation(match)
    return None


def is_house_french(title):
    return title in ("Contexte", "Travail demandé", "Compiler, exécuter, vérifier", "Pistes", "Questions") \
        or title.startswith("Ce que vérifie le correcteur")


def check_headings(en, fr, english_name, report):
    """Reports the headings' differences; returns {French heading's index: English one's}
    for the headings that stand in each other's place."""
    paired = {}
    en_keys = [(level, house_translation(title)) for _, level, title in en.headings]
    fr_keys = [(level, title if is_house_french(title) else None) for _, level, title in fr.headings]
    previous_line = 1  # where a missing heading is reported: under the French heading before it
    for i, j in align(en_keys, fr_keys):
        if j is None:
            en_line, en_level, en_title = en.headings[i]
            report(previous_line, f"missing heading: {'#' * en_level} {en_title} ({english_name}:{en_line}) "
                                  f"has no counterpart")
            continue
        fr_line, fr_level, fr_title = fr.headings[j]
        previous_line = fr_line
        if i is None:
            report(fr_line, f"extra heading {'#' * fr_level} {fr_title}: {english_name} has none here")
            continue
        paired[j] = i
        en_line, en_level, en_title = en.headings[i]
        if fr_level != en_level:
            report(fr_line, f"heading {'#' * fr_level} {fr_title} is at level {fr_level}, its counterpart "
                            f"{'#' * en_level} {en_title} ({english_name}:{en_line}) at level {en_level}")
        wanted = house_translation(en_title)
        if wanted is not None and fr_title != wanted:
            report(fr_line, f"heading {fr_title!r} must read {wanted!r} (the edition's translation of "
                            f"{en_title!r}, {english_name}:{en_line})")
    return paired


def check_code_blocks(en, fr, english_name, report, last_line):
    en_keys = [tuple(block) for _, block in en.code_blocks]
    fr_keys = [tuple(block) for _, block in fr.code_blocks]
    for i, j in align(en_keys, fr_keys):
        if j is None:
            en_line, _ = en.code_blocks[i]
            report(last_line, f"missing code block: the one at {english_name}:{en_line} "
                              f"(code block {i + 1}) has no counterpart")
            continue
        fr_line, fr_block = fr.code_blocks[j]
        if i is None:
            report(fr_line, f"extra code block (code block {j + 1}): {english_name} has "
                            f"{len(en.code_blocks)}")
            continue
        en_line, en_block = en.code_blocks[i]
        if en_block != fr_block:
            at = next((k for k, (a, b) in enumerate(zip(en_block, fr_block)) if a != b),
                      min(len(en_block), len(fr_block)))
            en_text = en_block[at] if at < len(en_block) else "(the block's end)"
            fr_text = fr_block[at] if at < len(fr_block) else "(the block's end)"
            report(fr_line + min(at, len(fr_block) - 1),
                   f"code block {j + 1} differs from {english_name}:{en_line + min(at, len(en_block) - 1)}: "
                   f"{fr_text!r} where the English has {en_text!r} (code blocks are copied byte for byte)")


def is_cases_table(rows):
    return bool(rows) and bool(rows[0]) and rows[0][0].strip("` ").lower() == "case"


def check_tables(en, fr, english_name, report, last_line):
    for index in range(max(len(en.tables), len(fr.tables))):
        if index >= len(fr.tables):
            en_line, _ = en.tables[index]
            report(last_line, f"missing table: the one at {english_name}:{en_line} (table {index + 1}) "
                              f"has no counterpart")
            continue
        fr_line, fr_rows = fr.tables[index]
        if index >= len(en.tables):
            report(fr_line, f"extra table (table {index + 1}): {english_name} has {len(en.tables)}")
            continue
        en_line, en_rows = en.tables[index]
        if is_cases_table(en_rows):
            check_cases_table(en_line, en_rows, fr_line, fr_rows, english_name, report)
            continue
        en_shape = (len(en_rows), len(en_rows[0]))
        fr_shape = (len(fr_rows), len(fr_rows[0]))
        if en_shape != fr_shape:
            report(fr_line, f"table {index + 1} has {fr_shape[0]} rows of {fr_shape[1]} columns, its counterpart "
                            f"({english_name}:{en_line}) {en_shape[0]} rows of {en_shape[1]} columns")
            continue
        for row, (en_row, fr_row) in enumerate(zip(en_rows, fr_rows)):
            if len(en_row) != len(fr_row):
                report(row_line(fr_line, row), f"table {index + 1}, row {row}: {len(fr_row)} cells, "
                                               f"the English {len(en_row)} ({english_name}:{row_line(en_line, row)})")


def row_line(table_line, row):
    """The line of a table's row (0 the header; the delimiter row is not counted)."""
    return table_line + (row + 1 if row else 0)


def check_cases_table(en_line, en_rows, fr_line, fr_rows, english_name, report):
    header = [cell.lower() for cell in en_rows[0]]
    points = header.index("points") if "points" in header else None
    if len(fr_rows[0]) != len(en_rows[0]):
        report(fr_line, f"the cases table has {len(fr_rows[0])} columns, the English {len(en_rows[0])} "
                        f"({english_name}:{en_line})")
        return
    en_body, fr_body = en_rows[1:], fr_rows[1:]
    for row in range(max(len(en_body), len(fr_body))):
        if row >= len(fr_body):
            report(row_line(fr_line, len(fr_body)), f"the cases table lacks the row of {en_body[row][0]} "
                                                    f"({english_name}:{row_line(en_line, row + 1)})")
            continue
        line = row_line(fr_line, row + 1)
        if row >= len(en_body):
            report(line, f"the cases table has an extra row, {fr_body[row][0]}: the English table ends before it")
            continue
        en_row, fr_row = en_body[row], fr_body[row]
        where = f"{english_name}:{row_line(en_line, row + 1)}"
        if len(fr_row) != len(en_row):
            report(line, f"the row of {en_row[0] if en_row else '?'} has {len(fr_row)} cells, the English "
                         f"{len(en_row)} ({where})")
            continue
        if fr_row[0] != en_row[0]:
            report(line, f"case {fr_row[0]} where the English has {en_row[0]} ({where}): the case names, "
                         f"their order and their spelling are the check's")
            continue
        for column in range(1, len(en_row) - 1):
            if column == points:
                if NUMBER.findall(fr_row[column]) != NUMBER.findall(en_row[column]):
                    report(line, f"case {en_row[0]} is worth {en_row[column]!r} in the English ({where}), "
                                 f"{fr_row[column]!r} here")
            elif fr_row[column] != en_row[column]:
                report(line, f"case {en_row[0]}: column {en_rows[0][column]!r} reads {fr_row[column]!r}, "
                             f"the English {en_row[column]!r} ({where})")


FRENCH_VERSION = re.compile(r"\.fr\.(svg|png|md)\b")


def check_links(en, fr, paired, english_name, report, last_line):
    skip_en, skip_fr = version_link_lines(en, ENGLISH), version_link_lines(fr, FRENCH)
    en_links = [(line, target) for line, target in en.links if line not in skip_en]
    fr_links = [(line, target) for line, target in fr.links if line not in skip_fr]

    # A link to a heading of the page itself stands for that heading (the English one it
    # translates), so that the French may name the translated heading's anchor.
    def keys(statement, links):
        anchors = {}
        for index, (_, _, title) in enumerate(statement.headings):
            english_index = index if statement is en else paired.get(index)
            anchors.setdefault(slug(title), ("heading", english_index) if english_index is not None
                               else ("french heading", index))
        # A diagram and a measured plot are drawn in each language, and a page may have its
        # French version: the French page shows NAME.fr.svg for NAME.svg, NAME.fr.png for
        # NAME.png, and links NAME.fr.md for NAME.md.
        return [anchors[target[1:]] if target.startswith("#") and target[1:] in anchors
                else ("target", FRENCH_VERSION.sub(r".\1", target) if statement is fr else target)
                for _, target in links]

    previous_line = last_line
    for i, j in align(keys(en, en_links), keys(fr, fr_links)):
        if j is None:
            en_line, target = en_links[i]
            report(previous_line if fr_links else last_line,
                   f"missing link: {target} ({english_name}:{en_line}) has no counterpart")
            continue
        fr_line, fr_target = fr_links[j]
        previous_line = fr_line
        if i is None:
            report(fr_line, f"extra link {fr_target}: {english_name} has {len(en_links)} links")
            continue
        en_line, en_target = en_links[i]
        if keys(en, [en_links[i]]) != keys(fr, [fr_links[j]]):
            report(fr_line, f"link {fr_target} where the English has {en_target} ({english_name}:{en_line})")


def check_lists(en, fr, english_name, report, last_line):
    en_lists, fr_lists = sorted(en.lists), sorted(fr.lists)
    for index in range(max(len(en_lists), len(fr_lists))):
        if index >= len(fr_lists):
            en_line, items = en_lists[index]
            report(last_line, f"missing numbered list: the one at {english_name}:{en_line} ({items} items) "
                              f"has no counterpart")
            continue
        fr_line, fr_items = fr_lists[index]
        if index >= len(en_lists):
            report(fr_line, f"extra numbered list ({fr_items} items): {english_name} has {len(en_lists)}")
            continue
        en_line, en_items = en_lists[index]
        if fr_items != en_items:
            report(fr_line, f"numbered list of {fr_items} items, its counterpart ({english_name}:{en_line}) "
                            f"has {en_items}")


# --- the course's exercises -------------------------------------------------------------------

def exercise_folders(root):
    return sorted(path for path in glob.glob(os.path.join(root, "exercises", "[0-9][0-9]_*"))
                  if os.path.isfile(os.path.join(path, ENGLISH)))


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def check_folder(root, folder, existing_only):
    """The problems of one exercise folder (absolute path)."""
    relative = os.path.relpath(folder, root).replace(os.sep, "/")
    english_path, french_path = os.path.join(folder, ENGLISH), os.path.join(folder, FRENCH)
    english_name, french_name = f"{relative}/{ENGLISH}", f"{relative}/{FRENCH}"
    if not os.path.isfile(french_path):
        problems = []
        if not existing_only:
            problems.append(f"{french_name}:1: missing: every exercise has its statement in French "
                            f"(the English one is {english_name})")
        english = Statement(read(english_path))
        if version_link_lines(english, ENGLISH):
            line = english.title_line()[0]
            problems.append(f"{english_name}:{line}: links to {FRENCH}, which does not exist")
        return problems
    return compare(read(english_path), read(french_path), english_name, french_name)


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--existing", action="store_true",
                        help="check only the exercises that have a README.fr.md")
    parser.add_argument("--root", default=ROOT, help="the course's root (default: this repository)")
    parser.add_argument("folders", nargs="*", help="exercise folders to check (default: every exercise)")
    args = parser.parse_args(argv[1:])
    root = os.path.abspath(args.root)
    if args.folders:
        folders = []
        for folder in args.folders:
            folder = os.path.abspath(folder[:-len(ENGLISH)] if folder.endswith(ENGLISH) else
                                     folder[:-len(FRENCH)] if folder.endswith(FRENCH) else folder)
            if not os.path.isfile(os.path.join(folder, ENGLISH)):
                print(f"statement_parity: {folder} has no {ENGLISH}", file=sys.stderr)
                return 2
            folders.append(folder)
    else:
        folders = exercise_folders(root)
        if not folders:
            print(f"statement_parity: no exercise under {root}/exercises", file=sys.stderr)
            return 2
    problems = [problem for folder in folders for problem in check_folder(root, folder, args.existing)]
    for problem in problems:
        print(problem)
    checked = sum(os.path.isfile(os.path.join(folder, FRENCH)) for folder in folders)
    print(f"statement_parity: {checked} of {len(folders)} statements in French checked, "
          f"{len(problems)} difference(s)", file=sys.stderr)
    return 1 if problems else 0
