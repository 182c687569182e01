#!/usr/bin/env python3
"""An untouched skeleton's demo says what is not written yet, and shows no figure for it.

    unfinished_demo.py --program ex04_skeleton --exercise 04 [--gpu-lock PATH]

Runs the demo (the program without arguments, as `make run-NN` does) with its tables
going to a temporary COURSE_REPORT_DIR, and asserts (common/course/demo_results.hpp):
  - it ends by itself with status 1: something is not implemented (no crash, no CUDA
    error, no time limit);
  - it prints at least one line "not implemented yet: FUNCTION", and no "wrong result:"
    (a skeleton computes nothing, so nothing it returns is merely wrong);
  - no line shows a figure: a time, a bandwidth, a FLOP rate, a speed-up ("12.5x"), a
    share ("45.6%"), or a value that is no number (nan, inf), except the lines of the
    device and of the code the course gives (GIVEN below);
  - every table row that carries a note (why it has no figures) has no number in its
    figure columns (number and scientific columns).
An exercise whose skeleton is a finished program with planted bugs (BUGGY below: 24, the
debugging exercise) computes everything: its demo must instead call wrong the result that
its bugs spoil in every run, and may call others wrong too; the rest holds.
Exit status: 0 all hold, 1 one does not (each named), 2 a usage error, 77 no CUDA device
(CTest reports the test skipped).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import cuda_device  # noqa: E402

SKIPPED = 77
TIME_LIMIT = 120

# A figure, as the demos print them.
FIGURE = re.compile(r"\d\s*(ms|GB/s|GFLOP/s|TFLOP/s|samples/s)\b"  # a time or a rate
                    r"|\d(\.\d+)?x\b"                               # a ratio: 12.5x, 50x the CPU
                    r"|\d\s*%"                                      # a share: 45.6%
                    r"|\b-?nan\b|\binf\b", re.IGNORECASE)           # a value never computed
# The lines whose figures a skeleton's demo shows by design: the device's (its banner,
# its copy ceiling and FP32 peak, which the bandwidth lines of a kernel quote as "% of the
# copy ceiling") and, for some exercises, the figures of the code the course gives.
DEVICE = re.compile(r"^\[device |^FP32 peak|^(?!.*% of the copy ceiling).*copy ceiling")
GIVEN = {
    "07": re.compile(r"scale_rows_strided \(given\)"),               # the kernel to profile
    "10": re.compile(r"^\s*(pageable|pinned) \(|, given\)"),         # the bus, the round trips
    "14": re.compile(r"`\*counter \+= 1` gives"),                    # the racy counter
    "23": re.compile(r"^  (copy in|copy back|both at once|kernel|serial|bound) +\d"),  # the parts
    "25": re.compile(r"^  \| "),                                    # nvidia-smi topo -m's table
}
# Exercise -> the line its buggy skeleton's demo prints in every run.
BUGGY = {
    "24": "wrong result: reverse_kernel",  # writes each value one place off, out[n - i]
}
NOT_IMPLEMENTED = "not implemented yet: "
WRONG_RESULT = "wrong result: "
FIGURE_KINDS = ("number", "scientific")


def hold_gpu_shared(path):
    """Takes the machine's GPU lock as common/course/check/gpu_lock.hpp's shared runs do
    (its flock protocol is the interface): through the ".timed" file, so that a timed run
    that waits goes first, then the GPU file in shared mode. Held until this process ends."""
    if not path:
        return None
    import fcntl
    gpu = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
    timed = os.open(path + ".timed", os.O_RDONLY | os.O_CREAT, 0o666)
    fcntl.flock(timed, fcntl.LOCK_EX)
    fcntl.flock(gpu, fcntl.LOCK_SH)
    fcntl.flock(timed, fcntl.LOCK_UN)
    os.close(timed)
    return gpu


def figure_problems(output, exercise):
    given = GIVEN.get(exercise)
    problems = []
    for line in output.splitlines():
        if DEVICE.search(line) or (given and given.search(line)):
            continue
        found = FIGURE.search(line)
        if found:
            problems.append(f"a figure ({found.group(0)!r}) in: {line.strip()}")
    return problems


def table_problems(folder):
    problems = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            table = json.load(handle)
        kinds = [column.get("kind") for column in table["columns"]]
        for row, note in zip(table["rows"], table.get("notes") or []):
            if not note:
                continue
            figures = [cell for cell, kind in zip(row, kinds) if kind in FIGURE_KINDS and cell is not None]
            if figures:
                problems.append(f"table {table['table']}: the row {row} has figures beside its note '{note}'")
    return problems


def check(exercise, output, status, report_dir):
    problems = []
    if status != 1:
        problems.append(f"exit status {status}, expected 1 (a skeleton's demo has something not implemented)")
    if " error at " in output and "\n  call:  " in output:
        problems.append("a CUDA error stopped the demo (course/errors.hpp's message above)")
    if exercise in BUGGY:
        if BUGGY[exercise] not in output:
            problems.append(f"no line says '{BUGGY[exercise]}' (the bug every run shows)")
    else:
        if NOT_IMPLEMENTED not in output:
            problems.append(f"no line says '{NOT_IMPLEMENTED}FUNCTION'")
        problems += [f"a skeleton's result called wrong, not unwritten: {line.strip()}"
                     for line in output.splitlines() if line.startswith(WRONG_RESULT)]
    problems += figure_problems(output, exercise)
    problems += table_problems(report_dir)
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--exercise", required=True, help="the exercise's number, e.g. 07")
    parser.add_argument("--gpu-lock", default="", help="the machine's GPU lock file (none: no locking)")
    options = parser.parse_args(argv[1:])
    absent = cuda_device.absent_reason()
    if absent:
        print(f"SKIPPED: the demo needs a CUDA device: {absent}")
        return SKIPPED
    lock = hold_gpu_shared(options.gpu_lock)
    with tempfile.TemporaryDirectory(prefix="course_unfinished_demo_") as report_dir:
        environment = dict(os.environ, COURSE_REPORT_DIR=report_dir)
        try:
            done = subprocess.run([options.program], capture_output=True, text=True, errors="replace",
                                  env=environment, timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            print(f"FAIL: {options.program} did not end within {TIME_LIMIT} s")
            return 1
        output = done.stdout + done.stderr
        print(output)
        if done.returncode == SKIPPED:  # the demo needs more than this machine has (25: two GPUs)
            return SKIPPED
        problems = check(options.exercise, output, done.returncode, report_dir)
    if lock is not None:
        os.close(lock)
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        print(f"PASS: exercise {options.exercise}'s skeleton demo says what is "
              f"{'wrong' if options.exercise in BUGGY else 'not implemented'} and shows no figure for it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
