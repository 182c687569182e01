#!/usr/bin/env python3
"""The answers files (tools/course answers, tools/course_tools/authoring/answers.py) and what the
grader does with them:

  - each exercise's answers.md and answers.fr.md hold its statements' Questions, one section
    each (tools/course answers --check), and a stale file is refused;
  - a statement's numbered Questions are read with their continuation lines, and nothing after
    the list; a filled file is read back, the untouched questions left out;
  - the grader reads the one the student filled (engine.read_answers), never the course's
    untouched copy; the feedback page and the class report show the answers, escaped.

    python3 tests/tools/test_answers.py
"""
import os
import subprocess
import sys
import tempfile
import types
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.authoring import answers  # noqa: E402
from course_tools.grading import engine, submissions  # noqa: E402

STATEMENT = """# Exercise 42

## Hints

1. Not a question.

## Questions

1. Why does the host
   never read `device_x`?
2. What does `cudaMemcpy` wait for?

A paragraph after the list.

## Going further
"""


class Templates(unittest.TestCase):
    def test_the_committed_files_hold_the_statements_questions(self):
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "answers", "--check"],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_a_stale_file_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="answers-test-") as scratch:
            folder = os.path.join(scratch, "exercises", "42_small")
            os.makedirs(folder)
            with open(os.path.join(folder, "README.md"), "w", encoding="utf-8") as handle:
                handle.write(STATEMENT)
            tool = [sys.executable, os.path.join(ROOT, "tools", "course"), "answers", "--root", scratch]
            self.assertEqual(subprocess.run(tool + ["--check"], capture_output=True).returncode, 1)
            self.assertEqual(subprocess.run(tool, capture_output=True).returncode, 0)
            self.assertEqual(subprocess.run(tool + ["--check"], capture_output=True).returncode, 0)
            with open(os.path.join(folder, "README.md"), "a", encoding="utf-8") as handle:
                handle.write("")
            with open(os.path.join(folder, "README.md"), "w", encoding="utf-8") as handle:
                handle.write(STATEMENT.replace("What does", "Why does"))
            done = subprocess.run(tool + ["--check"], capture_output=True, text=True)
            self.assertEqual(done.returncode, 1)
            self.assertIn("exercises/42_small/answers.md is not what the statement's Questions give", done.stderr)

    def test_questions_and_a_filled_file_read_back(self):
        asked = answers.questions(STATEMENT)
        self.assertEqual(asked, [(1, "Why does the host never read `device_x`?"),
                                 (2, "What does `cudaMemcpy` wait for?")])
        text = answers.template("42", "en", asked)
        self.assertEqual(answers.parse(text, "en"), {1: "", 2: ""})
        filled = text.replace("\n(your answer)\n", "\nIt is not mapped.\n\nIt segfaults.\n", 1)
        self.assertEqual(answers.parse(filled, "en"), {1: "It is not mapped.\n\nIt segfaults.", 2: ""})
        french = answers.template("42", "fr", asked)
        self.assertIn("(votre réponse)", french)
        self.assertIn("Exercice 42\u00a0: vos réponses", french)


class Grader(unittest.TestCase):
    def read(self, files):
        """record["answers"] after engine.read_answers on a submission holding `files`."""
        with tempfile.TemporaryDirectory(prefix="answers-grader-") as raw:
            for name, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(raw, name)), exist_ok=True)
                with open(os.path.join(raw, name), "w", encoding="utf-8") as handle:
                    handle.write(text)
            grader = types.SimpleNamespace(config=types.SimpleNamespace(root=ROOT))
            grader.course_digest_of = lambda relative: engine.SubmissionGrader.course_digest_of(grader, relative)
            exercise = types.SimpleNamespace(id="03_device_memory", number="03")
            record, warnings = {}, []
            engine.SubmissionGrader.read_answers(grader, exercise, raw, submissions.all_files(raw), record, warnings)
            return record.get("answers"), warnings

    def test_the_filled_file_is_read_and_the_untouched_one_is_not(self):
        course = os.path.join(ROOT, "exercises", "03_device_memory")
        with open(os.path.join(course, "answers.fr.md"), encoding="utf-8") as handle:
            french = handle.read()
        with open(os.path.join(course, "answers.md"), encoding="utf-8") as handle:
            english = handle.read()
        untouched, _ = self.read({"exercises/03_device_memory/answers.md": english,
                                  "exercises/03_device_memory/answers.fr.md": french})
        self.assertIsNone(untouched)
        filled = french.replace("\n(votre réponse)\n", "\nIl n'est pas dans la mémoire de l'hôte.\n", 1)
        found, warnings = self.read({"exercises/03_device_memory/answers.md": english,
                                     "exercises/03_device_memory/answers.fr.md": filled})
        self.assertEqual(found["file"], "exercises/03_device_memory/answers.fr.md")
        self.assertEqual(found["answered"], {"1": "Il n'est pas dans la mémoire de l'hôte."})
        self.assertEqual(found["questions"], len(answers.questions(open(os.path.join(course, "README.fr.md"),
                                                                         encoding="utf-8").read())))
        self.assertEqual(warnings, [])

    def test_another_exercise_s_answers_are_no_copy_of_this_one_s(self):
        # A students' copy holds every exercise's answers file: 03's untouched one stays 03's,
        # with no warning, whatever 04's holds.
        course = os.path.join(ROOT, "exercises")
        files = {}
        for exercise in ("03_device_memory", "04_cpu_vs_gpu"):
            for name in ("answers.md", "answers.fr.md"):
                with open(os.path.join(course, exercise, name), encoding="utf-8") as handle:
                    files[f"exercises/{exercise}/{name}"] = handle.read()
        found, warnings = self.read(files)
        self.assertIsNone(found)
        self.assertEqual(warnings, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
