#!/usr/bin/env python3
"""What C++ runs in a kernel (exercise 02's box, and later a Part I slide): the pages quote
the error nvcc prints for a file that calls host code from a kernel. Each quote sits on the
line after a marker naming the file,

    <!-- nvcc-message: docs/examples/host_code_in_kernel.cu -->
    ```
    error: calling a __host__ function("halve(float)") from a __global__ function(...) ...
    ```

(the quote is the first line after the marker, or the first line of the fenced block that
follows it). The test compiles every file a marker names with `nvcc -c -arch=sm_75`,
requires the compilation to fail, and requires each quote to be one of the lines nvcc
printed, file and line prefixes left out ("file.cu(27): "). It looks in
exercises/*/README*.md, docs/*.md and slides/*.md, and fails when no page quotes anything.
The rules are proved first, on small trees with a fake nvcc: a quote nvcc does not print,
a file that compiles, a marker with no quote after it, a marker naming a missing file, no
marker at all; the right quote passes.

    python3 tests/tools/test_kernel_cpp_limits.py [--nvcc PATH]

Exit status 77 (CTest's skip) when no nvcc is found, once the rules have passed.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PAGES = ("exercises/*/README*.md", "docs/*.md", "slides/*.md")
# French typography puts a no-break space before the colon in French pages: both forms are
# the marker.
MARKER = re.compile(r"<!--\s*nvcc-message\s*:\s*(\S+)\s*-->")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# What nvcc (and the host compiler behind it) puts before a message: "file.cu(27): ",
# "file.cpp:27:5: ".
LOCATION = re.compile(r"^\s*(?:\S+\(\d+\)|\S+:\d+(?::\d+)?):\s*")
NVCC_FLAGS = ["-c", "-arch=sm_75"]


def normalised(line):
    return " ".join(LOCATION.sub("", line).split())


def quotes(root):
    """[(page, line number of the quote, file named, quoted text)] in every page, and the
    problems of markers that quote nothing."""
    found, problems = [], []
    for pattern in PAGES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            page = os.path.relpath(path, root).replace(os.sep, "/")
            lines = open(path, encoding="utf-8").read().split("\n")
            for index, line in enumerate(lines):
                marker = MARKER.search(line)
                if not marker:
                    continue
                following = index + 1
                while following < len(lines) and not lines[following].strip():
                    following += 1
                if following < len(lines) and FENCE.match(lines[following]):
                    following += 1
                quote = lines[following].strip().strip("`> ").strip() if following < len(lines) else ""
                if not quote or MARKER.search(quote) or FENCE.match(quote):
                    problems.append(f"{page}:{index + 1}: the marker for {marker.group(1)} quotes nothing on the lines after it")
                    continue
                found.append((page, following + 1, marker.group(1), quote))
    return found, problems


def compile_messages(nvcc, root, source, scratch):
    """(status, the lines nvcc printed) for one compilation of source."""
    run = subprocess.run([nvcc] + NVCC_FLAGS + [source, "-o", os.path.join(scratch, "out.o")],
                         cwd=root, capture_output=True, text=True, timeout=300)
    return run.returncode, (run.stdout + run.stderr).split("\n")


def problems(root, nvcc):
    """Every way the pages' quotes and nvcc disagree, as 'PAGE:LINE: why' lines."""
    found, wrong = quotes(root)
    if not found and not wrong:
        return [f"no page quotes nvcc: no '<!-- nvcc-message: FILE -->' marker in {', '.join(PAGES)}"]
    printed = {}
    with tempfile.TemporaryDirectory() as scratch:
        for page, number, source, quote in found:
            if not os.path.isfile(os.path.join(root, source)):
                wrong.append(f"{page}:{number}: the marker names {source}, which does not exist")
                continue
            if source not in printed:
                printed[source] = compile_messages(nvcc, root, source, scratch)
            status, lines = printed[source]
            if status == 0:
                wrong.append(f"{page}:{number}: {source} compiled with `nvcc {' '.join(NVCC_FLAGS)}`; "
                             "it must fail, so that the quoted error is what a student sees")
                continue
            said = [normalised(line) for line in lines if line.strip()]
            if normalised(quote) not in said:
                errors = [line for line in said if "error" in line][:3] or said[:3]
                wrong.append(f"{page}:{number}: nvcc does not print the quoted line for {source}:\n"
                             f"    quoted:  {normalised(quote)}\n"
                             + "".join(f"    printed: {line}\n" for line in errors))
    return wrong


class Rules(unittest.TestCase):
    """The rules on small trees, with a fake nvcc that prints what a real one would."""

    MESSAGE = 'error: calling a __host__ function("f()") from a __global__ function("k") is not allowed'
    PAGE = "# Exercise 42\n\nText.\n\n<!-- nvcc-message: docs/examples/bad.cu -->\n```\n{quote}\n```\n"

    def tree(self, page, compiles=False, source="docs/examples/bad.cu"):
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        os.makedirs(os.path.join(root, "exercises", "42_x"))
        os.makedirs(os.path.join(root, "docs", "examples"))
        if source:
            open(os.path.join(root, source), "w").write("// a stand-in\n")
        if page is not None:
            open(os.path.join(root, "exercises", "42_x", "README.md"), "w", encoding="utf-8").write(page)
        nvcc = os.path.join(root, "fake-nvcc")
        with open(nvcc, "w") as script:
            script.write("#!/bin/sh\n" + ("exit 0\n" if compiles else
                         f"echo 'docs/examples/bad.cu(3): {self.MESSAGE}' >&2\necho >&2\n"
                         "echo '1 error detected in the compilation of \"bad.cu\".' >&2\nexit 1\n"))
        os.chmod(nvcc, 0o755)
        return root, nvcc

    def test_the_quote_nvcc_prints_passes(self):
        self.assertEqual(problems(*self.tree(self.PAGE.format(quote=self.MESSAGE))), [])

    def test_a_quote_with_its_location_and_a_french_marker_passes(self):
        page = self.PAGE.format(quote="bad.cu(3): " + self.MESSAGE).replace("message:", "message\u00a0:")
        self.assertEqual(problems(*self.tree(page)), [])

    def test_a_quote_nvcc_does_not_print_fails(self):
        found = problems(*self.tree(self.PAGE.format(quote=self.MESSAGE.replace("not allowed", "forbidden"))))
        self.assertEqual(len(found), 1, found)
        self.assertIn("exercises/42_x/README.md:7: nvcc does not print the quoted line", found[0])
        self.assertIn("printed: " + self.MESSAGE, found[0])

    def test_a_file_that_compiles_fails(self):
        found = problems(*self.tree(self.PAGE.format(quote=self.MESSAGE), compiles=True))
        self.assertEqual(len(found), 1, found)
        self.assertIn("compiled with", found[0])

    def test_a_marker_that_quotes_nothing_fails(self):
        found = problems(*self.tree("# Exercise 42\n\n<!-- nvcc-message: docs/examples/bad.cu -->\n\n"))
        self.assertEqual(len(found), 1, found)
        self.assertIn(":3: the marker for docs/examples/bad.cu quotes nothing", found[0])

    def test_a_marker_naming_a_missing_file_fails(self):
        found = problems(*self.tree(self.PAGE.format(quote=self.MESSAGE), source=None))
        self.assertEqual(len(found), 1, found)
        self.assertIn("which does not exist", found[0])

    def test_no_quote_anywhere_fails(self):
        found = problems(*self.tree("# Exercise 42\n\nNo quote.\n"))
        self.assertEqual(len(found), 1, found)
        self.assertIn("no page quotes nvcc", found[0])


def find_nvcc(given):
    for candidate in ([given] if given else []) + [shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nvcc", help="the nvcc to run (CMake's CMAKE_CUDA_COMPILER)")
    arguments = parser.parse_args()
    rules = unittest.TextTestRunner(verbosity=1).run(unittest.defaultTestLoader.loadTestsFromTestCase(Rules))
    if not rules.wasSuccessful():
        return 1
    nvcc = find_nvcc(arguments.nvcc)
    if nvcc is None:
        print("kernel_cpp_limits: no nvcc found: the pages' quotes are not checked (skipped)")
        return 77
    found = problems(ROOT, nvcc)
    for line in found:
        print(line)
    count = len(quotes(ROOT)[0])
    print(f"kernel_cpp_limits: {count} quote(s) of nvcc checked with {nvcc}, {len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
