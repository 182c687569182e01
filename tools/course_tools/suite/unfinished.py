"""The tests that a run of the GPU suite left unfinished, as one ctest regular expression,
so that the next run does those alone (gpu_suite.sh with SUITE_RESUME=1):

    tools/course suite-unfinished ALL_TESTS JUNIT     # prints the expression; exit 1 when none

ALL_TESTS holds every test the run was asked for, one name a line (ctest -N); JUNIT is
the run's JUnit file (ctest --output-junit), which holds the tests that started. A test is
unfinished when it did not start (the deadline, SUITE_SECONDS, came first), failed, or was
stopped at the deadline (ctest counts it failed); a test that passed or was skipped is
done. On a machine whose calls have a time limit, a suite cut by its deadline thus goes on
where it stopped, without the tests that already passed.

Python 3 standard library only.
"""
import re
import sys
import xml.etree.ElementTree as ElementTree

from course_tools.student.test_summary import outcome


def unfinished(all_names, junit_root):
    """The names of all_names, in their order, that did not pass or skip in junit_root."""
    done = {testcase.get("name") for testcase in junit_root.iter("testcase")
            if outcome(testcase) in ("passed", "skipped")}
    return [name for name in all_names if name not in done]


def ctest_regex(names):
    """One expression that ctest -R matches against exactly these names: each anchored at
    both ends, any character other than a letter, a digit, '_' or '-' inside brackets (CMake's
    regular expressions have no other quoting that both they and Python read alike)."""
    def quoted(name):
        return "".join(c if re.fullmatch(r"[\w-]", c) else f"[{c}]" for c in name)
    return "|".join(f"^{quoted(name)}$" for name in names)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            all_names = [line.strip() for line in handle if line.strip()]
        junit_root = ElementTree.parse(argv[2]).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"suite_unfinished: cannot read the run's lists: {error}", file=sys.stderr)
        return 2
    names = unfinished(all_names, junit_root)
    if not names:
        return 1
    print(ctest_regex(names))
    return 0
