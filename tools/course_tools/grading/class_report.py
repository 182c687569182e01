"""The class report: what a class got right and wrong, in one page for the instructor,
RESULTS/class.html (and the same in class.md), rendered with the other reports from the
result files alone (reports.py reads and checks them, SCHEMA.md). Its sections, in order:

    not graded   first, in red: each entry of the class folder that is no submission
                 (a stray file, a 7z archive without 7-Zip: RESULTS/left_out.json), each
                 submission with no result, and each exercise not graded (unreadable,
                 grader error, skipped, incomplete, build failed, missing), with the reason
    warnings     in red: the warnings that may change a grade (a backup copy graded, a
                 file taken from an unexpected place, an archive unpacked from a folder,
                 a git working tree that differs from its last commit), by student
    exercises    per exercise: how many graded, mean, median, full marks, how many not
                 graded and why; a histogram of the scores each (class_plots.py)
    cases        every case's pass rate across the class, worst first, with what the
                 statement's cases table says it catches (statement_cases.py)
    hints        the hints the checks printed most often (the known mistakes), with the
                 students who got each, linked to their feedback pages
    leaderboard  each timed case's figures, best first, with the bar and the GPU
    speed credit each student's bonus for speed (--speed-credit), beside the grade and
                 never in it, or why there is none
    answers      the answers the students wrote to each statement's Questions
                 (answers.md, answers.fr.md), question by question
    similar code the pairs of submissions whose own code for an exercise is nearly the
                 same (similarity.py: what it compares, what it cannot see), each pair's
                 two files side by side, the skeleton's lines left out
    time         the grading time of each exercise, and the slowest submissions

The page is for the teaching team (it names students), and may go to people who must not
see the hidden cases: it never holds the grading seed, nor anything a hidden case
printed. A hidden case appears by its name and pass rate; a hint that only hidden cases
printed is counted, its text withheld (it may quote the case's inputs). Every
student-provided string (names, outputs) is cleaned and escaped as in the feedback pages.

Plots need matplotlib (Debian: python3-matplotlib), from this Python or another one here;
without it the page holds its tables alone and says so.
"""
import difflib
import html
import json
import os
import re
import statistics
import urllib.parse
from collections import namedtuple
from dataclasses import dataclass, field

from course_tools.authoring import statement_cases
from course_tools.grading import class_plots, rendering, reports, similarity
from course_tools.student.paths import ROOT

HTML_FILE, MARKDOWN_FILE = "class.html", "class.md"
LEADERBOARD_FILE = "leaderboard.html"   # the leaderboard alone, students by id: to project in class
NOT_GRADED_FILE = "not_graded.txt"   # student<TAB>reason, written by slurm/class_grading.py collect
LEFT_OUT_FILE = "left_out.json"      # the class folder's entries that are no submission (tools/course grade)
LEFT_OUT = "left out"
# A hint line of a check's report, in English or in French (a grading with --feedback-lang fr:
# "piste", then a no-break space before the colon).
HINT = re.compile(r"^\s*(?:hint|piste)\s*:\s*(.+?)\s*$", re.M)
NOT_RUN = "not run:"                 # a sanitizer item's output when the tool did not run (engine.py)
MOST_HINTS = 25
SLOWEST = 10
REASON_CHARS = 240
# The order of the not-graded list: what needs the instructor first.
URGENCY = ("unreadable", "error", "skipped", "incomplete", "build_failed", "missing")
NO_RESULT = "no result"
STATUS_WORDS = {"build_failed": "build failed", "error": "grader error", NO_RESULT: "no result",
                LEFT_OUT: "not graded"}


def status_word(status):
    return STATUS_WORDS.get(status, status)


def feedback_href(student):
    """The feedback page of a student, relative to class.html: a name is percent-encoded
    whole, so that '#', '?', '%' or '/'-free oddities stay part of the file name."""
    return "feedback/" + urllib.parse.quote(student, safe="") + ".html"


# ---------------------------------------------------------------------------------------
# Gathering the class

@dataclass
class CaseStat:
    exercise: str
    name: str
    kind: str
    hidden: bool = False
    passed: int = 0
    failed: int = 0
    not_run: int = 0
    description: str = ""

    @property
    def rate(self):
        total = self.passed + self.failed
        return self.passed / total if total else None


@dataclass
class HintStat:
    exercise: str
    text: str
    students: list = field(default_factory=list)
    times: int = 0
    cases: list = field(default_factory=list)
    visible: bool = False   # printed by a case whose output the page may quote


def hint_sources(exercise):
    """(case name, hidden, output) of every failed item of a graded exercise that printed
    something. A sanitizer item's output holds each flagged case's report under a
    'name:' line: each is attributed to its case, so a hidden case's stays hidden. What
    comes before the first such line (a tool that could not complete the check quotes the
    check's whole output) counts as hidden wherever the exercise has hidden cases."""
    items = exercise.get("items", [])
    hidden_names = {item["name"] for item in items if item.get("hidden")}
    known = {item["name"] for item in items if item.get("kind", "case") == "case"}
    for item in items:
        output = reports.clean(item.get("output") or "")
        if not output or item["passed"]:
            continue
        if item.get("kind", "case") == "case":
            yield item["name"], bool(item.get("hidden")), output
            continue
        current, hidden, lines = item["name"], bool(hidden_names), []
        for line in output.split("\n"):
            header = line[:-1] if line.endswith(":") else None
            if header in known:
                if lines:
                    yield current, hidden, "\n".join(lines)
                current, hidden, lines = f"{header} ({item['name']})", header in hidden_names, []
            else:
                lines.append(line)
        if lines:
            yield current, hidden, "\n".join(lines)


def first_error(log):
    for line in reports.clean(log or "").split("\n"):
        if "error" in line.lower():
            return line.strip()
    return ""


def short(text, limit=REASON_CHARS):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def exercise_reason(row):
    message = reports.first_line(reports.clean(row.get("message", "")))
    reason = message or reports.EXPLANATIONS[row["status"]]
    if row["status"] == "build_failed":
        error = first_error(row.get("build_log"))
        if error:
            reason += f"; first error: {error}"
    return short(reason)


@dataclass
class ClassData:
    columns: list
    found: list                      # reports.Submission, by student
    no_result: list                  # (student, reason) of submissions without a result
    left_out: list = field(default_factory=list)     # (entry, reason) of the class folder's other entries
    warnings: list = field(default_factory=list)     # (student, warning) that may change a grade
    not_graded: list = field(default_factory=list)   # (student, has_result, numbers, status, reason)
    exercises: list = field(default_factory=list)    # dicts, one per column
    cases: list = field(default_factory=list)        # CaseStat
    hints: list = field(default_factory=list)        # HintStat, most students first
    withheld: dict = field(default_factory=dict)     # exercise -> hints printed by hidden cases only
    times: list = field(default_factory=list)        # dicts, one per column with timings
    slowest: list = field(default_factory=list)      # (Submission, seconds, slowest row)


def gather(results, exercises, no_result=(), left_out=()):
    columns = reports.columns_of(results, exercises)
    found = reports.submissions(results, columns)
    with_result = {submission.student for submission in found}
    data = ClassData(columns=columns, found=found,
                     no_result=sorted((student, reason) for student, reason in dict(no_result).items()
                                      if student not in with_result),
                     left_out=sorted((str(entry), str(reason)) for entry, reason in left_out))
    data.warnings = [(submission.student, warning) for submission in found
                     for warning in submission.result.get("grade_warnings", [])]
    gather_not_graded(data)
    for index, column in enumerate(columns):
        rows = [submission.rows[index] for submission in found]
        data.exercises.append(exercise_stats(column, rows, len(data.no_result)))
        gather_cases(data, column, found, index)
        gather_hints(data, column, found, index)
        timing = time_stats(column, found, index)
        if timing:
            data.times.append(timing)
    # Worst first; a case no submission ran (every sanitizer run skipped) last. The sort is
    # stable: the cases of one exercise and rate keep the check's order.
    data.cases.sort(key=lambda stat: (2 if stat.rate is None else stat.rate, columns.index(stat.exercise)))
    data.hints.sort(key=lambda hint: (-len(hint.students), -hint.times, columns.index(hint.exercise), hint.text))
    timed = [(submission, submission.result["seconds"]) for submission in found
             if reports.is_number(submission.result.get("seconds"))]
    for submission, seconds in sorted(timed, key=lambda pair: (-pair[1], pair[0].student))[:SLOWEST]:
        rows = [row for row in submission.rows if reports.is_number(row.get("seconds"))]
        data.slowest.append((submission, seconds, max(rows, key=lambda row: row["seconds"]) if rows else None))
    return data


def gather_not_graded(data):
    for entry, reason in data.left_out:
        data.not_graded.append((entry, False, "-", LEFT_OUT, short(reports.clean(reason))))
    for student, reason in data.no_result:
        data.not_graded.append((student, False, "all", NO_RESULT, short(reports.clean(reason))))
    entries = []
    for submission in data.found:
        by_status = {}
        for row in submission.rows:
            if row["status"] != "graded":
                by_status.setdefault(row["status"], []).append(row)
        for status, rows in by_status.items():
            numbers = ", ".join(reports.number_of(row) for row in rows)
            reasons = list(dict.fromkeys(exercise_reason(row) for row in rows))
            reason = reasons[0] if len(reasons) == 1 else "; ".join(
                f"{reports.number_of(row)}: {exercise_reason(row)}" for row in rows)
            entries.append((URGENCY.index(status), submission.student, numbers, status,
                            short(reason, 2 * REASON_CHARS)))
    for _, student, numbers, status, reason in sorted(entries, key=lambda entry: (entry[0], entry[1])):
        data.not_graded.append((student, True, numbers, status, reason))


def exercise_stats(column, rows, no_result):
    graded = [row for row in rows if row["status"] == "graded"]
    scores = [row["score"] for row in graded]
    max_score = max([row["max_score"] for row in rows] or [0])
    why = {}
    for row in rows:
        if row["status"] != "graded":
            why[row["status"]] = why.get(row["status"], 0) + 1
    if no_result:
        why[NO_RESULT] = no_result
    return {"id": column, "max_score": max_score, "scores": scores, "graded": len(graded),
            "mean": statistics.mean(scores) if scores else None,
            "median": statistics.median(scores) if scores else None,
            "full": sum(1 for row in graded if row["score"] >= row["max_score"] > 0),
            "not_graded": why}


def gather_cases(data, column, found, index):
    described = statement_cases.load(column)
    stats = {}
    for submission in found:
        row = submission.rows[index]
        if row["status"] != "graded":
            continue
        for item in row.get("items", []):
            kind = item.get("kind", "case")
            stat = stats.get(item["name"])
            if stat is None:
                stat = stats[item["name"]] = CaseStat(column, item["name"], kind)
                stat.description = (described.describe(item["name"]) if kind == "case" else
                                    f"the whole check again under compute-sanitizer {item['name']}, "
                                    f"run where the cases earned points")
            stat.hidden = stat.hidden or bool(item.get("hidden"))
            if item["passed"]:
                stat.passed += 1
            elif kind != "case" and (item.get("output") or "").startswith(NOT_RUN):
                stat.not_run += 1
            else:
                stat.failed += 1
    data.cases += list(stats.values())


def gather_hints(data, column, found, index):
    hints = {}
    for submission in found:
        row = submission.rows[index]
        if row["status"] != "graded":
            continue
        for case, hidden, output in hint_sources(row):
            for text in map(short, HINT.findall(output)):
                hint = hints.setdefault(text, HintStat(column, text))
                if submission.student not in hint.students:
                    hint.students.append(submission.student)
                hint.times += 1
                if case not in hint.cases:
                    hint.cases.append(case)
                hint.visible = hint.visible or not hidden
    withheld = [hint for hint in hints.values() if not hint.visible]
    if withheld:
        data.withheld[column] = (len(withheld), sum(hint.times for hint in withheld))
    data.hints += [hint for hint in hints.values() if hint.visible]


def time_stats(column, found, index):
    timed = [(submission.student, submission.rows[index]["seconds"]) for submission in found
             if reports.is_number(submission.rows[index].get("seconds"))]
    if not timed:
        return None
    seconds = [value for _, value in timed]
    slowest = max(timed, key=lambda pair: (pair[1], pair[0]))
    return {"id": column, "count": len(timed), "mean": statistics.mean(seconds),
            "median": statistics.median(seconds), "max": slowest[1], "max_student": slowest[0],
            "total": sum(seconds)}


# ---------------------------------------------------------------------------------------
# The page as blocks, rendered twice (HTML and Markdown) like the feedback pages

# A table cell: parts of text, each linked or not, and how the HTML shows it.
Cell = namedtuple("Cell", "parts kind value", defaults=(None, None))


def text(value, kind=None):
    return Cell([(str(value), None)], kind)


def link(value, href, kind=None):
    return Cell([(value, href)], kind)


def student_cell(student, has_page=True):
    name = reports.clean(student)
    return link(name, feedback_href(student), "name") if has_page else text(name, "name")


def students_cell(students):
    parts = []
    for position, student in enumerate(students):
        if position:
            parts.append((", ", None))
        parts.append((reports.clean(student), feedback_href(student)))
    return Cell(parts, "wide")


def number(value, digits=1):
    if value is None:
        return "-"
    return reports.points(round(value, digits))


def seconds(value):
    return "-" if value is None else f"{value:.1f} s"


def not_graded_text(why):
    return ", ".join(f"{count} {status_word(status)}" for status, count in
                     sorted(why.items(), key=lambda pair: (URGENCY + (NO_RESULT,)).index(pair[0]))) or "none"


SECTIONS = (("not-graded", "Not graded"), ("warnings", "Warnings"), ("exercises", "Exercises"), ("cases", "Cases"),
            ("hints", "Hints"), ("leaderboard", "Leaderboard"), ("speed-credit", "Speed credit"),
            ("answers", "Answers"), ("similar-code", "Similar code"), ("grading-time", "Grading time"))


def build_blocks(data, plots, plots_missing, alike):
    blocks = summary_blocks(data)
    for (anchor, title), section in zip(SECTIONS, (not_graded_blocks(data), warning_blocks(data),
                                                   exercise_blocks(data, plots, plots_missing),
                                                   case_blocks(data), hint_blocks(data), leaderboard_blocks(data),
                                                   credit_blocks(data), answers_blocks(data),
                                                   similar_blocks(alike), time_blocks(data))):
        blocks += [("heading", title, anchor)] + section
    return blocks


def summary_blocks(data):
    count = len(data.found) + len(data.no_result)
    complete = sum(1 for submission in data.found if all(row["status"] == "graded" for row in submission.rows))
    numbers = ", ".join(reports.number_of({"id": column}) for column in data.columns) or "none"
    summary = (f"{len(data.found)} submission(s) with a result, {complete} with every exercise graded; "
               f"{len(data.no_result)} without a result. Exercises: {numbers}.")
    if data.left_out:
        summary += (f" {len(data.left_out)} other entr{'y' if len(data.left_out) == 1 else 'ies'} of the class "
                    f"folder not graded (listed first below).")
    dates = sorted(reports.clean(submission.result["graded_at"]) for submission in data.found
                   if submission.result.get("graded_at"))
    if dates:
        summary += f" Graded from {dates[0]} to {dates[-1]}."
    blocks = [("title", f"Class report: {count} submission(s), {len(data.columns)} exercise(s)"), ("para", summary)]
    if not count:
        blocks.append(("alert", "No submission has a result yet: grade a class into this results folder first "
                                "(tools/course grade CLASS --class --results RESULTS)."))
    return blocks + [("toc", SECTIONS)]


def warning_blocks(data):
    if not data.warnings:
        return [("para", "No warning that may change a grade." if data.found else "No submission yet.")]
    students = len({student for student, _ in data.warnings})
    return [("alert", f"{len(data.warnings)} warning(s) that may change a grade, for {students} submission(s): what "
                      f"was graded is not plainly the student's hand-in (a backup copy, a file from an unexpected "
                      f"place, an archive inside the submission, a git working tree that differs from its last "
                      f"commit). Check these before publishing the grades; each is on the student's feedback "
                      f"page too."),
            ("table", "grade-warnings", ["student", "warning"],
             [[student_cell(student), text(short(reports.clean(warning), 3 * REASON_CHARS))]
              for student, warning in data.warnings])]


def not_graded_blocks(data):
    if not data.not_graded:
        return [("para", "Every exercise of every submission was graded." if data.found else "No submission yet.")]
    students = len({entry[0] for entry in data.not_graded if entry[3] != LEFT_OUT})
    others = ""
    if data.left_out:
        others = (f" {len(data.left_out)} other entr{'y' if len(data.left_out) == 1 else 'ies'} of the class folder "
                  f"{'is' if len(data.left_out) == 1 else 'are'} no submission to grade (the reason says what to "
                  f"do; a 7z archive is graded once 7-Zip is installed).")
    said = (f"{students} submission(s) have work not graded: no result at all, or exercises that scored nothing "
            f"without being checked. Skipped exercises (no GPU) and grader errors are graded by the next run of "
            f"the same command; the others are final." if students else "Every submission was graded.")
    return [("alert", said + others),
            ("table", "not-graded", ["student", "exercises", "status", "reason"],
             [[student_cell(student, has_result), text(numbers), text(status_word(status), "bad"), text(reason)]
              for student, has_result, numbers, status, reason in data.not_graded])]


def exercise_blocks(data, plots, plots_missing):
    blocks = [("para", "Mean and median over the graded submissions; an exercise that was not graded "
                       "(build failed, missing...) is counted under 'not graded' only."),
              ("table", "exercises", ["exercise", "points", "graded", "mean", "median", "full marks", "not graded"],
               [[text(stats["id"], "id"), text(reports.points(stats["max_score"]), "num"),
                 text(stats["graded"], "num"), text(number(stats["mean"]), "num"),
                 text(number(stats["median"]), "num"), text(stats["full"], "num"),
                 text(not_graded_text(stats["not_graded"]), "bad" if stats["not_graded"] else None)]
                for stats in data.exercises])]
    drawn = [stats["id"] for stats in data.exercises if stats["graded"]]
    if drawn and plots_missing:
        blocks.append(("note", f"Plots absent: {plots_missing}. The tables hold every figure; install it and "
                               f"rebuild the reports (tools/course grade --reports-only --results RESULTS) for them."))
    elif drawn:
        blocks.append(("figures", [(exercise_id, plots.get(exercise_id)) for exercise_id in drawn]))
    return blocks


def speed_boards(data):
    """[(exercise, case, figure, direction, bar, reference, gpu, [(student, measured, passed)])],
    one per bar a timed case judged, the best figure first ('at_least': highest)."""
    boards = {}
    for index, column in enumerate(data.columns):
        for submission in data.found:
            row = submission.rows[index]
            if row["status"] != "graded":
                continue
            for item in row.get("items", []):
                for speed in item.get("speed", []) if isinstance(item.get("speed"), list) else []:
                    key = (column, item["name"], speed.get("figure", ""))
                    board = boards.setdefault(key, {"direction": speed.get("direction"), "bar": speed.get("bar"),
                                                    "reference": speed.get("reference", ""), "gpus": set(),
                                                    "rows": []})
                    board["gpus"].add(row.get("gpu") or "")
                    board["rows"].append((submission.student, speed.get("measured"), bool(item.get("passed"))))
    found = []
    for (column, case, figure), board in boards.items():
        best_first = board["direction"] == "at_least"
        rows = sorted(board["rows"], key=lambda r: (-(r[1] or 0) if best_first else (r[1] or float("inf")), r[0]))
        gpus = ", ".join(sorted(g for g in board["gpus"] if g)) or "the grading GPU"
        found.append((column, case, figure, board["direction"], board["bar"], board["reference"], gpus, rows))
    return found


def leaderboard_blocks(data, anonymous_seed=None):
    """Per timed case and bar: each student's figure and rank, the bar, the reference
    solution's figures the check declares, and the GPU it was measured on. With
    `anonymous_seed`, students by leaderboard_id (the page to project in class)."""
    boards = speed_boards(data)
    if not boards:
        return [("para", "No timed case was graded (no speed figure in the results).")]
    blocks = [("para", "The figure each student's code reached in each timed case, best first, measured on the "
                       "grading GPU in the same run as the check's own yardstick (a ratio, never a time); the bar "
                       "is the pass mark, the reference the course's solution on the cards the check names. "
                       + ("Students appear by their leaderboard id, which each one's feedback page gives."
                          if anonymous_seed is not None else
                          f"A page without names, to project in class: {LEADERBOARD_FILE}."))]
    for column, case, figure, direction, bar, reference, gpus, rows in boards:
        sign = ">=" if direction == "at_least" else "<="
        blocks.append(("subheading", f"{column} {case}: {figure}"))
        blocks.append(("para", f"Bar {sign} {number(bar, 3)}; reference {reference or 'not declared'}; measured on {gpus}."))
        blocks.append(("table", f"leaderboard-{column}-{case}", ["rank", "student", "figure", "passed"],
                       [[text(rank, "num"),
                         text(reports.leaderboard_id(student, anonymous_seed), "id") if anonymous_seed is not None
                         else student_cell(student),
                         text(number(measured, 3), "num"), text("yes" if passed else "no", None if passed else "bad")]
                        for rank, (student, measured, passed) in enumerate(rows, start=1)]))
    return blocks


def credit_blocks(data):
    """Each student's speed credit (--speed-credit, speed_credit.py) beside the grade it is no
    part of; why there is none, once per reason."""
    with_credit = [submission for submission in data.found if submission.credit]
    if not with_credit:
        return [("para", "Off: tools/course grade --speed-credit POINTS gives each speed bar up to POINTS bonus "
                         "points, in proportion to the student's figure over the reference solution's on the GPU "
                         "make calibrate measured, apart from the grade.")]
    points = ", ".join(sorted({reports.points(s.credit.get("points_per_bar", 0)) for s in with_credit}))
    blocks = [("para", f"Bonus points apart from the grade, never added to it (the gradebook's speed_credit "
                       f"column): up to {points} per speed bar, in proportion to the student's figure over the "
                       f"reference solution's worst figure in the site bars (make calibrate), on the GPU they were "
                       f"measured on; a bar whose case failed earns none.")]
    notes = list(dict.fromkeys(reports.clean(s.credit["note"]) for s in with_credit if s.credit.get("note")))
    blocks += [("note", f"No credit for some submissions: {note}.") for note in notes]
    rows = [[student_cell(submission.student),
             text(f"{reports.points(submission.score)} / {reports.points(submission.max_score)}", "num"),
             text(reports.points(submission.credit["score"]) if submission.complete else "-", "num"),
             text(reports.points(submission.credit["max_score"]), "num")]
            for submission in with_credit]
    return blocks + [("table", "speed-credit", ["student", "grade", "speed credit", "of at most"], rows)]


def answers_blocks(data):
    """The students' answers to each statement's Questions (answers.md, answers.fr.md): how
    many answered, then each question's answers, student by student, for the teacher to read."""
    rows, readings = [], []
    for index, column in enumerate(data.columns):
        handed = [(submission.student, submission.rows[index]["answers"]) for submission in data.found
                  if isinstance(submission.rows[index].get("answers"), dict)
                  and isinstance(submission.rows[index]["answers"].get("answered"), dict)]
        if not handed:
            continue
        questions = max(int(given.get("questions") or 0) for _, given in handed)
        answered = sum(1 for _, given in handed if given["answered"])
        rows.append([text(column, "id"), text(len(handed), "num"), text(answered, "num"),
                     text(questions or "-", "num")])
        by_question = {}
        for student, given in handed:
            for question, answer in given["answered"].items():
                by_question.setdefault(question, []).append((reports.clean(student), reports.shown(answer)))
        for question in sorted(by_question, key=lambda q: int(q) if str(q).isdigit() else 0):
            readings.append(("answers", f"{column}, question {reports.clean(question)}", by_question[question]))
    if not rows:
        return [("para", "No submission holds a filled answers file (exercises/NN_name/answers.md or answers.fr.md).")]
    return [("para", "The answers the students wrote to each statement's Questions (no points: for you to read), "
                     "in exercises/NN_name/answers.md or answers.fr.md; each question's answers below, student "
                     "by student."),
            ("table", "answers", ["exercise", "answers files", "with an answer", "questions"], rows)] + readings


def similar_blocks(alike):
    """The pairs similarity.compare found, and what was and was not compared."""
    if alike.missing_tool:
        return [("note", alike.missing_tool + ".")]
    blocks = []
    compared = ", ".join(f"{reports.number_of({'id': exercise})} ({count} submissions)"
                         for exercise, count in alike.compared)
    short = ", ".join(f"{reports.number_of({'id': exercise})} ({median:g} tokens)" for exercise, median in alike.too_short)
    said = (f"Each student's own code (the lines the skeleton does not have) compared with every other's, "
            f"by similarity-tester (sim_c); a pair is listed when each holds at least {similarity.THRESHOLD}% "
            f"of the other's code. A flag to look at, never a grade: similar code may be honest (a short "
            f"exercise, the statement's hints followed closely), and a copy rewritten by hand is not seen. "
            f"Compared: {compared or 'none'}.")
    if short:
        said += (f" Not compared, the students' own code being too short for a copy to stand out (median under "
                 f"{similarity.LEAST_TOKENS} tokens): {short}.")
    blocks.append(("para", said))
    if not alike.pairs:
        return blocks + [("para", "No pair of submissions is alike above the threshold.")]
    blocks.append(("table", "similar-code", ["exercise", "student", "student", "alike"],
                   [[text(pair.exercise, "id"), student_cell(pair.first), student_cell(pair.second),
                     text(f"{pair.first_in_second}% / {pair.second_in_first}%", "num")] for pair in alike.pairs]))
    blocks += [("sidebyside", pair.exercise, reports.clean(pair.first), reports.clean(pair.second),
                pair.first_lines, pair.second_lines) for pair in alike.pairs]
    return blocks


def case_label(stat):
    label = reports.clean(stat.name)
    if stat.kind != "case":
        label += f" ({reports.clean(stat.kind)})"
    return label + (" (hidden)" if stat.hidden else "")


def case_blocks(data):
    if not data.cases:
        return [("para", "No exercise was graded: no case ran.")]
    return [("para", "Every case of the graded exercises, worst pass rate first. Hidden cases (their inputs come "
                     "from the grading seed) are named, never quoted. A sanitizer run that did not happen (the "
                     "cases earned nothing) counts under 'not run', not as a failure."),
            ("table", "cases", ["exercise", "case", "pass rate", "passed", "failed", "not run", "what it checks"],
             [[text(stat.exercise, "id"), text(case_label(stat)),
               Cell([(rate_text(stat.rate), None)], "rate", stat.rate), text(stat.passed, "num"), text(stat.failed, "num"), text(stat.not_run, "num"),
               text(stat.description, "statement")] for stat in data.cases])]


def hint_blocks(data):
    blocks = []
    if data.hints:
        shown = data.hints[:MOST_HINTS]
        blocks += [("para", f"The hints the checks printed, each naming a likely mistake, by the number of students "
                            f"who got it ({len(shown)} of {len(data.hints)} shown). 'Times' counts every case that "
                            f"printed it."),
                   ("table", "hints", ["exercise", "hint", "students", "times", "cases", "who"],
                    [[text(hint.exercise, "id"), text(hint.text, "prose"), text(len(hint.students), "num"),
                      text(hint.times, "num"), text(", ".join(hint.cases)), students_cell(hint.students)]
                     for hint in shown])]
    else:
        blocks.append(("para", "No check printed a hint."))
    for column, (kinds, times) in data.withheld.items():
        blocks.append(("note", f"{column}: {kinds} other hint(s), printed {times} time(s), came from hidden cases "
                               f"only: their text is withheld here (it may quote the hidden inputs); the "
                               f"students' feedback pages have it."))
    return blocks


def phase_seconds(result, phase):
    phases = result.get("phases")
    return seconds(phases.get(phase) if isinstance(phases, dict) and reports.is_number(phases.get(phase)) else None)


def time_blocks(data):
    if not data.times and not data.slowest:
        return [("para", "The results hold no timings.")]
    blocks = []
    if data.times:
        blocks += [("para", "Wall-clock seconds of each exercise's build and checks, per submission (the exercises "
                            "of one submission run side by side)."),
                   ("table", "times", ["exercise", "submissions", "mean", "median", "slowest", "slowest submission",
                                       "total"],
                    [[text(timing["id"], "id"), text(timing["count"], "num"), text(seconds(timing["mean"]), "num"),
                      text(seconds(timing["median"]), "num"), text(seconds(timing["max"]), "num"),
                      student_cell(timing["max_student"]), text(seconds(timing["total"]), "num")]
                     for timing in data.times])]
    if data.slowest:
        blocks += [("subheading", f"The {len(data.slowest)} slowest submission(s)"),
                   ("para", "Build, checks, sanitizer: the seconds of each phase, summed over the submission's "
                            "exercises (they run side by side, so the sum may exceed the submission's own time)."),
                   ("table", "slowest", ["student", "seconds", "slowest exercise", "build", "checks", "sanitizer"],
                    [[student_cell(submission.student), text(seconds(total), "num"),
                      text(f"{row['id']} ({seconds(row['seconds'])})" if row else "-")]
                     + [text(phase_seconds(submission.result, phase), "num")
                        for phase in ("build", "checks", "sanitizer")]
                     for submission, total, row in data.slowest])]
    return blocks


def rate_text(rate):
    return "-" if rate is None else f"{round(100 * rate)}%"


# ---------------------------------------------------------------------------------------
# Markdown

def markdown_inline(value):
    return rendering.markdown_text(value).replace("|", "\\|").replace("\n", " ")


def markdown_cell(cell):
    if cell.kind == "statement":
        # The statement's own Markdown (inline code), course-owned text: kept as written.
        return cell.parts[0][0].replace("|", "\\|").replace("\n", " ")
    return "".join(f"[{markdown_inline(part)}]({href})" if href else markdown_inline(part)
                   for part, href in cell.parts)


# The class report's own kinds (rendering.py has the others); what only a browser shows
# (the plots, the answers, the code side by side) is a line saying where it is.
MARKDOWN_KINDS = {
    "note": lambda text: f"*{rendering.markdown_text(text)}*",
    "alert": lambda text: f"> **{rendering.markdown_text(text)}**",
    "toc": lambda entries: " | ".join(f"[{label}](#{anchor})" for anchor, label in entries),
    "table": lambda table_id, header, rows: rendering.markdown_table(header, rows, markdown_cell),
    "figures": lambda plots: f"*The score histograms are in {HTML_FILE}.*",
    "answers": lambda title, given: f"*{rendering.markdown_text(title)}: {len(given)} answer(s), in {HTML_FILE}.*",
    "sidebyside": lambda exercise, first, second, *lines:
        f"*{rendering.markdown_text(f'{exercise}: {first} and {second}')}: side by side in {HTML_FILE}.*",
}


def render_markdown(blocks):
    return rendering.render_markdown(blocks, MARKDOWN_KINDS)


# ---------------------------------------------------------------------------------------
# HTML

STYLE = """
body{font-family:sans-serif;max-width:1200px;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.35}
h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
nav{display:flex;flex-wrap:wrap;gap:.2em 1em}
.scroll{overflow-x:auto;max-width:100%;margin:.6em 0}
table{border-collapse:collapse;font-size:.92em}
th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f0f0f0;white-space:nowrap}
td.num,td.id{white-space:nowrap}td.num{text-align:right}
td.name{overflow-wrap:anywhere;min-width:6em;max-width:16em}
td.statement{min-width:16em;max-width:36em}
td.prose{min-width:14em;max-width:30em}
td.wide{overflow-wrap:anywhere;min-width:16em;max-width:28em}
td.bad{color:#a00;font-weight:bold;white-space:nowrap}
td.rate{white-space:nowrap;min-width:7em}
.bar{display:inline-block;height:.7em;background:#c33;margin-right:.4em;vertical-align:middle}
.bar.good{background:#2e8b57}.bar.mid{background:#d89a00}
section.alert{border:2px solid #b00;background:#fff3f3;padding:.2em 1em;margin:.8em 0}
section.alert p{color:#a00;font-weight:bold}
p.note{color:#555;font-style:italic}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:.8em}
.figures figure{margin:0;border:1px solid #ddd;padding:.3em}
.figures img{max-width:100%;height:auto;display:block}
code{background:#f4f4f4;padding:0 .2em}
details{margin:.4em 0}summary{cursor:pointer}details pre{white-space:pre-wrap;background:#f7f7f7;padding:.4em}
table.diff{font-family:monospace;font-size:.85em}table.diff td{border:none;padding:0 .3em;white-space:pre-wrap}
.diff_add{background:#ddffdd}.diff_chg{background:#ffffaa}.diff_sub{background:#ffdddd}.diff_next{display:none}
"""


DIFF_NAVIGATION = re.compile(r'<a href="#difflib_chg_[^"]*">[^<]*</a>')


def html_statement(value):
    """A statement's description: escaped, then its `inline code` shown as code."""
    escaped = html.escape(value)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def html_cell(cell):
    classes = [cell.kind] if cell.kind else []
    if cell.kind == "statement":
        inner = html_statement(cell.parts[0][0])
    else:
        inner = "".join(f'<a href="{html.escape(href)}">{html.escape(part)}</a>' if href else html.escape(part)
                        for part, href in cell.parts)
    if cell.kind == "rate" and cell.value is not None:
        level = "good" if cell.value >= 0.8 else "mid" if cell.value >= 0.5 else ""
        width = max(1, round(60 * cell.value))
        inner = f'<span class="bar {level}" style="width:{width}px"></span>' + inner
    attribute = f' class="{" ".join(classes)}"' if classes else ""
    return f"<td{attribute}>{inner}</td>"


def svg_image(svg, alt):
    import base64
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt)}">'


def html_table(table_id, header, rows):
    return rendering.html_table(header, rows, html_cell, f'<div class="scroll"><table id="table-{table_id}">',
                                "</table></div>")


def html_alert(text, table=None):
    """A red frame around the alert and the table it warns about (framed_alerts)."""
    return "\n".join([f'<section class="alert"><p>{html.escape(text)}</p>']
                     + ([html_table(*table[1:])] if table else []) + ["</section>"])


def framed_alerts(blocks):
    """The blocks, each alert holding the table right after it, if any."""
    framed = []
    for block in blocks:
        if block[0] == "table" and framed and framed[-1][0] == "alert" and len(framed[-1]) == 2:
            framed[-1] += (block,)
        else:
            framed.append(block)
    return framed


def html_answers(title, given):
    inner = "".join(f"<h4>{html.escape(student)}</h4><pre>{html.escape(answer)}</pre>" for student, answer in given)
    return f"<details><summary>{html.escape(title)}: {len(given)} answer(s)</summary>{inner}</details>"


def html_side_by_side(exercise, first, second, first_lines, second_lines):
    # difflib escapes the lines; the column titles are ours to escape.
    table = difflib.HtmlDiff(tabsize=4, wrapcolumn=60).make_table(
        first_lines, second_lines, html.escape(first), html.escape(second), context=True, numlines=3)
    table = DIFF_NAVIGATION.sub("", table)  # its "next change" links: the page has no script
    summary = html.escape(f"{exercise}: {first} and {second}")
    return f'<details><summary>{summary}</summary><div class="scroll">{table}</div></details>'


def html_figures(plots):
    figures = [f"<figure>{svg_image(svg, f'scores of {exercise_id}')}</figure>" for exercise_id, svg in plots if svg]
    return "\n".join(['<div class="figures">'] + figures + ["</div>"])


HTML_KINDS = {
    "note": lambda text: f'<p class="note">{html.escape(text)}</p>',
    "alert": html_alert,
    "toc": lambda entries: "<nav>" + "".join(f'<a href="#{anchor}">{html.escape(label)}</a>'
                                             for anchor, label in entries) + "</nav>",
    "table": html_table,
    "answers": html_answers,
    "sidebyside": html_side_by_side,
    "figures": html_figures,
}


def render_html(blocks):
    """A self-contained page: every string escaped, the plots inside it, no script."""
    return rendering.render_html(framed_alerts(blocks), HTML_KINDS, "Class report", STYLE,
                                 head=['<meta name="viewport" content="width=device-width, initial-scale=1">'])


# ---------------------------------------------------------------------------------------
# Writing

def listed_not_graded(results_dir):
    """{student: reason} of RESULTS/not_graded.txt, the collecting job's list of the
    submissions without a result (slurm/class_grading.py); empty where there is none."""
    path = os.path.join(results_dir, NOT_GRADED_FILE)
    listed = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                student, _, reason = line.rstrip("\n").partition("\t")
                if student:
                    listed[student] = reason or "not graded"
    except FileNotFoundError:
        pass
    except OSError as error:
        raise reports.ReportError(f"cannot read {path}: {error.strerror}") from error
    return listed


def write_left_out(results_dir, left_out):
    """Writes RESULTS/left_out.json: the class folder's entries that are no submission,
    [[entry, reason], ...], for class.html, whichever run (an array task's, the collecting
    job's, --reports-only) writes it."""
    reports.write_atomic(os.path.join(results_dir, LEFT_OUT_FILE),
                         reports.json_bytes([[entry, reason] for entry, reason in left_out]))


def listed_left_out(results_dir):
    """[(entry, reason)] of RESULTS/left_out.json; empty where there is none."""
    path = os.path.join(results_dir, LEFT_OUT_FILE)
    try:
        with open(path, encoding="utf-8") as handle:
            listed = json.load(handle)
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise reports.ReportError(f"cannot read {path} ({error}): remove it, then grade the class again") from error
    if not isinstance(listed, list) or not all(isinstance(pair, list) and len(pair) == 2
                                               and all(isinstance(part, str) for part in pair) for pair in listed):
        raise reports.ReportError(f"{path} is not a list of [entry, reason]: remove it, then grade the class again")
    return [tuple(pair) for pair in listed]


def write(results_dir, results, exercises, no_result=None, pythons=None, left_out=None):
    """Writes class.html and class.md under results_dir from `results`
    (reports.load_results) with the configured exercise ids `exercises` as columns (None:
    every id some result has). `no_result`: {student: reason} of the class's submissions
    that have no result (default: RESULTS/not_graded.txt's); one that has a result by now
    is not listed. `pythons`: where to look for matplotlib (class_plots.draw). `left_out`:
    [(entry, reason)] of the class folder's entries that are no submission (default:
    RESULTS/left_out.json's). Returns the paths written."""
    if no_result is None:
        no_result = listed_not_graded(results_dir)
    if left_out is None:
        left_out = listed_left_out(results_dir)
    data = gather(results, exercises, no_result, left_out)
    distributions = [{"id": stats["id"], "max_score": stats["max_score"], "scores": stats["scores"]}
                     for stats in data.exercises if stats["graded"]]
    plots, missing = class_plots.draw(distributions, pythons)
    alike = similarity.compare(results_dir, ROOT, data.columns, [submission.student for submission in data.found])
    blocks = build_blocks(data, plots, missing, alike)
    seed = next((submission.result.get("seed") for submission in data.found if "seed" in submission.result), "")
    projected = [("title", "Leaderboard")] + leaderboard_blocks(data, anonymous_seed=seed)
    written = []
    for name, rendered in ((HTML_FILE, render_html(blocks)), (MARKDOWN_FILE, render_markdown(blocks)),
                           (LEADERBOARD_FILE, render_html(projected))):
        path = os.path.join(results_dir, name)
        reports.write_atomic(path, rendered.encode("utf-8"))
        written.append(path)
    return written
