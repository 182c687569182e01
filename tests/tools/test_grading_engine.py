#!/usr/bin/env python3
"""Tests of the grading engine's sanitizer items (tools/course_tools/grading/engine.py), with the
check's runs faked, so that they need no GPU and no compute-sanitizer:

    python3 tests/tools/test_grading_engine.py

An exercise declared with RACECHECK or SYNCCHECK gets one item per tool beside memcheck's,
each worth MEMCHECK_POINTS; the tools' runs go side by side, only for code that earned
correctness points, and each verdict is kept per build and seed. The speed credit
(--speed-credit, speed_credit.py) is computed from the check's speed records and the site
bars, apart from the score, and fixed at a results folder's first grading; its arithmetic is
proved on known-wrong variants (uncapped, at_most upside down, a zero figure paid).
"""
import contextlib
import io
import os
import sys
import tempfile
import threading
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import engine, speed_credit  # noqa: E402
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


SITE_GPU = "NVIDIA L4"
# make calibrate's file for exercise 21 on an L4 (suite/calibrate.py): a share of cuBLAS at
# least 0.45 (the reference's worst 0.6), a time over the bound at most 1.35 (worst 1.2), and
# a third bar no case of these tests judges: the maximum counts it all the same.
SITE_BARS = (f"# site bars\ngpu\t{SITE_GPU}\n"
             "bar\t21\tfinal\tshare of cuBLAS\tat_least\t0.45\t0.45\t0.6\n"
             "bar\t21\tbound\ttime over bound\tat_most\t1.35\t1.35\t1.2\n"
             "bar\t21\tlarge\tshare of cuBLAS\tat_least\t0.45\t0.45\t0.55\n"
             "bar\t11\tfused\tshare of the copy ceiling\tat_least\t0.6\t0.6\t0.9\n")

# (direction, measured, reference, credit of 5 points): the rules of bar_credit.
CREDIT_RULES = [
    ("at_least", 0.3, 0.6, 2.5),     # half the reference's figure: half the points
    ("at_least", 0.9, 0.6, 5),       # beyond the reference: capped at the points
    ("at_most", 1.5, 1.2, 4),        # a time over the bound 1.25 x the reference's: 1.2 / 1.5 of the points
    ("at_most", 1.0, 1.2, 5),        # faster than the reference: capped
    ("at_least", 0.0, 0.6, 0),       # nothing measured
    ("at_most", 0.0, 1.2, 0),        # a time of zero is no measurement, not infinite speed
    ("at_least", float("nan"), 0.6, 0),
    ("at_least", 0.3, 0.0, 0),       # a reference of zero scales nothing
]


def broken_rules(credit_of):
    """The rules of CREDIT_RULES that `credit_of(points, direction, measured, reference)` breaks."""
    broken = []
    for direction, measured, reference, expected in CREDIT_RULES:
        try:
            got = credit_of(5, direction, measured, reference)
        except ZeroDivisionError:
            got = "ZeroDivisionError"
        if got != expected:
            broken.append((direction, measured, reference, got))
    return broken


class SpeedCredit(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.site_bars = os.path.join(self.tmp.name, "site-bars.tsv")
        with open(self.site_bars, "w", encoding="utf-8") as handle:
            handle.write(SITE_BARS)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_credit_of_a_bar_follows_its_rules(self):
        self.assertEqual(broken_rules(speed_credit.bar_credit), [])

    def test_the_rules_catch_known_wrong_credits(self):
        def uncapped(points, direction, measured, reference):
            ratio = measured / reference if direction == "at_least" else reference / measured
            return round(points * ratio, 2) if measured > 0 and reference > 0 else 0

        def at_most_upside_down(points, direction, measured, reference):
            return speed_credit.bar_credit(points, "at_least", measured, reference)

        def zero_paid_in_full(points, direction, measured, reference):
            if measured == 0:
                return points
            return speed_credit.bar_credit(points, direction, measured, reference)

        for wrong in (uncapped, at_most_upside_down, zero_paid_in_full):
            self.assertNotEqual(broken_rules(wrong), [], wrong.__name__)

    def graded(self, gpu_name=SITE_GPU, passed=True, status="graded"):
        """A result as engine.grade makes it, exercise 21 checked on `gpu_name`: final at 0.3
        (half the reference's 0.6), bound at 1.5 (the reference 1.2)."""
        items = [{"name": "correct", "kind": "case", "score": 30, "max_score": 30, "passed": True, "hidden": False},
                 {"name": "final", "kind": "case", "score": 4 if passed else 0, "max_score": 4, "passed": passed,
                  "hidden": False, "speed": [{"figure": "share of cuBLAS", "direction": "at_least", "bar": 0.45,
                                              "measured": 0.3, "reference": "0.60-0.62 on H100"}]},
                 {"name": "bound", "kind": "case", "score": 4, "max_score": 4, "passed": True, "hidden": False,
                  "speed": [{"figure": "time over bound", "direction": "at_most", "bar": 1.35, "measured": 1.5,
                             "reference": ""}]}]
        record = {"number": "21", "id": "21_tiled_sgemm", "status": status, "score": 38 if passed else 34,
                  "max_score": 56, "items": items if status == "graded" else []}
        if status == "graded":
            record["gpu"] = gpu_name
        return {"score": record["score"], "max_score": 56, "exercises": [record]}

    def test_each_bar_earns_its_share_and_the_score_stays_the_score(self):
        result = self.graded()
        speed_credit.add_credit(result, 5, speed_credit.SiteReferences(self.site_bars))
        self.assertEqual(result["score"], 38)
        self.assertEqual(result["exercises"][0]["score"], 38)
        credit = result["speed_credit"]
        # final: 5 x 0.3 / 0.6 = 2.5; bound: 5 x 1.2 / 1.5 = 4; three bars of 21 on this GPU.
        self.assertEqual((credit["score"], credit["max_score"], credit["note"]), (6.5, 15, ""))
        final = result["exercises"][0]["items"][1]["speed"][0]
        self.assertEqual((final["credit"], final["site_reference"]), (2.5, 0.6))

    def test_a_failed_case_earns_no_credit(self):
        result = self.graded(passed=False)
        speed_credit.add_credit(result, 5, speed_credit.SiteReferences(self.site_bars))
        self.assertEqual(result["exercises"][0]["items"][1]["speed"][0]["credit"], 0)
        self.assertEqual(result["speed_credit"]["score"], 4)

    def test_without_site_bars_or_on_another_gpu_no_credit_and_the_reason(self):
        result = self.graded()
        speed_credit.add_credit(result, 5, speed_credit.SiteReferences(""))
        self.assertEqual((result["speed_credit"]["score"], result["speed_credit"]["max_score"]), (0, 0))
        self.assertIn("speed credit needs make calibrate on this GPU", result["speed_credit"]["note"])
        result = self.graded(gpu_name="NVIDIA H200")
        speed_credit.add_credit(result, 5, speed_credit.SiteReferences(self.site_bars))
        self.assertEqual(result["speed_credit"]["score"], 0)
        self.assertIn(f"graded on NVIDIA H200, the site bars were measured on {SITE_GPU}",
                      result["speed_credit"]["note"])
        self.assertNotIn("credit", result["exercises"][0]["items"][1]["speed"][0])

    def test_an_exercise_that_did_not_build_owes_its_bars(self):
        result = self.graded(status="build_failed")
        speed_credit.add_credit(result, 5, speed_credit.SiteReferences(self.site_bars))
        self.assertEqual((result["speed_credit"]["score"], result["speed_credit"]["max_score"]), (0, 15))

    def test_the_check_s_own_gpu_name_is_the_exercise_s(self):
        report = check_report(40, [("square", 40, 40, "PASS")])

        class Recording(FakeChecks):
            def run_check(self, exercise, program, report_path, times, sanitizer="", tool="memcheck"):
                with open(engine.speed_record_path(report_path), "w", encoding="utf-8") as handle:
                    handle.write(f"gpu\t{SITE_GPU}\ntimed\tsquare\n"
                                 "speed\tsquare\tshare of cuBLAS\tat_least\t0.45\t0.5\t0.11\n")
                return 0, report, ""

        config = engine.Config(root=ROOT, results=self.tmp.name, seed=7, exercises=[], arch="sm_90")
        record = {"items": [], "score": 0, "max_score": 40}
        os.makedirs(os.path.join(self.tmp.name, "reports"), exist_ok=True)
        Recording(config, {}).run_checks(exercise(False, False, 0), "/p", self.tmp.name, record, engine.Phases(), "k")
        self.assertEqual(record["gpu"], SITE_GPU)
        self.assertEqual(record["items"][0]["speed"][0]["measured"], 0.5)

    def test_a_grading_with_credit_writes_it_beside_the_score(self):
        prepared = self.graded()["exercises"][0]

        class Snapshot:
            snapshot = os.path.join(self.tmp.name, "course")

        class Prepared(engine.SubmissionGrader):
            def grade_exercise(self, *_):
                return dict(prepared)

        os.makedirs(Snapshot.snapshot)
        submission = os.path.join(self.tmp.name, "alice")
        os.makedirs(submission)
        declared = [exercise(False, False, 0)]
        for points, expected in ((5, {"points_per_bar": 5, "score": 6.5, "max_score": 15, "note": ""}), (0, None)):
            config = engine.Config(root=ROOT, results=os.path.join(self.tmp.name, f"results-{points}"), seed=7,
                                   exercises=declared, arch="sm_90", site_bars=self.site_bars, speed_credit=points)
            result = Prepared(config, Snapshot(), {}, set()).grade("alice", submission, 0)
            self.assertEqual(result["score"], 38)
            self.assertEqual(result.get("speed_credit"), expected)

    def test_the_option_asks_for_points(self):
        from course_tools.grading import grade
        self.assertEqual(grade.parse_arguments(["grade", "class", "--results", "r", "--speed-credit", "2"]).speed_credit, 2)
        for wrong in ("-1", "inf", "nan", "many"):
            with self.assertRaises(SystemExit, msg=wrong), contextlib.redirect_stderr(io.StringIO()):
                grade.parse_arguments(["grade", "class", "--results", "r", "--speed-credit", wrong])

    def test_the_credit_is_fixed_at_the_first_grading(self):
        with tempfile.TemporaryDirectory() as results:
            first = engine.grading_settings(results, 5, None, ["21_tiled_sgemm"], speed_credit=2.5)
            self.assertEqual(first["speed_credit"], 2.5)
            self.assertEqual(engine.grading_settings(results, None, None, [])["speed_credit"], 2.5)
            self.assertEqual(engine.grading_settings(results, None, None, [], speed_credit=2.5)["speed_credit"], 2.5)
            with self.assertRaisesRegex(engine.SettingsError, "--speed-credit 2.5, not 4"):
                engine.grading_settings(results, None, None, [], speed_credit=4)
            with self.assertRaisesRegex(engine.SettingsError, "--speed-credit 2.5, not 0"):
                engine.grading_settings(results, None, None, [], speed_credit=0)
        with tempfile.TemporaryDirectory() as results:
            engine.write_json_atomically(os.path.join(results, engine.CONFIG_FILE),
                                         {"seed": 5, "exercises": ["21_tiled_sgemm"]})
            self.assertEqual(engine.grading_settings(results, None, None, [])["speed_credit"], 0)
            with self.assertRaises(engine.SettingsError):
                engine.grading_settings(results, None, None, [], speed_credit=3)


if __name__ == "__main__":
    unittest.main()
