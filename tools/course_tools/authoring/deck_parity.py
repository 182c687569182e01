"""The French decks (slides/NAME.fr.md) show what the English ones show (slides/NAME.md):
the parity rules of the French edition for the lecture decks, checked on each slide's
structure, never on its words. The statements' rules (tools/course statement-parity) are
applied slide by slide, with the decks' own on top.

    python3 tools/course deck-parity              every English deck has its NAME.fr.md beside it,
                                              and each one matches (what CTest runs)
    python3 tools/course deck-parity --existing   only the pairs present (a translation under way)
    python3 tools/course deck-parity [--existing] slides/part1.md ...   those decks only

For each pair, NAME.md against NAME.fr.md:
  1. the same front matter, but `lang: fr` and the translated `title:`, `footer:` (and
     `header:`, `description:`);
  2. the same slides in the same order (separated by `---` lines, as tools/course slides reads
     them): a slide missing or added is named, with the English slide's line and title;
  and per slide:
  3. the same heading levels in the same order;
  4. the same directive lines, byte for byte and in the same order: each line that is an
     HTML comment of its own naming one of the course's keys (`<!-- include: ... -->`,
     `<!-- student: ... -->`, `<!-- figure: ... -->`, `<!-- after-deadline -->`) or one of
     Marp's (`<!-- _class: ... -->`, `<!-- _paginate: ... -->`, ...; those whose value is
     text, `header`, `footer`, `title`, `description`, are compared by key only); every
     other comment, on one line or several, is a speaker note: prose, translated, and not
     compared;
  5. the same fenced code blocks, byte for byte (statement_parity's rule 2);
  6. the same tables' shapes, rows and columns (its rule 3);
  7. the same link and image targets in the same order, inline code left out (its rule 4).
Bullet lists may differ in length: a translation may split or join an item.

Each difference is printed as `FILE:LINE: slide N: what differs` (the French deck's line,
the English line named in the text); the exit status is 1 on any, and on a deck without its
French version, 0 otherwise, 2 on bad arguments. Standard library only.
"""
import argparse
import os
import re
import sys

from course_tools.authoring import statement_parity
from course_tools.authoring.statement_parity import Statement
from course_tools.student import slides
from course_tools.student.paths import ROOT

# A line that is a whole HTML comment naming a directive's key: the course's (tools/course slides
# reads them) or Marp's, global or local, `_`-prefixed for one slide. Any other comment, even a
# one-line "<!-- Remarque : ... -->", is a speaker note.
COURSE_KEYS = ("include", "student", "figure")
MARP_KEYS = ("marp", "theme", "style", "headingDivider", "lang", "math", "size", "image", "url",
             "title", "description", "paginate", "header", "footer", "class", "color",
             "backgroundColor", "backgroundImage", "backgroundPosition", "backgroundRepeat",
             "backgroundSize")
DIRECTIVE = re.compile(r"^\s*<!--\s*(?:after-deadline\s*|(_?)(" + "|".join(COURSE_KEYS + MARP_KEYS)
                       + r")\s*:(.*?))-->\s*$")
FRONT_MATTER_KEY = re.compile(r"^([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")
# Front matter keys and directives whose value is text, translated.
TRANSLATED_KEYS = ("title", "footer", "header", "description")
FRENCH_LANG = "fr"


# --- reading a deck ---------------------------------------------------------------------------

class Slide:
    """One slide of a deck: its number (from 1), its first line in the deck, its directive
    lines (line, text), and a Statement of what it shows, speaker notes blanked out, whose
    line numbers are the deck's."""

    def __init__(self, number, first_line, directives, statement):
        self.number, self.first_line = number, first_line
        self.directives, self.statement = directives, statement

    def title(self):
        return self.statement.headings[0][2] if self.statement.headings else "(no heading)"

    def key(self):
        """What must match for two slides to stand in each other's place."""
        return (tuple(level for _, level, _ in self.statement.headings),
                tuple(directive_key(text) for _, text in self.directives),
                tuple(tuple(block) for _, block in self.statement.code_blocks))


def directive_key(line):
    """What the French directive line must repeat: the whole line, but for a directive whose
    value is translated text (`<!-- _footer: ... -->`), its key."""
    match = DIRECTIVE.match(line)
    if match and match.group(2) in TRANSLATED_KEYS:
        return f"<!-- {match.group(1)}{match.group(2)}: (translated) -->"
    return line


class Deck:
    def __init__(self, text):
        self.lines = text.splitlines()
        self.front_matter = []  # (line, key, value)
        starts = slides.starts_of_slides(self.lines)
        if self.lines and self.lines[0].strip() == "---":
            for index in range(1, starts[0] - 1):
                match = FRONT_MATTER_KEY.match(self.lines[index])
                if match:
                    self.front_matter.append((index + 1, match.group(1), match.group(2)))
        ends = [start - 1 for start in starts[1:]] + [len(self.lines)]
        self.slides = [self._slide(number, start, end)
                       for number, (start, end) in enumerate(zip(starts, ends), start=1)]

    def _slide(self, number, start, end):
        """The slide of the deck's lines [start, end) (0-based): the lines before it, and its
        speaker notes and directive lines, left blank in its Statement."""
        shown, directives = [""] * start, []
        fence, in_notes = None, False
        for index in range(start, end):
            line = self.lines[index]
            if fence:
                fence = None if slides.closes(fence, line) else fence
            elif in_notes:
                in_notes = "-->" not in line
                line = ""
            elif slides.FENCE.match(line):
                fence = slides.FENCE.match(line).group(1)
            elif DIRECTIVE.match(line):
                directives.append((index + 1, line))
                line = ""
            elif line.lstrip().startswith("<!--"):
                in_notes = "-->" not in line
                line = ""
            shown.append(line)
        first = next((i + 1 for i in range(start, end) if self.lines[i].strip()), start + 1)
        return Slide(number, first, directives, Statement("\n".join(shown)))


# --- comparing two decks ----------------------------------------------------------------------

def compare(english_text, french_text, english_name, french_name):
    """['FILE:LINE: what differs'] for a deck and its French version (their texts)."""
    en, fr = Deck(english_text), Deck(french_text)
    problems = []
    check_front_matter(en, fr, english_name, french_name, problems)
    if len(en.slides) != len(fr.slides):
        problems.append(f"{french_name}:1: {len(fr.slides)} slides, {english_name} has {len(en.slides)}")
    previous_line = 1
    for i, j in statement_parity.align([s.key() for s in en.slides], [s.key() for s in fr.slides]):
        if j is None:
            slide = en.slides[i]
            problems.append(f"{french_name}:{previous_line}: missing slide: slide {slide.number} of "
                            f"{english_name} (line {slide.first_line}, {slide.title()!r}) has no counterpart")
            continue
        previous_line = fr.slides[j].first_line
        if i is None:
            slide = fr.slides[j]
            problems.append(f"{french_name}:{slide.first_line}: extra slide {slide.number} ({slide.title()!r}): "
                            f"{english_name} has none here")
            continue
        problems += compare_slides(en.slides[i], fr.slides[j], english_name, french_name)
    return problems


def check_front_matter(en, fr, english_name, french_name, problems):
    en_keys = [key for _, key, _ in en.front_matter]
    fr_keys = [key for _, key, _ in fr.front_matter]
    if en_keys != fr_keys:
        problems.append(f"{french_name}:1: front matter keys {fr_keys}, {english_name} has {en_keys}")
    en_values = {key: (line, value) for line, key, value in en.front_matter}
    for line, key, value in fr.front_matter:
        if key == "lang":
            if value != FRENCH_LANG:
                problems.append(f"{french_name}:{line}: front matter 'lang: {value}' must read 'lang: {FRENCH_LANG}'")
        elif key in en_values and key not in TRANSLATED_KEYS and value != en_values[key][1]:
            problems.append(f"{french_name}:{line}: front matter '{key}: {value}' where the English has "
                            f"'{key}: {en_values[key][1]}' ({english_name}:{en_values[key][0]}): only "
                            f"{', '.join(TRANSLATED_KEYS)} are translated")


def compare_slides(en, fr, english_name, french_name):
    problems = []

    def report(line, message):
        problems.append(f"{french_name}:{line}: slide {fr.number}: {message}")

    where = f"{english_name}:{en.first_line}"
    en_levels = [level for _, level, _ in en.statement.headings]
    fr_levels = [level for _, level, _ in fr.statement.headings]
    if en_levels != fr_levels:
        report(fr.first_line, f"headings at levels {fr_levels}, the English slide ({where}) {en_levels}")
    for i, j in statement_parity.align([directive_key(text) for _, text in en.directives],
                                       [directive_key(text) for _, text in fr.directives]):
        if j is None:
            line, text = en.directives[i]
            report(fr.first_line, f"missing directive line {text.strip()} ({english_name}:{line})")
        elif i is None:
            line, text = fr.directives[j]
            report(line, f"extra directive line {text.strip()}: the English slide ({where}) has none here")
        elif directive_key(en.directives[i][1]) != directive_key(fr.directives[j][1]):
            report(fr.directives[j][0], f"directive line {fr.directives[j][1]!r} where the English has "
                                        f"{en.directives[i][1]!r} ({english_name}:{en.directives[i][0]}): "
                                        "include, student and directive lines are copied byte for byte")
    last_line = fr.first_line
    statement_parity.check_code_blocks(en.statement, fr.statement, english_name, report, last_line)
    statement_parity.check_tables(en.statement, fr.statement, english_name, report, last_line)
    # A link to a heading of the deck stands for the heading in the same place.
    paired = {index: index for index in range(min(len(en_levels), len(fr_levels)))}
    statement_parity.check_links(en.statement, fr.statement, paired, english_name, report, last_line)
    return problems


# --- the course's decks -----------------------------------------------------------------------

def check_deck(root, english_path, existing_only):
    """The problems of one English deck (absolute path) and its French version."""
    french_path = slides.french_deck(english_path)
    english_name = os.path.relpath(english_path, root).replace(os.sep, "/")
    french_name = os.path.relpath(french_path, root).replace(os.sep, "/")
    if not os.path.isfile(french_path):
        if existing_only:
            return []
        return [f"{french_name}:1: missing: every deck has its French version beside it, "
                f"{english_name} translated (docs/instructors.md, \"The French edition\")"]
    return compare(statement_parity.read(english_path), statement_parity.read(french_path),
                   english_name, french_name)


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--existing", action="store_true",
                        help="check only the decks that have a NAME.fr.md")
    parser.add_argument("--root", default=ROOT, help="the course's root (default: this repository)")
    parser.add_argument("decks", nargs="*", help="English decks to check (default: every slides/*.md "
                                                 "but slides/*.fr.md)")
    args = parser.parse_args(argv[1:])
    root = os.path.abspath(args.root)
    if args.decks:
        decks = [os.path.abspath(slides.english_deck(deck)) for deck in args.decks]
        absent = [deck for deck in decks if not os.path.isfile(deck)]
        if absent:
            print(f"deck_parity: no such deck: {', '.join(absent)}", file=sys.stderr)
            return 2
    else:
        decks = slides.english_decks(root)
        if not decks:
            print(f"deck_parity: no deck under {root}/slides", file=sys.stderr)
            return 2
    problems = [problem for deck in decks for problem in check_deck(root, deck, args.existing)]
    for problem in problems:
        print(problem)
    checked = sum(os.path.isfile(slides.french_deck(deck)) for deck in decks)
    print(f"deck_parity: {checked} of {len(decks)} decks in French checked, {len(problems)} difference(s)",
          file=sys.stderr)
    return 1 if problems else 0
