"""Prints a short table of a CTest run from its JUnit file (ctest --output-junit).

One row per exercise (or test group) with passed / failed / skipped counts, then the
names of the tests that failed, then one total line that CI and people read last:

    tools/course test-summary build/gpu/logs/junit.xml
"""
import sys
import xml.etree.ElementTree as ElementTree
from collections import OrderedDict

from course_tools.student import cuda_device


def outcome(testcase):
    if testcase.find("failure") is not None or testcase.find("error") is not None:
        return "failed"
    if testcase.find("skipped") is not None or testcase.get("status") in ("notrun", "disabled"):
        return "skipped"
    return "passed"


def group_of(name):
    """'03_device_memory.mutant.leaks' -> '03_device_memory'; 'unit.verify' -> 'unit'."""
    return name.split(".", 1)[0]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        root = ElementTree.parse(argv[1]).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"test_summary: cannot read {argv[1]}: {error}", file=sys.stderr)
        return 2
    groups = OrderedDict()
    failures = []
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for testcase in root.iter("testcase"):
        name = testcase.get("name", "?")
        result = outcome(testcase)
        counts = groups.setdefault(group_of(name), {"passed": 0, "failed": 0, "skipped": 0})
        counts[result] += 1
        totals[result] += 1
        if result == "failed":
            failures.append(name)
    width = max([len("group")] + [len(g) for g in groups])
    print(f"{'group':<{width}}  passed  failed  skipped")
    for group, counts in sorted(groups.items()):
        print(f"{group:<{width}}  {counts['passed']:>6}  {counts['failed']:>6}  {counts['skipped']:>7}")
    for name in failures:
        print(f"FAILED: {name}")
    closing = f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped"
    if totals["skipped"]:
        reason = cuda_device.absent_reason()
        if reason:
            closing += f" (this machine has no CUDA device: {reason}; the GPU tests report skipped)"
    print(closing)
    return 1 if totals["failed"] else 0
