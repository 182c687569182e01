"""How the GPU was shared during a run of the suite: a summary of the GPU lock's log.

    tools/course gpu-lock-summary LOG [--top N]

LOG is the file that common/course/check/gpu_lock.hpp appends to when it exists (the
GPU suite makes it): one line per hold, "MODE<TAB>WAITED<TAB>HELD<TAB>ASKED_AT<TAB>
PROGRAM<TAB>CASE", with an optional "<TAB>sanitizer". From a timed run's request to its
end no shared run starts: the union of those spans is time that more cores cannot
shorten. The summary says it, the holds and waits of each mode, and which cases held
the GPU alone longest.

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
    """(mode, waited, held, asked at, name) of each hold in the log."""
    holds = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 6:
                continue
            try:
                waited, held, asked_at = (float(f) for f in fields[1:4])
            except ValueError:
                continue
            holds.append((fields[0], waited, held, asked_at, holder_name(fields[4], fields[5])))
    return holds


def closed_to_shared_seconds(holds):
    """The length of the union of the spans from a timed run's request to its end."""
    spans = sorted((asked, asked + waited + held) for mode, waited, held, asked, _ in holds
                   if mode == "alone")
    total, end = 0.0, None
    for start, stop in spans:
        if end is None or start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args(argv[1:])
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
    print(f"closed to shared runs (a timed run waiting or running): {closed_to_shared_seconds(holds):.1f} s")
    alone = collections.Counter()
    for mode, _, held, _, name in holds:
        if mode == "alone":
            alone[name] += held
    if alone:
        print("longest holds of the GPU alone (s, summed over the runs of each case):")
        for name, held in alone.most_common(args.top):
            print(f"  {held:7.1f}  {name}")
    return 0
