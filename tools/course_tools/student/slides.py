"""Builds the lecture decks: slides/NAME.md -> build/slides/NAME.md (code included),
NAME.html and NAME.pdf, with Marp (tools/marp/, pinned by its package-lock.json; the
course's theme: tools/marp/course.css).

    tools/course slides [--build-dir DIR] [--output DIR] [--student] [--lang en|fr|all]
                    [--check] [--fit] [--require-pdf] [DECK...]

Code on a slide is cut from the compiled, tested sources, never pasted. In a source
(.cu .cuh .cpp .hpp .h .c under exercises/, solutions/, common/, slides/examples/) a region
is the lines between two comment lines of their own:

    // [slide:REGION-NAME]
    ...
    // [/slide]

(the marker lines are not shown; a name is unique in its file; regions may nest, a whole
function around the lines one slide explains, and each // [/slide] ends the innermost open
one). In a deck, a line of its own

    <!-- include: PATH#REGION-NAME -->

(PATH from the repository root) becomes a ```cpp block of the region's lines, dedented,
with the path as a caption. A figure is a Markdown image of a file under slides/ (for
example ![alt](figures/NAME.png)); a line `<!-- figure: NAME.png -->` marks a figure the
deck will show once the benchmark report has committed it (slides/figures/NAME.png): it is
only reported. A French deck shows the French plot, figures/NAME.fr.png; until the report
has drawn it (on a GPU: make report, then tools/course report --update-slides), the English
figures/NAME.png stands in, copied under the French name beside the expanded deck, and each
build says so. A diagram is an SVG of slides/diagrams/, drawn by tools/course diagrams and
committed (![alt](diagrams/NAME.svg)). Slides are separated by lines `---`, with a blank
line before each.

A region in a file under solutions/ is solution code. The instructor build shows it
(without the TODO(student) comment blocks, which belong to the skeleton); a student build
(--student, or a build folder configured with COURSE_MODE=student; the students' release
has no solutions/) shows code that is not the solution in its place, never a placeholder:

  - the regions named on lines `<!-- student: PATH#REGION-NAME -->` right under the include
    (a skeleton's function with its instructions, a header's declaration, a small example of
    the same idea on another problem under slides/examples/); else
  - the region of the same name in the skeleton (the same path under exercises/): the
    signature and the TODO(student) instructions the student fills in.

A slide holding a line `<!-- after-deadline -->` (one that explains the answer) is left out
of the students' decks: it needs no students' counterpart.

Every error fails the build with FILE:LINE: an include of a missing file or region, an
include of a solution with nothing for students, an unterminated region, a duplicate region
name, a region marker in a file that the build does not compile (the list CMake writes:
BUILD-DIR/compiled_sources.tsv, see cmake/CompiledSources.cmake), a missing or remote figure.

    --build-dir DIR   the configured CMake build folder (default build/default)
    --output DIR      where the decks go (default build/slides, build/slides/student for a
                      student build); the French decks go into its folder fr/
    --lang LANG       en (the default): the English decks, slides/NAME.md; fr: their French
                      versions, slides/NAME.fr.md, built as OUTPUT/fr/NAME.html and .pdf (an
                      English deck not translated yet is named, and skipped: the test
                      slides.french_parity, tools/course deck-parity, requires every one); all: both
    --check           expand and validate only: no Marp; the expanded decks are written only
                      where --output is given
    --fit             also lay every slide out in headless chromium (Marp's HTML) and fail on
                      any element or line of text outside the slide's content box (the
                      padding box, down to the top of the footer), code that scrolls
                      included: 'DECK:SLIDE: TAG "first words" overflows by N px (bottom)';
                      and on type that does not read projected: body text under 24 px, code
                      under 20, captions and footer under 18, a diagram's labels under 18 as
                      shown, a measured plot's too (its smallest text from the record the
                      benchmark report writes beside it, NAME.png.json; a plot without one
                      is not measured), more than 14 lines of code on a slide, class dense on a slide
                      that is not a question page ("Questions: NN · ...").
                      Exit 77 (skipped) without Marp or chromium: it never passes unchecked
    --root DIR        the repository whose decks and sources are read (default: this one;
                      the course's tests point it at a broken copy)
    --require-pdf     exit 77 (skipped) when Marp, chromium or pdfinfo is missing, instead of
                      building HTML only (the CTest test of the PDFs' page counts)
    DECK              deck names (part1: slides/part1.md, or slides/part1.fr.md with
                      --lang fr) or paths (default: every English deck, slides/*.md but
                      slides/*.fr.md)

PDFs are made with Debian's chromium where it is installed (Marp runs it headless; as root
it adds --no-sandbox itself), and their page counts are compared with the decks' slide
counts where pdfinfo (poppler-utils) is installed. Exit status: 0 built, 1 an error in a
deck or a source (or a slide that does not fit), 2 a usage error or a missing tool, 77 see
--fit and --require-pdf.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ElementTree

# This tool's own repository (where Marp is installed), and the one whose decks are built
# (the same, unless --root says otherwise).
from course_tools.student.paths import ROOT as TOOL_ROOT
ROOT = TOOL_ROOT
SOURCE_FOLDERS = ("exercises", "solutions", "common", "slides/examples")
SOURCE_EXTENSIONS = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".c")
SOLUTION_FOLDER = "solutions"
MARP = os.path.join("tools", "marp", "node_modules", ".bin", "marp")
MARP_CONFIG = os.path.join("tools", "marp", "config.yml")
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# The folders of slides/ whose images the decks show: the report's plots, the drawn diagrams.
IMAGE_FOLDERS = ("figures", "diagrams")
SKIPPED = 77
# A deck's French version lies beside it: slides/NAME.md, slides/NAME.fr.md. Its build goes
# into the output's folder fr/, under the English deck's name.
LANGUAGES = ("en", "fr")
FRENCH_SUFFIX = ".fr.md"

NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
REGION_START = re.compile(r"^\s*// \[slide:(" + NAME + r")\]\s*$")
REGION_END = re.compile(r"^\s*// \[/slide\]\s*$")
ANY_MARKER = re.compile(r"\[/?slide[\]:]")
INCLUDE = re.compile(r"^<!--\s*include:\s*(\S+?)#(" + NAME + r")\s*-->\s*$")
ANY_INCLUDE = re.compile(r"^\s*<!--\s*include\b")
STUDENT_INCLUDE = re.compile(r"^<!--\s*student:\s*(\S+?)#(" + NAME + r")\s*-->\s*$")
ANY_STUDENT = re.compile(r"^\s*<!--\s*student\b")
AFTER_DEADLINE = re.compile(r"^<!--\s*after-deadline\s*-->\s*$")
PENDING_FIGURE = re.compile(r"^<!--\s*figure:\s*(\S+)\s*-->\s*$")
# The comment naming the case of a quoted bar or reference figure (tools/course case-tables
# holds the number against the check): for the test, so taken out before Marp, which would
# make it a speaker note.
# A French deck shows a measured figure in French, figures/NAME.fr.png (the benchmark report
# draws both languages). Until a report run on a GPU has drawn it, the English figure stands
# in: copied under the French name beside the expanded deck, and said at every build.
FRENCH_FIGURE = re.compile(r"^(figures/[^/]+)\.fr\.png$")
FIGURE_SOURCE = re.compile(r"<!--\s*(?:bar|reference)\s+\d+\s+\w+(?:\s+\d+)?\s*-->")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
TODO_OPEN, TODO_CLOSE = "TODO(student)", "END TODO(student)"


class Problems:
    """The errors found, each 'FILE:LINE: message', in the order found."""

    def __init__(self):
        self.errors = []

    def add(self, path, line, message):
        self.errors.append(f"{relative(path)}:{line}: {message}")


def relative(path):
    """A path as messages show it: from the repository's root, when it lies inside it."""
    return os.path.relpath(path, ROOT) if os.path.isabs(path) and is_inside(path, ROOT) else path


# --- what the build compiles ---------------------------------------------------------------

class CompiledSources:
    """Read from BUILD-DIR/compiled_sources.tsv: the build's mode, its COURSE_ONLY, and the
    files it compiles (the listed sources, and the repository headers they include)."""

    def __init__(self, list_path):
        self.list_path = list_path
        self.mode, self.only = "instructor", ""
        targets = []
        with open(list_path, encoding="utf-8") as handle:
            for line in handle.read().splitlines():
                kind, _, value = line.partition("\t")
                if kind == "mode":
                    self.mode = value
                elif kind == "only":
                    self.only = value
                elif kind == "target":
                    targets.append(([], []))
                elif kind in ("source", "include") and targets:
                    targets[-1][0 if kind == "source" else 1].append(os.path.normpath(value))
        self.files = set()
        for sources, include_dirs in targets:
            self._follow_includes(sources, include_dirs)

    def _follow_includes(self, sources, include_dirs):
        pending = [s for s in sources if os.path.isfile(s)]
        seen = set()
        while pending:
            path = pending.pop()
            if path in seen:
                continue
            seen.add(path)
            if is_inside(path, ROOT):
                self.files.add(path)
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    lines = handle.read().splitlines()
            except OSError:
                continue
            for line in lines:
                match = QUOTED_INCLUDE.match(line)
                if not match:
                    continue
                for folder in [os.path.dirname(path)] + include_dirs:
                    candidate = os.path.normpath(os.path.join(folder, match.group(1)))
                    if os.path.isfile(candidate):
                        # Only the repository's own headers matter (and are worth reading).
                        if is_inside(candidate, ROOT):
                            pending.append(candidate)
                        break

    def why_not(self, path):
        """Why a file with a region is not compiled, in words."""
        reason = f"this build does not compile it ({relative(self.list_path)} lists what it compiles)"
        if self.only:
            reason += f"; the build was configured with COURSE_ONLY={self.only}: configure without it"
        return reason + ". Code on slides comes only from compiled, tested sources"


def is_inside(path, folder):
    return os.path.commonpath([os.path.abspath(path), folder]) == folder


# --- regions in the sources ----------------------------------------------------------------

class Region:
    def __init__(self, path, line):
        self.path, self.line, self.lines = path, line, []

    @property
    def is_solution(self):
        return relative(self.path).split(os.sep)[0] == SOLUTION_FOLDER


def read_regions(path, problems):
    """{name: Region} of one source; its errors go to `problems`. Regions may nest (a whole
    function around the lines a slide explains): a line belongs to every region open at it,
    and the marker lines of an inner region are in none."""
    regions, open_regions = {}, []
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    for number, line in enumerate(lines, start=1):
        start, end = REGION_START.match(line), REGION_END.match(line)
        if start:
            name = start.group(1)
            if name in regions or any(name == open_name for open_name, _ in open_regions):
                first = regions[name].line if name in regions else dict(open_regions)[name].line
                problems.add(path, number, f"duplicate region name '{name}': it is already defined "
                             f"at line {first} of this file")
            open_regions.append((name, Region(path, number)))
        elif end:
            if not open_regions:
                problems.add(path, number, "// [/slide] without a region open above it")
                continue
            name, region = open_regions.pop()
            regions.setdefault(name, region)
        elif ANY_MARKER.search(line):
            problems.add(path, number, "a region marker must be a comment line of its own, exactly "
                         "'// [slide:NAME]' or '// [/slide]' (NAME: letters, digits, '-', '_', '.')")
        else:
            for _, region in open_regions:
                region.lines.append(line)
    for name, region in open_regions:
        problems.add(path, region.line, f"region '{name}' is never ended: no // [/slide] line after it "
                     "(regions may nest: each // [/slide] ends the innermost one open)")
    return regions


def source_files(student):
    folders = [f for f in SOURCE_FOLDERS if not (student and f == SOLUTION_FOLDER)]
    for folder in folders:
        for directory, subdirectories, files in os.walk(os.path.join(ROOT, folder)):
            subdirectories.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.join(directory, name)


def all_regions(compiled, student, problems):
    """{path: {name: Region}} of every source that has markers, each checked."""
    found = {}
    for path in source_files(student):
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        if not ANY_MARKER.search(text):
            continue
        regions = read_regions(path, problems)
        if os.path.normpath(path) not in compiled.files:
            first = min((r.line for r in regions.values()), default=1)
            problems.add(path, first, "region marker in a file that is not compiled: "
                         + compiled.why_not(path))
        found[os.path.normpath(path)] = regions
    return found


def shown_lines(region):
    """The region's lines as a slide shows them: dedented; in a solution, without the
    TODO(student) comment blocks (the skeleton's instructions) around the answer."""
    lines = region.lines
    if region.is_solution:
        kept, in_todo_comment = [], False
        for line in lines:
            comment = line.strip().startswith("//")
            if comment and TODO_CLOSE in line:
                in_todo_comment = False
                continue
            if comment and TODO_OPEN in line:
                in_todo_comment = True
                continue
            if in_todo_comment and comment:
                continue
            in_todo_comment = False
            kept.append(line)
        lines = kept
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return textwrap.dedent("\n".join(lines)).splitlines()


def code_block(region_path, lines):
    language = "c" if region_path.endswith(".c") else "cpp"
    # A fence longer than any run of backquotes that starts a line of the code.
    runs = [len(m.group(1)) for m in (re.match(r"\s*(`+)", line) for line in lines) if m]
    fence = "`" * max([3] + [run + 1 for run in runs])
    # The blank line ends the caption's paragraph: a '---' right under it would underline it.
    return [fence + language] + lines + [fence, f"<sub>{relative(region_path)}</sub>", ""]


# --- decks -----------------------------------------------------------------------------------

class Deck:
    def __init__(self, path):
        self.path = path
        self.language = "fr" if path.endswith(FRENCH_SUFFIX) else "en"
        self.label = os.path.basename(path)[:-len(".md")]   # as messages name it: part1, part1.fr
        self.name = os.path.basename(english_deck(path))[:-len(".md")]  # its files: NAME.html
        self.lines = []            # the expanded Markdown
        self.origins = []          # for each of its lines, the deck's line it comes from
        self.pending_figures = []  # (line, name, now present)
        self.shown_figures = set()  # the images the deck shows, as written
        self.stand_ins = []        # (line, French figure not drawn yet, the English one shown instead)
        self.dropped = 0           # slides left out of a students' deck (after the deadline)


def closes(fence, line):
    """Whether `line` ends the code block that `fence` opened."""
    text = line.strip()
    return text.startswith(fence) and not text.strip(fence[0])


def after_deadline_lines(source):
    """The deck's lines (0-based) that belong to slides marked <!-- after-deadline -->, each
    with the separator before it (the first slide: the one after it)."""
    starts = starts_of_slides(source)
    ends = [start - 1 for start in starts[1:]] + [len(source)]
    dropped = set()
    for number, (start, end) in enumerate(zip(starts, ends)):
        if any(AFTER_DEADLINE.match(source[i]) for i in range(start, end)):
            dropped.update(range(start - 1, end) if number else range(start, min(end + 1, len(source))))
    return dropped


def expand(deck, regions, student, problems):
    """Fills deck.lines; errors go to `problems`."""
    with open(deck.path, encoding="utf-8") as handle:
        source = handle.read().splitlines()
    deck_dir = os.path.dirname(deck.path)
    late = after_deadline_lines(source)
    if student:
        deck.dropped = sum(1 for i in late if AFTER_DEADLINE.match(source[i]))
    fence, in_comment, consumed = None, False, set()
    for number, line in enumerate(source, start=1):
        deck.origins += [number - 1] * (len(deck.lines) - len(deck.origins))
        if student and number - 1 in late:
            continue
        if fence:
            fence = None if closes(fence, line) else fence
            deck.lines.append(line)
            continue
        opening = FENCE.match(line)
        if opening and not in_comment:
            fence = opening.group(1)
            deck.lines.append(line)
            continue
        if in_comment:
            in_comment = "-->" not in line
            deck.lines.append(line)
            continue
        if number in consumed:
            continue
        include = INCLUDE.match(line)
        if include:
            alternatives, below = [], number
            while below < len(source) and STUDENT_INCLUDE.match(source[below]):
                match = STUDENT_INCLUDE.match(source[below])
                alternatives.append((below + 1, match.group(1), match.group(2)))
                consumed.add(below + 1)
                below += 1
            deck.lines += include_region(deck, number, include.group(1), include.group(2), regions,
                                         student, problems, alternatives, number - 1 in late)
            continue
        if ANY_INCLUDE.match(line):
            problems.add(deck.path, number, "an include is a line of its own, exactly "
                         "'<!-- include: PATH#REGION-NAME -->' with PATH from the repository root")
            deck.lines.append(line)
            continue
        if ANY_STUDENT.match(line):
            problems.add(deck.path, number, "a line '<!-- student: PATH#REGION-NAME -->' goes right under "
                         "the include of a solution's region that it replaces in the students' decks")
            continue
        pending = PENDING_FIGURE.match(line)
        if pending:
            name = pending.group(1)
            present = os.path.isfile(os.path.join(deck_dir, "figures", name))
            deck.pending_figures.append((number, name, present))
            deck.lines.append(line)
            continue
        # Images inside an HTML comment are not shown, so not required.
        visible = re.sub(r"<!--.*?-->", "", line)
        if "<!--" in visible:
            in_comment = True
            visible = visible.split("<!--")[0]
        for image in IMAGE.finditer(visible):
            deck.shown_figures.add(image.group(1))
            check_figure(deck, number, image.group(1), problems)
        deck.lines.append(FIGURE_SOURCE.sub("", line))
    deck.origins += [len(source)] * (len(deck.lines) - len(deck.origins))
    if fence:
        problems.add(deck.path, len(source), f"a code block opened with {fence} is never closed")


def source_folder(full):
    """The folder of SOURCE_FOLDERS that holds `full` (None: none does, or not a source)."""
    if not full.endswith(SOURCE_EXTENSIONS):
        return None
    path = relative(full).replace(os.sep, "/")
    return next((folder for folder in SOURCE_FOLDERS if path.startswith(folder + "/")), None)


def find_region(deck, number, path, name, regions, problems):
    """The Region `path#name` (path from the repository root), or None with the error said."""
    where = f"include {path}#{name}"
    full = os.path.normpath(os.path.join(ROOT, path))
    if os.path.isabs(path) or not is_inside(full, ROOT):
        problems.add(deck.path, number, f"{where}: the path must be relative to the repository root")
        return None
    if not source_folder(full):
        problems.add(deck.path, number, f"{where}: regions come from sources "
                     f"({', '.join(SOURCE_EXTENSIONS)}) under {', '.join(f + '/' for f in SOURCE_FOLDERS)}")
        return None
    if not os.path.isfile(full):
        problems.add(deck.path, number, f"{where}: no such file")
        return None
    found = regions.get(full, {})
    if name not in found:
        known = ", ".join(sorted(found)) or "none"
        problems.add(deck.path, number, f"{where}: {path} has no region '{name}' (its regions: {known})")
        return None
    return found[name]


def include_region(deck, number, path, name, regions, student, problems, alternatives=(), late=False):
    """The lines an include becomes. A solution's region has a counterpart in the students'
    decks, never a placeholder: the regions named on the lines '<!-- student: PATH#REGION -->'
    right under the include (`alternatives`: their lines, paths and names), else the region of
    the same name in the skeleton (the same path under exercises/). Only a slide marked
    <!-- after-deadline --> (`late`), which the students' decks leave out, needs none."""
    full = os.path.normpath(os.path.join(ROOT, path))
    is_solution = source_folder(full) == SOLUTION_FOLDER
    counterparts = []
    for line, other_path, other_name in alternatives:
        other_full = os.path.normpath(os.path.join(ROOT, other_path))
        if not is_solution:
            problems.add(deck.path, line, "a '<!-- student: ... -->' line replaces the include of a solution's "
                         f"region only, and {path} is not under {SOLUTION_FOLDER}/")
        elif source_folder(other_full) == SOLUTION_FOLDER:
            problems.add(deck.path, line, f"student: {other_path}#{other_name}: the students' decks show no "
                         f"code from {SOLUTION_FOLDER}/")
        else:
            counterparts.append(find_region(deck, line, other_path, other_name, regions, problems))
    if is_solution and not alternatives and not late:
        skeleton = os.path.join("exercises", *relative(full).split(os.sep)[1:])
        counterpart = regions.get(os.path.normpath(os.path.join(ROOT, skeleton)), {}).get(name)
        counterparts.append(counterpart)
        if counterpart is None:
            problems.add(deck.path, number, f"include {path}#{name}: nothing to show students instead of this "
                         f"solution code: give the skeleton {skeleton} a region '{name}' (its signature and "
                         "instructions), or put a line '<!-- student: PATH#REGION -->' under this one (a "
                         "header's declaration, an example under slides/examples/), or mark the slide "
                         "'<!-- after-deadline -->'")
    if is_solution and student:
        # In a student build solutions/ is neither compiled nor shown (nor, in a release, present).
        return [line for region in counterparts if region for line in code_block(region.path, shown_lines(region))]
    region = find_region(deck, number, path, name, regions, problems)
    return code_block(region.path, shown_lines(region)) if region else []


def check_figure(deck, number, target, problems):
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
        problems.add(deck.path, number, f"figure {target}: a remote image; a figure is a file under slides/ "
                     "(nothing is downloaded when the slides are built)")
        return
    full = os.path.normpath(os.path.join(os.path.dirname(deck.path), target))
    slides = os.path.dirname(deck.path)
    if os.path.isabs(target) or not is_inside(full, slides):
        problems.add(deck.path, number, f"figure {target}: must be a path under slides/, "
                     "relative to the deck")
    elif not os.path.isfile(full):
        english = english_stand_in(deck, target)
        if english:
            deck.stand_ins.append((number, target, english))
        else:
            problems.add(deck.path, number, f"figure {target}: no such file {relative(full)}")


def english_stand_in(deck, target):
    """The English figure that stands in for a French deck's figures/NAME.fr.png not drawn
    yet: figures/NAME.png where it exists, else None."""
    match = FRENCH_FIGURE.match(target)
    if deck.language != "fr" or not match:
        return None
    english = match.group(1) + ".png"
    return english if os.path.isfile(os.path.join(os.path.dirname(deck.path), english)) else None


def starts_of_slides(lines, underlined=None):
    """The index in `lines` (a deck) where each slide starts, after its separator. Slides are
    separated by '---' outside code blocks, HTML comments and the front matter. A separator
    right under a line of text would be read as a heading underline: `underlined` is called
    with its index."""
    index = 0
    if lines and lines[0].strip() == "---":
        index = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), len(lines)) + 1
    starts, fence, in_comment = [index], None, False
    for i in range(index, len(lines)):
        line = lines[i]
        if fence:
            fence = None if closes(fence, line) else fence
            continue
        if in_comment:  # a '---' inside an HTML comment separates nothing
            in_comment = "-->" not in line
            continue
        opening = FENCE.match(line)
        if opening:
            fence = opening.group(1)
        elif line.lstrip().startswith("<!--") and "-->" not in line:
            in_comment = True
        elif line.strip() == "---":
            starts.append(i + 1)
            above = lines[i - 1].strip()
            if underlined and above and not above.endswith("-->") and not FENCE.match(above):
                underlined(i)
    return starts


def slide_starts(deck, problems=None):
    """starts_of_slides of the expanded deck; a separator under text is an error."""
    def underlined(i):
        problems.add(deck.path, deck.origins[i], "a slide separator '---' right under a line of "
                     "text is read as a heading underline: leave a blank line before it")
    return starts_of_slides(deck.lines, underlined if problems is not None else None)


def count_slides(deck, problems=None):
    """Slides of the expanded deck: its separators, plus one."""
    return len(slide_starts(deck, problems))


def slide_line(deck, slide):
    """The deck's line (1-based) where slide `slide` (1-based) starts: its first line of text."""
    starts = slide_starts(deck)
    if not 1 <= slide <= len(starts):
        return len(deck.origins)
    index = starts[slide - 1]
    end = starts[slide] if slide < len(starts) else len(deck.lines)
    while index < end - 1 and not deck.lines[index].strip():
        index += 1
    return deck.origins[index] if index < len(deck.origins) else len(deck.origins)


# --- rendering -------------------------------------------------------------------------------

def find_chromium():
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def run_marp(marp, arguments):
    config = os.path.join(TOOL_ROOT, MARP_CONFIG)
    done = subprocess.run([marp, "--no-stdin", "--config-file", config, *arguments], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
    return done.returncode == 0


def pdf_pages(pdf):
    done = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
    match = re.search(r"^Pages:\s+(\d+)", done.stdout, re.M)
    return int(match.group(1)) if done.returncode == 0 and match else None


def deck_output(deck, output):
    """The folder of OUTPUT that holds the deck's build: OUTPUT itself, OUTPUT/fr for French."""
    return output if deck.language == "en" else os.path.join(output, deck.language)


def write_expanded(decks, output):
    """DECK-OUTPUT/NAME.md for each deck (deck_output), and the figures and diagrams beside
    them (the decks' paths stay valid)."""
    for target in sorted({deck_output(deck, output) for deck in decks}):
        os.makedirs(target, exist_ok=True)
        for folder in IMAGE_FOLDERS:
            images = os.path.join(ROOT, "slides", folder)
            if os.path.isdir(images):
                shutil.copytree(images, os.path.join(target, folder), dirs_exist_ok=True)
    for deck in decks:
        with open(os.path.join(deck_output(deck, output), deck.name + ".md"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(deck.lines) + "\n")
        slides = os.path.dirname(deck.path)
        for _, french, english in deck.stand_ins:
            # The figure's record too (NAME.png.json): the legibility check reads it.
            for suffix in ("", ".json"):
                if os.path.isfile(os.path.join(slides, english + suffix)):
                    shutil.copy2(os.path.join(slides, english + suffix),
                                 os.path.join(deck_output(deck, output), french + suffix))


def render(decks, output, require_pdf):
    """HTML always, PDF where chromium is found; 0, 1 (a failure) or SKIPPED."""
    marp = os.path.join(TOOL_ROOT, MARP)
    chromium, pdfinfo = find_chromium(), shutil.which("pdfinfo")
    if not os.access(marp, os.X_OK):
        message = (f"slides: Marp is not installed ({MARP}): run `npm ci --prefix tools/marp` "
                   "(make slides does), with npm from Debian's package npm")
        print(message, file=sys.stderr)
        return SKIPPED if require_pdf else 2
    if require_pdf and not (chromium and pdfinfo):
        missing = [n for n, p in (("chromium", chromium), ("pdfinfo (poppler-utils)", pdfinfo)) if not p]
        print(f"slides: skipped: {' and '.join(missing)} not found (apt-get install chromium poppler-utils)")
        return SKIPPED
    write_expanded(decks, output)
    status = 0
    for deck in decks:
        folder = deck_output(deck, output)
        markdown = os.path.join(folder, deck.name + ".md")
        html = os.path.join(folder, deck.name + ".html")
        if not run_marp(marp, [markdown, "-o", html]):
            print(f"slides: Marp failed on {relative(markdown)} (HTML)", file=sys.stderr)
            status = 1
            continue
        line = f"slides: {relative(html)}"
        if chromium:
            pdf = os.path.join(folder, deck.name + ".pdf")
            if not run_marp(marp, [markdown, "--pdf", "--allow-local-files",
                                   "--browser-path", chromium, "-o", pdf]):
                print(f"slides: Marp failed on {relative(markdown)} (PDF)", file=sys.stderr)
                status = 1
                continue
            line += f", {relative(pdf)}"
            expected = count_slides(deck)
            if pdfinfo:
                pages = pdf_pages(pdf)
                if pages != expected:
                    print(f"slides: {relative(pdf)} has {pages} page(s), but {relative(deck.path)} has "
                          f"{expected} slide(s)", file=sys.stderr)
                    status = 1
                    continue
                line += f" ({pages} pages, as many as slides)"
        print(line)
    if not chromium:
        print("slides: PDF skipped: chromium not found (apt-get install chromium); HTML only")
    elif not pdfinfo:
        print("slides: page counts not checked: pdfinfo not found (apt-get install poppler-utils)")
    return status


# --- what fits on a slide -----------------------------------------------------------------------

# Run in headless Chromium on the deck's HTML (Marp's bare template: every slide laid out, no
# script of its own), once the page and its images are loaded. For each slide (an <svg
# data-marpit-svg>) it measures, in pixels of the slide, every element and every line of text
# of the slide's content (its <section>, or the content layer of a split background) against
# the content box: the padding box of the section, down to the top of the footer. A block that
# scrolls (a code block with a long line) counts what it hides. One result per top-level
# element of a slide that passes an edge: its tag, its first words that pass, and by how much.
FIT_SCRIPT = r"""
(function () {
  "use strict";
  var TOLERANCE = 1;
  function words(text) {
    text = (text || "").replace(/\s+/g, " ").trim();
    return text.length > 48 ? text.slice(0, 48) + "..." : text;
  }
  // What a reader at the back of the room gets: the smallest text of each kind (body, code,
  // caption: the source under a block of code, the footer), the lines of code, and each
  // image's width as shown (a diagram's labels are measured from its SVG, at that scale).
  function legibility(section, number, ctm) {
    var smallest = {}, codeLines = 0, images = [];
    var walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      var element = node.parentNode;
      if (element.closest("style, script")) continue;
      var size = parseFloat(getComputedStyle(element).fontSize);
      var kind = element.closest("pre, code") ? "code" : element.closest("sub, footer, header") ? "caption" : "body";
      if (!(kind in smallest) || size < smallest[kind][0]) smallest[kind] = [size, words(node.textContent)];
    }
    section.querySelectorAll("pre").forEach(function (pre) {
      codeLines += pre.textContent.replace(/\n+$/, "").split("\n").length;
    });
    section.querySelectorAll("img").forEach(function (img) {
      images.push([img.getAttribute("src"), img.getBoundingClientRect().width / ctm.a]);
    });
    var title = section.querySelector("h1, h2");
    return {slide: number, smallest: smallest, code_lines: codeLines, images: images,
            dense: section.classList.contains("dense"), title: title ? title.textContent.trim() : ""};
  }
  function measure() {
    var found = [], legible = [];
    document.querySelectorAll("svg[data-marpit-svg]").forEach(function (svg, index) {
      var ctm = svg.getScreenCTM();  // the slide's pixels to the window's (scaled, centred)
      function at(r) {
        return {top: (r.top - ctm.f) / ctm.d, bottom: (r.bottom - ctm.f) / ctm.d,
                left: (r.left - ctm.e) / ctm.a, right: (r.right - ctm.e) / ctm.a,
                width: r.width, height: r.height};
      }
      var footer = Array.prototype.find.call(svg.querySelectorAll("footer"), function (f) {
        return f.textContent.trim() && f.getBoundingClientRect().height > 0;
      });
      svg.querySelectorAll("section").forEach(function (section) {
        var layer = section.getAttribute("data-marpit-advanced-background");
        if (layer === "background" || layer === "pseudo") return;
        var style = getComputedStyle(section);
        var box = at(section.getBoundingClientRect());
        var limit = {top: box.top + parseFloat(style.paddingTop),
                     left: box.left + parseFloat(style.paddingLeft),
                     right: box.right - parseFloat(style.paddingRight),
                     bottom: box.bottom - parseFloat(style.paddingBottom)};
        if (footer) limit.bottom = at(footer.getBoundingClientRect()).top;
        Array.prototype.forEach.call(section.children, function (child) {
          if (/^(FOOTER|HEADER|STYLE|SCRIPT)$/.test(child.tagName)) return;
          var over = {bottom: 0, right: 0, top: 0, left: 0}, first = null;
          function consider(r, node) {
            if (r.width === 0 && r.height === 0) return;
            var d = {bottom: r.bottom - limit.bottom, right: r.right - limit.right,
                     top: limit.top - r.top, left: limit.left - r.left}, any = false;
            for (var side in d) {
              if (d[side] > TOLERANCE) { over[side] = Math.max(over[side], d[side]); any = true; }
            }
            if (any && first === null && node) first = node;
          }
          consider(at(child.getBoundingClientRect()), null);
          var walker = document.createTreeWalker(child, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
          for (var node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.nodeType === Node.TEXT_NODE) {
              if (!node.textContent.trim()) continue;
              var range = document.createRange();
              range.selectNodeContents(node);
              Array.prototype.forEach.call(range.getClientRects(), function (r) { consider(at(r), node); });
              continue;
            }
            consider(at(node.getBoundingClientRect()), node.children.length ? null : node);
          }
          [child].concat(Array.prototype.slice.call(child.querySelectorAll("*"))).forEach(function (e) {
            var s = getComputedStyle(e);
            if (s.overflowX !== "visible" && e.scrollWidth > e.clientWidth + TOLERANCE) {
              over.right = Math.max(over.right, e.scrollWidth - e.clientWidth);
              first = first || e;
            }
            if (s.overflowY !== "visible" && e.scrollHeight > e.clientHeight + TOLERANCE) {
              over.bottom = Math.max(over.bottom, e.scrollHeight - e.clientHeight);
              first = first || e;
            }
          });
          var sides = Object.keys(over).filter(function (side) { return over[side] > TOLERANCE; });
          if (!sides.length) return;
          // The words shown: the line of code, or the item or paragraph, that passes first.
          var shown = first || child;
          var block = shown.nodeType === Node.TEXT_NODE ? shown.parentNode : shown;
          var inCode = block.closest && block.closest("pre");
          while (!inCode && block !== child && !/^(LI|P|TD|TH|H[1-6]|BLOCKQUOTE|FIGURE)$/.test(block.tagName)) {
            block = block.parentNode;
          }
          var text = inCode && shown.nodeType === Node.TEXT_NODE ? shown.textContent
                     : block.textContent || shown.getAttribute && (shown.getAttribute("alt") || shown.getAttribute("src"));
          found.push({slide: index + 1, tag: child.tagName.toLowerCase(), words: words(text),
                      over: sides.map(function (side) { return [side, Math.round(over[side])]; })});
        });
        legible.push(legibility(section, index + 1, ctm));
      });
    });
    var out = document.createElement("script");
    out.type = "application/json";
    out.id = "course-fit";
    out.textContent = JSON.stringify({slides: document.querySelectorAll("svg[data-marpit-svg]").length,
                                      found: found, legible: legible}).replace(/</g, "\\u003c");
    document.body.appendChild(out);
  }
  window.addEventListener("load", measure);
})();
"""
FIT_RESULT = re.compile(r'<script type="application/json" id="course-fit">(.*?)</script>', re.S)


def chromium_command(chromium):
    """Headless Chromium's command line (as root it needs --no-sandbox, as Marp knows too)."""
    command = [chromium, "--headless", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
               "--no-first-run", "--window-size=1280,720"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--no-sandbox")
    return command


def measure_fit(chromium, html, folder):
    """[(slide, tag, words, [(side, px)...])] of the deck whose bare HTML is `html`, laid out
    in headless Chromium with `folder` as the base of its relative paths (its figures)."""
    with open(html, encoding="utf-8") as handle:
        text = handle.read()
    base = f'<base href="file://{os.path.abspath(folder)}/">'
    text = text.replace("<head>", "<head>" + base, 1)
    text = text.replace("</body>", f"<script>{FIT_SCRIPT}</script></body>", 1)
    with tempfile.TemporaryDirectory(prefix="slides-fit-") as scratch:
        page = os.path.join(scratch, "deck.html")
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(text)
        done = subprocess.run(chromium_command(chromium) + [
            f"--user-data-dir={os.path.join(scratch, 'profile')}", "--virtual-time-budget=10000",
            "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=300)
    match = FIT_RESULT.search(done.stdout)
    if not match:
        raise RuntimeError(f"chromium measured nothing (status {done.returncode}): {done.stderr.strip()[-800:]}")
    result = json.loads(match.group(1))
    return (result["slides"], [(f["slide"], f["tag"], f["words"], f["over"]) for f in result["found"]],
            result["legible"])


# Type that reads projected (1280 x 720, the back row of a lecture room), in pixels of the slide.
SMALLEST_PX = {"body": 24, "code": 20, "caption": 18}
SMALLEST_DIAGRAM_LABEL_PX = 18
MOST_CODE_LINES = 14
# A question page: `dense` is for these alone. "Questions: 03 · ..." ("Questions : 03 · ..." in French).
QUESTION_TITLE = re.compile(r"^Questions\s?:\s+\d\d\b")


def figure_record(path):
    """Where the benchmark report writes what a plot shows beside the plot (NAME.png.json:
    its width and height in pixels, its smallest text in pixels of the image, its texts)."""
    return path + ".json"


def smallest_png_label(path):
    """(width of the plot's image, its smallest text, both in pixels of the image) from the
    plot's record, or None where it has none (a figure drawn before the records were)."""
    try:
        with open(figure_record(path), encoding="utf-8") as handle:
            record = json.load(handle)
        return float(record["width"]), float(record["smallest_text_px"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def smallest_svg_label(path):
    """(width of the SVG's canvas, its smallest font-size), or None for a file that is no SVG."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    sizes = [float(e.get("font-size")) for e in root.iter() if e.get("font-size")]
    box = (root.get("viewBox") or "").split()
    width = float(box[2]) if len(box) == 4 else float(root.get("width") or 0)
    return (width, min(sizes)) if sizes and width else None


def legibility_problems(deck, legible, folder):
    """[(slide, what is too small or too long)] of one deck's measured slides."""
    problems = []
    for slide in legible:
        number = slide["slide"]
        for kind, least in SMALLEST_PX.items():
            if kind in slide["smallest"] and slide["smallest"][kind][0] < least - 0.01:
                size, words = slide["smallest"][kind]
                problems.append((number, f'{kind} text at {size:g} px (at least {least}): "{words}"'))
        if slide["code_lines"] > MOST_CODE_LINES:
            problems.append((number, f"{slide['code_lines']} lines of code (at most {MOST_CODE_LINES}: "
                                     "show the lines that matter, and name the file)"))
        if slide["dense"] and not QUESTION_TITLE.match(slide["title"]):
            problems.append((number, f'class dense on "{slide["title"]}": dense is for question pages '
                                     '("Questions: NN · ...") alone'))
        for source, shown_width in slide["images"]:
            if "://" in source:
                continue
            # A diagram's labels are its SVG's; a measured plot's, its record's.
            measure = {".svg": smallest_svg_label, ".png": smallest_png_label}.get(os.path.splitext(source)[1])
            measured = measure(os.path.join(folder, source)) if measure else None
            if measured is None:
                continue
            width, label = measured
            shown = label * shown_width / width
            if shown < SMALLEST_DIAGRAM_LABEL_PX - 0.01:
                problems.append((number, f"{source}: a label shown at {shown:.1f} px (at least "
                                         f"{SMALLEST_DIAGRAM_LABEL_PX}: the figure is drawn {width:g} wide, "
                                         f"shown {shown_width:.0f})"))
    return problems


def check_fit(decks, output, marp):
    """Renders each expanded deck (DECK-OUTPUT/NAME.md) to bare HTML and measures it; prints each
    overflow as 'deck:slide: ...'. Returns the number of slides that do not fit, or None when
    a deck could not be measured."""
    chromium = find_chromium()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="slides-fit-") as scratch:
        for deck in decks:
            folder = deck_output(deck, output)
            markdown = os.path.join(folder, deck.name + ".md")
            html = os.path.join(scratch, deck.label + ".html")
            if not run_marp(marp, [markdown, "--template", "bare", "-o", html]):
                print(f"slides: Marp failed on {relative(markdown)} (the HTML to measure)", file=sys.stderr)
                return None
            try:
                slides, found, legible = measure_fit(chromium, html, folder)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as error:
                print(f"slides: {deck.label}: {error}", file=sys.stderr)
                return None
            expected = count_slides(deck)
            if slides != expected:
                print(f"slides: {deck.label}: chromium laid out {slides} slide(s), the deck has {expected}",
                      file=sys.stderr)
                return None
            for slide, tag, words, over in found:
                sides = " and ".join(f"{px} px ({side})" for side, px in over)
                print(f"{deck.label}:{slide}: {tag} \"{words}\" overflows by {sides} "
                      f"[{relative(deck.path)}:{slide_line(deck, slide)}]", file=sys.stderr)
            unreadable = legibility_problems(deck, legible, folder)
            for slide, problem in unreadable:
                print(f"{deck.label}:{slide}: {problem} [{relative(deck.path)}:{slide_line(deck, slide)}]",
                      file=sys.stderr)
            failures += len({slide for slide, *_ in found} | {slide for slide, _ in unreadable})
            if not found and not unreadable:
                print(f"slides: {deck.label}: all {slides} slides fit, in type that reads projected")
    return failures


# --- the command -------------------------------------------------------------------------------

def english_deck(path):
    """The English deck of a deck's path (itself, when it is English)."""
    return path[:-len(FRENCH_SUFFIX)] + ".md" if path.endswith(FRENCH_SUFFIX) else path


def french_deck(path):
    """The path of an English deck's French version: slides/NAME.md -> slides/NAME.fr.md."""
    return path[:-len(".md")] + FRENCH_SUFFIX


def english_decks(root):
    """The English decks of the course at `root`: slides/*.md but their French versions."""
    slides = os.path.join(root, "slides")
    if not os.path.isdir(slides):
        return []
    return sorted(os.path.join(slides, n) for n in os.listdir(slides)
                  if n.endswith(".md") and not n.endswith(FRENCH_SUFFIX))


def deck_paths(names, language="en"):
    """The decks to build in `language`: those named (names or paths), else every English
    deck's (in French: those translated; the others are named on stderr)."""
    slides = os.path.join(ROOT, "slides")
    if not names:
        english = english_decks(ROOT)
        if language == "en":
            return english
        untranslated = [p for p in english if not os.path.isfile(french_deck(p))]
        for path in untranslated:
            print(f"slides: {relative(path)} has no French version yet ({relative(french_deck(path))}): "
                  "not built in French", file=sys.stderr)
        return [french_deck(p) for p in english if p not in untranslated]
    paths = []
    for name in names:
        path = name if name.endswith(".md") else os.path.join(slides, name + ".md")
        if language != "en" and not path.endswith(FRENCH_SUFFIX):
            path = french_deck(path)
        paths.append(os.path.abspath(path))
    return paths


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir")
    parser.add_argument("--root", default=TOOL_ROOT)
    parser.add_argument("--output")
    parser.add_argument("--student", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--require-pdf", action="store_true")
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--lang", choices=LANGUAGES + ("all",), default="en")
    parser.add_argument("decks", nargs="*")
    options = parser.parse_args(argv[1:])
    global ROOT
    ROOT = os.path.abspath(options.root)

    list_path = os.path.join(options.build_dir or os.path.join(ROOT, "build", "default"),
                             "compiled_sources.tsv")
    if not os.path.isfile(list_path):
        print(f"slides: {relative(os.path.abspath(list_path))} not found: configure the build first "
              f"(cmake --preset default; make slides does it), so that the slides know what it compiles",
              file=sys.stderr)
        return 2
    compiled = CompiledSources(os.path.abspath(list_path))
    student = options.student or compiled.mode == "student"
    languages = LANGUAGES if options.lang == "all" else (options.lang,)
    decks = [Deck(p) for language in languages for p in deck_paths(options.decks, language)]
    missing = [d.path for d in decks if not os.path.isfile(d.path)]
    if not decks or missing:
        named = ", ".join(relative(p) for p in missing) or ("slides/*.fr.md" if languages == ("fr",) else "slides/*.md")
        print(f"slides: no such deck: {named}", file=sys.stderr)
        return 2

    problems = Problems()
    # In a student build solutions/ is neither compiled nor shown (nor, in a release, present).
    regions = all_regions(compiled, student, problems)
    for deck in decks:
        expand(deck, regions, student, problems)
        count_slides(deck, problems)
    for deck in decks:
        for number, name, present in deck.pending_figures:
            if f"figures/{name}" in deck.shown_figures:
                state = "is shown: this marker line can go"
            elif present:
                state = "now exists: enable the image under this line"
            else:
                state = "not committed yet (the benchmark report makes it)"
            print(f"{relative(deck.path)}:{number}: figure {name} {state}")
        for number, french, english in deck.stand_ins:
            print(f"{relative(deck.path)}:{number}: figure {french} not drawn yet: {english} is shown "
                  "until a report run on a GPU draws it (tools/course report --update-slides)")
    if problems.errors:
        for error in problems.errors:
            print(error, file=sys.stderr)
        print(f"slides: {len(problems.errors)} error(s); nothing built", file=sys.stderr)
        return 1
    kind = "student" if student else "instructor"
    default_output = os.path.join(ROOT, "build", "slides", *(["student"] if student else []))
    output = os.path.abspath(options.output or default_output)
    if options.fit:
        missing_tools = fit_tools_missing()
        if missing_tools:
            print(f"slides: skipped: {missing_tools}: what fits on a slide is not checked")
            return SKIPPED
    if options.check:
        if options.output:
            write_expanded(decks, output)
        counts = ", ".join(f"{d.label} ({count_slides(d)} slides"
                           + (f"; {d.dropped} left out until the deadline" if d.dropped else "") + ")"
                           for d in decks)
        print(f"slides: {kind} build checked: {counts}")
        if not options.fit:
            return 0
        if options.output:
            return fit(decks, output)
        with tempfile.TemporaryDirectory(prefix="slides-") as scratch:
            write_expanded(decks, scratch)
            return fit(decks, scratch)
    folders = sorted({deck_output(deck, output) for deck in decks})
    print(f"slides: {kind} build into {', '.join(relative(folder) for folder in folders)}")
    status = render(decks, output, options.require_pdf)
    if options.fit and status == 0:
        status = fit(decks, output)
    return status


def fit_tools_missing():
    """What the fit check lacks, in words (None when Marp and chromium are there)."""
    missing = []
    if not os.access(os.path.join(TOOL_ROOT, MARP), os.X_OK):
        missing.append(f"Marp is not installed ({MARP}: npm ci --prefix tools/marp)")
    if not find_chromium():
        missing.append("chromium not found (apt-get install chromium)")
    return " and ".join(missing) or None


def fit(decks, output):
    """0 when every slide of `decks` (expanded in OUTPUT) fits, 1 when one does not."""
    failures = check_fit(decks, output, os.path.join(TOOL_ROOT, MARP))
    if failures is None:
        return 1
    if failures:
        print(f"slides: {failures} slide(s) do not fit or do not read projected: split them, trim "
              "them, show less code (one region per slide), draw larger", file=sys.stderr)
        return 1
    return 0
