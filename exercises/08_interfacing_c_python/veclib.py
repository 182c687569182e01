#!/usr/bin/env python3
"""Exercise 08 - veclib from Python, through ctypes and NumPy (instructor-owned).

The CUDA library is loaded as a shared library (the student's veclib.cu built with
`nvcc -shared -Xcompiler -fPIC`; `make 08` builds build/make/08_interfacing_c_python.so).
ctypes finds vec_saxpy by its C name - which is why veclib.h declares it extern "C" -
and `argtypes` tell ctypes how to pass each argument: a float32, C-contiguous NumPy
array as a float*, a Python int as a size_t. A status other than VECLIB_SUCCESS
becomes a VecLibError, the Python way to report a failure.

    python3 veclib.py LIBRARY.so          the demo
    (the check runs it with LIBRARY.so --course-case ... to compute its Python cases)
"""
import ctypes
import os
import sys

import numpy as np
from numpy.ctypeslib import ndpointer

# veclib_status (veclib.h): the values are part of the C interface.
SUCCESS = 0
ERROR_NULL_POINTER = 1
ERROR_INVALID_VALUE = 2
ERROR_OUT_OF_MEMORY = 3
ERROR_CUDA = 4

# More floats than any GPU holds: 2^40 (4 TiB).
TOO_MANY_ELEMENTS = 1 << 40

# A float* that ctypes accepts only from a float32, one-dimensional, C-contiguous array
# (a float64 array, or a strided view, is refused before it reaches C).
FLOAT_ARRAY = ndpointer(dtype=np.float32, ndim=1, flags="C_CONTIGUOUS")
WRITABLE_FLOAT_ARRAY = ndpointer(dtype=np.float32, ndim=1, flags=("C_CONTIGUOUS", "WRITEABLE"))


class VecLibError(RuntimeError):
    """A veclib call failed; `status` is its veclib_status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class VecLib:
    def __init__(self, path):
        # An explicit path: ctypes does not search the current folder for a bare name.
        self.lib = ctypes.CDLL(os.path.abspath(path))
        self.lib.vec_saxpy.argtypes = [ctypes.c_float, FLOAT_ARRAY, WRITABLE_FLOAT_ARRAY,
                                       ctypes.c_size_t]
        self.lib.vec_saxpy.restype = ctypes.c_int
        self.lib.vec_clamp.argtypes = [WRITABLE_FLOAT_ARRAY, ctypes.c_size_t, ctypes.c_float,
                                       ctypes.c_float]
        self.lib.vec_clamp.restype = ctypes.c_int
        self.lib.veclib_status_string.argtypes = [ctypes.c_int]
        self.lib.veclib_status_string.restype = ctypes.c_char_p
        self.lib.veclib_last_error_message.argtypes = []
        self.lib.veclib_last_error_message.restype = ctypes.c_char_p

    def _raise_on_error(self, status):
        if status != SUCCESS:
            text = self.lib.veclib_status_string(status).decode()
            details = self.lib.veclib_last_error_message().decode()
            raise VecLibError(status, f"{text}: {details}")

    def saxpy(self, a, x, y, n=None):
        """y = a x + y in place. `n` defaults to len(y); only tests pass another."""
        if n is None:
            if x.shape != y.shape:
                raise ValueError(f"saxpy: x has shape {x.shape}, y has {y.shape}")
            n = y.size
        self._raise_on_error(self.lib.vec_saxpy(a, x, y, n))

    def clamp(self, x, lo, hi):
        """x = min(max(x, lo), hi) in place."""
        self._raise_on_error(self.lib.vec_clamp(x, x.size, lo, hi))


# ---------------------------------------------------------------------------
# Check cases: compute, report in the check's result-file format, decide nothing
# (common/course/check/protocol.hpp describes the format).
# ---------------------------------------------------------------------------

RECORD_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
                np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


class ResultFile:
    def __init__(self, path):
        self.file = open(path, "wb")

    def put(self, name, values):
        values = np.ascontiguousarray(values)
        header = f"@course-record {name} {RECORD_TYPES[values.dtype]} {values.size}\n"
        self.file.write(header.encode() + values.tobytes() + b"\n")
        self.file.flush()

    def put_status(self, name, status):
        self.put(name, np.array([status], dtype=np.int32))

    def finish(self):
        self.file.write(b"@course-end\n")
        self.file.close()


def status_of(call):
    """Runs call(); returns SUCCESS, or the status of the VecLibError it raised."""
    try:
        call()
        return SUCCESS
    except VecLibError as error:
        return error.status


def run_case(veclib, case, params, results):
    a = np.float32(float(params.get("a", "0")))
    if case == "saxpy":
        x = np.fromfile(params["x_file"], dtype=np.float32)
        y = np.fromfile(params["y_file"], dtype=np.float32)
        results.put_status("status", status_of(lambda: veclib.saxpy(a, x, y)))
        results.put("y", y)
    elif case == "clamp":
        x = np.fromfile(params["x_file"], dtype=np.float32)
        lo, hi = float(params["lo"]), float(params["hi"])
        results.put_status("status", status_of(lambda: veclib.clamp(x, lo, hi)))
        results.put("x", x)
    elif case == "errors":
        x = np.fromfile(params["x_file"], dtype=np.float32)
        y = np.fromfile(params["y_file"], dtype=np.float32)
        results.put_status("reversed_status", status_of(lambda: veclib.clamp(x, 2.0, 1.0)))
        oom_message = ""
        try:
            veclib.saxpy(a, x, y, n=TOO_MANY_ELEMENTS)
            results.put_status("oom_status", SUCCESS)
        except VecLibError as error:
            results.put_status("oom_status", error.status)
            oom_message = str(error)
        results.put("oom_message_length", np.array([len(oom_message)], dtype=np.int64))
        # ctypes itself refuses what argtypes do not allow: nothing reaches C.
        refused = 0
        try:
            veclib.saxpy(a, x.astype(np.float64), y)
        except ctypes.ArgumentError:
            refused = 1
        results.put("float64_refused", np.array([refused], dtype=np.int32))
        results.put("y_after_errors", y)
        results.put_status("status", status_of(lambda: veclib.saxpy(a, x, y)))
        results.put("y", y)
    else:
        print(f"check protocol: unknown case '{case}'", file=sys.stderr)
        sys.exit(2)


def parse_case_arguments(words):
    """--course-case NAME --course-seed S --course-param k=v ... -> (NAME, {k: v})."""
    case, params = None, {}
    for flag, value in zip(words[0::2], words[1::2]):
        if flag == "--course-case":
            case = value
        elif flag == "--course-param" and "=" in value:
            key, _, text = value.partition("=")
            params[key] = text
    return case, params


# ---------------------------------------------------------------------------
# Demo
# ---------------------------------------------------------------------------

def demo(veclib):
    rng = np.random.default_rng(8)
    n = 1_000_003
    x = rng.uniform(-2, 2, n).astype(np.float32)
    y = rng.uniform(-2, 2, n).astype(np.float32)
    expected = np.float32(2.5) * x + y
    veclib.saxpy(2.5, x, y)
    difference = np.max(np.abs(y - expected))
    print(f"saxpy on {n} elements: largest difference from NumPy {difference:.3g}")
    veclib.clamp(y, -1.0, 1.0)
    print(f"clamp to [-1, 1]: min {y.min():.3f}, max {y.max():.3f}")
    failing_calls = (("clamp(y, 2, 1)", lambda: veclib.clamp(y, 2.0, 1.0)),
                     ("saxpy with n = 2^40", lambda: veclib.saxpy(2.5, x, y, n=TOO_MANY_ELEMENTS)))
    for what, call in failing_calls:
        try:
            call()
        except VecLibError as error:
            print(f"{what}: VecLibError, status {error.status}: {error}")
    try:
        veclib.saxpy(2.5, x.astype(np.float64), y)
    except ctypes.ArgumentError as error:
        print(f"a float64 array: refused by ctypes before C ({error})")
    return 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    veclib = VecLib(argv[1])
    if len(argv) > 2 and argv[2] == "--course-case":
        case, params = parse_case_arguments(argv[2:])
        path = os.environ.get("COURSE_RESULT_FILE")
        if not path:
            print("COURSE_RESULT_FILE is not set: check cases are run by the check program",
                  file=sys.stderr)
            return 2
        results = ResultFile(path)
        run_case(veclib, case, params, results)
        results.finish()
        return 0
    return demo(veclib)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
