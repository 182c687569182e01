#!/usr/bin/env python3
"""The grader's own folders are never graded as a submission (issue 27: a results folder
placed inside the class folder became a student called `results` on the next run): a
results folder, recognised by its lock or its settings beside submissions/, or named by
--results, is left out of a class with a note, refused as a single submission, and not
copied with a submission that holds it. No GPU and no build needed.

    python3 tests/grading/test_grader_folders.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import submissions  # noqa: E402

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
SOLUTION = os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu")


def write(path, text=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def make_results(folder):
    """What tools/course grade leaves in a results folder, as far as recognising it goes."""
    write(os.path.join(folder, submissions.GRADER_LOCK))
    write(os.path.join(folder, submissions.GRADER_SETTINGS), '{"seed": 1, "exercises": ["03_device_memory"]}')
    write(os.path.join(folder, "submissions", "alice.json"), "{}")


class GraderFoldersAreNoSubmissions(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-grader-folders-")
        self.class_dir = os.path.join(self.scratch, "class")
        for student in ("alice", "bob"):
            target = os.path.join(self.class_dir, student, "device_memory.cu")
            os.makedirs(os.path.dirname(target))
            shutil.copyfile(SOLUTION, target)

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def students(self, **options):
        return [student for student, _ in submissions.list_class(self.class_dir, **options)]

    def test_a_results_folder_inside_the_class_is_left_out_with_a_note(self):
        make_results(os.path.join(self.class_dir, "results"))
        notes = []
        self.assertEqual(self.students(notes=notes), ["alice", "bob"])
        self.assertEqual(len(notes), 1)
        self.assertIn("results", notes[0])
        self.assertIn("not a submission", notes[0])

    def test_the_results_folder_named_is_left_out_before_it_is_marked(self):
        # The run that creates it: listed before anything is written into it.
        results = os.path.join(self.class_dir, "marks")
        os.makedirs(results)
        self.assertEqual(self.students(skip=[results]), ["alice", "bob"])

    def test_an_older_results_folder_without_its_lock_is_recognised(self):
        older = os.path.join(self.class_dir, "results-2025")
        make_results(older)
        os.remove(os.path.join(older, submissions.GRADER_LOCK))
        self.assertEqual(self.students(), ["alice", "bob"])

    def test_a_students_folder_with_a_file_called_grading_json_is_still_graded(self):
        write(os.path.join(self.class_dir, "alice", submissions.GRADER_SETTINGS), "{}")
        self.assertEqual(self.students(), ["alice", "bob"])

    def test_a_results_folder_alone_is_refused_as_a_submission(self):
        results = os.path.join(self.scratch, "results")
        make_results(results)
        with self.assertRaises(submissions.SubmissionError) as refused:
            submissions.single(results)
        self.assertIn("not a submission", str(refused.exception))

    def test_results_kept_inside_a_submission_are_not_copied_with_it(self):
        alice = os.path.join(self.class_dir, "alice")
        make_results(os.path.join(alice, "results"))
        copy = os.path.join(self.scratch, "copy")
        submissions.unpack(alice, copy)
        self.assertEqual(submissions.all_files(copy), ["device_memory.cu"])

    def test_grade_py_lists_the_class_without_its_results_folder(self):
        results = os.path.join(self.class_dir, "results")
        make_results(results)
        listed = subprocess.run(GRADER + [self.class_dir, "--class", "--list", "--results", results],
                                capture_output=True, text=True)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([line.split("\t")[:2] for line in listed.stdout.splitlines()],
                         [["0", "alice"], ["1", "bob"]])
        self.assertIn("not a submission: left out", listed.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
