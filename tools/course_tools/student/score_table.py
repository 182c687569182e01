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
from course_tools.student import language
from course_tools.student.paths import ROOT

# The student's make test prints this table: in the checks' language (language.py).
SAY = language.Messages(__name__, {
    "skipped": ("not graded: skipped ({why})", "non noté : sauté ({why})"),
    "no device": ("no CUDA device", "pas de GPU CUDA"),
    "failed early": ("not graded: the check failed before its score (its output is above)",
                     "non noté : le correcteur a échoué avant sa note (sa sortie est plus haut)"),
    "not in build": ("not graded: not in this build (COURSE_ONLY?)",
                     "non noté : absent de cette construction (COURSE_ONLY ?)"),
    "not run": ("not graded (skipped: no GPU, or not run)", "non noté (sauté : pas de GPU, ou non exécuté)"),
    "heading": ("{exercise}  {score}  verdict ({variant})", "{exercise}  {score}  verdict ({variant})"),
    "exercise": ("exercise", "exercice"),
    "score": ("score", "note"),
    "graded": ("{graded} of {count} exercises graded", "{graded} exercices notés sur {count}"),
    "no machine device": ("this machine has no CUDA device ({reason})",
                          "cette machine n'a pas de GPU CUDA ({reason})"),
    "no usable device": ("no usable CUDA device", "aucun GPU CUDA utilisable"),
    "nothing graded": ("nothing graded: {why}; every check reported skipped. Run {command} on a machine with an "
                       "NVIDIA GPU to grade them",
                       "rien n'est noté : {why} ; chaque correcteur a répondu « sauté ». Lancez {command} sur une "
                       "machine dotée d'un GPU NVIDIA pour les noter"),
    "some skipped": ("; {skipped} skipped (their reasons above)", " ; {skipped} sautés (leurs raisons plus haut)"),
    "total": ("total", "total"),
})


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
    return re.sub(r"^(?:check|le correcteur) [0-9]+ \S+ ", "", match.group(1)).strip()


def not_graded(outcome, have_outcomes, why=""):
    if outcome == "skipped":
        return SAY("skipped", why=why or SAY("no device"))
    if outcome == "failed":
        return SAY("failed early")
    if have_outcomes:
        return SAY("not in build")
    return SAY("not run")


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
    width = max(width, len(SAY("exercise")))
    print(SAY("heading", exercise=f"{SAY('exercise'):<{width}}", score=f"{SAY('score'):>7}", variant=variant))
    for name, score, verdict in rows:
        print(f"{name:<{width}}  {score:>7}  {verdict}")
    closing = SAY("graded", graded=graded, count=len(rows))
    absent = sum(1 for exercise in exercises.load(ROOT)
                 if outcomes and f"{exercise.id}.{variant}" not in outcomes and exercise.id not in scores)
    # Every check that ran reported skipped: say why, rather than "0 of 15 graded".
    if skipped and not graded and skipped == len(rows) - absent:
        reason = cuda_device.absent_reason()
        why = SAY("no machine device", reason=reason) if reason else SAY("no usable device")
        command = "make test" if variant == "student" else "make"
        closing = SAY("nothing graded", why=why, command=command)
    elif skipped:
        closing += SAY("some skipped", skipped=skipped)
    print(f"{SAY('total'):<{width}}  {f'{total}/{total_max}':>7}  {closing}")
    return 0 if graded and full == graded else 1
