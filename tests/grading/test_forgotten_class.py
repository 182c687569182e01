#!/usr/bin/env python3
"""A class folder given without --class (issue 27: it was graded as one student named
`class`, with no warning): tools/course grade stops with status 2 and one message saying
what it saw and the command to type, before anything is written; --one-submission
grades such a folder as one submission. Folders that are one submission (a copy of the
repository, NN_name/ folders, flat files, one wrapped copy) are never taken for a
class. No GPU and no build needed: the grader stops before building, and the
--one-submission run is refused later for want of a GPU.

    python3 tests/grading/test_forgotten_class.py
"""
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import submissions  # noqa: E402
from course_tools.student import exercises as course_exercises  # noqa: E402

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
SOLUTION = os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu")
NO_GPU = dict(os.environ, CUDA_VISIBLE_DEVICES="")
EVERY = course_exercises.load(ROOT)
STUDENT_FILES = [f for e in EVERY for f in e.student_files]
EXERCISE_IDS = [e.id for e in EVERY]


def hand_in(folder, relative):
    target = os.path.join(folder, relative)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(SOLUTION, target)


class ForgottenClass(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-forgotten-class-")
        self.folder = os.path.join(self.scratch, "class")
        os.makedirs(self.folder)

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def alike(self):
        found = submissions.class_inside(self.folder, STUDENT_FILES, EXERCISE_IDS)
        return [os.path.basename(path) for path in found]

    def test_folders_and_archives_of_students_make_a_class(self):
        hand_in(self.folder, "alice/exercises/03_device_memory/device_memory.cu")
        hand_in(self.folder, "bob/Device_Memory.cu")
        staging = os.path.join(self.scratch, "carol")
        hand_in(staging, "03_device_memory/device_memory.cu")
        with tarfile.open(os.path.join(self.folder, "carol.tar.gz"), "w:gz") as tar:
            tar.add(staging, arcname="carol")
        os.makedirs(os.path.join(self.folder, "notes"))   # neither counts nor hides the others
        self.assertEqual(self.alike(), ["alice", "bob", "carol.tar.gz"])

    def test_one_submission_in_any_shape_is_no_class(self):
        shapes = {
            "a copy of the repository": ["exercises/03_device_memory/device_memory.cu", "solutions/x/device_memory.cu"],
            "NN_name folders": ["03_device_memory/device_memory.cu", "04_vector_add/device_memory.cu"],
            "flat files and a backup": ["device_memory.cu", "backup/device_memory.cu"],
            "one wrapped copy": ["cuda-course/exercises/03_device_memory/device_memory.cu"],
        }
        for shape, paths in shapes.items():
            with self.subTest(shape):
                shutil.rmtree(self.folder)
                for path in paths:
                    hand_in(self.folder, path)
                self.assertEqual(self.alike(), [])

    def test_grade_py_stops_with_the_command_to_type(self):
        hand_in(self.folder, "alice/device_memory.cu")
        hand_in(self.folder, "bob/device_memory.cu")
        results = os.path.join(self.scratch, "results")
        stopped = subprocess.run(GRADER + [self.folder, "--results", results, "--exercises", "03"],
                                 capture_output=True, text=True, env=NO_GPU)
        self.assertEqual(stopped.returncode, 2, stopped.stderr)
        self.assertNotIn("Traceback", stopped.stderr)
        self.assertIn("looks like a class, not one submission", stopped.stderr)
        self.assertIn("(alice, bob)", stopped.stderr)
        self.assertIn("one student named class", stopped.stderr)
        self.assertIn(f"tools/course grade {self.folder} --results {results} --exercises 03 --class", stopped.stderr)
        self.assertIn("--one-submission", stopped.stderr)
        self.assertFalse(os.path.exists(results))

    def test_one_submission_grades_it_as_one(self):
        hand_in(self.folder, "alice/device_memory.cu")
        hand_in(self.folder, "bob/device_memory.cu")
        listed = subprocess.run(GRADER + [self.folder, "--one-submission", "--list"], capture_output=True, text=True)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([line.split("\t")[:2] for line in listed.stdout.splitlines()], [["0", "class"]])
        both = subprocess.run(GRADER + [self.folder, "--one-submission", "--class", "--list"],
                              capture_output=True, text=True)
        self.assertEqual(both.returncode, 2)
        self.assertIn("contradict", both.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
