"""The experiment behind site bars: the reference solutions graded on a smaller GPU than the
course's bars were measured on, with the course's fixed bars and with site bars.

    tools/course handicap [--build-dir build] [--sms 32] [--only 11,12,21]

A class's GPU may have fewer multiprocessors for its memory than the H100 and H200 the course's
bars were measured on. On this machine's GPU, every case runs in a green context of --sms
multiprocessors (COURSE_HANDICAP_SMS, common/course/check/handicap.hpp): the same memory and
L2, a fraction of the compute. Then:
  1. the reference solutions are graded against the course's bars (what a class would get
     with fixed bars on such a card);
  2. site bars are derived from that grading (tools/course calibrate's rule: kept where the
     reference clears a bar by 10%, relaxed by 10% under its figure elsewhere);
  3. the reference solutions are graded again, against the site bars.
It prints, for every bar, the figure of each grading and whether it cleared its bar, and the
tests passed in each grading; BUILD/handicap/ keeps the records, the site bars and the logs.

Exit status: 0 every bar cleared with the site bars, 1 otherwise (or a grading judged other bars
than the first), 77 no GPU here.
"""
import argparse
import os
import shutil

from course_tools.suite import calibrate


def cleared(kind, bar, measured):
    return measured >= bar if kind == "at_least" else measured <= bar


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default="build", help="a build of the course for this GPU (make)")
    parser.add_argument("--sms", type=int, default=32, help="multiprocessors the cases run on (32)")
    parser.add_argument("--only", default="", help="exercise numbers, e.g. 11,12 (all by default)")
    options = parser.parse_args(argv[1:])
    if not calibrate.gpu_here():
        print("SKIPPED: the experiment runs the reference solutions on this machine's GPU, and it has none")
        return calibrate.EXIT_SKIP
    only = [number.strip().zfill(2) for number in options.only.split(",") if number.strip()]
    folder = os.path.join(options.build_dir, "handicap")
    shutil.rmtree(folder, ignore_errors=True)
    handicap = {"COURSE_HANDICAP_SMS": str(options.sms)}

    print(f"== 1. the reference solutions on {options.sms} multiprocessors, the course's bars", flush=True)
    fixed_tests = calibrate.run_solutions(options.build_dir, only, os.path.join(folder, "fixed"), handicap)
    try:
        fixed, gpu = calibrate.read_run(os.path.join(folder, "fixed"))
        _, rows = calibrate.derive([(fixed, gpu)])
    except calibrate.CalibrationError as error:
        print(f"FAIL: {error}")
        return 1
    site_bars = os.path.join(folder, "site-bars.tsv")
    calibrate.write(site_bars, gpu, rows, 1, calibrate.speed_margins.REQUIRED_MARGIN,
                    f"tools/course handicap --sms {options.sms}")

    print(f"== 2. again, against the site bars of grading 1 ({site_bars})", flush=True)
    site_tests = calibrate.run_solutions(options.build_dir, only, os.path.join(folder, "site"),
                                         dict(handicap, COURSE_SITE_BARS=os.path.abspath(site_bars)))
    try:
        site, _ = calibrate.read_run(os.path.join(folder, "site"))
    except calibrate.CalibrationError as error:
        print(f"FAIL: {error}")
        return 1
    lines = [f"# The reference solutions on {options.sms} multiprocessors of an {gpu}", "",
             "| exercise | case | figure | course's bar | grading 1 | cleared | site bar | grading 2 | cleared |",
             "|---|---|---|---|---|---|---|---|---|"]
    fixed_failures = site_failures = 0
    for number, case, figure, kind, bar, site_bar, _ in rows:
        first = fixed[(number, case, figure)][2]
        second = site.get((number, case, figure))
        sign = ">=" if kind == "at_least" else "<="
        fixed_ok = cleared(kind, bar, first)
        site_ok = second is not None and cleared(kind, site_bar, second[2])
        fixed_failures += not fixed_ok
        site_failures += not site_ok
        lines.append(f"| {number} | `{case}` | {figure} | {sign} {bar:g} | {first:.3g} | {'yes' if fixed_ok else 'NO'} "
                     f"| {sign} {site_bar:g} | {second[2] if second else float('nan'):.3g} | {'yes' if site_ok else 'NO'} |")
    lines += ["", f"Grading 1 (the course's bars): {fixed_failures} of {len(rows)} bars missed; "
              f"tests passed {fixed_tests[0]} of {fixed_tests[1]}.",
              f"Grading 2 (site bars): {site_failures} of {len(rows)} bars missed; "
              f"tests passed {site_tests[0]} of {site_tests[1]}."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(folder, "result.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    print(text)
    return 0 if site_failures == 0 else 1
