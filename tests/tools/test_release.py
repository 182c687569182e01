#!/usr/bin/env python3
"""Tests of the students' release (tools/course release; release/leaks.py, release/update.py)
on small copies, without building anything: the course's files filtered for students, the
leak check fed deliberately leaky releases (a solution in place of a skeleton, a region
pasted into a page, a program built from a solution, an instructor's folder), a release of a
small fake course as a git repository and as an archive, and the update of a copy a
student has edited.

    python3 tests/tools/test_release.py
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.release import leaks as release_leaks  # noqa: E402
from course_tools.release import update as release_update  # noqa: E402
from course_tools.release import write as release  # noqa: E402
from course_tools.student import exercises  # noqa: E402

EXERCISE = "03_device_memory"
SKELETON = f"exercises/{EXERCISE}/device_memory.cu"
SOLUTION = f"solutions/{EXERCISE}/device_memory.cu"


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
        handle.write(text)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


class Scratch(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-release-")
        self.addCleanup(shutil.rmtree, self.scratch, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.scratch, *parts)


class Filters(unittest.TestCase):
    def test_makefile_blocks(self):
        text = textwrap.dedent("""\
            shared
            # [instructor-only]
            PRESET ?= default
            # [/instructor-only]
            # [release-only]
            # PRESET ?= student
            # recipe:
            # \t@echo hi
            #
            # [/release-only]
            end
            """)
        self.assertEqual(release.filter_markers(text, "Makefile"),
                         "shared\nPRESET ?= student\nrecipe:\n\t@echo hi\n\nend\n")

    def test_markdown_pages_hold_no_marker_blocks(self):
        text = "intro\n<!-- [instructor-only] -->\nsecret\n<!-- [/instructor-only] -->\nend\n"
        with self.assertRaisesRegex(release.ReleaseError, re.escape("README.md:2: a marker block")):
            release.filter_file("README.md", text.encode())
        # In a code block, a marker is an example, not a block.
        example = "```\n# [instructor-only]\n```\n"
        self.assertEqual(release.filter_file("docs/cluster.md", example.encode()).decode(), example)

    def test_links_to_pages_left_behind(self):
        behind = {"docs/instructors.md", "solutions"}.__contains__
        text = ("# Course\n- [Instructors](docs/instructors.md#grading): grading\n"
                "- [Cluster](docs/cluster.md)\n```\n[code](docs/instructors.md)\n```\nend\n")
        shipped = release.filter_file("README.md", text.encode(), behind).decode()
        self.assertEqual(shipped, "# Course\n- [Cluster](docs/cluster.md)\n```\n[code](docs/instructors.md)\n"
                                  "```\nend\n")
        # From a page in docs/, the link is relative to docs/.
        self.assertEqual(release.filter_file("docs/cluster.md", b"a\n* [x](instructors.md)\n", behind), b"a\n")
        # A list left empty leaves one blank line, not two.
        self.assertEqual(release.filter_file("docs/cluster.md", b"a\n\n- [x](instructors.md)\n\n## b\n", behind),
                         b"a\n\n## b\n")
        with self.assertRaisesRegex(release.ReleaseError, re.escape("docs/cluster.md:1: a link to ../solutions/")):
            release.filter_file("docs/cluster.md", b"see [the answers](../solutions/) there\n", behind)

    def test_broken_blocks_are_refused(self):
        cases = {
            "# [instructor-only]\nx\n": "never closed",
            "# [instructor-only]\n# [release-only]\n": "inside an open",
            "# [/release-only]\n": "without an open",
            "# [release-only]\nnot a comment\n# [/release-only]\n": "must start with '# '",
            "<!-- [release-only]\nends --> early\n[/release-only] -->\n": "would end its comment",
        }
        for text, message in cases.items():
            with self.assertRaisesRegex(release.ReleaseError, re.escape(message)):
                release.filter_markers(text, "f")

    def test_presets_keep_the_student_ones_whole(self):
        presets = {"version": 6, "configurePresets": [
            {"name": "base", "hidden": True, "binaryDir": "b", "cacheVariables": {"A": "1", "COURSE_MODE": "x"}},
            {"name": "default", "inherits": "base", "cacheVariables": {"COURSE_MODE": "instructor"}},
            {"name": "student-ci", "inherits": ["base"], "cacheVariables": {"COURSE_MODE": "student"}}],
            "buildPresets": [{"name": "default", "configurePreset": "default"},
                             {"name": "student-ci", "configurePreset": "student-ci"}],
            "testPresets": [{"name": "solutions", "configurePreset": "default"}]}
        kept = json.loads(release.student_presets(json.dumps(presets), "p"))
        self.assertEqual(kept["configurePresets"], [{"name": "student-ci", "binaryDir": "b", "cacheVariables":
                                                     {"A": "1", "COURSE_MODE": "student"}}])
        self.assertEqual([p["name"] for p in kept["buildPresets"]], ["student-ci"])
        self.assertEqual(kept["testPresets"], [])
        with open(os.path.join(ROOT, "CMakePresets.json"), encoding="utf-8") as handle:
            course = json.loads(release.student_presets(handle.read(), "CMakePresets.json"))
        self.assertEqual({p["configurePreset"] for kind in ("buildPresets", "testPresets") for p in course[kind]},
                         {"student"})

    def test_every_exercise_loses_its_mutants_only(self):
        for exercise in exercises.load(ROOT):
            path = os.path.join(exercise.folder, "CMakeLists.txt")
            filtered = release.without_mutants(read(path), path)
            self.assertNotIn("MUTANTS", filtered)
            self.assertEqual(exercises.parse_call(filtered, path)["STUDENT_FILES"], exercise.student_files)

    def test_every_deck_ships_in_english_and_in_french(self):
        # The French decks (slides/NAME.fr.md) go with the English ones: make slides LANG=fr
        # builds them in the release; slides.student_leaks searches their students' build.
        decks = [name for name in os.listdir(os.path.join(ROOT, "slides")) if name.endswith(".md")]
        self.assertTrue(decks)
        for name in decks + [name[:-len(".md")] + ".fr.md" for name in decks if not name.endswith(".fr.md")]:
            self.assertTrue(release.shipped(f"slides/{name}"), name)
        # The French slides not merged into a deck yet are drafts: they stay behind.
        self.assertFalse(release.shipped("slides/fr-pending/races.md"))

    def test_the_students_pages_links_resolve_in_the_release(self):
        folder = tempfile.mkdtemp(prefix="release-pages-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        tree = os.path.join(folder, "tree")
        release.write_tree(ROOT, tree)
        # Every page of the release: the README, docs/, the statements, the decks (issue 45).
        pages = sorted(os.path.relpath(os.path.join(base, name), tree).replace(os.sep, "/")
                       for base, _, names in os.walk(tree) for name in names if name.endswith(".md"))
        self.assertIn("README.md", pages)
        self.assertIn("exercises/03_device_memory/README.fr.md", pages)
        self.assertIn("docs/cluster.md", pages)
        self.assertNotIn("docs/instructors.md", pages)
        self.assertNotIn("docs/maintainers.md", pages)

        def anchors(page):
            found = set()
            for _, line in release.markdown_lines(read(os.path.join(tree, page))):
                if line.startswith("#"):
                    title = line.lstrip("#").strip().lower()
                    found.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
            return found

        for page in pages:
            text = read(os.path.join(tree, page))
            if not page.startswith("slides/"):  # a deck may show a path as code
                self.assertNotIn("solutions/", text, page)
            # Nor does a page send a student to a page the release does not hold, link or not.
            for behind in ("docs/instructors.md", "docs/maintainers.md", "CONTRIBUTING.md"):
                self.assertNotIn(behind, text, page)
            for _, line in release.markdown_lines(text):
                for link in release.markdown_links(line):
                    target = release.link_target(page, link)
                    if target is None and not link.startswith("#"):
                        continue
                    target = target or page
                    self.assertTrue(os.path.exists(os.path.join(tree, target)),
                                    f"{page} links to {link}, which the release does not hold")
                    if "#" in link and target.endswith(".md"):
                        self.assertIn(link.split("#", 1)[1], anchors(target), f"{page} links to {link}")


class Leaks(Scratch):
    """The leak check on the course's own solutions, against small releases."""

    def honest_release(self):
        folder = self.path("release")
        shutil.copytree(os.path.join(ROOT, "exercises", EXERCISE), os.path.join(folder, "exercises", EXERCISE))
        return folder

    def leaks(self, folder):
        report = release_leaks.scan(folder, ROOT)
        return report, "\n".join(report.leaks)

    def test_an_honest_release_passes(self):
        report, leaks = self.leaks(self.honest_release())
        self.assertEqual(leaks, "")
        self.assertGreater(report.solution.regions, 0)
        self.assertTrue(any("fewer than" in why for _, why in report.solution.skipped))

    def test_a_solution_in_place_of_the_skeleton_leaks(self):
        folder = self.honest_release()
        shutil.copy(os.path.join(ROOT, SOLUTION), os.path.join(folder, SKELETON))
        _, leaks = self.leaks(folder)
        self.assertIn(f"holds the code of the whole of {SOLUTION}", leaks)
        self.assertIn(f"holds the code of region 2 of {SOLUTION}", leaks)

    def test_a_region_pasted_into_a_page_leaks_however_laid_out(self):
        lines = read(os.path.join(ROOT, SOLUTION)).splitlines()
        start = next(i for i, line in enumerate(lines) if "TODO(student):" in line and i > 30)
        end = next(i for i in range(start, len(lines)) if "END TODO(student)" in lines[i])
        # Re-indented, joined two by two, its comments replaced: the same code all the same.
        body = [line.strip() for line in lines[start + 1:end] if not line.strip().startswith("//")]
        pasted = "\n".join(" ".join(body[i:i + 2]) + "  // see the lecture" for i in range(0, len(body), 2))
        folder = self.honest_release()
        write(os.path.join(folder, "slides", "deck.md"), f"# Slide\n\n```cpp\n{pasted}\n```\n")
        _, leaks = self.leaks(folder)
        self.assertIn(f"slides/deck.md holds the code of region 2 of {SOLUTION}", leaks)

    def test_instructor_folders_leak(self):
        folder = self.honest_release()
        write(os.path.join(folder, "tests", "mutants", EXERCISE, "x.mutant"), "hint: x\n")
        _, leaks = self.leaks(folder)
        self.assertIn("an instructor's folder (tests/)", leaks)

    def test_instructor_pages_leak(self):
        folder = self.honest_release()
        write(os.path.join(folder, "docs", "maintainers.md"), "# For maintainers: the tests\n")
        _, leaks = self.leaks(folder)
        self.assertIn("docs/maintainers.md: a page for instructors or maintainers is in the release", leaks)

    def test_a_program_built_from_a_solution_leaks(self):
        folder = self.honest_release()
        # As nvcc and g++ leave it: CUDA_CHECK's __FILE__ (and -lineinfo) name the source.
        write(os.path.join(folder, "build", "make", "03_device_memory"),
              b"\x7fELF\x02\x01\x01\0" + b"\0" * 64 + f"{ROOT}/{SOLUTION}\0".encode() + b"\0" * 16, "wb")
        _, leaks = self.leaks(folder)
        self.assertIn("build/make/03_device_memory was built from a solution", leaks)

    def test_a_compiled_object_names_its_solution(self):
        compiler = shutil.which("gcc") or shutil.which("cc")
        if not compiler:
            self.skipTest("no C compiler")
        source = self.path("course", "solutions", "03_device_memory", "leak.c")
        write(source, 'const char* where(void) { return __FILE__; }\n')
        folder = self.honest_release()
        os.makedirs(os.path.join(folder, "build"))
        subprocess.run([compiler, "-c", os.path.join("solutions", "03_device_memory", "leak.c"), "-o",
                        os.path.join(folder, "build", "leak.o")], cwd=self.path("course"), check=True)
        _, leaks = self.leaks(folder)
        self.assertIn("build/leak.o was built from a solution", leaks)

    def test_a_string_only_a_solution_holds_leaks(self):
        folder = self.honest_release()
        report, _ = self.leaks(folder)
        self.assertTrue(report.unique_literals, "no string literal is unique to the solutions")
        literal, where = next(iter(report.unique_literals.items()))
        write(os.path.join(folder, "build", "check_01"), b"\x7fELF" + b"\0" * 32 + literal + b"\0", "wb")
        _, leaks = self.leaks(folder)
        self.assertIn(f"build/check_01 holds the string {literal.decode()!r}, found only in {where}", leaks)

    def test_a_compile_database_naming_a_solution_leaks(self):
        folder = self.honest_release()
        entries = [{"directory": "/x", "file": f"/x/{SOLUTION}", "arguments": ["nvcc"]}]
        write(os.path.join(folder, "build", "student", "compile_commands.json"), json.dumps(entries))
        _, leaks = self.leaks(folder)
        self.assertIn(f"compiles /x/{SOLUTION}, a solution", leaks)

    def test_the_command_says_leak_and_fails(self):
        folder = self.honest_release()
        shutil.copy(os.path.join(ROOT, SOLUTION), os.path.join(folder, SKELETON))
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "release-leaks", folder],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("LEAK: ", done.stdout)


FAKE_CALL = """course_exercise(
  NUMBER {number}
  NAME {name}
  STUDENT_FILES {file}
  CHECK check.cpp
  POINTS 4
  MUTANTS
    forgets_it
)
"""


def fake_exercise(root, number, name, skeleton, solution=None):
    folder = os.path.join(root, "exercises", f"{number}_{name}")
    write(os.path.join(folder, "CMakeLists.txt"), FAKE_CALL.format(number=number, name=name, file=f"{name}.cu"))
    write(os.path.join(folder, "README.md"), f"# Exercise {number}\n")
    write(os.path.join(folder, "README.fr.md"), f"# Exercice {number}\n")
    write(os.path.join(folder, "check.cpp"), "int main() { return 0; }\n")
    write(os.path.join(folder, f"{name}.cu"), skeleton)
    if solution:
        write(os.path.join(root, "solutions", f"{number}_{name}", f"{name}.cu"), solution)


SKELETON_CODE = """// the kernel
__global__ void k(float* y, int n) {
  // TODO(student): write y[i] = 2 for every i
  // END TODO(student)
}
"""
SOLUTION_CODE = SKELETON_CODE.replace("  // END", """  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 2.0f;
  }
  // END""")


class WritingReleases(Scratch):
    """tools/course release on a small fake course (a git repository)."""

    def fake_course(self):
        root = self.path("course")
        write(os.path.join(root, "README.md"), "# Course\n- [grading](docs/instructors.md)\n")
        write(os.path.join(root, "docs", "instructors.md"), "# For instructors: grading\n")
        write(os.path.join(root, "Makefile"), "all:\n\t@echo course\n")
        fake_exercise(root, "01", "demo", SKELETON_CODE, SOLUTION_CODE)
        write(os.path.join(root, "tests", "mutants", "01_demo", "forgets_it.mutant"), "hint: x\n")
        write(os.path.join(root, "tools", "course_tools", "grading", "grade.py"), "print('grader')\n")
        write(os.path.join(root, "tools", "course_tools", "student", "commands.py"), "print('student')\n")
        write(os.path.join(root, "tools", "course"), "print('tools')\n")
        os.chmod(os.path.join(root, "tools", "course"), 0o755)
        write(os.path.join(root, "exercises", "01_demo", "untracked.txt"), "scratch\n")
        git = ["git", "-C", root]
        subprocess.run(git + ["init", "-q"], check=True)
        write(os.path.join(root, ".git", "info", "exclude"), "*.log\n")
        write(os.path.join(root, "exercises", "01_demo", "ignored.log"), "build output\n")
        subprocess.run(git + ["add", "README.md", "docs", "Makefile", "exercises/01_demo/CMakeLists.txt",
                              "exercises/01_demo/README.md", "exercises/01_demo/README.fr.md",
                              "exercises/01_demo/check.cpp",
                              "exercises/01_demo/demo.cu", "solutions", "tests", "tools"], check=True)
        return root

    def release(self, root, *arguments):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", "--root", root]
                              + list(arguments), capture_output=True, text=True)

    def test_git_release_and_archive(self):
        root = self.fake_course()
        done = self.release(root, self.path("out", "students"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        out = self.path("out", "students")
        listed = subprocess.run(["git", "-C", out, "ls-files"], capture_output=True, text=True,
                                check=True).stdout.split()
        expected = [".course-release.json", "Makefile", "README.md", "exercises/01_demo/CMakeLists.txt",
                    "exercises/01_demo/README.fr.md", "exercises/01_demo/README.md", "exercises/01_demo/check.cpp", "exercises/01_demo/demo.cu",
                    "exercises/01_demo/untracked.txt", "tools/course",
                    "tools/course_tools/student/commands.py"]
        # The working tree as it is: a new file not committed yet ships (and is named), an
        # ignored one does not.
        self.assertEqual(listed, expected)
        self.assertIn("not committed yet, shipped as they are: exercises/01_demo/untracked.txt", done.stderr)
        commits = subprocess.run(["git", "-C", out, "rev-list", "--count", "HEAD"], capture_output=True,
                                 text=True, check=True).stdout.strip()
        self.assertEqual(commits, "1")
        self.assertEqual(read(os.path.join(out, "README.md")), "# Course\n")
        self.assertNotIn("MUTANTS", read(os.path.join(out, "exercises/01_demo/CMakeLists.txt")))
        self.assertTrue(os.access(os.path.join(out, "tools", "course"), os.X_OK))
        manifest = json.loads(read(os.path.join(out, ".course-release.json")))
        with open(os.path.join(out, "README.md"), "rb") as handle:
            self.assertEqual(manifest["files"]["README.md"], hashlib.sha256(handle.read()).hexdigest())
        # The same files as an archive, under one folder; a second write is refused.
        done = self.release(root, "--tar", self.path("out", "students-tar"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        with tarfile.open(self.path("out", "students-tar.tar.gz")) as archive:
            names = sorted(m.name for m in archive.getmembers() if m.isfile())
        self.assertEqual(names, [f"students-tar/{name}" for name in expected])
        done = self.release(root, self.path("out", "students"))
        self.assertEqual(done.returncode, 1)
        self.assertIn("exists already", done.stderr)

    def test_an_unfinished_exercise_does_not_ship_and_the_map_says_so(self):
        # Issue 45: an exercise just scaffolded by make new-exercise (a placeholder statement),
        # or without its French statement, is not handed out; its course-map row says so.
        root = self.fake_course()
        fake_exercise(root, "02", "scaffolded", SKELETON_CODE)
        write(os.path.join(root, "exercises", "02_scaffolded", "README.md"),
              "# Exercise 02\n<!-- TODO(maintainer): tools/course new-exercise wrote this statement -->\n")
        fake_exercise(root, "03", "english_only", SKELETON_CODE)
        os.unlink(os.path.join(root, "exercises", "03_english_only", "README.fr.md"))
        write(os.path.join(root, "README.md"),
              "# Course\n\n| # | exercise | status |\n|---|---|---|\n"
              "| 01 | [demo](exercises/01_demo/) | available |\n"
              "| 02 | [scaffolded](exercises/02_scaffolded/README.md) | available |\n"
              "| 03 | [english only](exercises/03_english_only/) | available |\n")
        done = self.release(root, self.path("out", "students"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        out = self.path("out", "students")
        self.assertTrue(os.path.isdir(os.path.join(out, "exercises", "01_demo")))
        self.assertFalse(os.path.exists(os.path.join(out, "exercises", "02_scaffolded")))
        self.assertFalse(os.path.exists(os.path.join(out, "exercises", "03_english_only")))
        self.assertIn("exercises/02_scaffolded left out: its statement (README.md) is still a placeholder",
                      done.stderr)
        self.assertIn("exercises/03_english_only left out: it has no French statement (README.fr.md)", done.stderr)
        self.assertEqual(read(os.path.join(out, "README.md")).splitlines()[4:],
                         ["| 01 | [demo](exercises/01_demo/) | available |",
                          "| 02 | scaffolded | not available yet |",
                          "| 03 | english only | not available yet |"])

    def test_every_exercise_of_the_course_ships(self):
        # The course's own exercises are all finished: the release leaves none out.
        self.assertEqual(release.unfinished_exercises(ROOT), {})

    def test_a_copy_without_git_ships_its_files_outside_the_generated_folders(self):
        root = self.fake_course()
        shutil.rmtree(os.path.join(root, ".git"))
        write(os.path.join(root, "exercises", "01_demo", "__pycache__", "x.pyc"), "")
        write(os.path.join(root, "build", "exercises", "01_demo", "x.cu"), "")
        done = self.release(root, "--tar", self.path("out", "copy"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        with tarfile.open(self.path("out", "copy.tar.gz")) as archive:
            names = sorted(m.name for m in archive.getmembers() if m.isfile())
        self.assertIn("copy/exercises/01_demo/untracked.txt", names)
        self.assertFalse([n for n in names if "pycache" in n or "/build/" in n or "solutions" in n], names)

    def test_a_leaking_course_writes_nothing(self):
        root = self.fake_course()
        write(os.path.join(root, "README.md"), f"# Course\n```cpp\n{SOLUTION_CODE}```\n")
        done = self.release(root, self.path("out", "students"))
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("LEAK: README.md holds the code of region 1 of solutions/01_demo/demo.cu", done.stderr)
        self.assertEqual(os.listdir(self.path("out")), [])

    def test_an_undeclared_script_or_dot_file_in_an_exercise_stops_the_release(self):
        # A scratch script of an instructor's session (issue 27: exercise 08's .gpu3.sh).
        for name, executable in ((".gpu3.sh", False), ("notes.py", False), ("run_me", True),
                                 (".scratch/cache.txt", False)):
            with self.subTest(name=name):
                root = self.fake_course()
                extra = os.path.join(root, "exercises", "01_demo", name)
                write(extra, "#!/bin/sh\n" if executable else "x = 1\n")
                if executable:
                    os.chmod(extra, 0o755)
                out = self.path("out", name.replace("/", "_"))
                done = self.release(root, out)
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertIn(f"exercises/01_demo/{name}: a dot-file or script in an exercise folder",
                              done.stderr)
                self.assertFalse(os.path.exists(out))
                shutil.rmtree(root)

    def test_a_script_the_exercise_declares_ships(self):
        root = self.fake_course()
        cmake_file = os.path.join(root, "exercises", "01_demo", "CMakeLists.txt")
        write(cmake_file, read(cmake_file).replace("  MUTANTS", "  SCRIPTS caller.py\n  MUTANTS"))
        write(os.path.join(root, "exercises", "01_demo", "caller.py"), "print('caller')\n")
        done = self.release(root, self.path("out", "students"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertTrue(os.path.isfile(self.path("out", "students", "exercises", "01_demo", "caller.py")))

    def test_the_course_has_no_undeclared_script_or_dot_file_in_its_exercises(self):
        files = [p for p in release.course_files(ROOT) if release.shipped(p)]
        self.assertEqual(release.undeclared_extras(ROOT, files), [])
        # The top level's style files ship on purpose.
        self.assertTrue(release.shipped(".clang-format") and release.shipped(".editorconfig"))


class Updates(Scratch):
    """A copy handed out, edited by its student, brought up to a new release."""

    def release_folder(self, name, exercises_given, extra=None):
        root = self.path(name)
        for number, exercise_name, skeleton in exercises_given:
            fake_exercise(root, number, exercise_name, skeleton)
        for relative, text in (extra or {}).items():
            write(os.path.join(root, relative), text)
        files = {}
        for base, _, names in os.walk(root):
            for file_name in names:
                path = os.path.join(base, file_name)
                with open(path, "rb") as handle:
                    files[os.path.relpath(path, root)] = hashlib.sha256(handle.read()).hexdigest()
        write(os.path.join(root, release_update.MANIFEST), json.dumps({"files": files}))
        return root

    def test_update(self):
        two_regions = SKELETON_CODE + "\nvoid host() {\n  // TODO(student): call k\n  // END TODO(student)\n}\n"
        old = self.release_folder("old", [("01", "kept", two_regions), ("02", "renamed", SKELETON_CODE),
                                          ("03", "untouched", SKELETON_CODE)],
                                  {"common/driver.hpp": "// driver v1\n", "common/gone.hpp": "// old\n"})
        copy = self.path("alice")
        shutil.copytree(old, copy)
        # Alice's work: both regions of 01, the region of 02, and a course header she edited.
        kept = os.path.join(copy, "exercises/01_kept/kept.cu")
        write(kept, read(kept).replace("  // END TODO(student)\n}\n\nvoid",
                                       "  y[0] = 2.0f;  // alice\n  // END TODO(student)\n}\n\nvoid", 1)
                             .replace("// TODO(student): call k\n", "// TODO(student): call k\n  k<<<1, 1>>>(0, 0);\n"))
        renamed = os.path.join(copy, "exercises/02_renamed/renamed.cu")
        write(renamed, read(renamed).replace("  // END", "  y[1] = 2.0f;  // alice\n  // END"))
        write(os.path.join(copy, "common/driver.hpp"), "// driver v1, with alice's debugging\n")

        fixed = two_regions.replace("// the kernel", "// the kernel: one thread per element")
        new = self.release_folder("new", [
            ("01", "kept", fixed),                                                 # a fixed statement
            ("02", "renamed", SKELETON_CODE.replace("write y[i] = 2", "set y[i] to 2")),  # a reworded region
            ("03", "untouched", SKELETON_CODE.replace("// the kernel", "// fixed")),
            ("04", "added", SKELETON_CODE)],                                      # a new exercise
            {"common/driver.hpp": "// driver v2\n"})

        work = release_update.update(copy, new)
        report = "\n".join(work.lines())
        # The kept regions, in the fixed text.
        self.assertEqual(read(kept), fixed.replace("  // END TODO(student)\n}\n\nvoid",
                                                   "  y[0] = 2.0f;  // alice\n  // END TODO(student)\n}\n\nvoid", 1)
                         .replace("// TODO(student): call k\n", "// TODO(student): call k\n  k<<<1, 1>>>(0, 0);\n"))
        self.assertIn("merged exercises/01_kept/kept.cu", report)
        # The region that cannot be matched: her file as it was, the new one beside it.
        self.assertIn("y[1] = 2.0f;  // alice", read(renamed))
        self.assertIn("set y[i] to 2", read(renamed + ".new"))
        self.assertIn("NEEDS YOU: exercises/02_renamed/renamed.cu: left as it was", report)
        self.assertIn("gone or reworded: '// TODO(student): write y[i] = 2 for every i'", report)
        # Never edited: replaced; a new exercise: added; the course's files: replaced, hers kept.
        self.assertIn("// fixed", read(os.path.join(copy, "exercises/03_untouched/untouched.cu")))
        self.assertTrue(os.path.isfile(os.path.join(copy, "exercises/04_added/added.cu")))
        self.assertEqual(read(os.path.join(copy, "common/driver.hpp")), "// driver v2\n")
        self.assertIn("alice", read(os.path.join(copy, "common/driver.hpp.mine")))
        self.assertFalse(os.path.exists(os.path.join(copy, "common/gone.hpp")))
        self.assertEqual(read(os.path.join(copy, release_update.MANIFEST)),
                         read(os.path.join(new, release_update.MANIFEST)))
        # Run again: nothing more to do but the file she still has to merge.
        again = release_update.update(copy, new)
        self.assertEqual(again.changed, [])
        self.assertEqual(len(again.attention), 1)

    def test_the_command_exits_1_when_a_file_needs_merging(self):
        old = self.release_folder("old", [("01", "a", SKELETON_CODE)])
        copy = self.path("bob")
        shutil.copytree(old, copy)
        path = os.path.join(copy, "exercises/01_a/a.cu")
        write(path, read(path).replace("  // END", "  y[0] = 1;\n  // END"))
        new = self.release_folder("new", [("01", "a", SKELETON_CODE + "// TODO(student): more\n// END TODO(student)\n")])
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", "--update", copy,
                               "--from", new], capture_output=True, text=True)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("(1 here, 2 there: new: '// TODO(student): more')", done.stdout)


if __name__ == "__main__":
    unittest.main()
