#!/usr/bin/env python3
"""The French glossary (docs/glossaire.md) lists every term the French edition teaches, with
the exercise that teaches it. Two rules:

  1. every row of the glossary names at least one exercise, 01 to 26, in its last column
     (not "aucun");
  2. every term that a French statement (exercises/*/README.fr.md) or a French deck
     (slides/*.fr.md) sets in italics, *terme* or _terme_, outside code, has a row: the term
     is one of the names in the row's French or English column.

What counts as a term: an italic span of one to four words on one line, outside fenced code,
`inline code` and HTML comments, that holds no link. Italics of whole phrases are emphasis.
Matching ignores case, a leading article (le, la, les, l', un, une, des, du, de, d') and the
plural (a final s or x) and feminine (-ée) of each word: *warps* matches the row "warp",
*coalescées* the name "coalescé". A row's column gives several names, separated by commas;
a part in parentheses, and each `code` span, is a name too: "block (thread block)" names
"block" and "thread block". Italics that are not terms are listed in EXCEPTIONS, each group
with why.

The decks change while other pages are written: the test reads whatever slides/*.fr.md hold.
A failure names the file, the line and the term, and what to do. The rules are proved first
on a small tree (a term without a row, a row without an exercise, emphasis, code, plurals).

    python3 tests/tools/test_glossary.py
"""
import glob
import os
import re
import shutil
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GLOSSARY = "docs/glossaire.md"
PAGES = ("exercises/*/README.fr.md", "slides/*.fr.md")
MAX_WORDS = 4
EXERCISES = range(1, 27)

# Italics that are not terms of the course, by why. A new emphasis goes in its group; a new
# term gets a row in the glossary instead.
EXCEPTIONS = {
    # Stressed for the sense of the sentence (a number, a determiner, an adverb, a verb, a
    # place): not a notion to look up.
    "emphasis": {
        "un", "une seule", "deux", "sa", "cette", "chaque", "même", "autre", "beaucoup", "dans",
        "hors", "fixe", "nouveau", "différents", "indépendantes", "indépendamment du contexte",
        "plus tard", "pas notés", "précédant", "renvoie", "rejoue", "échoue", "erreur", "forme",
        "colonnes", "dans le flux", "dans le PTX", "sur ce stream", "avertissement",
    },
    # The names of exercise 14's input families, defined in the sentence that sets them in
    # italics ("des valeurs *uniformes* ...").
    "14's input families": {"uniformes", "concentrées", "aux bornes"},
    # A label or a word that a tool prints, quoted in italics as the tool shows it (Nsight
    # Compute's sections and metrics, CTest's "skipped", exercise 21's step names).
    "a tool's own words": {
        "Duration", "Memory Throughput", "DRAM Throughput", "L1/TEX Cache Throughput",
        "Achieved Occupancy", "Memory Workload Analysis Tables", "Shared Memory", "skipped",
        "fetch", "stash",
    },
}

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
COMMENT = re.compile(r"<!--.*?-->")
# *term* and _term_, never **bold**, never inside a word (snake_case, a*b*c).
STAR = re.compile(r"(?<![*\w])\*(?![*\s])([^*\n]+?)(?<!\s)\*(?![*\w])")
UNDERSCORE = re.compile(r"(?<![_\w])_(?![_\s])([^_\n]+?)(?<!\s)_(?![_\w])")
LINK = re.compile(r"\]\(")
ARTICLE = re.compile(r"^(?:(?:les|le|la|une|un|des|du|de)\s+|[ld]')(?=\S)", re.IGNORECASE)
ROW = re.compile(r"^\|(.+)\|\s*$")
RULE = re.compile(r"^\|?\s*:?-{2,}")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def words_of(name):
    """A name as matching sees it: lower case, plain spaces, no article, each word singular
    and masculine."""
    name = name.replace("\u00a0", " ").replace("\u202f", " ").replace("`", "").strip().lower()
    name = ARTICLE.sub("", name)
    out = []
    for word in name.split():
        if len(word) > 3 and word[-1] in "sx":
            word = word[:-1]
        if word.endswith("ée"):
            word = word[:-1]
        out.append(word)
    return " ".join(out)


def names_of(cell):
    """The names a glossary cell gives: the parts between commas and semicolons, each part
    in parentheses, each `code` span."""
    found = set(re.findall(r"`([^`]+)`", cell))
    parenthesised = re.findall(r"\(([^()]*)\)", cell)
    outside = re.sub(r"\([^()]*\)", ",", cell)
    for chunk in [outside] + parenthesised:
        found.update(part for part in re.split(r"[,;]", chunk) if part.strip())
    return {words_of(name) for name in found if words_of(name)}


def read_glossary(text):
    """([(line, names, exercise column)], problems) for the glossary's rows."""
    rows, problems = [], []
    for number, line in enumerate(text.split("\n"), start=1):
        match = ROW.match(line)
        if not match or RULE.match(line):
            continue
        cells = [cell.strip() for cell in match.group(1).split("|")]
        if len(cells) != 4 or cells[0] == "français":
            continue
        numbers = [int(n) for n in re.findall(r"\b(\d{2})\b", cells[3])]
        if not any(n in EXERCISES for n in numbers):
            problems.append(f"{GLOSSARY}:{number}: the row '{cells[0]}' names no exercise 01 to 26 "
                            f"(its last column says '{cells[3]}'): give the exercise that teaches it")
        rows.append((number, names_of(cells[0]) | names_of(cells[1]), cells[3]))
    return rows, problems


def italic_terms(text):
    """[(line, term)]: the italics of one to four words outside code, comments and links."""
    found, fence = [], False
    for number, line in enumerate(text.split("\n"), start=1):
        if FENCE.match(line):
            fence = not fence
            continue
        if fence:
            continue
        bare = COMMENT.sub("", INLINE_CODE.sub("`code`", line))
        for pattern in (STAR, UNDERSCORE):
            for match in pattern.finditer(bare):
                term = match.group(1).strip()
                if LINK.search(term) or "`code`" in term or len(term.split()) > MAX_WORDS:
                    continue
                found.append((number, term))
    return found


def problems(root):
    """Every term without a row and every row without an exercise, as 'FILE:LINE: why'."""
    glossary_path = os.path.join(root, GLOSSARY)
    if not os.path.isfile(glossary_path):
        return [f"{GLOSSARY}: missing"]
    rows, found = read_glossary(read(glossary_path))
    known = set().union(*(names for _, names, _ in rows)) if rows else set()
    excepted = {words_of(term) for group in EXCEPTIONS.values() for term in group}
    for pattern in PAGES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            page = os.path.relpath(path, root).replace(os.sep, "/")
            for number, term in italic_terms(read(path)):
                key = words_of(term)
                if key in known or key in excepted:
                    continue
                found.append(f"{page}:{number}: *{term}* is set in italics but has no row in {GLOSSARY}: "
                             f"add one (français | anglais | définition | the exercise that teaches it), "
                             f"or, if it is emphasis and not a term, add it to EXCEPTIONS in "
                             f"tests/tools/test_glossary.py with why")
    return found


class Rules(unittest.TestCase):
    """The rules on a small tree: one mistake at a time."""

    GLOSSARY_TEXT = """# For students: glossaire

| français | CUDA (anglais) | définition | exercice |
|---|---|---|---|
| bloc | block (thread block) | un groupe de threads | 02 |
| accès coalescés, coalescé | coalesced accesses | des adresses consécutives | 05, 07 |
| warp | warp | 32 threads | 02 |
"""
    STATEMENT = """# Exercice 42 : un énoncé

*[English version](README.md)*

Un *bloc* de threads, des *warps*, des lectures *coalescées*, un *thread block*,
`un *bloc* en code`, et la *même* chose.

```
*pas un terme* dans un bloc de code
```

*Une phrase entière en italique, bien plus longue que quatre mots.*
"""

    def tree(self, glossary=GLOSSARY_TEXT, statement=STATEMENT, deck=None):
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "exercises", "42_x"))
        os.makedirs(os.path.join(root, "slides"))
        open(os.path.join(root, GLOSSARY), "w", encoding="utf-8").write(glossary)
        open(os.path.join(root, "exercises", "42_x", "README.fr.md"), "w", encoding="utf-8").write(statement)
        if deck is not None:
            open(os.path.join(root, "slides", "part9.fr.md"), "w", encoding="utf-8").write(deck)
        return root

    def test_a_matched_tree_passes(self):
        self.assertEqual(problems(self.tree()), [])

    def test_a_term_without_a_row_fails_and_says_where(self):
        found = problems(self.tree(statement=self.STATEMENT + "\nUne *tuile* de 32 x 32.\n"))
        self.assertEqual(found, [found[0]])
        self.assertTrue(found[0].startswith("exercises/42_x/README.fr.md:14: *tuile* is set in italics "
                                            "but has no row in docs/glossaire.md"), found[0])

    def test_a_term_of_a_deck_without_a_row_fails(self):
        found = problems(self.tree(deck="# Diapo\n\n- le _stream_ par défaut\n"))
        self.assertEqual(len(found), 1, found)
        self.assertIn("slides/part9.fr.md:3: *stream*", found[0])

    def test_a_row_without_an_exercise_fails(self):
        glossary = self.GLOSSARY_TEXT + "| tuile | tile | un sous-bloc | aucun (cours d'origine) |\n"
        found = problems(self.tree(glossary=glossary))
        self.assertEqual(len(found), 1, found)
        self.assertIn("docs/glossaire.md:8: the row 'tuile' names no exercise 01 to 26", found[0])

    def test_an_exercise_out_of_range_fails(self):
        glossary = self.GLOSSARY_TEXT + "| tuile | tile | un sous-bloc | 99 |\n"
        self.assertEqual(len(problems(self.tree(glossary=glossary))), 1)

    def test_the_plural_the_feminine_an_article_and_an_english_name_match(self):
        self.assertEqual(words_of("les Warps"), words_of("warp"))
        self.assertEqual(words_of("coalescées"), words_of("coalescé"))
        self.assertIn(words_of("thread block"), names_of("block (thread block)"))
        self.assertIn("cudaevent_t", names_of("event (`cudaEvent_t`)"))

    def test_emphasis_code_comments_and_links_are_not_terms(self):
        text = ("Le *même*, `*code*`, <!-- *note* -->, *[English version](README.md)*, **gras**, "
                "snake_case_name, a*b*c, *une phrase de bien plus de quatre mots*.\n")
        self.assertEqual(italic_terms(text), [(1, "même")])

    def test_bold_and_underscore_italics(self):
        self.assertEqual(italic_terms("**gras** et _tuile_ et __gras__\n"), [(1, "tuile")])


class TheCourse(unittest.TestCase):
    def test_every_italic_term_has_a_row_with_its_exercise(self):
        found = problems(ROOT)
        self.assertEqual(found, [], "\n" + "\n".join(found))


if __name__ == "__main__":
    unittest.main(verbosity=2)
