"""Whether this machine can run a CUDA program, asked of the NVIDIA driver itself.

The students' path and the summaries ask before saying "no CUDA device" rather than let a
program stop in a course header. Cheap: without a driver, one failed library load; with one,
cuInit and a device count (no context is created).
"""
import ctypes


NO_DEVICE_STATUS = 100  # CUDA_ERROR_NO_DEVICE: a driver, and no GPU it may use


def absent_reason(deep=True, devices=1):
    """None when the driver reports at least `devices` CUDA devices; otherwise the exact
    reason: no driver at all, a driver that sees no GPU, one that fails, or fewer devices
    than asked for. deep=False only checks that the driver library loads (microseconds,
    no cuInit)."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return "no NVIDIA driver: libcuda.so.1 is not installed"
    if not deep:
        return None
    status = driver.cuInit(0)
    if status == NO_DEVICE_STATUS:
        return "the NVIDIA driver sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE; CUDA_VISIBLE_DEVICES?)"
    if status != 0:
        return f"the NVIDIA driver found no usable GPU (cuInit: {error_name(driver, status)})"
    count = ctypes.c_int(0)
    status = driver.cuDeviceGetCount(ctypes.byref(count))
    if status != 0:
        return f"the NVIDIA driver cannot count its GPUs ({error_name(driver, status)})"
    if count.value == 0:
        return "the NVIDIA driver sees no GPU (CUDA_VISIBLE_DEVICES?)"
    if count.value < devices:
        return f"it needs {devices} CUDA devices and this machine has {count.value}"
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
