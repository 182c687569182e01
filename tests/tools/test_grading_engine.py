#!/usr/bin/env python3
"""Tests of the grading engine's sanitizer items (tools/course_tools/grading/engine.py), with the
check's runs faked, so that they need no GPU and no compute-sanitizer:

    python3 tests/tools/test_grading_engine.py

An exercise declared with RACECHECK or SYNCCHECK gets one item per tool beside memcheck's,
each worth MEMCHECK_POINTS; the tools' runs go side by side, only for code that earned
correctness points, and each verdict is kept per build and seed.
"""
import os
import sys
import tempfile
import threading
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import engine  # noqa: E402
from course_tools.student import exercises  # noqa: E402

RACE_TEXT = ("FAIL: compute-sanitizer racecheck found errors:\n"
             "    ========= Error: Race reported between Write access at tiled_sgemm_kernel"
             "(...)+0x2a0 in tiled_sgemm.cu:94\n"
             "hint: a shared-memory race: two threads of a block touch the same shared location")


def exercise(racecheck=True, synccheck=True, memcheck_points=2):
    return exercises.Exercise(number="21", name="tiled_sgemm", folder="/nowhere/21_tiled_sgemm",
                              student_files=["tiled_sgemm.cu"], check="check.cpp", points=40,
                              memcheck_points=memcheck_points, racecheck=racecheck, synccheck=synccheck)


def check_report(score, cases):
    return {"score": score, "cases": [{"name": name, "points": points, "max_points": maximum,
                                       "passed": points == maximum, "hidden": False, "seconds": 0.1,
                                       "text": text} for name, points, maximum, text in cases]}


class FakeChecks(engine.SubmissionGrader):
    """run_check answers from `answers` (tool -> report); "" is the plain run."""

    def __init__(self, config, answers, barrier=None):
        super().__init__(config, toolchain=None, course_index={}, student_file_paths=set())
        self.answers = answers
        self.calls = []
        self.barrier = barrier
        self.calls_lock = threading.Lock()

    def run_check(self, exercise, program, report, times, sanitizer="", tool="memcheck"):
        which = tool if sanitizer else ""
        with self.calls_lock:
            self.calls.append(which)
        if which and self.barrier is not None:
            self.barrier.wait(timeout=5)  # every tool's run must be under way at once
        return 1 if self.answers[which]["score"] < 40 else 0, self.answers[which], ""


class SanitizerItems(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.config = engine.Config(root=ROOT, results=self.tmp.name, seed=7, exercises=[], arch="sm_90",
                                    sanitizer="/fake/compute-sanitizer")

    def tearDown(self):
        self.tmp.cleanup()

    def grade(self, grader, declared, key="build-key"):
        record = {"items": [], "score": 0, "max_score": declared.max_score}
        grader.run_checks(declared, "/work/bin/21", self.tmp.name, record, engine.Phases(), key)
        return record

    def answers(self, plain_score=40, race=False):
        clean = check_report(40, [("square", 40, 40, "PASS")])
        return {"": check_report(plain_score, [("square", plain_score, 40, "PASS" if plain_score else "FAIL")]),
                "memcheck": clean, "synccheck": clean,
                "racecheck": check_report(0, [("square", 0, 40, RACE_TEXT)]) if race else clean}

    def test_each_declared_tool_is_an_item_worth_memcheck_points(self):
        declared = exercise()
        record = self.grade(FakeChecks(self.config, self.answers()), declared)
        names = [item["name"] for item in record["items"]]
        self.assertEqual(names, ["square", "memcheck", "racecheck", "synccheck"])
        self.assertEqual((record["score"], record["max_score"]), (46, 46))
        self.assertEqual(record["max_score"], declared.max_score)
        racecheck = record["items"][2]
        self.assertEqual((racecheck["kind"], racecheck["max_score"], racecheck["passed"]), ("sanitizer", 2, True))
        self.assertIn("racecheck found no shared-memory hazard", racecheck["output"])

    def test_a_race_loses_the_racecheck_points_only_and_its_report_is_the_output(self):
        record = self.grade(FakeChecks(self.config, self.answers(race=True)), exercise())
        items = {item["name"]: item for item in record["items"]}
        self.assertEqual(items["racecheck"]["score"], 0)
        self.assertFalse(items["racecheck"]["passed"])
        for text in ("square:", "compute-sanitizer racecheck found errors", "tiled_sgemm.cu:94", "hint:"):
            self.assertIn(text, items["racecheck"]["output"])
        self.assertEqual((items["memcheck"]["score"], items["synccheck"]["score"]), (2, 2))
        self.assertEqual(record["score"], 44)

    def test_another_tool_s_report_does_not_flag_a_case(self):
        answers = self.answers()
        # A case that runs under a tool of its own (exercise 24's under_tool) reports it
        # in every run: racecheck's item is not the place for memcheck's findings.
        answers["racecheck"] = check_report(38, [("step1", 0, 2, "FAIL: compute-sanitizer memcheck found errors")])
        record = self.grade(FakeChecks(self.config, answers), exercise(synccheck=False))
        self.assertTrue([i for i in record["items"] if i["name"] == "racecheck"][0]["passed"])

    def test_a_check_that_could_not_end_under_the_tool_loses_the_points(self):
        answers = self.answers()
        answers["synccheck"] = check_report(0, [("square", 0, 40, "FAIL: compute-sanitizer could not check "
                                                                  "the program to its end")])
        record = self.grade(FakeChecks(self.config, answers), exercise())
        self.assertEqual([i["score"] for i in record["items"] if i["name"] == "synccheck"], [0])

    def test_the_tools_run_side_by_side(self):
        barrier = threading.Barrier(3)
        grader = FakeChecks(self.config, self.answers(), barrier=barrier)
        record = self.grade(grader, exercise())
        self.assertEqual(sorted(grader.calls), ["", "memcheck", "racecheck", "synccheck"])
        self.assertFalse(barrier.broken, "the three tools' runs did not overlap")
        self.assertEqual(record["score"], 46)

    def test_no_tool_runs_for_code_without_correctness_points(self):
        grader = FakeChecks(self.config, self.answers(plain_score=0))
        record = self.grade(grader, exercise())
        self.assertEqual(grader.calls, [""])
        for item in record["items"][1:]:
            self.assertEqual(item["score"], 0)
            self.assertIn(f"not run: {item['name']} points go to code that earns correctness points", item["output"])
        self.assertEqual(record["max_score"], 46)

    def test_each_tool_s_verdict_is_kept_per_build_and_seed(self):
        grader = FakeChecks(self.config, self.answers(race=True))
        self.grade(grader, exercise())
        grader.calls.clear()
        record = self.grade(grader, exercise())
        self.assertEqual(grader.calls, [""])  # every tool's verdict came from the cache
        self.assertEqual([i["score"] for i in record["items"] if i["name"] == "racecheck"], [0])
        grader.calls.clear()
        self.grade(grader, exercise(), key="another-build")
        self.assertEqual(sorted(grader.calls), ["", "memcheck", "racecheck", "synccheck"])

    def test_exercises_without_the_flags_keep_memcheck_alone(self):
        grader = FakeChecks(self.config, self.answers())
        record = self.grade(grader, exercise(racecheck=False, synccheck=False))
        self.assertEqual([i["name"] for i in record["items"]], ["square", "memcheck"])
        self.assertEqual(record["max_score"], 42)

    def test_the_check_is_told_the_tool(self):
        class Toolchain:
            @staticmethod
            def check_path(_):
                return "/bin/check_21"

        grader = engine.SubmissionGrader(self.config, Toolchain(), {}, set())
        command = grader.check_command(exercise(), "/p", "/r.json", "/t", "/lock", None, "/cs", "racecheck")
        at = command.index("--sanitizer")
        self.assertEqual(command[at:at + 4], ["--sanitizer", "/cs", "--sanitizer-tool", "racecheck"])
        self.assertIn("--plain-times", command)
        plain = grader.check_command(exercise(), "/p", "/r.json", "/t", "/lock", None, "")
        self.assertNotIn("--sanitizer-tool", plain)


class MachineSlots(unittest.TestCase):
    """A slot that comes free goes to the longest work waiting (engine.Slots)."""

    def test_free_slot_goes_to_the_highest_priority_then_the_first_asker(self):
        slots = engine.Slots(1)
        order, queued = [], threading.Semaphore(0)

        def work(priority, name):
            queued.release()
            with slots.take(priority):
                order.append(name)

        with slots.take(0):  # every slot taken: the others queue
            threads = []
            for priority, name in ((1, "short"), (5, "long"), (3, "middle"), (5, "long, later")):
                thread = threading.Thread(target=work, args=(priority, name))
                thread.start()
                queued.acquire()
                threads.append(thread)
                # Each is waiting before the next asks (asking order is what breaks ties).
                while len(slots.waiting) < len(threads):
                    threading.Event().wait(0.01)
        for thread in threads:
            thread.join(10)
        self.assertEqual(order, ["long", "long, later", "middle", "short"])

    def test_exercises_with_more_sanitizer_runs_come_first(self):
        by_number = {e.number: e for e in exercises.load(ROOT)}
        self.assertGreater(engine.expected_cost(by_number["21"]), engine.expected_cost(by_number["20"]))
        self.assertGreater(engine.expected_cost(by_number["20"]), engine.expected_cost(by_number["03"]))


class Declarations(unittest.TestCase):
    def test_the_course_s_racecheck_exercises_grade_the_tools(self):
        found = {e.number: e for e in exercises.load(ROOT)}
        for number in ("12", "14", "15"):
            self.assertEqual(found[number].sanitizer_tools, ["memcheck", "racecheck"], number)
        for number in ("18", "21", "22"):
            self.assertEqual(found[number].sanitizer_tools, ["memcheck", "racecheck", "synccheck"], number)
        # 24 grades each planted bug under its own tool (under_tool): a whole-check run would count them twice.
        self.assertEqual(found["24"].sanitizer_tools, [])
        self.assertEqual(found["21"].max_score, 56)  # 50 points of cases, 2 for each of the three tools


class FeedbackLanguage(unittest.TestCase):
    # --feedback-lang is fixed with the seed at a results folder's first grading: a rerun
    # continues in it, and a rerun that asks for the other language is refused.
    def test_the_language_is_kept_and_another_is_refused(self):
        with tempfile.TemporaryDirectory() as results:
            first = engine.grading_settings(results, 5, None, ["03_device_memory"], feedback_lang="fr")
            self.assertEqual(first["feedback_lang"], "fr")
            again = engine.grading_settings(results, None, None, ["03_device_memory"])
            self.assertEqual(again["feedback_lang"], "fr")
            with self.assertRaisesRegex(engine.SettingsError, "feedback in 'fr', not 'en'"):
                engine.grading_settings(results, None, None, ["03_device_memory"], feedback_lang="en")

    def test_a_folder_from_before_the_setting_is_english(self):
        with tempfile.TemporaryDirectory() as results:
            engine.write_json_atomically(os.path.join(results, engine.CONFIG_FILE),
                                         {"seed": 5, "exercises": ["03_device_memory"]})
            self.assertEqual(engine.grading_settings(results, None, None, [])["feedback_lang"], "en")


if __name__ == "__main__":
    unittest.main()
