#!/usr/bin/env python3
"""An exercise found twice in a submission (issue 27: a correct 03 plus a backup copy in
a second 03_device_memory/ folder scored 0 as "incomplete"): submissions.locate grades
the copy at the expected place, or else the only one that differs from the course's
skeleton, with a warning naming both; copies that nothing tells apart are refused with
a message saying so, never reported as missing. No GPU and no build needed.

    python3 tests/grading/test_found_twice.py
"""
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import reports, submissions  # noqa: E402

EXERCISE = "03_device_memory"
FILE = "device_memory.cu"
SKELETON = os.path.join(ROOT, "exercises", EXERCISE, FILE)
SOLUTION = os.path.join(ROOT, "solutions", EXERCISE, FILE)


class ExerciseFoundTwice(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="test-found-twice-")
        self.skeleton = submissions.digest(SKELETON)

    def tearDown(self):
        shutil.rmtree(self.folder)

    def hand_in(self, relative, source):
        target = os.path.join(self.folder, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)

    def locate(self):
        files = submissions.all_files(self.folder)
        return submissions.locate(self.folder, files, EXERCISE, FILE, skeleton_digest=self.skeleton)

    def test_a_backup_folder_deeper_down_is_ignored_with_a_warning(self):
        self.hand_in(f"{EXERCISE}/{FILE}", SOLUTION)
        self.hand_in(f"backup/{EXERCISE}/{FILE}", SKELETON)
        chosen, warnings = self.locate()
        self.assertEqual(chosen, f"{EXERCISE}/{FILE}")
        self.assertEqual(len(warnings), 1)
        self.assertIn(f"graded {EXERCISE}/{FILE}", warnings[0])
        self.assertIn(f"ignored backup/{EXERCISE}/{FILE}", warnings[0])

    def test_the_repository_path_wins_over_a_backup_with_a_warning(self):
        self.hand_in(f"exercises/{EXERCISE}/{FILE}", SOLUTION)
        self.hand_in(f"backup/{EXERCISE}/{FILE}", SKELETON)
        chosen, warnings = self.locate()
        self.assertEqual(chosen, f"exercises/{EXERCISE}/{FILE}")
        self.assertIn(f"ignored backup/{EXERCISE}/{FILE}", warnings[0])

    def test_of_two_copies_side_by_side_the_edited_one_is_graded(self):
        self.hand_in(f"v1/{EXERCISE}/{FILE}", SKELETON)
        self.hand_in(f"v2/{EXERCISE}/{FILE}", SOLUTION)
        chosen, warnings = self.locate()
        self.assertEqual(chosen, f"v2/{EXERCISE}/{FILE}")
        self.assertIn(f"ignored v1/{EXERCISE}/{FILE}", warnings[0])

    def test_two_edited_copies_side_by_side_are_refused_as_ambiguous_not_missing(self):
        self.hand_in(f"v1/{EXERCISE}/{FILE}", SOLUTION)
        edited = os.path.join(self.folder, "edited.cu")
        with open(SOLUTION, encoding="utf-8") as source, open(edited, "w", encoding="utf-8") as target:
            target.write(source.read() + "\n// another attempt\n")
        self.hand_in(f"v2/{EXERCISE}/{FILE}", edited)
        os.remove(edited)
        with self.assertRaises(submissions.SubmissionError) as refused:
            self.locate()
        message = str(refused.exception)
        self.assertIn("more than once", message)
        self.assertIn(f"v1/{EXERCISE}/{FILE}", message)
        self.assertIn(f"v2/{EXERCISE}/{FILE}", message)
        self.assertNotIn("missing", message)
        # The reports' sentence for the status must not call the file missing alone.
        self.assertIn("there twice", reports.EXPLANATIONS["incomplete"])

    def test_identical_copies_need_no_warning(self):
        self.hand_in(f"{EXERCISE}/{FILE}", SOLUTION)
        self.hand_in(f"backup/{EXERCISE}/{FILE}", SOLUTION)
        chosen, warnings = self.locate()
        self.assertEqual(chosen, f"{EXERCISE}/{FILE}")
        self.assertEqual(warnings, [])

    def test_one_copy_gives_no_warning_and_letter_case_still_warns(self):
        self.hand_in(f"exercises/{EXERCISE}/Device_Memory.cu", SOLUTION)
        chosen, warnings = self.locate()
        self.assertEqual(chosen, f"exercises/{EXERCISE}/Device_Memory.cu")
        self.assertEqual(len(warnings), 1)
        self.assertIn("letter case", warnings[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
