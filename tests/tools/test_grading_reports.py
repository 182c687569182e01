#!/usr/bin/env python3
"""Tests of the grading reports (tools/grading/reports.py) on a synthetic class of three
students, whose result files are written here the way tools/grade.py writes them:

    python3 tests/tools/test_grading_reports.py

alice: 03 graded with a failed hidden case, 04 graded, 05 skipped (no GPU).
bob:   03 build_failed with a long build log, 04 missing, 05 graded.
carol: 03 graded, 04 absent from her result file, 05 graded with a failed case whose
       output holds escape sequences, control characters and a lone surrogate.
"""
import base64
import copy
import csv
import io
import json
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from grading import reports  # noqa: E402

EXERCISES = ["03_device_memory", "04_cpu_vs_gpu", "05_reduction"]
NASTY = "\x1b[31mwrong\x1b[0m value\x00\x01\x0b\x1f <tag> & \"q\" \ud800 end"


def item(name, score, max_score, passed, hidden=False, output="", kind="case", seconds=0.5):
    return {"name": name, "kind": kind, "score": score, "max_score": max_score, "passed": passed,
            "hidden": hidden, "seconds": seconds, "output": output}


def exercise(exercise_id, status, max_score, items=(), message="", build_log="", seconds=3.0):
    number, name = exercise_id.split("_", 1)
    return {"number": number, "id": exercise_id, "title": name.replace("_", " "), "status": status,
            "score": sum(entry["score"] for entry in items) if status == "graded" else 0,
            "max_score": max_score, "seconds": seconds,
            "files": {f"{name}.cu": f"exercises/{exercise_id}/{name}.cu"},
            "message": message, "build_log": build_log, "items": list(items)}


def result(student, exercises, warnings=(), seconds=41.2, graded_at="2026-11-22T00:10:00Z"):
    return {"schema": 1, "student": student, "source": f"/class/{student}.tar.gz", "seed": 1234567,
            "graded_at": graded_at, "seconds": seconds,
            "score": sum(entry["score"] for entry in exercises),
            "max_score": sum(entry["max_score"] for entry in exercises),
            "warnings": list(warnings), "exercises": exercises}


BUILD_LOG = "\n".join(f"device_memory.cu:{line}: error: expected ';'" for line in range(1, 251))

CLASS = [
    result("alice", [
        exercise("03_device_memory", "graded", 6, [
            item("n_is_one", 2, 2, True),
            item("hidden_size_from_seed", 0, 2, False, hidden=True, output="y: 3 of 1000 elements wrong\nhint: <i>"),
            item("memcheck", 2, 2, True, kind="sanitizer"),
        ]),
        exercise("04_cpu_vs_gpu", "graded", 5, [item("timing", 5, 5, True)]),
        exercise("05_reduction", "skipped", 8, message="no GPU on this machine"),
    ], warnings=["exercises/03_device_memory/check.cpp differs from the course's copy: ignored"]),
    result("bob", [
        exercise("03_device_memory", "build_failed", 6, build_log=BUILD_LOG),
        exercise("04_cpu_vs_gpu", "missing", 5),
        exercise("05_reduction", "graded", 8, [item("sum", 8, 8, True)]),
    ]),
    result("carol", [
        exercise("03_device_memory", "graded", 6, [item("n_is_one", 2, 2, True), item("big", 4, 4, True)]),
        exercise("05_reduction", "graded", 8, [item("small", 3, 3, True), item("large", 0, 5, False, output=NASTY)]),
    ]),
]

GRADEBOOK = (
    "student,03_device_memory,04_cpu_vs_gpu,05_reduction,total,max_total,status\n"
    "alice,4,5,0,9,19,05: skipped\n"
    "bob,0,0,8,8,19,03: build_failed; 04: missing\n"
    "carol,6,0,3,9,19,04: missing\n"
)


def write_class(results_dir, results=CLASS):
    folder = os.path.join(results_dir, "submissions")
    os.makedirs(folder, exist_ok=True)
    for entry in results:
        with open(os.path.join(folder, f"{entry['student']}.json"), "w", encoding="utf-8") as handle:
            json.dump(entry, handle, indent=2)


def read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
        return handle.read()


class ClassReports(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name
        write_class(self.dir)
        self.results = reports.load_results(self.dir)
        self.written = reports.write_all(self.dir, self.results, EXERCISES)

    def tearDown(self):
        self.folder.cleanup()

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def test_results_are_sorted_by_student(self):
        self.assertEqual([entry["student"] for entry in self.results], ["alice", "bob", "carol"])

    def test_every_report_is_written_and_returned(self):
        expected = ["gradebook.csv", "junit.xml"]
        for student in ("alice", "bob", "carol"):
            expected += [f"feedback/{student}.md", f"feedback/{student}.html",
                         f"gradescope/{student}/results.json", f"classroom/{student}.json", f"classroom/{student}.b64"]
        self.assertEqual(sorted(os.path.relpath(path, self.dir) for path in self.written), sorted(expected))
        for path in self.written:
            self.assertTrue(os.path.isfile(path), path)

    def test_no_temporary_file_is_left_behind(self):
        for folder, _, names in os.walk(self.dir):
            self.assertEqual([name for name in names if name.endswith(".tmp")], [], folder)

    def test_gradebook_content_is_exact(self):
        self.assertEqual(read(self.path("gradebook.csv"), "rb"), GRADEBOOK.encode("utf-8"))
        rows = list(csv.DictReader(io.StringIO(GRADEBOOK)))
        self.assertEqual(rows[1]["status"], "03: build_failed; 04: missing")

    def test_gradebook_is_byte_identical_across_gradings_that_differ_only_in_timings(self):
        first = read(self.path("gradebook.csv"), "rb")
        firsts = {name: read(self.path(*name.split("/")), "rb")
                  for name in ("gradescope/alice/results.json", "classroom/carol.json", "classroom/carol.b64")}
        retimed = copy.deepcopy(CLASS)
        for entry in retimed:
            entry["seconds"] *= 3
            entry["graded_at"] = "2027-01-01T00:00:00Z"
            for part in entry["exercises"]:
                part["seconds"] += 1
                for case in part["items"]:
                    case["seconds"] += 0.25
        with tempfile.TemporaryDirectory() as other:
            write_class(other, reversed(retimed))
            reports.write_all(other, reports.load_results(other), EXERCISES)
            self.assertEqual(read(os.path.join(other, "gradebook.csv"), "rb"), first)
            for name, content in firsts.items():
                self.assertEqual(read(os.path.join(other, *name.split("/")), "rb"), content, name)
            # Rendering twice in the same place changes nothing either.
            reports.write_all(other, reports.load_results(other), EXERCISES)
            self.assertEqual(read(os.path.join(other, "gradebook.csv"), "rb"), first)

    def test_feedback_shows_hidden_cases_build_logs_and_warnings(self):
        alice = read(self.path("feedback", "alice.md"))
        self.assertTrue(alice.startswith("# alice: 9 / 19\n"))
        self.assertLess(alice.index("## Warnings"), alice.index("## 03_device_memory"))
        self.assertIn("check.cpp differs from the course's copy: ignored", alice)
        self.assertIn("| hidden_size_from_seed (hidden case) | 0 / 2 | FAIL |", alice)
        self.assertIn("| memcheck (sanitizer) | 2 / 2 | PASS |", alice)
        self.assertIn("### hidden_size_from_seed (hidden case): output\n\n```\ny: 3 of 1000 elements wrong", alice)
        self.assertIn("Skipped:", alice)
        self.assertIn("no GPU on this machine", alice)
        bob = read(self.path("feedback", "bob.md"))
        self.assertIn("## 03_device_memory (device memory): 0 / 6, build_failed", bob)
        self.assertIn("device_memory.cu:200: error", bob)
        self.assertNotIn("device_memory.cu:201: error", bob)
        self.assertIn("50 more lines not shown", bob)
        carol = read(self.path("feedback", "carol.md"))
        self.assertIn("## 04_cpu_vs_gpu: 0 / 5, missing", carol)

    def test_feedback_html_is_escaped_and_self_contained(self):
        page = read(self.path("feedback", "alice.html"))
        self.assertIn("<title>alice: 9 / 19</title>", page)
        self.assertIn("hint: &lt;i&gt;", page)
        self.assertNotIn("<i>", page)
        self.assertIn("hidden_size_from_seed (hidden case)", page)
        for external in ("<script", "<link", "src=", "href=", "http"):
            self.assertNotIn(external, page)
        carol = read(self.path("feedback", "carol.html"))
        self.assertIn("&lt;tag&gt; &amp; &quot;q&quot;", carol)
        self.assertNotIn("\x1b", carol)

    def test_junit_parses_and_has_a_suite_per_student(self):
        root = ElementTree.parse(self.path("junit.xml")).getroot()
        suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
        self.assertEqual(list(suites), ["alice", "bob", "carol"])
        alice = suites["alice"]
        hidden = [case for case in alice.iter("testcase") if case.get("name") == "hidden_size_from_seed"][0]
        self.assertEqual(hidden.get("classname"), "alice.03_device_memory")
        self.assertEqual(hidden.find("failure").get("message"), "y: 3 of 1000 elements wrong")
        skipped = [case for case in alice.iter("testcase") if case.get("name") == "05_reduction"][0]
        self.assertIsNotNone(skipped.find("skipped"))
        self.assertEqual((alice.get("tests"), alice.get("failures"), alice.get("skipped")), ("5", "1", "1"))
        bob_failures = {case.get("name"): case.find("failure") for case in suites["bob"].iter("testcase")}
        self.assertEqual(bob_failures["03_device_memory"].get("type"), "build_failed")
        self.assertIn("device_memory.cu:1: error", bob_failures["03_device_memory"].text)
        self.assertEqual(bob_failures["04_cpu_vs_gpu"].get("type"), "missing")
        self.assertIsNone(bob_failures["sum"])
        carol_missing = [case for case in suites["carol"].iter("testcase") if case.get("name") == "04_cpu_vs_gpu"][0]
        self.assertEqual(carol_missing.find("failure").get("type"), "missing")
        self.assertEqual(root.get("tests"), "13")

    def test_junit_survives_control_characters(self):
        root = ElementTree.parse(self.path("junit.xml")).getroot()
        large = [case for case in root.iter("testcase") if case.get("name") == "large"][0]
        text = large.find("failure").text
        self.assertIn("wrong value", text)
        self.assertIn("<tag> & \"q\"", text)
        for forbidden in ("\x1b", "\x00", "\x01", "\x0b", "\x1f", "\ud800"):
            self.assertNotIn(forbidden, text)
        self.assertIn("\ufffd", text)

    def test_gradescope_hides_hidden_cases_only(self):
        alice = json.loads(read(self.path("gradescope", "alice", "results.json")))
        self.assertEqual(alice["score"], 9)
        self.assertEqual((alice["visibility"], alice["stdout_visibility"]), ("visible", "hidden"))
        tests = {test["name"]: test for test in alice["tests"]}
        hidden = tests["03_device_memory: hidden_size_from_seed"]
        self.assertEqual((hidden["visibility"], hidden["status"], hidden["score"], hidden["max_score"]),
                         ("hidden", "failed", 0, 2))
        self.assertEqual(tests["03_device_memory: n_is_one"]["visibility"], "visible")
        self.assertEqual(tests["05_reduction: skipped"]["max_score"], 8)
        self.assertEqual(sum(test["score"] for test in alice["tests"]), alice["score"])
        self.assertEqual(sum(test["max_score"] for test in alice["tests"]), 19)
        self.assertNotIn("elements wrong", alice["output"])
        for test in alice["tests"]:
            self.assertTrue(set(test) <= {"name", "score", "max_score", "status", "output", "visibility"}, test)
        carol = json.loads(read(self.path("gradescope", "carol", "results.json")))
        self.assertEqual([test["name"] for test in carol["tests"]][2], "04_cpu_vs_gpu: missing")

    def test_classroom_result_and_its_base64_form(self):
        for student in ("alice", "bob", "carol"):
            plain = json.loads(read(self.path("classroom", f"{student}.json")))
            decoded = json.loads(base64.b64decode(read(self.path("classroom", f"{student}.b64"))))
            self.assertEqual(plain, decoded)
            self.assertEqual(plain["version"], 1)
            self.assertEqual(plain["max_score"], 19)
            for test in plain["tests"]:
                self.assertEqual(set(test), {"name", "status", "score", "message", "test_code", "filename", "line_no"})
                self.assertIn(test["status"], ("pass", "fail", "error"))
        alice = json.loads(read(self.path("classroom", "alice.json")))
        self.assertEqual(alice["status"], "error")                  # 05 skipped: not her doing
        self.assertEqual(sum(test["score"] for test in alice["tests"]), 9)
        hidden = [test for test in alice["tests"] if test["name"].endswith("hidden_size_from_seed")][0]
        self.assertEqual(hidden["status"], "fail")
        self.assertNotIn("elements wrong", hidden["message"])      # students read the reporter's log
        self.assertEqual(hidden["filename"], "exercises/03_device_memory/device_memory.cu")
        bob = json.loads(read(self.path("classroom", "bob.json")))
        self.assertEqual(bob["status"], "fail")

    def test_summary_table(self):
        table = reports.summary_table(self.results, EXERCISES).split("\n")
        self.assertEqual(table[0].split(), ["student", "03", "04", "05", "total"])
        self.assertEqual(table[1].split(), ["alice", "4", "5", "skipped", "9/19"])
        self.assertEqual(table[2].split(), ["bob", "build", "missing", "8", "8/19"])
        self.assertEqual(table[3].split(), ["carol", "6", "missing", "3", "9/19"])
        self.assertEqual(len({len(line) for line in table[:4]}), 1)


class BadResults(unittest.TestCase):
    def check_rejected(self, text, pattern):
        with tempfile.TemporaryDirectory() as folder:
            write_class(folder)
            path = os.path.join(folder, "submissions", "bob.json")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            with self.assertRaises(reports.ReportError) as caught:
                reports.load_results(folder)
            self.assertIn(path, str(caught.exception))
            self.assertRegex(str(caught.exception), pattern)

    def test_a_malformed_file_is_an_error_naming_it(self):
        self.check_rejected("{\"schema\": 1, \"student\": \"bob\", ", "not a readable result file")

    def test_a_missing_field_is_an_error_naming_it(self):
        broken = copy.deepcopy(CLASS[1])
        del broken["exercises"][2]["items"][0]["passed"]
        self.check_rejected(json.dumps(broken), r"exercises\[2\]: items\[0\]: 'passed' is missing")

    def test_an_unknown_status_is_an_error(self):
        broken = copy.deepcopy(CLASS[1])
        broken["exercises"][0]["status"] = "exploded"
        self.check_rejected(json.dumps(broken), "status 'exploded' is not one of")

    def test_a_score_that_is_not_the_sum_of_its_items_is_an_error(self):
        broken = copy.deepcopy(CLASS[1])
        broken["exercises"][2]["score"] = 7
        self.check_rejected(json.dumps(broken), "not the sum of its items")

    def test_a_student_name_unlike_the_file_name_is_an_error(self):
        broken = copy.deepcopy(CLASS[1])
        broken["student"] = "../bob"
        self.check_rejected(json.dumps(broken), "cannot name a report file")
        broken["student"] = "robert"
        self.check_rejected(json.dumps(broken), "the file is named bob.json")

    def test_another_schema_is_an_error(self):
        broken = dict(CLASS[1], schema=2)
        self.check_rejected(json.dumps(broken), "schema 2 is not 1")

    def test_a_missing_submissions_folder_is_an_error(self):
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaisesRegex(reports.ReportError, "cannot read .*submissions"):
                reports.load_results(folder)

    def test_leftover_temporary_files_are_not_results(self):
        with tempfile.TemporaryDirectory() as folder:
            write_class(folder)
            with open(os.path.join(folder, "submissions", ".dave.json.123.tmp"), "w") as handle:
                handle.write("{")
            with open(os.path.join(folder, "submissions", ".dave.json"), "w") as handle:
                handle.write("{")
            self.assertEqual(len(reports.load_results(folder)), 3)


class Details(unittest.TestCase):
    def test_an_exercise_outside_the_configuration_is_named_not_counted(self):
        found = reports.submissions([CLASS[0]], ["03_device_memory"])
        self.assertEqual((found[0].score, found[0].max_score), (4, 6))
        self.assertEqual(reports.gradebook_status(found[0]),
                         "04: not in the grading configuration; 05: not in the grading configuration")

    def test_without_a_configuration_every_exercise_is_a_column(self):
        self.assertEqual(reports.columns_of(CLASS, None), EXERCISES)

    def test_a_code_block_cannot_be_closed_by_the_output(self):
        text = reports.render_markdown([("code", "a\n```\nb")])
        self.assertTrue(text.startswith("````\n"))

    def test_float_points_are_tidy(self):
        self.assertEqual(reports.points(0.1 + 0.2), "0.3")
        self.assertEqual(reports.points(4.0), "4")


if __name__ == "__main__":
    unittest.main(verbosity=2)
