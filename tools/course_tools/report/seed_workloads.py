"""The seed labs' workloads, shared by the report's two seed systems (seeds.py with CuPy,
seeds_numba.py with Numba): the sizes of the C++ demos, the seeded inputs, NumPy's
expected results, and the timing and verification helpers both systems use.
"""
import math
import statistics
import time

# The sizes of the C++ demos (exercises/NN_*/harness/demo.cu), so that rows compare like with like.
GAUSSIAN_N = 1 << 26                  # 09: kLargeGaussianElements
HIDDEN_LAYER_N = 100_000_000          # 11: the lab's assessment size
ROW_NORM_SHAPES = [(4_000_000, 3), (1_000_000, 100)]   # 12: two of kDemoShapes
HYPOT_N = 64 << 20                    # 13: kDemoLargeElements
HISTOGRAM_N = 16 << 20                # 14: kDemoLargeElements
HISTOGRAM_BINS, HISTOGRAM_LO, HISTOGRAM_HI = 256, -8.0, 8.0
PI_SAMPLES = 1_000_000_000            # 15: one of kGpuSizes
COPY_BYTES = 256 << 20                # bench.hpp: at least 256 MiB, several times L2

WARMUP, REPETITIONS = 3, 10
SQRT_2PI = math.sqrt(2.0 * math.pi)
SEED = 42


def median_ms(samples):
    return statistics.median(samples) if samples else None


def verify(name, got, expected, rtol=1e-4, atol=1e-6):
    """Raises when a sample of the result differs from NumPy's (never time a wrong kernel)."""
    import numpy as np
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if got.shape != expected.shape or not np.allclose(got, expected, rtol=rtol, atol=atol):
        worst = float(np.max(np.abs(got - expected))) if got.shape == expected.shape else float("nan")
        raise ValueError(f"{name} differs from NumPy (largest difference {worst:.3g})")


def sample_indices(n, count=4096):
    import numpy as np
    return np.unique(np.linspace(0, n - 1, min(n, count)).astype(np.int64))


def expected_gaussian(x):
    import numpy as np
    x = x.astype(np.float64)
    return np.exp(-0.5 * x * x) / SQRT_2PI


def expected_layer(greyscales, weights):
    import numpy as np
    return np.tanh(greyscales.astype(np.float64) / 255.0 * weights)


def expected_histogram(x):
    """The counts, with the bin of each value computed in float32 as the kernels do."""
    import numpy as np
    scale = np.float32(HISTOGRAM_BINS / (HISTOGRAM_HI - HISTOGRAM_LO))
    bins = ((x - np.float32(HISTOGRAM_LO)) * scale).astype(np.int64)
    return np.bincount(bins[(bins >= 0) & (bins < HISTOGRAM_BINS)], minlength=HISTOGRAM_BINS)


def inputs(scale):
    """The host inputs of every kernel, from one seeded generator (NumPy)."""
    import numpy as np
    rng = np.random.default_rng(SEED)
    n = {"gaussian": GAUSSIAN_N // scale, "layer": HIDDEN_LAYER_N // scale,
         "hypot": HYPOT_N // scale, "histogram": HISTOGRAM_N // scale}
    data = {
        "gaussian": rng.uniform(-3, 3, n["gaussian"]).astype(np.float32),
        "greyscales": np.floor(rng.uniform(0, 255, n["layer"])).astype(np.float32),
        "weights": rng.normal(0.5, 0.1, n["layer"]).astype(np.float32),
        "hypot_a": rng.uniform(-12, 12, n["hypot"]).astype(np.float32),
        "hypot_b": rng.uniform(-12, 12, n["hypot"]).astype(np.float32),
        "uniform": rng.uniform(HISTOGRAM_LO, HISTOGRAM_HI, n["histogram"]).astype(np.float32),
        "matrices": [rng.uniform(-1, 1, (max(rows // scale, 1), cols)).astype(np.float32)
                     for rows, cols in ROW_NORM_SHAPES],
    }
    width = (HISTOGRAM_HI - HISTOGRAM_LO) / HISTOGRAM_BINS
    skewed_bin = HISTOGRAM_BINS // 3  # workload.hpp's skewed_bin: a third of the way up
    data["skewed"] = np.full(n["histogram"], HISTOGRAM_LO + width * (skewed_bin + 0.5), dtype=np.float32)
    data["pi_samples"] = max(PI_SAMPLES // scale, 1)
    return data


# --- Numba ---------------------------------------------------------------------------------


def check_pi(hits, samples):
    """Raises unless hits / samples estimates pi within 6 standard errors."""
    p = hits / samples
    error = 4 * math.sqrt(max(p * (1 - p), 1e-12) / samples)
    if abs(4 * p - math.pi) > 6 * error + 1e-12:
        raise ValueError(f"pi estimated as {4 * p:.6f} from {samples} samples")


def wall_time(call, synchronize, samples, repetitions=5):
    """Median wall-clock ms of whole calls (as the C++ demo times count_hits_gpu)."""
    call()
    synchronize()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        call()
        synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return median_ms(times)


def run_steps(system, rows, after_each=None, **steps):
    """Runs a system's measurements in turn; one that fails is recorded in `rows` and the
    others still run. `after_each` (freeing a memory pool, say) follows every step."""
    for name, step in steps.items():
        try:
            step()
        except Exception as error:
            rows.fail(system, name, f"{type(error).__name__}: {error}")
        finally:
            if after_each:
                after_each()
