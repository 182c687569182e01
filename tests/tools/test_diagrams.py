#!/usr/bin/env python3
"""Tests of the decks' diagrams (slides/diagrams/*.svg, drawn by tools/course diagrams):

  - the committed SVGs are exactly what tools/course diagrams draws: none stale, none missing,
    none that no function draws; and the script refuses a stale copy (a known-wrong case);
  - every SVG is well-formed XML: an <svg> whose size fits a slide beside a title and a
    caption, with no text smaller than 14 px;
  - every SVG is shown by a deck, and there are at least 12 of them.

    python3 tests/tools/test_diagrams.py
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = [os.path.join(ROOT, "tools", "course"), "diagrams"]
DIAGRAMS = os.path.join(ROOT, "slides", "diagrams")
SLIDES = os.path.join(ROOT, "slides")
SVG = "{http://www.w3.org/2000/svg}"
LEAST_DIAGRAMS = 12         # issue 29: at least twelve, each on the slide that teaches it
LARGEST = (1100, 390)       # authoring/diagrams.py's MAX_WIDTH x MAX_HEIGHT
SMALLEST_TEXT = 14          # pixels of the slide: diagrams are shown at their own size
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?diagrams/([^)\s>]+)>?")


def svg_files():
    return sorted(n for n in os.listdir(DIAGRAMS) if n.endswith(".svg"))


def shown_by_decks():
    """{diagram file: [decks showing it]}, images inside HTML comments left out."""
    shown = {}
    for deck in sorted(n for n in os.listdir(SLIDES) if n.endswith(".md")):
        with open(os.path.join(SLIDES, deck), encoding="utf-8") as handle:
            text = re.sub(r"<!--.*?-->", "", handle.read(), flags=re.S)
        for match in IMAGE.finditer(text):
            shown.setdefault(match.group(1), []).append(deck)
    return shown


class Diagrams(unittest.TestCase):
    def test_committed_svgs_are_what_the_script_draws(self):
        done = subprocess.run([sys.executable, *TOOL, "--check"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_a_stale_svg_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="diagrams-test-") as scratch:
            copy = os.path.join(scratch, "diagrams")
            shutil.copytree(DIAGRAMS, copy)
            first = os.path.join(copy, svg_files()[0])
            with open(first, encoding="utf-8") as handle:
                text = handle.read()
            with open(first, "w", encoding="utf-8") as handle:
                handle.write(text.replace("</svg>", "<rect/></svg>"))
            with open(os.path.join(copy, "orphan.svg"), "w", encoding="utf-8") as handle:
                handle.write("<svg xmlns='http://www.w3.org/2000/svg'/>\n")
            done = subprocess.run([sys.executable, *TOOL, "--check", "--output", copy],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
            self.assertIn(f"{svg_files()[0]}: out of date: run tools/course diagrams", done.stderr)
            self.assertIn("orphan.svg: no function in tools/course_tools/authoring/diagrams.py draws it", done.stderr)
            os.remove(first)
            done = subprocess.run([sys.executable, *TOOL, "--check", "--output", copy],
                                  capture_output=True, text=True)
            self.assertIn(f"{svg_files()[0]}: missing: run tools/course diagrams", done.stderr)

    def test_each_svg_is_well_formed_and_fits_a_slide(self):
        for name in svg_files():
            with self.subTest(name):
                root = ElementTree.parse(os.path.join(DIAGRAMS, name)).getroot()
                self.assertEqual(root.tag, SVG + "svg")
                width, height = int(root.get("width")), int(root.get("height"))
                self.assertEqual(root.get("viewBox"), f"0 0 {width} {height}")
                self.assertLessEqual(width, LARGEST[0])
                self.assertLessEqual(height, LARGEST[1])
                self.assertTrue(root.find(SVG + "title").text)
                sizes = [float(t.get("font-size")) for t in root.iter(SVG + "text")]
                self.assertTrue(sizes, "no text")
                self.assertGreaterEqual(min(sizes), SMALLEST_TEXT)

    def test_every_svg_is_shown_by_a_deck(self):
        shown = shown_by_decks()
        unused = [n for n in svg_files() if n not in shown]
        self.assertEqual(unused, [], "diagrams that no deck shows")
        self.assertGreaterEqual(len(svg_files()), LEAST_DIAGRAMS)
        missing = sorted(n for n in shown if n not in svg_files())
        self.assertEqual(missing, [], "diagrams a deck shows that slides/diagrams/ lacks")


if __name__ == "__main__":
    unittest.main(verbosity=2)
