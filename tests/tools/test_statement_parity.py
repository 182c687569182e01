#!/usr/bin/env python3
"""tools/course statement-parity catches each kind of difference between a statement and its
French version (a missing heading, a changed code block, a case's points changed, a link
changed, a numbered list shortened, ...) and passes a matched pair; its two modes (every
exercise in French, or only the pairs present) on small course trees in temporary folders.
The same for the decks, tools/course deck-parity: a slide missing, an include changed, a code
block changed, ... each fails; a deck without its NAME.fr.md fails.

    python3 tests/tools/test_statement_parity.py
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.authoring import deck_parity  # noqa: E402
from course_tools.authoring import statement_parity  # noqa: E402

TOOL = [os.path.join(ROOT, "tools", "course"), "statement-parity"]
DECK_TOOL = [os.path.join(ROOT, "tools", "course"), "deck-parity"]

ENGLISH = """\
# Exercise 42: a small statement

*[Version française](README.fr.md)*

**Goal.** Add two arrays, see [the guide](https://docs.nvidia.com/cuda/) and
![the grid](../../slides/figures/grid.png).

## Background

A kernel runs on the device. More in [the README](../../README.md#running-on-a-cluster).

| call | what it does |
|---|---|
| `cudaMalloc` | allocates |
| `cudaFree` | frees |

## What to do

1. `add_kernel`: one element per thread.
2. `add`: the launch, with a lazy
continuation line.
3. `add_on_gpu`: the round trip.

   ```
   add_kernel<<<blocks, 256>>>(x, y, out, n);
   ```

## Build, run, check

```
make 42
make check-42
```

~~~
nvcc -O3 add.cu -o add   # ``` inside a tilde fence is code
~~~

## What the check verifies (5 points, 7 when graded)

| case | points | what it catches |
|---|---|---|
| `n_is_one` | 2 | the smallest array |
| `n_zero` | 3 | nothing to do, see [below](#hints) |

### A subsection

Text.

## Hints

- "wrong value at 0": the index.

## Questions

1. Why?
2. How fast? 32. This number does not start a list.
"""

FRENCH = """\
# Exercice 42 : un petit énoncé

*[English version](README.md)*

**Objectif.** Additionner deux tableaux, voir [le guide](https://docs.nvidia.com/cuda/) et
![la grille](../../slides/figures/grid.png).

## Contexte

Un noyau (kernel) s'exécute sur le GPU. Voir [le README](../../README.md#running-on-a-cluster).

| appel | ce qu'il fait |
|---|---|
| `cudaMalloc` | alloue |
| `cudaFree` | libère |

## Travail demandé

1. `add_kernel` : un élément par thread.
2. `add` : le lancement, avec une
ligne de continuation paresseuse.
3. `add_on_gpu` : l'aller-retour.

   ```
   add_kernel<<<blocks, 256>>>(x, y, out, n);
   ```

## Compiler, exécuter, vérifier

```
make 42
make check-42
```

~~~
nvcc -O3 add.cu -o add   # ``` inside a tilde fence is code
~~~

## Ce que vérifie le correcteur (5 points, 7 à la notation)

| cas | points | ce qu'il détecte |
|---|---|---|
| `n_is_one` | 2 | le plus petit tableau |
| `n_zero` | 3 | rien à faire, voir [plus bas](#pistes) |

### Une sous-section

Texte.

## Pistes

- « valeur fausse en 0 » : l'indice.

## Questions

1. Pourquoi ?
2. À quelle vitesse ? 32. Ce nombre ne commence pas une liste.
"""


def differences(french, english=ENGLISH):
    return statement_parity.compare(english, french, "exercises/42_small/README.md", "exercises/42_small/README.fr.md")


def edited(text, old, new, count=1):
    assert text.count(old) >= count, old
    return text.replace(old, new, count)


class AMatchedPair(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(differences(FRENCH), [])

    def test_what_it_reads(self):
        statement = statement_parity.Statement(ENGLISH)
        self.assertEqual([level for _, level, _ in statement.headings], [1, 2, 2, 2, 2, 3, 2, 2])
        self.assertEqual(len(statement.code_blocks), 3)
        self.assertEqual([len(rows) for _, rows in statement.tables], [3, 3])
        self.assertEqual([items for _, items in statement.lists], [3, 2])
        self.assertEqual([target for _, target in statement.links],
                         ["README.fr.md", "https://docs.nvidia.com/cuda/", "../../slides/figures/grid.png",
                          "../../README.md#running-on-a-cluster", "#hints"])


class EachKindOfDifference(unittest.TestCase):
    def assertCaught(self, french, *fragments):
        found = differences(french)
        self.assertTrue(found, "no difference reported")
        for line in found:
            self.assertRegex(line, r"^exercises/42_small/README\.(fr\.)?md:\d+: ")
        text = "\n".join(found)
        for fragment in fragments:
            self.assertIn(fragment, text)
        return found

    def test_a_missing_heading(self):
        found = self.assertCaught(edited(FRENCH, "### Une sous-section\n\nTexte.\n\n", ""),
                                  "missing heading: ### A subsection")
        self.assertEqual(len(found), 1, found)

    def test_a_missing_house_heading_is_named(self):
        self.assertCaught(edited(FRENCH, "## Pistes\n\n", ""), "missing heading: ## Hints")

    def test_a_heading_at_another_level(self):
        self.assertCaught(edited(FRENCH, "### Une sous-section", "## Une sous-section"), "at level 2")

    def test_an_extra_heading(self):
        self.assertCaught(edited(FRENCH, "Texte.\n", "Texte.\n\n## En plus\n"), "extra heading ## En plus")

    def test_a_house_heading_translated_otherwise(self):
        self.assertCaught(edited(FRENCH, "## Contexte", "## Rappels"), "must read 'Contexte'")
        self.assertCaught(edited(FRENCH, "(5 points, 7 à la notation)", "(5 points, 8 à la notation)"),
                          "must read 'Ce que vérifie le correcteur (5 points, 7 à la notation)'")

    def test_a_changed_code_block(self):
        found = self.assertCaught(edited(FRENCH, "make check-42", "make check-43"), "code block 2 differs",
                                  "'make check-43' where the English has 'make check-42'")
        self.assertTrue(found[0].startswith("exercises/42_small/README.fr.md:32: "), found)

    def test_a_translated_comment_in_a_code_block(self):
        self.assertCaught(edited(FRENCH, "# ``` inside a tilde fence is code", "# du code"), "code block 3 differs")

    def test_a_changed_indentation_in_a_code_block(self):
        self.assertCaught(edited(FRENCH, "   add_kernel<<<", "  add_kernel<<<"), "code block 1 differs")

    def test_a_missing_code_block(self):
        self.assertCaught(edited(FRENCH, "```\nmake 42\nmake check-42\n```\n", ""), "missing code block")

    def test_a_case_s_points_changed(self):
        self.assertCaught(edited(FRENCH, "| `n_zero` | 3 |", "| `n_zero` | 2 |"),
                          "case `n_zero` is worth '3' in the English")

    def test_a_case_renamed_or_moved(self):
        self.assertCaught(edited(FRENCH, "`n_is_one` | 2", "`n_est_un` | 2"), "case `n_est_un` where the English")
        swapped = edited(edited(FRENCH, "| `n_is_one` | 2 | le plus petit tableau |\n", ""),
                         "| `n_zero` | 3 | rien à faire, voir [plus bas](#pistes) |\n",
                         "| `n_zero` | 3 | rien à faire, voir [plus bas](#pistes) |\n"
                         "| `n_is_one` | 2 | le plus petit tableau |\n")
        self.assertCaught(swapped, "case `n_zero` where the English has `n_is_one`")

    def test_a_case_row_missing(self):
        self.assertCaught(edited(FRENCH, "| `n_is_one` | 2 | le plus petit tableau |\n", ""), "lacks the row")

    def test_another_table_s_shape(self):
        self.assertCaught(edited(FRENCH, "| `cudaFree` | libère |\n", ""), "table 1 has 2 rows of 2 columns")
        self.assertCaught(edited(FRENCH, "| appel | ce qu'il fait |\n|---|---|", "| appel | ce qu'il fait | x |\n|---|---|---|"),
                          "table 1 has 3 rows of 3 columns")

    def test_a_link_changed(self):
        self.assertCaught(edited(FRENCH, "(https://docs.nvidia.com/cuda/)", "(https://docs.nvidia.com/cuda/fr/)"),
                          "link https://docs.nvidia.com/cuda/fr/ where the English has https://docs.nvidia.com/cuda/")

    def test_an_image_changed(self):
        self.assertCaught(edited(FRENCH, "figures/grid.png", "figures/grille.png"), "figures/grille.png")

    def test_a_link_missing(self):
        self.assertCaught(edited(FRENCH, "Voir [le README](../../README.md#running-on-a-cluster).", "Voir le README."),
                          "missing link: ../../README.md#running-on-a-cluster")

    def test_an_anchor_of_another_heading(self):
        self.assertCaught(edited(FRENCH, "(#pistes)", "(#questions)"), "link #questions where the English has #hints")

    def test_a_list_shortened(self):
        self.assertCaught(edited(FRENCH, "3. `add_on_gpu` : l'aller-retour.\n", ""),
                          "numbered list of 2 items, its counterpart (exercises/42_small/README.md:19) has 3")
        self.assertCaught(edited(FRENCH, "2. À quelle vitesse ?", "À quelle vitesse ?"), "numbered list of 1 items")

    def test_the_version_lines(self):
        self.assertCaught(edited(FRENCH, "*[English version](README.md)*\n", ""),
                          "README.fr.md:4: the first line under the title must be *[English version](README.md)*")
        found = differences(FRENCH, edited(ENGLISH, "*[Version française](README.fr.md)*\n\n", ""))
        self.assertTrue(any(line.startswith("exercises/42_small/README.md:3: the first line under the title must be "
                                            "*[Version française](README.fr.md)*") for line in found), found)


class TheCourseTree(unittest.TestCase):
    """The command on a course of two exercises in a temporary folder."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = self.folder.name
        for name in ("41_first", "42_small"):
            os.makedirs(os.path.join(self.root, "exercises", name))
            self.write(f"exercises/{name}/README.md", ENGLISH)
        self.write("exercises/42_small/README.fr.md", FRENCH)

    def tearDown(self):
        self.folder.cleanup()

    def write(self, path, text):
        with open(os.path.join(self.root, path), "w", encoding="utf-8") as handle:
            handle.write(text)

    def run_tool(self, *args):
        return subprocess.run([sys.executable, *TOOL, "--root", self.root, *args],
                              capture_output=True, text=True, timeout=60)

    def test_every_exercise_needs_its_french_statement(self):
        result = self.run_tool()
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("exercises/41_first/README.fr.md:1: missing", result.stdout)
        self.assertIn("exercises/41_first/README.md:3: links to README.fr.md, which does not exist", result.stdout)
        self.write("exercises/41_first/README.fr.md", FRENCH)
        result = self.run_tool()
        self.assertEqual((result.returncode, result.stdout), (0, ""), result.stderr)
        self.assertIn("2 of 2 statements in French checked, 0 difference(s)", result.stderr)

    def test_existing_checks_only_the_pairs_present(self):
        self.write("exercises/41_first/README.md", ENGLISH.replace("*[Version française](README.fr.md)*\n\n", ""))
        result = self.run_tool("--existing")
        self.assertEqual((result.returncode, result.stdout), (0, ""), result.stderr)
        self.write("exercises/42_small/README.fr.md", edited(FRENCH, "| `n_zero` | 3 |", "| `n_zero` | 4 |"))
        result = self.run_tool("--existing")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stdout.splitlines()), 1, result.stdout)
        self.assertTrue(re.match(r"exercises/42_small/README\.fr\.md:\d+: case `n_zero` is worth", result.stdout),
                        result.stdout)

    def test_named_folders(self):
        result = self.run_tool(os.path.join(self.root, "exercises", "42_small"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        result = self.run_tool(os.path.join(self.root, "exercises", "41_first"))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        result = self.run_tool(os.path.join(self.root, "exercises", "nope"))
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)



# --- the decks (tools/course deck-parity) ---------------------------------------------------------

ENGLISH_DECK = """\
---
marp: true
theme: course
lang: en
title: "Part IX: a small deck"
footer: "CUDA C++ course · Part IX"
---

<!-- _class: lead -->
<!-- _paginate: false -->

# Part IX: a small deck

Kernels, and a table

---

# 03 · The kernel

<!-- include: solutions/03_device_memory/device_memory.cu#affine-kernel -->
<!-- student: exercises/03_device_memory/device_memory.hpp#api -->

- One thread per element
- The bounds check: `if (i < n)`

<!--
Say why the bounds check is there.

---

Not a slide: a separator inside the notes.
-->

---

## Launching it

```cpp
affine<<<blocks, 256>>>(x, n);
```

![the grid](diagrams/03_grid.svg)

See [the guide](https://docs.nvidia.com/cuda/).

---

# What it costs

| size | time |
|---|---|
| 1 MB | 0.1 ms |
| 1 GB | 9 ms |
"""

FRENCH_DECK = """\
---
marp: true
theme: course
lang: fr
title: "Partie IX : un petit support"
footer: "Cours CUDA C++ · Partie IX"
---

<!-- _class: lead -->
<!-- _paginate: false -->

# Partie IX : un petit support

Des kernels, et un tableau

---

# 03 · Le kernel

<!-- include: solutions/03_device_memory/device_memory.cu#affine-kernel -->
<!-- student: exercises/03_device_memory/device_memory.hpp#api -->

- Un thread par élément
- Le test de bornes : `if (i < n)`, qui empêche
  les threads en trop d'écrire
- Un élément de plus : les listes peuvent différer

<!--
Dites pourquoi le test de bornes est là.

---

Pas une diapositive : un séparateur dans les notes.
-->

---

## Le lancer

```cpp
affine<<<blocks, 256>>>(x, n);
```

![la grille](diagrams/03_grid.svg)

Voir [le guide](https://docs.nvidia.com/cuda/).

---

# Ce que cela coûte

| taille | temps |
|---|---|
| 1 Mo | 0,1 ms |
| 1 Go | 9 ms |
"""


def deck_differences(french, english=ENGLISH_DECK):
    return deck_parity.compare(english, french, "slides/part9.md", "slides/part9.fr.md")


class AMatchedDeck(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(deck_differences(FRENCH_DECK), [])

    def test_what_it_reads(self):
        deck = deck_parity.Deck(ENGLISH_DECK)
        self.assertEqual(len(deck.slides), 4)  # the '---' inside the notes separates nothing
        self.assertEqual([len(slide.directives) for slide in deck.slides], [2, 2, 0, 0])
        self.assertEqual([len(slide.statement.code_blocks) for slide in deck.slides], [0, 0, 1, 0])
        self.assertEqual([slide.first_line for slide in deck.slides], [9, 18, 36, 48])


class EachKindOfDeckDifference(unittest.TestCase):
    def assertCaught(self, french, *fragments):
        found = deck_differences(french)
        self.assertTrue(found, "no difference reported")
        for line in found:
            self.assertRegex(line, r"^slides/part9\.fr\.md:\d+: ")
        text = "\n".join(found)
        for fragment in fragments:
            self.assertIn(fragment, text)
        return found

    def test_a_slide_missing(self):
        slide = FRENCH_DECK[FRENCH_DECK.index("## Le lancer"):FRENCH_DECK.index("# Ce que cela")]
        found = self.assertCaught(edited(FRENCH_DECK, slide, ""),
                                  "3 slides, slides/part9.md has 4",
                                  "missing slide: slide 3 of slides/part9.md (line 36, 'Launching it')")
        self.assertEqual(len(found), 2, found)

    def test_an_extra_slide(self):
        self.assertCaught(edited(FRENCH_DECK, "---\n\n## Le lancer", "---\n\n# En plus\n\n---\n\n## Le lancer"),
                          "extra slide 3 ('En plus')")

    def test_an_include_changed(self):
        found = self.assertCaught(edited(FRENCH_DECK, "device_memory.cu#affine-kernel", "device_memory.cu#round-trip"),
                                  "slides/part9.fr.md:20: slide 2: directive line "
                                  "'<!-- include: solutions/03_device_memory/device_memory.cu#round-trip -->' "
                                  "where the English has", "(slides/part9.md:20)")
        self.assertEqual(len(found), 1, found)

    def test_a_student_line_missing(self):
        self.assertCaught(edited(FRENCH_DECK, "<!-- student: exercises/03_device_memory/device_memory.hpp#api -->\n", ""),
                          "slide 2: missing directive line <!-- student: exercises/03_device_memory/device_memory.hpp#api -->")

    def test_a_marp_directive_changed(self):
        self.assertCaught(edited(FRENCH_DECK, "<!-- _paginate: false -->", "<!-- _paginate: true -->"),
                          "slide 1: directive line '<!-- _paginate: true -->'")

    def test_a_code_block_changed(self):
        found = self.assertCaught(edited(FRENCH_DECK, "affine<<<blocks, 256>>>", "affine<<<blocs, 256>>>"),
                                  "slides/part9.fr.md:41: slide 3: code block 1 differs from slides/part9.md:39")
        self.assertEqual(len(found), 1, found)

    def test_a_code_block_missing(self):
        self.assertCaught(edited(FRENCH_DECK, "```cpp\naffine<<<blocks, 256>>>(x, n);\n```\n", ""),
                          "slide 3: missing code block")

    def test_a_heading_at_another_level(self):
        self.assertCaught(edited(FRENCH_DECK, "## Le lancer", "# Le lancer"),
                          "slide 3: headings at levels [1], the English slide (slides/part9.md:36) [2]")

    def test_an_image_or_a_link_changed(self):
        self.assertCaught(edited(FRENCH_DECK, "(diagrams/03_grid.svg)", "(diagrams/03_grille.svg)"),
                          "slide 3: link diagrams/03_grille.svg where the English has diagrams/03_grid.svg")
        self.assertCaught(edited(FRENCH_DECK, "Voir [le guide](https://docs.nvidia.com/cuda/).", "Voir le guide."),
                          "slide 3: missing link: https://docs.nvidia.com/cuda/")

    def test_the_french_version_of_a_diagram_or_a_page_is_its_counterpart(self):
        french = edited(FRENCH_DECK, "(diagrams/03_grid.svg)", "(diagrams/03_grid.fr.svg)")
        self.assertEqual(deck_differences(french), [])
        self.assertCaught(edited(FRENCH_DECK, "(diagrams/03_grid.svg)", "(diagrams/03_other.fr.svg)"),
                          "link diagrams/03_other.fr.svg where the English has diagrams/03_grid.svg")

    def test_a_table_s_shape(self):
        self.assertCaught(edited(FRENCH_DECK, "| 1 Go | 9 ms |\n", ""),
                          "slide 4: table 1 has 2 rows of 2 columns")

    def test_the_front_matter(self):
        self.assertCaught(edited(FRENCH_DECK, "lang: fr", "lang: en"), "'lang: en' must read 'lang: fr'")
        self.assertCaught(edited(FRENCH_DECK, "theme: course", "theme: default"),
                          "front matter 'theme: default' where the English has 'theme: course'")

    def test_a_slide_moved(self):
        # The last slide (the table) put before the third (the code): one slide missing where
        # it was, one extra where it went, whatever the words say.
        table = FRENCH_DECK[FRENCH_DECK.index("# Ce que cela"):]
        moved = edited(FRENCH_DECK, "\n---\n\n" + table, "\n").replace("## Le lancer", table + "\n---\n\n## Le lancer")
        self.assertCaught(moved, "extra slide 3 ('Ce que cela coûte')", "missing slide: slide 4 of slides/part9.md")

    def test_notes_and_prose_are_translated_freely(self):
        self.assertEqual(deck_differences(edited(FRENCH_DECK, "Dites pourquoi", "Expliquez pourquoi")), [])
        # A note on one line, even one that starts like a key ("Remarque :"), is a note.
        self.assertEqual(deck_differences(edited(FRENCH_DECK, "---\n\n# Ce que cela",
                                                 "<!-- Remarque : les tailles sont en octets -->\n\n---\n\n# Ce que cela")), [])

    def test_a_translated_directive_is_compared_by_its_key(self):
        english = edited(ENGLISH_DECK, "# What it costs", "<!-- _footer: \"Costs\" -->\n\n# What it costs")
        french = edited(FRENCH_DECK, "# Ce que cela", "<!-- _footer: \"Coûts\" -->\n\n# Ce que cela")
        self.assertEqual(deck_differences(french, english), [])
        found = deck_differences(FRENCH_DECK, english)
        self.assertEqual(len(found), 1, found)
        self.assertIn("slide 4: missing directive line <!-- _footer: \"Costs\" -->", found[0])


class TheCourseDecks(unittest.TestCase):
    """The command on a course of two decks in a temporary folder."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = self.folder.name
        os.makedirs(os.path.join(self.root, "slides"))
        for name in ("part8", "part9"):
            self.write(f"slides/{name}.md", ENGLISH_DECK)
        self.write("slides/part9.fr.md", FRENCH_DECK)

    def tearDown(self):
        self.folder.cleanup()

    def write(self, path, text):
        with open(os.path.join(self.root, path), "w", encoding="utf-8") as handle:
            handle.write(text)

    def run_tool(self, *args):
        return subprocess.run([sys.executable, *DECK_TOOL, "--root", self.root, *args],
                              capture_output=True, text=True, timeout=60)

    def test_every_deck_needs_its_french_version(self):
        result = self.run_tool()
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(result.stdout.splitlines(),
                         ["slides/part8.fr.md:1: missing: every deck has its French version beside it, "
                          "slides/part8.md translated (docs/instructors.md, \"The French edition\")"])
        self.write("slides/part8.fr.md", FRENCH_DECK)
        result = self.run_tool()
        self.assertEqual((result.returncode, result.stdout), (0, ""), result.stderr)
        self.assertIn("2 of 2 decks in French checked, 0 difference(s)", result.stderr)

    def test_existing_checks_only_the_pairs_present(self):
        result = self.run_tool("--existing")
        self.assertEqual((result.returncode, result.stdout), (0, ""), result.stderr)
        self.write("slides/part9.fr.md", edited(FRENCH_DECK, "affine<<<blocks", "affine<<<blocs"))
        result = self.run_tool("--existing")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stdout.splitlines()), 1, result.stdout)

    def test_named_decks(self):
        result = self.run_tool(os.path.join(self.root, "slides", "part9.fr.md"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        result = self.run_tool(os.path.join(self.root, "slides", "part8.md"))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        result = self.run_tool(os.path.join(self.root, "slides", "nope.md"))
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)

if __name__ == "__main__":
    unittest.main(verbosity=2)
