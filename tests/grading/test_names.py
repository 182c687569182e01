#!/usr/bin/env python3
"""Student names are data: a class of copies of exercise 03's reference solution, each
under a name that once broke the grader (quotes, '$()', backticks, semicolons, HTML,
accents, a leading dash, 200 bytes of UTF-8), is graded with one run of
tools/course grade, and every copy must get the same verdict as the plain one and every
report. A name that cannot name a report file (a newline) is refused before anything
is graded, with a message, and nothing is written.

    test_names.py        (no GPU needed: the grading is --cpu-only, which builds every
                          copy and records its check as skipped; the names reach the
                          build, which is where they once broke the grader)
    test_names.py --gpu  (on a GPU: every copy graded for real must get full marks)
    test_names.py --gpu --complete   (each name hands in every exercise's solution,
                          graded with --jobs 8; the gradebook is printed)
"""
import csv
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import gpu  # noqa: E402
from course_tools.student import exercises as course_exercises  # noqa: E402

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
SOLUTION = os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu")
NAMES = ["plain", 'say "hi"', "o'neil, <b>bold<i> & \"q\"", "semi;colon $(id)", "back`id`tick",
         "Hélène", "Jean-François N'Diaye", "with  spaces ", "-leading dash", "--results",
         "$(touch PWNED-by-name)", "a;b|c&d>e", "%s%n{}", "日本語の名前", "é" * 100]


COMPLETE = "--complete" in sys.argv[1:]
# (exercise folder, student file) of what each name hands in: exercise 03's solution, or
# with --complete every exercise's.
HANDED_IN = ([(e.id, f) for e in course_exercises.load(ROOT) for f in e.student_files] if COMPLETE
             else [("03_device_memory", "device_memory.cu")])


def grade(class_dir, results, *extra):
    chosen = [] if COMPLETE else ["--exercises", "03"]
    return subprocess.run(GRADER + [class_dir, "--class", "--results", results, *chosen,
                                    "--seed", "4242", "--jobs", "8" if COMPLETE else "2", *extra],
                          capture_output=True, text=True, errors="replace")


def make_class(folder, names):
    for index, name in enumerate(names):
        # Both layouts: a folder of files, and an archive named after the student.
        if index % 2:
            for exercise, file_name in HANDED_IN:
                target = os.path.join(folder, name, "exercises", exercise, file_name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(os.path.join(ROOT, "solutions", exercise, file_name), target)
        else:
            staging = tempfile.mkdtemp()
            for exercise, file_name in HANDED_IN:
                shutil.copyfile(os.path.join(ROOT, "solutions", exercise, file_name),
                                os.path.join(staging, file_name))
            shutil.make_archive(os.path.join(folder, name), "gztar", staging)
            shutil.rmtree(staging)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        assert len(NAMES[-1].encode()) == 200
        class_dir, results = os.path.join(scratch, "class"), os.path.join(scratch, "results")
        os.makedirs(class_dir)

        # 1. A newline in a name: refused before anything is graded, nothing written.
        os.makedirs(os.path.join(class_dir, "two\nlines"))
        shutil.copyfile(SOLUTION, os.path.join(class_dir, "two\nlines", "device_memory.cu"))
        refused = grade(class_dir, results, "--cpu-only")
        if (refused.returncode == 0 or "cannot name a report file" not in refused.stderr
                or "'two\\nlines'" not in refused.stderr or os.path.exists(results)):
            failures.append(f"a newline in a name was not refused cleanly (status {refused.returncode}):\n"
                            + refused.stdout + refused.stderr)
        else:
            print("refused at intake, nothing written:\n  " + refused.stderr.strip().replace("\n", "\n  "))
        shutil.rmtree(os.path.join(class_dir, "two\nlines"))

        # 2. Every other name: one verdict for all, every report written.
        make_class(class_dir, NAMES)
        have_gpu = "--gpu" in sys.argv[1:]
        if have_gpu and not gpu.visible()[0]:
            print("SKIPPED: --gpu asks for a GPU and none is visible")
            return 77
        result = grade(class_dir, results, *([] if have_gpu else ["--cpu-only"]))
        print(result.stdout[-3000:])
        if result.returncode != 0:
            failures.append(f"grade.py exited with {result.returncode}:\n{result.stderr}")
        verdicts = {}
        for name in NAMES:
            path = os.path.join(results, "submissions", f"{name}.json")
            try:
                with open(path, encoding="utf-8") as handle:
                    record = json.load(handle)
            except OSError as error:
                failures.append(f"{name!r}: no result ({error})")
                continue
            verdicts[name] = (tuple(e["status"] for e in record["exercises"]), record["score"], record["max_score"],
                              "".join(e.get("build_log") or "" for e in record["exercises"]))
            for report in (f"feedback/{name}.md", f"feedback/{name}.html", f"gradescope/{name}/results.json",
                           f"classroom/{name}.json", f"classroom/{name}.b64"):
                if not os.path.isfile(os.path.join(results, report)):
                    failures.append(f"{name!r}: no {report}")
            with open(os.path.join(results, "feedback", f"{name}.md"), encoding="utf-8") as handle:
                if scratch in handle.read():
                    failures.append(f"{name!r}: the feedback shows the instructor's path {scratch}")
        expected = verdicts.get("plain", (None,))
        wanted_status = ("graded" if have_gpu else "skipped",) * len(expected[0] or ())
        if not expected[0] or expected[0] != wanted_status or (have_gpu and expected[1] != expected[2]):
            failures.append(f"'plain' got {expected[:3]}")
        for name, verdict in verdicts.items():
            if verdict != expected:
                failures.append(f"{name!r}: {verdict[:3]}, expected {expected[:3]} like 'plain'"
                                + (f"\n{verdict[3]}" if verdict[3] else ""))
        with open(os.path.join(results, "gradebook.csv"), encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        shown = sorted(row[0] for row in rows[1:])
        wanted = sorted("'" + n if n.startswith(("-", "=", "+", "@")) else n for n in NAMES)
        if shown != wanted:
            failures.append(f"the gradebook's students are {shown}, expected {wanted}")
        # The class report: every name escaped, every link to a feedback page that exists.
        with open(os.path.join(results, "class.html"), encoding="utf-8") as handle:
            page = handle.read()
        for name in NAMES:
            if html.escape(name) not in page:
                failures.append(f"{name!r}: not in class.html, escaped")
        for href in re.findall(r'href="(feedback/[^"]*)"', page):
            if not os.path.isfile(os.path.join(results, urllib.parse.unquote(html.unescape(href)))):
                failures.append(f"class.html links to {href}, which is no feedback page")
        planted = [os.path.join(base, f) for base, _, files in os.walk(scratch) for f in files if f == "PWNED-by-name"]
        if planted:
            failures.append(f"a name was run by a shell: {planted}")
        print(f"{len(verdicts)} names, verdict of each: {sorted(set(v[:3] for v in verdicts.values()))}")
        if COMPLETE:
            print("gradebook.csv:")
            for row in rows:
                print("  " + ",".join(row))

    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        return 1
    print(f"PASS: {len(NAMES)} names graded alike ({'on a GPU' if have_gpu else '--cpu-only, no GPU here'}), "
          f"every report written; a newline in a name refused at intake")
    return 0


if __name__ == "__main__":
    sys.exit(main())
