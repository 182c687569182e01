#!/usr/bin/env python3
"""The decks' page formats (issue 40), on the Markdown of every deck in both languages:

  - every exercise has a question page in an instructors' deck of each language, titled
    `Questions: NN · topic` (French: `Questions : NN · sujet`), and a question page names
    one exercise;
  - a title that names an exercise does it one way: it starts `Exercise NN: ` (French
    `Exercice NN : `), or it is a question page;
  - known-wrong titles of each kind are refused (the rules are proved on them).

    python3 tests/tools/test_deck_pages.py
"""
import glob
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SLIDES = os.path.join(ROOT, "slides")
TITLE = re.compile(r"^#{1,2} (.+?)\s*$")
# French puts a space before the colon: the no-break space of French typography (tools/course
# french-typography writes it), or a plain one in a page not yet typeset.
FRENCH_COLON = "[ \u00a0\u202f]:"
QUESTIONS = {"en": re.compile(r"^Questions: (\d\d) · \S"), "fr": re.compile(rf"^Questions{FRENCH_COLON} (\d\d) · \S")}
TAGGED = {"en": re.compile(r"^Exercise (\d\d): \S"), "fr": re.compile(rf"^Exercice (\d\d){FRENCH_COLON} \S")}
# A title that names an exercise: "exercise 02", "exercises 03 and 04", "(02)", "09 · ..."...
NAMES_AN_EXERCISE = re.compile(r"\bexerci[sc]es?\s+\d\d\b|\(\d\d\)|^\d\d\s*[·:.-]|\b[Qq]uestions\b.*\b\d\d\b", re.I)


def titles(text):
    """[(line, title)] of a deck's slide titles, code blocks and comments left out."""
    found, fence = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        match = TITLE.match(line)
        if match and not fence:
            found.append((number, match.group(1)))
    return found


def title_problems(title, lang):
    """Why a title breaks the format (None when it keeps it)."""
    if QUESTIONS[lang].match(title) or TAGGED[lang].match(title):
        return None
    if NAMES_AN_EXERCISE.search(title):
        form = "Exercise NN: ..." if lang == "en" else "Exercice NN : ..."
        question = "Questions: NN · ..." if lang == "en" else "Questions : NN · ..."
        return f'"{title}" names an exercise another way than "{form}" or "{question}"'
    return None


def decks(lang):
    pattern = "*.fr.md" if lang == "fr" else "*.md"
    return sorted(p for p in glob.glob(os.path.join(SLIDES, pattern)) if lang == "fr" or not p.endswith(".fr.md"))


class DeckPages(unittest.TestCase):
    def test_titles_name_exercises_one_way(self):
        for lang in ("en", "fr"):
            for path in decks(lang):
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                problems = [f"{os.path.relpath(path, ROOT)}:{line}: {why}" for line, title in titles(text)
                            for why in [title_problems(title, lang)] if why]
                self.assertEqual(problems, [])

    def test_every_exercise_has_a_question_page_in_each_language(self):
        exercises = sorted(os.path.basename(p)[:2] for p in glob.glob(os.path.join(ROOT, "exercises", "[0-9][0-9]_*")))
        for lang in ("en", "fr"):
            asked = set()
            for path in decks(lang):
                with open(path, encoding="utf-8") as handle:
                    asked |= {m.group(1) for _, t in titles(handle.read()) for m in [QUESTIONS[lang].match(t)] if m}
            self.assertEqual([n for n in exercises if n not in asked], [], f"exercises without a question page ({lang})")

    def test_rules_on_known_wrong_titles(self):
        self.assertIsNone(title_problems("Exercise 02: kernels", "en"))
        self.assertIsNone(title_problems("Questions: 16 · the driver API", "en"))
        self.assertIsNone(title_problems("Exercice 02 : les kernels", "fr"))
        self.assertIsNone(title_problems("Questions : 16 · l'API driver", "fr"))
        self.assertIsNone(title_problems("Exercice 02\u00a0: les kernels", "fr"))
        self.assertIsNone(title_problems("Questions\u00a0: 16 · l'API driver", "fr"))
        self.assertIsNone(title_problems("Launches", "en"))
        for title, lang in [("Kernels (exercise 02)", "en"), ("Exercises 01 and 02: questions", "en"),
                            ("Questions the statements ask: 09 and 10", "en"), ("Questions: 16 the driver API", "en"),
                            ("Les kernels (exercice 02)", "fr"), ("Questions: 16 · l'API driver", "fr"),
                            ("Exercise 02 : kernels", "en"), ("09 · Elementwise kernels", "en"),
                            ("Exercice 02\u00a0:les kernels", "fr"), ("Exercise 02\u00a0: kernels", "en")]:
            with self.subTest(title):
                self.assertIsNotNone(title_problems(title, lang))


if __name__ == "__main__":
    unittest.main(verbosity=2)
