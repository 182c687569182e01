#!/usr/bin/env python3
"""Tests of the decks' diagrams (slides/diagrams/*.svg, drawn by tools/course diagrams):

  - the committed SVGs are exactly what tools/course diagrams draws: none stale, none missing,
    none that no function draws; and the script refuses a stale copy (a known-wrong case);
  - every SVG is well-formed XML: an <svg> whose size fits a slide beside a title, with no
    text smaller than 18 px (figure labels read from the back of a room);
  - there are at least 45 diagrams, and every exercise has one (each drawing function names
    the exercises whose ideas it shows);
  - each diagram is drawn in both languages, its French version with French words (it differs
    from the English one), the English decks show the English SVGs and the French decks the
    French ones, and every SVG is shown by a deck of its language.

    python3 tests/tools/test_diagrams.py
"""
import glob
import json
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
LEAST_DIAGRAMS = 45         # issue 40: a picture for every idea the decks teach
LARGEST = (1168, 560)       # authoring/diagrams/svg.py's MAX_WIDTH x MAX_HEIGHT
SMALLEST_TEXT = 18          # pixels of the slide: diagrams are shown at their own size
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?diagrams/([^)\s>]+)>?")


def svg_files():
    return sorted(n for n in os.listdir(DIAGRAMS) if n.endswith(".svg"))


def is_french(name):
    return name.endswith(".fr.svg")


def shown_by_decks():
    """{diagram file: [decks showing it]}, images inside HTML comments left out."""
    shown = {}
    for deck in sorted(n for n in os.listdir(SLIDES) if n.endswith(".md")):
        with open(os.path.join(SLIDES, deck), encoding="utf-8") as handle:
            text = re.sub(r"<!--.*?-->", "", handle.read(), flags=re.S)
        for match in IMAGE.finditer(text):
            shown.setdefault(match.group(1), []).append(deck)
    return shown


def listed():
    done = subprocess.run([sys.executable, *TOOL, "--list"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def texts(path):
    root = ElementTree.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


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
            self.assertIn("orphan.svg: no function in tools/course_tools/authoring/diagrams/ draws it", done.stderr)
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

    def test_enough_diagrams_and_one_for_every_exercise(self):
        diagrams = listed()
        self.assertGreaterEqual(len(diagrams), LEAST_DIAGRAMS, "diagrams in all")
        exercises = sorted(os.path.basename(p)[:2] for p in glob.glob(os.path.join(ROOT, "exercises", "[0-9][0-9]_*")))
        shown = {number for d in diagrams for number in d["exercises"]}
        self.assertEqual([n for n in exercises if n not in shown], [], "exercises without a diagram")
        self.assertEqual(sorted(shown - set(exercises)), [], "diagrams naming an exercise that does not exist")

    def test_each_diagram_is_drawn_in_french_with_french_words(self):
        for diagram in listed():
            english, french = diagram["files"]
            with self.subTest(diagram["name"]):
                self.assertTrue(is_french(french))
                english_texts = texts(os.path.join(DIAGRAMS, english))
                french_texts = texts(os.path.join(DIAGRAMS, french))
                self.assertNotEqual(english_texts, french_texts, "the French diagram has the English words")
                self.assertEqual(ElementTree.parse(os.path.join(DIAGRAMS, french)).getroot().find(SVG + "title").text
                                 == ElementTree.parse(os.path.join(DIAGRAMS, english)).getroot().find(SVG + "title").text,
                                 False, "the French diagram's title is the English one")

    def test_every_svg_is_shown_by_a_deck_of_its_language(self):
        shown = shown_by_decks()
        unused = [n for n in svg_files() if n not in shown]
        self.assertEqual(unused, [], "diagrams that no deck shows")
        missing = sorted(n for n in shown if n not in svg_files())
        self.assertEqual(missing, [], "diagrams a deck shows that slides/diagrams/ lacks")
        wrong = sorted(f"{deck} shows {name}" for name, decks in shown.items() for deck in decks
                       if is_french(name) != deck.endswith(".fr.md"))
        self.assertEqual(wrong, [], "a deck showing a diagram in the other language")


if __name__ == "__main__":
    unittest.main(verbosity=2)
