"""The margin test: every reference solution clears each of its speed bars by at least
10% (relative), on the GPU this runs on.

    tools/course speed-margins --scores BUILD/scores [--table]

Each solution's check writes its speed judgements with --speed-record (CMake passes
scores/NN_slug.solution.speed.tsv; common/course/check/speed_bar.hpp writes them): the
GPU's name, a "timed" line per timed case that ran, then a "speed" line per bar it judged
(case, figure, at_least or at_most, bar, measured, margin). Where site bars applied
(make calibrate), the bar is the site bar, and so is the margin. A bar that a solution clears by
less than the margin on one GPU would fail correct work on the next one, so the GPU
suite fails here instead of a student's grade. --table prints the rows as Markdown,
for tests/speed_bars.md.

Exit status: 0 every margin holds, 1 a margin is short (or a record is unreadable),
77 no solution recorded a judgement here (no GPU: the checks skipped).
Python 3 standard library only.
"""
import argparse
import glob
import os

# How far above its bar (relative) a reference solution must stay on every GPU kind.
REQUIRED_MARGIN = 0.10
SUFFIX = ".solution.speed.tsv"
EXIT_SKIP = 77


def read_records(path):
    """(timed case names, [(case, figure, kind, bar, measured, margin)]) of one file."""
    return read_records_with_gpu(path)[1:]


def read_records_with_gpu(path):
    """(the GPU's name, timed case names, [(case, figure, kind, bar, measured, margin)]) of
    one file (its first line, "gpu<TAB>name", names the GPU the check ran on)."""
    gpu, timed, speeds = "", [], []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "gpu" and len(fields) == 2:
                gpu = fields[1]
            elif fields[0] == "timed" and len(fields) == 2:
                timed.append(fields[1])
            elif fields[0] == "speed" and len(fields) == 7:
                case, figure, kind, bar, measured, margin = fields[1:]
                speeds.append((case, figure, kind, float(bar), float(measured), float(margin)))
            else:
                raise ValueError(f"{path}:{number}: not a speed record: {line.strip()!r}")
    return gpu, timed, speeds


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0])
    parser.add_argument("--scores", required=True, help="the build's scores folder")
    parser.add_argument("--table", action="store_true", help="print the rows as Markdown too")
    args = parser.parse_args(argv[1:])
    files = sorted(glob.glob(os.path.join(args.scores, "*" + SUFFIX)))
    if not files:
        print(f"SKIPPED: no reference solution recorded a speed judgement in {args.scores} "
              f"(no GPU here, or the solutions' tests did not run)")
        return EXIT_SKIP
    short, rows, silent = [], [], []
    for path in files:
        exercise = os.path.basename(path)[:-len(SUFFIX)]
        try:
            timed, speeds = read_records(path)
        except (OSError, ValueError) as error:
            short.append(str(error))
            continue
        judged = {case for case, *_ in speeds}
        silent += [f"{exercise} {case}" for case in timed if case not in judged]
        for case, figure, kind, bar, measured, margin in speeds:
            ok = margin >= REQUIRED_MARGIN
            rows.append((exercise, case, figure, kind, bar, measured, margin, ok))
            if not ok:
                short.append(f"{exercise} {case}: {figure} {measured:.4g}, bar "
                             f"{'at least' if kind == 'at_least' else 'at most'} {bar:g}: "
                             f"a margin of {100 * margin:.1f}%, less than {100 * REQUIRED_MARGIN:.0f}%")
    for exercise, case, figure, kind, bar, measured, margin, ok in rows:
        print(f"{'ok ' if ok else 'LOW'} {margin * 100:7.1f}%  {exercise} {case}: {figure} "
              f"{measured:.4g} ({'>=' if kind == 'at_least' else '<='} {bar:g})")
    if silent:
        print("timed cases that judged no time here (Nsight Compute's counters graded them, or "
              "they stopped before timing): " + ", ".join(silent))
    if args.table:
        print("\n| exercise | case | figure | bar | measured | margin |\n|---|---|---|---|---|---|")
        for exercise, case, figure, kind, bar, measured, margin, _ in rows:
            print(f"| {exercise} | `{case}` | {figure} | {'>=' if kind == 'at_least' else '<='} {bar:g} "
                  f"| {measured:.3g} | {100 * margin:.0f}% |")
    if short:
        print(f"FAIL: {len(short)} speed bar(s) without a {100 * REQUIRED_MARGIN:.0f}% margin for the "
              f"reference solution on this GPU:")
        for line in short:
            print("  " + line)
        return 1
    print(f"PASS: {len(rows)} speed bar(s) of {len(files)} solution(s), each cleared by at least "
          f"{100 * REQUIRED_MARGIN:.0f}%")
    return 0
