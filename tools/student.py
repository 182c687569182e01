#!/usr/bin/env python3
"""The students' path: build, run and check one exercise with nvcc directly, no CMake.

    tools/student.py build 03          (make 03)
    tools/student.py run 03 [ARGS]     (make run-03 ARGS="...")
    tools/student.py check 03 [ARGS]   (make check-03 ARGS="--case n_is_one")

Every nvcc command is printed before it runs, so the flags are visible. Programs go
to build/make/ (BUILD_DIR overrides); the GPU architecture is this machine's GPU, or
sm_75 (with PTX, which newer GPUs compile at load time) where none is visible;
NVCC_ARCH overrides it, e.g. NVCC_ARCH=sm_90.
"""
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exercises  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FALLBACK_ARCH = "sm_75"  # CUDA 13's oldest; -arch=sm_75 also embeds compute_75 PTX
LIBRARY_FLAGS = {
    "cublas": ["-lcublas"],
    "nvrtc": ["-lnvrtc"],
    "cuda": ["-lcuda"],
    "curand": ["-lcurand"],
    "cusparse": ["-lcusparse"],
    "openblas": ["-lopenblas"],
    "openmp": ["-Xcompiler", "-fopenmp"],
}
# The programs that run student code route cudaMalloc/cudaFree through the check's
# guard zones (common/course/check/device_memory_guard.hpp).
WRAP_FLAGS = ["-Xlinker", "--wrap=cudaMalloc,--wrap=cudaFree"]


def fail(message, status=2):
    print(f"student.py: {message}", file=sys.stderr)
    sys.exit(status)


def gpu_arch():
    if os.environ.get("NVCC_ARCH"):
        return os.environ["NVCC_ARCH"]
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            output = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                                    capture_output=True, text=True, timeout=20, check=True).stdout
            caps = output.split()
            if caps:
                return "sm_" + caps[0].replace(".", "")
        except (subprocess.SubprocessError, OSError):
            pass
    return FALLBACK_ARCH


def nvcc():
    found = shutil.which("nvcc") or (os.path.exists("/usr/local/cuda/bin/nvcc") and "/usr/local/cuda/bin/nvcc")
    if not found:
        fail("nvcc not found: install the CUDA toolkit or add its bin/ folder to PATH")
    return found


def common_flags(exercise):
    return ["-std=c++17", "-O2", "-lineinfo", f"-arch={gpu_arch()}",
            "-I" + os.path.relpath(os.path.join(ROOT, "common")),
            "-I" + os.path.relpath(exercise.folder)]


def up_to_date(output, inputs):
    if not os.path.exists(output):
        return False
    built = os.path.getmtime(output)
    watched = list(inputs)
    for folder in (os.path.join(ROOT, "common"), exercise_folder_of(inputs)):
        for base, _, names in os.walk(folder):
            watched += [os.path.join(base, n) for n in names if n.endswith((".hpp", ".h", ".cuh"))]
    return all(os.path.getmtime(path) <= built for path in watched if os.path.exists(path))


def exercise_folder_of(inputs):
    return os.path.dirname(inputs[0])


def compile_program(command, output, inputs):
    for path in inputs:
        if not os.path.isfile(path):
            fail(f"missing file {os.path.relpath(path)}")
    if up_to_date(output, inputs):
        print(f"{os.path.relpath(output)} is up to date")
        return
    os.makedirs(os.path.dirname(output), exist_ok=True)
    print(" ".join(shlex.quote(word) for word in command), flush=True)
    if subprocess.run(command).returncode != 0:
        fail(f"compilation failed: read the first error above", 1)


def build(exercise, build_dir):
    """Builds the exercise's program from the student's files; returns its path."""
    sources = [os.path.join(exercise.folder, f) for f in exercise.student_files]
    if exercise.driver:
        sources.append(os.path.join(exercise.folder, exercise.driver))
    output = os.path.join(build_dir, exercise.id)
    libraries = []
    for library in exercise.libraries:
        libraries += LIBRARY_FLAGS[library]
    command = [nvcc()] + common_flags(exercise) + [os.path.relpath(s) for s in sources]
    command += (WRAP_FLAGS if exercise.driver else []) + libraries + ["-o", os.path.relpath(output)]
    compile_program(command, output, sources)
    return output


def build_check(exercise, build_dir):
    source = os.path.join(exercise.folder, exercise.check)
    output = os.path.join(build_dir, f"check_{exercise.number}")
    command = [nvcc()] + common_flags(exercise) + [os.path.relpath(source), "-o", os.path.relpath(output)]
    compile_program(command, output, [source])
    return output


def main(argv):
    if len(argv) < 3 or argv[1] not in ("build", "run", "check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    action, number, extra = argv[1], argv[2], argv[3:]
    try:
        exercise = exercises.find(ROOT, number)
    except exercises.ExerciseError as error:
        fail(str(error))
    build_dir = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build", "make"))
    program = build(exercise, build_dir)
    if action == "build":
        return 0
    if action == "run":
        print(f"--- running {os.path.relpath(program)} {' '.join(extra)}", flush=True)
        return subprocess.run([program] + extra).returncode
    check = build_check(exercise, build_dir)
    print(f"--- checking exercise {exercise.number}", flush=True)
    return subprocess.run([check, "--program", program] + extra).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
