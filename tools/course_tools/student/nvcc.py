"""How an exercise's program and check are compiled with nvcc alone, without CMake.

The students' path (tools/course) and the grading command (tools/course grade)
build the same way, so that what a student checks at home is what gets graded.
The flags mirror cmake/CourseExercise.cmake, which the instructors' CMake build uses.
"""
import os
import shutil
import subprocess

FALLBACK_ARCH = "sm_75"  # CUDA 13's oldest; -arch=sm_75 also embeds compute_75 PTX
LIBRARY_FLAGS = {
    "cublas": ["-lcublas"],
    "nvrtc": ["-lnvrtc"],
    "cuda": ["-lcuda"],
    "curand": ["-lcurand"],
    "cusparse": ["-lcusparse"],
    "openblas": ["-lopenblas"],
    "openmp": ["-Xcompiler", "-fopenmp"],
    # "nccl": found where it is (nccl_flags), as cmake/Nccl.cmake finds it.
}
# The programs that run student code route cudaMalloc/cudaFree, cudaMemcpy(Async),
# cudaEventRecord, kernel launches and stream creation and destruction through the check's
# accounting (common/course/check/device_accounting.hpp).
WRAP_FLAGS = ["-Xlinker", "--wrap=cudaMalloc,--wrap=cudaFree,--wrap=__cudaLaunchKernel,--wrap=cudaLaunchKernel,"
              "--wrap=cudaMemcpy,--wrap=cudaMemcpyAsync,--wrap=cudaEventRecord,--wrap=cudaStreamCreate,"
              "--wrap=cudaStreamCreateWithFlags,--wrap=cudaStreamCreateWithPriority,--wrap=cudaStreamDestroy"]
# With the driver API (LIBRARIES cuda): its modules and primary-context references
# (common/course/check/driver_accounting.hpp; cmake/CourseExercise.cmake says the same).
DRIVER_API_WRAP_FLAGS = ["-Xlinker", "--wrap=cuModuleLoad,--wrap=cuModuleLoadData,--wrap=cuModuleLoadDataEx,"
                         "--wrap=cuModuleLoadFatBinary,--wrap=cuModuleUnload,--wrap=cuDevicePrimaryCtxRetain,"
                         "--wrap=cuDevicePrimaryCtxRelease_v2,--wrap=cuLaunchKernel"]


class BuildError(Exception):
    pass


def nvcc_path():
    found = shutil.which("nvcc")
    if not found and os.path.exists("/usr/local/cuda/bin/nvcc"):
        found = "/usr/local/cuda/bin/nvcc"
    if not found:
        raise BuildError("nvcc not found: install the CUDA toolkit or add its bin/ folder to PATH")
    return found


def compute_sanitizer_path():
    """compute-sanitizer's path (on PATH, beside nvcc, or in the toolkit's
    compute-sanitizer/ folder), or "" where there is none."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    folders = ["/usr/local/cuda/bin"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        folders.insert(0, os.path.dirname(nvcc))
    for folder in folders:
        for candidate in (os.path.join(folder, "compute-sanitizer"),
                          os.path.join(folder, "..", "compute-sanitizer", "compute-sanitizer")):
            if os.access(candidate, os.X_OK):
                return os.path.normpath(candidate)
    return ""


def gpu_arch():
    """This machine's GPU (nvidia-smi), else sm_75; NVCC_ARCH overrides both."""
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


def arch_for(exercise, arch):
    """The architecture an exercise's code is compiled for: `arch`, except that an exercise
    that uses an architecture's own instructions (ARCH_SPECIFIC 90: sm_90a's wgmma) gets
    that architecture's "a" target in place of its plain one (sm_90 -> sm_90a), as
    cmake/CourseExercise.cmake does. -arch=sm_90a embeds sm_90a machine code and compute_90
    PTX: an sm_90 GPU runs the former, a newer one compiles the latter."""
    for number in exercise.arch_specific:
        if arch == f"sm_{number}":
            return f"sm_{number}a"
    return arch


def base_flags(common_dir, exercise_dir, arch):
    """The student's headers sit at the top of the exercise's folder, the course's side
    (workload.hpp) in its harness/ subfolder."""
    return ["-std=c++17", "-O2", "-lineinfo", f"-arch={arch}", "-I" + common_dir, "-I" + exercise_dir,
            "-I" + os.path.join(exercise_dir, "harness")]


def nccl_in(root):
    """(include folder, library file) of NCCL under `root`, or None."""
    include = os.path.join(root, "include")
    if not os.path.isfile(os.path.join(include, "nccl.h")):
        return None
    for lib in ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"):
        for name in ("libnccl.so", "libnccl.so.2"):
            if os.path.exists(os.path.join(root, lib, name)):
                return include, os.path.join(root, lib, name)
    return None


def nccl_wheel():
    """The folder of python3's wheel nvidia-nccl-cu13 (site-packages/nvidia/nccl), or None."""
    try:
        wheel = subprocess.run(["python3", "-c", "import os, nvidia.nccl as m; print(list(m.__path__)[0])"],
                               capture_output=True, text=True, timeout=20)
    except (subprocess.SubprocessError, OSError):
        return None
    return wheel.stdout.strip() if wheel.returncode == 0 and wheel.stdout.strip() else None


def nccl_folders():
    """(include folder, library file) of NCCL, or None: COURSE_NCCL_ROOT, the CUDA
    toolkit's folders, the system's (libnccl-dev), then python3's wheel nvidia-nccl-cu13
    (site-packages/nvidia/nccl), the places cmake/Nccl.cmake looks in. Python is started
    only when the folders before it have no NCCL."""
    if os.environ.get("COURSE_NCCL_ROOT"):
        return nccl_in(os.environ["COURSE_NCCL_ROOT"])
    roots = []
    try:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc_path()))))
    except BuildError:
        pass
    for root in roots + ["/usr", "/usr/local"]:
        found = nccl_in(root)
        if found:
            return found
    wheel = nccl_wheel()
    return nccl_in(wheel) if wheel else None


def nccl_flags():
    found = nccl_folders()
    if found is None:
        raise BuildError("NCCL not found (nccl.h and libnccl.so), which this exercise needs: install "
                         "libnccl-dev (or pip's nvidia-nccl-cu13), or set COURSE_NCCL_ROOT=DIR")
    include, library = found
    return ["-I" + include, library, "-Xlinker", "-rpath=" + os.path.dirname(library)]


def library_flags(exercise):
    """What nvcc needs to link the libraries the exercise declares (LIBRARIES)."""
    return [flag for library in exercise.libraries
            for flag in (nccl_flags() if library == "nccl" else LIBRARY_FLAGS[library])]


def object_command(exercise, source, output, common_dir, exercise_dir, arch):
    """The nvcc command that compiles one instructor-owned file (the driver, a C caller)
    to an object, which the grader compiles once and links into every student's program."""
    # Only the options: a library given as a file (NCCL's) is an input of the link, which a
    # compile-only step refuses ("a single input file is required").
    options = [flag for flag in library_flags(exercise) if flag.startswith("-")]
    return ([nvcc_path()] + base_flags(common_dir, exercise_dir, arch_for(exercise, arch)) + ["-c", source] +
            options + ["-o", output])


def program_command(exercise, sources, output, common_dir, exercise_dir, arch):
    """The nvcc command that links the student's sources (and the driver, as a source or
    as an object from object_command) into a program."""
    wrap = WRAP_FLAGS if exercise.driver else []
    if exercise.driver and "cuda" in exercise.libraries:
        wrap = wrap + DRIVER_API_WRAP_FLAGS
    return ([nvcc_path()] + base_flags(common_dir, exercise_dir, arch_for(exercise, arch)) + list(sources) +
            wrap + library_flags(exercise) + ["-o", output])


def library_command(exercise, sources, output, common_dir, exercise_dir, arch):
    """The nvcc command that builds the student's sources alone as a shared library
    (course_exercise's SHARED_LIBRARY), for callers outside the program (Python)."""
    return ([nvcc_path()] + base_flags(common_dir, exercise_dir, arch_for(exercise, arch)) +
            ["-shared", "-Xcompiler", "-fPIC"] + list(sources) + library_flags(exercise) +
            ["-o", output])


def library_path(program):
    """Where the shared library of the program `program` goes."""
    return program + ".so"


def ptx_path(program, source):
    """Where the PTX of the student file `source` (PTX_SOURCES) goes: beside the program,
    named after both, where the program looks for it (common/course/beside_program.hpp)."""
    stem = os.path.splitext(os.path.basename(source))[0]
    return f"{program}.{stem}.ptx"


def ptx_command(source, output, common_dir, exercise_dir, arch):
    """The nvcc command that compiles one student file to PTX, for the architecture of
    the program's own kernels (a newer GPU compiles it when the program loads it)."""
    return [nvcc_path()] + base_flags(common_dir, exercise_dir, arch) + ["-ptx", source, "-o", output]


def side_outputs(exercise, program):
    """What side_builds writes beside the program `program`, in its order."""
    library = [library_path(program)] if exercise.shared_library else []
    return library + [ptx_path(program, name) for name in exercise.ptx_sources]


def side_builds(exercise, program, source_of, common_dir, exercise_dir, arch):
    """The builds of student files beside the program, as (command, output) pairs: the
    student files alone as a shared library (SHARED_LIBRARY), each PTX_SOURCES file as PTX.
    source_of(name) is the path the compiler reads for the student file `name`."""
    builds = []
    if exercise.shared_library:
        sources = [source_of(name) for name in exercise.student_files]
        library = library_path(program)
        builds.append((library_command(exercise, sources, library, common_dir, exercise_dir, arch),
                       library))
    for name in exercise.ptx_sources:
        output = ptx_path(program, name)
        builds.append((ptx_command(source_of(name), output, common_dir, exercise_dir, arch), output))
    return builds


# The check harness's bodies (common/course/check/*.cpp but the sandbox's main), which
# every check links: compiled once, as CMake's course_check library is (CMakeLists.txt).
SANDBOX_MAIN = "sandbox_main.cpp"
CHECK_LIBRARY = "libcourse_check.a"


def check_library_sources(common_dir):
    """The harness's .cpp files, in a stable order."""
    folder = os.path.join(common_dir, "course", "check")
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if name.endswith(".cpp") and name != SANDBOX_MAIN]


def check_library_builds(common_dir, folder):
    """The builds of the harness library in `folder`, as (command, output, inputs) triples
    in their order: one object per source (these may run side by side), then the archive
    of them all, which check_command links."""
    builds = []
    objects = []
    for source in check_library_sources(common_dir):
        output = os.path.join(folder, os.path.splitext(os.path.basename(source))[0] + ".o")
        builds.append(([nvcc_path(), "-std=c++17", "-O2", "-I" + common_dir, "-c", source, "-o", output],
                       output, [source]))
        objects.append(output)
    library = os.path.join(folder, CHECK_LIBRARY)
    builds.append(([nvcc_path(), "-lib"] + objects + ["-o", library], library, objects))
    return builds


def check_command(exercise, output, common_dir, exercise_dir, arch, check_library):
    """The nvcc command that builds the exercise's check (no student code in it), linked
    with the harness library (check_library_builds' last output)."""
    source = os.path.join(exercise_dir, exercise.check)
    return [nvcc_path()] + base_flags(common_dir, exercise_dir, arch) + [source, check_library, "-o", output]


def sandbox_command(common_dir, output):
    """The nvcc command that builds course_sandbox (common/course/check/sandbox_main.cpp),
    which confines the grader's builds as the checks confine student programs. It needs
    child_process.cpp alone of the harness, and is built before the harness library."""
    folder = os.path.join(common_dir, "course", "check")
    sources = [os.path.join(folder, SANDBOX_MAIN), os.path.join(folder, "child_process.cpp")]
    return [nvcc_path(), "-std=c++17", "-O2", "-I" + common_dir] + sources + ["-o", output]
