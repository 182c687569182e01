#!/usr/bin/env python3
"""A README per audience (issue 27): README.md stays short and every page of docs/ is
written for the people its first line names. The test fails when README.md is longer
than 250 lines, when a page's first line does not say who it is for ("# For students and
instructors: ..."), when README.md or a page holds a marker block ([instructor-only],
[release-only]: the release leaves whole pages out instead), or when a relative link of
README.md or a page points at a missing file or at a heading its page lacks. The examples
meant to run do, as written: every `make new-exercise ...` of the pages and of make help,
every `tools/course new-exercise ...`, run with DRY_RUN=1 (--dry-run) on this repository.

    python3 tests/tools/test_docs_pages.py
"""
import glob
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.release import write as release  # noqa: E402  (its Markdown reading: markers, links, code blocks)

README_MAX_LINES = 250
AUDIENCES = ("students", "instructors", "maintainers")
# "# For instructors: ..." or "# For students and instructors: ...".
FIRST_LINE = re.compile(r"^# For ([a-z ,]+):")


def pages():
    """README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md, relative to the course's root."""
    found = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    return [p.replace(os.sep, "/") for p in found]


def audience_problem(page, text):
    """Why the first line of a docs/ page does not say who it is for, or None."""
    first = text.split("\n", 1)[0]
    match = FIRST_LINE.match(first)
    if not match:
        return f"{page}:1: the first line must say who the page is for ('# For instructors: ...'), not {first!r}"
    named = [word for word in re.split(r",\s*|\s+and\s+", match.group(1).strip()) if word]
    unknown = [word for word in named if word not in AUDIENCES]
    if unknown:
        return f"{page}:1: {', '.join(unknown)} is not one of the audiences ({', '.join(AUDIENCES)})"
    return None


def marker_lines(page, text):
    return [f"{page}:{number}: {line.strip()}" for number, line in release.markdown_lines(text)
            if release.MARKER.match(line)]


def slug(title):
    """The anchor GitHub gives a heading."""
    title = re.sub(r"[^\w\s-]", "", title.strip().lower())
    return re.sub(r"\s", "-", title)


def anchors(text):
    return {slug(line.lstrip("#")) for _, line in release.markdown_lines(text) if line.startswith("#")}


def broken_links(page, text, read):
    """'page:line: link: why' for each relative link to a missing file or heading; `read(path)`
    gives a course file's text (None where it does not exist)."""
    found = []
    for number, line in release.markdown_lines(text):
        for link in release.markdown_links(line):
            target = release.link_target(page, link)
            if target is None and not link.startswith("#"):
                continue  # a URL
            target = target or page
            if target != page and not os.path.exists(os.path.join(ROOT, target)) and read(target) is None:
                found.append(f"{page}:{number}: {link}: {target} does not exist")
                continue
            anchor = link.split("#", 1)[1] if "#" in link else ""
            if anchor and target.endswith(".md"):
                held = text if target == page else read(target)
                if held is not None and anchor not in anchors(held):
                    found.append(f"{page}:{number}: {link}: {target} has no heading #{anchor}")
    return found


def read_course_file(path):
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        return None
    with open(full, encoding="utf-8") as handle:
        return handle.read()


class TheRulesCatchWhatTheyShould(unittest.TestCase):
    def test_first_lines(self):
        self.assertIsNone(audience_problem("p", "# For instructors: grading\n"))
        self.assertIsNone(audience_problem("p", "# For students and instructors: the cluster\n"))
        self.assertIsNone(audience_problem("p", "# For students, instructors and maintainers: all\n"))
        self.assertIn("must say who", audience_problem("p", "# Grading a class\n"))
        self.assertIn("must say who", audience_problem("p", "\n# For instructors: grading\n"))
        self.assertIn("cooks is not one", audience_problem("p", "# For cooks: recipes\n"))

    def test_markers(self):
        self.assertTrue(marker_lines("p", "a\n<!-- [instructor-only] -->\nb\n<!-- [/instructor-only] -->\n"))
        self.assertTrue(marker_lines("p", "<!-- [release-only]\nb\n[/release-only] -->\n"))
        self.assertFalse(marker_lines("p", "lines between `[instructor-only]` markers are left out\n"))
        self.assertFalse(marker_lines("p", "```\n# [instructor-only]\n```\n"))

    def test_examples(self):
        text = ("make new-exercise NN=next SLUG=a_b    # or: tools/course new-exercise next a_b\n"
                "`make new-exercise NN=27 SLUG=c DRY_RUN=1`\n")
        self.assertEqual(new_exercise_examples(text), [
            ["make", "-s", "new-exercise", "NN=next", "SLUG=a_b", "DRY_RUN=1"],
            ["make", "-s", "new-exercise", "NN=27", "SLUG=c", "DRY_RUN=1"],
            [sys.executable, "tools/course", "new-exercise", "--dry-run", "next", "a_b"]])

    def test_links(self):
        texts = {"docs/a.md": "# For instructors: a\n## The heading\n", "README.md": "# Title\n"}
        read = texts.get
        good = "[a](a.md) [h](a.md#the-heading) [r](../README.md#title) [x](https://example.com/y)\n"
        self.assertEqual(broken_links("docs/b.md", good + "## Local\n[l](#local)\n", read), [])
        self.assertEqual(len(broken_links("docs/b.md", "[m](missing.md) [h](a.md#nope) [l](#none)\n", read)), 3)
        self.assertEqual(broken_links("docs/a.md", "```\n[m](missing.md)\n```\n`![x](missing.png)`\n", read), [])
        self.assertEqual(broken_links("README.md", "[t](tools/no_such_tool.py)\n", read),
                         ["README.md:1: tools/no_such_tool.py: tools/no_such_tool.py does not exist"])


# The new-exercise examples: make's form (variables to the end of the command), the tool's.
MAKE_NEW_EXERCISE = re.compile(r"make new-exercise((?: [A-Z_]+=[^\s`]+)+)")
TOOL_NEW_EXERCISE = re.compile(r"tools/course new-exercise((?: (?!#)[^\s`]+)+)")


def new_exercise_examples(text):
    """The commands of `text`'s new-exercise examples, as dry runs (argument lists)."""
    examples = []
    for match in MAKE_NEW_EXERCISE.finditer(text):
        variables = [v for v in match.group(1).split() if not v.startswith("DRY_RUN=")]
        examples.append(["make", "-s", "new-exercise", *variables, "DRY_RUN=1"])
    for match in TOOL_NEW_EXERCISE.finditer(text):
        arguments = [a for a in match.group(1).split() if a != "--dry-run"]
        examples.append([sys.executable, "tools/course", "new-exercise", "--dry-run", *arguments])
    return examples


class TheCoursePages(unittest.TestCase):
    def test_the_readme_is_short(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
            count = len(handle.read().splitlines())
        self.assertLessEqual(count, README_MAX_LINES,
                             f"README.md has {count} lines: move what one audience needs into its page of docs/")

    def test_every_docs_page_says_who_it_is_for(self):
        docs = [p for p in pages() if p.startswith("docs/")]
        self.assertTrue(docs, "docs/ holds no page")
        problems = [audience_problem(p, read_course_file(p)) for p in docs]
        self.assertEqual([p for p in problems if p], [])

    def test_no_page_holds_a_marker_block(self):
        found = [line for p in pages() for line in marker_lines(p, read_course_file(p))]
        self.assertEqual(found, [], "write the text in the page of its audience instead:\n" + "\n".join(found))

    def test_the_new_exercise_examples_run_as_written(self):
        texts = [read_course_file(p) for p in pages()]
        texts.append(subprocess.run(["make", "-s", "-C", ROOT, "help"], capture_output=True, text=True,
                                    check=True).stdout)
        examples = [e for text in texts for e in new_exercise_examples(text)]
        self.assertTrue(any(e[0] == "make" for e in examples), "no page shows make new-exercise")
        for example in dict.fromkeys(tuple(e) for e in examples):
            with self.subTest(example=" ".join(example)):
                done = subprocess.run(example, cwd=ROOT, capture_output=True, text=True, timeout=120)
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
                self.assertIn("(dry run: nothing written)", done.stdout)

    def test_every_relative_link_resolves(self):
        found = [line for p in pages() for line in broken_links(p, read_course_file(p), read_course_file)]
        self.assertEqual(found, [], "\n".join(found))


if __name__ == "__main__":
    unittest.main(verbosity=2)
