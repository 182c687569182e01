#!/usr/bin/env python3
"""Feedback in the student's language, where no GPU is needed (issue 41): the language is
chosen as message.hpp and language.py say (COURSE_LANG, else a French locale), make passes
LANG=fr on as COURSE_LANG, and a check's --help, --list and skip reason, the student path's
no-device reasons and the score table are French in French and English otherwise. A failing
case in French needs a GPU: check.french_feedback_03 and course.student_path.check_french.

    python3 tests/tools/test_feedback_language.py CHECK_03
"""
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import cuda_device  # noqa: E402
from course_tools.student import exercises  # noqa: E402
from course_tools.student import language  # noqa: E402
from course_tools.student import quiet_run  # noqa: E402

CHECK = None  # check_03's path, from the command line
NO_BREAK_SPACE = "\u00a0"
# Neither the caller's language nor its locale leaks into a case.
CLEAN = {name: value for name, value in os.environ.items()
         if name not in ("COURSE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}


def run(command, **environment):
    return subprocess.run(command, capture_output=True, text=True, env={**CLEAN, **environment}, cwd=ROOT)


class LanguageChoice(unittest.TestCase):
    def test_course_lang_then_the_locale_variables_in_posix_order(self):
        cases = [({}, "en"), ({"COURSE_LANG": "fr"}, "fr"), ({"LANG": "fr_FR.UTF-8"}, "fr"),
                 ({"LANG": "fr_CA.UTF-8", "COURSE_LANG": "en"}, "en"),      # COURSE_LANG wins
                 ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),      # LC_ALL before LANG
                 ({"LANG": "C.UTF-8", "LC_MESSAGES": "fr_BE.UTF-8"}, "fr"),
                 ({"LANG": "de_DE.UTF-8"}, "en"), ({"COURSE_LANG": ""}, "en")]
        for environment, expected in cases:
            self.assertEqual(language.chosen(environment), expected, environment)

    def test_make_passes_lang_fr_on_as_course_lang(self):
        said = {}
        for setting in ("LANG=fr", "LANG=en", "LANG=fr_FR.UTF-8"):
            done = run(["make", "-s", "--eval=show-course-lang: ; @echo \"[$$COURSE_LANG]\"",
                        "show-course-lang", setting])
            said[setting] = done.stdout.strip()
        # A locale is no choice: make leaves COURSE_LANG alone, and the check reads the locale.
        self.assertEqual(said, {"LANG=fr": "[fr]", "LANG=en": "[en]", "LANG=fr_FR.UTF-8": "[]"})

    def test_the_typography_of_the_tables(self):
        self.assertEqual(language.french_typography("« y » : faux ; lancé ? oui !"),
                         f"«{NO_BREAK_SPACE}y{NO_BREAK_SPACE}»{NO_BREAK_SPACE}: faux\u202f; lancé\u202f? oui\u202f!")
        # Between a number (or a field holding one) and its unit; not before a word.
        self.assertEqual(language.french_typography("{ms} ms, 3 octets, 10 %, 3 secteurs, {n} s"),
                         "{ms}\u00a0ms, 3\u00a0octets, 10\u00a0%, 3 secteurs, {n}\u00a0s")


class TheCheck(unittest.TestCase):
    def test_help_in_french_and_in_english(self):
        french = run([CHECK, "--help"], COURSE_LANG="fr").stdout
        self.assertIn("usage\u00a0: check_03 --program CHEMIN", french)
        self.assertIn("n'exécuter que ce cas", french)
        self.assertIn("make check-NN LANG=fr définit COURSE_LANG=fr", french)
        by_locale = run([CHECK, "--help"], LANG="fr_FR.UTF-8").stdout
        self.assertEqual(by_locale, french)
        english = run([CHECK, "--help"], LANG="fr_FR.UTF-8", COURSE_LANG="en").stdout
        self.assertIn("usage: check_03 --program PATH", english)
        self.assertNotIn("CHEMIN", english)

    def test_lang_chooses_and_a_self_test_stays_english(self):
        self.assertIn("(caché)", run([CHECK, "--list", "--lang", "fr"], COURSE_LANG="en").stdout)
        self.assertIn("(hidden)", run([CHECK, "--list", "--lang", "en"], LANG="fr_FR.UTF-8").stdout)
        # A self-test's expected hints are English: COURSE_LANG (make test LANG=fr) leaves it so.
        self_test = run([CHECK, "--program", "/bin/true", "--expect", "fail"], COURSE_LANG="fr",
                        CUDA_VISIBLE_DEVICES="")
        self.assertTrue(self_test.stdout.startswith("SKIPPED: check 03"), self_test.stdout)
        french = run([CHECK, "--program", "/bin/true", "--expect", "fail", "--lang", "fr"],
                     CUDA_VISIBLE_DEVICES="")
        self.assertTrue(french.stdout.startswith("SKIPPED: le correcteur 03"), french.stdout)

    def test_list_in_french(self):
        french = run([CHECK, "--list"], COURSE_LANG="fr").stdout
        self.assertIn("(caché)", french)
        self.assertRegex(french, r"\n +20 points au total\n$")
        self.assertIn("(hidden)", run([CHECK, "--list"]).stdout)

    def test_the_skip_reason_in_french(self):
        # No device visible (CUDA_VISIBLE_DEVICES empty): the same on a GPU machine and off one.
        done = run([CHECK, "--program", "/bin/true"], COURSE_LANG="fr", CUDA_VISIBLE_DEVICES="")
        self.assertEqual(done.returncode, 77, done.stdout + done.stderr)
        self.assertTrue(done.stdout.startswith("SKIPPED: le correcteur 03 device_memory demande un GPU CUDA, "
                                               "et cette machine n'en a aucun ("), done.stdout)
        english = run([CHECK, "--program", "/bin/true"], CUDA_VISIBLE_DEVICES="").stdout
        self.assertTrue(english.startswith("SKIPPED: check 03 device_memory needs a CUDA device"), english)


class TheStudentTools(unittest.TestCase):
    def test_no_device_reasons_in_french(self):
        with mock.patch.dict(os.environ, {"COURSE_LANG": "fr"}), \
                mock.patch.object(cuda_device.ctypes, "CDLL", side_effect=OSError("absent")):
            self.assertEqual(cuda_device.shortfall(1), "demande un GPU CUDA, et cette machine n'en a aucun "
                                                       "(pas de pilote NVIDIA\u00a0: libcuda.so.1 n'est pas installé)")
        with mock.patch.dict(os.environ, {"COURSE_LANG": "en"}), \
                mock.patch.object(cuda_device, "probe", return_value=(1, None)):
            self.assertEqual(cuda_device.shortfall(2), "needs 2 CUDA devices, and this machine has 1")

    def test_progress_lines_in_french(self):
        with mock.patch.dict(os.environ, {"COURSE_LANG": "fr"}):
            self.assertEqual(quiet_run.progress_line("built", 10, 6),
                             "  construit\u00a0: 10\u00a0% (6 s écoulées, environ 54 s restantes)")
        with mock.patch.dict(os.environ, {"COURSE_LANG": "en"}):
            self.assertEqual(quiet_run.progress_line("built", 10, 6), "  built: 10% (6 s so far, about 54 s left)")

    def test_the_score_table_in_french(self):
        found = exercises.load(ROOT)
        said = {e.id: (f"SKIPPED: le correcteur {e.number} {e.name} demande 2 GPU CUDA, et cette machine en a 1"
                       if e.job_gpus > 1 else "") for e in found}
        cases = "".join(f'<testcase name="{e.id}.student" status="notrun"><skipped message="Skipped"/>'
                        f'<system-out>{said[e.id]}\n</system-out></testcase>' for e in found)
        with tempfile.TemporaryDirectory() as build:
            junit = os.path.join(build, "junit.xml")
            with open(junit, "w", encoding="utf-8") as handle:
                handle.write(f"<testsuite>{cases}</testsuite>")
            table = run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build, "student",
                         "--junit", junit], COURSE_LANG="fr").stdout
        lines = table.splitlines()
        self.assertTrue(lines[0].startswith("exercice"), lines[0])
        several = next(line for line in lines if line.startswith(next(e.id for e in found if e.job_gpus > 1)))
        self.assertIn("non noté\u00a0: sauté (demande 2 GPU CUDA, et cette machine en a 1)", several)
        self.assertIn("rien n'est noté", lines[-1])
        self.assertNotIn("not graded", table)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    CHECK = os.path.abspath(sys.argv.pop(1))
    unittest.main()
