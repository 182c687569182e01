#!/usr/bin/env python3
"""tools/course french-typography finds each kind of mistake (a plain or missing space before
`: ; ! ?`, inside « », between a number and its unit, between digit groups, an interval in
English notation, a line that starts with `?`) and fixes it with --write; it leaves each kind
of protected region alone (front matter, fenced and indented code, inline code, URLs,
directive and marker comments, link targets, table rule lines, definition lists, emoji,
times, the programs' messages quoted in « »); its exit statuses; and the pages it writes
still read the same to tools/course case-tables and statement-parity.

    python3 tests/tools/test_french_typography.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.authoring import case_tables  # noqa: E402
from course_tools.authoring import french_typography as typo  # noqa: E402
from course_tools.authoring import statement_parity  # noqa: E402

TOOL = [os.path.join(ROOT, "tools", "course"), "french-typography"]
NB, NN = "\u00a0", "\u202f"


def rules(text):
    return [rule for _, _, rule, _ in typo.problems(text)]


class Mistakes(unittest.TestCase):
    """Each kind of mistake is found (rule, line, column) and fixed; the fix is then clean."""

    CASES = [
        # (text, rule, fixed)
        ("Contexte : un kernel.", "colon", f"Contexte{NB}: un kernel."),
        ("Note: un kernel.", "colon", f"Note{NB}: un kernel."),
        ("Le `make`: voilà.", "colon", f"Le `make`{NB}: voilà."),
        ("Quel GPU ?", "semicolon, exclamation, question", f"Quel GPU{NN}?"),
        ("Quel GPU?", "semicolon, exclamation, question", f"Quel GPU{NN}?"),
        ("Attention !", "semicolon, exclamation, question", f"Attention{NN}!"),
        ("un bloc ; une grille", "semicolon, exclamation, question", f"un bloc{NN}; une grille"),
        (f"un bloc{NB}; une grille", "semicolon, exclamation, question", f"un bloc{NN}; une grille"),
        ("les « cœurs CUDA » du GPU", "guillemets", f"les «{NB}cœurs CUDA{NB}» du GPU"),
        ("les «cœurs»", "guillemets", f"les «{NB}cœurs{NB}»"),
        ("atteint 60 % du plafond", "unit", f"atteint 60{NB}% du plafond"),
        ("atteint 60% du plafond", "unit", f"atteint 60{NB}% du plafond"),
        ("débite 3,35 TB/s.", "unit", f"débite 3,35{NB}TB/s."),
        ("16 Go de mémoire, 10 ms, 32 bits", "unit", f"16{NB}Go de mémoire, 10{NB}ms, 32{NB}bits"),
        ("3 072 cœurs", "digit groups", f"3{NN}072 cœurs"),
        ("1 000 000 lignes", "digit groups", f"1{NN}000{NN}000 lignes"),
        ("uniformes dans [-1, 1).", "interval", f"uniformes dans [-1{NN};{NB}1[."),
        ("uniformes dans [0, 1[ ici", "interval", f"uniformes dans [0{NN};{NB}1[ ici"),
        ("des poids dans [0,5, 2) ici", "interval", f"des poids dans [0,5{NN};{NB}2[ ici"),
        ("a dans [0,5 ; 2) ici", "interval", f"a dans [0,5{NN};{NB}2[ ici"),
        ("sur ]a, b] ici", "interval", f"sur ]a{NN};{NB}b] ici"),
    ]

    def test_each_mistake_is_found_and_fixed(self):
        for text, rule, fixed in self.CASES:
            with self.subTest(text=text):
                found = typo.problems(text)
                self.assertTrue(found, f"{text!r}: nothing found")
                self.assertIn(rule, [r for _, _, r, _ in found])
                self.assertTrue(all(line == 1 for line, _, _, _ in found))
                result, count = typo.fix_text(text)
                self.assertEqual(result, fixed)
                self.assertGreaterEqual(count, 1)
                self.assertEqual(typo.problems(result), [], f"{result!r} still breaks a rule")
                self.assertEqual(typo.fix_text(result), (result, 0), "a second --write changes nothing")

    def test_column_is_the_space(self):
        self.assertEqual(typo.problems("Un, deux : trois")[0][:3], (1, 9, "colon"))
        self.assertEqual(typo.problems("ligne\nQuel GPU ?")[0][:3], (2, 9, "semicolon, exclamation, question"))

    def test_a_line_starting_with_a_sign_takes_it_back(self):
        text = "quel GPU voit-il\n? La suite.\n"
        self.assertIn("line start", rules(text))
        fixed, _ = typo.fix_text(text)
        self.assertEqual(fixed, f"quel GPU voit-il{NN}?\nLa suite.\n")
        self.assertEqual(typo.problems(fixed), [])
        text = "il affiche «\nRunning » ici"
        self.assertIn("line start", rules(text))
        fixed, _ = typo.fix_text(text)
        self.assertEqual(fixed, f"il affiche\n«{NB}Running{NB}» ici")

    def test_a_correct_page_passes(self):
        text = (f"# Exercice 03{NB}: la mémoire\n\nQuel GPU{NN}? Attention{NN}! Un bloc{NN}; une grille.\n"
                f"Les «{NB}cœurs{NB}», 60{NB}%, 3{NN}072 cœurs, dans [0{NN};{NB}1[.\n")
        self.assertEqual(typo.problems(text), [])
        self.assertEqual(typo.fix_text(text), (text, 0))

    def test_an_indented_line_start_is_one_place(self):
        self.assertEqual(rules("texte\n  ? suite"), ["line start"])
        self.assertEqual(typo.fix_text("texte\n  ? suite")[0], f"texte{NN}?\n  suite")

    def test_an_interval_is_one_place(self):
        self.assertEqual(rules("a dans [0,5 ; 2) ici"), ["interval"])
        self.assertEqual(typo.fix_text("a dans [0,5 ; 2) ici")[1], 1)

    def test_a_quotation_left_open_ends_with_its_paragraph(self):
        self.assertEqual(rules("« ouvert\nb : c"), ["guillemets"])
        self.assertEqual(rules("« ouvert\n\nb : c"), ["guillemets", "colon"])

    def test_inline_code_left_open_ends_with_its_paragraph(self):
        self.assertEqual(rules("un `code\nb : c` fini"), [])
        self.assertEqual(rules("un `code\n\nb : c"), ["colon"])

    def test_cpp_scope_is_no_colon(self):
        self.assertEqual(typo.problems("appelez std::fma puis"), [])

    def test_question_and_exclamation_together(self):
        self.assertEqual(typo.fix_text("Quoi ?!")[0], f"Quoi{NN}?!")


class Protected(unittest.TestCase):
    """What is code, syntax or a quoted message is never touched, even where a rule would."""

    CASES = [
        "```\nx = a ? b : c; // 60 %\n```\n",
        "~~~bash\nsrun --gres=gpu:1 --time=0:10:00 nvidia-smi ; echo ok !\n~~~\n",
        "  ```cpp\n  if (a) { b; }   // un bloc : oui ?\n  ```\n",
        "Un `a ? b : c` ici, un ``x ; y`` là.",
        "Voir https://docs.nvidia.com/cuda/index.html?x=1;y=2 ici.",
        "Voir <https://example.org/a:b?c> ici.",
        "Le correcteur demande 1,15<!-- bar 17 streams_overlap_copies --> au moins.",
        "<!-- include: examples/patterns.cu#saxpy -->",
        "<!-- _class: lead -->",
        "<!-- student: exercises/03_device_memory/device_memory.cu#kernel -->",
        "Voir [la page](../docs/a.md#b:c?d) ici.",
        "[nvidia]: https://docs.nvidia.com/a?b : titre",
        "| a | b |\n|---|:---:|\n",
        "| a | b |\n| :-- | --: |\n",
        "Voir https://example.org/faq? ici, https://example.org/a: là.",
        "---\nmarp: true\nsize: 16:9\ntitle: \"Partie I : les GPU\"\n---\n\nTexte.\n",
        "Terme\n: sa définition\n",
        ":warning: à lire",
        "Le cours commence à 12:30, au format 16:9.",
        "- « expected 'compute capability: 9.0', got 9 »",
        "- « the last n % 4 neurons are wrong; see? »",
        "un long message « host -> device: 1200000\nbytes; expected 400000 »",
        "le GPU « H100 80GB », un pas de 2s floats",
        "de x = 0\n\n    r = b ; p = r\n    if pq <= 0: breakdown\n",
        "<!-- TODO(maintainer): rien -->",
        "TODO(student): à écrire",
        "<sub>source : <a href=\"x.cu\">x</a></sub>",
        "# For students and instructors: les TP\n",
        "avec <span style=\"white-space: nowrap\">`-use_fast_math`</span> ici",
        "[la page](faq.md#quoi?) et [l'autre](a.md#b:)",
    ]

    def test_protected_regions_are_left_alone(self):
        for text in self.CASES:
            with self.subTest(text=text):
                fixed, _ = typo.fix_text(text)
                # Only the prose around the region may change: here there is none to fix
                # but the text outside the region, so compare what the region holds.
                self.assertEqual(fixed.replace(NB, " ").replace(NN, " "), text.replace(NB, " ").replace(NN, " "))

    def test_inside_the_regions_nothing_is_found(self):
        for text in ("```\na : b ; c ?\n```", "`a : b`", "https://x.org/?a=1;b=2", "https://x.org/faq? ici", "| :-- | --: |", "<!-- bar 17 x_y -->",
                     "|---|---|", "---\nsize: 16:9\n---", ": définition", ":warning:", "12:30",
                     f"«{NB}counts too low: updates were lost{NB}»", "    a ; b : c\n", "<!-- figure: x.png -->"):
            with self.subTest(text=text):
                self.assertEqual(typo.problems(text), [])

    def test_the_prose_beside_a_region_is_still_checked(self):
        self.assertEqual(typo.fix_text("Lancez `make` : voilà ; `x ; y` reste.")[0],
                         f"Lancez `make`{NB}: voilà{NN}; `x ; y` reste.")
        self.assertEqual(typo.fix_text("- « counts too low: lost » : un `+=`")[0],
                         f"- «{NB}counts too low: lost{NB}»{NB}: un `+=`")
        self.assertEqual(typo.fix_text("[la page ?](a.md?x) et 1,15<!-- bar 17 a_b --> : oui")[0],
                         f"[la page{NN}?](a.md?x) et 1,15<!-- bar 17 a_b -->{NB}: oui")

    def test_only_the_first_line_names_an_audience(self):
        self.assertEqual(typo.problems("# For students: le glossaire"), [])
        self.assertEqual(rules("Texte.\n# For students: le glossaire"), ["colon"])

    def test_speaker_notes_are_prose(self):
        text = "<!--\nUne note : à dire ?\n-->\n"
        self.assertEqual(typo.fix_text(text)[0], f"<!--\nUne note{NB}: à dire{NN}?\n-->\n")
        text = "<!-- Remarque : oui -->"
        self.assertEqual(typo.fix_text(text)[0], f"<!-- Remarque{NB}: oui -->")

    def test_the_figure_comment_stays_right_after_its_number(self):
        fixed, _ = typo.fix_text("la référence : 97 %<!-- reference 12 short_rows -->")
        self.assertEqual(fixed, f"la référence{NB}: 97{NB}%<!-- reference 12 short_rows -->")


class OtherTools(unittest.TestCase):
    """The no-break spaces read as spaces to the tools that read the French pages."""

    def test_case_tables_reads_the_figures(self):
        self.assertEqual(case_tables.numbers_in(f"au moins 60{NB}%", True), [0.6, 60.0])
        self.assertEqual(case_tables.numbers_in(f"au moins 60{NN}%", True), [0.6, 60.0])
        self.assertTrue(case_tables.EACH.match(f"2{NB}chacun"))
        self.assertEqual(case_tables.quoted_figure(f"référence{NB}: 53-56{NB}%", True)[:2], (0.53, 0.56))
        line = f"la référence{NB}: 97{NB}%"
        self.assertEqual(case_tables.unmarked_figures(line + " du plafond", True), [f"97{NB}%"])
        self.assertEqual(case_tables.unmarked_figures(line + "<!-- reference 12 a --> du plafond", True), [])

    def test_statement_parity_ignores_them(self):
        english = ("# Exercise 42: small\n\n*[Version française](README.fr.md)*\n\n## Background\n\n"
                   "Why? Because: see [here](a.md).\n\n| case | points | what |\n|---|---|---|\n"
                   "| `n_zero` | 2 | nothing at 60% |\n")
        french = ("# Exercice 42 : petit\n\n*[English version](README.md)*\n\n## Contexte\n\n"
                  "Pourquoi ? Parce que : voir [ici](a.md).\n\n| cas | points | ce qui |\n|---|---|---|\n"
                  "| `n_zero` | 2 | rien à 60 % |\n")
        fixed, _ = typo.fix_text(french)
        self.assertNotEqual(fixed, french)
        self.assertEqual(statement_parity.compare(english, french), [])
        self.assertEqual(statement_parity.compare(english, fixed), [])


class CommandLine(unittest.TestCase):
    def run_tool(self, *arguments):
        return subprocess.run(TOOL + list(arguments), capture_output=True, text=True, timeout=60)

    def test_check_then_write_then_check(self):
        with tempfile.TemporaryDirectory() as folder:
            page = os.path.join(folder, "README.fr.md")
            with open(page, "w", encoding="utf-8") as stream:
                stream.write("# Titre\n\nQuel GPU ? Voir `a ; b`.\n")
            run = self.run_tool(page)
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn(f"{page}:3:9: semicolon, exclamation, question", run.stdout)
            self.assertEqual(len(run.stdout.splitlines()), 1, run.stdout)
            run = self.run_tool("--write", page)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(page, encoding="utf-8") as stream:
                self.assertEqual(stream.read(), f"# Titre\n\nQuel GPU{NN}? Voir `a ; b`.\n")
            run = self.run_tool(page)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_a_deck_reports_code_cut_by_a_line_end(self):
        text = "- `--default-stream\n  per-thread` fait du stream 0 un stream ordinaire\n"
        self.assertEqual(typo.problems(text), [])
        found = typo.problems(text, deck=True)
        self.assertEqual([(line, column, rule) for line, column, rule, _ in found],
                         [(1, 3, "code cut by a line end")])
        self.assertEqual(typo.problems("- `--default-stream per-thread` fait\n", deck=True), [])
        with tempfile.TemporaryDirectory() as folder:
            os.mkdir(os.path.join(folder, "slides"))
            deck = os.path.join(folder, "slides", "part3.fr.md")
            with open(deck, "w", encoding="utf-8") as stream:
                stream.write(text)
            run = self.run_tool(deck)
            self.assertEqual(run.returncode, 1)
            self.assertIn("part3.fr.md:1:3: code cut by a line end", run.stdout)
            run = self.run_tool("--write", deck)
            self.assertEqual(run.returncode, 1, "--write cannot mend it: it says so")
            self.assertIn("by hand", run.stdout)

    def test_missing_file_and_bad_option(self):
        self.assertEqual(self.run_tool("/nonexistent/README.fr.md").returncode, 2)
        self.assertEqual(self.run_tool("--no-such-option").returncode, 2)

    def test_the_course_pages_are_found(self):
        pages = [os.path.relpath(p, ROOT) for p in typo.french_pages(ROOT)]
        self.assertIn("docs/glossaire.md", pages)
        self.assertIn("docs/labs-map.fr.md", pages)
        self.assertIn("slides/part1.fr.md", pages)
        self.assertIn("exercises/03_device_memory/README.fr.md", pages)
        self.assertFalse([p for p in pages if p.endswith("README.md") and "exercises" in p])


if __name__ == "__main__":
    unittest.main()
