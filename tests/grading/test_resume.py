#!/usr/bin/env python3
"""Kills the grader halfway through a class, reruns it, and checks that the second run
grades only the submissions the first did not finish and that the gradebook is the
same, byte for byte, as a grading that was never interrupted.

    test_resume.py            (about a minute; no GPU needed: the grading is --cpu-only,
                               which builds and records the checks as skipped, as the
                               gradebook shows)
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
# --cpu-only, with a GPU or without: what resuming must get right (which submissions
# are done, the gradebook of the two runs) does not depend on the checks running, and
# the catalog grades on the GPU for real (grading.catalog).
CPU_ONLY = ["--cpu-only"]
SEED = "12345"
EXERCISE = "03"
STUDENTS = 5


def make_class(folder):
    """Five students: the solution twice (repository and flat layouts), the skeleton,
    a compile error, and the solution again."""
    solution = os.path.join(ROOT, "solutions", "03_device_memory", "device_memory.cu")
    skeleton = os.path.join(ROOT, "exercises", "03_device_memory", "device_memory.cu")
    layouts = {
        "ada": ("exercises/03_device_memory/device_memory.cu", solution, ""),
        "ben": ("device_memory.cu", solution, ""),
        "cy": ("exercises/03_device_memory/device_memory.cu", skeleton, ""),
        "di": ("device_memory.cu", solution, "\nthis line does not compile\n"),
        "ed": ("03_device_memory/device_memory.cu", solution, ""),
    }
    for student, (path, source, extra) in layouts.items():
        target = os.path.join(folder, student, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text + extra)


def grade(class_dir, results):
    return subprocess.run(GRADER + [class_dir, "--class", "--results", results, "--seed", SEED,
                                    "--exercises", EXERCISE, "--jobs", "1"] + CPU_ONLY,
                          capture_output=True, text=True)


def finished(results):
    folder = os.path.join(results, "submissions")
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))


def main():
    with tempfile.TemporaryDirectory() as scratch:
        class_dir = os.path.join(scratch, "class")
        make_class(class_dir)

        fresh = os.path.join(scratch, "fresh")
        result = grade(class_dir, fresh)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            print("FAIL: the uninterrupted grading failed")
            return 1

        resumed = os.path.join(scratch, "resumed")
        first = subprocess.Popen(GRADER + [class_dir, "--class", "--results", resumed, "--seed", SEED,
                                           "--exercises", EXERCISE, "--jobs", "1"] + CPU_ONLY,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 600
        while len(finished(resumed)) < 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGKILL)  # the grader and everything it started
        first.wait()
        done_before = finished(resumed)
        if not 0 < len(done_before) < STUDENTS:
            print(f"FAIL: the kill came too late or too early ({len(done_before)} of {STUDENTS} finished)")
            return 1
        print(f"killed the grader after {len(done_before)} of {STUDENTS} submissions: {done_before}")

        second = grade(class_dir, resumed)
        if second.returncode != 0:
            print(second.stdout + second.stderr)
            print("FAIL: the resumed grading failed")
            return 1
        expected_line = (f"{STUDENTS} submission(s), {len(done_before)} already graded, "
                         f"grading {STUDENTS - len(done_before)}")
        if expected_line not in second.stdout:
            print(second.stdout)
            print(f"FAIL: the rerun did not say '{expected_line}'")
            return 1
        regraded = [line for line in second.stdout.splitlines() if ": grading (" in line]
        regraded_students = sorted(line.split("] ")[1].split(":")[0] for line in regraded)
        if any(f"{s}.json" in done_before for s in regraded_students):
            print(f"FAIL: the rerun graded again {regraded_students}, finished before: {done_before}")
            return 1

        with open(os.path.join(fresh, "gradebook.csv"), "rb") as handle:
            fresh_book = handle.read()
        with open(os.path.join(resumed, "gradebook.csv"), "rb") as handle:
            resumed_book = handle.read()
        if fresh_book != resumed_book:
            print("fresh:\n" + fresh_book.decode() + "resumed:\n" + resumed_book.decode())
            print("FAIL: the gradebooks differ")
            return 1
        print(fresh_book.decode(), end="")
        print(f"the rerun graded only {regraded_students}, and the gradebook is the same as an "
              f"uninterrupted grading's")
        return 0


if __name__ == "__main__":
    sys.exit(main())
