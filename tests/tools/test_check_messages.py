#!/usr/bin/env python3
"""Every message a check prints for a student has a French beside its English, kept in step
(issue 41; common/course/check/message.hpp): each `Message{"english", "french"}` pair of the
harness (common/course/check/) and of every converted check (an exercise's harness/check.cpp
that no longer defines COURSE_CHECK_ENGLISH_ONLY_ALLOWED) must have a French text that

  - is there (not empty) and is no copy of the English, unless the text is code alone;
  - has as many `{}` as the English (each takes the same piece, in order);
  - puts a space before : ; ! ? and inside « » (message.hpp makes it a no-break one).

The compiler already refuses a message with no French at all (unit.english_only_message).
The checks not converted yet are named, not failed: the list is the files that still
define the switch, and a converted check is covered as soon as its define is deleted.

    python3 tests/tools/test_check_messages.py           the repository
    python3 tests/tools/test_check_messages.py --all     the same, and a check not converted fails
    python3 tests/tools/test_check_messages.py --rules   each rule against a wrong pair
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SWITCH = "COURSE_CHECK_ENGLISH_ONLY_ALLOWED"

LITERAL = r'"(?:[^"\\\n]|\\.)*"'
# One text: adjacent literals, as C++ joins them.
TEXT = rf"{LITERAL}(?:\s*{LITERAL})*"
# A pair where a Message is made: Message{...}, Message(...) or `Message kHint{...}`, a braced
# pair passed to a call (`c.hint({...})`), returned or assigned (`return {...};`,
# `reason = {...};`, which also finds other pairs of strings: harmless, they pass).
PAIR = re.compile(rf"(?:\bMessage(?:\s+\w+)?\s*[{{(]|\(\s*\{{|\breturn\s*\{{|=\s*\{{|\?\s*\{{|:\s*\{{)\s*"
                  rf"({TEXT})\s*,\s*({TEXT})\s*[}})]")
# A sign that French spaces from the word before it: glued to a word or a closing sign, then
# the end of the sentence or a space (so that fichier:ligne and std:: are left alone).
GLUED_SIGN = re.compile(r"[\w)}\]»'’][:;!?](?=\s|$)")
GLUED_GUILLEMET = re.compile(r"«\S|\S»")
# A word of prose between spaces (letters, perhaps a sign after it): two in a row make a
# sentence, which code (`cudaMalloc(&p, bytes)`, `{}: {}`) never has.
PROSE_WORD = re.compile(r"^[A-Za-zÀ-ÿ'’]{2,}[,.;:!?]?$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)^\s*//[^\n]*|(?<=[;,{}()])\s*//[^\n]*", "", text)


def joined(text):
    """The C++ text of adjacent literals, escapes read as the compiler reads them."""
    parts = re.findall(LITERAL, text)
    return "".join(bytes(p[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
                   for p in parts)


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
    if english.count("{}") != french.count("{}"):
        problems.append(f"{english.count('{}')} '{{}}' in the English, {french.count('{}')} in the French")
    glued = GLUED_SIGN.findall(french) + GLUED_GUILLEMET.findall(french)
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


def covered_files(root):
    """The harness's files and the converted checks; and the checks not converted yet."""
    harness = sorted(glob.glob(os.path.join(root, "common", "course", "check", "*.[ch]pp")))
    converted, pending = [], []
    for check in sorted(glob.glob(os.path.join(root, "exercises", "*", "harness", "check.cpp"))):
        with open(check, encoding="utf-8") as handle:
            (pending if f"#define {SWITCH}" in handle.read() else converted).append(check)
    return harness + converted, pending


def problems_of(root):
    files, pending = covered_files(root)
    problems, pairs = [], 0
    for path in files:
        for line, english, french in pairs_in(path):
            pairs += 1
            for problem in pair_problems(english, french):
                problems.append(f"{os.path.relpath(path, root)}:{line}: {problem}: {english[:60]!r}")
    return problems, pairs, files, pending


RULES = [
    # (english, french, the words of the problem expected; None: no problem)
    ("the sum is wrong", "la somme est fausse", None),
    ("the sum is wrong", "", "no French"),
    ("the sum is wrong", "the sum is wrong", "a copy"),
    ("cudaMalloc(&p, bytes)", "cudaMalloc(&p, bytes)", None),
    ("{} bytes", "octets", "in the French"),
    ("does it launch?", "lance-t-il?", "no space before"),
    ("output: {}", "sortie: {}", "no space before"),
    ("output '{}'", "sortie «{}»", "inside « »"),
    ("see file:line", "voir fichier:ligne", None),
    ("call cudaFree; then return", "appelez cudaFree ; puis rendez la main", None),
]


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
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"check_messages_rules_{os.getpid()}.cpp")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(sample)
    try:
        found = [(english, french) for _, english, french in pairs_in(path)]
    finally:
        os.remove(path)
    wanted = [("round up", "arrondissez"), ("a", "b"), ("x {}", "y {}"), ("one two", "un deux")]
    ok = found[:4] == wanted and len(found) == len(wanted) + 1  # = {"--case", "n"} is found too
    print(f"{'ok' if ok else 'FAIL'}: the scan finds the pairs of each form: {found}")
    return status | (not ok)


def main(argv):
    if "--rules" in argv:
        return run_rules()
    problems, pairs, files, pending = problems_of(ROOT)
    for problem in problems:
        print(f"FAIL: {problem}")
    checks = [os.path.basename(os.path.dirname(os.path.dirname(p))) for p in files if "exercises" in p]
    print(f"{pairs} message pairs in {len(files)} files; converted checks: {' '.join(checks) or 'none'}")
    if pending:
        print(f"{'FAIL: ' if '--all' in argv else ''}not converted yet (they define {SWITCH}): " +
              " ".join(os.path.basename(os.path.dirname(os.path.dirname(p))) for p in pending))
    return 1 if problems or (pending and "--all" in argv) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
