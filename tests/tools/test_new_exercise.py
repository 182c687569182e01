#!/usr/bin/env python3
"""Tests of tools/course new-exercise, each on a copy of the repository in a temporary folder:
exercise 99 is created there and built alone (COURSE_ONLY=^99_), as a maintainer would.

    python3 tests/tools/test_new_exercise.py [--cuda-architectures ARCHS]
        the CPU side (course.new_exercise): refusals and --dry-run write nothing; the
        created files, the course map's row, skeleton vs solution, the style; the copy
        configures and builds, the students' nvcc path builds it too, and its tests are
        registered, labelled gpu, and report skipped where no device is visible
    python3 tests/tools/test_new_exercise.py --gpu [--cuda-architectures ARCHS] [--gpu-lock FILE]
        on a GPU (course.new_exercise.gpu; exit 77 without one): the created solution passes
        its check, the skeleton fails it with 0 points, the example variant fails with its
        hint, and the copy's own tests (memcheck included) pass
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import cuda_device  # noqa: E402

NUMBER, SLUG = "99", "scaffold_test"
EXERCISE_ID = f"{NUMBER}_{SLUG}"
MUTANT = "example_no_bounds_check"
CREATED = (f"exercises/{EXERCISE_ID}/README.md", f"exercises/{EXERCISE_ID}/README.fr.md",
           f"exercises/{EXERCISE_ID}/CMakeLists.txt",
           f"exercises/{EXERCISE_ID}/{SLUG}.cu", f"exercises/{EXERCISE_ID}/{SLUG}.hpp",
           f"exercises/{EXERCISE_ID}/harness/workload.hpp", f"exercises/{EXERCISE_ID}/harness/demo.cu",
           f"exercises/{EXERCISE_ID}/harness/cases.cu", f"exercises/{EXERCISE_ID}/harness/check.cpp",
           f"solutions/{EXERCISE_ID}/{SLUG}.cu",
           f"tests/mutants/{EXERCISE_ID}/{MUTANT}.mutant")
TESTS = {f"{EXERCISE_ID}.solution", f"{EXERCISE_ID}.solution.memcheck", f"{EXERCISE_ID}.skeleton",
         f"{EXERCISE_ID}.skeleton.demo", f"{EXERCISE_ID}.mutant.{MUTANT}"}
SKIP = 77
OPTIONS = argparse.Namespace(cuda_architectures="", cuda_compiler="", gpu_lock="", cmake="cmake",
                             ctest="ctest", jobs=2)


def repository_files():
    """The repository's own files, relative to ROOT, without build outputs: git's list where
    ROOT is a checkout (tracked and new files, ignored ones left out), else a walk."""
    git = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if git.returncode == 0 and os.path.realpath(git.stdout.strip()) == os.path.realpath(ROOT):
        listed = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, text=True, check=True).stdout.splitlines()
        return [path for path in listed if os.path.isfile(os.path.join(ROOT, path))]
    found = []
    for base, folders, names in os.walk(ROOT):
        folders[:] = [f for f in folders if f not in (".git", "build", "logs", "node_modules", "__pycache__")
                      and not os.path.isfile(os.path.join(base, f, "CMakeCache.txt"))]
        found += [os.path.relpath(os.path.join(base, name), ROOT) for name in names]
    return found


def copy_repository(target):
    for path in repository_files():
        os.makedirs(os.path.join(target, os.path.dirname(path)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, path), os.path.join(target, path))


def run(command, cwd, env=None):
    """(exit status, stdout and stderr together)."""
    done = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


def tree_state(root):
    """Every file under root but the build folder, with its size and modification time."""
    state = {}
    for base, folders, names in os.walk(root):
        folders[:] = [f for f in folders if f != "build"]
        for name in names:
            info = os.stat(os.path.join(base, name))
            state[os.path.relpath(os.path.join(base, name), root)] = (info.st_size, info.st_mtime_ns)
    return state


class Scaffolded(unittest.TestCase):
    """A copy of the repository holding exercise 99, configured and built alone."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="new-exercise-test-")
        try:
            cls.scaffold_and_build()
        except BaseException:
            shutil.rmtree(cls.scratch)  # tearDownClass does not run after a failed set-up
            raise

    @classmethod
    def scaffold_and_build(cls):
        cls.copy = os.path.join(cls.scratch, "course")
        cls.build = os.path.join(cls.copy, "build", "one")
        copy_repository(cls.copy)
        status, output = run([sys.executable, "tools/course", "new-exercise", NUMBER, SLUG], cls.copy)
        if status != 0:
            raise AssertionError(f"new_exercise.py {NUMBER} {SLUG} failed ({status}):\n{output}")
        configure = [OPTIONS.cmake, "-S", cls.copy, "-B", cls.build, f"-DCOURSE_ONLY=^{NUMBER}_",
                     "--log-level=NOTICE"]
        if OPTIONS.cuda_architectures:
            configure.append(f"-DCMAKE_CUDA_ARCHITECTURES={OPTIONS.cuda_architectures}")
        if OPTIONS.cuda_compiler:
            configure.append(f"-DCMAKE_CUDA_COMPILER={OPTIONS.cuda_compiler}")
        if OPTIONS.gpu_lock:
            configure.append(f"-DCOURSE_GPU_LOCK={OPTIONS.gpu_lock}")
        for step in (configure, [OPTIONS.cmake, "--build", cls.build, "-j", str(OPTIONS.jobs)]):
            status, output = run(step, cls.copy)
            if status != 0:
                raise AssertionError(f"{' '.join(step)} failed ({status}):\n{output[-6000:]}")
        cls.exercise_build = os.path.join(cls.build, "exercises", EXERCISE_ID)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch)

    def program(self, name):
        return os.path.join(self.exercise_build, name)

    def ctest(self, *args, env=None):
        return run([OPTIONS.ctest, "--test-dir", self.build, *args], self.copy, env)


class OnTheCpu(Scaffolded):
    def tool(self, *args):
        return run([sys.executable, "tools/course", "new-exercise", *args], self.copy)

    def test_it_writes_every_file_and_declares_the_exercise(self):
        for path in CREATED:
            self.assertTrue(os.path.isfile(os.path.join(self.copy, path)), path)
        with open(os.path.join(self.copy, f"exercises/{EXERCISE_ID}/CMakeLists.txt"), encoding="utf-8") as f:
            declaration = f.read()
        self.assertRegex(declaration, rf"NUMBER {NUMBER}\s+NAME {SLUG}\s+STUDENT_FILES {SLUG}\.cu")
        self.assertRegex(declaration, rf"MUTANTS\s+{MUTANT}\s*\)")

    def test_refusals_say_why_and_write_nothing(self):
        refusals = [
            ((NUMBER, "other_name"), f"number {NUMBER} is taken: exercises/{EXERCISE_ID} exists"),
            (("03", "fresh_name"), "number 03 is taken"),
            (("7", "fresh_name"), "two digits from 01 to 99"),
            (("00", "fresh_name"), "two digits from 01 to 99"),
            (("98", "Shared_Memory"), "is not lowercase letters and digits"),
            (("98", "9lives"), "is not lowercase letters and digits"),
            (("98", "double__underscore"), "is not lowercase letters and digits"),
            (("98", "with-dash"), "is not lowercase letters and digits"),
            (("98", "x" * 31), "more than 30"),
            (("98", "namespace"), "a C++ keyword"),
            (("98", "workload"), "another file of the exercise"),
            (("98", "scale_on_gpu"), "a name the generated code uses"),
            (("98", "device_memory"), "exercise 03 already has a student file device_memory.cu"),
            (("98", ""), "give the exercise's number and name"),
            # next: one more than the highest number taken, here 99's: past two digits.
            (("next", "fresh_name"), "two digits from 01 to 99 (e.g. 05), not '100'"),
        ]
        before = tree_state(self.copy)
        for args, reason in refusals:
            with self.subTest(args=args):
                status, output = self.tool(*args)
                self.assertEqual(status, 2, output)
                self.assertIn("new_exercise: refused: ", output)
                self.assertIn(reason, output)
        self.assertEqual(tree_state(self.copy), before, "a refusal wrote or changed files")
        # A leftover folder of the number, without its exercise, takes the number too.
        leftover = os.path.join(self.copy, "solutions", "95_leftover")
        os.makedirs(leftover)
        try:
            status, output = self.tool("95", "fresh_name")
        finally:
            os.rmdir(leftover)
        self.assertEqual(status, 2, output)
        self.assertIn("number 95 is taken: solutions/95_leftover exists", output)

    def test_the_french_statement_has_the_english_one_s_structure(self):
        status, output = run([sys.executable, "tools/course", "statement-parity", f"exercises/{EXERCISE_ID}"],
                             self.copy)
        self.assertEqual(status, 0, output)

    def test_dry_run_lists_the_files_and_writes_nothing(self):
        before = tree_state(self.copy)
        status, output = self.tool("--dry-run", "98", "dry_run_only")
        self.assertEqual(status, 0, output)
        self.assertIn("exercises/98_dry_run_only/dry_run_only.cu", output)
        self.assertIn("tests/mutants/98_dry_run_only/example_no_bounds_check.mutant", output)
        self.assertIn("course map: row 98 added", output)
        self.assertIn("(dry run: nothing written)", output)
        self.assertEqual(tree_state(self.copy), before, "--dry-run wrote or changed files")

    def test_course_map_rows(self):
        with open(os.path.join(self.copy, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        rows = re.findall(r"^\| ([0-9]{2}) \| (.*) \| ([a-z ]+) \|$", readme, re.M)
        numbers = [number for number, _, _ in rows]
        self.assertEqual(numbers, sorted(numbers), "the course map's rows are out of order")
        self.assertIn((NUMBER, f"[scaffold test](exercises/{EXERCISE_ID}/)", "available"), rows)
        # A planned row of the number becomes a link, through make's target this time.
        planned = [(number, topic) for number, topic, status in rows if status == "planned"]
        if not planned:
            self.skipTest("the course map has no planned row left")
        number, topic = planned[0]
        status, output = run(["make", "-s", "new-exercise", f"NN={number}", "SLUG=planned_topic"], self.copy)
        self.assertEqual(status, 0, output)
        self.assertIn(f"course map: planned row {number} turned into a link", output)
        with open(os.path.join(self.copy, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn(f"| {number} | [{topic}](exercises/{number}_planned_topic/) | available |", readme)
        self.assertNotIn(f"| {number} | {topic} | planned |", readme)

    def test_skeleton_and_solution_differ_only_in_student_regions(self):
        status, output = run([sys.executable, "tools/course", "check-regions", self.copy], self.copy)
        self.assertEqual(status, 0, output)
        self.assertIn(", 0 problems", output)
        with open(os.path.join(self.copy, f"exercises/{EXERCISE_ID}/{SLUG}.cu"), encoding="utf-8") as f:
            skeleton = f.read()
        self.assertNotIn("cudaMalloc(", skeleton, "the skeleton holds solution code")

    def test_style_holds_for_short_and_longest_names(self):
        # Names that sort before and after the other headers, and the longest one allowed.
        for number, slug in (("97", "aa"), ("96", "zz_" + "w" * 27)):
            status, output = self.tool(number, slug)
            self.assertEqual(status, 0, output)
        paths = [f"{parent}/{number}_{slug}" for parent in ("exercises", "solutions", "tests/mutants")
                 for number, slug in ((NUMBER, SLUG), ("97", "aa"), ("96", "zz_" + "w" * 27))]
        status, output = run(["bash", "tools/style.sh", "--check", *paths], self.copy)
        if status == SKIP:
            self.skipTest(f"tools/style.sh cannot check here:\n{output}")
        self.assertEqual(status, 0, output)

    def test_the_copy_builds_every_variant(self):
        for name in (f"check_{NUMBER}", f"ex{NUMBER}_solution", f"ex{NUMBER}_skeleton",
                     f"ex{NUMBER}_mutant_{MUTANT}"):
            self.assertTrue(os.access(self.program(name), os.X_OK), f"{name} was not built")

    def test_the_students_path_builds_it(self):
        build_dir = os.path.join(self.scratch, "make")
        status, output = run([sys.executable, "tools/course", "build", NUMBER], self.copy,
                             {"BUILD_DIR": build_dir})
        self.assertEqual(status, 0, output)
        self.assertTrue(os.access(os.path.join(build_dir, EXERCISE_ID), os.X_OK), output)

    def test_its_tests_are_gpu_tests_skipped_without_a_device(self):
        status, output = self.ctest("-N", "-L", "gpu")
        self.assertEqual(status, 0, output)
        self.assertEqual(set(re.findall(r"Test +#[0-9]+: (\S+)", output)), TESTS, output)
        status, output = self.ctest("-N", "-LE", "gpu")
        self.assertIn("Total Tests: 0", output, "a test without the gpu label")
        # No device visible: every check must say skipped (77), none passed or failed.
        status, output = self.ctest(env={"CUDA_VISIBLE_DEVICES": ""})
        self.assertEqual(status, 0, output)
        skipped = set(re.findall(r"Test +#[0-9]+: (\S+) \.+ *\*+Skipped", output))
        self.assertEqual(skipped, TESTS, output)


class OnTheGpu(Scaffolded):
    def check(self, variant):
        return run([self.program(f"check_{NUMBER}"), "--program", self.program(f"ex{NUMBER}_{variant}"),
                    *(["--gpu-lock", OPTIONS.gpu_lock] if OPTIONS.gpu_lock else [])], self.copy)

    def test_the_solution_passes_its_check(self):
        status, output = self.check("solution")
        self.assertEqual(status, 0, output)
        self.assertIn("score: 10/10 points, 1 of 1 cases passed: PASS", output)

    def test_the_skeleton_fails_its_check(self):
        status, output = self.check("skeleton")
        self.assertEqual(status, 1, output)
        self.assertIn("score: 0/10 points, 0 of 1 cases passed: FAIL", output)
        self.assertIn("hint:", output)

    def test_the_example_variant_fails_with_its_hint(self):
        status, output = self.check(f"mutant_{MUTANT}")
        self.assertEqual(status, 1, output)
        self.assertIn("a kernel wrote past the end of a device buffer", output)

    def test_the_copys_own_tests_pass(self):
        status, output = self.ctest("--output-on-failure")
        self.assertEqual(status, 0, output)
        passed = set(re.findall(r"Test +#[0-9]+: (\S+) \.+ +Passed", output))
        # memcheck reports skipped where compute-sanitizer is missing; the rest must pass.
        self.assertTrue(TESTS - {f"{EXERCISE_ID}.solution.memcheck"} <= passed, output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", action="store_true", help="the GPU side (77 without a device)")
    parser.add_argument("--cuda-architectures", default="",
                        help="CMAKE_CUDA_ARCHITECTURES of the copy, ',' between architectures")
    parser.add_argument("--cuda-compiler", default="", help="CMAKE_CUDA_COMPILER of the copy")
    parser.add_argument("--gpu-lock", default="", help="the machine's GPU lock file (COURSE_GPU_LOCK)")
    parser.add_argument("--cmake", default="cmake", help="the cmake that configures and builds the copy")
    parser.add_argument("--ctest", default="ctest", help="the ctest that runs the copy's tests")
    options = parser.parse_args()
    OPTIONS.cuda_architectures = options.cuda_architectures.replace(",", ";")
    OPTIONS.cuda_compiler, OPTIONS.gpu_lock = options.cuda_compiler, options.gpu_lock
    OPTIONS.cmake, OPTIONS.ctest = options.cmake, options.ctest
    if options.gpu:
        absent = cuda_device.absent_reason()
        if absent:
            print(f"SKIPPED: no CUDA device here ({absent})")
            return SKIP
        OPTIONS.jobs = max(2, min(os.cpu_count() or 2, 8))
    case = OnTheGpu if options.gpu else OnTheCpu
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(case)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
