#!/usr/bin/env python3
"""grading.world_readable_course: the sandbox hides the course wherever it lies.

The course is copied where anyone may read it (/srv/course-XXXX/course, mode 755 all
the way, files 644), with a second readable clone of its solutions and tests beside it
(/srv/course-XXXX/clone: another instructor's checkout, which no --hide names), and
the catalog's reads_reference_solution entry, which searches every folder it can read
for a solution or another submission, is graded from the copy twice:

  1. as an instructor does: tests/grading/run_catalog.py --grader COPY/tools/course;
  2. as the Slurm grading does: slurm/class_grading.py prepare, one
     slurm/jobs/grade-task.sbatch per submission (SLURM_ARRAY_TASK_ID set, as the array
     sets it), slurm/jobs/grade-collect.sbatch, then the catalog's --check-only.

Both must pass: the student program finds nothing. Needs root (the grader confines
only as root) and a GPU (the entry's program runs on it); without either it reports
skipped (77). Everything it wrote is removed at the end.

    test_world_readable_course.py --build   (no GPU needed: the builds' side)

With --build, a submission whose exercise 03 file #includes the clone's reference
solution by its absolute path is graded --cpu-only from the copy: the build must fail,
the file not found; with --no-sandbox the same build succeeds (the proof is not
vacuous).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import gpu  # noqa: E402

ENTRY = "reads_reference_solution"
EXERCISES = "01,02,03,04"  # the ones its expectations name
SKIP = 77


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def course_files():
    """The repository's files as git sees them (tracked and new, ignored ones left out);
    without git (a copy of the files alone), every file outside build folders."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        names = listed.stdout.decode().split("\0")
    else:
        names = []
        for base, folders, files in os.walk(ROOT):
            folders[:] = [f for f in folders if f not in (".git", "build", "__pycache__")]
            names += [os.path.relpath(os.path.join(base, f), ROOT) for f in files]
    return [name for name in names if name and os.path.isfile(os.path.join(ROOT, name))
            and not os.path.islink(os.path.join(ROOT, name))]


def copy_readable(files, target):
    """Copies `files` of the course into `target`, readable by anyone: folders 755,
    files 644 (755 if executable)."""
    for name in files:
        destination = os.path.join(target, name)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, name), destination)
        os.chmod(destination, 0o755 if os.access(destination, os.X_OK) else 0o644)
    for base, folders, _ in os.walk(target):
        for folder in [base] + [os.path.join(base, f) for f in folders]:
            os.chmod(folder, 0o755)


def run(command, **options):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, **options).returncode


def graded_by_the_catalog(copy):
    return run([sys.executable, os.path.join(copy, "tests", "grading", "run_catalog.py"),
                "--grader", os.path.join(copy, "tools", "course"), "--entries", ENTRY], cwd=copy)


def graded_by_slurm_jobs(copy, work):
    """The Slurm path without Slurm: the scripts the array and the collecting job run,
    with the variables Slurm sets, from the world-readable copy."""
    class_dir, results = os.path.join(work, "class"), os.path.join(work, "results")
    catalog = os.path.join(copy, "tests", "grading", "run_catalog.py")
    if run([sys.executable, catalog, "--materialise", class_dir, "--entries", ENTRY]) != 0:
        return 1
    prepared = subprocess.run([sys.executable, os.path.join(copy, "slurm", "class_grading.py"), "prepare",
                               copy, class_dir, results, "--exercises", EXERCISES],
                              capture_output=True, text=True)
    print(prepared.stdout + prepared.stderr)
    if prepared.returncode != 0:
        return 1
    with open(os.path.join(results, "slurm", "class.tsv"), encoding="utf-8") as handle:
        indices = [line.split("\t")[0] for line in handle if line.strip()]
    environment = dict(os.environ, COURSE_REPO=copy, SLURM_ARRAY_JOB_ID="1", SLURM_JOB_ID="1")
    environment.pop("COURSE_GRADE_COMMAND", None)  # the real grader, nothing else
    for index in indices:
        status = run(["bash", os.path.join(copy, "slurm", "jobs", "grade-task.sbatch"), class_dir, results,
                      "--exercises", EXERCISES],
                     cwd=results, env=dict(environment, SLURM_ARRAY_TASK_ID=index))
        if status != 0:
            print(f"the task of submission {index} ended with status {status}")
            return 1
    if run(["bash", os.path.join(copy, "slurm", "jobs", "grade-collect.sbatch"), class_dir, results,
            "--exercises", EXERCISES], cwd=results, env=environment) != 0:
        return 1
    return run([sys.executable, catalog, "--check-only", results, "--class", class_dir, "--entries", ENTRY])


def build_of_an_include(copy, clone, work, sandbox):
    """The status and build log of exercise 03 whose file includes the clone's solution,
    graded --cpu-only from the copy (with the sandbox, or with --no-sandbox)."""
    solution = os.path.join(clone, "solutions", "03_device_memory", "device_memory.cu")
    submission = os.path.join(work, "sandboxed" if sandbox else "unconfined")
    os.makedirs(os.path.join(submission, "exercises", "03_device_memory"))
    with open(os.path.join(submission, "exercises", "03_device_memory", "device_memory.cu"), "w") as handle:
        handle.write(f'#include "{solution}"\n')
    results = submission + "-results"
    command = [sys.executable, os.path.join(copy, "tools", "course"), "grade", submission, "--results", results,
               "--exercises", "03", "--cpu-only"] + ([] if sandbox else ["--no-sandbox"])
    run(command, cwd=copy, capture_output=True)
    with open(os.path.join(results, "submissions", os.path.basename(submission) + ".json"),
              encoding="utf-8") as handle:
        record = json.load(handle)["exercises"][0]
    return record["status"], record["build_log"]


def builds_cannot_include(copy, clone, work):
    status, log = build_of_an_include(copy, clone, work, sandbox=False)
    if status == "build_failed":
        print(f"FAIL: without the sandbox the include should compile (the proof would be vacuous):\n{log}")
        return 1
    status, log = build_of_an_include(copy, clone, work, sandbox=True)
    if status != "build_failed" or "No such file" not in log:
        print(f"FAIL: a confined build included the clone's solution ({status}):\n{log}")
        return 1
    print("PASS: a confined build cannot include a file of a world-readable clone")
    return 0


def main():
    build_only = "--build" in sys.argv[1:]
    if os.geteuid() != 0:
        skip("the grader confines student code only as root")
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        skip("this machine refuses mount namespaces")
    count, reason = gpu.visible()
    if count == 0 and not build_only:
        skip(f"no GPU ({reason}): the entry's program runs on one")
    made_srv = not os.path.isdir("/srv")
    os.makedirs("/srv", mode=0o755, exist_ok=True)
    top = tempfile.mkdtemp(prefix="course-", dir="/srv")
    try:
        for folder in ("/srv", top):
            os.chmod(folder, 0o755)
        files = course_files()
        copy = os.path.join(top, "course")
        copy_readable(files, copy)
        # Another checkout, which only the allow-list keeps out of reach.
        copy_readable([name for name in files if name.startswith(("solutions/", "tests/grading/catalog/"))],
                      os.path.join(top, "clone"))
        work = tempfile.mkdtemp(prefix="course-world-readable-", dir="/run")
        try:
            if build_only:
                return builds_cannot_include(copy, os.path.join(top, "clone"), work)
            results = {"catalog": graded_by_the_catalog(copy), "slurm": graded_by_slurm_jobs(copy, work)}
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(top, ignore_errors=True)
        if made_srv:
            os.rmdir("/srv")
    for path, status in results.items():
        print(f"{path}: {'PASS' if status == 0 else 'SKIPPED' if status == SKIP else 'FAIL'} (status {status})")
    if any(status not in (0, SKIP) for status in results.values()):
        return 1
    return SKIP if any(status == SKIP for status in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
