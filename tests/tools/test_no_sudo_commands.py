#!/usr/bin/env python3
"""No command the course gives to type starts with sudo (issue 27: the README's
`sudo tools/course grade` failed with nothing said on images without sudo): the README and
every other Markdown page, the messages of the Makefile, CMake, the tools and the Slurm
scripts say "as root, or with sudo" after the command instead. Describing the
condition `sudo -n` (sudo without a password question) stays allowed. The tests
themselves are not looked at: they fake sudo.

    python3 tests/tools/test_no_sudo_commands.py
"""
import os
import re
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.release import write as release  # noqa: E402  (course_files: git's list, or a walk)
LOOKED_AT = re.compile(r"(\.md|\.py|\.sh|\.sbatch|\.cmake|\.txt|\.conf\.example)$"
                       r"|(^|/)(Makefile|grade-class|submit|interactive)$")
# A command in backticks that starts with sudo (but the condition `sudo -n` or
# `sudo -n true`), or the Makefile's way of putting sudo before a command.
INLINE = re.compile(r"`sudo (?!-n( true)?`)|\bsudo \)")
# A line of a Markdown code block that is a command starting with sudo.
BLOCK_LINE = re.compile(r"^\s*(\$\s+)?sudo\s")


def course_files():
    """The course's files that give commands: git's list where the course is a checkout, every
    file outside the generated folders where it is not (a course downloaded as an archive)."""
    return [path for path in release.course_files(ROOT)
            if LOOKED_AT.search(path) and not path.startswith("tests/")]


def sudo_commands(path, text):
    """'path:line: text' for each command given with sudo in front."""
    found = []
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if path.endswith(".md") and line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if INLINE.search(line) or (in_block and BLOCK_LINE.search(line)):
            found.append(f"{path}:{number}: {line.strip()}")
    return found


class NoSudoInFrontOfCommands(unittest.TestCase):
    def test_the_patterns_catch_what_the_issue_saw(self):
        self.assertTrue(sudo_commands("README.md", "```\nsudo tools/course grade CLASS --class\n```"))
        self.assertTrue(sudo_commands("README.md", "run `sudo apt-get install -y npm`"))
        self.assertTrue(sudo_commands("Makefile", "run `$(if $(APT_AS),sudo )apt-get install -y npm`"))
        self.assertFalse(sudo_commands("README.md", "(as root, or where `sudo -n` works)"))
        self.assertFalse(sudo_commands("README.md", "run `apt-get install -y npm` as root, or with sudo"))

    def test_no_course_file_gives_a_command_with_sudo(self):
        found = []
        for path in course_files():
            with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as handle:
                found += sudo_commands(path, handle.read())
        self.assertEqual(found, [], "say \"as root, or with sudo\" after the command instead:\n" + "\n".join(found))


if __name__ == "__main__":
    unittest.main(verbosity=2)
