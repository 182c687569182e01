#!/usr/bin/env python3
"""Prints the score table of a graded run: one row per exercise, from the summary
lines the checks wrote (build/<preset>/scores/<test>.tsv, see --summary in judge.hpp).

    tools/score_table.py BUILD_DIR [VARIANT]     (VARIANT: solution by default)

An exercise whose check wrote nothing was skipped (no GPU) or did not run; the table
says so rather than counting it as zero or as full marks. Exit status 0 when every
graded exercise got full marks.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exercises  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


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


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build_dir, variant = argv[1], (argv[2] if len(argv) == 3 else "solution")
    scores = read_scores(build_dir, variant)
    rows, total, total_max, graded, full = [], 0, 0, 0, 0
    for exercise in exercises.load(ROOT):
        if exercise.id in scores:
            score, maximum, verdict = scores[exercise.id]
            rows.append((exercise.id, f"{score}/{maximum}", verdict))
            total += score
            total_max += maximum
            graded += 1
            full += score == maximum
        else:
            rows.append((exercise.id, f"-/{exercise.points}", "not graded (skipped: no GPU, or not run)"))
    width = max(len(r[0]) for r in rows) if rows else 10
    print(f"{'exercise':<{width}}  {'score':>7}  verdict ({variant})")
    for name, score, verdict in rows:
        print(f"{name:<{width}}  {score:>7}  {verdict}")
    print(f"{'total':<{width}}  {f'{total}/{total_max}':>7}  {graded} of {len(rows)} exercises graded")
    return 0 if graded and full == graded else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
