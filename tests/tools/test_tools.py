#!/usr/bin/env python3
"""Tests of the course's Python tools: the exercise declarations they read, the
skeleton/solution rule, the score table and the test summary.

    python3 tests/tools/test_tools.py
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import check_student_regions  # noqa: E402
import exercises  # noqa: E402

CALL = textwrap.dedent("""\
    course_exercise(
      NUMBER 07
      NAME demo
      STUDENT_FILES demo.cu helper.cu   # two files
      DRIVER main.cu
      CHECK check.cpp
      POINTS 12
      LIBRARIES cublas openmp
      MUTANTS a b
    )
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


class ExerciseDeclarations(unittest.TestCase):
    def test_every_keyword_is_read(self):
        values = exercises.parse_call(CALL, "demo")
        self.assertEqual(values["STUDENT_FILES"], ["demo.cu", "helper.cu"])
        self.assertEqual(values["LIBRARIES"], ["cublas", "openmp"])
        self.assertEqual(values["MUTANTS"], ["a", "b"])
        self.assertEqual(values["POINTS"], ["12"])

    def test_missing_keyword_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "CHECK is missing"):
            exercises.parse_call(CALL.replace("CHECK check.cpp", ""), "demo")

    def test_two_values_for_a_single_keyword_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "POINTS takes one value"):
            exercises.parse_call(CALL.replace("POINTS 12", "POINTS 12 13"), "demo")

    def test_unknown_number_names_the_available_ones(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"), CALL)
            self.assertEqual(exercises.find(root, "7").id, "07_demo")
            with self.assertRaisesRegex(exercises.ExerciseError, r"no exercise 8 \(available: 07\)"):
                exercises.find(root, "8")

    def test_the_repository_declares_its_exercises(self):
        found = exercises.load(ROOT)
        self.assertTrue(found)
        for exercise in found:
            self.assertEqual(os.path.basename(exercise.folder), exercise.id)


SKELETON = "int f() {\n  // TODO(student): return 42\n  return 0;\n  // END TODO(student)\n}\n"
SOLUTION = "int f() {\n  // TODO(student): return 42\n  return 42;\n  // END TODO(student)\n}\n"


class StudentRegions(unittest.TestCase):
    def check(self, skeleton, solution):
        with tempfile.TemporaryDirectory() as folder:
            write(os.path.join(folder, "skeleton.cu"), skeleton)
            write(os.path.join(folder, "solution.cu"), solution)
            return check_student_regions.compare(os.path.join(folder, "skeleton.cu"),
                                                 os.path.join(folder, "solution.cu"))

    def test_differences_inside_regions_are_allowed(self):
        self.assertEqual(self.check(SKELETON, SOLUTION), [])

    def test_a_difference_outside_the_regions_is_caught(self):
        problems = self.check(SKELETON, SOLUTION.replace("int f()", "long f()"))
        self.assertEqual(len(problems), 1)
        self.assertIn("differ outside the student regions", problems[0])

    def test_an_extra_line_outside_is_caught(self):
        self.assertTrue(self.check(SKELETON, SOLUTION + "// extra\n"))

    def test_unbalanced_or_missing_regions_are_caught(self):
        self.assertIn("never closed", self.check(SKELETON.replace("  // END TODO(student)\n", ""), SOLUTION)[0])
        self.assertIn("without an open region",
                      self.check("// END TODO(student)\n", "// END TODO(student)\n")[0])
        self.assertIn("no 'TODO(student)' region", self.check("int x;\n", "int x;\n")[0])

    def test_the_repository_follows_the_rule(self):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "check_student_regions.py"), ROOT],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


class Reports(unittest.TestCase):
    def test_test_summary_counts_and_names_failures(self):
        junit = textwrap.dedent("""\
            <testsuite>
              <testcase name="03_x.solution" status="run"/>
              <testcase name="03_x.skeleton" status="fail"><failure message="Failed"/></testcase>
              <testcase name="03_x.solution.memcheck" status="notrun"><skipped message="Skipped"/></testcase>
              <testcase name="unit.verify" status="run"/>
            </testsuite>
            """)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "junit.xml")
            write(path, junit)
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "test_summary.py"), path],
                                    capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("FAILED: 03_x.skeleton", result.stdout)
        self.assertTrue(result.stdout.rstrip().endswith("2 passed, 1 failed, 1 skipped"))

    def test_test_summary_rejects_a_missing_file(self):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "test_summary.py"), "/nonexistent.xml"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("cannot read /nonexistent.xml", result.stderr)

    def test_score_table_marks_ungraded_exercises(self):
        found = exercises.load(ROOT)
        with tempfile.TemporaryDirectory() as build:
            first = found[0]
            write(os.path.join(build, "scores", f"{first.id}.solution.tsv"),
                  f"{first.id}\tsolution\t{first.points}\t{first.points}\tPASS\n")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score_table.py"), build],
                                    capture_output=True, text=True)
        self.assertIn(f"{first.points}/{first.points}  PASS", result.stdout)
        if len(found) > 1:
            self.assertIn("not graded", result.stdout)
            self.assertEqual(result.returncode, 0)  # every graded exercise has full marks

    def test_score_table_fails_when_nothing_was_graded(self):
        with tempfile.TemporaryDirectory() as build:
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score_table.py"), build],
                                    capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("0 of", result.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
