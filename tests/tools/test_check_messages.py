#!/usr/bin/env python3
"""Every message a check prints for a student has a French beside its English, kept in step
(issue 41; common/course/check/message.hpp): each `Message{"english", "french"}` pair of the
harness (common/course/check/), of every exercise's check (harness/check.cpp) and of the
harness's own fake exercise (tests/harness/), and each entry of the student tools' and the
grader's message tables (tools/course_tools/student/language.py), and each speed bar
(`SpeedBar{figure, kind, bar, reference, French figure, French reference}`, speed_bar.hpp: a
bar's line in the check's report) must have a French text that

  - is there (not empty) and is no copy of the English, unless the text is code alone;
  - has the English's placeholders (as many `{}` in C++, the same `{name}`s in Python);
  - puts a space before : ; ! ? and inside « » (the type makes it a no-break one).

The compiler already refuses a message with no French at all (unit.english_only_message); a
speed bar may leave its French out in C++, so this test is what requires it (naming the file
and line of the bar), and it fails on a bar written in a form it cannot read.

    python3 tests/tools/test_check_messages.py           the repository
    python3 tests/tools/test_check_messages.py --rules   each rule against a wrong pair
"""
import glob
import importlib
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import language  # noqa: E402

# The Python modules whose messages a student reads (each holds a language.Messages table).
PYTHON_MODULES = ["course_tools.student.commands", "course_tools.student.cuda_device",
                  "course_tools.student.quiet_run", "course_tools.student.score_table",
                  "course_tools.grading.reports"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")

LITERAL = r'"(?:[^"\\\n]|\\.)*"'
# One text: adjacent literals, as C++ joins them.
TEXT = rf"{LITERAL}(?:\s*{LITERAL})*"
# A pair where a Message is made: Message{...}, Message(...) or `Message kHint{...}`, a braced
# pair passed to a call (`c.hint({...})`) or in a list (`{{..., ...}, {..., ...}}`), returned
# or assigned (`return {...};`, `reason = {...};`). Other pairs of strings are found too
# (`{"--case", "n"}`): harmless, they pass.
PAIR = re.compile(rf"(?:\bMessage(?:\s+\w+)?\s*[{{(]|[(,{{]\s*\{{|\breturn\s*\{{|=\s*\{{|\?\s*\{{|:\s*\{{)\s*"
                  rf"({TEXT})\s*,\s*({TEXT})\s*[}})]")
# A speed bar where one is written (`kBar{...}`, or a field's braces): the English figure, the
# kind, the bar, the English reference, and perhaps the French figure and reference.
SPEED_BAR = re.compile(rf"\{{\s*({TEXT})\s*,\s*(?:[\w:]*::)?BarKind::\w+\s*,\s*[^,{{}}]+?,"
                       rf"\s*({TEXT})(?:\s*,\s*({TEXT})\s*,\s*({TEXT}))?\s*\}}")
# A bar's kind given as a field (after a comma), not read (`bar.kind == BarKind::at_least`):
# one outside every SPEED_BAR belongs to a bar the scan cannot read.
BAR_KIND_FIELD = re.compile(r",\s*(?:[\w:]*::)?BarKind::\w+")
# A sign that French spaces from the word before it: glued to a word or a closing sign, then
# the end of the sentence or a space (so that fichier:ligne and std:: are left alone).
GLUED_SIGN = re.compile(r"[\w)}\]»'’][:;!?](?=\s|$)")
GLUED_GUILLEMET = re.compile(r"«\S|\S»")
SKIP_MARKER = "SKIPPED:"
CODE_IN_PARENTHESES = re.compile(r"\([^()]*[;=][^()]*\)")
# A quote that opens after no letter (not an elision: l'erreur), up to the next one.
QUOTED = re.compile(r"(?<![A-Za-zÀ-ÿ])'[^']*'|\"[^\"]*\"")
# A word of prose between spaces (letters, perhaps a sign after it): two in a row make a
# sentence, which code (`cudaMalloc(&p, bytes)`, `{}: {}`) never has.
PROSE_WORD = re.compile(r"^[A-Za-zÀ-ÿ'’]{2,}[,.;:!?]?$")


def strip_comments(text):
    """The C++ text without its comments, each line where it was (for the lines reported)."""
    def blank(comment):
        return "\n" * comment.group(0).count("\n")
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.S)
    return re.sub(r"(?m)^[ \t]*//[^\n]*|(?<=[;,{}()])[ \t]*//[^\n]*", blank, text)


def joined(text):
    """The C++ text of adjacent literals, escapes read as the compiler reads them."""
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'"}
    return "".join(re.sub(r"\\u([0-9a-fA-F]{4})|\\(.)",
                          lambda m: chr(int(m.group(1), 16)) if m.group(1) else escapes.get(m.group(2), m.group(0)),
                          p[1:-1])
                   for p in re.findall(LITERAL, text))


def is_code(text):
    """True for a text with no prose in it: code, numbers, names, a single word."""
    words = text.split()
    return not any(PROSE_WORD.match(a) and PROSE_WORD.match(b) for a, b in zip(words, words[1:]))


def pair_problems(english, french):
    """What is wrong with one pair: a list of sentences (empty when nothing is)."""
    problems = []
    if not french.strip():
        problems.append("no French")
    elif french == english and not is_code(english):
        problems.append("the French is a copy of the English")
    if sorted(PLACEHOLDER.findall(english)) != sorted(PLACEHOLDER.findall(french)):
        problems.append(f"placeholders {PLACEHOLDER.findall(english)} in the English, "
                        f"{PLACEHOLDER.findall(french)} in the French")
    # "SKIPPED:" is the same word in both languages: scripts and CTest logs search for it.
    # Code keeps its own signs: a parenthesis with ; or = in it (`for (i = 0; i < n; ++i)`),
    # and the quoted text a program must print ('Device <index>: <name>', "%.2f GiB").
    prose = CODE_IN_PARENTHESES.sub("", QUOTED.sub("", french.replace(SKIP_MARKER, "")))
    glued = GLUED_SIGN.findall(prose) + GLUED_GUILLEMET.findall(prose)
    if glued:
        problems.append("no space before a sign or inside « »: " + ", ".join(repr(g) for g in glued))
    return problems


def pairs_in(path):
    """The (line, english, french) of every Message pair of a C++ file."""
    with open(path, encoding="utf-8") as handle:
        source = strip_comments(handle.read())
    for match in PAIR.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        yield line, joined(match.group(1)), joined(match.group(2))


def speed_bars(path):
    """The speed bars a C++ file writes: (line, figure, reference, French figure, French
    reference), the French texts None where the bar has none; and the lines of the bars written
    in a form the scan cannot read (a name for a text, a constructor call)."""
    with open(path, encoding="utf-8") as handle:
        source = strip_comments(handle.read())
    bars, read = [], []
    for match in SPEED_BAR.finditer(source):
        read.append(match.span())
        french = [joined(text) if text else None for text in match.group(3, 4)]
        bars.append((source.count("\n", 0, match.start()) + 1, joined(match.group(1)),
                     joined(match.group(2)), *french))
    unread = [source.count("\n", 0, kind.start()) + 1 for kind in BAR_KIND_FIELD.finditer(source)
              if not any(start <= kind.start() < end for start, end in read)]
    return bars, unread


def bar_problems(path, shown_as):
    """A bar with no French, or one the scan cannot read, in the C++ file `path` (named
    `shown_as` in the problems)."""
    bars, unread = speed_bars(path)
    problems = [f"{shown_as}:{line}: a speed bar without its French figure and reference "
                f"(SpeedBar's last two fields): {figure[:60]!r}"
                for line, figure, _, french_figure, french_reference in bars
                if french_figure is None or french_reference is None]
    problems += [f"{shown_as}:{line}: a speed bar this test cannot read: write it "
                 '{"figure", kind, bar, "reference", "French figure", "French reference"}'
                 for line in unread]
    return problems


def bar_pairs(path):
    """The (line, english, french) of each text of the speed bars of a C++ file that have their
    French: the figure, then the reference."""
    for line, figure, reference, french_figure, french_reference in speed_bars(path)[0]:
        if french_figure is not None and french_reference is not None:
            yield line, figure, french_figure
            yield line, reference, french_reference


def covered_files(root):
    """The harness's files, every exercise's check and the fake exercise's."""
    return (sorted(glob.glob(os.path.join(root, "common", "course", "check", "*.[ch]pp")))
            + sorted(glob.glob(os.path.join(root, "exercises", "*", "harness", "check.cpp")))
            + [os.path.join(root, "tests", "harness", "fake_check.cpp")])


def message_pairs(root):
    """Every message a student reads: (where, english, french), `where` a "file:line" of a check
    or the harness, or a Python table's module and key. Imports the modules of the tables."""
    for path in covered_files(root):
        for line, english, french in [*pairs_in(path), *bar_pairs(path)]:
            yield f"{os.path.relpath(path, root)}:{line}", english, french
    for module in PYTHON_MODULES:
        importlib.import_module(module)
    for table in language.TABLES:
        for key, (english, french) in table.table.items():
            yield f"{table.module} {key!r}", english, french


def problems_of(root):
    problems, pairs = [], 0
    for where, english, french in message_pairs(root):
        pairs += 1
        for problem in pair_problems(english, french):
            problems.append(f"{where}: {problem}: {english[:60]!r}")
    missing = set(PYTHON_MODULES) - {table.module for table in language.TABLES}
    problems += [f"{module} has no language.Messages table" for module in sorted(missing)]
    for path in covered_files(root):
        problems += bar_problems(path, os.path.relpath(path, root))
    return problems, pairs, covered_files(root)


RULES = [
    # (english, french, the words of the problem expected; None: no problem)
    ("the sum is wrong", "la somme est fausse", None),
    ("the sum is wrong", "", "no French"),
    ("the sum is wrong", "the sum is wrong", "a copy"),
    ("cudaMalloc(&p, bytes)", "cudaMalloc(&p, bytes)", None),
    ("{} bytes", "octets", "in the French"),
    ("{count} of {total}", "{total} sur {count}", None),
    ("{count} of {total}", "{count} sur {totl}", "in the French"),
    ("does it launch?", "lance-t-il?", "no space before"),
    ("output: {}", "sortie: {}", "no space before"),
    ("output '{}'", "sortie «{}»", "inside « »"),
    ("see file:line", "voir fichier:ligne", None),
    ("SKIPPED: no GPU", "SKIPPED: pas de GPU", None),
    ("print 'Found: <n>'", "affichez l'en-tête 'Found: <n>' d'abord", None),
    ("print 'Found: <n>'", "l'en-tête: 'Found: <n>'", "no space before"),
    ("stop before n: for (i = 0; i < n; ++i)", "arrêtez-vous avant n : for (i = 0; i < n; ++i)", None),
    ("stop before n; then return", "arrêtez-vous avant n; puis rendez la main", "no space before"),
    ("call cudaFree; then return", "appelez cudaFree ; puis rendez la main", None),
]


def read_sample(source, read):
    """What `read` (a scan of a C++ file) finds in `source`, written to a file for it."""
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"check_messages_rules_{os.getpid()}.cpp")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    try:
        return read(path)
    finally:
        os.remove(path)


def run_rules():
    status = 0
    for english, french, expected in RULES:
        found = "; ".join(pair_problems(english, french))
        ok = (not found) if expected is None else expected in found
        print(f"{'ok' if ok else 'FAIL'}: {english!r} / {french!r}: {found or 'no problem'}")
        status |= not ok
    # The scan finds the pairs a check writes, in each form, and no other string pair.
    sample = ('c.hint({"round up", "arrondissez"});\n'
              'return {"a", "b"};\n'
              'c.fail(Message{"x {}", "y {}"}.with(n));\n'
              'const Message kHint{"one "\n "two", "un "\n "deux"};\n'
              'std::vector<std::string> words = {"--case", "n"};  // not a message\n')
    found = [(english, french)
             for _, english, french in read_sample(sample, lambda path: list(pairs_in(path)))]
    wanted = [("round up", "arrondissez"), ("a", "b"), ("x {}", "y {}"), ("one two", "un deux")]
    ok = found[:4] == wanted and len(found) == len(wanted) + 1  # = {"--case", "n"} is found too
    print(f"{'ok' if ok else 'FAIL'}: the scan finds the pairs of each form: {found}")
    return status | (not ok) | run_bar_rules()


# Lines 1-2: a bar with its French; 3-4: one without (the wrong bar); 6: a bar's kind read, not
# written; 7: a bar the scan cannot read (names for its texts); 8: a bar in a field's braces.
BAR_SAMPLE = (
    'constexpr SpeedBar kDone{"speed-up", BarKind::at_least, 1.5, "2 on H100",\n'
    '                         "accélération", "2 sur H100"};\n'
    'constexpr course::check::SpeedBar kEnglishOnly{"share of the copy ceiling",\n'
    '    course::check::BarKind::at_most, 0.8, "0.9 on H100"};\n'
    '// SpeedBar kComment{"in a comment", BarKind::at_least, 1.0, "1 on H100"};\n'
    'bool above = bar.kind == BarKind::at_least ? a >= b : a <= b;\n'
    'constexpr SpeedBar kNamed{kFigure, BarKind::at_least, 1.5, kReference};\n'
    'const SpeedCase kCase{"vector", 64, {"GB/s over cuSPARSE\'s", BarKind::at_least, 0.8,\n'
    '    "1.19 on H100", "débit divisé par celui de cuSPARSE", "1.19 sur H100"}};\n')


def run_bar_rules():
    """A bar without its French fails, naming its file and line; so does one the scan cannot
    read; a bar's French texts are checked as message pairs."""
    problems = read_sample(BAR_SAMPLE, lambda path: bar_problems(path, "sample.cpp"))
    pairs = read_sample(BAR_SAMPLE, lambda path: list(bar_pairs(path)))
    status = 0
    for wanted, ok in [
            ("a bar without its French fails at its line",
             sum("sample.cpp:3: a speed bar without its French" in p for p in problems) == 1),
            ("a bar the scan cannot read fails",
             sum("sample.cpp:7: a speed bar this test cannot read" in p for p in problems) == 1),
            ("nothing else fails (a kind read, a comment)", len(problems) == 2),
            ("the French texts of the bars are message pairs",
             pairs == [(1, "speed-up", "accélération"), (1, "2 on H100", "2 sur H100"),
                       (8, "GB/s over cuSPARSE's", "débit divisé par celui de cuSPARSE"),
                       (8, "1.19 on H100", "1.19 sur H100")])]:
        print(f"{'ok' if ok else 'FAIL'}: {wanted}")
        status |= not ok
    if status:
        print("\n".join(["  problems:", *problems, f"  pairs: {pairs}"]))
    return status


def main(argv):
    if "--rules" in argv:
        return run_rules()
    problems, pairs, files = problems_of(ROOT)
    for problem in problems:
        print(f"FAIL: {problem}")
    checks = sum("exercises" in path for path in files)
    print(f"{pairs} message pairs in {len(files)} files ({checks} exercises' checks), "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
