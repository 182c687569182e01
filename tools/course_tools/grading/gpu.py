"""Whether this process can see an NVIDIA GPU, asked cheaply and without a CUDA context.

Every exercise's check runs the student's program on a GPU; without one, a grading
could only build. `tools/course grade` asks this before writing anything, and
`tests/grading/run_catalog.py` before choosing what to grade.

The order of the questions:

1. CUDA_VISIBLE_DEVICES set to "" or "-1" hides every GPU from CUDA (the checks would
   exit 77): no GPU, whatever the machine has.
2. `nvidia-smi -L` lists the GPUs the driver lets this process open. On a Slurm node
   whose cgroup constrains devices (ConstrainDevices=yes), that is the job's GPUs only,
   none for a job that asked for none; without the driver it fails: no GPU.
3. Without nvidia-smi (a container with only the device files), the /dev/nvidiaN
   device files.

Python 3 standard library only.
"""
import glob
import os
import shutil
import subprocess

HIDING_VALUES = ("", "-1", "none", "NoDevFiles")


def visible(environ=None, use_visible_devices=True):
    """(number of GPUs, reason): the reason says why the number is 0 ("" otherwise).
    `use_visible_devices` False: ignore CUDA_VISIBLE_DEVICES (the caller sets it per run)."""
    environ = os.environ if environ is None else environ
    devices = environ.get("CUDA_VISIBLE_DEVICES")
    if use_visible_devices and devices is not None and devices.strip() in HIDING_VALUES:
        return 0, f"CUDA_VISIBLE_DEVICES={devices!r} hides every GPU from CUDA"
    smi = shutil.which("nvidia-smi", path=environ.get("PATH", os.defpath) + os.pathsep + "/usr/bin")
    if smi:
        try:
            answer = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            return 0, f"nvidia-smi -L did not answer ({error})"
        gpus = [line for line in answer.stdout.splitlines() if line.startswith("GPU ")]
        if answer.returncode == 0 and gpus:
            return len(gpus), ""
        said = (answer.stdout + answer.stderr).strip().splitlines()
        return 0, "nvidia-smi -L lists no GPU" + (f" ({said[0].strip()})" if said else "")
    files = glob.glob("/dev/nvidia[0-9]*")
    if files:
        return len(files), ""
    return 0, "no NVIDIA driver (no nvidia-smi, no /dev/nvidia* device)"


NAMES = {}  # the answer of names(), asked once per grading


def names(devices=None):
    """The model names of the GPUs the grading uses (CUDA_VISIBLE_DEVICES values `devices`,
    all by default), each once, for the reports that quote a speed ("NVIDIA H200"); "" where
    nvidia-smi cannot tell."""
    key = tuple(devices or ())
    if key not in NAMES:
        smi = shutil.which("nvidia-smi", path=os.environ.get("PATH", os.defpath) + os.pathsep + "/usr/bin")
        found = []
        if smi:
            command = [smi, "--query-gpu=name", "--format=csv,noheader"]
            if key:
                command += ["-i", ",".join(str(device) for device in key)]
            try:
                answer = subprocess.run(command, capture_output=True, text=True, timeout=60)
                found = [line.strip() for line in answer.stdout.splitlines() if line.strip()] \
                    if answer.returncode == 0 else []
            except (OSError, subprocess.TimeoutExpired):
                found = []
        NAMES[key] = ", ".join(dict.fromkeys(found))
    return NAMES[key]
