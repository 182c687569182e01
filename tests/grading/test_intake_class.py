#!/usr/bin/env python3
"""Issue 45's class, graded with tools/course grade --cpu-only (exercise 03; no GPU
needed, about a minute on 2 cores): kim.tar.xz, ivan.7z (graded where 7-Zip is
installed, else named "not graded: ... install 7zip"), olga/submission.zip (a
platform's download), gita (a git clone whose working tree holds an uncommitted compile
error), bert (the work only in 03_device_memory.bak beside the untouched skeleton), rel
(an untouched copy of the students' release with the solution committed), relx (the
same with its Makefile changed) and notes.txt (no submission). Each ends in a gradebook
row or a named "not graded" line; the warnings that may change a grade are on the
console's summary and in class.html; rel gets no warning and relx exactly one. Then
gita again with --git-head: its last commit is graded, and the warning says so.

    python3 tests/grading/test_intake_class.py
"""
import csv
import html
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import submissions  # noqa: E402

COURSE = [sys.executable, os.path.join(ROOT, "tools", "course")]
EXERCISE = "03_device_memory"
FILE = "device_memory.cu"
STUDENT_PATH = f"exercises/{EXERCISE}/{FILE}"
SKELETON = os.path.join(ROOT, "exercises", EXERCISE, FILE)
SOLUTION = os.path.join(ROOT, "solutions", EXERCISE, FILE)
NO_GPU = dict(os.environ, CUDA_VISIBLE_DEVICES="")
SEVEN_ZIP = submissions.seven_zip()
GIT = ["git", "-c", "user.name=Student", "-c", "user.email=student@example.org", "-c", "commit.gpgsign=false"]


def copy(source, target):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(source, target)


def git(folder, *arguments):
    subprocess.run(GIT + ["-C", folder, *arguments], check=True, capture_output=True)


def grade(class_dir, results, *extra):
    return subprocess.run(COURSE + ["grade", class_dir, "--class", "--results", results, "--exercises", "03",
                                    "--seed", "45", "--cpu-only", *extra],
                          capture_output=True, text=True, env=NO_GPU)


def results_of(results):
    folder = os.path.join(results, "submissions")
    found = {}
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            found[name[:-len(".json")]] = json.load(handle)
    return found


class IntakeClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="test-intake-class-")
        cls.class_dir = os.path.join(cls.scratch, "class")
        os.makedirs(cls.class_dir)
        staging = os.path.join(cls.scratch, "staging")
        copy(SOLUTION, os.path.join(staging, FILE))
        with tarfile.open(os.path.join(cls.class_dir, "kim.tar.xz"), "w:xz") as tar:
            tar.add(staging, arcname="kim")
        if SEVEN_ZIP:
            subprocess.run([SEVEN_ZIP, "a", os.path.join(cls.class_dir, "ivan.7z"), "."], cwd=staging, check=True,
                           capture_output=True)
        else:
            with open(os.path.join(cls.class_dir, "ivan.7z"), "wb") as handle:
                handle.write(b"7z\xbc\xaf\x27\x1c")
        os.makedirs(os.path.join(cls.class_dir, "olga"))
        with zipfile.ZipFile(os.path.join(cls.class_dir, "olga", "submission.zip"), "w") as bundle:
            bundle.write(SOLUTION, STUDENT_PATH)
        copy(SKELETON, os.path.join(cls.class_dir, "bert", STUDENT_PATH))
        copy(SOLUTION, os.path.join(cls.class_dir, "bert", "exercises", f"{EXERCISE}.bak", FILE))
        with open(os.path.join(cls.class_dir, "notes.txt"), "w", encoding="utf-8") as handle:
            handle.write("who handed in what\n")

        # Copies of the students' release (a git repository of one commit), as students clone it.
        release = os.path.join(cls.scratch, "release")
        made = subprocess.run(COURSE + ["release", release], capture_output=True, text=True)
        if made.returncode != 0:
            raise AssertionError("tools/course release failed:\n" + made.stdout + made.stderr)
        for name in ("rel", "relx", "gita"):
            shutil.copytree(release, os.path.join(cls.class_dir, name), symlinks=True)
            copy(SOLUTION, os.path.join(cls.class_dir, name, STUDENT_PATH))
            git(os.path.join(cls.class_dir, name), "commit", "-q", "-am", "my solution")
        with open(os.path.join(cls.class_dir, "relx", "Makefile"), "a", encoding="utf-8") as handle:
            handle.write("\n# my own shortcut\n")
        git(os.path.join(cls.class_dir, "relx"), "commit", "-q", "-am", "my Makefile")
        with open(os.path.join(cls.class_dir, "gita", STUDENT_PATH), "a", encoding="utf-8") as handle:
            handle.write("\nthis line, not committed, does not compile\n")

        cls.results = os.path.join(cls.scratch, "results")
        cls.outcome = grade(cls.class_dir, cls.results)
        cls.graded = results_of(cls.results) if os.path.isdir(os.path.join(cls.results, "submissions")) else {}
        with open(os.path.join(cls.results, "class.html"), encoding="utf-8") as handle:
            cls.page = html.unescape(handle.read())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_1_every_entry_is_a_row_or_named(self):
        self.assertEqual(self.outcome.returncode, 0, self.outcome.stdout + self.outcome.stderr)
        self.assertNotIn("Traceback", self.outcome.stderr)
        students = {"kim", "olga", "bert", "rel", "relx", "gita"} | ({"ivan"} if SEVEN_ZIP else set())
        with open(os.path.join(self.results, "gradebook.csv"), encoding="utf-8", newline="") as handle:
            rows = {row[0] for row in csv.reader(handle)} - {"student"}
        self.assertEqual(rows, students)
        self.assertIn("not graded: notes.txt: a file, not a submission", self.outcome.stderr)
        self.assertIn("notes.txt", self.page)
        if not SEVEN_ZIP:
            self.assertIn("not graded: ivan.7z: a 7z archive, and no 7-Zip command is installed here: "
                          "install 7zip", self.outcome.stderr)
            self.assertIn("ivan.7z", self.page)
        listed = subprocess.run(COURSE + ["grade", self.class_dir, "--class", "--list"], capture_output=True,
                                text=True)
        self.assertEqual(sorted(line.split("\t")[1] for line in listed.stdout.splitlines()), sorted(students))
        self.assertIn("not graded: notes.txt", listed.stderr)

    def test_2_archives_are_graded(self):
        for student in ["kim", "olga"] + (["ivan"] if SEVEN_ZIP else []):
            with self.subTest(student):
                exercise = self.graded[student]["exercises"][0]
                self.assertEqual(exercise["status"], "skipped", exercise)   # built: --cpu-only runs no check
        self.assertEqual(self.graded["olga"]["exercises"][0]["files"], {FILE: STUDENT_PATH})

    def test_3_grade_changing_warnings_reach_the_console_and_class_html(self):
        summary = self.outcome.stderr[self.outcome.stderr.index("warning(s) that may change a grade"):]
        expected = {
            "olga": "olga holds nothing but the archive submission.zip",
            "bert": f"exercises/{EXERCISE}/{FILE} is the course's skeleton, untouched: graded the edited copy "
                    f"exercises/{EXERCISE}.bak/{FILE} instead",
            "gita": "gita: graded its git working tree (what the student sees), not its last commit (HEAD)",
        }
        for student, text in expected.items():
            with self.subTest(student):
                self.assertIn(f"  {student}: {text}", summary)
                self.assertIn(text, self.page)
                self.assertTrue(any(text in w for w in self.graded[student]["grade_warnings"]))
                self.assertTrue(any(text in w for w in self.graded[student]["warnings"]))   # feedback too
                with open(os.path.join(self.results, "feedback", f"{student}.md"), encoding="utf-8") as handle:
                    self.assertIn(text, handle.read())
        self.assertIn('id="table-grade-warnings"', self.page)
        self.assertEqual(self.graded["bert"]["exercises"][0]["files"], {FILE: f"exercises/{EXERCISE}.bak/{FILE}"})

    def test_4_the_working_tree_of_a_git_clone_is_graded(self):
        exercise = self.graded["gita"]["exercises"][0]
        self.assertEqual(exercise["status"], "build_failed", exercise)
        self.assertIn(f"{STUDENT_PATH}: changed since the last commit", self.graded["gita"]["grade_warnings"][0])

    def test_5_an_untouched_release_gets_no_warning_and_a_changed_one_one(self):
        self.assertEqual(self.graded["rel"]["warnings"], [])
        self.assertEqual(self.graded["rel"]["exercises"][0]["status"], "skipped")
        self.assertEqual(len(self.graded["relx"]["warnings"]), 1, self.graded["relx"]["warnings"])
        self.assertIn("Makefile: differs from the course's Makefile: ignored", self.graded["relx"]["warnings"][0])
        self.assertEqual(self.graded["relx"]["grade_warnings"], [])   # ignored: it changes no grade

    def test_6_git_head_grades_the_last_commit(self):
        only = os.path.join(self.scratch, "only-gita")
        os.makedirs(only)
        os.rename(os.path.join(self.class_dir, "gita"), os.path.join(only, "gita"))
        try:
            results = os.path.join(self.scratch, "results-head")
            run = grade(only, results, "--git-head")
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            gita = results_of(results)["gita"]
        finally:
            os.rename(os.path.join(only, "gita"), os.path.join(self.class_dir, "gita"))
        self.assertEqual(gita["exercises"][0]["status"], "skipped", gita["exercises"][0])   # the commit builds
        self.assertIn("gita: graded its last git commit (HEAD), not its working tree", run.stderr)
        self.assertIn("the uncommitted work was not graded", gita["grade_warnings"][0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
