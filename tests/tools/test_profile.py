#!/usr/bin/env python3
"""make profile-NN without a GPU (tools/course profile, tools/course_tools/student/profile.py):

  - a report's raw CSV page (as `ncu --import R --csv --page raw --print-units base` prints
    it: a header, a units row, one row per launch) becomes one line per kernel, the first
    launch of each name, with its time, DRAM GB/s and share of peak, FP32 FLOP/s (an FFMA
    counts 2), occupancy and sectors per request; a figure ncu left empty is left out;
  - without Nsight Compute (COURSE_NCU=none) make profile-03 builds the exercise, then says
    in one line what to install, and ends as make run-NN does without a GPU (77).

    python3 tests/tools/test_profile.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import profile  # noqa: E402

COLUMNS = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
           "Grid Size", "Device", "CC", *profile.METRICS]
UNITS = ["", "", "", "", "", "", "", "", "", "", "", "ns", "byte", "%", "%", "%", "sector", "request", "inst", "inst",
         "inst"]


def row(launch, kernel, values):
    return [str(launch), "1", "ex11", "node", kernel, "1", "7", "(256, 1, 1)", "(528, 1, 1)", "0", "9.0", *values]


def csv_text(rows):
    return "\n".join(",".join(f'"{cell}"' for cell in line) for line in rows) + "\n"


class Summary(unittest.TestCase):
    def test_one_line_per_kernel_from_the_raw_page(self):
        text = csv_text([COLUMNS, UNITS,
                         # 2 ms, 4 GB moved: 2000 GB/s; 1e9 FADD + 1e9 FMUL + 1e9 FFMA = 4e9 FLOP: 2000 GFLOP/s
                         row(0, "fused_layer", ["2,000,000", "4000000000", "61.5", "22.4", "87.5", "400000", "100000",
                                                "1000000000", "1000000000", "1000000000"]),
                         row(1, "fused_layer", ["9", "9", "9", "9", "9", "9", "9", "9", "9", "9"]),
                         row(2, "scale_rows_strided", ["50000", "", "", "", "", "3200000", "100000", "", "", ""])])
        found = profile.kernels(text)
        self.assertEqual([name for name, _ in found], ["fused_layer", "scale_rows_strided"])
        first = profile.summary_line(*found[0])
        self.assertEqual(first, "  fused_layer: 2.000 ms, DRAM 2000 GB/s (62% of peak), FP32 2000.0 GFLOP/s, "
                                "SM busiest unit 22% of peak, occupancy 88%, 4.0 sectors/request")
        self.assertEqual(profile.summary_line(*found[1]), "  scale_rows_strided: 50.0 us, 32.0 sectors/request")

    def test_a_page_without_kernels(self):
        self.assertEqual(profile.kernels("==PROF== No kernels were profiled.\n"), [])


class WithoutNsightCompute(unittest.TestCase):
    def test_one_line_says_what_to_install(self):
        with tempfile.TemporaryDirectory(prefix="profile-test-") as build:
            done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "profile", "03"],
                                  env=dict(os.environ, COURSE_NCU="none", BUILD_DIR=build,
                                           PATH="/usr/local/cuda/bin:" + os.environ.get("PATH", "")),
                                  capture_output=True, text=True, timeout=600)
        self.assertEqual(done.returncode, 77, done.stdout + done.stderr)
        last = done.stdout.strip().splitlines()[-1]
        self.assertEqual(last, f"--- {profile.NO_NCU}.")


if __name__ == "__main__":
    unittest.main(verbosity=2)
