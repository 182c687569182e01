"""The students' path: build, run and check one exercise with nvcc directly, no CMake.

    tools/course build 03          (make 03)
    tools/course run 03 [ARGS]     (make run-03 ARGS="...")
    tools/course check 03 [ARGS]   (make check-03 ARGS="--case n_is_one")

Every nvcc command is printed before it runs, so the flags are visible. Programs go
to build/make/ (BUILD_DIR overrides); the GPU architecture is this machine's GPU, or
sm_75 (with PTX, which newer GPUs compile at load time) where none is visible;
NVCC_ARCH overrides it, e.g. NVCC_ARCH=sm_90.

Exit status: 0 done (the check: every case passed), 1 a case failed or the build failed,
2 a usage error, 77 the program or the check could not run: no CUDA device here (the last
line says what to do instead: the cluster's make submit-NN or make submit-check-NN), or no
case could be graded (the check says why: compute-sanitizer not found, for exercise 24).
Each compilation is also recorded in build/make/compile_commands.json, for editors (clangd).
"""
import os
import shlex
import subprocess
import sys

from course_tools.student import compile_database
from course_tools.student import cuda_device
from course_tools.student import exercises
from course_tools.student import language
from course_tools.student import nvcc
from course_tools.student.paths import ROOT

HEADER_SUFFIXES = (".hpp", ".h", ".cuh")
NO_DEVICE = 77  # the checks' own status for "no CUDA device" (CTest's SKIP_RETURN_CODE)

# What a student reads, in the checks' language (language.py; "SKIPPED:" stays, for scripts).
SAY = language.Messages(__name__, {
    "compilation failed": ("compilation failed: read the first error above",
                           "la compilation a échoué : lisez la première erreur plus haut"),
    "skipped unbuilt": ("SKIPPED: check {number} {name} {reason}; the check was not built",
                        "SKIPPED: le correcteur {number} {name} {reason} ; il n'a pas été construit"),
    "not checked": ("--- exercise {number} was not checked. {elsewhere}",
                    "--- l'exercice {number} n'a pas été vérifié. {elsewhere}"),
    "not checked because": ("--- exercise {number} was not checked: it {reason}. {elsewhere}",
                            "--- l'exercice {number} n'a pas été vérifié : il {reason}. {elsewhere}"),
    "checking": ("--- checking exercise {number}", "--- vérification de l'exercice {number}"),
    "job without GPU": ("This job's node has none: the job must ask for a GPU (COURSE_GPU_REQUEST in the site "
                        "configuration).",
                        "Le nœud de ce job n'en a pas : le job doit demander un GPU (COURSE_GPU_REQUEST dans la "
                        "configuration du site)."),
    "check it elsewhere": ("Check it on a GPU node of the cluster: {command}",
                           "Vérifiez-le sur un nœud GPU du cluster : {command}"),
    "run it elsewhere": ("Run it on a GPU node of the cluster: {command}",
                         "Exécutez-le sur un nœud GPU du cluster : {command}"),
    "needs a device": ("--- exercise {number} needs a CUDA device; this machine has none ({reason}).\n"
                       "--- Your program is built ({program}). {elsewhere}",
                       "--- l'exercice {number} demande un GPU CUDA ; cette machine n'en a aucun ({reason}).\n"
                       "--- Votre programme est construit ({program}). {elsewhere}"),
})


def fail(message, status=2):
    print(f"student.py: {message}", file=sys.stderr)
    sys.exit(status)


def up_to_date(output, inputs, folders):
    """True when `output` is newer than its inputs and every header in `folders`."""
    if not os.path.exists(output):
        return False
    built = os.path.getmtime(output)
    watched = list(inputs)
    for folder in folders:
        for base, _, names in os.walk(folder):
            watched += [os.path.join(base, n) for n in names if n.endswith(HEADER_SUFFIXES)]
    return all(os.path.getmtime(path) <= built for path in watched if os.path.exists(path))


def compile_if_needed(command, output, inputs, exercise, watched=None, say_up_to_date=True, database=None):
    """Runs `command` unless `output` is newer than `inputs` and the headers in `watched`
    (by default the course's and the exercise's folders). Returns True when it compiled.
    The command is recorded in `database` (by default compile_commands.json beside `output`)."""
    for path in inputs:
        if not os.path.isfile(path):
            fail(f"missing file {os.path.relpath(path)}")
    compile_database.record(database or os.path.join(os.path.dirname(output), "compile_commands.json"),
                            ROOT, command, [p for p in inputs if p.endswith((".cu", ".cpp", ".c"))])
    if watched is None:
        watched = [os.path.join(ROOT, "common"), exercise.folder]
    if up_to_date(output, inputs, watched):
        if say_up_to_date:
            print(f"{os.path.relpath(output)} is up to date")
        return False
    os.makedirs(os.path.dirname(output), exist_ok=True)
    print(" ".join(shlex.quote(word) for word in command), flush=True)
    if subprocess.run(command).returncode != 0:
        fail(SAY("compilation failed"), 1)
    return True


def relative_dirs(exercise):
    return os.path.relpath(os.path.join(ROOT, "common")), os.path.relpath(exercise.folder)


def object_name(source):
    """The object of a course file in build_dir/course_objects/NN_name/ (as the grader names it)."""
    return os.path.splitext(os.path.basename(source))[0] + ".o"


def build_course_objects(exercise, build_dir, arch):
    """The course's own files of the program (harness/demo.cu, harness/cases.cu, the course's
    main(), C callers), each compiled once to an object in build_dir/course_objects/NN_name/
    and rebuilt only when it or a header it may read changed: a fix to the student's file
    recompiles that file alone. Returns the objects' relative paths."""
    common_dir, exercise_dir = relative_dirs(exercise)
    folder = os.path.join(build_dir, "course_objects", exercise.id)
    objects, compiled = [], False
    for name in exercise.course_files:
        source = os.path.join(exercise.folder, name)
        output = os.path.join(folder, object_name(name))
        command = nvcc.object_command(exercise, os.path.relpath(source), os.path.relpath(output),
                                      common_dir, exercise_dir, arch)
        # Recorded with the program's commands, where editors look (build/make/).
        compiled |= compile_if_needed(command, output, [source], exercise, say_up_to_date=False,
                                      database=os.path.join(build_dir, "compile_commands.json"))
        objects.append(os.path.relpath(output))
    if objects and not compiled:
        print(f"the course's objects of exercise {exercise.number} are up to date ({os.path.relpath(folder)})")
    return objects


def build(exercise, build_dir, arch):
    """Builds the exercise's program from the student's files and the course's objects;
    returns its path."""
    objects = build_course_objects(exercise, build_dir, arch)
    sources = [os.path.join(exercise.folder, f) for f in exercise.linked_student_files]
    output = os.path.join(build_dir, exercise.id)
    common_dir, exercise_dir = relative_dirs(exercise)
    command = nvcc.program_command(exercise, [os.path.relpath(s) for s in sources] + objects,
                                   os.path.relpath(output), common_dir, exercise_dir, arch)
    compile_if_needed(command, output, sources + [os.path.abspath(o) for o in objects], exercise)
    # The shared library, the PTX files: each rebuilt when the student files it reads change.
    student_paths = {name: os.path.relpath(os.path.join(exercise.folder, name))
                     for name in exercise.student_files}
    for command, side_output in nvcc.side_builds(exercise, os.path.relpath(output), student_paths.get,
                                                 common_dir, exercise_dir, arch):
        inputs = [path for path in student_paths.values() if path in command]
        compile_if_needed(command, side_output, inputs, exercise)
    return output


def build_check_library(exercise, build_dir):
    """The harness every check links, in build_dir/course_check/: each file rebuilt only
    when it or a course header changed (an exercise's own headers are not its inputs), so
    that the checks of all exercises share one build."""
    common_dir, _ = relative_dirs(exercise)
    library = None
    for command, output, inputs in nvcc.check_library_builds(
            common_dir, os.path.relpath(os.path.join(build_dir, "course_check"))):
        compile_if_needed(command, output, inputs, exercise, watched=[os.path.join(ROOT, "common")])
        library = output
    return library


def build_check(exercise, build_dir, arch):
    library = build_check_library(exercise, build_dir)
    output = os.path.join(build_dir, f"check_{exercise.number}")
    common_dir, exercise_dir = relative_dirs(exercise)
    command = nvcc.check_command(exercise, os.path.relpath(output), common_dir, exercise_dir, arch, library)
    compile_if_needed(command, output, [os.path.join(exercise.folder, exercise.check), library], exercise)
    return output


def build_command(argv):
    return main("build", argv)


def run_command(argv):
    return main("run", argv)


def check_command(argv):
    return main("check", argv)


def main(action, argv):
    """`action` (build, run or check) on the exercise argv[1] names; argv[2:] go to its program."""
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    number, extra = argv[1], argv[2:]
    try:
        exercise = exercises.find(ROOT, number)
        arch = nvcc.gpu_arch()
        nvcc.nvcc_path()
    except (exercises.ExerciseError, nvcc.BuildError) as error:
        fail(str(error))
    default_dir = os.path.join(ROOT, "build", "make")
    build_dir = os.environ.get("BUILD_DIR", default_dir)
    if os.path.abspath(build_dir) == default_dir:
        os.makedirs(build_dir, exist_ok=True)
        compile_database.link_where_editors_look(os.path.join(build_dir, "compile_commands.json"),
                                                 os.path.join(ROOT, "build", "compile_commands.json"))
    program = build(exercise, build_dir, arch)
    if action == "build":
        return 0
    if action == "run":
        return run_program(exercise, program, extra)
    # Without a CUDA device the check could only say so: say it before compiling it (the
    # student's file is built above, so its compile errors still show). An exercise with
    # cases that need no GPU (HOST_CASES) builds its check, which grades those.
    reason = None if exercise.host_cases else cuda_device.shortfall(exercise.job_gpus)
    if reason:
        print(SAY("skipped unbuilt", number=exercise.number, name=exercise.name, reason=reason))
        print(SAY("not checked", number=exercise.number,
                  elsewhere=elsewhere("check it elsewhere", f"make submit-check-{exercise.number}")))
        return NO_DEVICE
    check = build_check(exercise, build_dir, arch)
    print(SAY("checking", number=exercise.number), flush=True)
    library_args = []
    if exercise.shared_library:
        library_args = ["--library", nvcc.library_path(program), "--exercise-dir", exercise.folder]
    # For the cases that run the program under a compute-sanitizer tool (exercise 24).
    sanitizer = nvcc.compute_sanitizer_path()
    sanitizer_args = ["--compute-sanitizer", sanitizer] if sanitizer else []
    status = subprocess.run([check, "--program", program] + library_args + sanitizer_args + extra).returncode
    reason = cuda_device.shortfall(exercise.job_gpus) if status == NO_DEVICE else None
    if reason:
        print(SAY("not checked because", number=exercise.number, reason=reason,
                  elsewhere=elsewhere("check it elsewhere", f"make submit-check-{exercise.number}")))
    return status


def elsewhere(what, command):
    """Where to go when this machine has no CUDA device: the cluster (`what`: SAY's "check
    it elsewhere" or "run it elsewhere"), or inside a Slurm job (whose own last line
    explains), a job that asks for a GPU."""
    if os.environ.get("SLURM_JOB_ID"):
        return SAY("job without GPU")
    return SAY(what, command=command)


def run_program(exercise, program, extra):
    """Runs the program, unless this machine certainly cannot: then says what to do instead."""
    def no_device(reason):
        print(SAY("needs a device", number=exercise.number, reason=reason, program=os.path.relpath(program),
                  elsewhere=elsewhere("run it elsewhere", f"make submit-{exercise.number}")))
        return NO_DEVICE

    # Before running, only the cheap question (is there a driver at all?); after a failure,
    # the full one, so a GPU machine pays nothing.
    reason = cuda_device.absent_reason(deep=False)
    if reason:
        return no_device(reason)
    print(f"--- running {os.path.relpath(program)} {' '.join(extra)}", flush=True)
    status = subprocess.run([program] + extra).returncode
    if status != 0:
        reason = cuda_device.absent_reason()
        if reason:
            return no_device(reason)
    return status
