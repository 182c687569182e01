#!/usr/bin/env python3
"""Tests of tools/course slides on a copy: a deck and the sources it cuts code from are copied
into a temporary repository, one thing is broken, and the tool must fail with the file,
the line and the reason; the intact copy must pass, and a student build must hold no
solution code.

    python3 tests/tools/test_slides.py                  the markers, includes and figures, and
                                                        the French decks' build (--lang)
    python3 tests/tools/test_slides.py --pdf BUILD-DIR  every deck, English and French, rendered
                                                        to PDF, each with as
                                                        many pages as slides; and a deck whose
                                                        pages Marp counts otherwise is refused
                                                        (77 without Marp, chromium or pdfinfo)
    python3 tests/tools/test_slides.py --fit BUILD-DIR  every deck, English and French, the
                                                        instructors' and the students', laid
                                                        out in chromium: every
                                                        slide fits; and a deck with slides that
                                                        do not is refused, each one named
                                                        (77 without Marp or chromium)
    python3 tests/tools/test_slides.py --leaks BUILD-DIR
                                                        the students' decks, English and
                                                        French, expanded, hold no
                                                        solution code (the release's leak check)
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = [os.path.join(ROOT, "tools", "course"), "slides"]
SKELETON = "exercises/03_device_memory/device_memory.cu"
SOLUTION = "solutions/03_device_memory/device_memory.cu"
HEADER = "exercises/03_device_memory/device_memory.hpp"

# The deck of the copy: line numbers below count from its first line.
DECK = """\
---
marp: true
---

# Device memory

<!-- include: exercises/03_device_memory/device_memory.hpp#api -->

---

## The kernel

<!-- include: solutions/03_device_memory/device_memory.cu#affine-kernel -->

---

## The round trip

<!-- include: solutions/03_device_memory/device_memory.cu#round-trip -->
<!-- figure: 03_later.png -->
<!-- ![a figure to come](figures/03_later.png) -->
"""
HEADER_INCLUDE_LINE, KERNEL_INCLUDE_LINE, ROUND_TRIP_INCLUDE_LINE = 7, 13, 19


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def line_of(text, needle, occurrence=0):
    """1-based number of the line holding `needle` (its `occurrence`-th one)."""
    numbers = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    return numbers[occurrence]


class SlidesOnACopy(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="slides-test-")
        self.root = os.path.join(self.scratch, "course")
        for path in (SKELETON, SOLUTION, HEADER):
            os.makedirs(os.path.dirname(self.path(path)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, path), self.path(path))
        write(self.path("slides/deck.md"), DECK)
        self.compiled = [SKELETON, SOLUTION]
        self.mode = "instructor"

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def path(self, relative):
        return os.path.join(self.root, relative)

    def run_tool(self, *extra):
        """(status, stdout + stderr) of slides.py --check on the copy."""
        build = os.path.join(self.scratch, "build")
        records = [f"mode\t{self.mode}", "only\t", "target\tprogram"]
        records += [f"source\t{self.path(p)}" for p in self.compiled]
        records += [f"include\t{self.path('exercises/03_device_memory')}"]
        write(os.path.join(build, "compiled_sources.tsv"), "\n".join(records) + "\n")
        done = subprocess.run([sys.executable, *TOOL, "--check", "--root", self.root,
                               "--build-dir", build, *extra], capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr

    def edit(self, relative, old, new):
        text = read(self.path(relative))
        self.assertEqual(text.count(old), 1, f"{old!r} in {relative}")
        write(self.path(relative), text.replace(old, new))

    def assert_fails_with(self, expected):
        status, output = self.run_tool()
        self.assertEqual(status, 1, output)
        self.assertIn(expected, output)

    # --- the intact copy: the control of every broken one ------------------------------

    def test_intact_copy_passes_and_shows_the_solution(self):
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertIn("deck (3 slides)", output)
        self.assertIn("slides/deck.md:20: figure 03_later.png not committed yet", output)
        expanded = read(os.path.join(output_dir, "deck.md"))
        self.assertIn("    y[i] = scale * x[i] + offset;", expanded)
        self.assertIn("```cpp\n__global__ void affine_kernel(", expanded)
        self.assertIn("<sub>solutions/03_device_memory/device_memory.cu</sub>", expanded)
        self.assertNotIn("[slide:", expanded)
        # A solution shows the answer, not the skeleton's instructions around it.
        self.assertNotIn("TODO(student)", expanded)
        # The header's region is dedented and keeps its comments.
        self.assertIn("\n// y[i] = scale * x[i] + offset", expanded)

    def test_student_build_shows_the_skeleton_in_place_of_the_solution(self):
        shutil.rmtree(self.path("solutions"))  # as in the students' release
        self.compiled = [SKELETON]
        self.mode = "student"
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--output", output_dir)
        self.assertEqual(status, 0, output)
        expanded = read(os.path.join(output_dir, "deck.md"))
        self.assertNotIn("y[i] = scale * x[i] + offset;", expanded)
        self.assertNotIn("cudaMalloc(&device_x", expanded)
        self.assertNotIn("shown in class", expanded)  # never a placeholder without code
        self.assertIn("void affine_on_gpu(", expanded)  # the header, which students have
        # The skeleton's region of the same name: the signature and the instructions.
        self.assertIn("```cpp\n__global__ void affine_kernel(const float* x, float* y, int n", expanded)
        self.assertIn("  // TODO(student): one element per thread.", expanded)
        self.assertEqual(expanded.count("<sub>exercises/03_device_memory/device_memory.cu</sub>"), 2, expanded)

    def test_student_flag_hides_solutions_of_an_instructor_build(self):
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--student", "--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertNotIn("cudaMalloc(&device_x", read(os.path.join(output_dir, "deck.md")))

    def test_french_deck_builds_beside_the_english_one(self):
        # --lang fr: slides/deck.fr.md into OUTPUT/fr/deck.md, its code cut the same way (the
        # students' build too); --lang all: both; the English build never takes a .fr.md.
        write(self.path("slides/deck.fr.md"), DECK.replace("# Device memory", "# Mémoire du GPU")
              .replace("## The kernel", "## Le kernel"))
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertIn("checked: deck (3 slides)\n", output)
        self.assertFalse(os.path.exists(os.path.join(output_dir, "fr")))
        status, output = self.run_tool("--lang", "all", "--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertIn("checked: deck (3 slides), deck.fr (3 slides)", output)
        expanded = read(os.path.join(output_dir, "fr", "deck.md"))
        self.assertIn("# Mémoire du GPU", expanded)
        self.assertIn("    y[i] = scale * x[i] + offset;", expanded)
        status, output = self.run_tool("--lang", "fr", "--student", "--output", output_dir)
        self.assertEqual(status, 0, output)
        expanded = read(os.path.join(output_dir, "fr", "deck.md"))
        self.assertNotIn("y[i] = scale * x[i] + offset;", expanded)
        self.assertIn("  // TODO(student): one element per thread.", expanded)

    def test_french_build_names_the_decks_not_translated(self):
        write(self.path("slides/other.md"), DECK)
        write(self.path("slides/deck.fr.md"), DECK)
        status, output = self.run_tool("--lang", "fr")
        self.assertEqual(status, 0, output)
        self.assertIn("slides: slides/other.md has no French version yet (slides/other.fr.md): "
                      "not built in French", output)
        self.assertIn("checked: deck.fr (3 slides)\n", output)
        status, output = self.run_tool("--lang", "fr", "other")
        self.assertEqual(status, 2, output)
        self.assertIn("slides: no such deck: slides/other.fr.md", output)

    # --- broken markers -------------------------------------------------------------------

    def test_renamed_region(self):
        self.edit(SOLUTION, "// [slide:affine-kernel]", "// [slide:affine-kernels]")
        self.assert_fails_with(
            f"slides/deck.md:{KERNEL_INCLUDE_LINE}: include solutions/03_device_memory/device_memory.cu"
            "#affine-kernel: solutions/03_device_memory/device_memory.cu has no region 'affine-kernel' "
            "(its regions: affine-kernels, round-trip, round-trip-steps)")

    def test_deleted_end_marker_of_the_last_region(self):
        text = read(self.path(SOLUTION))
        start = line_of(text, "// [slide:round-trip]")
        last_end = text.rindex("// [/slide]\n")
        write(self.path(SOLUTION), text[:last_end] + text[last_end + len("// [/slide]\n"):])
        # The narrower region inside it (round-trip-steps) keeps its end.
        self.assertEqual(read(self.path(SOLUTION)).count("// [/slide]"), 2)
        self.assert_fails_with(f"{SOLUTION}:{start}: region 'round-trip' is never ended")

    def test_deleted_end_marker_leaves_the_outer_region_open(self):
        self.edit(SKELETON, "}\n// [/slide]\n\n// ----", "}\n\n// ----")
        first = line_of(read(self.path(SKELETON)), "// [slide:affine-kernel]")
        self.assert_fails_with(f"{SKELETON}:{first}: region 'affine-kernel' is never ended")

    def test_nested_regions(self):
        # A whole function around the lines a slide explains: both shown, no marker line.
        self.edit(SOLUTION, "// [slide:round-trip]\n", "// [slide:function]\n// [slide:round-trip]\n")
        text = read(self.path(SOLUTION))
        write(self.path(SOLUTION), text[:text.rindex("// [/slide]\n")] + "// [/slide]\n// [/slide]\n")
        self.edit("slides/deck.md", "device_memory.cu#round-trip -->",
                  "device_memory.cu#round-trip -->\n\n---\n\n<!-- include: "
                  "solutions/03_device_memory/device_memory.cu#function -->\n"
                  "<!-- student: exercises/03_device_memory/device_memory.hpp#api -->")
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--output", output_dir)
        self.assertEqual(status, 0, output)
        expanded = read(os.path.join(output_dir, "deck.md"))
        self.assertEqual(expanded.count("cudaMalloc(&device_x"), 2, expanded)
        self.assertNotIn("[slide:", expanded)
        self.assertNotIn("[/slide]", expanded)

    def test_end_marker_without_a_region(self):
        self.edit(SKELETON, "// [slide:affine-kernel]\n", "")
        end = line_of(read(self.path(SKELETON)), "// [/slide]")
        self.assert_fails_with(f"{SKELETON}:{end}: // [/slide] without a region open above it")

    def test_duplicate_region_name(self):
        self.edit(SOLUTION, "// [slide:round-trip]", "// [slide:affine-kernel]")
        second = line_of(read(self.path(SOLUTION)), "// [slide:affine-kernel]", 1)
        first = line_of(read(self.path(SOLUTION)), "// [slide:affine-kernel]", 0)
        self.assert_fails_with(f"{SOLUTION}:{second}: duplicate region name 'affine-kernel': it is "
                               f"already defined at line {first} of this file")

    def test_marker_that_is_not_a_line_of_its_own(self):
        self.edit(SKELETON, "// [slide:affine-kernel]\n", "int unused;  // [slide:affine-kernel]\n")
        at = line_of(read(self.path(SKELETON)), "int unused;")
        self.assert_fails_with(f"{SKELETON}:{at}: a region marker must be a comment line of its own")

    def test_marker_in_a_file_the_build_does_not_compile(self):
        self.compiled = [SOLUTION]
        first = line_of(read(self.path(SKELETON)), "// [slide:")
        self.assert_fails_with(f"{SKELETON}:{first}: region marker in a file that is not compiled: "
                               "this build does not compile it")

    def test_a_header_is_compiled_through_the_sources_that_include_it(self):
        self.compiled = [SOLUTION]  # the skeleton is not, but the solution includes the header
        write(self.path(SKELETON), "".join(line for line in read(self.path(SKELETON)).splitlines(True)
                                           if "[slide:" not in line and "[/slide]" not in line))
        # ...so the students are shown the header's declarations instead of the solution.
        for region in ("affine-kernel", "round-trip"):
            self.edit("slides/deck.md", f"device_memory.cu#{region} -->",
                      f"device_memory.cu#{region} -->\n<!-- student: exercises/03_device_memory/device_memory.hpp#api -->")
        status, output = self.run_tool()
        self.assertEqual(status, 0, output)
        # ...and once no compiled source includes it, its region is refused.
        self.edit(SOLUTION, '#include "device_memory.hpp"\n', "")
        self.assert_fails_with(f"{HEADER}:")

    # --- broken decks -----------------------------------------------------------------------

    def test_include_of_a_missing_file(self):
        self.edit("slides/deck.md", "device_memory.hpp#api", "device_memory.cuh#api")
        self.assert_fails_with(f"slides/deck.md:{HEADER_INCLUDE_LINE}: include "
                               "exercises/03_device_memory/device_memory.cuh#api: no such file")

    def test_malformed_include(self):
        self.edit("slides/deck.md", "device_memory.hpp#api", "device_memory.hpp")
        self.assert_fails_with(f"slides/deck.md:{HEADER_INCLUDE_LINE}: an include is a line of its own")

    def test_missing_figure(self):
        self.edit("slides/deck.md", "<!-- ![a figure to come](figures/03_later.png) -->",
                  "![a figure to come](figures/03_later.png)")
        self.assert_fails_with("slides/deck.md:21: figure figures/03_later.png: no such file "
                               "slides/figures/03_later.png")
        write(self.path("slides/figures/03_later.png"), "not really a PNG")
        status, output = self.run_tool()
        self.assertEqual(status, 0, output)
        self.assertIn("slides/deck.md:20: figure 03_later.png is shown: this marker line can go", output)

    def test_figure_to_come_is_reported_once_it_exists(self):
        write(self.path("slides/figures/03_later.png"), "not really a PNG")
        status, output = self.run_tool()
        self.assertEqual(status, 0, output)
        self.assertIn("slides/deck.md:20: figure 03_later.png now exists: enable the image", output)

    def test_diagram_goes_beside_the_expanded_deck(self):
        self.edit("slides/deck.md", "# Device memory", "# Device memory\n![a diagram](diagrams/03_drawn.svg)")
        self.assert_fails_with("slides/deck.md:6: figure diagrams/03_drawn.svg: no such file "
                               "slides/diagrams/03_drawn.svg")
        write(self.path("slides/diagrams/03_drawn.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>\n")
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertTrue(os.path.isfile(os.path.join(output_dir, "diagrams", "03_drawn.svg")))

    def test_the_english_plot_stands_in_for_a_french_one_not_drawn_yet(self):
        french = DECK.replace("<!-- ![a figure to come](figures/03_later.png) -->",
                              "![une figure mesurée](figures/03_later.fr.png)")
        write(self.path("slides/deck.fr.md"), french)
        figure_line = line_of(french, "03_later.fr.png")
        # Neither language drawn: the figure is missing.
        status, output = self.run_tool("--lang", "fr")
        self.assertEqual(status, 1, output)
        self.assertIn(f"slides/deck.fr.md:{figure_line}: figure figures/03_later.fr.png: no such file "
                      "slides/figures/03_later.fr.png", output)
        # The English one drawn (and its record): it stands in, under the French name, said so.
        write(self.path("slides/figures/03_later.png"), "the English plot")
        write(self.path("slides/figures/03_later.png.json"), '{"width": 1152, "smallest_text_px": 18.2}')
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--lang", "fr", "--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertIn(f"slides/deck.fr.md:{figure_line}: figure figures/03_later.fr.png not drawn yet: "
                      "figures/03_later.png is shown until a report run on a GPU draws it", output)
        for name in ("03_later.fr.png", "03_later.fr.png.json"):
            self.assertEqual(read(os.path.join(output_dir, "fr", "figures", name)),
                             read(self.path("slides/figures/" + name.replace(".fr", ""))))
        # The French one drawn: shown, nothing said. An English deck never takes a stand-in.
        write(self.path("slides/figures/03_later.fr.png"), "the French plot")
        status, output = self.run_tool("--lang", "fr", "--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertNotIn("not drawn yet", output)
        self.assertEqual(read(os.path.join(output_dir, "fr", "figures", "03_later.fr.png")), "the French plot")
        os.remove(self.path("slides/figures/03_later.fr.png"))
        self.edit("slides/deck.md", "<!-- ![a figure to come](figures/03_later.png) -->",
                  "![a measured figure](figures/03_later.fr.png)")
        self.assert_fails_with(f"slides/deck.md:{figure_line}: figure figures/03_later.fr.png: no such file")

    def test_remote_figure(self):
        self.edit("slides/deck.md", "# Device memory", "# Device memory\n![x](https://example.org/x.png)")
        self.assert_fails_with("slides/deck.md:6: figure https://example.org/x.png: a remote image")

    def test_separator_inside_an_html_comment_separates_nothing(self):
        self.edit("slides/deck.md", "## The kernel\n", "## The kernel\n\n<!--\n\n---\n\n## Hidden\n\n-->\n")
        status, output = self.run_tool()
        self.assertEqual(status, 0, output)
        self.assertIn("deck (3 slides)", output)

    def test_separator_right_under_text(self):
        self.edit("slides/deck.md", "## The kernel\n", "## The kernel\n\nsome text\n---\n")
        self.assert_fails_with("slides/deck.md:14: a slide separator '---' right under a line of text")


    # --- what the students' decks show instead of a solution ----------------------------------

    def test_solution_include_without_a_students_counterpart(self):
        self.edit(SKELETON, "// [slide:affine-kernel]\n", "")
        self.edit(SKELETON, "}\n// [/slide]\n\n// ----", "}\n\n// ----")
        self.assert_fails_with(
            f"slides/deck.md:{KERNEL_INCLUDE_LINE}: include solutions/03_device_memory/device_memory.cu"
            "#affine-kernel: nothing to show students instead of this solution code: give the skeleton "
            "exercises/03_device_memory/device_memory.cu a region 'affine-kernel'")

    def test_student_line_replaces_the_solution_in_the_students_deck_only(self):
        self.edit("slides/deck.md", "device_memory.cu#affine-kernel -->",
                  "device_memory.cu#affine-kernel -->\n<!-- student: exercises/03_device_memory/device_memory.hpp#api -->")
        for student, expected in ((False, "y[i] = scale * x[i] + offset;"), (True, "void affine_on_gpu(")):
            output_dir = os.path.join(self.scratch, f"out-{student}")
            status, output = self.run_tool("--output", output_dir, *(["--student"] if student else []))
            self.assertEqual(status, 0, output)
            slide = read(os.path.join(output_dir, "deck.md")).split("## The kernel")[1].split("---")[0]
            self.assertIn(expected, slide)
            self.assertNotIn("<!-- student:", slide)
            self.assertNotIn("TODO(student): one element per thread", slide)

    def test_student_line_that_shows_a_solution(self):
        self.edit("slides/deck.md", "device_memory.cu#affine-kernel -->",
                  "device_memory.cu#affine-kernel -->\n<!-- student: solutions/03_device_memory/device_memory.cu#round-trip -->")
        self.assert_fails_with(f"slides/deck.md:{KERNEL_INCLUDE_LINE + 1}: student: solutions/03_device_memory/"
                               "device_memory.cu#round-trip: the students' decks show no code from solutions/")

    def test_student_line_under_an_include_that_is_no_solution(self):
        self.edit("slides/deck.md", "device_memory.hpp#api -->",
                  "device_memory.hpp#api -->\n<!-- student: exercises/03_device_memory/device_memory.hpp#api -->")
        self.assert_fails_with(f"slides/deck.md:{HEADER_INCLUDE_LINE + 1}: a '<!-- student: ... -->' line "
                               "replaces the include of a solution's region only")

    def test_student_line_that_is_not_under_an_include(self):
        self.edit("slides/deck.md", "## The kernel\n", "## The kernel\n\n<!-- student: exercises/x.cu#y -->\n")
        self.assert_fails_with("slides/deck.md:13: a line '<!-- student: PATH#REGION-NAME -->' goes right "
                               "under the include of a solution's region")

    def test_slide_after_the_deadline_is_left_out_of_the_students_deck(self):
        self.edit(SKELETON, "// [slide:round-trip]\n", "")
        text = read(self.path(SKELETON))
        write(self.path(SKELETON), text[:text.rindex("// [/slide]\n")])
        self.edit("slides/deck.md", "## The round trip\n", "## The round trip\n\n<!-- after-deadline -->\n")
        status, output = self.run_tool()
        self.assertEqual(status, 0, output)
        self.assertIn("deck (3 slides)", output)
        output_dir = os.path.join(self.scratch, "out")
        status, output = self.run_tool("--student", "--output", output_dir)
        self.assertEqual(status, 0, output)
        self.assertIn("deck (2 slides; 1 left out until the deadline)", output)
        expanded = read(os.path.join(output_dir, "deck.md"))
        self.assertNotIn("The round trip", expanded)
        self.assertNotIn("cudaMalloc(&device_x", expanded)
        self.assertTrue(expanded.rstrip().endswith("<sub>exercises/03_device_memory/device_memory.cu</sub>"),
                        expanded)


def pdf_page_counts(build_dir):
    """The real decks rendered to PDF (the tool compares each page count with its slide
    count), then a known-wrong case: a deck split by Marp's headingDivider, whose pages
    are not separated by '---', must fail the comparison."""
    with tempfile.TemporaryDirectory(prefix="slides-pdf-") as scratch:
        command = [sys.executable, *TOOL, "--build-dir", build_dir, "--require-pdf"]
        done = subprocess.run(command + ["--lang", "all", "--output", os.path.join(scratch, "decks")])
        if done.returncode != 0:
            return done.returncode  # 77 (a tool is missing) or the failure, already printed
        root = os.path.join(scratch, "course")
        write(os.path.join(root, "slides", "divided.md"),
              "---\nmarp: true\nheadingDivider: 2\n---\n\n## One\n\ntext\n\n<!--\n\n---\n\n-->\n\n"
              "## Two\n\ntext\n")
        write(os.path.join(scratch, "build", "compiled_sources.tsv"), "mode\tinstructor\nonly\t\n")
        done = subprocess.run([sys.executable, *TOOL, "--root", root,
                               "--build-dir", os.path.join(scratch, "build"),
                               "--output", os.path.join(scratch, "divided")],
                              capture_output=True, text=True)
        expected = "divided.pdf has 2 page(s), but slides/divided.md has 1 slide(s)"
        if done.returncode != 1 or expected not in done.stderr:
            print(f"FAIL: a deck split by headingDivider was not refused (status {done.returncode}, "
                  f"expected '{expected}'):\n{done.stdout}{done.stderr}")
            return 1
        print(f"a deck whose PDF has more pages than its '---' separators say is refused: {expected}")
    return 0


# A deck whose second slide is too long and whose third has a code line too wide: the fit
# check must name both, with the element, its first words, the side and the pixels.
OVERFLOWING_DECK = ("---\nmarp: true\ntheme: course\npaginate: true\nfooter: a footer\n---\n\n"
                    "# Fits\n\n- one line\n\n---\n\n# Too long\n\n"
                    + "".join(f"- item {i} of a list too long for one slide\n" for i in range(1, 31))
                    + "\n---\n\n# Too wide\n\n```cpp\nint x = " + " + ".join(["value"] * 40) + ";\n```\n")


# A deck whose every slide but the first breaks a rule of type that reads projected: small
# body text, small code, 15 lines of code, class dense on a slide that asks no questions, a
# diagram whose labels are 14 px, a diagram shown at half its size, a measured plot whose
# record (the benchmark report's NAME.png.json) says its smallest text is 30 px of its 1152
# and which is shown 576 wide. The fit check must name each, and pass the question page and
# the first slide.
SMALL_LABELS_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="100" viewBox="0 0 600 100">'
                    '<text x="10" y="40" font-size="14">a label too small</text></svg>\n')
LARGE_LABELS_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="100" viewBox="0 0 1000 100">'
                    '<text x="10" y="40" font-size="20">a label</text></svg>\n')
ILLEGIBLE_DECK = ("---\nmarp: true\ntheme: course\npaginate: true\n---\n\n"
                  "# Reads well\n\n- one line at 24 px\n\n---\n\n"
                  "# Small body text\n\n<p style=\"font-size: 16px\">small words here</p>\n\n---\n\n"
                  "# Small code\n\n<pre style=\"font-size: 15px\">int small = 0;</pre>\n\n---\n\n"
                  "# Too many lines\n\n```cpp\n" + "".join(f"int line_{i} = {i};\n" for i in range(15)) + "```\n\n---\n\n"
                  "<!-- _class: dense -->\n\n# Not a question page\n\n- text\n\n---\n\n"
                  "# Small labels\n\n![small](diagrams/small.svg)\n\n---\n\n"
                  "# Shown at half size\n\n<img src=\"diagrams/large.svg\" width=\"500\">\n\n---\n\n"
                  "# A plot shown at half size\n\n<img src=\"figures/plot.png\" width=\"576\">\n\n---\n\n"
                  "<!-- _class: dense -->\n\n# Questions: 03 · device memory\n\n1. Why?\n")


def tiny_png():
    """A valid 2 x 1 PNG, white: what the plot looks like does not matter, its record does."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff")) + chunk(b"IEND", b""))


def illegible_deck_is_refused(scratch):
    root = os.path.join(scratch, "course")
    write(os.path.join(root, "slides", "deck.md"), ILLEGIBLE_DECK)
    os.makedirs(os.path.join(root, "slides", "figures"))
    with open(os.path.join(root, "slides", "figures", "plot.png"), "wb") as handle:
        handle.write(tiny_png())
    write(os.path.join(root, "slides", "figures", "plot.png.json"), '{"width": 1152, "smallest_text_px": 30}\n')
    write(os.path.join(root, "slides", "diagrams", "small.svg"), SMALL_LABELS_SVG)
    write(os.path.join(root, "slides", "diagrams", "large.svg"), LARGE_LABELS_SVG)
    write(os.path.join(scratch, "build", "compiled_sources.tsv"), "mode\tinstructor\nonly\t\n")
    done = subprocess.run([sys.executable, *TOOL, "--check", "--fit", "--root", root,
                           "--build-dir", os.path.join(scratch, "build")], capture_output=True, text=True)
    output = done.stdout + done.stderr
    expected = [r'^deck:2: body text at 16 px \(at least 24\): "small words here"',
                r'^deck:3: code text at 15 px \(at least 20\)',
                r'^deck:4: 15 lines of code \(at most 14',
                r'^deck:5: class dense on "Not a question page"',
                r'^deck:6: diagrams/small\.svg: a label shown at 14\.0 px',
                r'^deck:7: diagrams/large\.svg: a label shown at 10\.0 px',
                r'^deck:8: figures/plot\.png: a label shown at 15\.0 px \(at least 18: the figure is drawn 1152 wide',
                r"^slides: 7 slide\(s\) do not fit or do not read projected"]
    missing = [e for e in expected if not re.search(e, output, re.M)]
    if done.returncode != 1 or missing or re.search(r"^deck:[19]:", output, re.M):
        print(f"FAIL: the illegible deck was not refused as expected (status {done.returncode}; "
              f"not found: {missing}):\n{output}")
        return False
    print("a deck with small type, long code, a misplaced dense and small labels (diagrams and plots) is "
          "refused, each named:\n"
          + output.strip())
    return True


def build_mode(build_dir):
    with open(os.path.join(build_dir, "compiled_sources.tsv"), encoding="utf-8") as handle:
        return next((line.split("\t", 1)[1].strip() for line in handle if line.startswith("mode\t")), "instructor")


def fit(build_dir):
    """Every real deck laid out in chromium (the instructors' build, unless the build folder is
    a student one, and the students'), then the known-wrong deck above."""
    command = [sys.executable, *TOOL, "--check", "--fit", "--build-dir", build_dir]
    every_deck = command + ["--lang", "all"]
    runs = [every_deck + ["--student"]] if build_mode(build_dir) == "student" \
        else [every_deck, every_deck + ["--student"]]
    status = 0
    for run in runs:
        done = subprocess.run(run)
        if done.returncode == 77:
            return 77
        status = status or done.returncode
    with tempfile.TemporaryDirectory(prefix="slides-fit-") as scratch:
        root = os.path.join(scratch, "course")
        write(os.path.join(root, "slides", "deck.md"), OVERFLOWING_DECK)
        write(os.path.join(scratch, "build", "compiled_sources.tsv"), "mode\tinstructor\nonly\t\n")
        done = subprocess.run([sys.executable, *TOOL, "--check", "--fit", "--root", root,
                               "--build-dir", os.path.join(scratch, "build")],
                              capture_output=True, text=True)
        output = done.stdout + done.stderr
        expected = [r'^deck:2: ul "item \d+ of a list too long for one slide" overflows by \d+ px \(bottom\) '
                    r'\[slides/deck\.md:14\]$',
                    r'^deck:3: pre ".*value \+ value.*" overflows by \d+ px \(right\) \[slides/deck\.md:49\]$',
                    r"^slides: 2 slide\(s\) do not fit or do not read projected"]
        missing = [e for e in expected if not re.search(e, output, re.M)]
        if done.returncode != 1 or missing or "deck:1:" in output:
            print(f"FAIL: the overflowing deck was not refused as expected (status {done.returncode}; "
                  f"not found: {missing}):\n{output}")
            return 1
        print("a deck with a slide too long and one too wide is refused, each named:\n" + output.strip())
    with tempfile.TemporaryDirectory(prefix="slides-legible-") as scratch:
        if not illegible_deck_is_refused(scratch):
            return 1
    return status


def leaks(build_dir):
    """The students' decks of this course, expanded, searched by the release's leak check."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from course_tools.release import leaks as release_leaks
    with tempfile.TemporaryDirectory(prefix="slides-leaks-") as scratch:
        decks = os.path.join(scratch, "slides")
        done = subprocess.run([sys.executable, *TOOL, "--check", "--student", "--lang", "all",
                               "--build-dir", build_dir, "--output", decks])
        if done.returncode != 0:
            return done.returncode
        report = release_leaks.scan(scratch, ROOT, shown_as="the students' decks")
        for line in report.lines():
            print(line)
        expanded = [os.path.join(folder, name) for folder in (decks, os.path.join(decks, "fr"))
                    if os.path.isdir(folder) for name in os.listdir(folder) if name.endswith(".md")]
        placeholders = [os.path.relpath(path, decks) for path in expanded if "shown in class" in read(path)]
        for name in placeholders:
            print(f"FAIL: {name} holds a placeholder instead of code")
        return 1 if report.leaks or placeholders else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--pdf":
        sys.exit(pdf_page_counts(os.path.abspath(sys.argv[2])))
    if len(sys.argv) == 3 and sys.argv[1] == "--fit":
        sys.exit(fit(os.path.abspath(sys.argv[2])))
    if len(sys.argv) == 3 and sys.argv[1] == "--leaks":
        sys.exit(leaks(os.path.abspath(sys.argv[2])))
    unittest.main(verbosity=2)
