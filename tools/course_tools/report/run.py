"""The benchmark report (make report): on a machine with a GPU, builds the reference
solutions, runs the device probe and every exercise's demo one after the other (alone on
the GPU), the seed labs' Numba and CuPy versions of the same kernels where they import,
and writes build/report/index.html, build/report/report.md and build/report/figures/.

    tools/course report [--build-dir build/default] [--out build/report] [--only 05,06]
                    [--jobs N] [--no-seeds] [--no-build]
    tools/course report --require-device      only say whether a GPU is there (exit 0 or 2)
    tools/course report --render-only         redraw the report from OUT/data, run nothing
    tools/course report --update-slides       copy the figures of OUT/figures (English and French,
                                              each with its record) into slides/figures/

The demos write their tables as JSON through common/course/table.hpp when
COURSE_REPORT_DIR is set: nothing is read back from their printed output, which goes to
OUT/data/logs/ (and into the report, folded). Exit status: 0 done; 1 done, but a demo
failed, a table or a figure is missing (each one named); 2 no GPU, or a usage or build
error: then nothing is written.
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import time

from course_tools.report import data as report_data
from course_tools.report import render as report_render
from course_tools.student import cuda_device, prerequisites, quiet_run
from course_tools.student.paths import LAUNCHER, ROOT

# The exercises whose demos measure something, with the seconds each is expected to take
# on an H100 (estimates, to be replaced by measured ones: they are only the weights of the
# estimate of the time left, which this run's own times scale as they come). 01-03 and 08
# print results, not measurements.
EXERCISES = {
    "04_cpu_vs_gpu": 10, "05_three_d_blocks": 15, "06_sgemm_cublas": 15,
    "07_profiling_coalescing": 3, "09_elementwise_kernels": 5, "10_data_on_device": 5,
    "11_hidden_layer": 12, "12_row_norms": 4, "13_grid_stride_loops": 4,
    "14_atomics_histogram": 4, "15_monte_carlo_pi": 8, "17_nvrtc_streams": 10,
    "18_dot_product": 10, "20_sparse_conjugate_gradient": 10, "21_tiled_sgemm": 6,
    "22_transpose": 6, "23_stream_overlap": 8, "26_tensor_core_gemm": 8,
}
# The exercises whose kernels tools/course report-seeds also measures in Numba and CuPy.
SEED_EXERCISES = ("09", "11", "12", "13", "14", "15")
PROBE_WEIGHT = 2
SEEDS_WEIGHT = 40
# No demo should take a minute; one that hangs must not hold the report forever.
DEMO_TIME_LIMIT = 240
SEEDS_TIME_LIMIT = 300
PROBE_TARGET = "report_device_probe"


def fail(message, status=2):
    print(f"report: {message}", file=sys.stderr)
    sys.exit(status)


def program_path(build_dir, exercise):
    return os.path.join(build_dir, "exercises", exercise, f"ex{exercise[:2]}_solution")


def probe_path(build_dir):
    return os.path.join(build_dir, "tools", "course_tools", "report", PROBE_TARGET)


BUILD_PROGRESS = re.compile(r"^\[ *([0-9]+)%\]")


def build(build_dir, exercises, jobs, log_path):
    """Builds the probe and the solutions' programs (cmake --build, those targets only)."""
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        fail(f"{build_dir} is not configured: run `make report` (or `make configure`) first")
    targets = [PROBE_TARGET] + [f"ex{e[:2]}_solution" for e in exercises]
    print(f"== building the device probe and {len(exercises)} solutions "
          f"(cmake --build {os.path.relpath(build_dir)} --target ... -j {jobs}; log: {os.path.relpath(log_path)})",
          flush=True)
    start = time.monotonic()
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    # Its progress as the main build shows it (quiet_run): a line at once, then per tenth or
    # minute with the time left; the log written as it comes.
    pace = quiet_run.Progress("built")
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(["cmake", "--build", build_dir, "-j", str(jobs), "--target"] + targets,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        for line in process.stdout:
            log.write(line)
            log.flush()
            match = BUILD_PROGRESS.search(line)
            said = pace.line(int(match.group(1))) if match else None
            if said:
                print(said, flush=True)
        status = process.wait()
    if status != 0:
        with open(log_path, encoding="utf-8", errors="replace") as log:
            print("".join(log.readlines()[-30:]), file=sys.stderr)
        fail(f"the build failed (status {status}; whole log: {log_path})")
    print(f"built in {time.monotonic() - start:.0f} s", flush=True)


class Progress:
    """One line per step: its time, and the time left, estimated from the weights of the
    steps still to run scaled by how this machine compared so far."""

    def __init__(self, steps):
        self.weights = dict(steps)
        self.total = len(steps)
        self.done_weight = 0.0
        self.elapsed = 0.0
        self.count = 0

    def start(self, name):
        self.count += 1
        print(f"[{self.count:2d}/{self.total}] {name:<26}", end="", flush=True)
        self.started = time.monotonic()

    def finish(self, name, outcome):
        seconds = time.monotonic() - self.started
        self.elapsed += seconds
        self.done_weight += self.weights[name]
        remaining = sum(w for n, w in list(self.weights.items())[self.count:])
        left = remaining * (self.elapsed / self.done_weight if self.done_weight else 1.0)
        estimate = "done" if self.count == self.total else f"about {duration(left)} left"
        print(f" {seconds:6.1f} s  {outcome:<28} {estimate}", flush=True)
        return seconds


def duration(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def run_program(command, data_folder, log_path, time_limit):
    """Runs one measuring program with its tables going to data_folder; (status, why)."""
    os.makedirs(data_folder, exist_ok=True)
    environment = dict(os.environ, COURSE_REPORT_DIR=os.path.abspath(data_folder),
                       PYTHONUNBUFFERED="1")
    with open(log_path, "w", encoding="utf-8") as log:
        try:
            status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=environment,
                                    timeout=time_limit, cwd=ROOT).returncode
        except subprocess.TimeoutExpired:
            return None, f"stopped after {time_limit} s"
        except OSError as error:
            return None, f"could not start: {error}"
    return status, "ok" if status == 0 else f"exit status {status}"


def nvidia_smi():
    """(GPU name, driver version) as nvidia-smi reports them, or ("", "")."""
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=60)
        first = done.stdout.strip().splitlines()[0] if done.returncode == 0 and done.stdout.strip() else ""
    except (OSError, subprocess.SubprocessError):
        first = ""
    name, _, driver = first.partition(", ")
    return name.strip(), driver.strip()


def nvcc_version():
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    try:
        text = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = [line for line in text.splitlines() if "release" in line]
    return lines[0].strip() if lines else ""


def shown_path(path):
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def now():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def render(data_dir, out_dir):
    """Draws the report with an interpreter that has matplotlib (tables alone without)."""
    python = prerequisites.python_with_matplotlib() or sys.executable
    status = subprocess.run([python, LAUNCHER, "report-render", data_dir, out_dir]).returncode
    return status


def update_slides(out_dir):
    """Copies every figure the report drew, in each language, with its record (what the
    slides' legibility check reads), into slides/figures/."""
    figures = os.path.join(out_dir, "figures")
    files = [report_render.figure_file(name, lang) for name in report_render.FIGURES
             for lang in report_render.LANGUAGES]
    present = [name for name in files if os.path.exists(os.path.join(figures, name))]
    if not present:
        fail(f"no figure in {figures}: run make report on a GPU machine first")
    target = os.path.join(ROOT, "slides", "figures")
    os.makedirs(target, exist_ok=True)
    for name in present:
        for copied in (name, report_render.record_file(name)):
            if os.path.exists(os.path.join(figures, copied)):
                shutil.copy2(os.path.join(figures, copied), os.path.join(target, copied))
        print(f"report: {os.path.relpath(os.path.join(target, name), ROOT)} updated")
    absent = [name for name in files if name not in present]
    if absent:
        fail(f"not in {figures}, so not copied: {', '.join(absent)}", 1)
    return 0


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "report"))
    parser.add_argument("--only", default="", help="exercise numbers, e.g. 05,06")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--command", default="make report", help="what made the report, for its pages")
    parser.add_argument("--no-seeds", action="store_true", help="skip the Numba and CuPy versions")
    parser.add_argument("--no-build", action="store_true", help="use the programs already built")
    parser.add_argument("--require-device", action="store_true")
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--update-slides", action="store_true")
    return parser.parse_args(argv[1:])


def chosen_exercises(only):
    if not only:
        return list(EXERCISES)
    numbers = [n.strip().zfill(2) for n in only.split(",") if n.strip()]
    chosen = [e for e in EXERCISES if e[:2] in numbers]
    unknown = sorted(set(numbers) - {e[:2] for e in chosen})
    if unknown:
        fail(f"no measured demo for exercise(s) {', '.join(unknown)}; the report runs "
             f"{', '.join(e[:2] for e in EXERCISES)}")
    return chosen


def main(argv):
    options = parse_arguments(argv)
    out_dir = os.path.abspath(options.out)
    data_dir = os.path.join(out_dir, "data")
    if options.update_slides:
        return update_slides(out_dir)
    if options.render_only:
        if not os.path.isdir(data_dir):
            fail(f"no data in {data_dir}: run make report first")
        return render(data_dir, out_dir)

    # Without a GPU nothing is measured, so nothing is written: not even an empty folder.
    # (COURSE_REPORT_FAKE_DEVICE=1: the report's own test, with fake demo programs.)
    absent = None if os.environ.get("COURSE_REPORT_FAKE_DEVICE") == "1" else cuda_device.absent_reason()
    if absent:
        fail(f"no report: the benchmark report measures on a GPU, and this machine has none ({absent}); "
             "run make report on a GPU node (on a cluster: slurm/interactive make report)")
    if options.require_device:
        return 0
    exercises = chosen_exercises(options.only)
    build_dir = os.path.abspath(options.build_dir)
    if not options.no_build:
        build(build_dir, exercises, options.jobs, os.path.join(build_dir, "report-build.log"))
    missing_programs = [p for p in [probe_path(build_dir)] + [program_path(build_dir, e) for e in exercises]
                        if not os.access(p, os.X_OK)]
    if missing_programs:
        fail(f"not built: {', '.join(os.path.relpath(p) for p in missing_programs)}")

    # A fresh data folder: tables from an earlier run never mix with this one's.
    if os.path.isdir(data_dir):
        shutil.rmtree(data_dir)
    logs = os.path.join(data_dir, "logs")
    os.makedirs(logs)
    gpu_name, driver = nvidia_smi()
    run = {"command": options.command, "started": now(), "gpu_name": gpu_name,
           "driver_version": driver, "nvcc": nvcc_version(), "exercises": []}
    report_data.write_json(os.path.join(data_dir, "run.json"), run)

    # The seeds' kernels are those of 09-15: not worth their time for a report of 04-07.
    with_seeds = not options.no_seeds and any(e[:2] in SEED_EXERCISES for e in exercises)
    steps = [("device probe", PROBE_WEIGHT)] + [(e, EXERCISES[e]) for e in exercises]
    if with_seeds:
        steps.append(("seeds (Numba, CuPy)", SEEDS_WEIGHT))
    progress = Progress(steps)
    print(f"== measuring: {len(steps)} steps, one at a time on the GPU "
          f"(about {duration(sum(w for _, w in steps))} on an H100)", flush=True)
    problems = []

    progress.start("device probe")
    status, why = run_program([probe_path(build_dir)], os.path.join(data_dir, "device"),
                              os.path.join(logs, "device.txt"), DEMO_TIME_LIMIT)
    progress.finish("device probe", why)
    if status != 0:
        problems.append(f"the device probe: {why} ({os.path.join(logs, 'device.txt')})")

    for exercise in exercises:
        progress.start(exercise)
        program = program_path(build_dir, exercise)
        folder = os.path.join(data_dir, exercise)
        status, why = run_program([program], folder, os.path.join(logs, exercise + ".txt"), DEMO_TIME_LIMIT)
        tables = len([f for f in os.listdir(folder) if f.endswith(".json")])
        seconds = progress.finish(exercise, f"{why}, {tables} table(s)")
        run["exercises"].append({"id": exercise, "program": os.path.relpath(program, ROOT),
                                 "status": status, "seconds": round(seconds, 1), "tables": tables})
        report_data.write_json(os.path.join(data_dir, "run.json"), run)
        if status != 0 or tables == 0:
            problems.append(f"{exercise}: {why}, {tables} table(s) (its output: {os.path.join(logs, exercise + '.txt')})")

    if with_seeds:
        progress.start("seeds (Numba, CuPy)")
        status, why = run_program([sys.executable, LAUNCHER, "report-seeds",
                                   os.path.join(data_dir, "seeds")],
                                  os.path.join(data_dir, "seeds"), os.path.join(logs, "seeds.txt"),
                                  SEEDS_TIME_LIMIT)
        summary = report_data.read_json(os.path.join(data_dir, "seeds", "status.json"), {}) or {}
        measured = [s.get("name", k) for k, s in summary.items() if s.get("available")]
        progress.finish("seeds (Numba, CuPy)", f"{why}, " + (", ".join(measured) if measured else "none imported"))
        if status != 0:
            problems.append(f"the seeds' measurements: {why} (its output: {os.path.join(logs, 'seeds.txt')})")

    run["finished"] = now()
    if problems:
        run["incomplete"] = "; ".join(problems)
    report_data.write_json(os.path.join(data_dir, "run.json"), run)
    render_status = render(data_dir, out_dir)
    for problem in problems:
        print(f"report: {problem}", file=sys.stderr)
    print(f"report: open {shown_path(os.path.join(out_dir, 'index.html'))}; "
          f"tools/course report --update-slides copies its figures into slides/figures/")
    # With --only, the figures of the exercises left out are missing by choice.
    return 1 if problems or (render_status != 0 and not options.only) else 0
