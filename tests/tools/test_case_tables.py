#!/usr/bin/env python3
"""tools/course case-tables fails on each kind of difference between the pages and a check, and
passes a course tree that agrees with it: a small tree in a temporary folder (one exercise's
statements in English and French, a deck, tests/speed_bars.md) and the check's --list-json
saved as a file. Each mismatch (wrong points, a case missing, a case the check lacks, a bar
missing from its row, a wrong total, a wrong bar or reference figure quoted on a slide, a
figure quoted without its comment, a stale speed_bars.md) is made alone on the agreeing tree and must fail with exit 1 and a
message naming the file, the line and the case; misuse exits 2.

    python3 tests/tools/test_case_tables.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = os.path.join(ROOT, "tools", "course")

CHECK = {
    "number": "42",
    "name": "vector_add",
    "points": 9,
    "cases": [
        {"name": "n_is_one", "points": 2, "hidden": False, "needs_gpu": True, "judges_time": False,
         "sanitizer_tool": "", "bars": []},
        {"name": "plain_odd_sizes", "points": 1, "hidden": False, "needs_gpu": True, "judges_time": False,
         "sanitizer_tool": "", "bars": []},
        {"name": "fast_odd_sizes", "points": 1, "hidden": False, "needs_gpu": True, "judges_time": False,
         "sanitizer_tool": "", "bars": []},
        {"name": "near_copy_ceiling", "points": 5, "hidden": False, "needs_gpu": True, "judges_time": True,
         "sanitizer_tool": "",
         "bars": [{"figure": "add's share of the copy ceiling", "kind": "at_least", "bar": 0.6,
                   "reference": "0.97-0.98 on H100, 0.95 on H200"},
                  {"figure": "add's time over the three kernels'", "kind": "at_most", "bar": 1.25,
                   "reference": "0.80 on H100 and H200"}]},
    ],
}

ENGLISH = """\
# Exercise 42: vector add

## What the check verifies (9 points, 11 when graded)

| case | points | what it catches |
|---|---|---|
| `n_is_one` | 2 | the smallest array |
| `<step>_odd_sizes` | 1 each | sizes that are no multiple of a block |
| `near_copy_ceiling` | 5 | at least 60% of the copy ceiling, at most 1.25 times the three kernels' time |

The reference reaches 0.95-0.98<!-- reference 42 near_copy_ceiling --> of the ceiling.

## Hints
"""

FRENCH = """\
# Exercice 42 : addition de vecteurs

## Ce que vérifie le correcteur (9 points, 11 à la notation)

| cas | points | ce qu'il détecte |
|---|---|---|
| `n_is_one` | 2 | le plus petit tableau |
| `<step>_odd_sizes` | 1 each | des tailles qui ne sont pas un multiple d'un bloc |
| `near_copy_ceiling` | 5 | au moins 60 % du plafond de copie, au plus 1,25 fois le temps des trois kernels |

La référence atteint 95 à 98 %<!-- reference 42 near_copy_ceiling --> du plafond.

## Pistes
"""

DECK = """\
# Vector add

- Graded: ≥ 60%<!-- bar 42 near_copy_ceiling 1 --> of the copy ceiling, ≤ 1.25x<!-- bar 42 near_copy_ceiling 2 --> the three kernels
"""

DECK_FR = """\
# Addition de vecteurs

- Noté : ≥ 60 %<!-- bar 42 near_copy_ceiling 1 --> du plafond de copie, ≤ 1,25x<!-- bar 42 near_copy_ceiling 2 --> les trois kernels
"""

SPEED_BARS = """\
# Speed bars

Prose before the table stays.

<!-- case_tables: begin (written by tools/course case-tables speed-bars --write; edit the checks, not this table) -->
<!-- case_tables: end -->

Prose after the table stays.
"""


class CaseTables(unittest.TestCase):
    def setUp(self):
        self.tree = tempfile.mkdtemp(prefix="case_tables_")
        self.addCleanup(shutil.rmtree, self.tree)
        self.write("exercises/42_vector_add/README.md", ENGLISH)
        self.write("exercises/42_vector_add/README.fr.md", FRENCH)
        self.write("slides/part9.md", DECK)
        self.write("slides/part9.fr.md", DECK_FR)
        self.write("tests/speed_bars.md", SPEED_BARS)
        self.check = os.path.join(self.tree, "check_42.json")
        self.save_check(CHECK)
        code, output = self.run_tool("speed-bars", "--write")
        self.assertEqual(code, 0, output)

    def write(self, relative, text):
        path = os.path.join(self.tree, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)

    def read(self, relative):
        with open(os.path.join(self.tree, relative), encoding="utf-8") as stream:
            return stream.read()

    def replace(self, relative, old, new):
        text = self.read(relative)
        self.assertIn(old, text)
        self.write(relative, text.replace(old, new, 1))

    def save_check(self, check):
        with open(self.check, "w", encoding="utf-8") as stream:
            json.dump(check, stream)

    def run_tool(self, what, *extra, checks=None):
        run = subprocess.run([sys.executable, TOOL, "case-tables", what, "--root", self.tree, *extra,
                              "--checks", *(checks or [self.check])],
                             capture_output=True, text=True, timeout=60)
        return run.returncode, run.stdout + run.stderr

    def assert_fails(self, what, *needles):
        code, output = self.run_tool(what)
        self.assertEqual(code, 1, output)
        for needle in needles:
            self.assertIn(needle, output)

    def test_agreeing_tree_passes(self):
        for what in ("statements", "speed-bars", "quoted", "all"):
            code, output = self.run_tool(what)
            self.assertEqual(code, 0, f"{what}: {output}")
        page = self.read("tests/speed_bars.md")
        self.assertIn("Prose before the table stays.", page)
        self.assertIn("Prose after the table stays.", page)
        self.assertIn("| 42 | `near_copy_ceiling` | add's share of the copy ceiling | >= 0.6 | "
                      "0.97-0.98 on H100, 0.95 on H200 | 58% |", page)
        self.assertIn("| 42 | `near_copy_ceiling` | add's time over the three kernels' | <= 1.25 | "
                      "0.80 on H100 and H200 | 56% |", page)

    def test_wrong_points_fail_in_either_language(self):
        self.replace("exercises/42_vector_add/README.md", "| `n_is_one` | 2 |", "| `n_is_one` | 3 |")
        self.assert_fails("statements-en", "README.md:7:", "case `n_is_one`: the check gives 2 points, the page 3")
        self.replace("exercises/42_vector_add/README.fr.md", "| `<step>_odd_sizes` | 1 each |",
                     "| `<step>_odd_sizes` | 2 each |")
        self.assert_fails("statements-fr", "README.fr.md:8:", "case `plain_odd_sizes`: the check gives 1 points, the page 2")

    def test_wrong_total_in_the_heading_fails(self):
        self.replace("exercises/42_vector_add/README.fr.md", "(9 points,", "(10 points,")
        self.assert_fails("statements-fr", "README.fr.md:3:", "the heading quotes 10 points, the check's cases add up to 9")

    def test_missing_case_fails(self):
        self.replace("exercises/42_vector_add/README.md", "| `n_is_one` | 2 | the smallest array |\n", "")
        self.assert_fails("statements-en", "case `n_is_one` (2 points) is missing from the table")

    def test_case_the_check_lacks_fails(self):
        self.replace("exercises/42_vector_add/README.fr.md", "| `n_is_one` | 2 |", "| `n_is_zero` | 2 |")
        self.assert_fails("statements-fr", "case `n_is_zero`: the check has no such case",
                          "case `n_is_one` (2 points) is missing")
        check = json.loads(json.dumps(CHECK))
        check["cases"].append({"name": "frees_memory", "points": 1, "bars": []})
        check["points"] = 10
        self.save_check(check)
        self.assert_fails("statements-en", "case `frees_memory` (1 points) is missing from the table")

    def test_bar_missing_from_its_row_fails(self):
        self.replace("exercises/42_vector_add/README.md", "at most 1.25 times", "at most 1.3 times")
        self.assert_fails("statements-en", "README.md:9:", "case `near_copy_ceiling`: the check's bar is at most 1.25")
        self.replace("exercises/42_vector_add/README.fr.md", "au moins 60 %", "au moins 65 %")
        self.assert_fails("statements-fr", "README.fr.md:9:", "the check's bar is au moins 0,6")

    def test_wrong_quoted_bar_on_a_slide_fails(self):
        self.replace("slides/part9.md", "≤ 1.25x<!-- bar 42 near_copy_ceiling 2 -->",
                     "≤ 1.3x<!-- bar 42 near_copy_ceiling 2 -->")
        self.assert_fails("quoted", "slides/part9.md:3:", "bar of 42 near_copy_ceiling: the check says at most 1.25, "
                                                          "the page says 1.3x")
        self.replace("slides/part9.md", "≤ 1.3x<!-- bar 42 near_copy_ceiling 2 -->",
                     "≤ 1.25x<!-- bar 42 near_copy_ceiling 2 -->")
        self.replace("slides/part9.fr.md", "≥ 60 %<!-- bar 42 near_copy_ceiling 1 -->",
                     "≥ 65 %<!-- bar 42 near_copy_ceiling 1 -->")
        self.assert_fails("quoted", "slides/part9.fr.md:3:", "the page says 65 %")

    def test_a_changed_bar_is_found_on_every_page(self):
        check = json.loads(json.dumps(CHECK))
        check["cases"][3]["bars"][1]["bar"] = 1.15
        self.save_check(check)
        code, output = self.run_tool("all")
        self.assertEqual(code, 1, output)
        for page in ("README.md:9:", "README.fr.md:9:", "slides/part9.md:3:", "slides/part9.fr.md:3:",
                     "tests/speed_bars.md"):
            self.assertIn(page, output)

    def test_wrong_reference_figure_fails(self):
        self.replace("exercises/42_vector_add/README.md", "0.95-0.98<!--", "0.54-0.62<!--")
        self.assert_fails("quoted", "README.md:11:", "reference of 42 near_copy_ceiling: the check says "
                                                     "'0.97-0.98 on H100, 0.95 on H200; 0.80 on H100 and H200', "
                                                     "the page says 0.54-0.62")

    def test_marker_naming_no_case_fails(self):
        self.replace("slides/part9.md", "<!-- bar 42 near_copy_ceiling 1 -->", "<!-- bar 42 near_copy 1 -->")
        self.assert_fails("quoted", "check_42 has no case named near_copy")
        self.replace("slides/part9.md", "<!-- bar 42 near_copy 1 -->", "<!-- bar 42 n_is_one -->")
        self.assert_fails("quoted", "the check declares no bar for this case")
        self.replace("slides/part9.md", "<!-- bar 42 n_is_one -->", "<!-- bar forty-two -->")
        self.assert_fails("quoted", "is written '<!-- bar NN case_name -->'")

    def test_figure_quoted_without_its_comment_fails(self):
        self.replace("slides/part9.md", "≤ 1.25x<!-- bar 42 near_copy_ceiling 2 -->", "≤ 1.25x")
        self.assert_fails("quoted", "slides/part9.md:3:", "quoted without its comment")
        self.replace("exercises/42_vector_add/README.fr.md", "La référence atteint",
                     "Le correcteur demande 1,3 ; la référence atteint")
        self.assert_fails("quoted", "README.fr.md:11:", "quoted without its comment")

    def test_stale_speed_bars_fails(self):
        self.replace("tests/speed_bars.md", ">= 0.6 |", ">= 0.5 |")
        self.assert_fails("speed-bars", "tests/speed_bars.md:", "the page has a row the checks do not give",
                          "the checks give a row the page lacks")
        code, output = self.run_tool("speed-bars", "--write")
        self.assertEqual(code, 0, output)
        self.assertEqual(self.run_tool("speed-bars")[0], 0)
        check = json.loads(json.dumps(CHECK))
        check["cases"][3]["bars"][0]["reference"] = "0.99 on H100, 0.95 on H200"
        self.save_check(check)
        self.assert_fails("speed-bars", "the checks give a row the page lacks")

    def test_misuse_exits_2(self):
        self.assertEqual(self.run_tool("statements", checks=[os.path.join(self.tree, "nothing.json")])[0], 2)
        self.write("broken.json", "{\"number\": \"42\"}")
        self.assertEqual(self.run_tool("statements", checks=[os.path.join(self.tree, "broken.json")])[0], 2)
        self.assertEqual(self.run_tool("nonsense")[0], 2)
        self.assertEqual(self.run_tool("quoted", "--write")[0], 2)
        self.write("tests/speed_bars.md", "# Speed bars\n\nno markers\n")
        self.assertEqual(self.run_tool("speed-bars")[0], 2)

    def test_check_executable_is_run(self):
        fake = os.path.join(self.tree, "check_42")
        with open(fake, "w", encoding="utf-8") as stream:
            stream.write("#!/bin/sh\ncat '" + self.check + "'\n")
        os.chmod(fake, 0o755)
        code, output = self.run_tool("all", checks=[fake])
        self.assertEqual(code, 0, output)


if __name__ == "__main__":
    unittest.main()
