#!/usr/bin/env python3
"""The students' release, written and used as a student would (CTest: release.build, then
release.skeletons on a GPU machine). Measured times: docs/maintainers.md, "The long tests".

    release_end_to_end.py build FOLDER
        writes the release into FOLDER/course (git, one commit) and FOLDER/course.tar.gz (the
        same files; where git is missing, the archive alone, unpacked); in the release: make help names no instructor's target, make gpu-suite
        says it is one, the decks, English and French, pass the slide tool's student check on
        the configured release, make test builds exercise 03 with CMake (the student preset,
        sm_75 only, as CI builds; one exercise proves the path) and reports its check skipped
        (the GPU hidden: on a GPU machine release.skeletons checks them all), make 03 builds
        with nvcc; then the leak check again, over the built programs too.
    release_end_to_end.py skeletons FOLDER [--gpu-lock FILE]
        writes the release into FOLDER/course, and there runs make check-NN for every exercise, several at once: each untouched
        skeleton must fail cleanly (no crash, no hang) and score 0. Exit 77 without a GPU.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.student import cuda_device  # noqa: E402
from course_tools.student import exercises  # noqa: E402

SKIPPED = 77
INSTRUCTOR_TARGETS = ("gpu-suite", "make report", "make release", "solutions")
SUBSET = "03_"  # the exercise make test builds with CMake in the release


class Failure(Exception):
    pass


def student_environment(**extra):
    """The environment of a student's shell: none of the course build's make variables (an
    outer `make test PRESET=ci` passes PRESET through MAKEFLAGS), nothing installed."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "PRESET", "BUILD_DIR",
                                "CUDA_ARCHS", "CONFIGURE_ARGS", "JOBS", "ARGS", "NVCC_ARCH")}
    environment["COURSE_NO_INSTALL"] = "1"
    environment.update(extra)
    return environment


def run(command, cwd, expect=0, **extra):
    print(f"--- {' '.join(command)}", flush=True)
    done = subprocess.run(command, cwd=cwd, env=student_environment(**extra), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if expect is not None and done.returncode != expect:
        print(done.stdout)
        raise Failure(f"{' '.join(command)} exited {done.returncode}, not {expect}")
    return done.stdout


def build(folder):
    release = os.path.join(folder, "course")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    archive = release + ".tar.gz"
    run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", "--tar", archive], ROOT)
    with tarfile.open(archive) as packed:
        in_archive = sorted(m.name.split("/", 1)[1] for m in packed.getmembers() if m.isfile())
        if not shutil.which("git"):
            # A machine without git (a copy of the course, not a checkout): the archive alone.
            packed.extractall(folder)
            print(f"git not found: the release as an archive only ({len(in_archive)} files), unpacked")
    if shutil.which("git"):
        print(run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", release], ROOT))
        committed = sorted(run(["git", "ls-files"], release).split())
        clean = not run(["git", "status", "--porcelain"], release).strip()
        if run(["git", "rev-list", "--count", "HEAD"], release).strip() != "1" or not clean:
            raise Failure("the release is not one clean commit")
        if in_archive != committed:
            raise Failure(f"the archive and the repository differ: {sorted(set(in_archive) ^ set(committed))}")
        print(f"the release: {len(committed)} files, one commit; the archive holds the same files")

    shown = run(["make", "help"], release)
    named = [word for word in INSTRUCTOR_TARGETS if word in shown]
    if named or "[release-only]" in shown or "make test" not in shown:
        raise Failure(f"make help in the release:\n{shown}\n(it names {named})")
    refusal = run(["make", "gpu-suite"], release, expect=2)
    if "instructors' target" not in refusal:
        raise Failure(f"make gpu-suite in the release said:\n{refusal}")

    jobs = str(max(2, min(8, (os.cpu_count() or 2) // 4)))
    # The decks first, on the whole course configured (the slide tool refuses a build of some
    # exercises only): configuring compiles nothing.
    run(["make", "configure", "CUDA_ARCHS=75"], release)
    print(run([sys.executable, "tools/course", "slides", "--check", "--lang", "all", "--build-dir", "build/student"],
              release).strip())
    # make test with CMake on one exercise (SUBSET), which proves the students' CMake path
    # (configure, build, ctest, score table) as well as all 26 would, in a tenth of the time:
    # all 26 took more than the 1,200 s limit on two busy cores (issue 45). The GPU hidden:
    # its check must report skipped (release.skeletons runs every check on a GPU).
    tested = run(["make", "test", "CUDA_ARCHS=75", f"JOBS={jobs}", f"CONFIGURE_ARGS=-DCOURSE_ONLY={SUBSET}"],
                 release, CUDA_VISIBLE_DEVICES="-1")
    found = [e for e in exercises.load(release) if e.id.startswith(SUBSET)]
    skipped = tested.count("not graded: skipped (")
    if skipped != len(found) or "nothing graded" not in tested:
        print(tested)
        raise Failure(f"make test in the release: {skipped} of {len(found)} checks reported skipped")
    print(f"make test: exercise {SUBSET} built with the student preset (sm_75), its check skipped")
    # The nvcc path too, for sm_75 in a folder of its own (build/make, make's own, is left to
    # release.skeletons, which builds for the GPU it runs on).
    print(run(["make", "03"], release, NVCC_ARCH="sm_75", BUILD_DIR="build/make-sm75").strip().splitlines()[-1])
    print(run([sys.executable, os.path.join(ROOT, "tools", "course"), "release-leaks", release], ROOT).strip())


def skeletons(folder, gpu_lock):
    reason = cuda_device.absent_reason()
    if reason:
        print(f"SKIPPED: the skeletons' checks need a CUDA device ({reason})")
        return SKIPPED
    # A release of its own (a second): this test need not wait for release.build's build,
    # and runs beside it, early in a GPU suite.
    release = os.path.join(folder, "course")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", release], ROOT)
    expectations = "--expect fail --expect-clean --expect-score 0" + (f" --gpu-lock {gpu_lock}" if gpu_lock else "")

    def check(exercise):
        done = subprocess.run(["make", "-s", f"check-{exercise.number}", f"ARGS={expectations}"], cwd=release,
                              env=student_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=600)
        problems = []
        # An exercise of several GPUs on a machine with fewer: its check says so and skips.
        if exercise.job_gpus > 1 and f"needs {exercise.job_gpus} CUDA devices" in done.stdout:
            return exercise, problems, done.stdout
        if done.returncode != 0:
            problems.append(f"make check-{exercise.number} exited {done.returncode}")
        if "was not checked" in done.stdout:
            problems.append("its check reported skipped")
        if "score: 0/" not in done.stdout or "expectation met" not in done.stdout:
            problems.append("no 'score: 0/' line and 'expectation met' from the check")
        return exercise, problems, done.stdout

    found = exercises.load(release)
    failed = []
    # The first one alone: it makes build/make and the link editors read, which two makes at
    # once would both try to create.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        for exercise, problems, output in [check(found[0])] + list(pool.map(check, found[1:])):
            score = next((line for line in output.splitlines()
                          if line.startswith(("score:", "SKIPPED:"))), "no score")
            print(f"{exercise.id}: {'; '.join(problems) if problems else 'fails cleanly'} ({score})")
            if problems:
                print(output)
                failed.append(exercise.id)
    if failed:
        raise Failure(f"skeletons that did not fail cleanly with 0 points: {', '.join(failed)}")
    print(f"every skeleton of the release ({len(found)}) scored 0 through make check-NN, without a crash or a hang")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("build", "skeletons"))
    parser.add_argument("folder")
    parser.add_argument("--gpu-lock")
    options = parser.parse_args(argv[1:])
    try:
        if options.mode == "build":
            build(os.path.abspath(options.folder))
            return 0
        return skeletons(os.path.abspath(options.folder), options.gpu_lock)
    except (Failure, subprocess.TimeoutExpired) as error:
        print(f"FAIL: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
