#!/usr/bin/env python3
"""Every result an exercise's cases report, and every request its check sends, is declared
once and used on both sides
(issue 27): the keys an exercise declares (course::check::Value, Array, Text, Family in
its harness/ headers, common/course/check/result_keys.hpp) are each written by the
program's side (harness/cases.cu and the other driver files) and read by the check's
(harness/check.cpp), and neither side names a record by a string of its own. A key read
but never written would fail every student with "the program reported no value"; a key
written but never read is a result nobody grades. The compiler already refuses a
misspelt key; this test, which needs no GPU, refuses the rest.

    python3 tests/tools/test_result_keys.py
"""
import os
import re
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import exercises  # noqa: E402

# `inline const course::check::Array<float> y{"y"};` and the like: the key's C++ name.
KEY_TYPES = ("Value", "Array", "Text", "Family")
# `using Samples = course::check::Array<float>;`: another name for a key type.
ALIAS = re.compile(r"\busing\s+(\w+)\s*=\s*(?:course::check::)?(?:" + "|".join(KEY_TYPES) + r")\b")


def declaration(types):
    """The C++ name of each key declared with one of `types`."""
    return re.compile(r"\b(?:course::check::)?(?:" + "|".join(types) + r")\b(?:<[^;{]*>)?\s+(\w+)\s*\{")


def record(types):
    """The same, with the record's name: `... y{"y"}` gives ("y", "y")."""
    return re.compile(declaration(types).pattern + r'\s*"([^"]*)"')
# `inline const course::check::Request<Affine> affine{"affine"};`: a request's C++ name and
# its name on the wire (request_keys.hpp).
REQUEST = re.compile(r"\b(?:course::check::)?Request<[\w:]+>\s+(\w+)\s*\{\s*\"([^\"]*)\"")
# A record named by a string where a key belongs: the writer's put calls, the reader's.
WRITTEN_BY_STRING = re.compile(r"\b(?:put|put_value|put_text|report)\s*\(\s*(?:results\s*,\s*)?"
                               r"(?:\"|std::string\s*\()")
READ_BY_STRING = re.compile(r"\b(?:read_value|read_text|text_or_empty|expect_array|read_array|"
                            r"expect_host_guard_untouched|reported)\b(?:<[^>(]*>)?\s*\(\s*\w+\s*,\s*"
                            r"(?:\"|std::string\s*\()")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return strip_comments(handle.read())


def problems_of(folder, writer_files, reader_files, script_files=()):
    """What is wrong with the keys of the exercise in `folder`: a list of sentences. The
    scripts (SCRIPTS: a Python caller the check runs) write records by their names."""
    harness = os.path.join(folder, "harness")
    headers = [os.path.join(harness, name) for name in sorted(os.listdir(harness))
               if name.endswith((".hpp", ".cuh", ".h"))] if os.path.isdir(harness) else []
    declared, records = {}, {}
    texts = {header: read(header) for header in headers}
    types = KEY_TYPES + tuple(alias for text in texts.values() for alias in ALIAS.findall(text))
    for header, text in texts.items():
        for name in declaration(types).findall(text):
            declared[name] = os.path.relpath(header, folder)
        records.update(record(types).findall(text))
    scripts = []
    for path in script_files:
        with open(os.path.join(folder, path), encoding="utf-8") as handle:
            scripts.append(handle.read())
    writers = {path: read(os.path.join(folder, path)) for path in writer_files}
    readers = {path: read(os.path.join(folder, path)) for path in reader_files}
    problems = []
    if writers and not declared:
        problems.append("declares no result key (harness/workload.hpp)")
    for name, where in sorted(declared.items()):
        used = re.compile(r"\b" + re.escape(name) + r"\b")
        by_script = name in records and any(f'"{records[name]}"' in text for text in scripts)
        if not by_script and not any(used.search(text) for text in writers.values()):
            problems.append(f"key '{name}' ({where}) is never written by {', '.join(writer_files)}")
        if not any(used.search(text) for text in readers.values()):
            problems.append(f"key '{name}' ({where}) is never read by {', '.join(reader_files)}")
    # Every request the exercise declares is asked by the check and served by the program (or
    # by a script, which reads the request's name on the wire).
    requests = {name: (wire, os.path.relpath(header, folder))
                for header, text in texts.items() for name, wire in REQUEST.findall(text)}
    for name, (wire, where) in sorted(requests.items()):
        used = re.compile(r"\b" + re.escape(name) + r"\b")
        by_script = any(f'"{wire}"' in text for text in scripts)
        if not by_script and not any(used.search(text) for text in writers.values()):
            problems.append(f"request '{name}' ({where}) is never served by {', '.join(writer_files)}")
        if not any(used.search(text) for text in readers.values()):
            problems.append(f"request '{name}' ({where}) is never asked by {', '.join(reader_files)}")
    for path, text in writers.items():
        if WRITTEN_BY_STRING.search(text):
            problems.append(f"{path} writes a record by a string name, not by a declared key")
    for path, text in readers.items():
        if READ_BY_STRING.search(text):
            problems.append(f"{path} reads a record by a string name, not by a declared key")
    return problems


def exercise_problems(exercise):
    if not exercise.driver:
        return []  # a whole program: its check reads what it prints
    return problems_of(exercise.folder, exercise.driver, [exercise.check], exercise.scripts)


class ResultKeys(unittest.TestCase):
    def test_every_exercise_writes_and_reads_each_key(self):
        found = []
        for exercise in exercises.load(ROOT):
            found += [f"{exercise.id}: {p}" for p in exercise_problems(exercise)]
        self.assertEqual(found, [], "\n" + "\n".join(found))

    def write_exercise(self, folder, workload, cases, check):
        os.makedirs(os.path.join(folder, "harness"))
        for name, text in (("workload.hpp", workload), ("cases.cu", cases), ("check.cpp", check)):
            with open(os.path.join(folder, "harness", name), "w", encoding="utf-8") as handle:
                handle.write(text)
        return problems_of(folder, ["harness/cases.cu"], ["harness/check.cpp"])

    def test_catches_a_key_read_but_never_written_and_string_names(self):
        workload = ('namespace demo::result {\ninline const course::check::Array<float> y{"y"};\n'
                    'inline const course::check::Value<double> kernel_ms{"kernel_ms"};\n}\n')
        both = ("results.put(result::y, y);\nresults.put(result::kernel_ms, ms);\n",
                "c.expect_array(run, result::y, e, t);\nc.read_value(run, result::kernel_ms, ms);\n")
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(self.write_exercise(os.path.join(folder, "a"), workload, *both), [])
            unwritten = self.write_exercise(os.path.join(folder, "b"), workload,
                                            "results.put(result::y, y);\n", both[1])
            self.assertEqual(len(unwritten), 1)
            self.assertIn("'kernel_ms'", unwritten[0])
            self.assertIn("never written", unwritten[0])
            unread = self.write_exercise(os.path.join(folder, "c"), workload, both[0],
                                         "c.expect_array(run, result::y, e, t);\n// result::kernel_ms\n")
            self.assertEqual(len(unread), 1)
            self.assertIn("never read", unread[0])
            strings = self.write_exercise(os.path.join(folder, "d"), workload,
                                          both[0] + 'results.put_value("extra", 1);\n',
                                          both[1] + 'c.read_value(run, "extra", x);\n')
            self.assertEqual(len(strings), 2)
            self.assertTrue(all("string name" in p for p in strings))
            # A key declared through another name of its type is a key all the same.
            aliased = self.write_exercise(
                os.path.join(folder, "e"),
                workload.replace("inline const course::check::Value<double> kernel_ms",
                                 "using Ms = course::check::Value<double>;\ninline const Ms kernel_ms"),
                both[0], "c.expect_array(run, result::y, e, t);\n")
            self.assertEqual(len(aliased), 1)
            self.assertIn("'kernel_ms'", aliased[0])

    def test_catches_a_request_never_asked_or_never_served(self):
        workload = ('namespace demo::request {\nstruct Size { int n = 0; };\n'
                    'inline const course::check::Request<Size> sum{"sum"};\n}\n'
                    'namespace demo::result {\ninline const course::check::Value<double> s{"s"};\n}\n')
        served = "if (const auto p = request.as(request::sum)) results.put(result::s, 1.0);\n"
        asked = "const Run run = c.run(request::sum, {3});\nc.read_value(run, result::s, v);\n"
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(self.write_exercise(os.path.join(folder, "a"), workload, served, asked), [])
            unasked = self.write_exercise(os.path.join(folder, "b"), workload, served,
                                          "c.read_value(run, result::s, v);\n")
            self.assertEqual(len(unasked), 1)
            self.assertIn("request 'sum'", unasked[0])
            self.assertIn("never asked", unasked[0])
            unserved = self.write_exercise(os.path.join(folder, "c"), workload,
                                           "results.put(result::s, 1.0);\n", asked)
            self.assertEqual(len(unserved), 1)
            self.assertIn("never served", unserved[0])


if __name__ == "__main__":
    unittest.main()
