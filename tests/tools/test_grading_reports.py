#!/usr/bin/env python3
"""Tests of the grading reports (tools/course_tools/grading/reports.py) on a synthetic class of three
students, whose result files are written here the way tools/course grade writes them:

    python3 tests/tools/test_grading_reports.py

alice: 03 graded with a failed hidden case, 04 graded, 05 skipped (no GPU).
bob:   03 build_failed with a long build log, 04 missing, 05 graded.
carol: 03 graded, 04 absent from her result file, 05 graded with a failed case whose
       output holds escape sequences, control characters and a lone surrogate.

Then the same class graded with --speed-credit (SpeedCredit): the credit in every report,
apart from the grade, proved on a gradebook that adds it to the total.
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
from course_tools.grading import reports  # noqa: E402

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
    "alice,4,5,,,19,05: skipped; NOT COMPLETE: a grading on a GPU grades the skipped exercises\n"
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
        self.assertTrue(alice.startswith("# alice: 9 / 19 so far (not completely graded)\n"))
        self.assertIn("## 05_reduction (reduction): - / 8, skipped", alice)
        self.assertIn("from alice.tar.gz,", alice)              # the submission's name, not the path
        self.assertNotIn("/class/", alice)
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

    def test_feedback_in_french_and_the_class_reports_in_english(self):
        # --feedback-lang fr (issue 41): the pages a student reads are French; the gradebook
        # and junit.xml, the instructor's, are the same bytes as an English grading's.
        english = {name: read(self.path(name), "rb") for name in ("gradebook.csv", "junit.xml")}
        reports.write_all(self.dir, self.results, EXERCISES, "fr")
        alice = read(self.path("feedback", "alice.md"))
        self.assertTrue(alice.startswith("# alice: 9 / 19 pour l'instant (notation incomplète)\n"), alice[:80])
        self.assertIn("## 05_reduction (reduction): - / 8, sauté", alice)
        self.assertIn("| cas | points | résultat | temps |", alice)
        self.assertIn("| hidden_size_from_seed (cas caché) | 0 / 2 | FAIL |", alice)
        self.assertIn("Sauté\u00a0:", alice)
        self.assertNotIn("Skipped:", alice)
        self.assertIn('<html lang="fr">', read(self.path("feedback", "alice.html")))
        bob = read(self.path("feedback", "bob.md"))
        self.assertIn("## 03_device_memory (device memory): 0 / 6, échec de la compilation", bob)
        gradescope = json.loads(read(self.path("gradescope", "alice", "results.json")))
        self.assertIn("05_reduction\u00a0: pas encore noté (sauté)", [test["name"] for test in gradescope["tests"]])
        self.assertTrue(gradescope["output"].startswith("INCOMPLET\u00a0:"), gradescope["output"][:40])
        classroom = json.loads(read(self.path("classroom", "bob.json")))
        self.assertIn("03_device_memory\u00a0: échec de la compilation", [test["name"] for test in classroom["tests"]])
        self.assertEqual(classroom["status"], "fail")                      # the reporter's word
        for name, content in english.items():
            self.assertEqual(read(self.path(name), "rb"), content, name)

    def test_feedback_html_is_escaped_and_self_contained(self):
        page = read(self.path("feedback", "alice.html"))
        self.assertIn("<title>alice: 9 / 19 so far (not completely graded)</title>", page)
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
        self.assertNotIn("score", alice)                          # 05 not graded yet: no total
        self.assertTrue(alice["output"].startswith("NOT COMPLETE"))
        self.assertEqual((alice["visibility"], alice["stdout_visibility"]), ("visible", "hidden"))
        tests = {test["name"]: test for test in alice["tests"]}
        hidden = tests["03_device_memory: hidden_size_from_seed"]
        self.assertEqual((hidden["visibility"], hidden["status"], hidden["score"], hidden["max_score"]),
                         ("hidden", "failed", 0, 2))
        self.assertEqual(tests["03_device_memory: n_is_one"]["visibility"], "visible")
        self.assertEqual(set(tests["05_reduction: not graded yet (skipped)"]), {"name", "output", "visibility"})
        self.assertEqual(sum(test.get("score", 0) for test in alice["tests"]), 9)
        self.assertEqual(sum(test.get("max_score", 0) for test in alice["tests"]), 11)
        bob = json.loads(read(self.path("gradescope", "bob", "results.json")))
        self.assertEqual(bob["score"], 8)
        self.assertEqual(sum(test["max_score"] for test in bob["tests"]), 19)
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
                fields = {"name", "status", "score", "message", "test_code", "filename", "line_no"}
                if "not graded yet" in test["name"]:
                    fields.remove("score")                            # skipped: no score, not even 0
                self.assertEqual(set(test), fields)
                self.assertIn(test["status"], ("pass", "fail", "error"))
        alice = json.loads(read(self.path("classroom", "alice.json")))
        self.assertEqual(alice["status"], "error")                  # 05 skipped: not her doing
        self.assertEqual(sum(test.get("score", 0) for test in alice["tests"]), 9)
        hidden = [test for test in alice["tests"] if test["name"].endswith("hidden_size_from_seed")][0]
        self.assertEqual(hidden["status"], "fail")
        self.assertNotIn("elements wrong", hidden["message"])      # students read the reporter's log
        self.assertEqual(hidden["filename"], "exercises/03_device_memory/device_memory.cu")
        bob = json.loads(read(self.path("classroom", "bob.json")))
        self.assertEqual(bob["status"], "fail")

    def test_summary_table(self):
        table = reports.summary_table(self.results, EXERCISES).split("\n")
        self.assertEqual(table[0].split(), ["student", "03", "04", "05", "total"])
        self.assertEqual(table[1].split(), ["alice", "4", "5", "skipped", "9+?/19"])
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


# Names a class may hold: each must get every report, escaped for its format.
ODD_NAMES = ["say \"hi\"", "o'neil, <b>bold<i> & \"q\"", "semi;colon $(id)", "back`id`tick", "Hélène",
             "Jean-François N'Diaye", "-leading dash", "=1+2", "with space", "a *b* [c](d) #e",
             "é" * 100]   # 200 bytes of UTF-8


class Skipped(unittest.TestCase):
    """An exercise whose check could not run is never stored as 0 or as a failure."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name
        # dave: everything skipped (a --cpu-only grading); erin: complete.
        write_class(self.dir, [
            result("dave", [exercise("03_device_memory", "skipped", 6, message="no GPU"),
                            exercise("04_cpu_vs_gpu", "skipped", 5, message="no GPU")]),
            result("erin", [exercise("03_device_memory", "graded", 6, [item("a", 6, 6, True)]),
                            exercise("04_cpu_vs_gpu", "build_failed", 5)]),
        ])
        reports.write_all(self.dir, reports.load_results(self.dir), EXERCISES[:2])

    def tearDown(self):
        self.folder.cleanup()

    def test_the_gradebook_leaves_skipped_cells_and_the_total_empty(self):
        rows = list(csv.reader(io.StringIO(read(os.path.join(self.dir, "gradebook.csv")))))
        self.assertEqual(rows[1][:5], ["dave", "", "", "", "11"])
        self.assertIn("NOT COMPLETE", rows[1][5])
        self.assertEqual(rows[2], ["erin", "6", "0", "6", "11", "04: build_failed"])

    def test_gradescope_has_no_score_and_no_failure_for_skipped(self):
        dave = json.loads(read(os.path.join(self.dir, "gradescope", "dave", "results.json")))
        self.assertNotIn("score", dave)
        for test in dave["tests"]:
            self.assertNotIn("score", test)
            self.assertNotIn("status", test)
            self.assertIn("not graded yet", test["name"])
        erin = json.loads(read(os.path.join(self.dir, "gradescope", "erin", "results.json")))
        self.assertEqual(erin["score"], 6)

    def test_classroom_says_error_never_fail_and_stores_no_zero(self):
        dave = json.loads(read(os.path.join(self.dir, "classroom", "dave.json")))
        self.assertEqual(dave["status"], "error")
        for test in dave["tests"]:
            self.assertEqual(test["status"], "error")
            self.assertNotIn("score", test)

    def test_junit_and_feedback_say_skipped_not_failed(self):
        root = ElementTree.parse(os.path.join(self.dir, "junit.xml")).getroot()
        dave = [suite for suite in root.iter("testsuite") if suite.get("name") == "dave"][0]
        self.assertEqual((dave.get("failures"), dave.get("skipped")), ("0", "2"))
        page = read(os.path.join(self.dir, "feedback", "dave.md"))
        self.assertIn("## 03_device_memory (device memory): - / 6, skipped", page)
        self.assertIn("Not completely graded", page)


RACE_REPORT = ("FAIL: compute-sanitizer racecheck found errors:\n"
               "  ========= Error: Race reported between Read access at tiled_sgemm_kernel in tiled_sgemm.cu:97\n"
               "  =========     and Write access at tiled_sgemm_kernel in tiled_sgemm.cu:94\n"
               "hint: a shared-memory race: two threads of a block touch the same shared location")


class SanitizerItems(unittest.TestCase):
    """Exercise 21 graded with a race that only racecheck saw: its item carries the tool's
    report and hint into every report, and its points count in every total."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name
        write_class(self.dir, [result("fay", [exercise("21_tiled_sgemm", "graded", 46, [
            item("square", 40, 40, True),
            item("memcheck", 2, 2, True, kind="sanitizer", output="compute-sanitizer memcheck found no error"),
            item("racecheck", 0, 2, False, kind="sanitizer", output="square:\n" + RACE_REPORT),
            item("synccheck", 2, 2, True, kind="sanitizer", output="compute-sanitizer synccheck found nothing"),
        ])])])
        reports.write_all(self.dir, reports.load_results(self.dir), ["21_tiled_sgemm"])

    def tearDown(self):
        self.folder.cleanup()

    def test_the_feedback_shows_the_racecheck_item_and_its_report(self):
        page = read(os.path.join(self.dir, "feedback", "fay.md"))
        self.assertIn("## 21_tiled_sgemm (tiled sgemm): 44 / 46", page)
        self.assertIn("| racecheck (sanitizer) | 0 / 2 | FAIL |", page)
        self.assertIn("| synccheck (sanitizer) | 2 / 2 | PASS |", page)
        self.assertIn("tiled_sgemm.cu:94", page)
        self.assertIn("hint: a shared-memory race", page)

    def test_junit_gradescope_classroom_and_gradebook_carry_it(self):
        root = ElementTree.parse(os.path.join(self.dir, "junit.xml")).getroot()
        race = [case for case in root.iter("testcase") if case.get("name") == "racecheck"][0]
        self.assertIn("tiled_sgemm.cu:97", race.find("failure").text)
        tests = {test["name"]: test for test in json.loads(read(os.path.join(self.dir, "gradescope", "fay",
                                                                              "results.json")))["tests"]}
        racecheck = tests["21_tiled_sgemm: racecheck"]
        self.assertEqual((racecheck["score"], racecheck["max_score"], racecheck["status"]), (0, 2, "failed"))
        self.assertIn("hint: a shared-memory race", racecheck["output"])
        classroom = json.loads(read(os.path.join(self.dir, "classroom", "fay.json")))
        self.assertEqual(classroom["max_score"], 46)
        rows = list(csv.reader(io.StringIO(read(os.path.join(self.dir, "gradebook.csv")))))
        self.assertEqual(rows[1][:4], ["fay", "44", "44", "46"])


class Names(unittest.TestCase):
    """Student names are data: every report is written and escaped for its format."""

    def test_odd_names_get_every_report_escaped(self):
        with tempfile.TemporaryDirectory() as folder:
            write_class(folder, [result(name, [exercise("03_device_memory", "graded", 6, [item("a", 6, 6, True)])])
                                 for name in ODD_NAMES])
            written = reports.write_all(folder, reports.load_results(folder), EXERCISES[:1])
            self.assertEqual(len(written), 2 + 5 * len(ODD_NAMES))
            rows = list(csv.reader(io.StringIO(read(os.path.join(folder, "gradebook.csv")))))
            shown = {row[0] for row in rows[1:]}
            self.assertIn("'-leading dash", shown)            # never a spreadsheet formula
            self.assertIn("'=1+2", shown)
            self.assertIn("o'neil, <b>bold<i> & \"q\"", shown)
            page = read(os.path.join(folder, "feedback", "o'neil, <b>bold<i> & \"q\".html"))
            self.assertIn("<h1>o&#x27;neil, &lt;b&gt;bold&lt;i&gt; &amp; &quot;q&quot;: 6 / 6</h1>", page)
            markdown = read(os.path.join(folder, "feedback", "o'neil, <b>bold<i> & \"q\".md"))
            self.assertTrue(markdown.startswith("# o'neil, \\<b\\>bold\\<i\\> \\& \"q\": 6 / 6\n"), markdown)
            markdown = read(os.path.join(folder, "feedback", "a *b* [c](d) #e.md"))
            self.assertTrue(markdown.startswith("# a \\*b\\* \\[c\\](d) \\#e: 6 / 6\n"), markdown)
            root = ElementTree.parse(os.path.join(folder, "junit.xml")).getroot()
            self.assertEqual(sorted(suite.get("name") for suite in root.iter("testsuite")), sorted(ODD_NAMES))
            for name in ODD_NAMES:
                self.assertEqual(json.loads(read(os.path.join(folder, "gradescope", name, "results.json")))["score"], 6)

    def test_names_that_cannot_name_a_file_are_told_apart(self):
        for name in ODD_NAMES:
            self.assertIsNone(reports.name_problem(name), name)
        for name, reason in (("a\nb", "control character"), ("a\tb", "control character"),
                             ("a\u2028b", "control character"), ("a/b", "'/'"), ("a\\b", "'/'"),
                             (".hidden", "dot"), ("", "empty"), ("é" * 111, "222 bytes"),
                             ("bad\udcff", "UTF-8")):
            self.assertIn(reason, reports.name_problem(name) or "", repr(name))


class Repairs(unittest.TestCase):
    def test_an_exercise_recorded_twice_by_an_older_grader_is_repaired_with_a_note(self):
        with tempfile.TemporaryDirectory() as folder:
            twice = copy.deepcopy(CLASS[1])
            twice["exercises"].append(copy.deepcopy(twice["exercises"][0]))
            write_class(folder, [CLASS[0], twice])
            notes = []
            loaded = reports.load_results(folder, notes)
            self.assertEqual([len(entry["exercises"]) for entry in loaded], [3, 3])
            self.assertEqual(len(notes), 1)
            self.assertIn("bob.json: exercise 03_device_memory was recorded more than once", notes[0])
            reports.write_all(folder, loaded, EXERCISES + ["03_device_memory"])
            self.assertEqual(read(os.path.join(folder, "gradebook.csv")).splitlines()[0],
                             "student,03_device_memory,04_cpu_vs_gpu,05_reduction,total,max_total,status")

    def test_an_unreadable_submission_is_named_in_the_gradebook(self):
        found = reports.submissions([result("dave", [
            exercise("03_device_memory", "unreadable", 6, message="dave.tar.gz: not a readable archive (not a gzip file)"),
            exercise("04_cpu_vs_gpu", "unreadable", 5, message="dave.tar.gz: not a readable archive (not a gzip file)"),
        ])], EXERCISES[:2])
        self.assertEqual(reports.gradebook_status(found[0]),
                         "unreadable: dave.tar.gz: not a readable archive (not a gzip file)")
        self.assertEqual(reports.summary_table([found[0].result], EXERCISES[:2]).split("\n")[1].split(),
                         ["dave", "unread", "unread", "0/11"])


# The speed credit of a grading with --speed-credit 5 (speed_credit.py writes these): dan's 21
# earned 2.5 of a bar's 5 and all of the other's; erin was graded on another GPU than the site
# bars' (both exercises say why, her page once); fay's 05 is skipped, her credit not final.
NO_CALIBRATION = "speed credit needs make calibrate on this GPU (graded on NVIDIA H200, the site bars were measured on NVIDIA L4)"


def timed_21(credit_of_final=None, gpu_name="NVIDIA L4"):
    final = item("final", 4, 4, True)
    final["speed"] = [{"figure": "share of cuBLAS", "direction": "at_least", "bar": 0.45, "measured": 0.3,
                       "reference": "0.60-0.62 on H100"}]
    if credit_of_final is not None:
        final["speed"][0].update(site_reference=0.6, credit=credit_of_final)
    record = exercise("21_tiled_sgemm", "graded", 10, [item("correct", 6, 6, True), final])
    record["gpu"] = gpu_name
    return record


def with_credit(entry, score, max_score, note="", exercise_credits=()):
    entry["speed_credit"] = {"points_per_bar": 5, "score": score, "max_score": max_score, "note": note}
    for record, credit in zip(entry["exercises"], exercise_credits):
        record["speed_credit"] = credit
    return entry


CREDITED = [
    with_credit(result("dan", [timed_21(2.5), exercise("05_reduction", "graded", 8, [item("sum", 8, 8, True)])]),
                7.5, 10, exercise_credits=[{"score": 7.5, "max_score": 10, "note": ""},
                                           {"score": 0, "max_score": 0, "note": ""}]),
    with_credit(result("erin", [timed_21(gpu_name="NVIDIA H200"), exercise("05_reduction", "graded", 8, [item("sum", 8, 8, True)])]),
                0, 0, note=NO_CALIBRATION, exercise_credits=[{"score": 0, "max_score": 0, "note": NO_CALIBRATION}] * 2),
    with_credit(result("fay", [timed_21(5), exercise("05_reduction", "skipped", 8, message="no GPU")]), 10, 10),
]
CREDITED_EXERCISES = ["21_tiled_sgemm", "05_reduction"]


def credit_apart_problems(gradebook_text, expected):
    """How a gradebook breaks the credit's rules: {student: (total, speed_credit, speed_credit_max)}
    expected, the total the grade alone, the credit in its own columns."""
    rows = list(csv.DictReader(io.StringIO(gradebook_text)))
    problems = []
    for row in rows:
        got = (row["total"], row.get("speed_credit"), row.get("speed_credit_max"))
        if got != expected[row["student"]]:
            problems.append(f"{row['student']}: {got}, not {expected[row['student']]}")
    return problems


class SpeedCredit(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name
        write_class(self.dir, copy.deepcopy(CREDITED))
        self.found = reports.submissions(reports.load_results(self.dir), CREDITED_EXERCISES)
        reports.write_all(self.dir, reports.load_results(self.dir), CREDITED_EXERCISES)

    def tearDown(self):
        self.folder.cleanup()

    def read(self, *parts, mode="r"):
        return read(os.path.join(self.dir, *parts), mode)

    EXPECTED = {"dan": ("18", "7.5", "10"), "erin": ("18", "0", "0"), "fay": ("", "", "")}

    def test_the_gradebook_has_the_credit_apart_from_the_total(self):
        gradebook = self.read("gradebook.csv")
        self.assertEqual(gradebook.splitlines()[0],
                         "student,21_tiled_sgemm,05_reduction,total,max_total,status,speed_credit,speed_credit_max")
        self.assertEqual(credit_apart_problems(gradebook, self.EXPECTED), [])

    def test_the_rule_catches_a_credit_added_to_the_total(self):
        wrong = self.read("gradebook.csv").replace("dan,10,8,18,", "dan,10,8,25.5,")
        self.assertEqual(len(credit_apart_problems(wrong, self.EXPECTED)), 1)

    def test_a_grading_without_credit_keeps_its_gradebook(self):
        plain = copy.deepcopy(CREDITED)
        for entry in plain:
            del entry["speed_credit"]
        self.assertNotIn("speed_credit", reports.gradebook(reports.submissions(plain, CREDITED_EXERCISES),
                                                           CREDITED_EXERCISES))

    def test_the_feedback_page_shows_it_apart_and_the_reason_once(self):
        dan = self.read("feedback", "dan.md")
        self.assertTrue(dan.startswith("# dan: 18 / 18\n"), dan[:40])
        self.assertIn("Speed credit, apart from the grade: 7.5 of 10 bonus points (up to 5 per speed bar, in "
                      "proportion to your figure over the reference solution's on NVIDIA L4).", dan)
        self.assertIn("### Speed credit: 7.5 of 10 bonus points, apart from the grade", dan)
        self.assertIn("| final | share of cuBLAS | 0.3 | 0.6 | 2.5 |", dan)
        self.assertIn("Speed credit, apart from the grade: 7.5 of 10", self.read("feedback", "dan.html"))
        erin = self.read("feedback", "erin.md")
        self.assertEqual(erin.count("it needs the speed bars calibrated on the grading GPU"), 1)
        self.assertNotIn("| final | share of cuBLAS", erin)

    def test_the_french_page_says_it_in_french(self):
        erin = next(submission for submission in self.found if submission.student == "erin")
        page = reports.render_markdown(reports.feedback_blocks(erin, "fr"))
        self.assertIn("Bonus de vitesse, hors note\xa0: aucun", page)  # the page's typography: a no-break space
        self.assertNotIn("speed credit needs", page)

    def test_gradescope_keeps_the_grade_as_the_score_and_stores_the_credit(self):
        dan = json.loads(self.read("gradescope", "dan", "results.json"))
        self.assertEqual(dan["score"], 18)
        self.assertEqual(dan["extra_data"], {"speed_credit": 7.5, "speed_credit_max": 10})
        self.assertIn("Speed credit, apart from the grade: 7.5 of 10", dan["output"])
        self.assertEqual(sum(test.get("score", 0) for test in dan["tests"]), 18)
        fay = json.loads(self.read("gradescope", "fay", "results.json"))
        self.assertNotIn("extra_data", fay)  # not complete: neither a score nor a credit yet

    def test_classroom_and_junit_count_the_grade_alone(self):
        classroom = json.loads(self.read("classroom", "dan.json"))
        self.assertEqual(sum(test["score"] for test in classroom["tests"]), 18)
        self.assertNotIn("credit", json.dumps(classroom).lower())
        suites = {suite.get("name"): suite for suite in ElementTree.fromstring(self.read("junit.xml", mode="rb"))}
        properties = {p.get("name"): p.get("value") for p in suites["dan"].iter("property")}
        self.assertEqual(properties, {"speed_credit": "7.5", "speed_credit_max": "10"})
        self.assertEqual(suites["dan"].get("failures"), "0")

    def test_a_broken_credit_is_refused(self):
        broken = copy.deepcopy(CREDITED)
        broken[0]["speed_credit"] = {"score": "lots"}
        write_class(self.dir, broken)
        with self.assertRaisesRegex(reports.ReportError, "speed_credit: 'score' is not a number"):
            reports.load_results(self.dir)


if __name__ == "__main__":
    unittest.main(verbosity=2)
