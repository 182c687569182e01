#!/usr/bin/env python3
"""The class report (RESULTS/class.html) as a browser shows it: the fake class of
fake_class.py rendered as tools/course grade --reports-only renders it, opened in headless
Chromium at 1280 px (headless_page.py). It fails on a console error, an uncaught
exception, a failed load, an element wider than the page, a section missing, or, at 1280
px, a table that must scroll sideways; at 800 px and on a phone (390 px) its tables may
scroll inside their boxes, the page itself not. The checker is first proved on a deliberately broken page (a 3000 px wide
element, a console error, an exception, a missing image), and a page without fault.

    python3 tests/tools/test_class_report_browser.py [--screenshot OUT.png]

The screenshot of the whole page at 1280 px goes to OUT.png (default: a temporary
folder, removed). Exit 77 (skipped) where chromium is not installed.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import fake_class  # noqa: E402
import headless_page  # noqa: E402
from course_tools.grading import class_report  # noqa: E402

SCREENSHOT = None   # --screenshot

BROKEN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>broken on purpose</title></head><body>
<p>A page with every fault the test must catch.</p>
<div id="too-wide" style="width:3000px">wider than any window</div>
<img src="no-such-image.png" alt="missing">
<script>console.error("deliberate console error"); throw new Error("deliberate exception");</script>
</body></html>
"""

CLEAN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>clean</title></head><body>
<p>Nothing wrong here.</p>
<div style="overflow-x:auto"><div style="width:3000px">wide, but inside a box that scrolls</div></div>
</body></html>
"""


def png_size(path):
    with open(path, "rb") as handle:
        header = handle.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG")
    return struct.unpack(">II", header[16:24])


class TheChecker(unittest.TestCase):
    """What the page test relies on, proved: it sees each fault, and none where there is none."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="test-class-report-browser-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def page(self, name, text):
        path = os.path.join(self.scratch, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def test_a_broken_page_is_caught(self):
        found = headless_page.inspect(self.page("broken.html", BROKEN), 1280)
        problems = "\n".join(headless_page.findings(found))
        self.assertIn("console.error: deliberate console error", problems)
        self.assertIn("uncaught exception: Error: deliberate exception", problems)
        self.assertIn("no-such-image.png", problems)
        self.assertIn("wider than the page: div#too-wide", problems)
        self.assertIn("the page is 3008 px wide in a 1280 px window", problems)

    def test_a_clean_page_passes(self):
        found = headless_page.inspect(self.page("clean.html", CLEAN), 1280)
        self.assertEqual(found["window"], 1280)
        self.assertEqual(headless_page.findings(found), [])
        self.assertEqual(len(found["scrolling"]), 1)   # the box that scrolls is seen, and allowed


class ThePage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="test-class-report-page-")
        cls.results = os.path.join(cls.scratch, "results")
        fake_class.write(cls.results)
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "grade", "--reports-only",
                               "--results", cls.results], capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError(f"grade.py --reports-only failed:\n{done.stdout}{done.stderr}")
        cls.page = os.path.join(cls.results, "class.html")
        cls.screenshot = SCREENSHOT or os.path.join(cls.scratch, "class_report_1280.png")
        cls.wide = headless_page.inspect(cls.page, 1280, screenshot=cls.screenshot)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_no_fault_at_1280_px(self):
        self.assertEqual(self.wide["window"], 1280)
        self.assertEqual(headless_page.findings(self.wide), [])

    def test_every_table_fits_at_1280_px(self):
        self.assertEqual(self.wide["scrolling"], [])

    def test_the_screenshot_is_the_whole_page(self):
        width, height = png_size(self.screenshot)
        self.assertEqual(width, 1280)
        self.assertGreaterEqual(height, min(self.wide["height"], headless_page.MAX_HEIGHT))
        print(f"\nscreenshot: {self.screenshot} ({width} x {height})", file=sys.stderr)

    def test_every_section_is_shown(self):
        self.assertEqual(self.wide["sections"], [anchor for anchor, _ in class_report.SECTIONS])

    def test_at_800_px_only_tables_scroll(self):
        narrow = headless_page.inspect(self.page, 800)
        self.assertEqual(headless_page.findings(narrow), [])

    def test_on_a_phone_only_tables_scroll(self):
        phone = headless_page.inspect(self.page, 390, height=800)
        self.assertEqual(headless_page.findings(phone), [])
        self.assertEqual(phone["sections"], [anchor for anchor, _ in class_report.SECTIONS])


def main():
    global SCREENSHOT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", help="where the screenshot of the whole page at 1280 px goes")
    arguments, rest = parser.parse_known_args()
    if not headless_page.find_chromium():
        print("SKIPPED: chromium is not installed (Debian: apt-get install chromium)")
        return headless_page.SKIPPED
    if arguments.screenshot:
        SCREENSHOT = os.path.abspath(arguments.screenshot)
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
