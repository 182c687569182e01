#!/usr/bin/env python3
"""The rules of unfinished_demo.py (the GPU test of every skeleton's demo), proved here
without a GPU on outputs written out: the figures of an unfinished exercise as the demos
printed them before common/course/demo_results.hpp (exercise 11's skeleton) fail, what
they print now passes, and so do the device's and the given code's figures; a table row
noted as not implemented that still holds a number fails.
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import unfinished_demo  # noqa: E402

# Exercise 11's skeleton demo before the demos judged their results (issue 13).
OLD_SKELETON_11 = """[device 0: NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs at 1980 MHz, 79.1 GiB]
activated[i] = tanh(greyscales[i] / 255 * weights[i]); blocks of 256 threads

--- hidden layer of 100000000 neurons (400 MB per array) ---
whole call (allocate, copy in, compute, copy back, free), median of 3:
  CPU loop          1203.11 ms
  three kernels        0.00 ms   (50123753.0x the CPU)
kernels alone, on device arrays (median of 10):
  three kernels: 0.0010 ms, 2134146.2 GB/s = (1.6e+09 B read + 1.2e+09 B written) / time, 74147.3% of the copy ceiling (2878.2 GB/s)
  three kernels: 0 of 100000000 elements differ from the CPU's, by at most 0, 100000000 never written
"""

NEW_SKELETON_11 = """[device 0: NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs at 1980 MHz, 79.1 GiB]
activated[i] = tanh(greyscales[i] / 255 * weights[i]); blocks of 256 threads

--- hidden layer of 1000000 neurons (4 MB per array) ---
not implemented yet: create_hidden_layer_gpu
not implemented yet: launch_three_kernels
not implemented yet: launch_fused

(`make check-11` grades every case against a double-precision reference)
"""

SKELETON_07 = """[device 0: NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs at 1980 MHz, 79.1 GiB]

out[row][col] = gain[row] * in[row][col], 8192 x 4096 floats (128 MiB in, as much out)
each kernel: median of 10 launches after 2 warm-up launches

not implemented yet: launch_scale_rows_coalesced
  scale_rows_strided (given): 12.3456 ms, 21.8 GB/s = (1.3e+08 B read + 1.3e+08 B written) / time, 0.7% of the copy ceiling (3000.0 GB/s)
"""


class Rules(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="course_unfinished_demo_test_")

    def tearDown(self):
        for name in os.listdir(self.folder):
            os.remove(os.path.join(self.folder, name))
        os.rmdir(self.folder)

    def check(self, exercise, output, status=1):
        return unfinished_demo.check(exercise, output, status, self.folder)

    def test_the_old_figures_of_an_unfinished_exercise_fail(self):
        problems = "\n".join(self.check("11", OLD_SKELETON_11))
        for figure in ("1203.11 ms", "0x", "2134146.2 GB/s", "3%"):
            self.assertIn(figure, problems)
        self.assertIn("no line says 'not implemented yet: FUNCTION'", problems)

    def test_what_a_skeleton_prints_now_passes(self):
        self.assertEqual(self.check("11", NEW_SKELETON_11), [])

    def test_the_device_and_the_given_code_keep_their_figures(self):
        self.assertEqual(self.check("07", SKELETON_07), [])
        # The same line in another exercise is no given code's.
        self.assertTrue(self.check("09", SKELETON_07))
        ceiling = "copy ceiling of NVIDIA H100 80GB HBM3 (a device-to-device copy): 3000.1 GB/s\n"
        self.assertEqual(self.check("05", NEW_SKELETON_11 + ceiling), [])

    def test_a_value_never_computed_is_a_figure(self):
        problems = self.check("12", NEW_SKELETON_11 + "  (+0.309017, +0.951057)  ->  nan\n")
        self.assertTrue(any("nan" in problem for problem in problems), problems)

    def test_a_wrong_result_or_a_crash_fails(self):
        wrong = NEW_SKELETON_11 + "wrong result: launch_fused (n = 100): 3 of 100 values wrong\n"
        self.assertTrue(any("wrong, not unwritten" in p for p in self.check("11", wrong)))
        self.assertTrue(any("exit status 0" in p for p in self.check("11", NEW_SKELETON_11, status=0)))
        crashed = NEW_SKELETON_11 + "CUDA runtime error at main.cu:12\n  call:  cudaMalloc(&x, n)\n"
        self.assertTrue(any("CUDA error" in p for p in self.check("11", crashed)))

    def test_a_buggy_skeleton_must_show_its_bug(self):
        # Exercise 24's skeleton is a finished program with planted bugs: wrong results
        # are its point, the one every run shows must be called wrong, and no figure.
        buggy = ("step 1, reverse 1000 values:\n"
                 "wrong result: reverse_kernel (n = 1000): 1000 of 1000 values wrong (1 never written)\n"
                 "step 2, smooth 1000 values: right\n")
        self.assertEqual(self.check("24", buggy), [])
        problems = self.check("24", "step 1, reverse 1000 values: right\n")
        self.assertTrue(any("wrong result: reverse_kernel" in p for p in problems), problems)
        self.assertTrue(self.check("24", buggy + "step 3: 12.5 ms\n"))
        self.assertTrue(any("exit status 0" in p for p in self.check("24", buggy, status=0)))

    def test_a_noted_row_must_have_no_figure(self):
        table = {"table": "kernels_100", "title": "t",
                 "columns": [{"key": "kernel", "kind": "text"}, {"key": "ms", "kind": "number"},
                             {"key": "blocks", "kind": "integer"}],
                 "rows": [["fused", None, 4], ["three", 0.001, 4]],
                 "notes": ["not implemented yet: launch_fused", None]}
        with open(os.path.join(self.folder, "kernels_100.json"), "w", encoding="utf-8") as handle:
            json.dump(table, handle)
        self.assertEqual(self.check("11", NEW_SKELETON_11), [])
        table["notes"] = [None, "not implemented yet: launch_three_kernels"]
        with open(os.path.join(self.folder, "kernels_100.json"), "w", encoding="utf-8") as handle:
            json.dump(table, handle)
        problems = self.check("11", NEW_SKELETON_11)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("has figures beside its note", problems[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
