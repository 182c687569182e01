"""The seed labs' own systems beside the course's C++ (tools/course report runs this after the
demos): the kernels of exercises 09, 11, 12, 13, 14 and 15 written the way the Numba labs
write them (ufuncs, gufuncs, @cuda.jit kernels), and with CuPy, measured on the same sizes
as the C++ demos, each against a copy ceiling measured in the same process.

    tools/course report-seeds OUT_FOLDER [--scale S]

Writes OUT_FOLDER/seeds.json (a table in tools/course_tools/report/data.py's format) and
OUT_FOLDER/status.json (which systems imported, their versions, why not, what failed).
Neither Numba nor CuPy is required: a system that does not import, or finds no GPU, is
reported as such. --scale divides every size (a quick try; the report uses 1). Each
result is compared with NumPy on a sample first: a kernel that computes wrong is
reported, never timed. Exit status 0 (even with no system), 2 on a usage error.
"""
import importlib.util
import os
import sys

from course_tools.report import data as report_data
from course_tools.report.seed_workloads import (
    COPY_BYTES, HISTOGRAM_BINS, HISTOGRAM_HI, HISTOGRAM_LO, REPETITIONS, ROW_NORM_SHAPES, SEED, SQRT_2PI,
    WARMUP, check_pi, expected_gaussian, expected_histogram, expected_layer, inputs, median_ms, run_steps,
    sample_indices, verify, wall_time)


class Rows:
    """The seeds table being filled, and what went wrong on the way."""

    COLUMNS = report_data.measurement_columns("key", with_ceiling_gbps=True)

    def __init__(self, folder):
        self.folder, self.rows, self.failures = folder, [], []

    def add(self, key, system, how, n, ms, moved_bytes=None, ceiling=None, samples=None):
        gbps = moved_bytes / (ms * 1e-3) / 1e9 if moved_bytes and ms else None
        share = 100.0 * gbps / ceiling if gbps and ceiling else None
        rate = samples / (ms * 1e-3) if samples and ms else None
        self.rows.append([key, system, how, n, ms, gbps, share, ceiling, rate])
        print(f"  {system:<6} {key:<28} n = {n:>11}  {ms:10.4f} ms"
              + (f"  {gbps:8.1f} GB/s ({share:.1f}% of {ceiling:.0f})" if gbps and share else "")
              + (f"  {rate:.3e} samples/s" if rate else ""), flush=True)
        self.save()

    def fail(self, system, key, why):
        self.failures.append(f"{system} {key}: {why}")
        print(f"  {system:<6} {key:<28} FAILED: {why}", flush=True)

    def save(self):
        report_data.write_table(self.folder, report_data.Table(
            "seeds", "The seed labs' systems, on the C++ demos' sizes", self.COLUMNS, self.rows))


def numpy_names_numba_expects():
    """Numba 0.68 still registers np.row_stack, an alias of np.vstack that NumPy deprecated
    in 2.0 and has since removed (NumPy 2.5 on the course's GPU machine lacks it): there,
    every @cuda.jit and @vectorize compile fails with an AttributeError. The alias is
    restored for this process only, before numba compiles anything."""
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack


def numba_status():
    numpy_names_numba_expects()
    try:
        import numba
        from numba import cuda
    except Exception as error:  # ImportError, or a broken installation
        return {"name": "Numba", "available": False, "reason": f"import numba: {error}"}
    try:
        available = cuda.is_available()
    except Exception as error:
        return {"name": "Numba", "version": numba.__version__, "available": False,
                "reason": f"numba.cuda: {error}"}
    if not available:
        return {"name": "Numba", "version": numba.__version__, "available": False,
                "reason": "numba.cuda finds no GPU (cuda.is_available() is False)"}
    return {"name": "Numba", "version": numba.__version__, "available": True}



# --- CuPy ------------------------------------------------------------------------------------

def cupy_status():
    try:
        import cupy
    except Exception as error:
        return {"name": "CuPy", "available": False, "reason": f"import cupy: {error}"}
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:
        return {"name": "CuPy", "version": cupy.__version__, "available": False,
                "reason": f"cupy.cuda: {error}"}
    if count == 0:
        return {"name": "CuPy", "version": cupy.__version__, "available": False, "reason": "no GPU"}
    return {"name": "CuPy", "version": cupy.__version__, "available": True}


def numba_system():
    # Its kernels need numba at import time: only imported where numba is.
    from course_tools.report import seeds_numba
    return seeds_numba.NumbaSystem()


class CupySystem:
    name = "CuPy"

    def __init__(self):
        import cupy
        self.cp = cupy

    def time(self, work, warmup=WARMUP, repetitions=REPETITIONS):
        cp = self.cp
        for _ in range(warmup):
            work()
        cp.cuda.Device().synchronize()
        samples = []
        for _ in range(repetitions):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            work()
            stop.record()
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop))
        return median_ms(samples)

    def copy_ceiling(self):
        cp = self.cp
        source = cp.ones(COPY_BYTES, dtype=cp.uint8)
        destination = cp.empty_like(source)
        ms = self.time(lambda: destination.data.copy_from_device_async(source.data, COPY_BYTES))
        return 2 * COPY_BYTES / (ms * 1e-3) / 1e9 if ms else None

    def measure(self, data, rows):
        import numpy as np
        cp = self.cp
        ceiling = self.copy_ceiling()

        def run_gaussian():
            x = data["gaussian"]
            d_x = cp.asarray(x)
            call = lambda: cp.exp(-0.5 * ((d_x - 0.0) / 1.0) ** 2) / (1.0 * SQRT_2PI)  # noqa: E731
            picked = sample_indices(x.size)
            verify("gaussian_pdf", cp.asnumpy(call())[picked], expected_gaussian(x[picked]))
            rows.add("gaussian_pdf", self.name, "array expression (a kernel per operator)",
                     x.size, self.time(call), 8 * x.size, ceiling)

        def run_layer():
            g, w = data["greyscales"], data["weights"]
            d_g, d_w = cp.asarray(g), cp.asarray(w)
            # cupy.fuse names its kernel after the function: a lambda's "<lambda>" does not compile.
            def hidden_layer(grey, weight):
                return cp.tanh(grey / 255.0 * weight)
            fused = cp.fuse(hidden_layer)
            picked = sample_indices(g.size)
            expected = expected_layer(g[picked], w[picked])
            for key, how, call, moved in (
                    ("hidden_layer_unfused", "array expression (3 kernels, temporaries)",
                     lambda: cp.tanh(d_g / 255.0 * d_w), 28 * g.size),
                    ("hidden_layer", "cupy.fuse of the same expression",
                     lambda: fused(d_g, d_w), 12 * g.size)):
                verify(key, cp.asnumpy(call())[picked], expected)
                rows.add(key, self.name, how, g.size, self.time(call), moved, ceiling)

        def run_norms():
            for (full_rows, cols), matrix in zip(ROW_NORM_SHAPES, data["matrices"]):
                rows_count = matrix.shape[0]
                d_m = cp.asarray(matrix)
                call = lambda: cp.linalg.norm(d_m, axis=1)  # noqa: E731
                picked = sample_indices(rows_count)
                verify("norm", cp.asnumpy(call())[picked],
                       np.sqrt((matrix[picked].astype(np.float64) ** 2).sum(axis=1)))
                rows.add(f"row_norms_{full_rows}x{cols}", self.name,
                         "cupy.linalg.norm(axis=1)", matrix.size, self.time(call),
                         4 * (matrix.size + rows_count), ceiling)

        def run_hypot():
            a, b = data["hypot_a"], data["hypot_b"]
            d_a, d_b = cp.asarray(a), cp.asarray(b)
            d_c = cp.empty_like(d_a)
            call = lambda: cp.hypot(d_a, d_b, out=d_c)  # noqa: E731
            call()
            picked = sample_indices(a.size)
            verify("hypot", cp.asnumpy(d_c)[picked], np.hypot(a[picked], b[picked]))
            rows.add("hypot", self.name, "cupy.hypot(out=)", a.size, self.time(call), 12 * a.size, ceiling)

        def run_histograms():
            for name in ("uniform", "skewed"):
                x = data[name]
                d_x = cp.asarray(x)
                call = lambda: cp.histogram(d_x, bins=HISTOGRAM_BINS, range=(HISTOGRAM_LO, HISTOGRAM_HI))[0]  # noqa: E731
                # cupy.histogram places a value on a bin edge its own way: a few counts may move.
                verify("histogram", cp.asnumpy(call()), expected_histogram(x), rtol=1e-3, atol=16)
                rows.add(f"histogram_{name}_library", self.name, "cupy.histogram", x.size,
                         self.time(call), 4 * x.size, ceiling)

        def run_pi():
            samples = data["pi_samples"]
            chunk = min(samples, 1 << 26)
            generator = cp.random.default_rng(SEED)

            def call():
                hits, left = 0, samples
                while left > 0:
                    size = min(chunk, left)
                    points = generator.random((2, size), dtype=cp.float32)
                    hits += int(cp.count_nonzero(points[0] * points[0] + points[1] * points[1] <= 1.0))
                    left -= size
                return hits

            check_pi(call(), samples)
            ms = wall_time(call, cp.cuda.Device().synchronize, samples)
            rows.add("monte_carlo_pi", self.name, f"cupy.random, chunks of {chunk} points",
                     samples, ms, samples=samples)

        run_steps(self.name, rows, cp.get_default_memory_pool().free_all_blocks,
                  gaussian_pdf=run_gaussian, hidden_layer=run_layer, row_norms=run_norms,
                  hypot=run_hypot, histogram=run_histograms, monte_carlo_pi=run_pi)


def main(argv):
    arguments = [a for a in argv[1:]]
    scale = 1
    if "--scale" in arguments:
        at = arguments.index("--scale")
        try:
            scale = int(arguments[at + 1])
        except (IndexError, ValueError):
            scale = 0
        del arguments[at:at + 2]
    if len(arguments) != 1 or arguments[0].startswith("-") or scale < 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    folder = arguments[0]
    os.makedirs(folder, exist_ok=True)
    rows = Rows(folder)
    rows.save()
    status = {"numba": numba_status(), "cupy": cupy_status()}
    report_data.write_json(os.path.join(folder, "status.json"), status)
    for key in status:
        print(f"{status[key]['name']}: " + (f"{status[key]['version']}, measuring" if status[key]["available"]
                                            else f"not measured: {status[key]['reason']}"), flush=True)
    if importlib.util.find_spec("numpy") is None:
        for key in status:
            if status[key]["available"]:
                status[key].update(available=False, reason="NumPy is missing")
    if any(s["available"] for s in status.values()):
        data = inputs(scale)
        for key, system in (("numba", numba_system), ("cupy", CupySystem)):
            if status[key]["available"]:
                before = len(rows.failures)
                try:
                    system().measure(data, rows)
                except Exception as error:  # the system itself broke (its ceiling, its start)
                    rows.fail(status[key]["name"], "all kernels", f"{type(error).__name__}: {error}")
                status[key]["failures"] = rows.failures[before:]
                report_data.write_json(os.path.join(folder, "status.json"), status)
    return 0
