"""Writes the benchmark report from its data folder (tools/course_tools/report/data.py describes it):
index.html, report.md and the figures, each figure with the command and the device that
produced it written under the plot. Each figure is drawn in English and in French
(figures/NAME.png, NAME.fr.png: the French decks show the latter), sized for a slide (every
text at least SMALLEST_TEXT_PX as shown), with a record beside it (NAME.png.json: its size,
its texts and their sizes) that the renderer checks before keeping the figure and the
slides' legibility check reads.

    tools/course report-render DATA_DIR OUT_DIR     (tools/course report runs it after the demos)

Exit status: 0 written; 1 written, but some figure could not be drawn (each one named,
with why); 2 a usage error or no data. Plots need matplotlib (Debian: python3-matplotlib);
without it the tables are still written, and the report says which figures are missing.
"""
import dataclasses
import html
import json
import os
import re
import sys

from course_tools.authoring.diagrams.svg import LANGUAGES, Say
from course_tools.report import data as report_data
# The record beside a figure (NAME.png.json), which the slides' legibility check reads.
from course_tools.student.slides import figure_record as record_file
from course_tools.student.paths import ROOT

# The figures, in the order the report shows them; the slides use the same files. Each is
# drawn in English (NAME.png) and in French (NAME.fr.png, figure_file), with a record of
# what it shows beside it (NAME.png.json, what_it_shows).
FIGURES = ["04_cpu_gpu_crossover.png", "05_block_shapes.png", "06_sgemm_gflops.png",
           "09_15_copy_ceiling_share.png", "14_histogram.png", "21_sgemm_steps.png",
           "22_transpose.png", "23_stream_overlap.png", "26_tensor_core_steps.png"]

# A slide shows a figure alone under its title, SLIDE_FIGURE_HEIGHT pixels high and at most
# SLIDE_FIGURE_WIDTH wide (tools/marp/course.css, class figure: the slide's content box):
# every text of a figure is sized in pixels at that height, and none reads smaller than
# SMALLEST_TEXT_PX there (the decks' legibility rule for a figure's labels).
SLIDE_FIGURE_HEIGHT = 570
SLIDE_FIGURE_WIDTH = 1168
SMALLEST_TEXT_PX = 18
TEXT_PX = {"title": 24, "label": 20, "ticks": 18, "legend": 18, "note": 18, "stamp": 18}
# Drawn 2:1, a figure takes the slide's whole width at that height (1140 of 1168 pixels).
FIGURE_WIDTH, FIGURE_HEIGHT = 9.6, 4.8
# The axis label of the figures in GFLOP/s (06, 21), in each language.
GFLOPS_FORMULA = ("GFLOP/s = 2 m n k / time / 10^9", "GFLOP/s = 2 m n k / temps / 10^9")

# The memory-bound kernels of exercises 09-15 in the copy-ceiling chart, as (exercise,
# table, or table prefix followed by its largest size, row label prefix, bar label in
# English and French, the key of the seeds' version of the same kernel or None). The largest
# sizes only: there the buffers are far larger than L2 and the figure is DRAM's.
CEILING_BARS = [
    ("09_elementwise_kernels", "gaussian_*", "float32 kernel",
     ("09 Gaussian pdf float32", "09 densité gaussienne float32"), "gaussian_pdf"),
    ("09_elementwise_kernels", "gaussian_*", "float64 kernel",
     ("09 Gaussian pdf float64", "09 densité gaussienne float64"), None),
    ("11_hidden_layer", "kernels_*", "three kernels",
     ("11 hidden layer, 3 kernels", "11 couche cachée, 3 kernels"), "hidden_layer_unfused"),
    ("11_hidden_layer", "kernels_*", "fused kernel",
     ("11 hidden layer, fused", "11 couche cachée, fusionnée"), "hidden_layer"),
    ("12_row_norms", "row_norms", "4000000 x 3",
     ("12 row norms 4M x 3", "12 normes des lignes 4M x 3"), "row_norms_4000000x3"),
    ("12_row_norms", "row_norms", "1000000 x 100",
     ("12 row norms 1M x 100", "12 normes des lignes 1M x 100"), "row_norms_1000000x100"),
    ("12_row_norms", "row_norms", "16384 x 2000",
     ("12 row norms 16384 x 2000", "12 normes des lignes 16384 x 2000"), None),
    ("12_row_norms", "row_norms", "7 x 4000000",
     ("12 row norms 7 x 4M", "12 normes des lignes 7 x 4M"), None),
    ("13_grid_stride_loops", "hypot_*", "the lab's fixed grid",
     ("13 hypot, fixed 128 x 64 grid", "13 hypot, grille fixe 128 x 64"), "hypot_lab_grid"),
    ("13_grid_stride_loops", "hypot_*", "occupancy-sized grid",
     ("13 hypot, occupancy grid", "13 hypot, grille selon l'occupation"), "hypot"),
    ("13_grid_stride_loops", "hypot_*", "one thread per float4",
     ("13 hypot, thread per float4", "13 hypot, un thread par float4"), None),
    ("14_atomics_histogram", "uniform", "global atomics",
     ("14 histogram, global atomics", "14 histogramme, atomiques globales"), "histogram_uniform_global"),
    ("14_atomics_histogram", "uniform", "shared memory",
     ("14 histogram, shared memory", "14 histogramme, mémoire partagée"), "histogram_uniform_shared"),
    ("14_atomics_histogram", "uniform", "CUB",
     ("14 histogram, CUB (library)", "14 histogramme, CUB (bibliothèque)"), "histogram_uniform_library"),
]

# The French of the row labels the demos write (exercise 21's harness/steps.cuh and demo.cu,
# 22's demo.cu), shown on the French figures; a label not here is shown as written.
FRENCH_ROW_LABELS = {
    "1 naive": "1 naïf",
    "2 shared-memory tiles 32 x 32": "2 tuiles en mémoire partagée 32 x 32",
    "3 1D blocking, 8 per thread": "3 blocage 1D, 8 par thread",
    "4 2D blocking, 8 x 8 per thread": "4 blocage 2D, 8 x 8 par thread",
    "5 float4, A transposed": "5 float4, A transposée",
    "6 warp tiles, double-buffered (optional)": "6 tuiles de warp, double tampon (facultative)",
    "coalesced naive (the course's)": "naïf coalescé (celui du cours)",
    "cuBLAS SGEMM": "SGEMM de cuBLAS",
    "copy kernel, same tiles": "kernel de copie, mêmes tuiles",
    "1 WMMA, one warp per 16 x 16 tile": "1 WMMA, un warp par tuile de 16 x 16",
    "2 WMMA, 128 x 128 block tiles in shared memory": "2 WMMA, tuiles de bloc de 128 x 128 en mémoire partagée",
    "3 mma.sync + ldmatrix + cp.async, swizzled stages": "3 mma.sync + ldmatrix + cp.async, étages entrelacés",
    "4 wgmma + TMA, 4 stages (optional, sm_90a)": "4 wgmma + TMA, 4 étages (facultative, sm_90a)",
    "cuBLAS cublasGemmEx (FP16 in, FP32 compute)": "cublasGemmEx de cuBLAS (entrées FP16, calcul FP32)",
    "cuBLAS SGEMM (FP32 data, FP32)": "SGEMM de cuBLAS (données FP32, FP32)",
}

# What each exercise's tables measure and how, above its tables.
EXPLANATIONS = {
    "04": "heavy(x) on one CPU core and on the GPU. CPU ms: wall clock; kernel ms: CUDA events "
          "around the kernel; GPU call ms: wall clock of the whole call (cudaMalloc, copies, "
          "kernel, cudaFree). speedup = CPU ms / GPU ms.",
    "05": "One 7-point stencil update of a 3D grid, by the serial loop, OpenMP and the kernel "
          "on blocks of several shapes. GB/s = (points read + points written) x 4 B / time.",
    "06": "SGEMM, C = alpha A B + beta C: OpenBLAS on every core against cuBLAS (FP32, no "
          "tensor cores). GFLOP/s = 2 m n k / time of the multiply alone.",
    "07": "Scaling the rows of a matrix with a strided and a coalesced kernel. "
          "GB/s = (bytes read + bytes written) / kernel time.",
    "09": "The lab's elementwise kernels. GB/s = (bytes read + bytes written) / kernel time; "
          "% of copy = GB/s / the copy ceiling measured in the same program.",
    "10": "The bus (cudaMemcpy, pageable and pinned) and the lab's pulse train made with round "
          "trips, with the data kept on the device, and with pinned buffers.",
    "11": "The lab's hidden layer, tanh(greyscale / 255 x weight): three kernels against one "
          "fused kernel, as whole calls and as kernels alone.",
    "12": "Row-wise L2 norms (the lab's gufunc): launch_row_norms, a group of lanes per row "
          "(1 to 32, from the rows' length) or a block per row; then the group kernel at every "
          "width on the short rows. GB/s = (matrix bytes + norms bytes) / kernel time.",
    "13": "hypot with a grid-stride loop, by grid, and on the CPU's cores with OpenMP (the last "
          "row). GB/s = (2 floats read + 1 written) x 4 B x n / time.",
    "14": "Histograms of 16M floats in 256 bins: global atomics, shared-memory privatisation "
          "and CUB, on uniform input and with every value in one bin. GB/s = 4 B x n / time.",
    "15": "Monte Carlo pi: on one core, on every core (OpenMP), with cuRAND on the GPU. "
          "samples/s = n / time of the whole call.",
    "17": "SAXPY in the CUDA Python overview's configuration (512 x 32768 floats, a = 2) as a "
          "whole program, compiled at run time by NVRTC and ahead of time by nvcc: each phase on "
          "the wall clock (compile, module load, buffers, copies from pageable memory, kernel, "
          "copy back, clean-up), the kernel also by CUDA events, CUDA's initialisation (driver, "
          "primary context) apart; the overview's own figures (its C++ and Python programs) beside.",
    "18": "A dot product of 64M floats in four steps (a shared-memory tree, the first add in "
          "the load, the last warp with shuffles, a grid-stride loop and a second pass) against "
          "CUB and cublasSdot. GB/s = 2 x 4 B x n / time (bytes read); x CUB = CUB's time / this.",
    "20": "y = A x in CSR, one thread per row, a group of lanes per row and 8 nonzeros a "
          "thread (balanced: y zeroed, then atomicAdds; its time includes the zeroing), against "
          "cusparseSpMV. GB/s = (8 B x nonzeros + 4 B x (rows + 1) + 8 B x rows) / time.",
    "21": "C = A B at 4096^3 in FP32 by the course's six steps (naive, shared-memory tiles, 1D "
          "and 2D register blocking, float4; the sixth, warp tiles with double-buffered tiles, "
          "optional), the course's coalesced naive kernel and cuBLAS (CUBLAS_DEFAULT_MATH: no "
          "TF32). GFLOP/s = 2 m n k / time; % cuBLAS = cuBLAS's time / this time, same run; "
          "% peak = GFLOP/s / FP32 peak.",
    "26": "C = A B at 4096^3 on the tensor cores, FP16 inputs and FP32 sums, by the course's three "
          "steps (WMMA one warp per 16 x 16 tile, WMMA with 128 x 128 block tiles in shared memory, "
          "mma.sync with ldmatrix and a multi-stage cp.async pipeline: sm_80 and newer) and the optional "
          "fourth (wgmma fed by TMA through 4 stages: sm_90 GPUs, code built for sm_90a), cuBLAS's "
          "cublasGemmEx with the same types, and cuBLAS SGEMM in FP32 for scale. TFLOP/s = "
          "2 m n k / time; % cuBLAS = cublasGemmEx's time / this time, same run; the errors are the "
          "largest over 1024 elements against float64, of the FP16 inputs' product and of the FP32 "
          "data's.",
}


# --- the run's context -----------------------------------------------------------------

class Context:
    """What every page and figure says about the run: the device, the versions, the command."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.run = report_data.read_json(os.path.join(data_dir, "run.json"), {}) or {}
        device_tables = report_data.read_tables(os.path.join(data_dir, "device"))
        self.device = device_tables.get("device")
        self.values = {}
        if self.device:
            for record in self.device.records():
                self.values[record["quantity"]] = record["value"]
        self.seeds_status = report_data.read_json(
            os.path.join(data_dir, "seeds", "status.json"), {}) or {}

    def value(self, quantity, default=None):
        return self.values.get(quantity, default)

    def device_line(self, say=Say("en")):
        name = self.value("device") or self.run.get("gpu_name") or say("unknown device", "GPU inconnu")
        parts = [str(name)]
        if self.run.get("driver_version"):
            parts.append(say("driver ", "pilote ") + str(self.run["driver_version"]))
        if self.value("CUDA runtime"):
            parts.append(f"CUDA {self.value('CUDA runtime')}")
        return ", ".join(parts)

    def command(self):
        return self.run.get("command", "make report")

    def stamp(self, programs, say):
        """The line written under each figure: command, programs, device, date."""
        date = self.run.get("finished", "")[:10]
        return (say(f"made by {self.command()} ({programs}) on {self.device_line(say)}",
                    f"produit par {self.command()} ({programs}) sur {self.device_line(say)}")
                + (say(f", {date}", f", le {date}") if date else ""))


def exercise_folders(data_dir):
    return sorted(entry for entry in os.listdir(data_dir)
                  if os.path.isdir(os.path.join(data_dir, entry)) and entry[:2].isdigit()
                  and entry[2:3] == "_")


def shown_exercises(context):
    """The exercises with data, those the run tried, and those a figure belongs to (so
    that a figure's absence is said where it would have been)."""
    shown = set(exercise_folders(context.data_dir))
    shown |= {e["id"] for e in context.run.get("exercises", [])}
    course = os.listdir(os.path.join(ROOT, "exercises")) if os.path.isdir(os.path.join(ROOT, "exercises")) else []
    shown |= {e for e in course if e[:2] in FIGURE_OF_EXERCISE}
    return sorted(shown)


def exercise_title(exercise_id):
    readme = os.path.join(ROOT, "exercises", exercise_id, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as handle:
            first = handle.readline().strip()
        if first.startswith("#"):
            return first.lstrip("#").strip()
    return exercise_id.replace("_", " ")


def table_for(tables, name):
    """A table by name, or for 'prefix_*' the one of the largest size."""
    if name.endswith("*"):
        return report_data.largest(tables, name[:-1])
    return tables.get(name)


# --- figures -----------------------------------------------------------------------------

class FigureMissing(Exception):
    """A figure that cannot be drawn from this run's data; the message says why."""


def program_of(exercise_id):
    return f"ex{exercise_id[:2]}_solution"


def figure_file(name, lang):
    """A figure's file in a language: NAME.png in English, NAME.fr.png in French."""
    return name if lang == "en" else name[:-len(".png")] + f".{lang}.png"


def text_size(role, height):
    """The font size, in points, of a text of `role` (TEXT_PX) in a figure `height` inches
    high, shown SLIDE_FIGURE_HEIGHT pixels high on a slide."""
    return TEXT_PX[role] * 72.0 * height / SLIDE_FIGURE_HEIGHT


def new_figure(plt, say, width=FIGURE_WIDTH, height=FIGURE_HEIGHT):
    plt.rcParams.update({
        "font.size": text_size("ticks", height), "axes.titlesize": text_size("title", height),
        "axes.labelsize": text_size("label", height), "xtick.labelsize": text_size("ticks", height),
        "ytick.labelsize": text_size("ticks", height), "legend.fontsize": text_size("legend", height),
        # Gridlines under the data, and none through a legend.
        "axes.axisbelow": True, "legend.framealpha": 1.0})
    figure, axes = plt.subplots(figsize=(width, height), dpi=120)
    figure.say = say
    return figure, axes


def decimal_commas(figure):
    """The numbers of a French figure's linear axes with a decimal comma, as French writes
    1,5 (the axes of categories, of logarithms or of labels set by hand keep theirs)."""
    from matplotlib.ticker import ScalarFormatter

    class DecimalComma(ScalarFormatter):
        def __call__(self, value, pos=None):
            return super().__call__(value, pos).replace(".", ",")
    for axes in figure.get_axes():
        for axis in (axes.xaxis, axes.yaxis):
            if type(axis.get_major_formatter()) is ScalarFormatter:
                axis.set_major_formatter(DecimalComma())


def title(axes, text):
    """A figure's title, centred on the whole figure: long row labels on the left leave the
    plot too narrow for it."""
    axes.figure.suptitle(text, fontsize=text_size("title", axes.figure.get_figheight()))


def note_size(axes):
    """The size of the numbers written on a figure's bars and points."""
    return text_size("note", axes.figure.get_figheight())


# Written inside the plot, a note sits on white, above the gridlines and the dashed reference
# lines that cross it.
ON_WHITE = {"zorder": 5, "bbox": {"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"}}


def note(axes, text, point, **placement):
    axes.annotate(text, point, fontsize=note_size(axes), **ON_WHITE, **placement)


def undrawn_tick_labels(plots):
    """The ids of the tick labels that the axes keep but do not draw: their ticks lie outside
    the axes' limits."""
    undrawn = set()
    for axes in plots:
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            margin = 1e-9 * (high - low)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if tick.get_loc() is None or not low - margin <= tick.get_loc() <= high + margin:
                    undrawn.update((id(tick.label1), id(tick.label2)))
    return undrawn


def what_it_shows(figure):
    """What a drawn figure shows, read from its objects: its size in pixels, every text with
    its size in pixels of the image, the texts that pass the image's edge, those inside a plot
    without an opaque background, and each line series' marker and dashes."""
    import matplotlib.legend
    import matplotlib.text
    scale = figure.dpi / 72.0
    width, height = (round(v) for v in figure.get_size_inches() * figure.dpi)
    renderer = figure.canvas.get_renderer()
    texts, bare, cut = [], [], []
    plots = figure.get_axes()
    undrawn = undrawn_tick_labels(plots)
    for text in figure.findobj(matplotlib.text.Text):
        words = text.get_text().strip()
        if not text.get_visible() or not words or id(text) in undrawn:
            continue
        texts.append([words, round(text.get_fontsize() * scale, 2)])
        extent = text.get_window_extent(renderer)
        if extent.x0 < -1 or extent.y0 < -1 or extent.x1 > width + 1 or extent.y1 > height + 1:
            cut.append(words)
        # A note written inside a plot (annotate, text) must hide the gridlines behind it.
        inside = isinstance(text, matplotlib.text.Annotation) or any(text in a.texts for a in plots)
        patch = text.get_bbox_patch()
        if inside and (patch is None or patch.get_facecolor()[3] < 1.0):
            bare.append(words)
    for legend in figure.findobj(matplotlib.legend.Legend):
        frame = legend.get_frame()
        if not frame.get_visible() or (frame.get_alpha() if frame.get_alpha() is not None else 1.0) < 1.0:
            bare.append("legend: " + "; ".join(t.get_text() for t in legend.get_texts()))
    series = [[line.get_label(), str(line.get_marker()), str(line.get_linestyle())]
              for a in plots for line in a.get_lines()
              if not line.get_label().startswith("_") and line.get_marker() not in (None, "None", "", " ")]
    return {"width": width, "height": height, "texts": texts, "cut": cut, "on_the_grid": bare, "series": series}


def shown_px(record, size):
    """A text's size in pixels of the slide that shows the figure: SLIDE_FIGURE_HEIGHT high,
    or narrower than the slide's content box where the figure is wider than it allows."""
    scale = min(SLIDE_FIGURE_HEIGHT / record["height"], SLIDE_FIGURE_WIDTH / record["width"])
    return size * scale


def legibility_problems(record):
    """What keeps a drawn figure (what_it_shows) from reading on a slide, in words: a text
    under SMALLEST_TEXT_PX as shown, a text cut by the image's edge, a note or legend with
    gridlines through it, two series
    with the same marker or the same dashes (one would hide the other)."""
    problems = []
    for words, size in record["texts"]:
        if shown_px(record, size) < SMALLEST_TEXT_PX - 0.01:
            problems.append(f'text at {shown_px(record, size):.1f} px as shown (at least {SMALLEST_TEXT_PX}): "{words}"')
    for words in record["cut"]:
        problems.append(f'"{words}" passes the edge of the image')
    for words in record["on_the_grid"]:
        problems.append(f'no background under "{words}": gridlines would cross it')
    for what, index in (("marker", 1), ("dashes", 2)):
        seen = {}
        for series in record["series"]:
            if series[index] in seen:
                problems.append(f'series "{series[0]}" and "{seen[series[index]]}" have the same {what} '
                                f'({series[index]}): one hides the other')
            seen.setdefault(series[index], series[0])
    return problems


def smallest_text(record):
    """The smallest text of a figure, in pixels of its image (the slides' check scales it)."""
    return min((size for _, size in record["texts"]), default=None)


def save_figure(figure, path, stamp):
    # The stamp sits under the plot, inside the image: a copied figure keeps its origin. Its
    # lines are cut here (each within the figure's width), and the plot keeps clear of them.
    import textwrap
    if figure.say.lang == "fr":
        decimal_commas(figure)
    height = figure.get_figheight()
    size = text_size("stamp", height)
    characters = int(figure.get_figwidth() * 72.0 / (0.55 * size))
    lines = textwrap.wrap(stamp, characters) or [""]
    stamp_height = (len(lines) * 1.35 * size + 8) / (72.0 * height)
    figure.tight_layout(rect=(0, stamp_height, 1, 1))
    figure.text(0.01, 0.01, "\n".join(lines), fontsize=size, color="#444444", ha="left", va="bottom",
                linespacing=1.25)
    figure.savefig(path)
    record = what_it_shows(figure)
    record["smallest_text_px"] = smallest_text(record)
    with open(record_file(path), "w", encoding="utf-8") as handle:
        json.dump(record, handle, ensure_ascii=False, indent=1)
        handle.write("\n")


def need(table, what):
    if table is None or not table.rows:
        raise FigureMissing(f"no data: {what} did not run or wrote no rows")
    return table


def positive(values):
    return all(isinstance(v, (int, float)) and v > 0 for v in values)


def crossover(sizes, cpu_ms, gpu_ms):
    """(n, ms) where the GPU's time line crosses the CPU's, interpolated in log-log space
    between the two measured sizes around it; None where the lines do not cross."""
    import math
    points = [(n, c, g) for n, c, g in zip(sizes, cpu_ms, gpu_ms) if positive([n, c, g])]
    for (n0, c0, g0), (n1, c1, g1) in zip(points, points[1:]):
        d0, d1 = math.log(g0 / c0), math.log(g1 / c1)
        if d0 > 0 >= d1:
            t = d0 / (d0 - d1)
            def between(a, b):
                return math.exp(math.log(a) + t * (math.log(b) - math.log(a)))
            return between(n0, n1), between(c0, c1)
    return None


def figure_04(plt, say, context, tables, path):
    table = need(tables.get("04_cpu_vs_gpu", {}).get("cpu_gpu"), "exercise 04's demo")
    n, cpu = table.column("n"), table.column("cpu_ms")
    kernel, call = table.column("kernel_ms"), table.column("call_ms")
    figure, axes = new_figure(plt, say)
    for values, label, style in (
            (cpu, say("CPU, one core", "CPU, un cœur"), "o-"),
            (kernel, say("GPU kernel alone", "kernel GPU seul"), "s--"),
            (call, say("GPU whole call (allocation + copies + kernel)",
                       "appel GPU entier (allocation + copies + kernel)"), "^-.")):
        kept = [(x, y) for x, y in zip(n, values) if positive([x, y])]
        if kept:
            axes.plot(*zip(*kept), style, label=label, markersize=8)
    notes = []
    for values, what, colour in ((call, say("whole call", "appel entier"), "C2"),
                                 (kernel, say("kernel", "kernel"), "C1")):
        point = crossover(n, cpu, values)
        if point:
            # Said in the legend, not beside the point, where the curves run.
            where = f"n ~ {say.number(point[0])}"
            axes.axvline(point[0], color=colour, linestyle=":", linewidth=1.5,
                         label=say(f"crossover ({what}): {where}", f"croisement ({what}) : {where}"))
            axes.plot(*point, "o", markersize=14, markerfacecolor="none", color=colour)
            notes.append(f"{what}: {where}")
        else:
            notes.append(say(f"{what}: no crossover in the measured range",
                             f"{what} : pas de croisement dans l'intervalle mesuré"))
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(say("n (elements)", "n (éléments)"))
    axes.set_ylabel(say("time (ms)", "temps (ms)"))
    title(axes, say("Exercise 04: heavy(x), CPU against GPU", "Exercice 04 : heavy(x), CPU contre GPU"))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="upper left")
    save_figure(figure, path, context.stamp(program_of("04_cpu_vs_gpu"), say))
    return ("CPU and GPU times against n, log-log; a dotted line marks where the GPU's time "
            "falls below the CPU's (" + "; ".join(notes) + ").")


def figure_05(plt, say, context, tables, path):
    table = need(tables.get("05_three_d_blocks", {}).get("block_shapes"), "exercise 05's demo")
    labels, gbps = table.column("block"), table.column("gbps")
    share = table.column("ceiling_percent")
    figure, axes = new_figure(plt, say)
    heights = [v if isinstance(v, (int, float)) else 0 for v in gbps]
    def along_x(label):
        head = str(label).split("x")[0]
        return int(head) if head.isdigit() else 0
    bars = axes.bar(labels, heights, color=["C0" if along_x(b) >= 32 else "C3" for b in labels])
    for bar, percent in zip(bars, share):
        if isinstance(percent, (int, float)):
            note(axes, say.percent(percent), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                 textcoords="offset points", xytext=(0, 3), ha="center", va="bottom")
    ceiling = context.value("copy ceiling")
    if isinstance(ceiling, (int, float)):
        value = f"{say.number(ceiling)} GB/s"
        axes.axhline(ceiling, color="black", linestyle="--", linewidth=1,
                     label=say(f"copy ceiling, same run: {value}", f"plafond de copie, même exécution : {value}"))
        axes.set_ylim(top=ceiling * 1.3)
        axes.legend(loc="upper center")
    axes.set_xlabel(say("block shape bx x by x bz (x fastest; red: fewer than 32 threads along x)",
                        "forme du bloc bx x by x bz (x le plus rapide ; en rouge : moins de 32 threads selon x)"))
    axes.set_ylabel("GB/s")
    title(axes, say("Exercise 05: GB/s = (points read + written) x 4 B / time, by block shape",
                       "Exercice 05 : GB/s = (points lus + écrits) x 4 B / temps, selon le bloc"))
    axes.grid(True, axis="y", alpha=0.3)
    save_figure(figure, path, context.stamp(program_of("05_three_d_blocks"), say))
    return ("GB/s of the stencil kernel for each block shape, with its share of the copy "
            "ceiling; GB/s = (points read + points written) x 4 B / kernel time.")


def figure_06(plt, say, context, tables, path):
    table = need(tables.get("06_sgemm_cublas", {}).get("sgemm"), "exercise 06's demo")
    square, other = [], []
    for record in table.records():
        size = (record["m"] * record["n"] * record["k"]) ** (1 / 3)
        (square if record["m"] == record["n"] == record["k"] else other).append((size, record))
    figure, axes = new_figure(plt, say)
    for key, label, colour, style in (("gpu_gflops", "cuBLAS (GPU)", "C0", "o-"),
                                      ("cpu_gflops", "OpenBLAS (CPU)", "C1", "s--")):
        kept = [(s, r[key]) for s, r in sorted(square, key=lambda p: p[0]) if positive([r[key]])]
        if kept:
            axes.plot(*zip(*kept), style, color=colour, label=label, markersize=8)
        for s, record in other:
            if positive([record[key]]):
                axes.plot(s, record[key], "D", color=colour, markerfacecolor="none", markersize=9)
                # Under the GPU's point, above the CPU's: clear of the peaks' lines and the axis.
                below = key == "gpu_gflops"
                note(axes, f"{record['m']}x{record['n']}x{record['k']}", (s, record[key]),
                     textcoords="offset points", xytext=(8, -8 if below else 8), va="top" if below else "bottom")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    ticks = sorted({round(size) for size, _ in square})
    axes.set_xticks(ticks)
    axes.set_xticklabels([str(t) for t in ticks])
    axes.minorticks_off()
    # The peaks are said in the legend: a label on its own line would be struck through.
    peaks = []
    for quantity, words, style in (("FP32 peak, datasheet", ("FP32 peak, datasheet", "crête FP32, fiche technique"), ":"),
                                   ("FP32, measured", ("FP32, measured", "FP32, mesuré"), "--")):
        peak = context.value(quantity)
        if isinstance(peak, (int, float)):
            axes.axhline(peak, color="black", linestyle=style, linewidth=1,
                         label=say(*words) + say(": ", " : ") + f"{say.number(peak / 1e3, 1)} TFLOP/s")
            peaks.append(peak)
    if peaks:
        axes.set_ylim(top=max(peaks) * 12)  # room for the legend above the peaks
    axes.set_xlabel(say("m = n = k (open diamonds: (m n k)^(1/3) of a non-square shape)",
                        "m = n = k (losanges vides : (m n k)^(1/3) d'une forme non carrée)"))
    axes.set_ylabel(say(*GFLOPS_FORMULA))
    title(axes, say("Exercise 06: SGEMM, cuBLAS against OpenBLAS", "Exercice 06 : SGEMM, cuBLAS contre OpenBLAS"))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="upper center", ncol=2)
    save_figure(figure, path, context.stamp(program_of("06_sgemm_cublas"), say))
    return "GFLOP/s = 2 m n k / time of the multiply alone, by size, for cuBLAS and OpenBLAS."


def seed_share(seed, context):
    """A seed measurement's share of the copy ceiling that the report's device probe
    measured in the same run: one denominator for Numba and CuPy alike (each system's own
    copy, timed through its own API, need not reach what cudaMemcpy does)."""
    ceiling = context.value("copy ceiling")
    if isinstance(seed.get("gbps"), (int, float)) and isinstance(ceiling, (int, float)) and ceiling > 0:
        return 100.0 * seed["gbps"] / ceiling
    return seed.get("ceiling_percent")


COURSE_SYSTEM = "C++ (course)"


def ceiling_bars(context, tables, seeds, say):
    """[(label, system, percent)] for the copy-ceiling chart, C++ first, seeds after each."""
    bars = []
    seed_rows = seeds.records() if seeds else []
    for exercise, table_name, row_prefix, label, seed_key in CEILING_BARS:
        table = table_for(tables.get(exercise, {}), table_name)
        row = table.find(row_prefix) if table else None
        if row and isinstance(row.get("ceiling_percent"), (int, float)):
            bars.append((say(*label), COURSE_SYSTEM, row["ceiling_percent"]))
        for seed in seed_rows:
            share = seed_share(seed, context) if seed_key and seed["key"] == seed_key else None
            if isinstance(share, (int, float)):
                bars.append((say(*label), seed["system"], share))
    return bars


SYSTEM_STYLES = {COURSE_SYSTEM: ("C0", None), "Numba": ("C1", "//"), "CuPy": ("C2", "..")}


def figure_09_15(plt, say, context, tables, path, seeds):
    bars = ceiling_bars(context, tables, seeds, say)
    if not bars:
        raise FigureMissing("no data: none of exercises 09, 11, 12, 13, 14 wrote a bandwidth table")
    labels = list(dict.fromkeys(label for label, _, _ in bars))
    systems = list(dict.fromkeys(system for _, system, _ in bars))
    width = 0.8 / len(systems)
    # 14 rows of bars: taller than the others, and as wide as the slide lets it be.
    figure, axes = new_figure(plt, say, 11.6, 5.8)
    for s, system in enumerate(systems):
        ys = [(labels.index(label), percent) for label, bar_system, percent in bars if bar_system == system]
        positions = [y + (s - (len(systems) - 1) / 2) * width for y, _ in ys]
        colour, hatch = SYSTEM_STYLES.get(system, (f"C{s + 3}", "xx"))
        axes.barh(positions, [p for _, p in ys], height=width, color=colour, hatch=hatch, edgecolor="white",
                  label=say("C++ (course)", "C++ (cours)") if system == COURSE_SYSTEM else system)
        # The course's bars only: a row's bars are too close for a number beside each.
        for position, (_, percent) in zip(positions, ys):
            if system == COURSE_SYSTEM:
                note(axes, say.percent(percent), (percent, position), textcoords="offset points",
                     xytext=(3, 0), va="center")
    axes.axvline(100, color="black", linestyle="--", linewidth=1, zorder=0)
    # Room on the right for the legend, clear of the longest bars and their labels.
    axes.set_xlim(0, max([150.0] + [percent * 1.5 for _, _, percent in bars]))
    axes.set_yticks(range(len(labels)))
    axes.set_yticklabels(labels)
    axes.set_ylim(len(labels) - 0.5, -0.9)  # the first row on top, room for its label
    axes.set_xlabel(say("% of the copy ceiling = GB/s / GB/s of a device-to-device copy, same run",
                        "% du plafond de copie = GB/s / GB/s d'une copie sur le GPU, même exécution"))
    title(axes, say("Exercises 09-15: memory-bound kernels against the copy ceiling",
                       "Exercices 09-15 : kernels limités par la mémoire, face au plafond de copie"))
    axes.grid(True, axis="x", alpha=0.3)
    axes.legend(loc="lower right")
    programs = ", ".join(sorted({program_of(e) for e, *_ in CEILING_BARS}))
    if seeds:
        programs += ", tools/course report-seeds"
    save_figure(figure, path, context.stamp(programs, say))
    return ("Each memory-bound kernel's GB/s = (bytes read + bytes written) / kernel time, as a "
            "share of the copy ceiling measured in the same process" +
            (", with the seed labs' Numba and CuPy versions of the same kernels where they ran "
             "(their share: of the copy ceiling of the report's device probe, same run)."
             if seeds else "."))


def figure_14(plt, say, context, tables, path, seeds):
    exercise = tables.get("14_atomics_histogram", {})
    inputs = [(name, exercise.get(name)) for name in ("uniform", "skewed")]
    if not any(table and table.rows for _, table in inputs):
        raise FigureMissing("no data: exercise 14's demo did not run or wrote no rows")
    versions = [("global atomics", say("naive: global atomics", "naïf : atomiques globales")),
                ("shared memory", say("privatised: shared memory", "privatisé : mémoire partagée")),
                ("CUB", "CUB HistogramEven")]
    seed_rows = seeds.records() if seeds else []
    series = []  # (label, [GB/s on uniform, GB/s on skewed])
    for prefix, label in versions:
        values = []
        for name, table in inputs:
            row = table.find(prefix) if table else None
            values.append(row["gbps"] if row and isinstance(row.get("gbps"), (int, float)) else 0)
        series.append((label, values))
    for system in ("Numba", "CuPy"):
        for kind, label in (("global", say("naive", "naïf")), ("shared", say("privatised", "privatisé")),
                            ("library", say("library", "(bibliothèque)"))):
            values = []
            for name, _ in inputs:
                found = [r for r in seed_rows if r["key"] == f"histogram_{name}_{kind}" and r["system"] == system]
                values.append(found[0]["gbps"] if found and isinstance(found[0].get("gbps"), (int, float)) else 0)
            if any(values):
                series.append((f"{system} {label}", values))
    figure, axes = new_figure(plt, say)
    width = 0.8 / len(series)
    hatches = (None, "//", "..", "xx", "\\\\", "++")
    for s, (label, values) in enumerate(series):
        positions = [i + (s - (len(series) - 1) / 2) * width for i in range(len(inputs))]
        bars = axes.bar(positions, [v if v > 0 else float("nan") for v in values], width=width, label=label,
                        hatch=hatches[s % len(hatches)], edgecolor="white")
        for bar, value in zip(bars, values):
            if value > 0:
                note(axes, say.number(value), (bar.get_x() + bar.get_width() / 2, value),
                     textcoords="offset points", xytext=(0, 3), ha="center", va="bottom")
    axes.set_xticks(range(len(inputs)))
    axes.set_xticklabels([say("uniformly spread values", "valeurs uniformément réparties"),
                          say("every value in one bin", "toutes les valeurs dans une classe")])
    axes.set_yscale("log")
    axes.set_ylabel(say("GB/s = 4 B x n / time", "GB/s = 4 B x n / temps"))
    title(axes, say("Exercise 14: naive against privatised histograms (log scale)",
                       "Exercice 14 : histogrammes naïfs contre privatisés (échelle log)"))
    axes.grid(True, axis="y", which="both", alpha=0.3)
    axes.legend(loc="upper center", ncol=3 if len(series) > 4 else 2)
    axes.set_ylim(top=axes.get_ylim()[1] * 60)  # room for the legend above the bars
    save_figure(figure, path, context.stamp(program_of("14_atomics_histogram") +
                                            (", tools/course report-seeds" if len(series) > 3 else ""), say))
    return ("GB/s = 4 B x n / time of each histogram of 16M floats in 256 bins, on uniform "
            "input and with every value in one bin (every atomic on one address).")


def measured(value):
    return isinstance(value, (int, float)) and value > 0


def row_label(label, say):
    """A row label the demo wrote, in the figure's language."""
    return say(str(label), FRENCH_ROW_LABELS.get(str(label), str(label)))


def bar_rows(axes, labels, values, notes, colours):
    """Horizontal bars, top to bottom, each with its note at its end."""
    bars = axes.barh(range(len(values)), values, color=colours)
    for bar, text in zip(bars, notes):
        note(axes, text, (bar.get_width(), bar.get_y() + bar.get_height() / 2), textcoords="offset points",
             xytext=(4, 0), va="center")
    axes.set_yticks(range(len(values)))
    axes.set_yticklabels(labels)
    axes.invert_yaxis()


def figure_21(plt, say, context, tables, path):
    table = need(tables.get("21_tiled_sgemm", {}).get("sgemm"), "exercise 21's demo")
    rows = [r for r in table.records() if measured(r.get("gflops"))]
    if not rows:
        raise FigureMissing("no data: exercise 21's demo timed no kernel")
    figure, axes = new_figure(plt, say)
    notes = [say.number(r["gflops"]) + (say(" ({} of cuBLAS)", " ({} de cuBLAS)").format(say.percent(r["cublas_percent"]))
                                        if measured(r.get("cublas_percent")) else "") for r in rows]
    # The student's steps in blue; the course's yardsticks (the naive kernel, cuBLAS) in grey.
    bar_rows(axes, [row_label(r["method"], say) for r in rows], [r["gflops"] for r in rows], notes,
             ["C0" if str(r["method"])[:1].isdigit() else "C7" for r in rows])
    peak = context.value("FP32, measured")
    label = say(*GFLOPS_FORMULA)
    if measured(peak):
        # Said under the axis: a legend would cover the notes of the longest bars.
        axes.axvline(peak, color="black", linestyle="--", linewidth=1)
        value = say.number(peak / 1e3, 1)
        label += say(f"\ndashed: the FP32 throughput measured, {value} TFLOP/s",
                     f"\ntirets : le débit FP32 mesuré, {value} TFLOP/s")
    axes.set_xlim(0, max([r["gflops"] for r in rows] + ([peak] if measured(peak) else [])) * 1.35)
    axes.set_xlabel(label)
    title(axes, say(f"Exercise 21: SGEMM step by step against cuBLAS ({table.title})",
                       f"Exercice 21 : SGEMM étape par étape contre cuBLAS ({table.title})"))
    axes.grid(True, axis="x", alpha=0.3)
    save_figure(figure, path, context.stamp(program_of("21_tiled_sgemm"), say))
    return ("GFLOP/s = 2 m n k / time of each step of the tiled SGEMM, with its share of cuBLAS's "
            "throughput measured in the same run.")


def figure_26(plt, say, context, tables, path):
    table = need(tables.get("26_tensor_core_gemm", {}).get("hgemm"), "exercise 26's demo")
    rows = [r for r in table.records() if measured(r.get("tflops"))]
    if not rows:
        raise FigureMissing("no data: exercise 26's demo timed no kernel")
    figure, axes = new_figure(plt, say)
    notes = [say.number(r["tflops"]) + (say(" ({} of cuBLAS)", " ({} de cuBLAS)").format(say.percent(r["cublas_percent"]))
                                        if measured(r.get("cublas_percent")) else "") for r in rows]
    # The student's steps in blue; cuBLAS (its tensor-core GEMM, and SGEMM for scale) in grey.
    bar_rows(axes, [row_label(r["method"], say) for r in rows], [r["tflops"] for r in rows], notes,
             ["C0" if str(r["method"])[:1].isdigit() else "C7" for r in rows])
    # Room on the right for the longest bar's note.
    axes.set_xlim(0, max(r["tflops"] for r in rows) * 1.7)
    axes.set_xlabel(say("TFLOP/s = 2 m n k / time\nFP16 inputs, FP32 sums; SGEMM: FP32 throughout",
                        "TFLOP/s = 2 m n k / temps\nentrées FP16, sommes FP32 ; SGEMM : tout en FP32"))
    # The size alone from the table's title ("4096^3, FP16 in, FP32 sums"): the types are
    # under the axis, in the figure's language.
    size = table.title.split(",")[0]
    title(axes, say(f"Exercise 26: tensor cores step by step against cuBLAS ({size})",
                    f"Exercice 26 : tensor cores étape par étape contre cuBLAS ({size})"))
    axes.grid(True, axis="x", alpha=0.3)
    save_figure(figure, path, context.stamp(program_of("26_tensor_core_gemm"), say))
    return ("TFLOP/s = 2 m n k / time of each step of the tensor-core GEMM, with its share of "
            "cublasGemmEx's throughput measured in the same run, and cuBLAS SGEMM for scale.")


def figure_22(plt, say, context, tables, path):
    table = need(tables.get("22_transpose", {}).get("transpose_8192"), "exercise 22's demo")
    rows = [r for r in table.records() if measured(r.get("gbps"))]
    if not rows:
        raise FigureMissing("no data: exercise 22's demo timed no kernel")
    figure, axes = new_figure(plt, say)
    notes = [f"{say.number(r['gbps'])} GB/s" + (say(" ({} of cudaMemcpy)", " ({} de cudaMemcpy)").format(
             say.percent(r["ceiling_percent"])) if measured(r.get("ceiling_percent")) else "") for r in rows]
    bar_rows(axes, [row_label(r["kernel"], say) for r in rows], [r["gbps"] for r in rows], notes,
             ["C0" if str(r["kernel"])[:1].isdigit() else "C7" for r in rows])
    ceiling = next((r["ceiling_gbps"] for r in rows if measured(r.get("ceiling_gbps"))), None)
    label = say("GB/s = 2 x 4 B x rows x cols / time", "GB/s = 2 x 4 B x lignes x colonnes / temps")
    if ceiling:
        axes.axvline(ceiling, color="black", linestyle="--", linewidth=1)
        value = say.number(ceiling)
        label += say(f"\ndashed: cudaMemcpy, same run, {value} GB/s",
                     f"\ntirets : cudaMemcpy, même exécution, {value} GB/s")
    axes.set_xlim(0, max([r["gbps"] for r in rows] + ([ceiling] if ceiling else [])) * 1.45)
    axes.set_xlabel(label)
    title(axes, say("Exercise 22: transposes of 8192 x 8192, against a copy",
                       "Exercice 22 : transpositions de 8192 x 8192, face à une copie"))
    axes.grid(True, axis="x", alpha=0.3)
    save_figure(figure, path, context.stamp(program_of("22_transpose"), say))
    return ("GB/s of each transpose and of a copy kernel with the same tiles, against a "
            "device-to-device cudaMemcpy timed in the same run.")


def figure_23(plt, say, context, tables, path):
    table = need(tables.get("23_stream_overlap", {}).get("pipeline_shapes"), "exercise 23's demo")
    rows = [r for r in table.records() if measured(r.get("speedup")) and measured(r.get("chunks"))]
    if not rows:
        raise FigureMissing("no data: exercise 23's demo timed no pipeline")
    figure, axes = new_figure(plt, say)
    # Series often coincide (4 and 8 streams): each has its own marker and dashes, and each
    # later one smaller markers, so that one drawn on another still shows both.
    markers, dashes = "osD^v", ("-", "--", "-.", ":")
    for s, streams in enumerate(sorted({r["streams"] for r in rows})):
        line = sorted((r["chunks"], r["speedup"]) for r in rows if r["streams"] == streams)
        axes.plot(*zip(*line), marker=markers[s % len(markers)], linestyle=dashes[s % len(dashes)],
                  markersize=max(12 - 2 * s, 5), color=f"C{s}", label=f"{streams} stream{'s' if streams != 1 else ''}")
    # speedup x over_bound = serial / bound: the most the overlap can give, the same on every row.
    bounds = [r["speedup"] * r["over_bound"] for r in rows if measured(r.get("over_bound"))]
    if bounds:
        best = say.number(sum(bounds) / len(bounds), 2)
        axes.axhline(sum(bounds) / len(bounds), color="black", linestyle="--", linewidth=1,
                     label=say(f"serial / max(copy time, kernel): {best}x",
                               f"série / max(temps de copie, kernel) : {best}x"))
    axes.axhline(1.0, color="grey", linestyle=":", linewidth=1)
    chunks = sorted({r["chunks"] for r in rows})
    axes.set_xscale("log", base=2)
    axes.set_xticks(chunks)
    axes.set_xticklabels([str(c) for c in chunks])
    axes.minorticks_off()
    axes.set_ylim(0, max([r["speedup"] for r in rows] + bounds) * 1.45)
    axes.set_xlabel(say("chunks the arrays are cut into", "morceaux par tableau"))
    axes.set_ylabel(say("speed-up over serial", "accélération sur la série"))
    title(axes, say("Exercise 23: copies and kernels overlapped, by chunks and streams",
                       "Exercice 23 : copies et kernels en recouvrement, selon morceaux et streams"))
    axes.grid(True, alpha=0.3)
    axes.legend(loc="upper left", ncol=3)
    save_figure(figure, path, context.stamp(program_of("23_stream_overlap"), say))
    return ("The pipeline's speed-up over copy in, kernel, copy back one after the other, by the "
            "number of chunks and of streams, against the bound max(copy time, kernel time).")


def draw_figures(context, tables, seeds, figures_dir):
    """{file: caption} of the figures drawn and {file: why} of those that could not be, by
    their English files' names (each drawn in every language of LANGUAGES)."""
    drawn, missing = {}, {}
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        reason = "matplotlib is not installed (Debian: apt-get install python3-matplotlib)"
        return drawn, {name: reason for name in FIGURES}
    os.makedirs(figures_dir, exist_ok=True)
    makers = {
        "04_cpu_gpu_crossover.png": lambda say, p: figure_04(plt, say, context, tables, p),
        "05_block_shapes.png": lambda say, p: figure_05(plt, say, context, tables, p),
        "06_sgemm_gflops.png": lambda say, p: figure_06(plt, say, context, tables, p),
        "09_15_copy_ceiling_share.png": lambda say, p: figure_09_15(plt, say, context, tables, p, seeds),
        "14_histogram.png": lambda say, p: figure_14(plt, say, context, tables, p, seeds),
        "21_sgemm_steps.png": lambda say, p: figure_21(plt, say, context, tables, p),
        "22_transpose.png": lambda say, p: figure_22(plt, say, context, tables, p),
        "23_stream_overlap.png": lambda say, p: figure_23(plt, say, context, tables, p),
        "26_tensor_core_steps.png": lambda say, p: figure_26(plt, say, context, tables, p),
    }
    for name in FIGURES:
        paths = {lang: os.path.join(figures_dir, figure_file(name, lang)) for lang in LANGUAGES}
        for path in paths.values():
            for old in (path, record_file(path)):
                if os.path.exists(old):
                    os.remove(old)  # never leave an older run's figure beside this run's tables
        try:
            for lang, path in paths.items():
                caption = makers[name](Say(lang), path)
                plt.close("all")
                with open(record_file(path), encoding="utf-8") as handle:
                    problems = legibility_problems(json.load(handle))
                if problems:
                    # A figure the slides could not show legibly is not left for them to copy.
                    raise FigureMissing(f"{os.path.basename(path)} not legible on a slide: " + "; ".join(problems))
                if lang == "en":
                    drawn[name] = caption
        except FigureMissing as reason:
            # One language without the other would leave the decks of the other with an old run's.
            for path in paths.values():
                for old in (path, record_file(path)):
                    if os.path.exists(old):
                        os.remove(old)
            drawn.pop(name, None)
            missing[name] = str(reason)
        finally:
            plt.close("all")
    return drawn, missing


# --- the seeds side by side ---------------------------------------------------------------

# The C++ row each seed kernel is set against: (exercise, table, row prefix, what).
SEED_COUNTERPARTS = {
    "gaussian_pdf": ("09_elementwise_kernels", "gaussian_*", "float32 kernel", "09 Gaussian pdf, float32"),
    "hidden_layer": ("11_hidden_layer", "kernels_*", "fused kernel", "11 hidden layer, fused"),
    "hidden_layer_unfused": ("11_hidden_layer", "kernels_*", "three kernels", "11 hidden layer, unfused"),
    "row_norms_4000000x3": ("12_row_norms", "row_norms", "4000000 x 3", "12 row norms, 4M x 3"),
    "row_norms_1000000x100": ("12_row_norms", "row_norms", "1000000 x 100", "12 row norms, 1M x 100"),
    "hypot_lab_grid": ("13_grid_stride_loops", "hypot_*", "the lab's fixed grid", "13 hypot, the lab's grid"),
    "hypot": ("13_grid_stride_loops", "hypot_*", "occupancy-sized grid", "13 hypot, grid-stride"),
    "histogram_uniform_global": ("14_atomics_histogram", "uniform", "global atomics", "14 histogram uniform, naive"),
    "histogram_uniform_shared": ("14_atomics_histogram", "uniform", "shared memory", "14 histogram uniform, privatised"),
    "histogram_skewed_global": ("14_atomics_histogram", "skewed", "global atomics", "14 histogram one bin, naive"),
    "histogram_skewed_shared": ("14_atomics_histogram", "skewed", "shared memory", "14 histogram one bin, privatised"),
    "histogram_uniform_library": ("14_atomics_histogram", "uniform", "CUB", "14 histogram uniform, library"),
    "histogram_skewed_library": ("14_atomics_histogram", "skewed", "CUB", "14 histogram one bin, library"),
    "monte_carlo_pi": ("15_monte_carlo_pi", "estimates", "GPU, cuRAND", "15 Monte Carlo pi"),
}


def size_of(table, table_name, row):
    """The n a C++ row measured: its samples, the size in its table's name
    (gaussian_67108864), or the elements of a label that starts "rows x columns"; None if
    it says none."""
    if row.get("samples"):
        return row["samples"]
    size = report_data.number_suffix(table.name, table_name[:-1]) if table_name.endswith("*") else None
    if size:
        return size
    shape = re.match(r"(\d+) x (\d+)\b", str(row[table.keys[0]]))  # "4000000 x 3 (1 lane per row)"
    return int(shape.group(1)) * int(shape.group(2)) if shape else None


def counterpart(table, table_name, prefix, n):
    """The C++ row set against seeds measured on n: where the table has a row per size
    (15's estimates), the one at that n; else its one row of that prefix."""
    rows = table.find_all(prefix)
    at_n = [r for r in rows if size_of(table, table_name, r) == n]
    return (at_n or rows or [None])[0]


@dataclasses.dataclass
class Comparison:
    """The seeds side by side with the course's C++, and what a reader must see at once."""
    table: report_data.Table
    peer_leads: list        # "what (system: x0.8)" where a peer is faster than the C++
    unequal: list           # "what: C++ n = a, Numba n = b" where the sizes differ


def side_by_side(tables, seeds, context):
    """Each seed measurement beside the course's C++ one of the same size, with the best
    peer's time over the C++'s ("x best peer": above 1, the course leads)."""
    columns = report_data.measurement_columns("kernel") + [
        report_data.column("over_best_peer", "x best peer", precision=2)]
    rows, peer_leads, unequal = [], [], []
    seed_rows = seeds.records() if seeds else []
    for key, (exercise, table_name, prefix, what) in SEED_COUNTERPARTS.items():
        mine = [r for r in seed_rows if r["key"] == key]
        if not mine:
            continue
        table = table_for(tables.get(exercise, {}), table_name)
        n = mine[0]["n"]
        row = counterpart(table, table_name, prefix, n) if table else None
        sizes = {"C++": size_of(table, table_name, row)} if row else {}
        sizes.update((seed["system"], seed["n"]) for seed in mine)
        # A C++ table that does not say its n (14's histograms) is compared on trust.
        if len({size for size in sizes.values() if size}) > 1:
            unequal.append(f"{what}: " + ", ".join(f"{system} n = {size}"
                                                   for system, size in sizes.items() if size))
        if row:
            timed = [seed for seed in mine if seed.get("ms")]
            best = min(timed, key=lambda seed: seed["ms"]) if timed else None
            over = best["ms"] / row["ms"] if best and row.get("ms") else None
            if over is not None and over < 1.0:
                peer_leads.append(f"{what} ({best['system']}: the C++ takes {1 / over:.2f}x its time)")
            rows.append([what, "C++ (course)", f"{program_of(exercise)}: {row[table.keys[0]]}",
                         sizes["C++"], row.get("ms"), row.get("gbps"), row.get("ceiling_percent"),
                         row.get("samples_per_s"), over])
        for seed in mine:
            rows.append([what, seed["system"], seed["how"], seed["n"], seed["ms"], seed.get("gbps"),
                         seed_share(seed, context), seed.get("samples_per_s"), None])
    table = report_data.Table("side_by_side", "The course's C++ beside the seed labs' Numba and CuPy",
                              columns, rows)
    return Comparison(table, peer_leads, unequal)


def comparison_sentences(comparison):
    """What the side-by-side table says at once: who leads, and rows that compare unlike."""
    if not comparison.table.rows:
        return []
    sentences = []
    if comparison.peer_leads:
        sentences.append("A peer leads the course's C++ in: " + "; ".join(comparison.peer_leads) + ".")
    else:
        sentences.append("The course's C++ leads every row that a peer measured.")
    if comparison.unequal:
        sentences.append("Not comparable, measured on different sizes: " + "; ".join(comparison.unequal) + ".")
    return sentences


# --- pages -----------------------------------------------------------------------------------

CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; border: 1px solid #ddd; }
.missing { color: #a00; } .note { color: #555; } pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
"""


def is_numeric_column(column):
    return column.get("kind") in ("integer", "number", "scientific", "right_text")


def html_table(table):
    columns, rows = table.shown()
    head = "".join(f"<th>{html.escape(c['heading'] or c['key'])}</th>" for c in columns)
    body = []
    for cells in rows:
        body.append("<tr>" + "".join(
            f"<td class=\"n\">{html.escape(cell)}</td>" if is_numeric_column(column)
            else f"<td>{html.escape(cell)}</td>" for cell, column in zip(cells, columns)) + "</tr>")
    return (f"<table><caption>{html.escape(table.title)}</caption><tr>{head}</tr>"
            + "".join(body) + "</table>")


def markdown_cell(text):
    return text.replace("|", "\\|")


def markdown_table(table):
    columns, rows = table.shown()
    lines = [f"**{markdown_cell(table.title)}**", "",
             "| " + " | ".join(markdown_cell(c["heading"] or c["key"]) for c in columns) + " |",
             "|" + "|".join("---:" if is_numeric_column(c) else "---" for c in columns) + "|"]
    for cells in rows:
        lines.append("| " + " | ".join(markdown_cell(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


FIGURE_OF_EXERCISE = {"04": "04_cpu_gpu_crossover.png", "05": "05_block_shapes.png",
                      "06": "06_sgemm_gflops.png", "14": "14_histogram.png",
                      "21": "21_sgemm_steps.png", "22": "22_transpose.png", "23": "23_stream_overlap.png",
                      "26": "26_tensor_core_steps.png"}


class Page:
    """The report's content once, written as HTML and as Markdown."""

    def __init__(self):
        self.html, self.markdown = [], []

    def heading(self, level, text, anchor=None):
        anchor_attribute = f' id="{anchor}"' if anchor else ""
        self.html.append(f"<h{level}{anchor_attribute}>{html.escape(text)}</h{level}>")
        self.markdown.append("#" * level + " " + text + "\n")

    def paragraph(self, text, css_class=None):
        attribute = f' class="{css_class}"' if css_class else ""
        self.html.append(f"<p{attribute}>{html.escape(text)}</p>")
        self.markdown.append(text + "\n")

    def table(self, table):
        self.html.append(html_table(table))
        self.markdown.append(markdown_table(table))

    def figure(self, name, caption):
        self.html.append(f'<figure><img src="figures/{name}" alt="{html.escape(caption)}">'
                         f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        self.markdown.append(f"![{caption}](figures/{name})\n\n*{caption}*\n")

    def missing_figure(self, name, why):
        self.html.append(f'<p class="missing">Figure {html.escape(name)} missing: {html.escape(why)}</p>')
        self.markdown.append(f"**Figure {name} missing:** {why}\n")

    def output(self, title, text):
        self.html.append(f"<details><summary>{html.escape(title)}</summary><pre>{html.escape(text)}</pre></details>")
        self.markdown.append(f"<details><summary>{title}</summary>\n\n```\n{text}\n```\n</details>\n")


def run_table(context):
    columns = [report_data.column("exercise", "exercise", "text"),
               report_data.column("program", "program", "text"),
               report_data.column("status", "exit status", "integer"),
               report_data.column("seconds", "seconds", precision=1),
               report_data.column("tables", "tables", "integer")]
    rows = [[e["id"], e.get("program", ""), e.get("status"), e.get("seconds"), e.get("tables")]
            for e in context.run.get("exercises", [])]
    return report_data.Table("run", "What ran, in order", columns, rows)


def seeds_sentences(context):
    sentences = []
    for system in ("numba", "cupy"):
        status = context.seeds_status.get(system)
        if status is None:
            sentences.append(f"{system}: not tried in this run.")
        elif status.get("available"):
            sentences.append(f"{status.get('name', system)} {status.get('version', '')}: measured.")
        else:
            sentences.append(f"{status.get('name', system)}: not importable ({status.get('reason', '')}), "
                             "so the report shows the C++ alone.")
    return sentences


def build_page(context, tables, seeds, drawn, missing):
    page = Page()
    page.heading(1, "CUDA course: benchmark report")
    page.paragraph(f"{context.device_line()}. Made by `{context.command()}`"
                   + (f", from {context.run.get('started', '')} to {context.run.get('finished', '')}"
                      if context.run.get("started") else "") + ".")
    if context.run.get("incomplete"):
        page.paragraph("INCOMPLETE: " + context.run["incomplete"], "missing")
    page.heading(2, "The device and its ceilings", "device")
    if context.device:
        page.table(context.device)
    else:
        page.paragraph("No device table: the device probe did not run.", "missing")
    if context.run.get("exercises"):
        page.table(run_table(context))

    for exercise in shown_exercises(context):
        exercise_tables = tables.get(exercise, {})
        page.heading(2, exercise_title(exercise), exercise)
        explanation = EXPLANATIONS.get(exercise[:2])
        if explanation:
            page.paragraph(explanation, "note")
        figure = FIGURE_OF_EXERCISE.get(exercise[:2])
        if figure in drawn:
            page.figure(figure, drawn[figure])
        elif figure in missing:
            page.missing_figure(figure, missing[figure])
        if not exercise_tables:
            page.paragraph("No table: the demo wrote none (its output below says why).", "missing")
        for table in exercise_tables.values():
            page.table(table)
        log = os.path.join(context.data_dir, "logs", exercise + ".txt")
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as handle:
                page.output(f"the demo's whole output ({program_of(exercise)})", handle.read())

    page.heading(2, "Exercises 09-15 against the copy ceiling, beside the seed labs", "ceiling")
    for sentence in seeds_sentences(context):
        page.paragraph(sentence, "note")
    name = "09_15_copy_ceiling_share.png"
    if name in drawn:
        page.figure(name, drawn[name])
    elif name in missing:
        page.missing_figure(name, missing[name])
    comparison = side_by_side(tables, seeds, context)
    for sentence in comparison_sentences(comparison):
        page.paragraph(sentence, "missing" if sentence.startswith(("A peer", "Not comparable")) else "note")
    if comparison.table.rows:
        page.table(comparison.table)
    return page


def write_pages(page, out_dir):
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as handle:
        handle.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<title>CUDA course: benchmark report</title>"
                     f"<style>{CSS}</style></head><body>\n" + "\n".join(page.html) + "\n</body></html>\n")
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(page.markdown))


def render(data_dir, out_dir):
    """Writes the report; returns {figure: why} of the figures that could not be drawn."""
    context = Context(data_dir)
    tables = {exercise: report_data.read_tables(os.path.join(data_dir, exercise))
              for exercise in exercise_folders(data_dir)}
    seeds = report_data.read_tables(os.path.join(data_dir, "seeds")).get("seeds")
    os.makedirs(out_dir, exist_ok=True)
    drawn, missing = draw_figures(context, tables, seeds, os.path.join(out_dir, "figures"))
    write_pages(build_page(context, tables, seeds, drawn, missing), out_dir)
    return missing


# --- which Python draws -------------------------------------------------------------------

def main(argv):
    if len(argv) != 3 or argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    data_dir, out_dir = argv[1], argv[2]
    if not os.path.isdir(data_dir):
        print(f"report_render: no data folder {data_dir}", file=sys.stderr)
        return 2
    missing = render(data_dir, out_dir)
    for name, why in missing.items():
        print(f"report: figure {name} missing: {why}", file=sys.stderr)
    print(f"report: {os.path.join(out_dir, 'index.html')} and report.md written, "
          f"{len(FIGURES) - len(missing)} of {len(FIGURES)} figures in {os.path.join(out_dir, 'figures')}")
    return 1 if missing else 0
