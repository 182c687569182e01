"""The class report's plots (tools/course_tools/grading/class_report.py): one small histogram of the
scores per exercise, drawn with matplotlib as SVG text that the page embeds.

matplotlib is the class report's own dependency (Debian: python3-matplotlib), and the
Python that runs the grader may lack it while another on the machine has it (Debian's
/usr/bin/python3 beside a pyenv or a venv): draw() then runs this module with that one,
the scores on its standard input as JSON and the SVGs back on its standard output.
Where no Python has it, the page shows its tables alone and says why.

The plots hold scores and exercise names, never a student's name.

    python3 tools/course class-plots < scores.json > plots.json
"""
import json
import math
import statistics
import os
import subprocess
import sys

from course_tools.student import prerequisites  # python_with_matplotlib: the benchmark report's search too
from course_tools.student.paths import LAUNCHER

MISSING = "matplotlib is not installed for any Python here (Debian: apt-get install python3-matplotlib)"
WIDTH_INCHES, HEIGHT_INCHES = 3.6, 1.9
MOST_BARS = 24        # wider bins beyond this, so that a 70-point exercise stays readable
DRAW_TIMEOUT = 300    # seconds: a first import of matplotlib builds its font cache


def bins_of(max_score):
    """Bin edges over [0, max_score]: one per point up to MOST_BARS points, wider beyond."""
    top = max(max_score, 1)
    width = max(1, math.ceil(top / MOST_BARS))
    edges = [value - 0.5 for value in range(0, int(math.ceil(top)) + 1, width)]
    if edges[-1] < top + 0.5:
        edges.append(edges[-1] + width)
    return edges


def draw_here(distributions):
    """{exercise id: SVG text} drawn with this Python's matplotlib (ImportError without)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # SVG text the browser sets (small), with ids and no date that repeat from run to run.
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "class-report",
                                "font.size": 8, "font.family": "sans-serif"})
    drawn = {}
    for entry in distributions:
        figure, axes = plt.subplots(figsize=(WIDTH_INCHES, HEIGHT_INCHES))
        try:
            scores, max_score = entry["scores"], entry["max_score"]
            full = [score for score in scores if score >= max_score]
            partial = [score for score in scores if score < max_score]
            edges = bins_of(max_score)
            axes.hist([partial, full], bins=edges, stacked=True, color=["#4a78b5", "#2e8b57"],
                      label=["below full marks", "full marks"], edgecolor="white", linewidth=0.5)
            axes.set_xlim(edges[0], edges[-1])
            axes.set_xlabel(f"points (of {max_score:g})")
            axes.set_ylabel("submissions")
            axes.yaxis.get_major_locator().set_params(integer=True)
            for side in ("top", "right"):
                axes.spines[side].set_visible(False)
            axes.set_title(f"{entry['id']}: {len(scores)} graded, mean {statistics.mean(scores):.3g}, "
                           f"median {statistics.median(scores):g}", fontsize=8)
            if full and partial:
                axes.legend(fontsize=7, frameon=False, loc="best")
            figure.tight_layout(pad=0.3)
            out = _svg(figure)
        finally:
            plt.close(figure)
        drawn[entry["id"]] = out
    return drawn


def _svg(figure):
    import io
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # no XML declaration or doctype: it goes in a data: URL


def draw(distributions, pythons=None):
    """({exercise id: SVG text}, None), or ({}, why there are no plots). `pythons`: the
    interpreters to try when this one lacks matplotlib (default: the prerequisites' search:
    python3 on PATH, then Debian's /usr/bin/python3)."""
    if not distributions:
        return {}, None
    try:
        return draw_here(distributions), None
    except ImportError:
        pass
    except Exception as error:  # a plot never stops the reports: the page says why it is absent
        return {}, f"matplotlib could not draw them ({type(error).__name__}: {error})"
    if pythons is None:
        pythons = [python for python in (prerequisites.python_with_matplotlib(),) if python]
    others = [python for python in pythons if os.path.realpath(python) != os.path.realpath(sys.executable)]
    for python in others:
        try:
            done = subprocess.run([python, LAUNCHER, "class-plots"], input=json.dumps(distributions),
                                  capture_output=True, text=True, timeout=DRAW_TIMEOUT)
        except (OSError, subprocess.SubprocessError) as error:
            return {}, f"{python} could not draw them: {error}"
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return {}, f"{python} could not draw them: {last}"
        try:
            return json.loads(done.stdout), None
        except ValueError as error:
            return {}, f"{python} could not draw them: {error}"
    return {}, MISSING


def main(argv):
    try:
        print(json.dumps(draw_here(json.load(sys.stdin))))
    except ImportError as error:
        print(f"class_plots.py: {error}", file=sys.stderr)
        return 1
    return 0
