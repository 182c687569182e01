#!/usr/bin/env python3
"""The statements quote a check's messages as the check prints them in the statement's language
(issue 41): since a student working in French reads the French messages (make check-NN
LANG=fr), a French statement (exercises/*/README.fr.md) or students' page (docs/*.fr.md: how
speed is graded, docs/speed.fr.md, quotes the shared timing messages) that quotes a message
quotes its French. A « quote » there that is the English of a message (message_pairs of
test_check_messages.py: the checks', the harness's, the student tools') fails, naming the
French to write.

A quote may be part of a message, and may leave out what varies: `...` stands for any text,
and a word where the message has a `{}` (a number, a name) stands for it. So

    « exactly the points with y >= 60 are missing: ... the last whole block in y »

is the English of `"exactly the points with {} >= {} are missing: the blocks stop at the last
whole block in {}"`. A statement is held to its own check's messages and the shared ones, not
to another exercise's; a docs/ page, to the shared ones only. A quote that reads the same in
both languages (a name, code) passes, and so does what a tool prints (nvcc, cuBLAS,
compute-sanitizer), which no message holds.

The English statements are left alone: a "quote" there that matches no message is as often
a tool's output or a figure's name as a message reworded since, so failing on it would call
for a list of exceptions to keep.

    python3 tests/tools/test_quoted_messages.py           the repository
    python3 tests/tools/test_quoted_messages.py --rules   each rule against a wrong statement
"""
import functools
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_check_messages import ROOT, message_pairs  # noqa: E402

ELLIPSIS = object()  # `...` in a quote: any text, perhaps none
HOLE = object()  # `{}` or `{name}` in a message: one value
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
# A word of a quote that must be in a message's fixed text for the two to be compared.
KEY_WORD = re.compile(r"[A-Za-z]{4,}")
# The words of a quote that a message's fixed text must match.
MIN_FIXED_WORDS = 2


def normal(text):
    """Spaces and apostrophes as a comparison wants them: one ordinary space, one apostrophe."""
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip()


def quote_tokens(quote):
    """A quote as characters, `...` (or `…`) as ELLIPSIS."""
    tokens = []
    for piece in re.split(r"(\.\.\.|…)", normal(quote)):
        tokens += [ELLIPSIS] if piece in ("...", "…") else list(piece)
    return tokens


def message_tokens(message):
    """A message as characters, each `{}` or `{name}` as HOLE."""
    tokens = []
    for piece in re.split(r"(\{\w*\})", normal(message)):
        tokens += [HOLE] if re.fullmatch(r"\{\w*\}", piece) else list(piece)
    return tokens


def values_if_quoted(quote, message):
    """When `quote` is (part of) `message`, the values the quote gives its holes, in order
    (`...` for a hole the quote leaves out); None otherwise."""
    q, m = quote_tokens(quote), message_tokens(message)

    # match(i, j): the values when the quote from its i-th token on is the message from its
    # j-th on, or the start of it. One call per token of either: deeper than Python's default
    # limit for the longest messages.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(q) + len(m))))

    @functools.lru_cache(maxsize=None)
    def match(i, j):
        if i == len(q):
            return ()
        if q[i] is ELLIPSIS:
            rest = match(i + 1, j)
            if rest is not None or j == len(m):
                return rest
            rest = match(i, j + 1)
            return rest if rest is None or m[j] is not HOLE else ("...",) + rest
        if j == len(m):
            return None
        if m[j] is HOLE:  # one word of the quote
            end = i
            while end < len(q) and q[end] is not ELLIPSIS and q[end] != " ":
                end += 1
                rest = match(end, j + 1)
                if rest is not None:
                    return ("".join(q[i:end]),) + rest
            return None
        return match(i + 1, j + 1) if q[i] == m[j] else None

    fixed = re.sub(r"\{\w*\}", " ", normal(message))
    if not any(word in fixed for word in KEY_WORD.findall(quote)):
        return None
    starts = [j for j in range(len(m)) if m[j] is HOLE or q[:1] in ([m[j]], [ELLIPSIS])]
    for j in starts:
        values = match(0, j)
        if values is not None and is_mostly_fixed_text(quote, values):
            return ("...",) * m[:j].count(HOLE) + values
    return None


def is_mostly_fixed_text(quote, values):
    """True when the message's own words make the match, not the values given to its holes
    (« cœurs CUDA » is no quote of "needs {} CUDA {}"): two of its words at least, and as many
    as the values."""
    def words(text):
        return len([word for word in text.split() if re.search(r"[^\W\d_]", word)])
    given = sum(words(value) for value in values)
    fixed = words(quote.replace("...", " ")) - given
    return fixed >= MIN_FIXED_WORDS and fixed >= given


def filled(message, values):
    """`message` with its holes filled by `values` (the rest left as `...`)."""
    values = iter(values)
    return re.sub(r"\{\w*\}", lambda _: next(values, "..."), message)


def french_quotes(text):
    """(line, quote) of every outermost « » of a French statement (a message may quote a name
    in « » itself), fenced code left out."""
    text = FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)
    depth, start = 0, 0
    for found in re.finditer("[«»]", text):
        if found.group(0) == "«":
            depth += 1
            if depth == 1:
                start = found.end()
        elif depth > 0:
            depth -= 1
            if depth == 0:
                yield text.count("\n", 0, start) + 1, normal(text[start:found.start()])


def quotable(messages, exercise):
    """The messages a statement of `exercise` may quote: its own check's and the shared ones
    (the harness's, the student tools'), not other exercises'."""
    return [message for message in messages
            if message[0].startswith(exercise + "/") or not message[0].startswith("exercises/")]


def english_quotes_in_french(path, text, messages):
    """One problem per quote of the French statement `path` that is the English of a message."""
    problems = []
    messages = quotable(messages, os.path.dirname(path))
    for line, quote in french_quotes(text):
        for where, english, french in messages:
            values = values_if_quoted(quote, english)
            if values is None or values_if_quoted(quote, french) is not None:
                continue
            problems.append(f"{path}:{line}: « {quote} » is the English of the message of {where}; "
                            f"quote its French: « {normal(filled(french, values))} »")
            break
    return problems


EXERCISE = "exercises/01_demo"
RULE_MESSAGES = [
    (f"{EXERCISE}/harness/check.cpp:10", "the program printed nothing", "le programme n'a rien affiché"),
    ("common/course/check/judge.cpp:20", "the program {} before finishing this case",
     "le programme {} avant la fin de ce cas"),
    ("common/course/check/judge.cpp:30", "exited with status {}", "s'est terminé avec le code {}"),
    (f"{EXERCISE}/harness/check.cpp:40", "{} wrote {} element(s) past the end of its output '{}'",
     "{} a écrit {} élément(s) au-delà de la fin de sa sortie « {} »"),
    (f"{EXERCISE}/harness/check.cpp:50", "launch with cudaLaunchKernel(...)",
     "launch with cudaLaunchKernel(...)"),
    ("course_tools.student.cuda_device 'cores'", "needs {} CUDA {}", "demande {} {} de CUDA"),
    ("exercises/02_other/harness/check.cpp:60", "a warp reads a column of the tile",
     "un warp lit une colonne de la tuile"),
]
RULES = [
    # (a line of a French statement, what the problem must say; None: no problem)
    ("- « the program printed nothing » : affichez-la.",
     f"{EXERCISE}/README.fr.md:1: « the program printed nothing » is the English of the message of "
     f"{EXERCISE}/harness/check.cpp:10; quote its French: « le programme n'a rien affiché »"),
    ("- « le programme n'a rien affiché » : affichez-la.", None),
    ("- « the program printed\n  nothing » sur deux lignes.", "quote its French: « le programme n'a rien affiché »"),
    ("- « the program ... before finishing this case » : rendez un statut.",
     "quote its French: « le programme ... avant la fin de ce cas »"),
    ("- « exited with status 1 » : lisez l'erreur.", "quote its French: « s'est terminé avec le code 1 »"),
    ("- « heavy_on_cpu wrote ... past the end of its output 'y' » : i <= n.",
     "quote its French: « heavy_on_cpu a écrit ... élément(s) au-delà de la fin de sa sortie « y » »"),
    ("- « a écrit ... au-delà de la fin de sa sortie « y » » : i <= n.", None),
    ("- « launch with cudaLaunchKernel(...) » : le code est le même.", None),
    ("- « device code does not support exception handling » : nvcc.", None),
    ("- les « cœurs CUDA » du GPU.", None),
    ("- la colonne « a warp reads » du tableau.", None),
    ("```\n« the program printed nothing »\n```", None),
]
DOCS_PAGE = "docs/speed.fr.md"
DOCS_RULES = [
    # (a line of a French students' page, what the problem must say; None: no problem)
    ("- « the program ... before finishing this case » : rendez un statut.",
     f"{DOCS_PAGE}:1: « the program ... before finishing this case » is the English of the message of "
     "common/course/check/judge.cpp:20; quote its French: « le programme ... avant la fin de ce cas »"),
    ("- « le programme ... avant la fin de ce cas » : rendez un statut.", None),
    # An exercise's own message is its statement's to quote, not a page's for every exercise.
    ("- « the program printed nothing » : affichez-la.", None),
]


def run_rules():
    status = 0
    rules = [(f"{EXERCISE}/README.fr.md", text, expected) for text, expected in RULES]
    rules += [(DOCS_PAGE, text, expected) for text, expected in DOCS_RULES]
    for page, text, expected in rules:
        found = "; ".join(english_quotes_in_french(page, text, RULE_MESSAGES))
        ok = (not found) if expected is None else expected in found
        print(f"{'ok' if ok else 'FAIL'}: {text!r}: {found or 'no problem'}")
        status |= not ok
    return status


def main(argv):
    if "--rules" in argv:
        return run_rules()
    messages = list(message_pairs(ROOT))
    problems, quotes = [], 0
    pages = sorted(glob.glob(os.path.join(ROOT, "exercises", "*", "README.fr.md")))
    pages += sorted(glob.glob(os.path.join(ROOT, "docs", "*.fr.md")))
    for path in pages:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        quotes += len(list(french_quotes(text)))
        problems += english_quotes_in_french(os.path.relpath(path, ROOT), text, messages)
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"{quotes} quotes in the French statements and pages against {len(messages)} messages, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
