#!/usr/bin/env python3
"""The benchmark report without a GPU (tools/course report, tools/course report-render).

    test_report.py render      the report drawn from a small fake data set, written here in
                               the demos' JSON format: the HTML and Markdown hold every table,
                               every figure exists as PNG in English and in French (French
                               words, decimal commas), each with its record, every text at
                               18 px or more as a slide shows it (a renderer set to draw a
                               smaller one is refused, and the check's rules proved on
                               known-wrong records); a missing table is named as such; the
                               fake tables use the names and column keys that the demos'
                               sources declare (so the renderer reads what they write).
                               Exit 77 when no Python here imports matplotlib.
    test_report.py no_gpu      tools/course report on a machine without a usable GPU (forced with
                               CUDA_VISIBLE_DEVICES=""): one line, a failure status, and
                               nothing written.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.report import data as report_data  # noqa: E402
from course_tools.report import render as report_render  # noqa: E402
from course_tools.student import prerequisites  # noqa: E402

SKIPPED = 77
col = report_data.column


def bandwidth_columns():
    """bench.hpp's bandwidth_table() columns."""
    return [col("kernel", "kernel", "text"), col("ms", "ms", precision=4),
            col("bytes_read", "bytes read", "scientific", 3),
            col("bytes_written", "bytes written", "scientific", 3),
            col("gbps", "GB/s", precision=1), col("ceiling_percent", "% of copy", precision=1, unit="%"),
            col("ceiling_gbps", "ceiling GB/s", precision=1)]


def bandwidth_row(label, ms, read, written, ceiling=3000.0):
    gbps = (read + written) / (ms * 1e-3) / 1e9
    return [label, ms, read, written, gbps, 100 * gbps / ceiling, ceiling]


def fake_tables():
    """{folder: [Table]}: one run of the report, its numbers made up but plausible."""
    t = report_data.Table
    tables = {"device": [t("device", "the device", [
        col("quantity", "quantity", "text"), col("value", "value", precision=1),
        col("unit", "unit", "text"), col("how", "how", "text")], [
        ["device", "Fake GPU 80GB", "", ""], ["compute capability", "9.0", "", ""],
        ["multiprocessors", 132, "", ""], ["CUDA runtime", "13.0", "", "cudaRuntimeGetVersion"],
        ["copy ceiling", 3000.0, "GB/s", "device-to-device cudaMemcpy"],
        ["FP32, measured", 60000.0, "GFLOP/s", "fma kernel"],
        ["FP32 peak, datasheet", 67000.0, "GFLOP/s", "formula"]])]}
    sizes = [100, 1000, 10000, 100000, 1000000, 10000019]
    tables["04_cpu_vs_gpu"] = [t("cpu_gpu", "heavy(x) on the CPU and the GPU, by n", [
        col("n", "n", "integer"), col("cpu_ms", "CPU ms", precision=3),
        col("kernel_ms", "kernel ms", precision=4), col("speedup", "speedup", precision=1, unit="x"),
        col("call_ms", "GPU call ms", precision=3),
        col("speedup_with_transfers", "with transfers", precision=1, unit="x")],
        [[n, n * 3.3e-4, 0.004 + n * 2e-7, n * 3.3e-4 / (0.004 + n * 2e-7), 0.3 + n * 1e-6,
          n * 3.3e-4 / (0.3 + n * 1e-6)] for n in sizes])]
    shapes = ["32x4x2", "16x8x4", "8x8x8", "4x8x32", "1x32x32", "128x2x1", "256x1x1"]
    gbps = [2600, 2300, 1700, 900, 250, 2650, 2550]
    tables["05_three_d_blocks"] = [t("block_shapes", "the stencil kernel, by block shape", [
        col("block", "block", "text"), col("threads", "threads", "integer"),
        col("warp_reads", "a warp reads", "right_text"), col("kernel_ms", "kernel ms", precision=4),
        col("gbps", "GB/s", precision=1), col("ceiling_percent", "ceiling", precision=1, unit="%"),
        col("wrong", "wrong points", "integer")],
        [[s, 256, " 1 run(s) of 128 B", 0.39e3 / g, g, 100 * g / 3000, 0] for s, g in zip(shapes, gbps)])]
    tables["06_sgemm_cublas"] = [t("sgemm", "C = alpha A B + beta C", [
        col("m", "m", "integer"), col("n", "n", "integer"), col("k", "k", "integer"),
        col("cpu_ms", "CPU ms", precision=3), col("cpu_gflops", "CPU GFLOP/s", precision=1),
        col("gpu_ms", "GPU ms", precision=4), col("gpu_gflops", "GPU GFLOP/s", precision=1),
        col("speedup", "speedup", precision=1, unit="x"), col("peak_percent", "% of peak", precision=1, unit="%")],
        [[m, n, k, 2e-9 * m * n * k / 1.0, 1000.0, 2e-9 * m * n * k / g, g * 1e3, g, 100 * g * 1e3 / 67000]
         for (m, n, k), g in (((512, 512, 512), 8.0), ((1024, 1024, 1024), 25.0), ((2048, 2048, 2048), 45.0),
                              ((4096, 4096, 4096), 52.0), ((3001, 1999, 1000), 40.0))])]
    tables["09_elementwise_kernels"] = [
        t("gaussian_1048576", "Gaussian pdf of 1048576 values", bandwidth_columns(),
          [bandwidth_row("float32 kernel", 0.01, 4.2e6, 4.2e6), bandwidth_row("float64 kernel", 0.012, 8.4e6, 8.4e6)]),
        t("gaussian_67108864", "Gaussian pdf of 67108864 values", bandwidth_columns(),
          [bandwidth_row("float32 kernel", 0.2, 2.7e8, 2.7e8), bandwidth_row("float64 kernel", 0.19, 5.4e8, 5.4e8)]),
        t("gaussian_times_67108864", "Gaussian pdf: CPU and GPU times", [
            col("version", "version", "text"), col("ms", "ms", precision=3),
            col("speedup", "x the CPU", precision=1, unit="x")],
          [["CPU loop (one core)", 300.0, 1.0], ["GPU kernel alone", 0.2, 1500.0],
           ["GPU with transfers in and out", 40.0, 7.5], ["float64 kernel alone", 0.19, None]])]
    tables["11_hidden_layer"] = [t("kernels_100000000", "hidden layer of 100000000 neurons: kernels",
                                   bandwidth_columns(),
                                   [bandwidth_row("three kernels", 1.0, 1.6e9, 1.2e9),
                                    bandwidth_row("fused kernel", 0.42, 8e8, 4e8)])]
    tables["12_row_norms"] = [
        t("row_norms", "row norms, by matrix shape", bandwidth_columns(), [
            bandwidth_row("4000000 x 3 (1 lane per row)", 0.05, 4.8e7, 1.6e7),
            bandwidth_row("1000000 x 100 (8 lanes per row)", 0.16, 4e8, 4e6),
            bandwidth_row("16384 x 2000 (32 lanes per row)", 0.05, 1.3e8, 6.5e4),
            bandwidth_row("7 x 4000000 (block per row)", 1.2, 1.1e8, 28)]),
        # The group kernel at other widths: rows of the same shapes, in a table of their own,
        # so that the side-by-side and the ceiling chart take the launcher's row.
        t("row_norms_by_lanes", "row norms of short rows, by lanes per row", bandwidth_columns(), [
            bandwidth_row("4000000 x 3, 1 lane per row (lanes_per_row's choice)", 0.05, 4.8e7, 1.6e7),
            bandwidth_row("4000000 x 3, 32 lanes per row", 0.7, 4.8e7, 1.6e7)])]
    tables["13_grid_stride_loops"] = [t("hypot_67108864", "hypot_stride on 67108864 elements, by grid", [
        col("grid", "grid", "text"), col("blocks", "blocks", "integer"), col("threads", "threads", "integer"),
        col("per_thread", "elem/thread", precision=1), col("ms", "ms", precision=4),
        col("gbps", "GB/s", precision=1), col("ceiling_percent", "% of copy", precision=1, unit="%")], [
        ["the lab's fixed grid", 128, 64, 8192.0, 2.0, 400.0, 13.3],
        ["occupancy-sized grid", 1056, 256, 248.2, 0.3, 2680.0, 89.3],
        ["one thread per float4", 65536, 256, 4.0, 0.31, 2600.0, 86.7]])]
    histogram_columns = [col("kernel", "", "text"), col("ms", "ms", precision=4), col("gbps", "GB/s", precision=1),
                         col("ceiling_percent", "% of copy", precision=1, unit="%"),
                         col("time_over_cub", "time / CUB", precision=2), col("equals_cpu", "= CPU", "right_text")]
    tables["14_atomics_histogram"] = [
        t("uniform", "uniform values: histograms", histogram_columns, [
            ["global atomics", 0.5, 134.0, 4.5, 5.0, "yes"], ["shared memory", 0.05, 1340.0, 44.7, 0.5, "yes"],
            ["CUB HistogramEven", 0.1, 670.0, 22.3, 1.0, "yes"]]),
        t("skewed", "every value in one bin: histograms", histogram_columns, [
            ["global atomics", 30.0, 2.2, 0.1, 300.0, "yes"], ["shared memory", 0.6, 112.0, 3.7, 6.0, "yes"],
            ["CUB HistogramEven", 0.1, 670.0, 22.3, 1.0, "yes"]])]
    tables["15_monte_carlo_pi"] = [t("estimates", "pi from n random points", [
        col("version", "version", "text"), col("samples", "samples", "integer"), col("hits", "hits", "integer"),
        col("estimate", "estimate", precision=8), col("std_error", "std error", "scientific", 2),
        col("sigmas", "|err|/SE", precision=2), col("ms", "time ms", precision=3),
        col("samples_per_s", "samples/s", "scientific", 3)], [
        ["CPU, 1 core", 1000000, 785398, 3.141592, 1.6e-3, 0.1, 8.0, 1.25e8],
        ["GPU, cuRAND Philox", 1000000000, 785398163, 3.14159265, 5.2e-5, 0.3, 9.0, 1.1e11]])]
    steps = [("1 naive", 2500.0), ("2 shared-memory tiles 32 x 32", 5000.0), ("3 1D blocking, 8 per thread", 14000.0),
             ("4 2D blocking, 8 x 8 per thread", 24000.0), ("5 float4, A transposed", 28000.0),
             ("coalesced naive (the course's)", 2600.0), ("cuBLAS SGEMM", 50000.0)]
    phases = [("compile (NVRTC; nvcc: ahead of time)", 30.0, 0.0, None, None),
              ("module load (nvcc: lazy, at first use)", 0.4, 0.3, None, None),
              ("  the kernel alone (CUDA events)", 0.09, 0.09, 0.352, 0.352),
              ("application + CUDA initialisation", 400.0, 370.0, 1076.0, 1080.0)]
    tables["17_nvrtc_streams"] = [t("application_time", "out = 2 x + y as a whole program", [
        col("phase", "phase", "text"), col("nvrtc_ms", "NVRTC ms", precision=3),
        col("nvcc_ms", "nvcc ms", precision=3), col("overview_cpp_ms", "overview C++", precision=3),
        col("overview_python_ms", "overview Python", precision=3)], [list(p) for p in phases])]
    tables["21_tiled_sgemm"] = [t("sgemm", "4096^3, FP32", [
        col("method", "", "text"), col("ms", "ms", precision=3), col("gflops", "GFLOP/s", precision=0),
        col("cublas_percent", "% cuBLAS", precision=1, unit="%"), col("peak_percent", "% peak", precision=1, unit="%")],
        [[label, 2 * 4096 ** 3 / (g * 1e6), g, 100 * g / 50000.0, 100 * g / 67000.0] for label, g in steps])]
    tensor_steps = [("1 WMMA, one warp per 16 x 16 tile", 60.0), ("2 WMMA, 128 x 128 block tiles in shared memory", 250.0),
                    ("3 mma.sync + ldmatrix + cp.async, 3 stages", 420.0),
                    ("cuBLAS cublasGemmEx (FP16 in, FP32 compute)", 640.0), ("cuBLAS SGEMM (FP32 data, FP32)", 50.0)]
    tables["26_tensor_core_gemm"] = [t("hgemm", "4096^3, FP16 in, FP32 sums", [
        col("method", "", "text"), col("ms", "ms", precision=3), col("tflops", "TFLOP/s", precision=1),
        col("cublas_percent", "% cuBLAS", precision=1, unit="%"),
        col("error_fp16_inputs", "err FP16 in", "scientific", 2),
        col("error_fp32_data", "err FP32 data", "scientific", 2)],
        [[label, 2 * 4096 ** 3 / (tf * 1e9), tf, 100 * tf / 640.0, 2e-5 if tf > 55 else 1e-5,
          6e-3 if tf > 55 else 1e-5] for label, tf in tensor_steps])]
    tables["22_transpose"] = [t("transpose_8192", "transposes of 8192 x 8192", bandwidth_columns(), [
        bandwidth_row("copy kernel, same tiles", 0.2, 2.7e8, 2.7e8), bandwidth_row("1 transpose_naive", 0.6, 2.7e8, 2.7e8),
        bandwidth_row("2 transpose_tiled", 0.3, 2.7e8, 2.7e8), bandwidth_row("3 transpose_padded", 0.21, 2.7e8, 2.7e8)])]
    tables["23_stream_overlap"] = [t("pipeline_shapes", "run_pipeline by chunk count and stream count", [
        col("chunks", "chunks", "integer"), col("streams", "streams", "integer"), col("ms", "wall ms", precision=3),
        col("speedup", "vs serial", precision=2, unit="x"), col("over_bound", "/ bound", precision=2, unit="x")],
        [[c, s, 12.0 / min(2.4, 1 + 0.35 * min(c, s)), min(2.4, 1 + 0.35 * min(c, s)),
          2.5 / min(2.4, 1 + 0.35 * min(c, s))] for c in (1, 4, 16, 64) for s in (1, 2, 4, 8)])]
    tables["seeds"] = [t("seeds", "The seed labs' systems", [
        col("key", "kernel", "text"), col("system", "system", "text"), col("how", "how", "text"),
        col("n", "n", "integer"), col("ms", "ms", precision=4), col("gbps", "GB/s", precision=1),
        col("ceiling_percent", "% of copy", precision=1, unit="%"), col("ceiling_gbps", "ceiling GB/s", precision=1),
        col("samples_per_s", "samples/s", "scientific", 3)], [
        ["gaussian_pdf", "Numba", "@vectorize(target='cuda')", 67108864, 0.25, 2147.0, 71.6, 3000.0, None],
        ["hidden_layer", "Numba", "1 fused @vectorize ufunc", 100000000, 0.5, 2400.0, 80.0, 3000.0, None],
        ["hypot", "Numba", "@cuda.jit grid-stride", 67108864, 0.33, 2440.0, 81.3, 3000.0, None],
        ["row_norms_4000000x3", "Numba", "@guvectorize('(n)->()', target='cuda')", 12000000, 0.2, 320.0,
         10.7, 3000.0, None],
        ["histogram_uniform_global", "Numba", "@cuda.jit, global atomics", 16777216, 0.6, 111.8, 3.7, 3000.0, None],
        ["histogram_skewed_shared", "Numba", "@cuda.jit, shared-memory atomics", 16777216, 0.7, 95.9, 3.2, 3000.0, None],
        ["monte_carlo_pi", "Numba", "@cuda.jit, xoroshiro128+", 1000000000, 20.0, None, None, None, 5e10]])]
    return tables


def write_fake_data(data_dir, leave_out=()):
    for folder, tables in fake_tables().items():
        if folder in leave_out:
            continue
        for table in tables:
            report_data.write_table(os.path.join(data_dir, folder), table)
    report_data.write_json(os.path.join(data_dir, "seeds", "status.json"), {
        "numba": {"name": "Numba", "version": "0.60.0", "available": True},
        "cupy": {"name": "CuPy", "available": False, "reason": "import cupy: No module named 'cupy'"}})
    os.makedirs(os.path.join(data_dir, "logs"), exist_ok=True)
    with open(os.path.join(data_dir, "logs", "05_three_d_blocks.txt"), "w", encoding="utf-8") as log:
        log.write("[device 0: Fake GPU 80GB]\nblock <shapes> & more\n")
    report_data.write_json(os.path.join(data_dir, "run.json"), {
        "command": "make report", "started": "2026-11-25T10:00:00+00:00",
        "finished": "2026-11-25T10:03:00+00:00", "driver_version": "580.00", "exercises": [
            {"id": "05_three_d_blocks", "program": "build/default/exercises/05_three_d_blocks/ex05_solution",
             "status": 0, "seconds": 12.5, "tables": 1}]})


def source_of(folder):
    if folder == "device":
        return os.path.join(ROOT, "tools", "course_tools", "report", "device_probe.cu")
    if folder == "seeds":
        return os.path.join(ROOT, "tools", "course_tools", "report", "seeds.py")
    # An exercise's demo is its harness/demo.cu.
    return os.path.join(ROOT, "exercises", folder, "harness", "demo.cu")


class Render(unittest.TestCase):
    python = None

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="course_report_test_")
        self.data = os.path.join(self.scratch, "data")
        self.out = os.path.join(self.scratch, "out")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def render(self):
        done = subprocess.run([self.python, os.path.join(ROOT, "tools", "course"), "report-render", self.data, self.out],
                              capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout + done.stderr

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as handle:
            return handle.read()

    def test_fake_tables_use_the_names_and_keys_the_sources_declare(self):
        # Columns shared by several tables are declared once: bench.hpp for the demos,
        # report/data.py (measurement_columns) for the seed systems' tables.
        bench = open(os.path.join(ROOT, "common", "course", "bench.hpp"), encoding="utf-8").read()
        bench += open(os.path.join(ROOT, "tools", "course_tools", "report", "data.py"), encoding="utf-8").read()
        for folder, tables in fake_tables().items():
            source = open(source_of(folder), encoding="utf-8").read()
            for table in tables:
                # gaussian_67108864 is written as "gaussian_" + std::to_string(n).
                stem = re.sub(r"\d+$", "", table.name)
                self.assertTrue(f'"{table.name}"' in source or f'"{stem}"' in source,
                                f"{folder}: no table named {table.name} in {source_of(folder)}")
                for key in table.keys:
                    self.assertTrue(f'"{key}"' in source or f'"{key}"' in bench,
                                    f"{folder}/{table.name}: no column key {key} in its source")

    def test_tables_and_figures(self):
        write_fake_data(self.data)
        status, output = self.render()
        self.assertEqual(status, 0, output)
        page, markdown = self.read("index.html"), self.read("report.md")
        for folder, tables in fake_tables().items():
            for table in tables:
                if folder == "seeds":
                    continue  # shown through the side-by-side table
                self.assertIn(table.title, page)
                self.assertIn(table.title, markdown)
        # Cells as the demos print them, in both formats.
        for text in ("32x4x2", "86.7%", "1.100e+11", "Fake GPU 80GB", "CUB HistogramEven"):
            self.assertIn(text, page, f"{text} is not in index.html")
            self.assertIn(text, markdown, f"{text} is not in report.md")
        self.assertIn("&lt;shapes&gt; &amp; more", page)  # a demo's output, escaped
        # The seeds beside the C++: the Numba row and its C++ counterpart; CuPy said absent.
        self.assertIn("@vectorize(target=&#x27;cuda&#x27;)", page)
        self.assertIn("ex09_solution: float32 kernel", page)
        self.assertIn("CuPy: not importable", page)
        for name in report_render.FIGURES:
            path = os.path.join(self.out, "figures", name)
            self.assertTrue(os.path.exists(path), f"{name} was not drawn")
            with open(path, "rb") as handle:
                self.assertEqual(handle.read(8), b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG")
            self.assertGreater(os.path.getsize(path), 10000, f"{name} is nearly empty")
            self.assertIn(f'src="figures/{name}"', page)
            self.assertIn(f"(figures/{name})", markdown)

    def record(self, name):
        with open(os.path.join(self.out, "figures", name + ".json"), encoding="utf-8") as handle:
            return json.load(handle)

    def test_every_figure_in_english_and_french_and_legible_on_a_slide(self):
        write_fake_data(self.data)
        status, output = self.render()
        self.assertEqual(status, 0, output)
        for name in report_render.FIGURES:
            records = {}
            for lang in report_render.LANGUAGES:
                drawn = report_render.figure_file(name, lang)
                with open(os.path.join(self.out, "figures", drawn), "rb") as handle:
                    self.assertEqual(handle.read(8), b"\x89PNG\r\n\x1a\n", f"{drawn} is not a PNG")
                records[lang] = record = self.record(drawn)
                self.assertEqual(report_render.legibility_problems(record), [], drawn)
                smallest = report_render.shown_px(record, record["smallest_text_px"])
                self.assertGreaterEqual(smallest, report_render.SMALLEST_TEXT_PX - 0.01, drawn)
            english = [text for text, _ in records["en"]["texts"]]
            french = [text for text, _ in records["fr"]["texts"]]
            # The French figure says every word in French: its title, its stamp, its axes.
            self.assertTrue(any(text.startswith("Exercise") for text in english), english)
            self.assertTrue(any(text.startswith("Exercice") for text in french), french)
            self.assertTrue(any(text.startswith("produit par") for text in french), french)
            self.assertFalse([text for text in french if re.search(r"\b(made by|Exercise|time|of the)\b", text)],
                             f"{name}: English words in the French figure")
            self.assertNotEqual(sorted(english), sorted(french), name)
        # French numbers: a decimal comma, narrow no-break spaces between digit groups, a
        # no-break space before % and :.
        overlap = [text for text, _ in self.record("23_stream_overlap.fr.png")["texts"]]
        self.assertIn("1,5", overlap)
        self.assertIn("série / max(temps de copie, kernel)\u00a0: 2,50x", overlap)
        steps = [text for text, _ in self.record("21_sgemm_steps.fr.png")["texts"]]
        self.assertIn("24\u202f000 (48\u00a0% de cuBLAS)", steps)
        self.assertIn("4 blocage 2D, 8 x 8 par thread", steps)

    def test_a_figure_drawn_too_small_is_refused(self):
        # The known-wrong renderer: its stamp at 14 px on the slide.
        write_fake_data(self.data)
        smaller = ("import sys; sys.path.insert(0, sys.argv[1]); from course_tools.report import render; "
                   "render.TEXT_PX['stamp'] = 14; sys.exit(render.main(['report-render'] + sys.argv[2:]))")
        done = subprocess.run([self.python, "-c", smaller, os.path.join(ROOT, "tools"), self.data, self.out],
                              capture_output=True, text=True, timeout=300)
        output = done.stdout + done.stderr
        self.assertEqual(done.returncode, 1, output)
        self.assertRegex(output, r"figure 04_cpu_gpu_crossover\.png missing: 04_cpu_gpu_crossover\.png not legible "
                                 r"on a slide: text at 14\.0 px as shown \(at least 18\): \"made by make report")
        self.assertEqual(output.count("not legible on a slide"), len(report_render.FIGURES), output)
        self.assertEqual([f for f in os.listdir(os.path.join(self.out, "figures"))], [],
                         "a figure too small for a slide was left for --update-slides to copy")

    def write_seeds(self, change):
        """The fake seeds table with `change` applied to its rows (a function of a row)."""
        seeds = fake_tables()["seeds"][0]
        seeds.rows = [change(list(row)) for row in seeds.rows]
        report_data.write_table(os.path.join(self.data, "seeds"), seeds)

    def test_the_side_by_side_says_who_leads_at_equal_sizes(self):
        write_fake_data(self.data)
        status, output = self.render()
        self.assertEqual(status, 0, output)
        markdown = self.read("report.md")
        self.assertIn("x best peer", markdown)
        self.assertIn("The course's C++ leads every row that a peer measured.", markdown)
        self.assertNotIn("Not comparable", markdown)
        # 15: the C++ row at the peers' n (10^9), not its table's first GPU row.
        self.assertIn("ex15_solution: GPU, cuRAND Philox", markdown)
        # 12: the launcher's row (the method it chose), not a row of another width.
        self.assertIn("ex12_solution: 4000000 x 3 (1 lane per row)", markdown)

        # A peer faster than the C++: named at once.
        def faster_numba(row):
            return row[:4] + [0.1] + row[5:] if row[0] == "gaussian_pdf" else row
        self.write_seeds(faster_numba)
        status, output = self.render()
        self.assertEqual(status, 0, output)
        self.assertIn("A peer leads the course's C++ in: 09 Gaussian pdf, float32 (Numba: the C++ takes "
                      "2.00x its time).", self.read("report.md"))

        # Two systems of one row on different sizes: the row is said not comparable.
        def other_size(row):
            return row[:3] + [1000000] + row[4:] if row[0] == "monte_carlo_pi" else row
        self.write_seeds(other_size)
        status, output = self.render()
        self.assertEqual(status, 0, output)
        self.assertIn("Not comparable, measured on different sizes: 15 Monte Carlo pi: C++ n = 1000000000, "
                      "Numba n = 1000000.", self.read("report.md"))

    def test_a_half_done_exercise_says_what_is_missing(self):
        # What a demo writes when a student function is not right (demo_results.hpp): the
        # row without figures, and why as its note, shown as a last column.
        write_fake_data(self.data)
        missing = "not implemented yet: launch_fused"
        kernels = report_data.Table(
            "kernels_100000000", "hidden layer of 100000000 neurons: kernels", bandwidth_columns(),
            [bandwidth_row("three kernels", 1.0, 1.6e9, 1.2e9),
             ["fused kernel", None, 8e8, 4e8, None, None, 3000.0]], [None, missing])
        report_data.write_table(os.path.join(self.data, "11_hidden_layer"), kernels)
        sizes = [100, 1000, 10000]
        cpu_gpu = report_data.read_table(os.path.join(self.data, "04_cpu_vs_gpu", "cpu_gpu.json"))
        cpu_gpu.rows = [[n, n * 3.3e-4, None, None, None, None] for n in sizes]
        cpu_gpu.notes = ["not implemented yet: heavy_on_gpu"] * len(sizes)
        report_data.write_table(os.path.join(self.data, "04_cpu_vs_gpu"), cpu_gpu)
        status, output = self.render()
        self.assertEqual(status, 0, output)  # every figure still drawn, from what there is
        page, markdown = self.read("index.html"), self.read("report.md")
        for text in (missing, "not implemented yet: heavy_on_gpu"):
            self.assertIn(text, page)
            self.assertIn(text, markdown)
        self.assertIn("| kernel | ms | bytes read | bytes written | GB/s | % of copy | ceiling GB/s | note |",
                      markdown)
        self.assertIn("| fused kernel | - | 8.000e+08 | 4.000e+08 | - | - | 3000.0 | " + missing + " |",
                      markdown)
        # A table without notes gets no note column.
        self.assertIn("| kernel | ms | GB/s | % of copy | time / CUB | = CPU |\n", markdown)

    def test_a_missing_table_is_named_and_its_old_figure_removed(self):
        write_fake_data(self.data)
        self.assertEqual(self.render()[0], 0)
        shutil.rmtree(self.data)
        write_fake_data(self.data, leave_out=("05_three_d_blocks", "06_sgemm_cublas"))
        status, output = self.render()
        self.assertEqual(status, 1, output)
        self.assertIn("figure 05_block_shapes.png missing", output)
        for drawn in ("05_block_shapes.png", "05_block_shapes.fr.png", "05_block_shapes.fr.png.json"):
            self.assertFalse(os.path.exists(os.path.join(self.out, "figures", drawn)), drawn)
        self.assertIn("06_sgemm_gflops.png missing", self.read("index.html"))
        self.assertTrue(os.path.exists(os.path.join(self.out, "figures", "04_cpu_gpu_crossover.png")))


    def fake_build(self, failing=()):
        """A build folder whose 'programs' are scripts that copy the fake tables where
        COURSE_REPORT_DIR says, as the demos write theirs; those in failing exit 1."""
        fixtures = os.path.join(self.scratch, "fixtures")
        write_fake_data(fixtures)
        build = os.path.join(self.scratch, "build")
        programs = {"device": os.path.join(build, "tools", "course_tools", "report", "report_device_probe")}
        for exercise in ("04_cpu_vs_gpu", "05_three_d_blocks"):
            programs[exercise] = os.path.join(build, "exercises", exercise, f"ex{exercise[:2]}_solution")
        for folder, program in programs.items():
            os.makedirs(os.path.dirname(program), exist_ok=True)
            with open(program, "w", encoding="utf-8") as script:
                script.write(f'#!/bin/sh\ncp "{fixtures}/{folder}"/*.json "$COURSE_REPORT_DIR"/\n'
                             f'echo "the demo of {folder} ran"\nexit {1 if folder in failing else 0}\n')
            os.chmod(program, 0o755)
        return build

    def run_report(self, build):
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "report", "--no-build",
                               "--no-seeds", "--only", "4,05", "--build-dir", build, "--out", self.out],
                              capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, COURSE_REPORT_FAKE_DEVICE="1"))
        return done.returncode, done.stdout, done.stderr

    def test_the_runner_measures_each_step_and_says_how_long_is_left(self):
        status, out, err = self.run_report(self.fake_build())
        self.assertEqual(status, 0, out + err)
        lines = out.splitlines()
        steps = [line for line in lines if line.startswith("[")]
        self.assertEqual(len(steps), 3, out)
        self.assertRegex(steps[0], r"^\[ 1/3\] device probe +[0-9.]+ s +ok +about [0-9]+ s left$")
        self.assertRegex(steps[1], r"^\[ 2/3\] 04_cpu_vs_gpu +[0-9.]+ s +ok, 1 table\(s\) +about")
        self.assertRegex(steps[2], r"05_three_d_blocks .* done$")
        run = report_data.read_json(os.path.join(self.out, "data", "run.json"))
        self.assertEqual([e["id"] for e in run["exercises"]], ["04_cpu_vs_gpu", "05_three_d_blocks"])
        self.assertNotIn("incomplete", run)
        page = self.read("index.html")
        self.assertIn("the demo of 05_three_d_blocks ran", page)
        self.assertIn("the stencil kernel, by block shape", page)
        self.assertTrue(os.path.exists(os.path.join(self.out, "figures", "05_block_shapes.png")))

    def test_a_failing_demo_fails_the_report_and_is_named(self):
        status, out, err = self.run_report(self.fake_build(failing=("05_three_d_blocks",)))
        self.assertEqual(status, 1, out + err)
        self.assertIn("05_three_d_blocks: exit status 1", err)
        self.assertIn("INCOMPLETE", self.read("index.html"))


class Legibility(unittest.TestCase):
    """The rules of a figure that reads on a slide, on records as the renderer writes them
    (a figure 1152 x 576 pixels, shown 570 high: 1 pixel of the image is 0.99 of the slide)."""

    def record(self, **change):
        record = {"width": 1152, "height": 576, "texts": [["Exercise 23: overlap", 24.3], ["1 stream", 18.2]],
                  "cut": [], "on_the_grid": [],
                  "series": [["1 stream", "o", "-"], ["2 streams", "s", "--"]]}
        record.update(change)
        return record

    def test_a_legible_figure_passes(self):
        self.assertEqual(report_render.legibility_problems(self.record()), [])

    def test_each_fault_is_named(self):
        cases = [
            (dict(texts=[["made by `make report`", 14.15]]), 'text at 14.0 px as shown (at least 18): "made by'),
            (dict(cut=["Exercice 21 : SGEMM"]), '"Exercice 21 : SGEMM" passes the edge of the image'),
            (dict(on_the_grid=["84%"]), 'no background under "84%": gridlines would cross it'),
            (dict(series=[["4 streams", "D", "-."], ["8 streams", "D", ":"]]),
             'series "8 streams" and "4 streams" have the same marker (D): one hides the other'),
            (dict(series=[["4 streams", "D", "-."], ["8 streams", "^", "-."]]),
             'series "8 streams" and "4 streams" have the same dashes (-.): one hides the other'),
        ]
        for change, expected in cases:
            problems = report_render.legibility_problems(self.record(**change))
            self.assertEqual(len(problems), 1, problems)
            self.assertIn(expected, problems[0])


class NoDevice(unittest.TestCase):
    def test_says_so_fails_and_writes_nothing(self):
        scratch = tempfile.mkdtemp(prefix="course_report_test_")
        try:
            out = os.path.join(scratch, "report")
            done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "report", "--out", out,
                                   "--build-dir", os.path.join(scratch, "no-build")],
                                  capture_output=True, text=True, timeout=120,
                                  env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
            self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
            lines = (done.stdout + done.stderr).strip().splitlines()
            self.assertEqual(len(lines), 1, lines)
            self.assertIn("no report", lines[0])
            self.assertIn("GPU", lines[0])
            self.assertEqual(os.listdir(scratch), [], "a run without a GPU wrote something")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    if len(argv) != 2 or argv[1] not in ("render", "no_gpu"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if argv[1] == "render":
        Render.python = prerequisites.python_with_matplotlib()
        if Render.python is None:
            print("SKIPPED: no Python here imports matplotlib (Debian: apt-get install python3-matplotlib)")
            return SKIPPED
        suite = unittest.TestSuite([unittest.defaultTestLoader.loadTestsFromTestCase(Render),
                                    unittest.defaultTestLoader.loadTestsFromTestCase(Legibility)])
    else:
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(NoDevice)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
