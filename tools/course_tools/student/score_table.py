"""Prints the score table of a graded run: one row per exercise, from the summary
lines the checks wrote (build/<preset>/scores/<test>.tsv, see --summary in judge.hpp).

    tools/course score-table BUILD_DIR [VARIANT] [--junit FILE]    (VARIANT: solution by default)

An exercise whose check wrote nothing was skipped (no GPU), failed before its summary, or
did not run; with the run's JUnit file (ctest --output-junit) the table says which, rather
than counting it as zero or as full marks, and its last line says plainly when nothing could
be graded for want of a CUDA device. Exit status 0 when every graded exercise got full marks.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

from course_tools.student import cuda_device
from course_tools.student import exercises
from course_tools.student.paths import ROOT


def read_scores(build_dir, variant):
    scores = {}
    for path in glob.glob(os.path.join(build_dir, "scores", f"*.{variant}.tsv")):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                fields = line.rstrip("\n").split("\t")
                if len(fields) == 5:
                    exercise_id, _, score, maximum, verdict = fields
                    scores[exercise_id] = (int(score), int(maximum), verdict)
    return scores


def read_outcomes(junit):
    """Test name -> (passed / failed / skipped, why), from ctest's JUnit file ({} without
    one). `why` is what a skipped check said after "SKIPPED: " (its exact reason: no
    driver, no device, fewer devices than it needs), or ""."""
    if not junit or not os.path.exists(junit):
        return {}
    try:
        root = ElementTree.parse(junit).getroot()
    except ElementTree.ParseError:
        return {}
    outcomes = {}
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            outcomes[case.get("name")] = ("failed", "")
        elif case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
            outcomes[case.get("name")] = ("skipped", skip_reason(case))
        else:
            outcomes[case.get("name")] = ("passed", "")
    return outcomes


def skip_reason(case):
    """The reason a skipped check printed ("SKIPPED: check 25 two_gpus_nccl needs 2 CUDA
    devices, and this machine has 1"), without its "check NN name" prefix; "" if none."""
    output = "".join(node.text or "" for node in case.iter("system-out"))
    match = re.search(r"^SKIPPED: (.*)$", output, re.M)
    if not match:
        return ""
    return re.sub(r"^check [0-9]+ \S+ ", "", match.group(1)).strip()


def not_graded(outcome, have_outcomes, why=""):
    if outcome == "skipped":
        return f"not graded: skipped ({why or 'no CUDA device'})"
    if outcome == "failed":
        return "not graded: the check failed before its score (its output is above)"
    if have_outcomes:
        return "not graded: not in this build (COURSE_ONLY?)"
    return "not graded (skipped: no GPU, or not run)"


def main(argv):
    arguments = argv[1:]
    junit = None
    if "--junit" in arguments:
        at = arguments.index("--junit")
        junit = arguments[at + 1] if at + 1 < len(arguments) else None
        del arguments[at:at + 2]
    if len(arguments) not in (1, 2) or (("--junit" in argv) and not junit):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build_dir, variant = arguments[0], (arguments[1] if len(arguments) == 2 else "solution")
    scores = read_scores(build_dir, variant)
    outcomes = read_outcomes(junit)
    rows, total, total_max, graded, full, skipped = [], 0, 0, 0, 0, 0
    for exercise in exercises.load(ROOT):
        if exercise.id in scores:
            score, maximum, verdict = scores[exercise.id]
            rows.append((exercise.id, f"{score}/{maximum}", verdict))
            total += score
            total_max += maximum
            graded += 1
            full += score == maximum
        else:
            outcome, why = outcomes.get(f"{exercise.id}.{variant}", (None, ""))
            skipped += outcome == "skipped"
            rows.append((exercise.id, f"-/{exercise.points}", not_graded(outcome, bool(outcomes), why)))
    width = max(len(r[0]) for r in rows) if rows else 10
    print(f"{'exercise':<{width}}  {'score':>7}  verdict ({variant})")
    for name, score, verdict in rows:
        print(f"{name:<{width}}  {score:>7}  {verdict}")
    closing = f"{graded} of {len(rows)} exercises graded"
    absent = sum(1 for exercise in exercises.load(ROOT)
                 if outcomes and f"{exercise.id}.{variant}" not in outcomes and exercise.id not in scores)
    # Every check that ran reported skipped: say why, rather than "0 of 15 graded".
    if skipped and not graded and skipped == len(rows) - absent:
        reason = cuda_device.absent_reason()
        why = f"this machine has no CUDA device ({reason})" if reason else "no usable CUDA device"
        command = "make test" if variant == "student" else "make"
        closing = (f"nothing graded: {why}; every check reported skipped. "
                   f"Run {command} on a machine with an NVIDIA GPU to grade them")
    elif skipped:
        closing += f"; {skipped} skipped (their reasons above)"
    print(f"{'total':<{width}}  {f'{total}/{total_max}':>7}  {closing}")
    return 0 if graded and full == graded else 1
