#!/usr/bin/env python3
"""Tests of the catalog of hostile submissions (tests/grading/run_catalog.py): the
edits format, the materialisation of each layout, the comparison of results with
expectations, and every entry of the catalog materialising without error. No GPU and
no grader needed: results are synthetic.

    python3 tests/tools/test_catalog.py
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest
from contextlib import redirect_stderr, redirect_stdout

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "grading"))
import run_catalog as catalog  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import exercises as course_exercises  # noqa: E402

REQUIRED_ENTRIES = (
    "compile_error", "host_infinite_loop", "kernel_infinite_loop", "kernel_runs_past_time_limit",
    "host_segfault", "device_out_of_bounds_write", "fork_bomb", "gigabyte_of_output", "exit_zero",
    "underscore_exit_zero", "forged_success_line", "static_constructor_forgery", "modified_check",
    "modified_common", "modified_cmake", "reads_reference_solution", "writes_outside_its_folder",
    "deletes_files", "only_some_exercises", "wrong_letter_case", "cpu_instead_of_gpu",
    "complete_correct_repository", "correct_in_tarball", "correct_in_git",
    "correct_flat_files", "empty_submission", "exercise_found_twice")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


class Edits(unittest.TestCase):
    SOURCE = "int a = 1;\nint b = 2;\nint c = 3;\n"

    def apply(self, edits, source=SOURCE):
        return catalog.apply_edits(source, catalog.parse_edits(edits, "e.edits"), "e.edits", "x.cu")

    def test_blocks_apply_in_order_and_comments_are_ignored(self):
        edits = ("# a comment, and text outside blocks\n"
                 "@@ find\nint a = 1;\n@@ replace\nint a = 10;\n@@ end\n"
                 "@@ find\nint a = 10;\nint b = 2;\n@@ replace\nint ab = 12;\n@@ end\n")
        self.assertEqual(self.apply(edits), "int ab = 12;\nint c = 3;\n")

    def test_an_empty_replacement_deletes(self):
        self.assertEqual(self.apply("@@ find\nint b = 2;\n@@ replace\n@@ end\n"), "int a = 1;\nint c = 3;\n")

    def test_the_same_as_mutants_cmake_on_a_real_mutant(self):
        with open(os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu"), encoding="utf-8") as h:
            solution = h.read()
        with open(os.path.join(ROOT, "tests", "mutants", "03_device_memory", "no_bounds_check.mutant"),
                  encoding="utf-8") as h:
            mutant = h.read()
        edited = self.apply(mutant, solution)
        self.assertNotIn("if (i < n)", edited)
        self.assertIn("  y[i] = scale * x[i] + offset;\n", edited)

    def test_a_missing_text_names_the_entry_and_the_text(self):
        with self.assertRaisesRegex(catalog.CatalogError, r"e\.edits: the text of block 1 is not in x\.cu:\nint z"):
            self.apply("@@ find\nint z = 0;\n@@ replace\n@@ end\n")

    def test_a_text_found_twice_is_an_error(self):
        with self.assertRaisesRegex(catalog.CatalogError, "occurs 2 times"):
            self.apply("@@ find\nx;\n@@ replace\ny;\n@@ end\n", "x;\nx;\n")

    def test_a_file_without_blocks_is_an_error(self):
        with self.assertRaisesRegex(catalog.CatalogError, "no '@@ find' block"):
            catalog.parse_edits("# only a comment\n", "e.edits")

    def test_blocks_out_of_order_are_an_error(self):
        with self.assertRaisesRegex(catalog.CatalogError, "in this order"):
            catalog.parse_edits("@@ find\nx\n@@ end\n", "e.edits")


class FakeCourse(unittest.TestCase):
    """A temporary course and catalog with one entry per test."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-catalog-")
        self.course = os.path.join(self.tmp, "course")
        write(os.path.join(self.course, "solutions", "03_x", "x.cu"), "int f() { return 42; }\n")
        write(os.path.join(self.course, "exercises", "03_x", "check.cpp"), "int main() { return 0; }\n")
        write(os.path.join(self.course, "exercises", "03_x", "x.cu"), "int f() { return 0; }\n")
        self.catalog_dir = os.path.join(self.tmp, "catalog")
        self.class_dir = os.path.join(self.tmp, "class")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def entry(self, name, data, edits=None, root=catalog.ROOT):
        folder = os.path.join(self.catalog_dir, name)
        data = {"description": "test entry", "expect": {}, **data}
        write(os.path.join(folder, "entry.json"), json.dumps(data))
        for file_name, text in (edits or {}).items():
            write(os.path.join(folder, file_name), text)
        return catalog.load_entry(folder, root=root)

    def materialise(self, entry):
        return catalog.materialise_entry(entry, self.class_dir, root=self.course)


FILES = {
    "exercises/03_x/x.cu": {"from": "solutions/03_x/x.cu", "edits": "x.edits"},
    "exercises/03_x/check.cpp": {"from": "exercises/03_x/check.cpp"},
    "README.md": {"text": "hello\n"},
    "exercises/03_x/link.cu": {"symlink": "/etc/passwd"},
}
EDITS = {"x.edits": "# the answer, off by one\n@@ find\nint f() { return 42; }\n@@ replace\nint f() { return 41; }\n@@ end\n"}


class Materialisation(FakeCourse):
    def test_repository_layout_writes_every_kind_of_file(self):
        path = self.materialise(self.entry("alice", {"layout": "repository", "files": FILES}, EDITS))
        self.assertEqual(path, os.path.join(self.class_dir, "alice"))
        with open(os.path.join(path, "exercises", "03_x", "x.cu"), encoding="utf-8") as h:
            self.assertEqual(h.read(), "int f() { return 41; }\n")
        with open(os.path.join(path, "README.md"), encoding="utf-8") as h:
            self.assertEqual(h.read(), "hello\n")
        self.assertEqual(os.readlink(os.path.join(path, "exercises", "03_x", "link.cu")), "/etc/passwd")

    def test_flat_layout_puts_files_at_the_top(self):
        files = {"x.cu": {"from": "solutions/03_x/x.cu"}}
        path = self.materialise(self.entry("bob", {"layout": "flat", "files": files}))
        self.assertEqual(os.listdir(path), ["x.cu"])

    def test_a_tree_copies_a_course_folder_and_named_files_replace_its_files(self):
        files = {"exercises": {"tree": "exercises"}, "exercises/03_x/x.cu": {"from": "solutions/03_x/x.cu"}}
        path = self.materialise(self.entry("carol", {"layout": "repository", "files": files}))
        self.assertEqual(sorted(os.listdir(os.path.join(path, "exercises", "03_x"))), ["check.cpp", "x.cu"])
        with open(os.path.join(path, "exercises", "03_x", "x.cu"), encoding="utf-8") as h:
            self.assertIn("42", h.read())

    def test_tar_gz_is_readable_with_its_prefix_links_and_escaping_names(self):
        files = {**FILES, "../../up": {"text": "x"}, "/tmp/absolute": {"text": "x"},
                 "esc": {"symlink": "/tmp"}, "esc/through": {"text": "x"}}
        entry = self.entry("dave", {"layout": "tar.gz", "archive_prefix": "top/", "files": files}, EDITS)
        path = self.materialise(entry)
        self.assertEqual(path, os.path.join(self.class_dir, "dave.tar.gz"))
        with tarfile.open(path, "r:gz") as archive:
            members = {m.name: m for m in archive.getmembers()}
            self.assertEqual(archive.extractfile(members["top/exercises/03_x/x.cu"]).read(),
                             b"int f() { return 41; }\n")
            self.assertTrue(members["top/exercises/03_x/link.cu"].issym())
            self.assertEqual(members["top/exercises/03_x/link.cu"].linkname, "/etc/passwd")
            for name in ("../../up", "/tmp/absolute", "top/esc/through"):
                self.assertIn(name, members)
        self.assertEqual(os.listdir(self.class_dir), ["dave.tar.gz"])  # nothing was extracted

    @unittest.skipIf(shutil.which("git") is None, "git is not installed")
    def test_git_layout_commits_everything(self):
        path = self.materialise(self.entry("erin", {"layout": "git", "files": FILES}, EDITS))
        log = subprocess.run(["git", "-C", path, "log", "--format=%s"], capture_output=True, text=True, check=True)
        self.assertEqual(log.stdout.strip(), "My solutions")
        listed = subprocess.run(["git", "-C", path, "ls-files"], capture_output=True, text=True, check=True)
        self.assertEqual(sorted(listed.stdout.split()), sorted(FILES))
        status = subprocess.run(["git", "-C", path, "status", "--porcelain"], capture_output=True, text=True,
                                check=True)
        self.assertEqual(status.stdout, "")

    def test_a_folder_layout_refuses_paths_outside_the_submission(self):
        for path in ("../x", "/tmp/x", "a/../../x"):
            with self.assertRaisesRegex(catalog.CatalogError, "entry frank: file .*only a tar.gz entry"):
                self.entry("frank", {"layout": "repository", "files": {path: {"text": "x"}}})
        with self.assertRaisesRegex(catalog.CatalogError, "through a link"):
            self.entry("frank", {"layout": "repository",
                                 "files": {"l": {"symlink": "/tmp"}, "l/x": {"text": "x"}}})

    def test_an_edit_that_does_not_apply_names_the_entry(self):
        entry = self.entry("gina", {"layout": "repository", "files": FILES},
                           {"x.edits": "@@ find\nreturn 7;\n@@ replace\n@@ end\n"})
        with self.assertRaisesRegex(catalog.CatalogError, r"entry gina: x\.edits: .* is not in solutions/03_x/x\.cu"):
            self.materialise(entry)

    def test_every_solution_and_every_exercise_follow_the_course(self):
        write(os.path.join(self.course, "exercises", "03_x", "CMakeLists.txt"),
              "course_exercise(NUMBER 03 NAME x STUDENT_FILES x.cu CHECK check.cpp POINTS 1)\n")
        full = {"exercises": {"every": {"status": "graded", "score": "full"},
                              "03": {"status": "missing"}}}
        nested = self.entry("ivan", {"layout": "repository", "expect": full, "files": {
            "exercises": {"tree": "exercises", "solutions": "every"}}}, root=self.course)
        self.assertEqual(nested.files, {"exercises": {"tree": "exercises"},
                                        "exercises/03_x/x.cu": {"from": "solutions/03_x/x.cu"}})
        self.assertEqual(nested.expect["exercises"], {"03": {"status": "missing"}})
        path = self.materialise(nested)
        with open(os.path.join(path, "exercises", "03_x", "x.cu"), encoding="utf-8") as h:
            self.assertIn("42", h.read())
        flat = self.entry("jane", {"layout": "flat", "files": {".": {"solutions": "every"}},
                                   "expect": {"exercises": {"every": {"status": "graded"}}}},
                          root=self.course)
        self.assertEqual(flat.files, {"x.cu": {"from": "solutions/03_x/x.cu"}})
        self.assertEqual(flat.expect["exercises"], {"03": {"status": "graded"}})
        chosen = self.entry("jill", {"layout": "repository", "files": {"exercises": {"solutions": ["03"]}}},
                            root=self.course)
        self.assertEqual(chosen.files, {"exercises/03_x/x.cu": {"from": "solutions/03_x/x.cu"}})
        for files, message in (({"common": {"solutions": "every"}}, "goes under"),
                               ({".": {"solutions": True}}, "a list of exercise numbers"),
                               ({".": {"solutions": []}}, "a list of exercise numbers"),
                               ({".": {"solutions": ["07"]}}, "no exercise numbered 07"),
                               ({"exercises": {"tree": "common", "solutions": "every"}}, "goes under")):
            with self.subTest(files=files):
                with self.assertRaisesRegex(catalog.CatalogError, message):
                    self.entry("kim", {"layout": "repository", "files": files}, root=self.course)

    def test_bad_entries_are_refused_with_a_clear_message(self):
        cases = [
            ({"layout": "zip", "files": FILES}, "'layout' must be one of"),
            ({"layout": "flat", "files": {}}, "'files' must map"),
            ({"layout": "flat", "files": {"x": {"text": "a", "from": "b"}}}, "exactly one of"),
            ({"layout": "flat", "files": {"x": {"text": "a", "edits": "x.edits"}}}, "'edits' applies"),
            ({"layout": "flat", "files": {"x": {"from": "a", "edits": "nope.edits"}}}, "no edits file"),
            ({"layout": "flat", "files": FILES, "expect": {"exercises": {"3": {"status": "graded"}}}}, "two digits"),
            ({"layout": "flat", "files": FILES, "expect": {"exercises": {"03": {"status": "great"}}}},
             "'status' must be"),
            ({"layout": "flat", "files": FILES, "expect": {"exercises": {"03": {"status": "graded", "score": "x"}}}},
             "expected a number"),
            ({"layout": "flat", "files": FILES, "expect": {"exercises": {"03": {"status": "graded", "items": []}}}},
             "'items' must map item names"),
            ({"layout": "flat", "files": FILES,
              "expect": {"exercises": {"03": {"status": "graded", "items": {"racecheck": {"points": 0}}}}}},
             "item racecheck: expected an object with keys among"),
            ({"layout": "flat", "files": FILES,
              "expect": {"exercises": {"03": {"status": "graded", "items": {"racecheck": {"passed": "no"}}}}}},
             "'passed' must be true or false"),
            ({"layout": "flat", "files": FILES,
              "expect": {"exercises": {"03": {"status": "graded", "items": {"racecheck": {"score": "x"}}}}}},
             "item racecheck: score: expected a number"),
            ({"layout": "flat", "files": FILES, "expect": {"warnings": []}}, "unknown expectation"),
            ({"layout": "flat", "files": FILES, "colour": "red"}, "unknown key"),
            ({"layout": "flat", "files": FILES, "description": " "}, "a description"),
        ]
        for data, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(catalog.CatalogError, message):
                    self.entry("hugo", data, EDITS)

    def test_unknown_entry_names_list_the_available_ones(self):
        self.entry("ivy", {"layout": "flat", "files": {"x": {"text": "x"}}})
        with self.assertRaisesRegex(catalog.CatalogError, r"no catalog entry named nope \(available: ivy\)"):
            catalog.load_catalog(["nope"], catalog=self.catalog_dir)

    def test_an_empty_folder_is_no_entry_but_a_folder_without_entry_json_is_an_error(self):
        self.entry("ivy", {"layout": "flat", "files": {"x": {"text": "x"}}})
        os.makedirs(os.path.join(self.catalog_dir, "renamed_since"))
        self.assertEqual([e.name for e in catalog.load_catalog(catalog=self.catalog_dir)], ["ivy"])
        write(os.path.join(self.catalog_dir, "lost", "entry.jsn"), "{}")
        with self.assertRaisesRegex(catalog.CatalogError, "without an entry.json: lost"):
            catalog.load_catalog(catalog=self.catalog_dir)


def exercise(number, status="graded", score=0, max_score=22, message="", build_log="", outputs=()):
    items = [{"name": f"case{i}", "kind": "case", "score": 0, "max_score": 2, "passed": False,
              "hidden": False, "seconds": 0.1, "output": text} for i, text in enumerate(outputs)]
    return {"number": number, "id": f"{number}_x", "status": status, "score": score,
            "max_score": max_score, "message": message, "build_log": build_log, "items": items}


class WithResults(FakeCourse):
    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.tmp, "results")

    def result(self, name, exercises, warnings=(), extra=None):
        data = {"schema": 1, "student": name, "score": 0, "max_score": 0, "warnings": list(warnings),
                "exercises": exercises, **(extra or {})}
        write(os.path.join(self.results, "submissions", f"{name}.json"), json.dumps(data))


class Comparison(WithResults):
    def compare(self, expect, context=None):
        entry = self.entry("kim", {"layout": "flat", "files": {"x": {"text": "x"}}, "expect": expect})
        return catalog.compare_entry(entry, context or catalog.Context(self.results, found_files={}))

    def test_a_result_that_meets_everything_passes(self):
        self.result("kim", [exercise("03", score=0, outputs=["hint: never call exit()"]),
                            exercise("01", status="missing")], warnings=["x/check.cpp: differs: ignored"])
        outcome = self.compare({"exercises": {"03": {"status": "graded", "score": 0,
                                                     "output_contains": ["never call exit()"],
                                                     "output_lacks": ["LEAKED"]},
                                              "01": {"status": "missing"}},
                                "warnings_contain": ["check.cpp", "ignored"], "warnings_count": 1})
        self.assertEqual(outcome.verdict, "PASS", outcome.problems)

    def test_scores_exact_range_and_full(self):
        self.result("kim", [exercise("03", score=17, max_score=22), exercise("04", score=22, max_score=22)])
        for spec, verdict in [(17, "PASS"), (0, "FAIL"), ({"min": 10}, "PASS"), ({"min": 18}, "FAIL"),
                              ({"max": 17}, "PASS"), ({"min": 1, "max": 16}, "FAIL"), ("full", "FAIL")]:
            with self.subTest(spec=spec):
                outcome = self.compare({"exercises": {"03": {"status": "graded", "score": spec}}})
                self.assertEqual(outcome.verdict, verdict, outcome.problems)
        outcome = self.compare({"exercises": {"04": {"status": "graded", "score": "full", "max_score": {"max": 100}}}})
        self.assertEqual(outcome.verdict, "PASS", outcome.problems)
        outcome = self.compare({"exercises": {"04": {"status": "graded", "max_score": {"max": 20}}}})
        self.assertIn("max_score 22, expected <= 20", outcome.problems[0])

    def test_a_submission_held_up_fails_its_time_bound(self):
        for seconds, expect, verdict in [(40, {}, "PASS"), (301, {}, "FAIL"), (40, {"seconds": {"max": 30}}, "FAIL"),
                                         (25, {"seconds": {"max": 30}}, "PASS")]:
            with self.subTest(seconds=seconds, expect=expect):
                self.result("kim", [exercise("01", status="missing")], extra={"seconds": seconds})
                outcome = self.compare(expect)
                self.assertEqual(outcome.verdict, verdict, outcome.problems)
                if verdict == "FAIL":
                    self.assertIn("held up", outcome.problems[0])

    def test_graded_alongside_counts_the_overlapping_gradings(self):
        starts = {"kim": ("2026-11-25T10:00:00Z", 60), "a": ("2026-11-25T10:00:30Z", 10),
                  "b": ("2026-11-25T10:01:01Z", 5), "c": ("2026-11-25T10:02:00Z", 5)}
        for name, (start, seconds) in starts.items():
            self.result(name, [exercise("01", status="missing")], extra={"graded_at": start, "seconds": seconds})
        self.assertEqual(catalog.graded_alongside("kim", self.results), 2)  # a, and b a second after
        outcome = self.compare({"graded_alongside": True}, catalog.Context(self.results, found_files={}, jobs=4))
        self.assertEqual(outcome.problems, ["graded alongside 2 other submission(s), fewer than 3"])
        outcome = self.compare({"graded_alongside": True}, catalog.Context(self.results, found_files={}, jobs=3))
        self.assertEqual(outcome.verdict, "PASS", outcome.problems)

    def test_reports_inert_finds_raw_escapes_live_tags_and_broken_formats(self):
        self.result("kim", [exercise("01", status="missing")])
        clean = {"feedback/kim.md": "# kim\n&lt;script&gt; \\u001b\n", "feedback/kim.html": "<p>&lt;script&gt;</p>",
                 "gradescope/kim/results.json": "{}", "classroom/kim.json": "{}",
                 "gradebook.csv": "student\nkim\n", "junit.xml": "<testsuites/>"}
        for relative, text in clean.items():
            write(os.path.join(self.results, relative), text)
        self.assertEqual(catalog.report_problems(self.results, "kim"), [])
        for relative, text, problem in [("feedback/kim.md", "\x1b[2J", "raw control character"),
                                        ("feedback/kim.html", "<SCRIPT>x</script>", "live tag"),
                                        ("classroom/kim.json", "{", "does not parse"),
                                        ("junit.xml", "<a>", "does not parse")]:
            with self.subTest(relative=relative):
                write(os.path.join(self.results, relative), text)
                self.assertTrue(any(problem in p for p in catalog.report_problems(self.results, "kim")))
                write(os.path.join(self.results, relative), clean[relative])

    def test_output_is_searched_in_message_build_log_and_items(self):
        self.result("kim", [exercise("03", status="build_failed", build_log="error: expected a ';'"),
                            exercise("04", message="the message", outputs=["one", "LEAKED /x/solutions"])])
        self.assertEqual(self.compare({"exercises": {"03": {"status": "build_failed",
                                                            "output_contains": ["expected a ';'"]}}}).verdict, "PASS")
        outcome = self.compare({"exercises": {"04": {"status": "graded", "output_contains": ["the message", "one"],
                                                     "output_lacks": ["LEAKED"]}}})
        self.assertEqual(len(outcome.problems), 1)
        self.assertIn("contains 'LEAKED'", outcome.problems[0])

    def test_an_item_is_addressed_by_its_name(self):
        racecheck = {"name": "racecheck", "kind": "sanitizer", "score": 0, "max_score": 2, "passed": False,
                     "hidden": False, "seconds": 3.0,
                     "output": "square:\nFAIL: compute-sanitizer racecheck found errors:\n  Race reported"}
        record = exercise("21", score=40, max_score=46)
        record["items"].append(racecheck)
        self.result("kim", [record])
        wanted = {"racecheck": {"score": 0, "max_score": 2, "passed": False,
                                "output_contains": ["compute-sanitizer racecheck found errors"],
                                "output_lacks": ["found no"]}}
        outcome = self.compare({"exercises": {"21": {"status": "graded", "items": wanted}}})
        self.assertEqual(outcome.verdict, "PASS", outcome.problems)
        for spec, problem in [({"racecheck": {"score": "full"}}, "21: item racecheck: score 0 of 2, expected full marks"),
                              ({"racecheck": {"score": {"min": 1}}}, "21: item racecheck: score 0 of 2, expected >= 1"),
                              ({"racecheck": {"passed": True}}, "21: item racecheck: failed, expected to pass"),
                              ({"racecheck": {"max_score": 4}}, "21: item racecheck: max_score 2, expected 4"),
                              ({"racecheck": {"output_contains": ["synccheck"]}},
                               "21: item racecheck: its output lacks 'synccheck'"),
                              ({"racecheck": {"output_lacks": ["Race"]}}, "21: item racecheck: its output contains 'Race'"),
                              ({"synccheck": {"score": 0}}, "21: item synccheck: not in the result (items: racecheck)")]:
            with self.subTest(spec=spec):
                outcome = self.compare({"exercises": {"21": {"status": "graded", "items": spec}}})
                self.assertEqual(outcome.verdict, "FAIL")
                self.assertTrue(outcome.problems[0].startswith(problem), outcome.problems)

    def test_a_wrong_status_says_what_came_instead(self):
        self.result("kim", [exercise("03", status="error", message="the grader broke")])
        outcome = self.compare({"exercises": {"03": {"status": "graded", "score": 0}}})
        self.assertEqual(outcome.problems, ["03: status 'error', expected 'graded' (the grader broke)"])

    def test_skipped_gpu_expectations_skip_but_other_failures_still_fail(self):
        self.result("kim", [exercise("03", status="skipped", message="no CUDA device"),
                            exercise("01", status="missing")], warnings=[])
        outcome = self.compare({"exercises": {"03": {"status": "graded", "score": 0},
                                              "01": {"status": "missing"}}})
        self.assertEqual(outcome.verdict, "SKIPPED")
        outcome = self.compare({"exercises": {"03": {"status": "graded", "score": 0}},
                                "warnings_contain": ["letter case"]})
        self.assertEqual(outcome.verdict, "FAIL")
        # A build failure needs no GPU: "skipped" there is a failure.
        outcome = self.compare({"exercises": {"03": {"status": "build_failed"}}})
        self.assertEqual(outcome.verdict, "FAIL")

    def test_missing_or_broken_result_files_fail(self):
        self.assertIn("no result file", self.compare({}).problems[0])
        write(os.path.join(self.results, "submissions", "kim.json"), "{not json")
        self.assertIn("not valid JSON", self.compare({}).problems[0])
        self.result("kim", [], extra={"student": "someone_else"})
        self.assertIn("'someone_else'", self.compare({}).problems[0])
        self.result("kim", [])
        self.assertIn("03: not in the result", self.compare({"exercises": {"03": {"status": "missing"}}}).problems[0])

    def test_warnings_count_and_result_size(self):
        self.result("kim", [], warnings=["a", "b"])
        self.assertEqual(self.compare({"warnings_count": {"max": 0}}).verdict, "FAIL")
        self.assertEqual(self.compare({"warnings_count": {"min": 1}}).verdict, "PASS")
        self.assertEqual(self.compare({"result_max_bytes": 10}).verdict, "FAIL")
        self.assertEqual(self.compare({"result_max_bytes": 100000}).verdict, "PASS")

    def test_no_file_named_finds_planted_files_and_removes_only_marked_ones(self):
        self.result("kim", [])
        planted = os.path.join(self.class_dir, "bob", "PWNED-writes")
        foreign = os.path.join(self.results, "deep", "er", "PWNED-mine")
        write(planted, "PWNED-writes: " + catalog.PLANTED_MARKER + "\n")
        write(foreign, "somebody else's file\n")
        found, removed = catalog.sweep_planted(["PWNED"], self.class_dir, self.results, root=self.course,
                                               extra=False)
        self.assertEqual(sorted(found["PWNED"]), sorted([planted, foreign]))
        self.assertEqual(removed, {planted})
        self.assertFalse(os.path.exists(planted))
        self.assertTrue(os.path.exists(foreign))
        outcome = self.compare({"no_file_named": "PWNED"},
                               catalog.Context(self.results, found_files=found, removed_files=removed))
        self.assertEqual(outcome.verdict, "FAIL")
        self.assertIn(planted + " (removed)", outcome.problems[0])
        clean = self.compare({"no_file_named": "PWNED"}, catalog.Context(self.results, found_files={"PWNED": []}))
        self.assertEqual(clean.verdict, "PASS")
        unchecked = self.compare({"no_file_named": "PWNED"}, catalog.Context(self.results))
        self.assertEqual((unchecked.verdict, unchecked.notes), ("PASS", ["no_file_named not checked"]))

    def test_outside_its_own_folders_only_this_runs_planted_files_count(self):
        # Issue 45: a stranger's file named *PWNED* (or an earlier run's) outside the class and
        # results folders is none of this run's business; one this run planted is.
        stranger = os.path.join(self.course, "someone", "PWNED-theirs")
        planted = os.path.join(self.course, "PWNED-escaped")
        write(stranger, "not the catalog's\n")
        write(planted, "PWNED-writes: " + catalog.PLANTED_MARKER + "\n")
        found, removed = catalog.sweep_planted(["PWNED"], self.class_dir, self.results, root=self.course,
                                               extra=False, since=time.time() - 60)
        self.assertEqual(found["PWNED"], [planted])
        self.assertEqual(removed, {planted})
        self.assertTrue(os.path.exists(stranger))
        write(planted, "PWNED-writes: " + catalog.PLANTED_MARKER + "\n")
        earlier, _ = catalog.sweep_planted(["PWNED"], self.class_dir, self.results, root=self.course,
                                           extra=False, since=time.time() + 60)
        self.assertEqual(earlier["PWNED"], [], "a planted file older than the run was counted")

    def test_find_named_respects_depth(self):
        write(os.path.join(self.tmp, "d", "a", "b", "PWNED-deep"), "x")
        write(os.path.join(self.tmp, "d", "PWNED-top"), "x")
        shallow = catalog.find_named([os.path.join(self.tmp, "d")], ["PWNED"], max_depth=0)
        self.assertEqual([os.path.basename(p) for p in shallow["PWNED"]], ["PWNED-top"])
        deep = catalog.find_named([os.path.join(self.tmp, "d")], ["PWNED"])
        self.assertEqual(len(deep["PWNED"]), 2)

    def test_canaries(self):
        self.result("kim", [])
        paths = catalog.plant_canaries([os.path.join(self.tmp, "c1"), os.path.join(self.tmp, "c2")])
        os.unlink(paths[1])
        canaries = {p: os.path.exists(p) for p in paths}
        outcome = self.compare({"canaries_intact": True}, catalog.Context(self.results, found_files={},
                                                                         canaries=canaries))
        self.assertEqual(outcome.problems, [f"canary file(s) deleted: {paths[1]}"])
        self.assertTrue(os.path.basename(paths[0]).startswith(catalog.CANARY_PREFIX))

    def test_processes(self):
        self.result("kim", [])
        expect = {"no_process_named": "catalog-fork"}
        ok = catalog.Context(self.results, found_files={}, processes={"catalog-fork": (3.0, 0)})
        self.assertEqual(self.compare(expect, ok).verdict, "PASS")
        old = catalog.Context(self.results, found_files={}, processes={"catalog-fork": (catalog.PROCESS_GRACE_SECONDS + 19.0, 0)})
        self.assertIn(f"{catalog.PROCESS_GRACE_SECONDS + 19} s old", self.compare(expect, old).problems[0])
        alive = catalog.Context(self.results, found_files={}, processes={"catalog-fork": (1.0, 4)})
        self.assertIn("4 still alive", self.compare(expect, alive).problems[0])

    @unittest.skipIf(not os.path.isdir("/proc"), "needs Linux /proc")
    def test_scan_processes_sees_a_named_process(self):
        child = subprocess.Popen(["sleep", "30"])
        try:
            for _ in range(100):  # until the child has exec'd sleep
                found = catalog.scan_processes(["sleep"])
                if child.pid in [pid for pid, _ in found["sleep"]]:
                    break
                time.sleep(0.05)
            self.assertIn(child.pid, [pid for pid, _ in found["sleep"]])
            # Other processes named sleep may run on the machine: judge the child's age only.
            ages = [age for pid, age in found["sleep"] if pid == child.pid]
            self.assertTrue(ages and 0 <= ages[0] < 60, ages)
        finally:
            child.kill()
            child.wait()


class CommandLine(WithResults):
    """--check-only end to end, on synthetic results for two real entries."""

    def run_check_only(self, names):
        output = io.StringIO()
        with redirect_stdout(output):
            status = catalog.main(["--check-only", self.results, "--entries", ",".join(names)])
        return status, output.getvalue()

    def test_exit_status_is_0_1_or_77(self):
        self.result("only_some_exercises", [exercise("03", score=22), exercise("01", status="missing"),
                                            exercise("02", status="missing"), exercise("04", status="missing")])
        self.result("exit_zero", [exercise("03", outputs=["hint: never call exit()"]), exercise("01", status="missing"),
                                  exercise("02", status="missing"), exercise("04", status="missing")])
        status, output = self.run_check_only(["only_some_exercises", "exit_zero"])
        self.assertEqual(status, 0, output)
        self.assertIn("PASS     exit_zero", output)
        self.assertIn("2 passed, 0 failed, 0 skipped", output)

        self.result("exit_zero", [exercise("03", status="skipped", message="no GPU"),
                                  exercise("01", status="missing"), exercise("02", status="missing"),
                                  exercise("04", status="missing")])
        status, output = self.run_check_only(["only_some_exercises", "exit_zero"])
        self.assertEqual(status, catalog.EXIT_SKIPPED, output)
        self.assertIn("SKIPPED  exit_zero", output)

        self.result("only_some_exercises", [exercise("03", score=20)])
        status, output = self.run_check_only(["only_some_exercises", "exit_zero"])
        self.assertEqual(status, 1, output)
        self.assertIn("03: score 20 of 22, expected full marks", output)
        self.assertIn("01: not in the result", output)
        self.assertIn("0 passed, 1 failed, 1 skipped", output)

    def test_results_for_unknown_students_fail(self):
        self.result("exit_zero", [exercise("03", outputs=["never call exit()"]), exercise("01", status="missing"),
                                  exercise("02", status="missing"), exercise("04", status="missing")])
        self.result("course-catalog-canary-1.txt", [])
        status, output = self.run_check_only(["exit_zero"])
        self.assertEqual(status, 1)
        self.assertIn("course-catalog-canary-1.txt.json", output)

    def test_a_wrong_entry_name_is_a_usage_error(self):
        errors = io.StringIO()
        with redirect_stderr(errors):
            status = catalog.main(["--check-only", self.results, "--entries", "no_such_entry"])
        self.assertEqual(status, 2)
        self.assertIn("no catalog entry named no_such_entry (available: compile_error,", errors.getvalue())


FAKE_GRADER = '''\
"""A stand-in for tools/course grade: every exercise whose file is in the submission comes
back "skipped" (as on a machine without a GPU), the others "missing". FAKE_MODE makes
it misbehave the way a broken sandbox would."""
import json, os, sys
class_dir, results = sys.argv[1], sys.argv[sys.argv.index("--results") + 1]
assert "--class" in sys.argv
FILES = {"01": "hello_world.cu", "02": "hello_kernels.cu", "03": "device_memory.cu", "04": "cpu_vs_gpu.cu"}
mode = os.environ.get("FAKE_MODE", "")
os.makedirs(os.path.join(results, "submissions"), exist_ok=True)
for name in os.listdir(class_dir):
    path = os.path.join(class_dir, name)
    if not os.path.isdir(path) and not name.endswith(".tar.gz"):
        continue
    names = {f.lower() for _, _, files in os.walk(path) for f in files}
    student = name[:-len(".tar.gz")] if name.endswith(".tar.gz") else name
    exercises = [{"number": n, "status": "skipped" if f in names else "missing", "score": 0,
                  "max_score": 22, "message": "no CUDA device", "items": []} for n, f in FILES.items()]
    warnings = [] if names & set(FILES.values()) else ["no file of any exercise was found"]
    with open(os.path.join(results, "submissions", student + ".json"), "w") as handle:
        json.dump({"schema": 1, "student": student, "warnings": warnings, "exercises": exercises}, handle)
for folder in (class_dir, results):
    for name in os.listdir(folder):
        if mode == "delete" and name.startswith("course-catalog-canary"):
            os.unlink(os.path.join(folder, name))
if mode == "plant":
    with open(os.path.join(results, "PWNED-writes"), "w") as handle:
        handle.write("PWNED-writes: left by the course's grading catalog\\n")
'''


class WholeRun(unittest.TestCase):
    """run_catalog.py --grader end to end, with a fake grader."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-catalog-run-")
        self.grader = os.path.join(self.tmp, "fake_grade.py")
        write(self.grader, FAKE_GRADER)

    def tearDown(self):
        os.environ.pop("FAKE_MODE", None)
        shutil.rmtree(self.tmp)

    def run_catalog(self, mode, entries):
        os.environ["FAKE_MODE"] = mode
        keep = os.path.join(self.tmp, f"keep-{mode or 'plain'}")
        output = io.StringIO()
        with redirect_stdout(output):
            status = catalog.main(["--grader", self.grader, "--entries", ",".join(entries), "--keep", keep])
        return status, output.getvalue(), keep

    def canaries_left(self):
        # Only this process's canaries: a real catalog run stopped before its clean-up (the
        # GPU suite's deadline kills what still runs) leaves its own canary in build/.
        mine = f"{catalog.CANARY_PREFIX}-{os.getpid()}.txt"
        found = catalog.find_named([self.tmp, os.path.join(ROOT, "build")], [catalog.CANARY_PREFIX],
                                   max_depth=3)[catalog.CANARY_PREFIX]
        return [path for path in found if os.path.basename(path) == mine]

    def test_a_clean_run_without_gpu_is_skipped(self):
        status, output, keep = self.run_catalog("", ["exit_zero", "deletes_files", "empty_submission"])
        self.assertEqual(status, catalog.EXIT_SKIPPED, output)
        self.assertIn("PASS     empty_submission", output)
        self.assertIn("SKIPPED  exit_zero", output)
        self.assertIn("1 passed, 0 failed, 2 skipped", output)
        self.assertTrue(os.path.isfile(os.path.join(keep, "results", "submissions", "exit_zero.json")))
        self.assertEqual(self.canaries_left(), [])

    def test_a_deleted_canary_fails_deletes_files(self):
        status, output, _ = self.run_catalog("delete", ["deletes_files"])
        self.assertEqual(status, 1, output)
        self.assertIn("FAIL     deletes_files", output)
        self.assertIn("canary file(s) deleted", output)
        self.assertEqual(self.canaries_left(), [])

    def test_a_planted_file_fails_its_entry_and_is_removed(self):
        status, output, keep = self.run_catalog("plant", ["writes_outside_its_folder"])
        self.assertEqual(status, 1, output)
        self.assertIn("files named *PWNED* exist", output)
        self.assertIn("(removed)", output)
        self.assertFalse(os.path.exists(os.path.join(keep, "results", "PWNED-writes")))


class TheCatalog(unittest.TestCase):
    """The real catalog: every entry loads, materialises and covers what the issue lists."""

    @classmethod
    def setUpClass(cls):
        cls.entries = catalog.load_catalog()

    def test_the_issue_s_list_is_covered(self):
        names = {e.name for e in self.entries}
        self.assertGreaterEqual(len(names), 24)
        self.assertEqual(sorted(set(REQUIRED_ENTRIES) - names), [])

    def test_every_entry_materialises(self):
        entries = self.entries if shutil.which("git") else [e for e in self.entries if e.layout != "git"]
        with tempfile.TemporaryDirectory(prefix="test-catalog-class-") as class_dir:
            paths = catalog.materialise(entries, class_dir)
            self.assertEqual(sorted(os.listdir(class_dir)), sorted(os.path.basename(p) for p in paths.values()))

    def test_a_flat_hand_in_of_every_exercise_is_unambiguous(self):
        # The grader finds a flat submission's files by name, letter case aside
        # (tools/course_tools/grading/submissions.py): two exercises sharing a name would get one file.
        owners = {}
        for exercise in course_exercises.load(catalog.ROOT):
            for name in exercise.student_files:
                owners.setdefault(name.lower(), []).append(exercise.id)
        self.assertEqual({n: ids for n, ids in owners.items() if len(ids) > 1}, {})

    def test_every_edits_file_is_used(self):
        for entry in self.entries:
            used = {spec["edits"] for spec in entry.files.values() if "edits" in spec}
            present = {n for n in os.listdir(entry.folder) if n != "entry.json"}
            self.assertEqual(present, used, entry.name)

    def test_no_catalog_file_is_named_like_what_entries_must_not_leave(self):
        forbidden = {e.expect["no_file_named"] for e in self.entries if "no_file_named" in e.expect}
        for folder, _, names in os.walk(catalog.CATALOG):
            for name in names + [os.path.basename(folder)]:
                self.assertFalse(any(f in name for f in forbidden), os.path.join(folder, name))

    def test_dangerous_entries_say_so(self):
        for name in ("fork_bomb", "writes_outside_its_folder", "deletes_files", "tar_path_traversal"):
            entry = next(e for e in self.entries if e.name == name)
            self.assertIn("DANGEROUS", entry.description, name)

    def test_hostile_student_code_marks_its_bounds(self):
        """Every hostile edit says in its comment how it is bounded."""
        for name in ("host_infinite_loop", "kernel_infinite_loop", "fork_bomb", "gigabyte_of_output",
                     "reads_reference_solution", "writes_outside_its_folder"):
            with open(os.path.join(catalog.CATALOG, name, "device_memory.edits"), encoding="utf-8") as h:
                self.assertIn("ounded", h.read(), name)


if __name__ == "__main__":
    unittest.main()
