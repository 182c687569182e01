"""The seed labs' kernels in Numba, for tools/course report-seeds (which imports this module
only where numba imports): the Gaussian ufunc, the hidden layer's ufuncs, the row-norm
gufunc, the grid-stride hypot kernel, the histograms with global and shared-memory
atomics, and Monte Carlo pi with Numba's own generator, each written as the labs teach.

The kernels refer to `cuda` as this module's global, as Numba's examples do (so that
Numba's CUDA simulator, NUMBA_ENABLE_CUDASIM=1, can run the @cuda.jit ones on a CPU).
"""
import math

import numpy as np
from numba import cuda, guvectorize, vectorize

from course_tools.report.seed_workloads import (
    COPY_BYTES, HISTOGRAM_BINS, HISTOGRAM_HI, HISTOGRAM_LO, REPETITIONS, ROW_NORM_SHAPES, SEED, SQRT_2PI,
    WARMUP, check_pi, expected_gaussian, expected_histogram, expected_layer, median_ms, run_steps,
    sample_indices, verify, wall_time)


class NumbaSystem:
    name = "Numba"

    def __init__(self):
        try:
            self.multiprocessors = cuda.get_current_device().MULTIPROCESSOR_COUNT
        except AttributeError:  # Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1): no device
            self.multiprocessors = 1

    def time(self, work, warmup=WARMUP, repetitions=REPETITIONS):
        """Median ms of work() between CUDA events; the first calls compile (JIT)."""
        for _ in range(warmup):
            work()
        cuda.synchronize()
        samples = []
        for _ in range(repetitions):
            start, stop = cuda.event(), cuda.event()
            start.record()
            work()
            stop.record()
            stop.synchronize()
            samples.append(start.elapsed_time(stop))
        return median_ms(samples)

    def copy_ceiling(self):
        source = cuda.to_device(np.ones(COPY_BYTES, dtype=np.uint8))
        destination = cuda.device_array_like(source)
        ms = self.time(lambda: destination.copy_to_device(source))
        return 2 * COPY_BYTES / (ms * 1e-3) / 1e9 if ms else None

    def measure(self, data, rows):
        ceiling = self.copy_ceiling()
        sm = self.multiprocessors

        # 09: the lab's Gaussian ufunc, compiled for the GPU.
        def run_gaussian():
            @vectorize(["float32(float32, float32, float32)"], target="cuda")
            def gaussian_pdf(x, mean, sigma):
                z = (x - mean) / sigma
                return math.exp(-0.5 * z * z) / (sigma * np.float32(SQRT_2PI))

            x = data["gaussian"]
            d_x, d_y = cuda.to_device(x), cuda.device_array_like(x)
            call = lambda: gaussian_pdf(d_x, np.float32(0.0), np.float32(1.0), out=d_y)  # noqa: E731
            call()
            picked = sample_indices(x.size)
            verify("gaussian_pdf", d_y.copy_to_host()[picked], expected_gaussian(x[picked]))
            rows.add("gaussian_pdf", self.name, "@vectorize(target='cuda'), device arrays",
                     x.size, self.time(call), 8 * x.size, ceiling)

        # 11: the lab's three ufuncs with device temporaries, and one fused ufunc.
        def run_layer():
            @vectorize(["float32(float32)"], target="cuda")
            def normalize(g):
                return g / np.float32(255.0)

            @vectorize(["float32(float32, float32)"], target="cuda")
            def weigh(v, w):
                return v * w

            @vectorize(["float32(float32)"], target="cuda")
            def activate(v):
                return math.tanh(v)

            @vectorize(["float32(float32, float32)"], target="cuda")
            def hidden_layer(g, w):
                return math.tanh(g / np.float32(255.0) * w)

            g, w = data["greyscales"], data["weights"]
            d_g, d_w = cuda.to_device(g), cuda.to_device(w)
            d_a, d_b, d_out = (cuda.device_array_like(g) for _ in range(3))
            picked = sample_indices(g.size)
            expected = expected_layer(g[picked], w[picked])

            def unfused():
                normalize(d_g, out=d_a)
                weigh(d_a, d_w, out=d_b)
                activate(d_b, out=d_out)

            fused = lambda: hidden_layer(d_g, d_w, out=d_out)  # noqa: E731
            for key, how, call, moved in (
                    ("hidden_layer_unfused", "3 @vectorize ufuncs, device temporaries", unfused, 28 * g.size),
                    ("hidden_layer", "1 fused @vectorize ufunc", fused, 12 * g.size)):
                call()
                verify(key, d_out.copy_to_host()[picked], expected)
                rows.add(key, self.name, how, g.size, self.time(call), moved, ceiling)

        # 12: the lab's gufunc, one row per thread.
        def run_norms():
            @guvectorize(["void(float32[:], float32[:])"], "(n)->()", target="cuda")
            def l2_norm(row, out):
                total = np.float32(0.0)
                for value in row:
                    total += value * value
                out[0] = math.sqrt(total)

            for (full_rows, cols), matrix in zip(ROW_NORM_SHAPES, data["matrices"]):
                rows_count = matrix.shape[0]
                d_m = cuda.to_device(matrix)
                d_out = cuda.device_array(rows_count, dtype=np.float32)
                call = lambda: l2_norm(d_m, d_out)  # noqa: E731
                call()
                picked = sample_indices(rows_count)
                verify("l2_norm", d_out.copy_to_host()[picked],
                       np.sqrt((matrix[picked].astype(np.float64) ** 2).sum(axis=1)))
                rows.add(f"row_norms_{full_rows}x{cols}", self.name, "@guvectorize('(n)->()', target='cuda')", matrix.size,
                         self.time(call), 4 * (matrix.size + rows_count), ceiling)

        # 13: the lab's grid-stride kernel, on the lab's 128 x 64 grid and on a full one.
        def run_hypot():
            @cuda.jit
            def hypot_stride(a, b, c):
                start = cuda.grid(1)
                stride = cuda.gridsize(1)
                for i in range(start, a.shape[0], stride):
                    c[i] = math.hypot(a[i], b[i])

            a, b = data["hypot_a"], data["hypot_b"]
            d_a, d_b, d_c = cuda.to_device(a), cuda.to_device(b), cuda.device_array_like(a)
            picked = sample_indices(a.size)
            for key, blocks, threads, how in (
                    ("hypot_lab_grid", 128, 64, "@cuda.jit grid-stride loop, the lab's 128 x 64"),
                    ("hypot", 32 * sm, 256, f"@cuda.jit grid-stride loop, {32 * sm} x 256")):
                call = lambda: hypot_stride[blocks, threads](d_a, d_b, d_c)  # noqa: E731
                call()
                verify(key, d_c.copy_to_host()[picked], np.hypot(a[picked], b[picked]))
                rows.add(key, self.name, how, a.size, self.time(call), 12 * a.size, ceiling)

        # 14: the lab's histogram with global atomics, and privatised in shared memory.
        def run_histograms():
            bins, lo = HISTOGRAM_BINS, np.float32(HISTOGRAM_LO)
            scale = np.float32(HISTOGRAM_BINS / (HISTOGRAM_HI - HISTOGRAM_LO))

            @cuda.jit
            def histogram_global(x, counts):
                for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
                    b = int((x[i] - lo) * scale)
                    if 0 <= b < bins:
                        cuda.atomic.add(counts, b, 1)

            @cuda.jit
            def histogram_shared(x, counts):
                local = cuda.shared.array(HISTOGRAM_BINS, dtype=np.int32)
                for b in range(cuda.threadIdx.x, bins, cuda.blockDim.x):
                    local[b] = 0
                cuda.syncthreads()
                for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
                    b = int((x[i] - lo) * scale)
                    if 0 <= b < bins:
                        cuda.atomic.add(local, b, 1)
                cuda.syncthreads()
                for b in range(cuda.threadIdx.x, bins, cuda.blockDim.x):
                    if local[b] > 0:
                        cuda.atomic.add(counts, b, local[b])

            blocks, threads = 8 * sm, 256
            for name in ("uniform", "skewed"):
                x = data[name]
                expected = expected_histogram(x)
                d_x = cuda.to_device(x)
                d_counts = cuda.device_array(bins, dtype=np.int32)
                for kind, kernel in (("global", histogram_global), ("shared", histogram_shared)):
                    def call(kernel=kernel):
                        d_counts.copy_to_device(np.zeros(bins, dtype=np.int32))
                        kernel[blocks, threads](d_x, d_counts)
                    call()
                    verify(f"histogram_{kind}", d_counts.copy_to_host(), expected, rtol=0, atol=0)
                    rows.add(f"histogram_{name}_{kind}", self.name,
                             f"@cuda.jit, {'global' if kind == 'global' else 'shared-memory'} atomics",
                             x.size, self.time(call), 4 * x.size, ceiling)

        # 15: Monte Carlo pi with Numba's xoroshiro128+ generator, one count per thread.
        def run_pi():
            from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

            @cuda.jit
            def count_hits(states, samples, hits):
                thread = cuda.grid(1)
                threads = cuda.gridsize(1)
                mine = 0
                for _ in range(thread, samples, threads):
                    x = xoroshiro128p_uniform_float32(states, thread)
                    y = xoroshiro128p_uniform_float32(states, thread)
                    if x * x + y * y <= np.float32(1.0):
                        mine += 1
                cuda.atomic.add(hits, 0, mine)

            blocks, threads = 8 * sm, 256
            samples = data["pi_samples"]
            states = create_xoroshiro128p_states(blocks * threads, seed=SEED)
            d_hits = cuda.device_array(1, dtype=np.int64)

            def call():
                d_hits.copy_to_device(np.zeros(1, dtype=np.int64))
                count_hits[blocks, threads](states, samples, d_hits)
                return int(d_hits.copy_to_host()[0])

            hits = call()
            check_pi(hits, samples)
            ms = wall_time(call, cuda.synchronize, samples)
            rows.add("monte_carlo_pi", self.name, "@cuda.jit, xoroshiro128+ (states made once)",
                     samples, ms, samples=samples)

        run_steps(self.name, rows, gaussian_pdf=run_gaussian, hidden_layer=run_layer,
                  row_norms=run_norms, hypot=run_hypot, histogram=run_histograms,
                  monte_carlo_pi=run_pi)
