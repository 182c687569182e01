"""The course's exercises as the tools see them, read from each exercise's one
course_exercise(...) call in exercises/NN_name/CMakeLists.txt.

The CMake call is the single declaration of an exercise; CMake, the students'
Makefile path (tools/course build, run, check) and the repository checks all read it. Keywords
take space-separated values up to the next keyword or the closing parenthesis.
"""
import os
import re
import sys
from dataclasses import dataclass, field

from course_tools.student.paths import ROOT

KEYWORDS = ("NUMBER", "NAME", "STUDENT_FILES", "DRIVER", "CHECK", "POINTS", "LIBRARIES",
            "MUTANTS", "SKELETON_SCORE", "MEMCHECK_POINTS", "HOST_CASES",
            "C_SOURCES", "SHARED_LIBRARY", "RACECHECK", "SYNCCHECK", "PTX_SOURCES", "SCRIPTS",
            "JOB_CPUS", "JOB_GPUS", "ARCH_SPECIFIC")
SINGLE_VALUED = ("NUMBER", "NAME", "CHECK", "POINTS", "SKELETON_SCORE", "MEMCHECK_POINTS", "JOB_CPUS",
                 "JOB_GPUS")
FLAGS = ("HOST_CASES", "SHARED_LIBRARY", "RACECHECK", "SYNCCHECK")
# The course's main() of every program with a DRIVER, relative to an exercise's folder.
PROGRAM_MAIN = "../../common/course/program_main.cu"


@dataclass
class Exercise:
    number: str
    name: str
    folder: str                      # absolute path of exercises/NN_name
    student_files: list
    check: str
    points: int
    # The instructor-owned halves of the program (harness/demo.cu, harness/cases.cu); empty
    # for a whole program the student writes, main() included.
    driver: list = field(default_factory=list)
    libraries: list = field(default_factory=list)
    mutants: list = field(default_factory=list)
    memcheck_points: int = 0      # graded: compute-sanitizer memcheck finds nothing
    # RACECHECK, SYNCCHECK: the whole check is also graded under that compute-sanitizer
    # tool, worth MEMCHECK_POINTS too (sanitizer_tools).
    racecheck: bool = False
    synccheck: bool = False
    c_sources: list = field(default_factory=list)  # instructor-owned C callers, linked in
    shared_library: bool = False  # the student files are also built as a shared library
    # Student files compiled to PTX (nvcc -ptx) beside the program instead of into it, for
    # programs that load their kernels at run time (the driver API): ptx_path names the file.
    ptx_sources: list = field(default_factory=list)
    scripts: list = field(default_factory=list)   # scripts that ship with it (a Python caller)
    # The CPU cores its CPU baseline (OpenMP, OpenBLAS) runs on: what its Slurm jobs ask for.
    job_cpus: int = 1
    # The GPUs of one node its jobs need (a multi-GPU exercise: 2).
    job_gpus: int = 1
    host_cases: bool = False      # some cases of its check need no GPU (HOST_CASES)
    # Architectures whose own instructions its code uses (ARCH_SPECIFIC 90: sm_90a's wgmma):
    # where the build compiles for sm_90, this exercise is compiled for sm_90a (nvcc.arch_for).
    arch_specific: list = field(default_factory=list)

    @property
    def id(self):
        return f"{self.number}_{self.name}"

    @property
    def sanitizer_tools(self):
        """The compute-sanitizer tools whose run of the whole check is graded, each worth
        memcheck_points: memcheck, then racecheck and synccheck where declared."""
        if not self.memcheck_points:
            return []
        return ["memcheck"] + [tool for tool, declared in (("racecheck", self.racecheck),
                                                         ("synccheck", self.synccheck)) if declared]

    @property
    def max_score(self):
        """The check's points plus those of each graded sanitizer run."""
        return self.points + self.memcheck_points * len(self.sanitizer_tools)

    @property
    def program_files(self):
        """The files of the program, relative to the exercise's folder: the student's, the
        driver and the course's main() with it, the C callers (nvcc hands .c files to the
        host C compiler, as C)."""
        driver = self.driver + [PROGRAM_MAIN] if self.driver else []
        return self.linked_student_files + driver + self.c_sources

    @property
    def declared_files(self):
        """Every file the call names, relative to the exercise's folder."""
        return set(self.student_files + self.c_sources + self.ptx_sources + self.scripts
                   + self.driver + [self.check])

    @property
    def course_files(self):
        """The instructor-owned files of the program (driver, the course's main(), C callers),
        relative to the exercise's folder: compiled once to objects, reused by every build."""
        return [f for f in self.program_files if f not in self.student_files]

    @property
    def linked_student_files(self):
        """The student's files that are compiled into the program (all but the PTX ones)."""
        return [f for f in self.student_files if f not in self.ptx_sources]


class ExerciseError(Exception):
    pass


def parse_call(text, source):
    match = re.search(r"course_exercise\s*\((.*?)\)", text, re.S)
    if not match:
        raise ExerciseError(f"{source}: no course_exercise(...) call")
    body = re.sub(r"#[^\n]*", "", match.group(1))
    values = {}
    current = None
    for word in body.split():
        if word in FLAGS:
            values[word] = []
            current = None
        elif word in KEYWORDS:
            current = word
            values[current] = []
        elif current is None:
            raise ExerciseError(f"{source}: '{word}' before any keyword")
        else:
            values[current].append(word)
    for key in ("NUMBER", "NAME", "STUDENT_FILES", "CHECK", "POINTS"):
        if not values.get(key):
            raise ExerciseError(f"{source}: {key} is missing")
    stray = [f for f in values.get("PTX_SOURCES", []) if f not in values["STUDENT_FILES"]]
    if stray:
        raise ExerciseError(f"{source}: PTX_SOURCES {' '.join(stray)} are not STUDENT_FILES")
    for key in SINGLE_VALUED:
        if key in values and len(values[key]) != 1:
            raise ExerciseError(f"{source}: {key} takes one value")
    if "JOB_CPUS" in values and not re.fullmatch(r"[1-9][0-9]*", values["JOB_CPUS"][0]):
        raise ExerciseError(f"{source}: JOB_CPUS takes a number of cores")
    if "JOB_GPUS" in values and not re.fullmatch(r"[1-9][0-9]*", values["JOB_GPUS"][0]):
        raise ExerciseError(f"{source}: JOB_GPUS takes a number of GPUs")
    for number in values.get("ARCH_SPECIFIC", []):
        if not re.fullmatch(r"[1-9][0-9]+", number):
            raise ExerciseError(f"{source}: ARCH_SPECIFIC takes architectures as numbers, such as 90")
    # A statement that says a tool finds a mistake is backed by points under that tool.
    for flag in ("RACECHECK", "SYNCCHECK"):
        if flag in values and int(values.get("MEMCHECK_POINTS", ["0"])[0]) <= 0:
            raise ExerciseError(f"{source}: {flag} needs MEMCHECK_POINTS (what its graded run is worth)")
    return values


def load(root):
    """All exercises under root/exercises, sorted by number."""
    exercises_dir = os.path.join(root, "exercises")
    found = []
    for entry in sorted(os.listdir(exercises_dir)):
        cmake_file = os.path.join(exercises_dir, entry, "CMakeLists.txt")
        if not os.path.isfile(cmake_file):
            continue
        with open(cmake_file, encoding="utf-8") as handle:
            values = parse_call(handle.read(), cmake_file)
        found.append(Exercise(
            number=values["NUMBER"][0],
            name=values["NAME"][0],
            folder=os.path.join(exercises_dir, entry),
            student_files=values["STUDENT_FILES"],
            check=values["CHECK"][0],
            points=int(values["POINTS"][0]),
            driver=values.get("DRIVER", []),
            libraries=values.get("LIBRARIES", []),
            mutants=values.get("MUTANTS", []),
            memcheck_points=int(values.get("MEMCHECK_POINTS", ["0"])[0]),
            c_sources=values.get("C_SOURCES", []),
            shared_library="SHARED_LIBRARY" in values,
            racecheck="RACECHECK" in values,
            synccheck="SYNCCHECK" in values,
            ptx_sources=values.get("PTX_SOURCES", []),
            scripts=values.get("SCRIPTS", []),
            job_cpus=int(values.get("JOB_CPUS", ["1"])[0]),
            job_gpus=int(values.get("JOB_GPUS", ["1"])[0]),
            host_cases="HOST_CASES" in values,
            arch_specific=values.get("ARCH_SPECIFIC", []),
        ))
    return found


def find(root, number):
    """The exercise numbered `number` ('3' or '03'), or an ExerciseError naming those there are."""
    exercises = load(root)
    wanted = number.zfill(2) if re.fullmatch(r"[0-9]{1,2}", number) else None
    for exercise in exercises:
        if exercise.number == wanted:
            return exercise
    raise ExerciseError(unknown_message(number, [e.number for e in exercises]))


# One rule for exercise numbers everywhere (make NN, tools/course, slurm/submit): one or two
# digits, 3 meaning 03; any other is refused with this message.
def unknown_message(number, numbers):
    """The message for an exercise number that names no exercise; make's and slurm/submit's
    say the same."""
    return f"no exercise {number}: the exercises are {' '.join(numbers) or 'none'} (make list names them)"


def main(argv):
    """`tools/course exercises job NN`: the cores and the GPUs exercise NN's Slurm jobs ask for, on one
    line (slurm/submit)."""
    if len(argv) != 3 or argv[1] != "job":
        print(f"usage: {argv[0]} job NN", file=sys.stderr)
        return 2
    try:
        exercise = find(ROOT, argv[2])
        print(exercise.job_cpus, exercise.job_gpus)
    except ExerciseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
