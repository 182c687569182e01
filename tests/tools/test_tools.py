#!/usr/bin/env python3
"""Tests of the course's Python tools: the exercise declarations they read, the
skeleton/solution rule, the score table and the test summary.

    python3 tests/tools/test_tools.py
"""
import json
import os
import shutil
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.authoring import regions as check_student_regions  # noqa: E402
from course_tools.student import compile_database  # noqa: E402
from course_tools.student import cuda_device  # noqa: E402
from course_tools.student import exercises  # noqa: E402
from course_tools.student import nvcc  # noqa: E402

CALL = textwrap.dedent("""\
    course_exercise(
      NUMBER 07
      NAME demo
      STUDENT_FILES demo.cu helper.cu   # two files
      DRIVER main.cu
      CHECK check.cpp
      POINTS 12
      LIBRARIES cublas openmp
      MUTANTS a b
    )
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


class ExerciseDeclarations(unittest.TestCase):
    def test_every_keyword_is_read(self):
        values = exercises.parse_call(CALL, "demo")
        self.assertEqual(values["STUDENT_FILES"], ["demo.cu", "helper.cu"])
        self.assertEqual(values["LIBRARIES"], ["cublas", "openmp"])
        self.assertEqual(values["MUTANTS"], ["a", "b"])
        self.assertEqual(values["POINTS"], ["12"])

    def test_missing_keyword_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "CHECK is missing"):
            exercises.parse_call(CALL.replace("CHECK check.cpp", ""), "demo")

    def test_two_values_for_a_single_keyword_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "POINTS takes one value"):
            exercises.parse_call(CALL.replace("POINTS 12", "POINTS 12 13"), "demo")

    def test_ptx_sources_are_built_beside_the_program_not_into_it(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"),
                  CALL.replace("DRIVER", "PTX_SOURCES helper.cu\n      DRIVER"))
            exercise = exercises.find(root, "07")
            self.assertEqual(exercise.program_files, ["demo.cu", "main.cu", exercises.PROGRAM_MAIN])
            self.assertEqual(nvcc.side_outputs(exercise, "out/program"), ["out/program.helper.ptx"])
            builds = nvcc.side_builds(exercise, "out/program", lambda name: "src/" + name,
                                      "common", "src", "sm_90")
            self.assertEqual(len(builds), 1)
            command, output = builds[0]
            self.assertEqual(output, "out/program.helper.ptx")
            self.assertIn("-ptx", command)
            self.assertEqual(command[-3:], ["src/helper.cu", "-o", "out/program.helper.ptx"])

    def test_checks_link_the_harness_built_once(self):
        # Every .cpp of common/course/check but the sandbox's main, one object each, then
        # the archive of them all, which a check links instead of compiling the harness.
        common = os.path.join(ROOT, "common")
        sources = nvcc.check_library_sources(common)
        self.assertIn(os.path.join(common, "course", "check", "judge.cpp"), sources)
        self.assertNotIn(os.path.join(common, "course", "check", nvcc.SANDBOX_MAIN), sources)
        builds = nvcc.check_library_builds(common, "out/course_check")
        objects = [output for _, output, _ in builds[:-1]]
        self.assertEqual(len(objects), len(sources))
        archive_command, archive, archive_inputs = builds[-1]
        self.assertEqual(archive, "out/course_check/libcourse_check.a")
        self.assertEqual(archive_inputs, objects)
        self.assertIn("-lib", archive_command)
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"), CALL)
            exercise = exercises.find(root, "07")
            command = nvcc.check_command(exercise, "out/check_07", common, "src", "sm_90", archive)
            self.assertEqual(command[-3:], [archive, "-o", "out/check_07"])

    def test_arch_specific_compiles_sm90_as_sm90a_for_that_exercise_alone(self):
        # ARCH_SPECIFIC 90 (exercise 26's wgmma): sm_90 becomes sm_90a for the program and
        # the course's objects, as cmake/CourseExercise.cmake does; other architectures, and
        # exercises without it, keep the build's.
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"),
                  CALL.replace("MUTANTS", "ARCH_SPECIFIC 90\n      MUTANTS"))
            write(os.path.join(root, "exercises", "08_other", "CMakeLists.txt"),
                  CALL.replace("07", "08").replace("NAME demo", "NAME other"))
            specific, plain = exercises.find(root, "07"), exercises.find(root, "08")
            self.assertEqual(specific.arch_specific, ["90"])
            self.assertEqual(specific.mutants, ["a", "b"])
            self.assertEqual(nvcc.arch_for(specific, "sm_90"), "sm_90a")
            self.assertEqual(nvcc.arch_for(specific, "sm_75"), "sm_75")
            self.assertEqual(nvcc.arch_for(specific, "sm_100"), "sm_100")
            self.assertEqual(nvcc.arch_for(plain, "sm_90"), "sm_90")
            program = nvcc.program_command(specific, ["demo.cu"], "out/p", "common", "src", "sm_90")
            self.assertIn("-arch=sm_90a", program)
            course_object = nvcc.object_command(specific, "main.cu", "out/main.o", "common", "src", "sm_90")
            self.assertIn("-arch=sm_90a", course_object)
            self.assertIn("-arch=sm_90", nvcc.program_command(plain, ["demo.cu"], "out/p", "common", "src", "sm_90"))
        with self.assertRaisesRegex(exercises.ExerciseError, "ARCH_SPECIFIC takes architectures as numbers"):
            exercises.parse_call(CALL.replace("MUTANTS", "ARCH_SPECIFIC sm_90a\n      MUTANTS"), "demo")

    def test_ptx_source_that_is_no_student_file_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "PTX_SOURCES other.cu are not STUDENT_FILES"):
            exercises.parse_call(CALL.replace("DRIVER", "PTX_SOURCES other.cu\n      DRIVER"), "demo")

    def test_racecheck_and_synccheck_are_graded_like_memcheck(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"),
                  CALL.replace("MUTANTS", "MEMCHECK_POINTS 2\n      RACECHECK\n      SYNCCHECK\n      MUTANTS"))
            exercise = exercises.find(root, "07")
            self.assertEqual(exercise.sanitizer_tools, ["memcheck", "racecheck", "synccheck"])
            self.assertEqual(exercise.max_score, 12 + 3 * 2)
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"),
                  CALL.replace("MUTANTS", "MEMCHECK_POINTS 2\n      MUTANTS"))
            exercise = exercises.find(root, "07")
            self.assertEqual((exercise.sanitizer_tools, exercise.max_score), (["memcheck"], 14))

    def test_racecheck_without_memcheck_points_is_an_error(self):
        with self.assertRaisesRegex(exercises.ExerciseError, "RACECHECK needs MEMCHECK_POINTS"):
            exercises.parse_call(CALL.replace("MUTANTS", "RACECHECK\n      MUTANTS"), "demo")

    def test_unknown_number_names_the_available_ones(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "exercises", "07_demo", "CMakeLists.txt"), CALL)
            self.assertEqual(exercises.find(root, "7").id, "07_demo")
            with self.assertRaisesRegex(exercises.ExerciseError, r"no exercise 8: the exercises are 07 \(make list names them\)"):
                exercises.find(root, "8")

    def test_one_rule_for_exercise_numbers_in_make_and_the_tools(self):
        # Issue 45: make 3 was refused while slurm/submit check 3 was accepted (tests/slurm/
        # test_config.sh proves slurm/submit's side, with the same message).
        environment = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        shown = subprocess.run(["make", "-n", "-C", ROOT, "3"], capture_output=True, text=True, env=environment)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("tools/course build 3", shown.stdout)
        numbers = " ".join(e.number for e in exercises.load(ROOT))
        message = f"no exercise 99: the exercises are {numbers} (make list names them)"
        refused = subprocess.run(["make", "-C", ROOT, "99"], capture_output=True, text=True, env=environment)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn(message, refused.stderr)
        tool = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "build", "99"],
                              capture_output=True, text=True)
        self.assertEqual(tool.returncode, 2)
        self.assertIn(message, tool.stderr)

    def test_the_repository_declares_its_exercises(self):
        found = exercises.load(ROOT)
        self.assertTrue(found)
        for exercise in found:
            self.assertEqual(os.path.basename(exercise.folder), exercise.id)


SKELETON = "int f() {\n  // TODO(student): return 42\n  return 0;\n  // END TODO(student)\n}\n"
SOLUTION = "int f() {\n  // TODO(student): return 42\n  return 42;\n  // END TODO(student)\n}\n"


class ComputeSanitizer(unittest.TestCase):
    """make check-24 and grade.py find compute-sanitizer for the cases that run under it."""

    def test_found_on_path_first(self):
        with tempfile.TemporaryDirectory() as folder:
            tool = os.path.join(folder, "compute-sanitizer")
            with open(tool, "w", encoding="utf-8") as handle:
                handle.write("#!/bin/sh\n")
            os.chmod(tool, 0o755)
            saved = os.environ["PATH"]
            os.environ["PATH"] = folder + os.pathsep + saved
            try:
                self.assertEqual(nvcc.compute_sanitizer_path(), tool)
            finally:
                os.environ["PATH"] = saved

    def test_not_executable_is_not_found(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "compute-sanitizer"), "w", encoding="utf-8") as handle:
                handle.write("#!/bin/sh\n")
            saved = os.environ["PATH"]
            os.environ["PATH"] = folder
            try:
                found = nvcc.compute_sanitizer_path()
            finally:
                os.environ["PATH"] = saved
            self.assertNotEqual(found, os.path.join(folder, "compute-sanitizer"))


class StudentRegions(unittest.TestCase):
    def check(self, skeleton, solution):
        with tempfile.TemporaryDirectory() as folder:
            write(os.path.join(folder, "skeleton.cu"), skeleton)
            write(os.path.join(folder, "solution.cu"), solution)
            return check_student_regions.compare(os.path.join(folder, "skeleton.cu"),
                                                 os.path.join(folder, "solution.cu"))

    def test_differences_inside_regions_are_allowed(self):
        self.assertEqual(self.check(SKELETON, SOLUTION), [])

    def test_a_difference_outside_the_regions_is_caught(self):
        problems = self.check(SKELETON, SOLUTION.replace("int f()", "long f()"))
        self.assertEqual(len(problems), 1)
        self.assertIn("differ outside the student regions", problems[0])

    def test_an_extra_line_outside_is_caught(self):
        self.assertTrue(self.check(SKELETON, SOLUTION + "// extra\n"))

    def test_unbalanced_or_missing_regions_are_caught(self):
        self.assertIn("never closed", self.check(SKELETON.replace("  // END TODO(student)\n", ""), SOLUTION)[0])
        self.assertIn("without an open region",
                      self.check("// END TODO(student)\n", "// END TODO(student)\n")[0])
        self.assertIn("no 'TODO(student)' region", self.check("int x;\n", "int x;\n")[0])

    def test_the_repository_follows_the_rule(self):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "check-regions", ROOT],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


class Reports(unittest.TestCase):
    def test_test_summary_counts_and_names_failures(self):
        junit = textwrap.dedent("""\
            <testsuite>
              <testcase name="03_x.solution" status="run"/>
              <testcase name="03_x.skeleton" status="fail"><failure message="Failed"/></testcase>
              <testcase name="03_x.solution.memcheck" status="notrun"><skipped message="Skipped"/></testcase>
              <testcase name="unit.verify" status="run"/>
            </testsuite>
            """)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "junit.xml")
            write(path, junit)
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "test-summary", path],
                                    capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("FAILED: 03_x.skeleton", result.stdout)
        # Without a GPU the line goes on to say so.
        self.assertTrue(result.stdout.splitlines()[-1].startswith("2 passed, 1 failed, 1 skipped"))

    def test_test_summary_rejects_a_missing_file(self):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "test-summary", "/nonexistent.xml"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("cannot read /nonexistent.xml", result.stderr)

    def test_score_table_marks_ungraded_exercises(self):
        found = exercises.load(ROOT)
        with tempfile.TemporaryDirectory() as build:
            first = found[0]
            write(os.path.join(build, "scores", f"{first.id}.solution.tsv"),
                  f"{first.id}\tsolution\t{first.points}\t{first.points}\tPASS\n")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build],
                                    capture_output=True, text=True)
        self.assertIn(f"{first.points}/{first.points}  PASS", result.stdout)
        if len(found) > 1:
            self.assertIn("not graded", result.stdout)
            self.assertEqual(result.returncode, 0)  # every graded exercise has full marks

    def test_score_table_fails_when_nothing_was_graded(self):
        with tempfile.TemporaryDirectory() as build:
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build],
                                    capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("0 of", result.stdout)

    def test_score_table_says_why_nothing_was_graded(self):
        found = exercises.load(ROOT)
        cases = "".join(f'<testcase name="{e.id}.solution" status="notrun"><skipped message="Skipped"/></testcase>'
                        for e in found)
        with tempfile.TemporaryDirectory() as build:
            junit = os.path.join(build, "solutions.junit.xml")
            write(junit, f"<testsuite>{cases}</testsuite>")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build,
                                     "solution", "--junit", junit], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("not graded: skipped (no CUDA device)", result.stdout)
        last = result.stdout.splitlines()[-1]
        self.assertIn("nothing graded", last)
        if cuda_device.absent_reason():
            self.assertIn("this machine has no CUDA device", last)

    def test_score_table_gives_each_skip_its_own_reason(self):
        # A one-GPU machine: 25 needs two devices, and the table must say so, not "no CUDA device".
        found = exercises.load(ROOT)
        said = {e.id: (f"SKIPPED: check {e.number} {e.name} needs 2 CUDA devices, and this machine has 1"
                       if e.job_gpus > 1 else "")
                for e in found}
        cases = "".join(f'<testcase name="{e.id}.solution" status="notrun"><skipped message="Skipped"/>'
                        f'<system-out>== check\n{said[e.id]}\n</system-out></testcase>' for e in found)
        with tempfile.TemporaryDirectory() as build:
            junit = os.path.join(build, "solutions.junit.xml")
            write(junit, f"<testsuite>{cases}</testsuite>")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build,
                                     "solution", "--junit", junit], capture_output=True, text=True)
        several = [e for e in found if e.job_gpus > 1]
        self.assertTrue(several, "no exercise of several GPUs to try")
        for exercise in several:
            row = next(line for line in result.stdout.splitlines() if line.startswith(exercise.id))
            self.assertIn("not graded: skipped (needs 2 CUDA devices, and this machine has 1)", row)
        single = next(line for line in result.stdout.splitlines() if line.startswith(found[0].id))
        self.assertIn("not graded: skipped (no CUDA device)", single)

    def test_each_skip_reason_is_exact(self):
        # Issue 45: "insufficient driver" with no driver at all; "no CUDA device" for an
        # exercise that needs two on a machine with one.
        from unittest import mock
        answers = {"no driver": (0, "no NVIDIA driver: libcuda.so.1 is not installed"),
                   "no GPU": (0, "the NVIDIA driver sees no GPU (CUDA_VISIBLE_DEVICES?)"),
                   "one GPU": (1, None), "two GPUs": (2, None)}
        said = {}
        for machine, answer in answers.items():
            with mock.patch.object(cuda_device, "probe", return_value=answer):
                said[machine] = (cuda_device.shortfall(1), cuda_device.shortfall(2))
        self.assertEqual(said["no driver"][0], "needs a CUDA device, and this machine has none "
                                               "(no NVIDIA driver: libcuda.so.1 is not installed)")
        self.assertIn("sees no GPU", said["no GPU"][1])
        self.assertEqual(said["one GPU"], (None, "needs 2 CUDA devices, and this machine has 1"))
        self.assertEqual(said["two GPUs"], (None, None))
        if not os.path.exists("/dev/nvidiactl"):
            self.assertNotIn("insufficient", cuda_device.absent_reason() or "")

    def test_score_table_tells_a_failed_check_from_a_skipped_one(self):
        first = exercises.load(ROOT)[0]
        with tempfile.TemporaryDirectory() as build:
            junit = os.path.join(build, "solutions.junit.xml")
            write(junit, f'<testsuite><testcase name="{first.id}.solution" status="fail">'
                         '<failure message="Failed"/></testcase></testsuite>')
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "score-table", build,
                                     "--junit", junit], capture_output=True, text=True)
        self.assertIn("the check failed before its score", result.stdout)
        self.assertNotIn("nothing graded", result.stdout)


class EditorSupport(unittest.TestCase):
    def test_compile_database_has_one_input_per_entry_and_merges(self):
        with tempfile.TemporaryDirectory() as folder:
            database = os.path.join(folder, "compile_commands.json")
            first = ["nvcc", "-Icommon", "exercises/03_x/a.cu", "exercises/03_x/b.cu", "-o", "out"]
            compile_database.record(database, folder, first, first[2:4])
            compile_database.record(database, folder, ["nvcc", "exercises/04_y/c.cpp", "-o", "c"],
                                    ["exercises/04_y/c.cpp"])
            compile_database.record(database, folder, first, first[2:4])  # again: no duplicates
            with open(database, encoding="utf-8") as handle:
                entries = json.load(handle)
        files = sorted(os.path.relpath(e["file"]) for e in entries)
        self.assertEqual(files, ["exercises/03_x/a.cu", "exercises/03_x/b.cu", "exercises/04_y/c.cpp"])
        a = next(e for e in entries if e["file"].endswith("a.cu"))
        self.assertIn("exercises/03_x/a.cu", a["arguments"])
        self.assertNotIn("exercises/03_x/b.cu", a["arguments"])

    def test_a_solution_gets_its_exercise_file_command(self):
        exercise = exercises.load(ROOT)[0]
        source = os.path.join(exercise.folder, exercise.student_files[0])
        entries = compile_database.entries_for(ROOT, ["nvcc", source, "-o", "x"], [source])
        solution = os.path.join(ROOT, "solutions", exercise.id, exercise.student_files[0])
        self.assertEqual([e["file"] for e in entries], [os.path.abspath(source), solution])


class QuietRun(unittest.TestCase):
    def test_progress_is_summarised_and_the_rest_shown(self):
        script = ("import sys\n"
                  "for i in range(101): print(f'[{i:3d}%] Building x')\n"
                  "print('warning: keep me')\n"
                  "print('100% tests passed')\n"
                  "sys.exit(3)\n")
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "log")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "quiet-run", "--log", log,
                                     "--progress", r"^\[ *([0-9]+)%\]", "--cut", "tests passed", "--label", "built",
                                     "--", sys.executable, "-c", script], capture_output=True, text=True)
            with open(log, encoding="utf-8") as handle:
                logged = handle.read().splitlines()
        self.assertEqual(result.returncode, 3)
        shown = result.stdout.splitlines()
        # The first at once (0%), then one per tenth, each with its times; then the rest.
        self.assertEqual([line.split(" (")[0] for line in shown],
                         [f"  built: {10 * i}%" for i in range(0, 11)] + ["warning: keep me"])
        self.assertEqual(len(logged), 103)

    def test_progress_lines_come_early_and_estimate_the_time_left(self):
        from course_tools.student import quiet_run
        now = [0.0]
        pace = quiet_run.Progress("built", clock=lambda: now[0])
        now[0] = 2.0
        self.assertEqual(pace.line(1), "  built: 1%")  # at once, too early to estimate
        now[0] = 6.0
        self.assertEqual(pace.line(10), "  built: 10% (6 s so far, about 54 s left)")
        now[0] = 0.0
        pace = quiet_run.Progress("built", clock=lambda: now[0])
        now[0] = 6.0
        self.assertEqual(pace.line(1), "  built: 1% (6 s so far, about 9 min 54 s left)")
        now[0] = 30.0
        self.assertIsNone(pace.line(5))        # neither a new tenth nor a minute
        now[0] = 70.0
        self.assertEqual(pace.line(7), "  built: 7% (1 min 10 s so far, about 15 min 30 s left)")
        now[0] = 80.0
        self.assertEqual(pace.line(10), "  built: 10% (1 min 20 s so far, about 12 min 00 s left)")
        now[0] = 200.0
        self.assertIsNone(pace.line(10))       # a minute, but no progress: nothing new to say
        self.assertEqual(quiet_run.duration(3 * 3600 + 5 * 60), "3 h 05 min")

    def test_the_log_is_written_as_lines_come(self):
        # A command that prints one line, then waits: the log holds the line meanwhile.
        with tempfile.TemporaryDirectory() as folder:
            log, gate = os.path.join(folder, "log"), os.path.join(folder, "gate")
            script = ("import os, sys, time\n"
                      "print('first line', flush=True)\n"
                      f"while not os.path.exists({gate!r}): time.sleep(0.05)\n")
            process = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "course"), "quiet-run",
                                        "--log", log, "--", sys.executable, "-c", script],
                                       stdout=subprocess.PIPE, text=True)
            try:
                self.assertEqual(process.stdout.readline(), "first line\n")
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    with open(log, encoding="utf-8") as handle:
                        if handle.read() == "first line\n":
                            break
                    time.sleep(0.05)
                with open(log, encoding="utf-8") as handle:
                    self.assertEqual(handle.read(), "first line\n")
            finally:
                open(gate, "w").close()
                process.communicate(timeout=30)

    def test_a_variants_warnings_go_to_the_log_and_its_errors_to_the_console(self):
        # Issue 27: nvcc's warnings about a known-wrong variant, printed between the progress
        # lines. The variants compile through tools/variant_build.sh (cmake/CourseExercise.cmake).
        launcher = os.path.join(ROOT, "tools", "variant_build.sh")
        compiler = ("import sys\n"
                    "print('mutant.cu(12): warning #177-D: variable \"i\" was declared but never referenced')\n"
                    "print('      int i = 0;', file=sys.stderr)\n"
                    "if sys.argv[1] == 'bad': print('mutant.cu(13): error: expected a \";\"')\n"
                    "sys.exit(1 if sys.argv[1] == 'bad' else 0)\n")
        script = ("import subprocess, sys\n"
                  "for i in range(101): print(f'[{i:3d}%] Building x', flush=True)\n"
                  "for target, how in (('ex03_mutant_a', 'good'), ('ex03_mutant_b', sys.argv[1])):\n"
                  f"    subprocess.run([{launcher!r}, target, sys.executable, '-c', {compiler!r}, how])\n"
                  "print('warning: a solution warns, shown')\n")
        for how in ("good", "bad"):
            with self.subTest(how=how), tempfile.TemporaryDirectory() as folder:
                log = os.path.join(folder, "log")
                result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "quiet-run", "--log", log,
                                         "--progress", r"^\[ *([0-9]+)%\]", "--label", "built", "--",
                                         sys.executable, "-c", script, how], capture_output=True, text=True)
                with open(log, encoding="utf-8") as handle:
                    logged = handle.read()
                shown = [line for line in result.stdout.splitlines() if not line.startswith("  built: ")]
                self.assertIn("[log only] ex03_mutant_a: mutant.cu(12): warning #177-D", logged)
                self.assertIn("[log only] ex03_mutant_a:       int i = 0;", logged)
                if how == "good":
                    self.assertEqual(shown, ["warning: a solution warns, shown"])
                    self.assertIn("[log only] ex03_mutant_b: mutant.cu(12): warning", logged)
                else:
                    # A variant that fails to compile shows all it printed, untagged.
                    self.assertEqual(shown, ['mutant.cu(12): warning #177-D: variable "i" was declared but '
                                             'never referenced', "      int i = 0;",
                                             'mutant.cu(13): error: expected a ";"',
                                             "warning: a solution warns, shown"])

    def test_the_launcher_keeps_the_commands_status(self):
        launcher = os.path.join(ROOT, "tools", "variant_build.sh")
        for status in (0, 1, 2):
            done = subprocess.run([launcher, "t", sys.executable, "-c", f"import sys; sys.exit({status})"],
                                  capture_output=True, text=True)
            self.assertEqual((done.returncode, done.stdout, done.stderr), (status, "", ""))



# A rule's targets: a line that starts a rule (not a variable, not a recipe line).
RULE = re.compile(r"^([^\s#:=$][^:=]*|\$\(EXERCISE_NUMBERS\)[^:=]*):(?!=)")


def makefile_targets(text):
    """The targets a person can name: NN for $(EXERCISE_NUMBERS), NN for a pattern's %."""
    targets = set()
    for line in text.splitlines():
        match = RULE.match(line)
        if not match:
            continue
        for target in match.group(1).split():
            if target == "$(EXERCISE_NUMBERS)":
                target = "NN"
            if not target.startswith((".", "$")):
                targets.add(target.replace("%", "NN"))
    return targets


def help_names(text):
    return set(re.findall(r"make ([a-z0-9NR][a-zA-Z0-9_-]*)", text))


class MakeHelp(unittest.TestCase):
    """make help names every target the Makefile has, in the course and in the students'
    release (issue 27: it omitted build and clean)."""

    def test_help_names_every_target(self):
        with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as handle:
            text = handle.read()
        targets = makefile_targets(text)
        self.assertLessEqual({"all", "build", "clean", "configure", "help", "NN", "check-NN"}, targets)
        done = subprocess.run(["make", "-s", "-C", ROOT, "help"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        named = help_names(done.stdout) | ({"all"} if re.search(r"^  make  ", done.stdout, re.M) else set())
        self.assertEqual(targets - named, set(), "targets that make help does not name")
        self.assertIn("tools/course grade", done.stdout)

    def test_the_students_help_names_their_targets(self):
        from course_tools.release import write as release
        with open(os.path.join(ROOT, "Makefile"), "rb") as handle:
            students = release.filter_file("Makefile", handle.read()).decode("utf-8")
        # The instructors' targets only refuse there, with a line that says why.
        refused = {"gpu-suite", "report", "report-device", "calibrate", "release", "new-exercise"}
        targets = makefile_targets(students) - refused
        with tempfile.TemporaryDirectory() as folder:
            write(os.path.join(folder, "Makefile"), students)
            done = subprocess.run(["make", "-s", "-C", folder, "help"], capture_output=True, text=True,
                                  timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        named = help_names(done.stdout) | ({"all"} if re.search(r"^  make  ", done.stdout, re.M) else set())
        self.assertEqual(targets - named, set(), "targets that the students' make help does not name")
        self.assertNotIn("grade.py", done.stdout)
        self.assertFalse(named & refused, named & refused)


class GpuSuiteWithoutGpu(unittest.TestCase):
    """make gpu-suite where no GPU is visible: one line and a non-zero status at once, before
    any configure or build (issue 27: it built everything, then printed nvidia-smi's error)."""

    def test_refuses_at_once_with_one_line(self):
        absent = cuda_device.absent_reason()
        if absent is None:
            self.skipTest("this machine has a GPU")
        with tempfile.TemporaryDirectory() as folder:
            build = os.path.join(folder, "gpu")
            start = time.monotonic()
            done = subprocess.run(["make", "-s", "-C", ROOT, "gpu-suite"], capture_output=True, text=True,
                                  timeout=60, env=dict(os.environ, BUILD_DIR=build))
            seconds = time.monotonic() - start
            self.assertFalse(os.path.exists(build), "nothing may be written")
        self.assertNotEqual(done.returncode, 0)
        self.assertLess(seconds, 5, done.stdout + done.stderr)
        self.assertEqual(done.stdout, "")
        ours = [line for line in done.stderr.splitlines() if not line.startswith("make")]
        self.assertEqual(len(ours), 1, done.stderr)
        self.assertTrue(ours[0].startswith(f"gpu_suite: no GPU visible here ({absent})"), ours[0])
        self.assertIn("run make gpu-suite on a GPU node", ours[0])
        self.assertNotIn("nvidia-smi", done.stderr)


class SuiteUnfinished(unittest.TestCase):
    """tools/course suite-unfinished: the tests a GPU suite cut by its deadline left to do, as
    the expression that SUITE_RESUME=1 gives ctest -R, read by CMake's own regular expressions."""

    JUNIT = """<testsuite>
      <testcase name="03_device_memory.solution" status="run"/>
      <testcase name="gradingXcatalog" status="run"/>
      <testcase name="03_device_memory.mutant.leaks" status="fail"><failure message="Failed"/></testcase>
      <testcase name="grading.catalog" status="fail"><failure message="Timeout"/></testcase>
      <testcase name="25_two_gpus_nccl.solution" status="notrun"><skipped/></testcase>
    </testsuite>"""
    ALL = ["03_device_memory.mutant.leaks", "03_device_memory.solution", "25_two_gpus_nccl.solution",
           "26_tensor_core_gemm.skeleton", "grading.catalog", "gradingXcatalog"]

    def unfinished(self, names):
        with tempfile.TemporaryDirectory() as logs:
            with open(os.path.join(logs, "all-tests.txt"), "w", encoding="utf-8") as handle:
                handle.write("\n".join(names) + "\n")
            with open(os.path.join(logs, "junit.xml"), "w", encoding="utf-8") as handle:
                handle.write(self.JUNIT)
            return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "suite-unfinished",
                                   os.path.join(logs, "all-tests.txt"), os.path.join(logs, "junit.xml")],
                                  capture_output=True, text=True, timeout=60)

    def cmake_matches(self, expression, names):
        """The names that CMake's regular expressions (those of ctest -R) match."""
        with tempfile.TemporaryDirectory() as folder:
            script = os.path.join(folder, "match.cmake")
            with open(script, "w", encoding="utf-8") as handle:
                handle.write(f"foreach(name {' '.join(names)})\n"
                             f"  if(name MATCHES [=[{expression}]=])\n    message(\"${{name}}\")\n  endif()\n"
                             "endforeach()\n")
            done = subprocess.run(["cmake", "-P", script], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stderr.split()

    def test_failed_stopped_and_not_started_are_left_passed_and_skipped_are_done(self):
        done = self.unfinished(self.ALL)
        self.assertEqual(done.returncode, 0, done.stderr)
        expression = done.stdout.strip()
        left = ["03_device_memory.mutant.leaks", "26_tensor_core_gemm.skeleton", "grading.catalog"]
        # The dot is a dot: "gradingXcatalog" passed, and ^grading.catalog$ would match it.
        self.assertEqual(self.cmake_matches(expression, self.ALL), left)
        self.assertEqual([n for n in self.ALL if re.search(expression, n)], left)

    def test_nothing_left_exits_1_and_prints_nothing(self):
        done = self.unfinished(["03_device_memory.solution", "25_two_gpus_nccl.solution"])
        self.assertEqual((done.returncode, done.stdout), (1, ""), done.stderr)


class SpeedMarginsTest(unittest.TestCase):
    """tools/course speed-margins: the GPU suite's margin test, fed records of known margins."""

    def run_tool(self, files):
        with tempfile.TemporaryDirectory() as scores:
            for name, text in files.items():
                with open(os.path.join(scores, name), "w", encoding="utf-8") as handle:
                    handle.write(text)
            return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "speed-margins",
                                   "--scores", scores], capture_output=True, text=True)

    def test_no_record_is_skipped_never_passed(self):
        self.assertEqual(self.run_tool({}).returncode, 77)

    def test_margins_above_ten_percent_pass(self):
        result = self.run_tool({"21_tiled_sgemm.solution.speed.tsv":
                                "timed\tfinal\nspeed\tfinal\tshare of cuBLAS\tat_least\t0.45\t0.553\t0.2289\n",
                                "23_stream_overlap.solution.speed.tsv":
                                "timed\tbound\nspeed\tbound\ttime over bound\tat_most\t1.35\t1.17\t0.1538\n"})
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_a_short_margin_fails_with_its_figures(self):
        result = self.run_tool({"18_dot_product.solution.speed.tsv":
                                "timed\tsteps\nspeed\tsteps\tshare of CUB\tat_least\t0.4\t0.41\t0.025\n"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("18_dot_product steps: share of CUB 0.41", result.stdout)

    def test_an_unreadable_record_fails(self):
        result = self.run_tool({"04_cpu_vs_gpu.solution.speed.tsv": "speed\tonly three\tfields\n"})
        self.assertEqual(result.returncode, 1)

class CalibrateTest(unittest.TestCase):
    """tools/course calibrate: site bars derived from runs of known figures (no GPU), each kept
    where the reference clears the course's bar by 10%, relaxed by the margin where it does not,
    never tightened; and the file's check refuses each way a file can be wrong."""

    def write_run(self, folder, gpu, figures):
        os.makedirs(folder, exist_ok=True)
        for exercise, lines in figures.items():
            with open(os.path.join(folder, exercise + ".solution.speed.tsv"), "w", encoding="utf-8") as handle:
                handle.write(f"gpu\t{gpu}\n" + "".join(lines))

    def calibrate(self, *arguments):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "calibrate", *arguments],
                              capture_output=True, text=True)

    def runs(self, scratch, share_of_cublas=(0.62, 0.60, 0.61), slowdown=(1.30, 1.32, 1.31), gpus=("NVIDIA T4",) * 3):
        folders = []
        for index, (share, slow, gpu) in enumerate(zip(share_of_cublas, slowdown, gpus)):
            folder = os.path.join(scratch, f"run-{index}")
            self.write_run(folder, gpu, {
                "21_tiled_sgemm": ["timed\tfinal\n", f"speed\tfinal\tshare of cuBLAS\tat_least\t0.45\t{share}\t0\n"],
                "23_stream_overlap": ["timed\tbound\n", f"speed\tbound\ttime over bound\tat_most\t1.35\t{slow}\t0\n"],
                "11_hidden_layer": ["timed\tfused\n", "speed\tfused\tshare of the copy ceiling\tat_least\t0.6\t0.9\t0\n"]})
            folders.append(folder)
        return folders

    def test_bars_kept_where_the_margin_holds_and_relaxed_by_it_elsewhere(self):
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "site-bars.tsv")
            result = self.calibrate("--from-scores", *self.runs(scratch), "--out", out)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            with open(out, encoding="utf-8") as handle:
                lines = [line.rstrip("\n").split("\t") for line in handle if not line.startswith("#")]
            self.assertEqual(lines[0], ["gpu", "NVIDIA T4"])
            bars = {line[2]: line for line in lines[1:]}
            self.assertEqual(bars["fused"][5:7], ["0.6", "0.6"])         # 0.9 clears 0.6 by 50%: kept
            self.assertEqual(bars["final"][5:7], ["0.45", "0.45"])       # 0.60 clears 0.45 by 33%: kept
            self.assertEqual(bars["bound"][5:7], ["1.35", "1.46"])       # 1.32 x 1.1 = 1.452: relaxed, rounded up
            self.assertEqual(self.calibrate("--check", out).returncode, 0)
            # A worst figure under the bar: relaxed to that figure less 10%, rounded down.
            result = self.calibrate("--from-scores", *self.runs(scratch, share_of_cublas=(0.47, 0.44, 0.46)), "--out", out)
            with open(out, encoding="utf-8") as handle:
                final = [line for line in handle if "\tfinal\t" in line][0].rstrip("\n").split("\t")
            self.assertEqual(final[6], "0.4")                           # 0.44 / 1.1 = 0.4
            self.assertEqual(self.calibrate("--check", out).returncode, 0)

    def test_runs_that_disagree_write_nothing(self):
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "site-bars.tsv")
            result = self.calibrate("--from-scores", *self.runs(scratch, gpus=("NVIDIA T4", "NVIDIA T4", "NVIDIA L4")),
                                    "--out", out)
            self.assertEqual(result.returncode, 1)
            self.assertIn("different GPUs", result.stdout)
            folders = self.runs(scratch)
            os.remove(os.path.join(folders[2], "21_tiled_sgemm.solution.speed.tsv"))
            result = self.calibrate("--from-scores", *folders, "--out", out)
            self.assertEqual(result.returncode, 1)
            self.assertIn("judged other bars", result.stdout)
            self.assertFalse(os.path.exists(out))

    def test_the_check_refuses_each_wrong_file(self):
        wrong = {
            "stricter": "gpu\tNVIDIA T4\nbar\t21\tfinal\tshare of cuBLAS\tat_least\t0.45\t0.5\t0.6\n",
            "short margin": "gpu\tNVIDIA T4\nbar\t21\tfinal\tshare of cuBLAS\tat_least\t0.45\t0.4\t0.42\n",
            "no gpu": "bar\t21\tfinal\tshare of cuBLAS\tat_least\t0.45\t0.4\t0.6\n",
            "malformed": "gpu\tNVIDIA T4\nbar\t21\tfinal\tat_least\t0.45\n",
        }
        expected = {"stricter": "stricter than the course's", "short margin": "by less than 10%",
                    "no gpu": "no 'gpu' line", "malformed": "not a 'gpu' or 'bar' line"}
        with tempfile.TemporaryDirectory() as scratch:
            for name, text in wrong.items():
                path = os.path.join(scratch, name.replace(" ", "_") + ".tsv")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
                result = self.calibrate("--check", path)
                self.assertEqual(result.returncode, 1, name)
                self.assertIn(expected[name], result.stdout, name)

    def test_without_a_gpu_nothing_is_measured(self):
        if shutil.which("nvidia-smi"):
            self.skipTest("this machine has nvidia-smi")
        result = self.calibrate("--build-dir", "/nonexistent")
        self.assertEqual(result.returncode, 77)
        self.assertIn("SKIPPED", result.stdout)
        experiment = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "handicap",
                                     "--build-dir", "/nonexistent"], capture_output=True, text=True)
        self.assertEqual(experiment.returncode, 77, experiment.stdout + experiment.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
