"""The optional speed credit (tools/course grade --speed-credit POINTS): bonus points for speed,
continuous where the speed cases are pass or fail, and kept apart from the grade.

Every bar a graded exercise's timed cases judged earns POINTS x min(1, ratio), the ratio
being the student's figure over the reference solution's worst figure on the same GPU
(measured / reference for an 'at_least' bar, reference / measured for an 'at_most' one),
as CS149 scales its performance points by Tref / T. The reference is the site bars' (make
calibrate writes calibration/site-bars.tsv: each bar's reference figure on the GPU it names,
suite/calibrate.py), used only where the check ran on that GPU, as the checks use the site
bars themselves: with no site bars, or another GPU, no credit, and the record says why.

Credit goes to verified work only: a bar whose case failed (wrong values, timed calls that
skipped their work, a bar missed) earns none, and neither does a figure that is not a
positive number. The exercise's maximum is POINTS per bar of its site bars, the same for
every student graded on that GPU, whatever their code reached.

The grade never includes it: the result file holds it beside the score (SCHEMA.md), and
every report shows it apart (reports.py, class_report.py). POINTS is fixed at a results
folder's first grading, as the seed is (engine.grading_settings).
Python 3 standard library only.
"""
import math

from course_tools.suite import calibrate

NEEDS_CALIBRATION = "speed credit needs make calibrate on this GPU"
DIGITS = 2  # a bar's credit, rounded: 3.14 of 5 points reads better than 3.1415926


def bar_credit(points, direction, measured, reference):
    """The credit of one bar: `points` x min(1, ratio to the reference); 0 for a figure or a
    reference that is not a positive number (nothing measured, or a broken record)."""
    if not all(isinstance(value, (int, float)) and math.isfinite(value) and value > 0
               for value in (measured, reference)):
        return 0
    ratio = measured / reference if direction == "at_least" else reference / measured
    return round(points * min(1.0, ratio), DIGITS)


class SiteReferences:
    """The reference figures of a site bars' file (calibrate.read), for the credit; a grading
    without site bars has none, and says so."""

    def __init__(self, path):
        self.gpu, self.bars = "", {}
        if path:
            self.gpu, self.bars, _ = calibrate.read(path)  # the grader refused a file with problems

    def bars_of(self, number):
        """{(case, figure): calibrate.SiteBar} of exercise `number`."""
        return {(case, figure): bar for (own, case, figure), bar in self.bars.items() if own == number}

    def why_none(self, check_gpu):
        """Why no credit is given on `check_gpu` ("": credit applies; None: the GPU is unknown,
        as for an exercise whose check did not run, and judged by the file alone)."""
        if not self.gpu:
            return f"{NEEDS_CALIBRATION} (this grading has no site bars)"
        if check_gpu and check_gpu != self.gpu:
            return f"{NEEDS_CALIBRATION} (graded on {check_gpu}, the site bars were measured on {self.gpu})"
        return ""


def exercise_credit(record, points, references, check_gpu):
    """The credit of one exercise's record (engine.py's: its case items carry `speed`) checked
    on `check_gpu`: {"score", "max_score", "note"}, each bar's credit written into its speed
    entry ("credit", "site_reference")."""
    why = references.why_none(check_gpu)
    if why:
        return {"score": 0, "max_score": 0, "note": why}
    bars = references.bars_of(record.get("number", ""))
    score = 0
    for item in record.get("items", []) if record.get("status") == "graded" else []:
        for speed in item.get("speed") or []:
            site = bars.get((item["name"], speed.get("figure")))
            if site is None or site.kind != speed.get("direction"):
                continue
            credit = bar_credit(points, site.kind, speed.get("measured"), site.worst) if item["passed"] else 0
            speed.update(site_reference=site.worst, credit=credit)
            score += credit
    return {"score": round(score, DIGITS), "max_score": round(points * len(bars), DIGITS), "note": ""}


def add_credit(result, points, references):
    """Writes the credit into a result (engine.py's, its exercises graded): each exercise's
    "speed_credit", and the result's {"points_per_bar", "score", "max_score", "note"}, whose
    note says once each distinct reason for no credit. An exercise whose check did not run
    (build failed, missing) is judged on the GPU the submission's other checks ran on."""
    gpus = {exercise["gpu"] for exercise in result["exercises"] if exercise.get("gpu")}
    submission_gpu = gpus.pop() if len(gpus) == 1 else None
    credits = []
    for exercise in result["exercises"]:
        exercise["speed_credit"] = exercise_credit(exercise, points, references,
                                                   exercise.get("gpu") or submission_gpu)
        credits.append(exercise["speed_credit"])
    notes = list(dict.fromkeys(credit["note"] for credit in credits if credit["note"]))
    result["speed_credit"] = {"points_per_bar": points, "score": round(sum(c["score"] for c in credits), DIGITS),
                              "max_score": round(sum(c["max_score"] for c in credits), DIGITS),
                              "note": "; ".join(notes)}
