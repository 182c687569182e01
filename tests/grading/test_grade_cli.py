#!/usr/bin/env python3
"""tools/course grade on what breaks gradings without a GPU or with bad input (exercise 03
only; about a minute on 2 cores, no GPU needed):

- no GPU visible (CUDA_VISIBLE_DEVICES="" hides any): refused with a clear message,
  non-zero status, nothing written, not even with --regrade on an earlier folder;
- --cpu-only: checks recorded as skipped, never 0 in the gradebook, and counted as
  not finished, so that a run on a GPU grades them without --regrade;
- `--exercises 03,03`: graded once, and the results folder stays usable;
- a random-bytes archive: status `unreadable` with the reason, on the console and in
  the gradebook, retried by the next run;
- a results folder poisoned by older graders (an exercise listed twice): repaired;
- `--class --list` without --results.

    python3 tests/grading/test_grade_cli.py
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import engine, gpu  # noqa: E402

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
SOLUTION = os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu")
NO_GPU = dict(os.environ, CUDA_VISIBLE_DEVICES="")


def grade(*arguments, environment=NO_GPU):
    return subprocess.run(GRADER + list(arguments), capture_output=True, text=True, env=environment)


def listing(folder):
    """Every path under folder with its size and modification time."""
    found = {}
    for base, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            info = os.stat(path)
            found[os.path.relpath(path, folder)] = (info.st_size, info.st_mtime_ns)
    return found


def gradebook(results):
    with open(os.path.join(results, "gradebook.csv"), encoding="utf-8", newline="") as handle:
        return {row[0]: row for row in csv.reader(handle)}


class GradingWithoutGpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="test-grade-cli-")
        cls.class_dir = os.path.join(cls.scratch, "class")
        os.makedirs(os.path.join(cls.class_dir, "alice"))
        shutil.copyfile(SOLUTION, os.path.join(cls.class_dir, "alice", "device_memory.cu"))
        os.makedirs(os.path.join(cls.class_dir, "erin"))
        with open(SOLUTION, encoding="utf-8") as source, \
                open(os.path.join(cls.class_dir, "erin", "device_memory.cu"), "w", encoding="utf-8") as target:
            target.write(source.read() + "\nthis line does not compile\n")
        with open(os.path.join(cls.class_dir, "dave.tar.gz"), "wb") as handle:
            handle.write(bytes(range(256)) * 4)   # random bytes under an archive's name
        cls.results = os.path.join(cls.scratch, "results")
        # One --cpu-only grading that the tests below look at, with a repeated exercise.
        cls.first = grade(cls.class_dir, "--class", "--results", cls.results, "--exercises", "03,03",
                          "--seed", "77", "--cpu-only")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch)

    def test_1_without_gpu_grading_is_refused_and_nothing_is_written(self):
        fresh = os.path.join(self.scratch, "refused")
        refused = grade(self.class_dir, "--class", "--results", fresh, "--exercises", "03")
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("no GPU is visible here", refused.stderr)
        self.assertIn("nothing was graded and nothing written", refused.stderr)
        self.assertIn("--cpu-only", refused.stderr)
        self.assertNotIn("Traceback", refused.stderr)
        self.assertFalse(os.path.exists(fresh))
        # Nor does a refused --regrade touch an earlier grading.
        before = listing(self.results)
        again = grade(self.class_dir, "--class", "--results", self.results, "--exercises", "03", "--regrade")
        self.assertNotEqual(again.returncode, 0)
        self.assertEqual(listing(self.results), before)

    def test_2_cpu_only_records_skipped_never_zero(self):
        self.assertEqual(self.first.returncode, 0, self.first.stdout + self.first.stderr)
        self.assertNotIn("Traceback", self.first.stderr)
        book = gradebook(self.results)
        self.assertEqual(book["student"], ["student", "03_device_memory", "total", "max_total", "status"])
        self.assertEqual(book["alice"][:4], ["alice", "", "", "22"])
        self.assertIn("03: skipped", book["alice"][4])
        self.assertEqual(book["erin"], ["erin", "0", "0", "22", "03: build_failed"])
        with open(os.path.join(self.results, "gradescope", "alice", "results.json"), encoding="utf-8") as handle:
            scope = json.load(handle)
        self.assertNotIn("score", scope)
        self.assertTrue(all("score" not in test and "status" not in test for test in scope["tests"]))
        with open(os.path.join(self.results, "classroom", "alice.json"), encoding="utf-8") as handle:
            room = json.load(handle)
        self.assertTrue(all(test["status"] == "error" and "score" not in test for test in room["tests"]))
        self.assertIn("NOT COMPLETE", self.first.stderr)

    def test_3_a_repeated_exercise_is_graded_once_and_the_folder_stays_usable(self):
        self.assertIn("exercise 03 is named more than once", self.first.stderr)
        with open(os.path.join(self.results, "grading.json"), encoding="utf-8") as handle:
            self.assertEqual(json.load(handle)["exercises"], ["03_device_memory"])
        with open(os.path.join(self.results, "submissions", "alice.json"), encoding="utf-8") as handle:
            self.assertEqual(len(json.load(handle)["exercises"]), 1)
        rebuilt = grade(self.class_dir, "--class", "--results", self.results, "--reports-only")
        self.assertEqual(rebuilt.returncode, 0, rebuilt.stderr)

    def test_4_an_unreadable_archive_is_named_with_its_reason(self):
        book = gradebook(self.results)
        self.assertEqual(book["dave"], ["dave", "0", "0", "22",
                                        "unreadable: dave.tar.gz: not a readable archive (not a gzip file)"])
        self.assertIn("dave: UNREADABLE: dave.tar.gz: not a readable archive (not a gzip file)", self.first.stdout)
        self.assertIn("1 submission(s) could not be read and scored 0: dave", self.first.stderr)

    def test_5_reruns_retry_unreadable_and_a_gpu_run_completes_cpu_only_results(self):
        again = grade(self.class_dir, "--class", "--results", self.results, "--exercises", "03", "--cpu-only")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("3 submission(s), 2 already graded, grading 1", again.stdout)   # dave, retried
        alice = os.path.join(self.results, "submissions", "alice.json")
        erin = os.path.join(self.results, "submissions", "erin.json")
        self.assertFalse(engine.needs_grading(alice, cpu_only=True))
        self.assertTrue(engine.needs_grading(alice, cpu_only=False))     # a GPU run grades it
        self.assertFalse(engine.needs_grading(erin, cpu_only=False))     # a build failure is final
        if gpu.visible()[0]:
            graded = grade(self.class_dir, "--class", "--results", self.results, "--exercises", "03",
                           environment=os.environ)
            self.assertIn("3 submission(s), 1 already graded, grading 2", graded.stdout)
            with open(alice, encoding="utf-8") as handle:
                self.assertEqual(json.load(handle)["exercises"][0]["status"], "graded")

    def test_6_a_folder_poisoned_by_an_older_grader_is_repaired(self):
        poisoned = os.path.join(self.scratch, "poisoned")
        shutil.copytree(self.results, poisoned)
        with open(os.path.join(poisoned, "grading.json"), "w", encoding="utf-8") as handle:
            json.dump({"seed": 77, "exercises": ["03_device_memory", "03_device_memory"]}, handle)
        path = os.path.join(poisoned, "submissions", "erin.json")
        with open(path, encoding="utf-8") as handle:
            erin = json.load(handle)
        erin["exercises"] *= 2
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(erin, handle)
        repaired = grade(self.class_dir, "--class", "--results", poisoned, "--exercises", "03", "--cpu-only")
        self.assertEqual(repaired.returncode, 0, repaired.stdout + repaired.stderr)
        self.assertIn("repaired:", repaired.stderr)
        self.assertIn("erin.json: exercise 03_device_memory was recorded more than once", repaired.stderr)
        with open(os.path.join(poisoned, "grading.json"), encoding="utf-8") as handle:
            self.assertEqual(json.load(handle)["exercises"], ["03_device_memory"])
        self.assertEqual(gradebook(poisoned)["erin"], ["erin", "0", "0", "22", "03: build_failed"])

    def test_7_listing_a_class_needs_no_results_folder(self):
        listed = grade(self.class_dir, "--class", "--list")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([line.split("\t")[:2] for line in listed.stdout.splitlines()],
                         [["0", "alice"], ["1", "dave"], ["2", "erin"]])


if __name__ == "__main__":
    unittest.main(verbosity=2)
