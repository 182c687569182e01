"""Whether this machine can run a CUDA program, asked of the NVIDIA driver itself.

The students' path and the summaries ask before saying "no CUDA device" rather than let a
program stop in a course header. Cheap: without a driver, one failed library load; with one,
cuInit and a device count (no context is created).
"""
import ctypes

from course_tools.student import language


NO_DEVICE_STATUS = 100  # CUDA_ERROR_NO_DEVICE: a driver, and no GPU it may use

# In the checks' words (common/course/check/judge.cpp's visible_device_count and skip reasons).
SAY = language.Messages(__name__, {
    "no driver": ("no NVIDIA driver: libcuda.so.1 is not installed",
                  "pas de pilote NVIDIA : libcuda.so.1 n'est pas installé"),
    "no device": ("the NVIDIA driver sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE; CUDA_VISIBLE_DEVICES?)",
                  "le pilote NVIDIA ne voit aucun GPU (cuInit : CUDA_ERROR_NO_DEVICE ; CUDA_VISIBLE_DEVICES ?)"),
    "no usable": ("the NVIDIA driver found no usable GPU (cuInit: {error})",
                  "le pilote NVIDIA n'a trouvé aucun GPU utilisable (cuInit : {error})"),
    "cannot count": ("the NVIDIA driver cannot count its GPUs ({error})",
                     "le pilote NVIDIA ne sait pas compter ses GPU ({error})"),
    "none visible": ("the NVIDIA driver sees no GPU (CUDA_VISIBLE_DEVICES?)",
                     "le pilote NVIDIA ne voit aucun GPU (CUDA_VISIBLE_DEVICES ?)"),
    "needs one": ("needs a CUDA device, and this machine has none ({reason})",
                  "demande un GPU CUDA, et cette machine n'en a aucun ({reason})"),
    "needs several": ("needs {devices} CUDA devices, and this machine has {count}",
                      "demande {devices} GPU CUDA, et cette machine en a {count}"),
})


def absent_reason(deep=True):
    """None when the driver reports at least one CUDA device; otherwise the exact reason:
    no driver at all, a driver that sees no GPU, or one that fails. deep=False only checks
    that the driver library loads (microseconds, no cuInit)."""
    return probe(deep)[1]


def device_count():
    """How many CUDA devices the driver reports (0 without a driver or a GPU)."""
    return probe()[0]


def probe(deep=True):
    """(device count, None) or (0, why there is none); (None, None) when deep=False found
    the driver library (not counted)."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0, SAY("no driver")
    if not deep:
        return None, None
    status = driver.cuInit(0)
    if status == NO_DEVICE_STATUS:
        return 0, SAY("no device")
    if status != 0:
        return 0, SAY("no usable", error=error_name(driver, status))
    count = ctypes.c_int(0)
    status = driver.cuDeviceGetCount(ctypes.byref(count))
    if status != 0:
        return 0, SAY("cannot count", error=error_name(driver, status))
    if count.value == 0:
        return 0, SAY("none visible")
    return count.value, None


def shortfall(devices):
    """Why a program that needs `devices` CUDA devices cannot run here, in the checks' words
    and language ("needs a CUDA device, and this machine has none (REASON)", "needs 2 CUDA
    devices, and this machine has 1"), or None."""
    count, reason = probe()
    if reason:
        return SAY("needs one", reason=reason)
    if count < devices:
        return SAY("needs several", devices=devices, count=count)
    return None


def error_name(driver, status):
    name = ctypes.c_char_p()
    if driver.cuGetErrorName(status, ctypes.byref(name)) == 0 and name.value:
        return name.value.decode()
    return f"error {status}"


def main(argv):
    """tools/course cuda-device: prints why this machine cannot run a CUDA program and exits
    1, or prints nothing and exits 0 (the GPU suite asks it before building anything)."""
    reason = absent_reason()
    print(reason or "")
    return 1 if reason else 0
