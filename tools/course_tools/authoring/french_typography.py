"""French typography in the course's French pages: the no-break spaces French puts before
`: ; ! ?`, inside « », between a number and its unit, between a number's digit groups and in
an interval, never in code.

    tools/course french-typography                 lists every place that breaks a rule, in
                                                   every French page (what CTest runs)
    tools/course french-typography --write         fixes them
    tools/course french-typography [--write] FILE ...   those pages only

The French pages: exercises/*/README.fr.md, slides/*.fr.md, docs/*.fr.md, docs/glossaire.md
and the new-exercise template's README.fr.md.in.

The rules (U+202F is the narrow no-break space, U+00A0 the no-break space):
  semicolon, exclamation, question   U+202F before `;`, `!` and `?` (« quel GPU ? »);
  colon                      U+00A0 before `:` (« Contexte : »);
  guillemets                 U+00A0 after « and before » (« texte »);
  unit                       U+00A0 between a number and its unit or % (60 %, 3,35 TB/s,
                             16 Go, 10 ms): the unit as written, never translated; a missing
                             space is added before % only (80GB is a product's name);
  digit groups               U+202F between the groups of a large number (16 896, 10 000);
  interval                   French interval notation, [a ; b[ (U+202F before `;`, U+00A0
                             after it), for an interval written [a, b) or [a, b[ or [a;b[ ;
  line start                 a line never starts with `: ; ! ?` or », nor ends with «: the
                             sign goes to the line of the word it belongs to;
  code cut by a line end     in a deck (slides/), an `inline code` span (a flag, a call)
                             never runs over two lines of the source: reported, never
                             fixed, since where to cut the prose is a person's choice.
A missing space is added (« Note: » becomes « Note : »), a plain one replaced.

Never touched: front matter, fenced code blocks, `inline code`, URLs and <autolinks>, HTML
tags, HTML comments that are directives or markers (`<!-- include: ... -->`, Marp's
`<!-- _class: ... -->`, `<!-- bar 17 streams_overlap_copies -->`...; other comments are speaker
notes, prose), Markdown link targets and reference definitions, table rule lines, emoji
(`:warning:`), a `:` that starts a line (definition lists), a `:` between digits (12:30,
16:9), indented code blocks, `TODO(maintainer):` markers, a docs page's audience line
(`# For students: ...`, the house's English), and the inside of a quotation in « »
(the course quotes the programs' messages there, as printed: only the spaces at its edges are
French).

Without --write each place is printed as `FILE:LINE:COLUMN: rule: text` and the exit status
is 1 on any, 0 otherwise; with --write the pages are fixed and a count per page printed,
and the exit status is 1 where a place is left to fix by hand.
Exit status 2 on bad arguments. Standard library only.
"""
import argparse
import glob
import os
import re
import sys

from course_tools.student.paths import ROOT

NBSP = "\u00a0"
NNBSP = "\u202f"
SPACES = " \t" + NBSP + NNBSP
MASK = "\x00"

FRENCH_PAGES = ("exercises/*/README.fr.md", "exercises/*/answers.fr.md", "slides/*.fr.md", "docs/*.fr.md", "docs/glossaire.md",
                "tools/course_tools/authoring/templates/*.fr.md.in")

# --- what is not prose --------------------------------------------------------------------------

FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
# Comments that are directives or markers, not speaker notes: the course's, the checks',
# Marp's (global or `_`-prefixed), case_tables' lines.
DIRECTIVE_KEYS = ("include", "student", "figure", "nvcc-message", "marp", "theme", "style", "headingDivider", "lang", "math",
                  "size", "image", "url", "title", "description", "paginate", "header", "footer", "class",
                  "color", "backgroundColor", "backgroundImage", "backgroundPosition", "backgroundRepeat",
                  "backgroundSize", "fit")
DIRECTIVE_COMMENT = re.compile(r"<!--\s*(?:after-deadline\b|case_tables\b|(?:bar|reference)\s+\d|_?(?:"
                               + "|".join(DIRECTIVE_KEYS) + r")\s*:)")
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
URL = re.compile(r"(?:https?|ftp)://[^\s<>()\[\]]*(?:\([^\s()]*\)[^\s<>()\[\]]*)*")
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$")
EMOJI = re.compile(r":[a-z0-9_+-]+:")
# A docs page's first line names its audience in English, by the house rule that
# tests/tools/test_docs_pages.py checks: "# For students and instructors: ...".
AUDIENCE = re.compile(r"^# For [a-z ,]+:")
TODO_MARKER = re.compile(r"\bTODO\([\w-]+\):?")
LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+")

# --- the rules ----------------------------------------------------------------------------------

UNITS = ("%", "GFLOP/s", "TFLOP/s", "PFLOP/s", "FLOP/s", "GFLOPS", "TFLOPS", "FLOPS", "flops",
         "TB/s", "GB/s", "MB/s", "KB/s", "kB/s", "To/s", "Go/s", "Mo/s", "Ko/s", "Gbit/s", "Gb/s",
         "TiB", "GiB", "MiB", "KiB", "Tio", "Gio", "Mio", "Kio", "TB", "GB", "MB", "KB", "kB",
         "To", "Go", "Mo", "Ko", "octets", "octet", "bits", "bit", "GHz", "MHz", "kHz", "Hz",
         "ms", "µs", "μs", "us", "ns", "s", "min", "h", "W", "°C")
UNIT = "(?:" + "|".join(re.escape(unit) for unit in sorted(UNITS, key=len, reverse=True)) + r")(?![\w/'’])"
NUMBER_END = r"(?<![\w.,])\d+(?:[.,]\d+)?"
# An interval's end: a number (French decimal comma allowed), a name, 10^8, -pi.
END = r"[-+−]?(?:\d+(?:,\d+)?(?:\^\d+)?|[A-Za-z_]\w*|π)"
INTERVAL = re.compile(r"(?<![\w!\]])([\[\]])(" + END + r")(?:[ \t\u00a0\u202f]*,[ \t\u00a0\u202f]+|[ \t\u00a0\u202f]*;"
                      r"[ \t\u00a0\u202f]*)(" + END + r")([)\[\]])(?![(\[\w])")
CLOSING = {")": "[", "[": "[", "]": "]"}


class Fix:
    """One place: the span [start, end) of a line and what goes there."""

    def __init__(self, start, end, text, rule):
        self.start, self.end, self.text, self.rule = start, end, text, rule


def space_before(masked, line, signs, space, rule, fixes):
    """`space` before each of `signs` that is punctuation (followed by a space, the line's end
    or a closing sign), after a word: a plain space replaced, a missing one added."""
    for match in re.finditer(r"([ \t\u00a0\u202f]*)([" + re.escape(signs) + r"])(?=[\s)\]*_»\"'’.,;:!?]|$)", masked):
        gap, at = match.group(1), match.start(2)
        if match.start() == 0 and not gap:
            continue
        before = masked[match.start() - 1] if match.start() > 0 else ""
        if not gap and (before in ":;!?«([/" or before.isspace()):
            continue  # ?! and !!: the space goes before the first; an opening sign before
        if gap and match.start() == 0:
            continue  # indentation, not a space before the sign (the line-start rule)
        if gap == space:
            continue
        if rule == "colon" and at + 1 < len(masked) and masked[at + 1] == ":":
            continue  # std::fma
        fixes.append(Fix(match.start(1), match.end(1), space, rule))


def guillemets(masked, fixes):
    for match in re.finditer(r"«([ \t\u202f]*)(?=\S)", masked):
        if match.group(1) != NBSP:
            fixes.append(Fix(match.start(1), match.end(1), NBSP, "guillemets"))
    for match in re.finditer(r"(?<=\S)([ \t\u202f]*)»", masked):
        if match.group(1) != NBSP:
            fixes.append(Fix(match.start(1), match.end(1), NBSP, "guillemets"))


def units(masked, fixes):
    for match in re.finditer("(" + NUMBER_END + r")([ \t\u202f]?)(?=(" + UNIT + "))", masked):
        if not match.group(2) and match.group(3) != "%":
            continue  # 80GB is a product's name, 2s a product: only % gets its missing space
        if match.group(2) != NBSP:
            fixes.append(Fix(match.start(2), match.end(2), NBSP, "unit"))


def digit_groups(masked, fixes):
    for match in re.finditer(r"(?<![\w.,])\d{1,3}(?:[ \u00a0]\d{3})+(?![\w]|[.,]\d)", masked):
        for gap in re.finditer(r"[ \u00a0]", match.group(0)):
            fixes.append(Fix(match.start() + gap.start(), match.start() + gap.end(), NNBSP, "digit groups"))


def intervals(masked, line, fixes):
    for match in INTERVAL.finditer(masked):
        wanted = f"{match.group(1)}{match.group(2)}{NNBSP};{NBSP}{match.group(3)}{CLOSING[match.group(4)]}"
        if match.group(0) != wanted:
            fixes.append(Fix(match.start(), match.end(), wanted, "interval"))


def line_fixes(masked, line):
    fixes = []
    space_before(masked, line, ";!?", NNBSP, "semicolon, exclamation, question", fixes)
    space_before(masked, line, ":", NBSP, "colon", fixes)
    guillemets(masked, fixes)
    units(masked, fixes)
    digit_groups(masked, fixes)
    interval_fixes = []
    intervals(masked, line, interval_fixes)
    # An interval's rewrite covers the spaces the other rules would fix inside it.
    fixes = [fix for fix in fixes if not any(i.start <= fix.start and fix.end <= i.end for i in interval_fixes)]
    return sorted(fixes + interval_fixes, key=lambda fix: (fix.start, fix.end))


# --- reading a page -----------------------------------------------------------------------------

def mask(line, start, end, masked):
    masked[start:end] = MASK * (end - start)


def prose_masks(lines, cut_code=None):
    """For each line, the line with everything that is not prose replaced by MASK (same
    length), or None for a line that has no prose at all. The (line, column) of each inline
    code span that a line end cuts go to cut_code."""
    result = []
    fence = None
    in_front_matter = bool(lines) and lines[0].strip() == "---"
    comment = None  # "note" or "directive" while inside a comment spanning lines
    quoting = False  # inside « » spanning lines
    open_code = None  # the backticks of an inline code span that a line break cut
    list_indent = None  # where the text of the list item being read starts
    indented_code = False
    for number, line in enumerate(lines):
        blank_before = number == 0 or not lines[number - 1].strip()
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            quoting = False
            open_code = None
        elif fence is None and comment is None and not (in_front_matter or indented_code and indent >= 4):
            indented_code = False
            item = LIST_ITEM.match(line)
            if item:
                list_indent = item.end()
            elif indent == 0 and blank_before:
                list_indent = None
            if blank_before and indent >= (0 if list_indent is None else list_indent) + 4:
                indented_code = True
        if indented_code and (indent >= 4 or not line.strip()):
            result.append(None)
            continue
        if in_front_matter:
            result.append(None)
            if number > 0 and line.strip() in ("---", "..."):
                in_front_matter = False
            continue
        opening = FENCE.match(line)
        if fence is not None:
            result.append(None)
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not opening.group(2).strip():
                fence = None
            continue
        if comment is None and opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            fence = opening.group(1)
            result.append(None)
            continue
        if TABLE_RULE.match(line) and "-" in line and "|" in line:
            result.append(None)
            continue
        if REFERENCE_DEFINITION.match(line):
            result.append(None)
            continue
        masked = list(line)
        position = 0
        if comment is not None:
            close = line.find("-->")
            end = len(line) if close < 0 else close + 3
            if comment == "directive":
                mask(line, 0, end, masked)
            else:
                mask(line, close, end, masked) if close >= 0 else None
            if close >= 0:
                comment = None
            position = end
        while comment is None:
            start = line.find("<!--", position)
            if start < 0:
                break
            close = line.find("-->", start + 4)
            kind = "directive" if DIRECTIVE_COMMENT.match(line, start) else "note"
            end = len(line) if close < 0 else close + 3
            if kind == "directive":
                mask(line, start, end, masked)
            else:
                mask(line, start, start + 4, masked)
                if close >= 0:
                    mask(line, close, close + 3, masked)
            if close < 0:
                comment = kind
                break
            position = end
        text = "".join(masked)
        # Inline code that a line break cuts in two: from the line before to its closing run.
        if open_code is not None:
            close = re.search(r"(?<!`)" + open_code + r"(?!`)", text)
            end = len(text) if close is None else close.end()
            mask(line, 0, end, masked)
            open_code = None if close is not None else open_code
            text = "".join(masked)
        for pattern in (INLINE_CODE, HTML_TAG, LINK_TARGET, URL, EMOJI, TODO_MARKER):
            for match in pattern.finditer(text):
                # A link target keeps its `](`: only the target itself is code.
                start = match.start() + 2 if pattern is LINK_TARGET else match.start()
                mask(line, start, match.end(), masked)
            text = "".join(masked)
        unmatched = re.search(r"(?<!`)`+(?!`)", text)
        if unmatched:
            open_code = unmatched.group(0)
            if cut_code is not None:
                cut_code.append((number, unmatched.start()))
            mask(line, unmatched.start(), len(text), masked)
            text = "".join(masked)
        # A quotation in « » is the program's message, kept as printed: only the spaces at its
        # edges are French.
        position = 0
        while True:
            if quoting:
                close = text.find("»", position)
                end = len(text) if close < 0 else close
                inner = text[position:end]
                start = position + len(inner) - len(inner.lstrip(SPACES))
                stop = position + len(inner.rstrip(SPACES))
                if close < 0 and not text[start:].strip():
                    break
                mask(line, start, max(start, stop), masked)
                if close < 0:
                    break
                quoting = False
                position = close + 1
            opening = text.find("«", position)
            if opening < 0:
                break
            quoting = True
            position = opening + 1
        text = "".join(masked)
        if not text.strip():
            quoting = False
        audience = AUDIENCE.match(text) if number == 0 else None
        if audience:
            mask(line, 0, audience.end(), masked)
            text = "".join(masked)
        # A `:` that starts a line is Markdown's (a definition list), never a French colon.
        stripped = len(text) - len(text.lstrip(" \t"))
        if text[stripped:stripped + 1] == ":":
            masked[stripped] = MASK
        result.append("".join(masked))
    return result


def find(text):
    """[(line index, Fix)] for a page's text, every rule but the line-start one."""
    lines = text.split("\n")
    found = []
    for index, masked in enumerate(prose_masks(lines)):
        if masked is not None:
            found += [(index, fix) for fix in line_fixes(masked, lines[index])]
    return found


def line_edges(lines, masks):
    """[(line index, column, what)] of a prose line that starts with `: ; ! ?` or », or
    ends with «, after a line of the same paragraph."""
    found = []
    for index in range(1, len(lines)):
        now, before = masks[index], masks[index - 1]
        if now is None or before is None or not before.strip() or not now.strip():
            continue
        stripped = now.lstrip(" \t")
        head = stripped[:1]
        if head in (";", "!", "?", "»", ":") and (len(stripped) == 1 or stripped[1] in SPACES) \
                and head != MASK:
            found.append((index, len(now) - len(stripped), head))
    for index in range(len(lines) - 1):
        now, after = masks[index], masks[index + 1]
        if now is None or after is None or not after.strip():
            continue
        if now.rstrip(" \t").endswith("«"):
            found.append((index, len(now.rstrip(" \t")) - 1, "«"))
    return found


def fix_text(text):
    """(the page with every rule applied, how many places were fixed)."""
    lines = text.split("\n")
    count = 0
    # The line-start rule first: a sign moves to the end of the line before, « to the next.
    for _ in range(len(lines)):
        edges = line_edges(lines, prose_masks(lines))
        if not edges:
            break
        index, column, sign = edges[0]
        count += 1
        if sign == "«":
            lines[index] = lines[index][:column].rstrip(" \t")
            rest = lines[index + 1]
            indent = len(rest) - len(rest.lstrip(" \t"))
            lines[index + 1] = rest[:indent] + "«" + NBSP + rest[indent:].lstrip(" \t")
        else:
            rest = lines[index][column + 1:].lstrip(SPACES)
            lines[index - 1] = lines[index - 1].rstrip(" \t") + " " + sign
            lines[index] = lines[index][:column] + rest
    masks = prose_masks(lines)
    for index, masked in enumerate(masks):
        if masked is None:
            continue
        fixes = line_fixes(masked, lines[index])
        line = lines[index]
        for fix in reversed(fixes):
            line = line[:fix.start] + fix.text + line[fix.end:]
        count += len(fixes)
        lines[index] = line
    return "\n".join(lines), count


def problems(text, deck=False):
    """[(line, column, rule, excerpt)], lines and columns from 1; in a deck (slides/), also
    each inline code span cut by a line end, which --write cannot mend."""
    lines = text.split("\n")
    cut_code = []
    masks = prose_masks(lines, cut_code)
    found = []
    for index, masked in enumerate(masks):
        if masked is None:
            continue
        for fix in line_fixes(masked, lines[index]):
            found.append((index + 1, fix.start + 1, fix.rule, excerpt(lines[index], fix.start, fix.end)))
    for index, column, sign in line_edges(lines, masks):
        what = "a line starts with " + sign if sign != "«" else "a line ends with «"
        found.append((index + 1, column + 1, "line start", what))
    if deck:
        for index, column in cut_code:
            found.append((index + 1, column + 1, "code cut by a line end",
                          "a slide shows `code` on one line of the source: move it whole to the next line"))
    return sorted(found)


def excerpt(line, start, end):
    shown = line[max(0, start - 12):end + 12]
    return repr(shown.replace(NBSP, "⍽").replace(NNBSP, "·"))[1:-1]


# --- the course's pages -------------------------------------------------------------------------

def french_pages(root):
    pages = []
    for pattern in FRENCH_PAGES:
        pages += sorted(glob.glob(os.path.join(root, pattern)))
    return pages


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="fix the pages instead of listing the places")
    parser.add_argument("--root", default=ROOT, help="the course's root (default: this repository)")
    parser.add_argument("files", nargs="*", help="pages to check (default: every French page)")
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as exit:
        return 0 if exit.code == 0 else 2
    root = os.path.abspath(args.root)
    files = args.files or french_pages(root)
    if not files:
        print(f"french_typography: no French page under {root}", file=sys.stderr)
        return 2
    total = left = 0
    for path in files:
        try:
            with open(path, encoding="utf-8", newline="") as stream:
                text = stream.read()
        except OSError as error:
            print(f"french_typography: {path}: {error.strerror}", file=sys.stderr)
            return 2
        # A page of the course is named from its root; any other as it was given.
        inside = os.path.abspath(path).startswith(os.path.join(os.path.abspath(root), ""))
        shown = os.path.relpath(path, root) if os.path.isabs(path) and inside else path
        deck = os.path.basename(os.path.dirname(os.path.abspath(path))) == "slides"
        if args.write:
            fixed, count = fix_text(text)
            if fixed != text:
                with open(path, "w", encoding="utf-8", newline="") as stream:
                    stream.write(fixed)
                print(f"{shown}: {count} place(s) fixed")
            total += count
            for line, column, rule, what in problems(fixed, deck):
                print(f"{shown}:{line}:{column}: {rule}: {what} (not fixed: by hand)")
                left += 1
            continue
        for line, column, rule, what in problems(text, deck):
            print(f"{shown}:{line}:{column}: {rule}: {what}")
            total += 1
    if args.write:
        print(f"french_typography: {total} place(s) fixed in {len(files)} page(s)"
              + (f", {left} left to fix by hand" if left else ""), file=sys.stderr)
        return 1 if left else 0
    print(f"french_typography: {len(files)} page(s) checked, {total} place(s) break French typography"
          + (f" (fix them: {argv[0]} --write)" if total else ""), file=sys.stderr)
    return 1 if total else 0
