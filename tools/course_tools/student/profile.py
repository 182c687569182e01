"""make profile-NN: the exercise's program under Nsight Compute, its kernels summed up.

    tools/course profile 11 [ARGS]     (make profile-11 ARGS="...")

Builds exercise NN as make NN does, runs its program (ARGS go to it) under Nsight Compute
(ncu) for its first LAUNCHES kernel launches, keeps the report (build/profile/NN.ncu-rep:
open it with `ncu-ui`, or `ncu --import build/profile/NN.ncu-rep --page details`), and
prints one line per kernel (the first launch of each name):

    time             the kernel's duration (gpu__time_duration)
    DRAM             bytes read and written per second, and that as a share of the peak
                     Nsight Compute states for this GPU (dram__throughput)
    FP32             FLOP/s counted from the executed FADD, FMUL and FFMA (an FFMA is 2);
                     and the SMs' busiest unit as a share of its peak (sm__throughput)
    occupancy        warps active on an SM, as a share of the most it can hold
    sectors/request  32-byte sectors per global load request: 4 when a warp reads 32
                     neighbouring floats, up to 32 when each lane reads its own line

Without ncu, or without a CUDA device, one line says what to do instead (exit 77, as make
run-NN); ncu may also be refused the GPU's counters (ERR_NVGPUCTRPERM): the line says so.
COURSE_NCU names ncu's path (or `none`), as for the checks that read metrics.
"""
import csv
import io
import os
import shutil
import subprocess
import sys

from course_tools.student import commands, cuda_device, exercises, nvcc
from course_tools.student.paths import ROOT

LAUNCHES = 30
PERMISSION = "ERR_NVGPUCTRPERM"
TIME, DRAM_BYTES, DRAM_PEAK = "gpu__time_duration.sum", "dram__bytes.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed"
SM_PEAK, OCCUPANCY = "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__warps_active.avg.pct_of_peak_sustained_active"
SECTORS, REQUESTS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
FLOPS = {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 1,
         "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 1,
         "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 2}
METRICS = [TIME, DRAM_BYTES, DRAM_PEAK, SM_PEAK, OCCUPANCY, SECTORS, REQUESTS, *FLOPS]
NO_NCU = ("make profile-NN needs Nsight Compute (ncu), which is not installed here: it comes with the "
          "CUDA toolkit (NVIDIA's package cuda-nsight-compute, or the cluster's CUDA module); "
          "COURSE_NCU may name its path")


def ncu_path():
    """ncu's path (COURSE_NCU, PATH, beside nvcc, /usr/local/cuda/bin), or "" where there is none."""
    chosen = os.environ.get("COURSE_NCU", "")
    if chosen:
        return "" if chosen in ("none", "off") or not os.access(chosen, os.X_OK) else chosen
    found = shutil.which("ncu")
    if found:
        return found
    folders = ["/usr/local/cuda/bin"]
    if shutil.which("nvcc"):
        folders.insert(0, os.path.dirname(shutil.which("nvcc")))
    return next((os.path.join(f, "ncu") for f in folders if os.access(os.path.join(f, "ncu"), os.X_OK)), "")


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def kernels(report_csv):
    """[(kernel name, {metric: value})] of ncu's raw CSV page, the first launch of each name."""
    rows = list(csv.reader(io.StringIO(report_csv)))
    header = next((row for row in rows if "Kernel Name" in row), None)
    if header is None:
        return []
    found = {}
    for row in rows[rows.index(header) + 1:]:
        if len(row) != len(header):
            continue
        values = dict(zip(header, row))
        name = values["Kernel Name"]
        if name not in found and number(values.get(TIME)) is not None:  # the units row has none
            found[name] = {metric: number(values.get(metric)) for metric in METRICS}
    return list(found.items())


def summary_line(name, m):
    """One kernel's figures in words; a figure ncu did not give is left out."""
    parts = []
    seconds = m[TIME] * 1e-9 if m[TIME] else None
    if seconds:
        parts.append(f"{m[TIME] / 1e6:.3f} ms" if m[TIME] >= 1e5 else f"{m[TIME] / 1e3:.1f} us")
    if seconds and m[DRAM_BYTES] is not None:
        parts.append(f"DRAM {m[DRAM_BYTES] / seconds / 1e9:.0f} GB/s"
                     + (f" ({m[DRAM_PEAK]:.0f}% of peak)" if m[DRAM_PEAK] is not None else ""))
    flop = sum(m[metric] * weight for metric, weight in FLOPS.items() if m[metric] is not None)
    if seconds and flop:
        parts.append(f"FP32 {flop / seconds / 1e9:.1f} GFLOP/s")
    if m[SM_PEAK] is not None:
        parts.append(f"SM busiest unit {m[SM_PEAK]:.0f}% of peak")
    if m[OCCUPANCY] is not None:
        parts.append(f"occupancy {m[OCCUPANCY]:.0f}%")
    if m[SECTORS] and m[REQUESTS]:
        parts.append(f"{m[SECTORS] / m[REQUESTS]:.1f} sectors/request")
    short = name if len(name) <= 60 else name[:57] + "..."
    return f"  {short}: " + ", ".join(parts)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        exercise = exercises.find(ROOT, argv[1])
    except exercises.ExerciseError as error:
        print(error, file=sys.stderr)
        return 2
    extra = argv[2:]
    build_dir = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build", "make"))
    os.makedirs(build_dir, exist_ok=True)
    program = commands.build(exercise, build_dir, nvcc.gpu_arch())
    ncu = ncu_path()
    if not ncu:
        print(f"--- {NO_NCU}.")
        return commands.NO_DEVICE
    reason = cuda_device.absent_reason(deep=False)
    if reason:
        print(f"--- exercise {exercise.number} needs a CUDA device to be profiled; this machine has none ({reason}). "
              f"{commands.elsewhere('profile it', f'make submit-profile-{exercise.number}')}")
        return commands.NO_DEVICE
    report = os.path.join(ROOT, "build", "profile", exercise.number)
    os.makedirs(os.path.dirname(report), exist_ok=True)
    command = [ncu, "--metrics", ",".join(METRICS), "--launch-count", str(LAUNCHES), "--export", report,
               "--force-overwrite", program, *extra]
    print(f"--- profiling {os.path.relpath(program)} {' '.join(extra)} (its first {LAUNCHES} kernel launches)",
          flush=True)
    print("    " + " ".join(command), flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    if PERMISSION in run.stdout + run.stderr:
        print(f"--- ncu may not read this GPU's counters ({PERMISSION}): ask the administrators to load the "
              f"driver with NVreg_RestrictProfilingToAdminUsers=0, or profile on the cluster "
              f"(make submit-profile-{exercise.number})")
        return 1
    if run.returncode != 0 or not os.path.exists(report + ".ncu-rep"):
        sys.stdout.write(run.stdout[-4000:] + run.stderr[-4000:])
        print(f"--- ncu ended with status {run.returncode} and no report: the program's own output is above")
        return run.returncode or 1
    table = subprocess.run([ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw", "--print-units", "base"],
                           capture_output=True, text=True)
    found = kernels(table.stdout)
    if not found:
        print(f"--- no kernel was profiled: the program launched none? Its output:\n{run.stdout[-2000:]}")
        return 1
    print(f"--- exercise {exercise.number}: {len(found)} kernel(s), the first launch of each "
          f"(report: {os.path.relpath(report)}.ncu-rep)")
    for name, measured in found:
        print(summary_line(name, measured))
    return 0
