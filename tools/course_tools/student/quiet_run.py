"""Runs a long build or test command and shows what a person reads: warnings, errors and
failures as they come, and one progress line per tenth of the work instead of a line per
target or per test. Every line still goes to the log file. Exit status: the command's.

    tools/course quiet-run --log FILE [--progress REGEX] [--label WORD] [--hide REGEX]... [--cut REGEX] -- COMMAND...

--progress REGEX   lines that only report progress; hidden. The regex's groups give the
                   percentage done (one group) or "done of total" (two groups).
--hide REGEX       lines that say nothing to a person (ctest's "Start 12: ..."); repeatable.
--cut REGEX        from the first line that matches, show nothing more (a summary that the
                   caller replaces with its own, e.g. ctest's "100% tests passed" when every
                   test was skipped).

Lines tagged "[log only] " (tools/variant_build.sh: the warnings of a known-wrong variant
that compiled) go to the log only, always.
"""
import argparse
import re
import subprocess
import sys

LOG_ONLY = "[log only] "

def percent(match):
    groups = [int(g) for g in match.groups() if g is not None and g.isdigit()]
    if len(groups) >= 2 and groups[1]:
        return 100 * groups[0] // groups[1]
    return groups[0] if groups else None


def show(process, log, progress, hide, cut, label):
    """Copies every line to the log, and to the screen what a person reads."""
    shown_tenth, cutting = 0, False
    for line in process.stdout:
        log.write(line)
        if cutting or (cut and cut.search(line)):
            cutting = True
            continue
        if line.startswith(LOG_ONLY) or any(pattern.search(line) for pattern in hide):
            continue
        match = progress.search(line) if progress else None
        if match:
            done = percent(match)
            if done is not None and done // 10 > shown_tenth:
                shown_tenth = done // 10
                print(f"  {label}: {done}%", flush=True)
            continue
        sys.stdout.write(line)
        sys.stdout.flush()
    return process.wait()


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], usage=__doc__)
    parser.add_argument("--log", required=True)
    parser.add_argument("--progress")
    parser.add_argument("--hide", action="append", default=[])
    parser.add_argument("--cut")
    parser.add_argument("--label", default="progress")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv[1:])
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command")
    progress = re.compile(options.progress) if options.progress else None
    cut = re.compile(options.cut) if options.cut else None
    with open(options.log, "w", encoding="utf-8") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace", bufsize=1)
        try:
            return show(process, log, progress, [re.compile(h) for h in options.hide], cut,
                        options.label)
        except KeyboardInterrupt:
            # Ctrl-C reached the command too: let it end, without a Python traceback.
            process.wait()
            return 130
