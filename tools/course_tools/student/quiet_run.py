"""Runs a long build or test command and shows what a person reads: warnings, errors and
failures as they come, and progress lines instead of a line per target or per test: the
first as soon as the command reports any progress, then one per tenth of the work or per
minute, whichever comes first, each with the time spent and an estimate of the time left
(from the pace so far). Every line goes to the log file as it comes (flushed: `tail -f`
shows it). Exit status: the command's.

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
import time

from course_tools.student import language

LOG_ONLY = "[log only] "

# The progress lines in the checks' language (language.py); the Makefile's labels too.
SAY = language.Messages(__name__, {
    "so far": ("{label}: {done}% ({elapsed} so far, about {left} left)",
               "{label} : {done}\u00a0% ({elapsed} écoulées, environ {left} restantes)"),
    "done": ("{label}: 100% ({elapsed})", "{label} : 100\u00a0% ({elapsed})"),
    "started": ("{label}: {done}%", "{label} : {done}\u00a0%"),
    "label built": ("built", "construit"),
    "label graded": ("graded", "noté"),
    "label tested": ("tested", "testé"),
    "label progress": ("progress", "avancement"),
})

def percent(match):
    groups = [int(g) for g in match.groups() if g is not None and g.isdigit()]
    if len(groups) >= 2 and groups[1]:
        return 100 * groups[0] // groups[1]
    return groups[0] if groups else None


def duration(seconds):
    """'45 s', '3 min 20 s', '1 h 05 min': what a person reads at a glance."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


# Below this, the pace so far says too little to estimate the time left.
ESTIMATE_AFTER_SECONDS = 5


def progress_line(label, done, elapsed):
    """'  built: 30% (2 min 10 s so far, about 5 min 03 s left)'."""
    if f"label {label}" in SAY.table:
        label = SAY(f"label {label}")
    if done >= 100:
        return "  " + SAY("done", label=label, elapsed=duration(elapsed))
    if done <= 0 or elapsed < ESTIMATE_AFTER_SECONDS:
        return "  " + SAY("started", label=label, done=done)
    left = elapsed * (100 - done) / done
    return "  " + SAY("so far", label=label, done=done, elapsed=duration(elapsed), left=duration(left))


class Progress:
    """When to show a progress line: the first report at once, then each new tenth, or a
    change after EVERY seconds without a line."""
    EVERY = 60.0

    def __init__(self, label, clock=time.monotonic):
        self.label, self.clock = label, clock
        self.start = clock()
        self.shown_at, self.shown_done = None, None

    def line(self, done):
        """The line to show for `done` percent now, or None."""
        now = self.clock()
        first = self.shown_at is None
        new_tenth = not first and done // 10 > self.shown_done // 10
        late = not first and done > self.shown_done and now - self.shown_at >= self.EVERY
        if not (first or new_tenth or late):
            return None
        self.shown_at, self.shown_done = now, done
        return progress_line(self.label, done, now - self.start)


def show(process, log, progress, hide, cut, label):
    """Copies every line to the log, and to the screen what a person reads."""
    cutting = False
    pace = Progress(label)
    for line in process.stdout:
        log.write(line)
        log.flush()
        if cutting or (cut and cut.search(line)):
            cutting = True
            continue
        if line.startswith(LOG_ONLY) or any(pattern.search(line) for pattern in hide):
            continue
        match = progress.search(line) if progress else None
        if match:
            done = percent(match)
            said = pace.line(done) if done is not None else None
            if said:
                print(said, flush=True)
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
