#!/usr/bin/env python3
"""How the GPU was shared during a run of the suite: a summary of the GPU lock's log.

    tools/gpu_lock_summary.py LOG [--top N]

LOG is the file that common/course/check/gpu_lock.hpp appends to when it exists (the
GPU suite makes it): one line per hold, "MODE<TAB>WAITED<TAB>HELD<TAB>PROGRAM<TAB>CASE",
with an optional "<TAB>sanitizer". Timed runs hold the GPU alone, so the sum of their
holds is time during which nothing else ran on it: the part of the suite that more
cores cannot shorten. The summary says that sum, the waits, and which cases held the
GPU alone longest.

Python 3 standard library only.
"""
import argparse
import collections
import os
import re
import sys


def holder_name(program, case):
    """A short name for a run: the exercise and variant folders of its program, and the
    case (build/gpu/exercises/06_sgemm_cublas/mutants/x/ex06 -> 06_sgemm_cublas/mutants/x)."""
    parts = program.split(os.sep)
    for i, part in enumerate(parts):
        if re.fullmatch(r"\d\d_\w+", part):
            return "/".join(parts[i:-1] or parts[i:]) + " " + case
    return os.path.basename(program) + " " + case


def read_holds(path):
    holds = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                continue
            try:
                waited, held = float(fields[1]), float(fields[2])
            except ValueError:
                continue
            holds.append((fields[0], waited, held, holder_name(fields[3], fields[4])))
    return holds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    try:
        holds = read_holds(args.log)
    except OSError as error:
        print(f"gpu_lock_summary: cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"{'GPU lock':<10} {'holds':>6} {'held s':>8} {'waited s':>9} {'longest wait s':>15}")
    for mode in ("alone", "shared"):
        rows = [h for h in holds if h[0] == mode]
        print(f"{mode:<10} {len(rows):>6} {sum(h[2] for h in rows):>8.1f} "
              f"{sum(h[1] for h in rows):>9.1f} {max((h[1] for h in rows), default=0):>15.1f}")
    alone = collections.Counter()
    for mode, _, held, name in holds:
        if mode == "alone":
            alone[name] += held
    if alone:
        print("longest holds of the GPU alone (s, summed over the runs of each case):")
        for name, held in alone.most_common(args.top):
            print(f"  {held:7.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
