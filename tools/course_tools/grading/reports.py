"""Every report of a class grading, rendered from the per-submission result files
(RESULTS/submissions/<student>.json, see SCHEMA.md) and from nothing else, so that an
interrupted grading resumes without redoing work and the reports can be rebuilt at any
time:

    gradebook.csv                       one row per student, for the instructor's spreadsheet
    feedback/<student>.md and .html     everything about one submission, hidden cases included
    junit.xml                           one test suite per student, for CI dashboards
    gradescope/<student>/results.json   Gradescope's autograder result
    classroom/<student>.json and .b64   GitHub Classroom's autograding result

(The class report, class.html and class.md, comes from class_report.py, from the same
files and with this module's reading, cleaning and writing.)

The columns are the exercises of the grading configuration, in its order: an exercise
that a result lacks counts as missing (0), and one that a result has but the
configuration does not is named in the reports but never counted.

Timings (seconds, graded_at) appear only in the feedback pages and in junit.xml: the
gradebook, the Gradescope and the Classroom results must be byte-identical between a
grading that was interrupted and resumed and a fresh grading of the same work.

An exercise whose check could not run (status "skipped": no GPU, --cpu-only) is not
graded yet, and no report scores it: the gradebook leaves its cell and the total
empty, Gradescope and Classroom results give it no score and no failure, JUnit marks
it skipped. A later grading on a GPU grades it (SCHEMA.md).

The speed credit of a grading with --speed-credit (speed_credit.py) is never part of a score:
the gradebook gives it two columns of its own, the feedback pages a sentence and a table per
exercise, junit.xml a property of the student's suite, Gradescope its "extra_data" and a line
of its output; GitHub Classroom's format has no place for it beside the points.
"""
import base64
import csv
import hashlib
import html
import io
import json
import math
import os
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

from course_tools.grading import rendering
from course_tools.student import atomic_write
from course_tools.student import language

SCHEMA = 1
STATUSES = ("graded", "build_failed", "missing", "incomplete", "skipped", "error", "unreadable")
LOG_LINES = 200          # longer build logs and outputs are cut in the reports (never in the results)
MESSAGE_CHARS = 200      # a JUnit failure's one-line message

# What the reports say of an exercise that was not graded: a sentence for people, a
# short word for the terminal table.
EXPLANATIONS = {
    "build_failed": "Build failed: the student's files did not compile.",
    "missing": "Missing: the submission has none of this exercise's files.",
    "incomplete": "Incomplete: some of this exercise's files are missing or unreadable, or one is there twice "
                  "with different contents and nothing tells which to grade (the message says which).",
    "skipped": "Skipped: the check could not run on the grading machine (no GPU), so this exercise is not "
               "graded yet: its points are neither earned nor lost until a grading on a GPU.",
    "error": "Grader error: the grader itself failed on this exercise (not the student's fault).",
    "unreadable": "Unreadable: the submission itself could not be read (a broken archive?), so no file of it was graded.",
}
# The feedback pages in French (--feedback-lang fr); the English is the pages' own text,
# which class.html and junit.xml share (they stay in the instructor's English).
SAY = language.Messages(__name__, {
    **{f"status {status}": (sentence, french) for status, sentence, french in [
        ("build_failed", EXPLANATIONS["build_failed"],
         "Échec de la compilation : vos fichiers n'ont pas compilé."),
        ("missing", EXPLANATIONS["missing"], "Absent : la soumission n'a aucun des fichiers de cet exercice."),
        ("incomplete", EXPLANATIONS["incomplete"],
         "Incomplet : certains fichiers de cet exercice manquent ou sont illisibles, ou l'un d'eux est là deux "
         "fois avec des contenus différents sans que rien ne dise lequel noter (le message dit lequel)."),
        ("skipped", EXPLANATIONS["skipped"],
         "Sauté : le correcteur n'a pas pu s'exécuter sur la machine de notation (pas de GPU), l'exercice n'est "
         "donc pas encore noté : ses points ne sont ni gagnés ni perdus avant une notation sur un GPU."),
        ("error", EXPLANATIONS["error"],
         "Erreur de l'outil de notation : il a lui-même échoué sur cet exercice (ce n'est pas votre faute)."),
        ("unreadable", EXPLANATIONS["unreadable"],
         "Illisible : la soumission elle-même n'a pas pu être lue (une archive abîmée ?), aucun de ses fichiers "
         "n'a donc été noté."),
    ]},
    **{f"short {status}": (status, french) for status, french in [
        ("build_failed", "échec de la compilation"), ("missing", "absent"), ("incomplete", "incomplet"),
        ("skipped", "sauté"), ("error", "erreur de notation"), ("unreadable", "illisible")]},
    "details": ("{sentence} Details: {message}", "{sentence} Détails : {message}"),
    "hidden case": (" (hidden case)", " (cas caché)"),
    "so far": (" so far (not completely graded)", " pour l'instant (notation incomplète)"),
    "graded at": ("graded {when}", "notée le {when}"),
    "took": ("in {seconds}", "en {seconds}"),
    "from": ("from {source}", "depuis {source}"),
    "seed": ("seed {seed}", "graine {seed}"),
    "submission": ("Submission {facts}.", "Soumission {facts}."),
    "not complete": ("Not completely graded: the checks of {exercises} could not run on the grading machine (no "
                     "GPU). Their points are not counted yet, neither as earned nor as lost; a grading on a GPU "
                     "completes this page.",
                     "Notation incomplète : les correcteurs de {exercises} n'ont pas pu s'exécuter sur la machine "
                     "de notation (pas de GPU). Leurs points ne sont pas encore comptés, ni gagnés ni perdus ; une "
                     "notation sur un GPU complétera cette page."),
    "extra": ("{exercise} is in the result but not in the grading configuration: not counted",
              "{exercise} figure dans le résultat mais pas dans la configuration de la notation : non compté"),
    "warnings": ("Warnings", "Avertissements"),
    "no cases": ("No cases were recorded.", "Aucun cas n'a été enregistré."),
    "columns": ("case|points|result|time", "cas|points|résultat|temps"),
    "output of": ("{case}: output", "{case} : sortie"),
    "no output": ("(no output)", "(aucune sortie)"),
    "leaderboard": ("Your id on the class leaderboard of the timed cases: {id}.",
                    "Votre identifiant au classement de la classe pour les cas chronométrés : {id}."),
    "answers": ("Your answers ({file}): {answered} of {questions} questions answered, for your teacher to read",
                "Vos réponses ({file}) : {answered} questions sur {questions} ont une réponse, pour votre "
                "enseignant"),
    "question": ("Question {question}", "Question {question}"),
    "points of": ("{score} of {maximum} points", "{score} points sur {maximum}"),
    "graded": ("{exercise}: graded", "{exercise} : noté"),
    "not graded yet": ("{exercise}: not graded yet", "{exercise} : pas encore noté"),
    "not graded yet test": ("{exercise}: not graded yet (skipped)", "{exercise} : pas encore noté (sauté)"),
    "status of": ("{exercise}: {status}", "{exercise} : {status}"),
    "note": ("Note: {warning}", "Remarque : {warning}"),
    "incomplete result": ("NOT COMPLETE: some exercises could not be checked on the grading machine (no GPU); "
                          "they are not graded yet, and a grading on a GPU completes this result.",
                          "INCOMPLET : certains exercices n'ont pas pu être vérifiés sur la machine de notation "
                          "(pas de GPU) ; ils ne sont pas encore notés, et une notation sur un GPU complétera ce "
                          "résultat."),
    "hidden failed": ("hidden case failed: {points} (its output is kept for the instructor)",
                      "cas caché échoué : {points} (sa sortie est gardée pour l'enseignant)"),
    "credit": ("Speed credit, apart from the grade: {score} of {maximum} bonus points (up to {points} per speed "
               "bar, in proportion to your figure over the reference solution's on {gpu}).",
               "Bonus de vitesse, hors note : {score} points sur {maximum} (jusqu'à {points} par seuil de vitesse, "
               "en proportion de votre valeur rapportée à celle de la solution de référence sur {gpu})."),
    "no credit": ("Speed credit, apart from the grade: none (it needs the speed bars calibrated on the "
                  "grading GPU by the instructors: make calibrate).",
                  "Bonus de vitesse, hors note : aucun (il demande que les enseignants aient étalonné les seuils "
                  "sur le GPU de la notation : make calibrate)."),
    "the grading gpu": ("the grading GPU", "le GPU de la notation"),
    "credit of": ("Speed credit: {score} of {maximum} bonus points, apart from the grade",
                  "Bonus de vitesse : {score} points sur {maximum}, hors note"),
    "credit columns": ("case|figure|yours|the reference's|credit", "cas|grandeur|la vôtre|celle de la référence|bonus"),
})
SHORT = {"build_failed": "build", "missing": "missing", "incomplete": "incompl",
         "skipped": "skipped", "error": "error", "unreadable": "unread"}


class ReportError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# Reading and checking the result files

def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


KINDS = {
    "a string": lambda value: isinstance(value, str),
    "a number": is_number,
    "true or false": lambda value: isinstance(value, bool),
    "a list": lambda value: isinstance(value, list),
    "an object": lambda value: isinstance(value, dict),
}

# (field, kind, required) of each level of a result file, as SCHEMA.md describes them.
RESULT_FIELDS = (("schema", "a number", True), ("student", "a string", True),
                 ("exercises", "a list", True), ("warnings", "a list", False),
                 ("source", "a string", False), ("graded_at", "a string", False),
                 ("seconds", "a number", False), ("score", "a number", False),
                 ("max_score", "a number", False), ("cpu_only", "true or false", False),
                 ("grade_warnings", "a list", False), ("speed_credit", "an object", False))
EXERCISE_FIELDS = (("id", "a string", True), ("status", "a string", True),
                   ("score", "a number", True), ("max_score", "a number", True),
                   ("items", "a list", False), ("number", "a string", False),
                   ("title", "a string", False), ("message", "a string", False),
                   ("build_log", "a string", False), ("seconds", "a number", False),
                   ("files", "an object", False), ("answers", "an object", False), ("gpu", "a string", False),
                   ("speed_credit", "an object", False))
# The speed credit of a result or an exercise (speed_credit.py): apart from the score.
CREDIT_FIELDS = (("score", "a number", True), ("max_score", "a number", True), ("note", "a string", False),
                 ("points_per_bar", "a number", False))
ITEM_FIELDS = (("name", "a string", True), ("passed", "true or false", True),
               ("score", "a number", True), ("max_score", "a number", True),
               ("kind", "a string", False), ("hidden", "true or false", False),
               ("seconds", "a number", False), ("output", "a string", False), ("speed", "a list", False))

# A student name becomes a file name in every report (feedback/<name>.html, and the
# temporary file of its atomic write, ".<name>.html.<pid>.<8 hex>.tmp", within the 255
# bytes of a file name).
MAX_NAME_BYTES = 220
# C0 and C1 control characters (newline, tab, escape...) and the characters that end a
# line for Python's str.splitlines().
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def name_problem(name):
    """Why `name` cannot name a student's report files, or None. Quotes, '$()',
    backticks, semicolons, spaces, accents and a leading dash are fine: a name is
    data, escaped in each report, and never reaches a shell or a compiler."""
    if not isinstance(name, str) or not name:
        return "an empty name"
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return "not valid UTF-8"
    found = UNPRINTABLE.search(name)
    if found:
        return f"holds the control character {ascii(found.group())}"
    if "/" in name or "\\" in name:
        return "holds a '/' or a '\\'"
    if name.startswith("."):
        return "starts with a dot (a hidden file)"
    if size > MAX_NAME_BYTES:
        return f"{size} bytes long, more than the {MAX_NAME_BYTES} a report file name allows"
    return None


def fields_problem(value, fields):
    """The first way `value` breaks `fields`, or None."""
    if not isinstance(value, dict):
        return "not a JSON object"
    for name, kind, required in fields:
        if name not in value:
            if required:
                return f"'{name}' is missing"
        elif not KINDS[kind](value[name]):
            return f"'{name}' is not {kind}"
    return None


def exercise_problem(exercise):
    problem = fields_problem(exercise, EXERCISE_FIELDS)
    if problem:
        return problem
    if exercise["status"] not in STATUSES:
        return f"status '{exercise['status']}' is not one of {', '.join(STATUSES)}"
    if "speed_credit" in exercise:
        problem = fields_problem(exercise["speed_credit"], CREDIT_FIELDS)
        if problem:
            return f"speed_credit: {problem}"
    for index, item in enumerate(exercise.get("items", [])):
        problem = fields_problem(item, ITEM_FIELDS)
        if problem:
            return f"items[{index}]: {problem}"
    if exercise["status"] == "graded":
        total = sum(item["score"] for item in exercise.get("items", []))
        if abs(total - exercise["score"]) > 1e-9:
            # A grader bug; reports that disagree with each other would hide it.
            return f"score {exercise['score']} is not the sum of its items ({total})"
    return None


def result_problem(result, file_stem):
    """The first problem of one result file's content, or None."""
    problem = fields_problem(result, RESULT_FIELDS)
    if problem:
        return problem
    if result["schema"] != SCHEMA:
        return f"schema {result['schema']} is not {SCHEMA}, the one these reports read"
    if name_problem(result["student"]):
        return f"student name {ascii(result['student'])} cannot name a report file: {name_problem(result['student'])}"
    if result["student"] != file_stem:
        return f"'student' is {result['student']!r} but the file is named {file_stem}.json"
    for key in ("warnings", "grade_warnings"):
        if not all(isinstance(warning, str) for warning in result.get(key, [])):
            return f"'{key}' holds something other than strings"
    if "speed_credit" in result:
        problem = fields_problem(result["speed_credit"], CREDIT_FIELDS)
        if problem:
            return f"speed_credit: {problem}"
    seen = set()
    for index, exercise in enumerate(result["exercises"]):
        problem = exercise_problem(exercise)
        if problem:
            return f"exercises[{index}]: {problem}"
        if exercise["id"] in seen:
            return f"exercise {exercise['id']} appears twice"
        seen.add(exercise["id"])
    return None


REMEDY = "move the file away and run the grading again: that submission is then graded anew"


def drop_repeated_exercises(result):
    """Removes the second and later records of an exercise id (what `--exercises 03,03`
    left in the results of graders before duplicates were merged); returns the ids
    removed. The first record is the one the grading made first, and they agree."""
    exercises = result.get("exercises") if isinstance(result, dict) else None
    if not isinstance(exercises, list):
        return []
    kept, seen, dropped = [], set(), []
    for exercise in exercises:
        exercise_id = exercise.get("id") if isinstance(exercise, dict) else None
        if isinstance(exercise_id, str) and exercise_id in seen:
            dropped.append(exercise_id)
            continue
        seen.add(exercise_id)
        kept.append(exercise)
    result["exercises"] = kept
    return dropped


def read_result(path, notes=None):
    """One result file, checked. What older graders left and can be repaired (an
    exercise recorded twice) is repaired in memory, with a line in `notes`."""
    try:
        with open(path, encoding="utf-8") as handle:
            result = json.load(handle)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ReportError(f"{path}: not a readable result file: {error}; {REMEDY}") from error
    dropped = drop_repeated_exercises(result)
    if dropped and notes is not None:
        notes.append(f"{path}: exercise {', '.join(sorted(set(dropped)))} was recorded more than once "
                     f"(by an older grader given --exercises with a repeated number): the first record counts")
    problem = result_problem(result, os.path.basename(path)[:-len(".json")])
    if problem:
        raise ReportError(f"{path}: {problem}; {REMEDY}")
    return result


def load_results(results_dir, notes=None):
    """Every RESULTS/submissions/<student>.json, sorted by student. A file that cannot be
    read or breaks SCHEMA.md is a ReportError naming it: skipping it would drop a
    student from the gradebook without anyone noticing. Hidden files (the temporary
    files of an atomic write cut short) are not results. Repairs made while reading
    are described in `notes` (a list), when given."""
    folder = os.path.join(results_dir, "submissions")
    try:
        names = os.listdir(folder)
    except OSError as error:
        raise ReportError(f"cannot read {folder}: {error.strerror}") from error
    results = [read_result(os.path.join(folder, name), notes) for name in sorted(names)
               if name.endswith(".json") and not name.startswith(".")]
    return sorted(results, key=lambda result: result["student"])


# ---------------------------------------------------------------------------------------
# One student's row of the class, shared by every report

@dataclass
class Submission:
    student: str
    result: dict
    rows: list       # one exercise dict per configured exercise, in the configuration's order
    extras: list     # ids the result has and the configuration does not
    score: float
    max_score: float

    @property
    def pending(self):
        """The exercises not graded yet (skipped: their check could not run here)."""
        return [row for row in self.rows if row["status"] == "skipped"]

    @property
    def complete(self):
        return not self.pending

    @property
    def credit(self):
        """The speed credit of the grading (--speed-credit: SCHEMA.md), or None where it was off.
        Never part of `score`."""
        credit = self.result.get("speed_credit")
        return credit if isinstance(credit, dict) else None


def number_of(exercise):
    return exercise.get("number") or exercise["id"].split("_", 1)[0]


def earned(exercise):
    """An exercise's points: only a graded one scores (SCHEMA.md)."""
    return exercise["score"] if exercise["status"] == "graded" else 0


def class_maximums(results):
    """The max_score of each exercise id across the class, for the exercises a result
    lacks: a student who submitted nothing for an exercise still owes its points."""
    maximums = {}
    for result in results:
        for exercise in result["exercises"]:
            maximums[exercise["id"]] = max(maximums.get(exercise["id"], 0), exercise["max_score"])
    return maximums


def absent(exercise_id, max_score):
    return {"id": exercise_id, "number": exercise_id.split("_", 1)[0], "title": "", "status": "missing",
            "score": 0, "max_score": max_score, "items": [], "build_log": "",
            "message": "the result file has nothing for this exercise"}


def columns_of(results, exercises):
    """The configured exercise ids; without a configuration, every id some result has."""
    if exercises is not None:
        return list(dict.fromkeys(exercises))  # a repeated id (older grading.json files) once
    return sorted({exercise["id"] for result in results for exercise in result["exercises"]})


def submissions(results, exercises):
    columns = columns_of(results, exercises)
    maximums = class_maximums(results)
    found = []
    for result in sorted(results, key=lambda result: result["student"]):
        by_id = {exercise["id"]: exercise for exercise in result["exercises"]}
        rows = [by_id.get(exercise_id) or absent(exercise_id, maximums.get(exercise_id, 0))
                for exercise_id in columns]
        extras = [exercise["id"] for exercise in result["exercises"] if exercise["id"] not in columns]
        found.append(Submission(
            student=result["student"], result=result, rows=rows, extras=extras,
            score=tidy(sum(earned(row) for row in rows)),
            max_score=tidy(sum(row["max_score"] for row in rows))))
    return found


def tidy(value):
    """Sums of float points without 0.30000000000000004 in the reports."""
    value = round(value, 6)
    return int(value) if float(value).is_integer() else value


def points(value):
    return str(tidy(value))


def points_of(item, lang="en"):
    return SAY("points of", lang, score=points(item["score"]), maximum=points(item["max_score"]))


# ---------------------------------------------------------------------------------------
# Text that came from a student's program

# ANSI escape sequences (colours, cursor moves): CSI, OSC, then two-character escapes.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")
# Everything XML 1.0 forbids (its Char production), lone surrogates included.
NOT_XML = re.compile("[^\t\n\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text):
    """Text any report can hold: escape sequences dropped, line ends made \\n, and each
    character XML 1.0 forbids (NUL, bell, ...) replaced by U+FFFD, visibly rather than
    silently, since a stray byte can be the very bug."""
    text = ANSI.sub("", str(text)).replace("\r\n", "\n").replace("\r", "\n")
    return NOT_XML.sub("\ufffd", text)


def shown(text):
    """A build log or an output as the reports show it: cleaned, cut to LOG_LINES lines
    (the result file keeps it whole)."""
    lines = clean(text or "").rstrip("\n").split("\n")
    if len(lines) <= LOG_LINES:
        return "\n".join(lines)
    return "\n".join(lines[:LOG_LINES] + [
        f"[... {len(lines) - LOG_LINES} more lines not shown; the result file in submissions/ has them all]"])


def explanation(exercise, lang="en"):
    """Why an exercise that was not graded scored nothing, with the grader's message."""
    sentence = EXPLANATIONS[exercise["status"]] if lang == "en" else SAY(f"status {exercise['status']}", lang)
    message = clean(exercise.get("message", "")).strip()
    return SAY("details", lang, sentence=sentence, message=message) if message else sentence


def item_label(item, lang="en"):
    label = clean(item["name"])
    if item.get("kind", "case") != "case":
        label += f" ({clean(item['kind'])})"
    if item.get("hidden"):
        label += SAY("hidden case", lang)
    return label


def seconds_text(value):
    return f"{value:.2f} s" if is_number(value) else ""


# ---------------------------------------------------------------------------------------
# gradebook.csv

def gradebook_status(submission):
    unreadable = [row for row in submission.rows if row["status"] == "unreadable"]
    if unreadable:
        # One reason for the whole submission, not one per exercise.
        return "unreadable: " + (first_line(clean(unreadable[0].get("message", ""))) or "the submission cannot be read")
    problems = [f"{number_of(row)}: {row['status']}" for row in submission.rows if row["status"] != "graded"]
    problems += [f"{number_of({'id': extra})}: not in the grading configuration" for extra in submission.extras]
    if submission.pending:
        problems.append("NOT COMPLETE: a grading on a GPU grades the skipped exercises")
    return "; ".join(problems) or "ok"


# A spreadsheet takes a cell that starts with one of these for a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text):
    """A name as a spreadsheet shows it, never as a formula: '-x' is written "'-x"."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def gradebook(found, columns):
    """One row per student: a score per configured exercise, the total, the maximum and
    what went wrong. No timings, so it is byte-identical between gradings of the same work.
    A skipped exercise has an empty cell, never 0, and so has the total of a
    submission that is not completely graded. A grading with speed credit adds its two
    columns after the status, apart from the total, which never includes it."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    with_credit = any(submission.credit for submission in found)
    writer.writerow(["student"] + columns + ["total", "max_total", "status"]
                    + (["speed_credit", "speed_credit_max"] if with_credit else []))
    for submission in found:
        cells = ["" if row["status"] == "skipped" else points(earned(row)) for row in submission.rows]
        total = points(submission.score) if submission.complete else ""
        credit = []
        if with_credit:
            known = submission.credit if submission.complete else None
            credit = [points(known["score"]), points(known["max_score"])] if known else ["", ""]
        writer.writerow([spreadsheet_text(clean(submission.student))] + cells
                        + [total, points(submission.max_score), gradebook_status(submission)] + credit)
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------
# feedback/<student>.md and .html: one list of blocks, two renderings, the same content

def feedback_blocks(submission, lang="en"):
    """The page of one submission, in `lang` ("en" or "fr": the grading's --feedback-lang,
    the language its checks wrote their messages in)."""
    result = submission.result
    so_far = "" if submission.complete else SAY("so far", lang)
    blocks = [("title", f"{clean(submission.student)}: {points(submission.score)} / "
                        f"{points(submission.max_score)}{so_far}")]
    facts = []
    if result.get("graded_at"):
        facts.append(SAY("graded at", lang, when=clean(result["graded_at"])))
    if is_number(result.get("seconds")):
        facts.append(SAY("took", lang, seconds=seconds_text(result["seconds"])))
    if result.get("source"):
        # The submission's own name: the instructor's folders are nobody else's business.
        facts.append(SAY("from", lang, source=clean(os.path.basename(os.path.normpath(result["source"])))))
    if "seed" in result:
        facts.append(SAY("seed", lang, seed=clean(result["seed"])))
    if facts:
        blocks.append(("para", SAY("submission", lang, facts=", ".join(facts))))
    if not submission.complete:
        blocks.append(("para", SAY("not complete", lang,
                                   exercises=", ".join(clean(row["id"]) for row in submission.pending))))
    warnings = [clean(warning) for warning in result.get("warnings", [])]
    warnings += [SAY("extra", lang, exercise=clean(extra)) for extra in submission.extras]
    if warnings:
        blocks += [("heading", SAY("warnings", lang)), ("list", warnings)]
    if submission.credit:
        blocks.append(("para", credit_sentence(submission, lang)))
    if any(item.get("speed") for row in submission.rows for item in row.get("items", [])):
        blocks.append(("para", SAY("leaderboard", lang,
                                   id=leaderboard_id(submission.student, result.get("seed", "")))))
    for row in submission.rows:
        blocks += exercise_blocks(row, lang)
    return blocks


def credit_sentence(submission, lang="en"):
    """The submission's speed credit in one sentence, or why it has none (said once a page)."""
    credit = submission.credit
    if credit.get("note"):
        # The reason's details (which GPUs) are the instructors', in the class report.
        return SAY("no credit", lang)
    gpus = sorted({clean(row["gpu"]) for row in submission.rows if row.get("gpu")})
    return SAY("credit", lang, score=points(credit["score"]), maximum=points(credit["max_score"]),
               points=points(credit.get("points_per_bar", 0)), gpu=", ".join(gpus) or SAY("the grading gpu", lang))


def credit_blocks(exercise, lang="en"):
    """An exercise's speed credit, bar by bar, where some bar earned or could earn it."""
    credit = exercise.get("speed_credit")
    bars = [(item, speed) for item in exercise.get("items", []) for speed in item.get("speed") or []
            if "credit" in speed]
    if not isinstance(credit, dict) or not bars:
        return []
    return [("subheading", SAY("credit of", lang, score=points(credit["score"]), maximum=points(credit["max_score"]))),
            ("table", SAY("credit columns", lang).split("|"),
             [[clean(item["name"]), clean(speed.get("figure", "")), figure_text(speed.get("measured")),
               figure_text(speed.get("site_reference")), points(speed["credit"])] for item, speed in bars])]


def figure_text(value):
    return f"{value:.3g}" if is_number(value) else "-"


def leaderboard_id(student, seed):
    """A student's name on the projected leaderboard (class_report.LEADERBOARD_FILE): six
    hexadecimal digits that only the student's own feedback page gives away, drawn from the
    name and the grading seed."""
    return hashlib.sha256(f"{seed}\0{student}".encode()).hexdigest()[:6]


def exercise_blocks(exercise, lang="en"):
    return graded_blocks(exercise, lang) + answer_blocks(exercise, lang)


def answer_blocks(exercise, lang="en"):
    """The student's answers to the statement's Questions, as handed in (no points)."""
    given = exercise.get("answers")
    if not isinstance(given, dict) or not isinstance(given.get("answered"), dict):
        return []
    answered = given["answered"]
    blocks = [("subheading", SAY("answers", lang, file=clean(given.get("file", "answers.md")),
                                 answered=len(answered), questions=clean(given.get("questions", "?"))))]
    for question, text in answered.items():
        blocks += [("para", SAY("question", lang, question=clean(question))), ("code", shown(text))]
    return blocks


def graded_blocks(exercise, lang="en"):
    title = f" ({clean(exercise['title'])})" if exercise.get("title") else ""
    score = "-" if exercise["status"] == "skipped" else points(earned(exercise))
    heading = f"{clean(exercise['id'])}{title}: {score} / {points(exercise['max_score'])}"
    if exercise["status"] != "graded":
        status = exercise["status"] if lang == "en" else SAY(f"short {exercise['status']}", lang)
        blocks = [("heading", f"{heading}, {status}"), ("para", explanation(exercise, lang))]
        if exercise.get("build_log"):
            blocks.append(("code", shown(exercise["build_log"])))
        return blocks
    blocks = [("heading", heading)]
    items = exercise.get("items", [])
    if not items:
        return blocks + [("para", SAY("no cases", lang))]
    blocks.append(("table", SAY("columns", lang).split("|"),
                   [[item_label(item, lang), f"{points(item['score'])} / {points(item['max_score'])}",
                     "PASS" if item["passed"] else "FAIL", seconds_text(item.get("seconds"))]
                    for item in items]))
    blocks += credit_blocks(exercise, lang)
    for item in items:
        if not item["passed"]:
            blocks += [("subheading", SAY("output of", lang, case=item_label(item, lang))),
                       ("code", shown(item.get("output")) or SAY("no output", lang))]
    return blocks


def markdown_cell(text):
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown_fence(text):
    """A fence longer than any run of backticks in the text, so no output can close it."""
    longest = max([len(run) for run in re.findall(r"`+", text)] + [2])
    return "`" * (longest + 1)


def markdown_code(text):
    fence = markdown_fence(text)
    return f"{fence}\n{text}\n{fence}"


def html_cell(text):
    """A case's PASS or FAIL in its colour."""
    if text in ("PASS", "FAIL"):
        return f'<td class="{text.lower()}">{html.escape(text)}</td>'
    return f"<td>{html.escape(text)}</td>"


# The feedback pages' own kinds (rendering.py has the others): a list, a table of
# strings, a program's output or log.
MARKDOWN_KINDS = {
    "list": lambda entries: "\n".join(f"- {rendering.markdown_text(entry)}" for entry in entries),
    "table": lambda header, rows: rendering.markdown_table(header, rows, markdown_cell),
    "code": markdown_code,
}
HTML_KINDS = {
    "list": lambda entries: "<ul>" + "".join(f"<li>{html.escape(entry)}</li>" for entry in entries) + "</ul>",
    "table": lambda header, rows: rendering.html_table(header, rows, html_cell),
    "code": lambda text: f"<pre>{html.escape(text)}</pre>",
}


def render_markdown(blocks):
    return rendering.render_markdown(blocks, MARKDOWN_KINDS)


STYLE = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
         "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.2em .6em;text-align:left}"
         "td.pass{color:#060}td.fail{color:#a00;font-weight:bold}"
         "pre{background:#f4f4f4;padding:.6em;overflow-x:auto;white-space:pre-wrap}")


def render_html(blocks, lang="en"):
    """The same blocks as a self-contained page in `lang`: everything escaped, no external asset."""
    return rendering.render_html(blocks, HTML_KINDS, "Feedback", STYLE, lang)


# ---------------------------------------------------------------------------------------
# junit.xml

def first_line(text):
    for line in text.split("\n"):
        if line.strip():
            return line.strip()[:MESSAGE_CHARS]
    return ""


def junit_case(suite, classname, name, seconds=None):
    case = ElementTree.SubElement(suite, "testcase", classname=classname, name=name)
    if is_number(seconds):
        case.set("time", f"{seconds:.3f}")
    return case


def junit_suite(parent, submission):
    """One <testsuite> per student, one <testcase> per item, and one per exercise that was
    not graded: <skipped/> when it could not run, <failure> otherwise."""
    student = clean(submission.student)
    suite = ElementTree.SubElement(parent, "testsuite", name=student)
    counts = {"tests": 0, "failures": 0, "skipped": 0}
    for row in submission.rows:
        classname = f"{student}.{clean(row['id'])}"
        if row["status"] == "graded":
            for item in row.get("items", []):
                counts["tests"] += 1
                case = junit_case(suite, classname, clean(item["name"]), item.get("seconds"))
                if not item["passed"]:
                    counts["failures"] += 1
                    output = shown(item.get("output"))
                    message = first_line(output) or points_of(item)
                    failure = ElementTree.SubElement(case, "failure", message=message,
                                                     type="hidden case" if item.get("hidden") else "case")
                    failure.text = output
            continue
        counts["tests"] += 1
        case = junit_case(suite, classname, clean(row["id"]), row.get("seconds"))
        if row["status"] == "skipped":
            counts["skipped"] += 1
            ElementTree.SubElement(case, "skipped", message=first_line(explanation(row)))
        else:
            counts["failures"] += 1
            failure = ElementTree.SubElement(case, "failure", type=row["status"],
                                             message=first_line(explanation(row)))
            failure.text = shown(row.get("build_log")) or explanation(row)
    for key, value in counts.items():
        suite.set(key, str(value))
    suite.set("errors", "0")
    if submission.credit:
        # A property, never a test: a test's failure would count against the submission.
        properties = ElementTree.Element("properties")
        for name, value in (("speed_credit", points(submission.credit["score"])),
                            ("speed_credit_max", points(submission.credit["max_score"]))):
            ElementTree.SubElement(properties, "property", name=name, value=value)
        suite.insert(0, properties)
    if is_number(submission.result.get("seconds")):
        suite.set("time", f"{submission.result['seconds']:.3f}")
    warnings = submission.result.get("warnings", [])
    if warnings:
        ElementTree.SubElement(suite, "system-out").text = "\n".join(clean(warning) for warning in warnings)
    return counts


def junit(found):
    root = ElementTree.Element("testsuites", name="grading")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for submission in found:
        for key, value in junit_suite(root, submission).items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    if hasattr(ElementTree, "indent"):     # Python 3.9 and later
        ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


# ---------------------------------------------------------------------------------------
# gradescope/<student>/results.json
#
# Field names and values from Gradescope's "Autograder Specifications", Output format
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/, source docs/specs.md
# in github.com/gradescope/autograder_samples): top level "score", "output",
# "output_format", "visibility", "stdout_visibility", "tests"; per test "name", "score",
# "max_score", "status" ("passed" or "failed"), "output", "visibility" ("hidden": never
# shown to students, instructors always see it). The top level has no "max_score" in
# the specification, so none is written; "execution_time" is left out to keep the file
# free of timings. "extra_data" ("Optional extra data to be stored") holds the speed credit,
# which the score never includes. "output_format": "text" because the top-level default,
# "simple_format", renders HTML, and the output quotes warnings about student files.
#
# A skipped exercise (its check could not run: no GPU) is not graded yet: its test has
# no "score", "max_score" or "status" (all optional in the specification), so it is
# neither 0 nor "failed", and a submission with one has no top-level "score" either
# (the specification lets the tests' scores make the total) and says NOT COMPLETE
# first in its "output": such a file is not meant to be uploaded before a grading on
# a GPU completes it.

def gradescope_test(name, score, max_score, passed, output, hidden=False):
    return {"name": name, "score": tidy(score), "max_score": tidy(max_score),
            "status": "passed" if passed else "failed", "output": output,
            "visibility": "hidden" if hidden else "visible"}


def status_word(row, lang):
    return row["status"] if lang == "en" else SAY(f"short {row['status']}", lang)


def gradescope_result(submission, lang="en"):
    """Gradescope's results.json, its words in `lang` (the feedback's language)."""
    tests, summary = [], []
    for row in submission.rows:
        exercise_id = clean(row["id"])
        if row["status"] == "graded":
            summary.append(SAY("graded", lang, exercise=exercise_id))
            for item in row.get("items", []):
                tests.append(gradescope_test(f"{exercise_id}: {clean(item['name'])}", item["score"],
                                             item["max_score"], item["passed"], shown(item.get("output")),
                                             item.get("hidden", False)))
        elif row["status"] == "skipped":
            summary.append(SAY("not graded yet", lang, exercise=exercise_id))
            tests.append({"name": SAY("not graded yet test", lang, exercise=exercise_id),
                          "output": explanation(row, lang), "visibility": "visible"})
        else:
            label = SAY("status of", lang, exercise=exercise_id, status=status_word(row, lang))
            summary.append(label)
            text = explanation(row, lang)
            if row.get("build_log"):
                text += "\n\n" + shown(row["build_log"])
            tests.append(gradescope_test(label, 0, row["max_score"], False, text))
    # Per-exercise scores stay out of the summary: they would tell what hidden cases did.
    summary += [SAY("note", lang, warning=clean(warning)) for warning in submission.result.get("warnings", [])]
    if submission.credit:
        summary.append(credit_sentence(submission, lang))
    if not submission.complete:
        summary.insert(0, SAY("incomplete result", lang))
    result = {"score": submission.score, "output": "\n".join(summary), "output_format": "text",
              "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}
    if submission.credit and submission.complete:
        # The specification's "extra_data" is stored, never scored: the score stays the grade.
        result["extra_data"] = {"speed_credit": submission.credit["score"],
                                "speed_credit_max": submission.credit["max_score"]}
    if not submission.complete:
        del result["score"]
    return result


# ---------------------------------------------------------------------------------------
# classroom/<student>.json and .b64
#
# The result a GitHub Classroom grader action hands to classroom-resources/
# autograding-grading-reporter, as the graders of github.com/classroom-resources write it
# (autograding-io-grader src/main.js; autograding-python-grader bin/run.sh) and the
# reporter reads it (autograding-grading-reporter src/main.js, console-results.js,
# notify-classroom.js): {"version": 1, "status": "pass"|"fail"|"error", "max_score": N,
# "tests": [{"name", "status": "pass"|"fail"|"error", "score", "message", "test_code",
# "filename", "line_no"}]}. The reporter takes it base64-encoded, from the environment
# variable <RUNNER>_RESULTS (the grader's `result` output), so <student>.b64 holds that
# text. The points it reports are the sum of the tests' "score" over "max_score".
# The graders' per-test timing ("duration" or "execution_time") is left out: the
# reporter does not read it, and these files stay free of timings.
#
# Students read the reporter's log, so a hidden case's output is not copied there.
#
# The speed credit (--speed-credit) is not written here: every test's "score" adds to the
# points the reporter shows, and the format has no field beside them; the feedback page says it.
#
# A skipped exercise (its check could not run: no GPU) is not graded yet: its test has
# the status "error" (the grading machine's doing, not the student's: never "fail")
# and no "score", and the result's top-level status is "error" until a grading on a
# GPU completes it.

def classroom_test(name, status, score, message, filename):
    return {"name": name, "status": status, "score": tidy(score), "message": message,
            "test_code": "", "filename": filename, "line_no": 0}


def student_file(exercise):
    files = exercise.get("files") or {}
    paths = sorted(str(path) for path in files.values())
    return clean(paths[0]) if paths else ""


def classroom_result(submission, lang="en"):
    """GitHub Classroom's result, its words in `lang` (the feedback's language); the
    statuses stay the reporter's own words."""
    tests = []
    for row in submission.rows:
        exercise_id, filename = clean(row["id"]), student_file(row)
        if row["status"] != "graded":
            text = explanation(row, lang)
            if row.get("build_log"):
                text += "\n\n" + shown(row["build_log"])
            if row["status"] == "skipped":
                test = classroom_test(SAY("not graded yet test", lang, exercise=exercise_id), "error", 0, text,
                                      filename)
                del test["score"]
                tests.append(test)
                continue
            # error is the grading machine's doing, not the student's.
            status = "error" if row["status"] == "error" else "fail"
            tests.append(classroom_test(SAY("status of", lang, exercise=exercise_id, status=status_word(row, lang)),
                                        status, 0, text, filename))
            continue
        for item in row.get("items", []):
            if item["passed"]:
                message = ""
            elif item.get("hidden"):
                message = SAY("hidden failed", lang, points=points_of(item, lang))
            else:
                message = shown(item.get("output")) or points_of(item, lang)
            tests.append(classroom_test(f"{exercise_id}: {clean(item['name'])}",
                                        "pass" if item["passed"] else "fail", item["score"], message, filename))
    statuses = {test["status"] for test in tests}
    status = "error" if "error" in statuses else "fail" if "fail" in statuses else "pass"
    return {"version": 1, "status": status, "max_score": submission.max_score, "tests": tests}


# ---------------------------------------------------------------------------------------
# Writing

def write_atomic(path, data):
    """Writes a report whole (atomic_write.py). No fsync: every report can be rebuilt from
    the result files (tools/course grade --reports-only)."""
    try:
        atomic_write.write_bytes(path, data)
    except OSError as error:
        raise ReportError(f"cannot write {path}: {error.strerror or error}") from error


def json_bytes(value):
    # ASCII escapes: valid JSON whatever a student's program printed.
    return (json.dumps(value, indent=2) + "\n").encode("ascii")


def write_all(results_dir, results, exercises, feedback_lang="en"):
    """Write every report under results_dir from `results` (load_results) with the
    configured exercise ids `exercises` as columns (None: every id some result has), and
    return the paths written, in a fixed order. What students read (the feedback pages, the
    Gradescope and Classroom results) is in `feedback_lang` ("en" or "fr"); the gradebook
    and junit.xml, the instructor's, in English. Reports of students no longer in
    `results` are left where they are."""
    students = [result.get("student") for result in results]
    for student in students:
        if name_problem(student):
            raise ReportError(f"student name {ascii(student)} cannot name a report file: {name_problem(student)}")
    if len(set(students)) != len(students):
        raise ReportError("a student appears twice in the results")
    columns = columns_of(results, exercises)
    found = submissions(results, columns)
    written = []

    def put(relative, data):
        path = os.path.join(results_dir, relative)
        write_atomic(path, data if isinstance(data, bytes) else data.encode("utf-8"))
        written.append(path)

    put("gradebook.csv", gradebook(found, columns))
    for submission in found:
        blocks = feedback_blocks(submission, feedback_lang)
        put(os.path.join("feedback", f"{submission.student}.md"), render_markdown(blocks))
        put(os.path.join("feedback", f"{submission.student}.html"), render_html(blocks, feedback_lang))
    put("junit.xml", junit(found))
    for submission in found:
        put(os.path.join("gradescope", submission.student, "results.json"),
            json_bytes(gradescope_result(submission, feedback_lang)))
    for submission in found:
        classroom = classroom_result(submission, feedback_lang)
        put(os.path.join("classroom", f"{submission.student}.json"), json_bytes(classroom))
        compact = json.dumps(classroom, separators=(",", ":")).encode("ascii")
        put(os.path.join("classroom", f"{submission.student}.b64"), base64.b64encode(compact) + b"\n")
    return written


# ---------------------------------------------------------------------------------------
# The terminal table at the end of a grading

def summary_table(results, exercises):
    """Student, a score (or what went wrong) per exercise, total: fixed-width, for the end
    of a grading. Columns are headed by exercise number."""
    columns = columns_of(results, exercises)
    found = submissions(results, columns)
    if not found:
        return "no submissions"
    header = ["student"] + [number_of({"id": column}) for column in columns] + ["total"]
    rows = [[submission.student]
            + [points(row["score"]) if row["status"] == "graded" else SHORT[row["status"]]
               for row in submission.rows]
            + [f"{points(submission.score)}{'' if submission.complete else '+?'}/{points(submission.max_score)}"]
            for submission in found]
    widths = [max(len(row[index]) for row in [header] + rows) for index in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[0]) if index == 0 else cell.rjust(widths[index])
                       for index, cell in enumerate(row)).rstrip() for row in [header] + rows]
    used = sorted({row["status"] for submission in found for row in submission.rows} - {"graded"},
                  key=STATUSES.index)
    abbreviated = [f"{SHORT[status]} = {status}" for status in used if SHORT[status] != status]
    if abbreviated:
        lines.append("(" + ", ".join(abbreviated) + ")")
    if not all(submission.complete for submission in found):
        lines.append("(+? = not complete: the skipped exercises are not graded yet, their points neither "
                     "earned nor lost; a grading on a GPU grades them)")
    return "\n".join(lines)
