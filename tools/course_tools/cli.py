"""tools/course SUBCOMMAND [ARGUMENTS]: the one entry point of the course's tools.

Each subcommand is a module's main(argv), where argv[0] is the command as typed
("tools/course grade") and the rest its arguments; the module is imported only when its
subcommand runs, so that a subcommand costs nothing to the others, and a students' copy,
which has student/ alone, says which ones it lacks instead of failing on an import.
"""
import importlib
import importlib.util
import sys

LAUNCHER = "tools/course"


class Command:
    def __init__(self, name, module, summary, function="main"):
        self.name, self.module, self.summary, self.function = name, module, summary, function

    def part(self):
        """The sub-package holding it (course_tools.student, course_tools.grading...)."""
        return self.module.rsplit(".", 1)[0]


STUDENT = "course_tools.student"
COMMANDS = [
    # What make, make NN, run-NN, check-NN, make test and make slides run (a students' copy too).
    Command("build", f"{STUDENT}.commands", "build one exercise with nvcc (make NN)", "build_command"),
    Command("run", f"{STUDENT}.commands", "build and run it (make run-NN)", "run_command"),
    Command("check", f"{STUDENT}.commands", "build it and run its check (make check-NN)", "check_command"),
    Command("profile", f"{STUDENT}.profile", "build it and profile its kernels with Nsight Compute (make profile-NN)"),
    Command("prerequisites", f"{STUDENT}.prerequisites", "check (and install) what the course needs"),
    Command("quiet-run", f"{STUDENT}.quiet_run", "run a command, its output to a log, a progress line on screen"),
    Command("score-table", f"{STUDENT}.score_table", "the points each exercise earned in a build"),
    Command("test-summary", f"{STUDENT}.test_summary", "passed, failed and skipped tests of a JUnit file"),
    Command("slides", f"{STUDENT}.slides", "build the lecture decks (make slides)"),
    Command("exercises", f"{STUDENT}.exercises", "what an exercise's CMake call declares (slurm/submit)"),
    Command("cuda-device", f"{STUDENT}.cuda_device", "why this machine cannot run CUDA; nothing when it can"),
    # The instructors' and maintainers' parts, which a students' copy does not have.
    Command("grade", "course_tools.grading.grade", "grade a submission or a class"),
    Command("class-plots", "course_tools.grading.class_plots", "the class report's figures (run by grade)"),
    Command("release", "course_tools.release.write", "write the students' copy (make release)"),
    Command("release-leaks", "course_tools.release.leaks", "check a written release for solution code"),
    Command("report", "course_tools.report.run", "the benchmark report (make report)"),
    Command("report-render", "course_tools.report.render", "draw the report from its data (run by report)"),
    Command("report-seeds", "course_tools.report.seeds", "the seed labs' systems measured (run by report)"),
    Command("new-exercise", "course_tools.authoring.new_exercise", "create an exercise (make new-exercise)"),
    Command("check-regions", "course_tools.authoring.regions",
            "skeletons and solutions differ only in their student regions"),
    Command("statement-parity", "course_tools.authoring.statement_parity",
            "each French statement has its English one's structure"),
    Command("deck-parity", "course_tools.authoring.deck_parity", "each French deck has its English one's structure"),
    Command("case-tables", "course_tools.authoring.case_tables",
            "statements, tests/speed_bars.md and quoted figures held against the checks"),
    Command("french-typography", "course_tools.authoring.french_typography",
            "French typography (no-break spaces) in every French page"),
    Command("diagrams", "course_tools.authoring.diagrams", "draw the slides' diagrams (slides/diagrams/)"),
    Command("answers", "course_tools.authoring.answers", "the answers files from the statements' Questions"),
    Command("speed-margins", "course_tools.suite.speed_margins", "how far each reference clears its speed bar"),
    Command("calibrate", "course_tools.suite.calibrate", "site bars: the reference solutions measured on this GPU"),
    Command("handicap", "course_tools.suite.handicap", "the site bars' experiment: references on fewer multiprocessors"),
    Command("gpu-lock-summary", "course_tools.suite.gpu_lock_summary", "how long the GPU lock was held, from its log"),
    Command("suite-unfinished", "course_tools.suite.unfinished",
            "the tests a cut GPU suite left to do, as a ctest expression"),
]


def present(command):
    return importlib.util.find_spec(command.part()) is not None


def usage(out):
    print(f"usage: {LAUNCHER} SUBCOMMAND [ARGUMENTS]   ({LAUNCHER} SUBCOMMAND --help where it has options)",
          file=out)
    width = max(len(c.name) for c in COMMANDS)
    for command in COMMANDS:
        if present(command):
            print(f"  {command.name:<{width}}  {command.summary}", file=out)


def main(arguments):
    if not arguments or arguments[0] in ("help", "-h", "--help"):
        usage(sys.stdout if arguments else sys.stderr)
        return 0 if arguments else 2
    name, rest = arguments[0], arguments[1:]
    command = next((c for c in COMMANDS if c.name == name), None)
    if command is None:
        print(f"{LAUNCHER}: no subcommand {name!r} ({LAUNCHER} help lists them)", file=sys.stderr)
        return 2
    if not present(command):
        print(f"{LAUNCHER} {name}: not in the students' copy of the course (the instructors' copy has it)",
              file=sys.stderr)
        return 2
    module = importlib.import_module(command.module)
    return getattr(module, command.function)([f"{LAUNCHER} {name}", *rest])
