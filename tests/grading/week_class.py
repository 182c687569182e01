#!/usr/bin/env python3
"""A small class for the instructor's week on a GPU: the class report's leaderboard, its
similar-code pairs and its answers, shown on real gradings rather than on faked results
(tests/tools/fake_class.py does that without a GPU).

    tests/grading/week_class.py write CLASS [--exercises 11,13]
    sudo tools/course grade CLASS --class --results RESULTS --exercises 11,13 --jobs 4
    tests/grading/week_class.py check CLASS RESULTS

The students:
  ada    the reference solutions, the English answers files filled in
  ben    the reference solutions, the French answers files filled in
  cleo   ben's files with small edits (a header comment of her own, other indentation,
         blank lines) and ben's answers: the pair the similar-code table must list
  dan    the first known-wrong variant of tests/mutants/ for each exercise (a few wrong)
  eve    the second known-wrong variant, where the exercise has one
Every student starts from the same reference code, so sim_c rightly finds ada, ben and the
variants alike too: check asks for the (ben, cleo) pair, not for it alone.

check reads RESULTS/class.html and the results: each graded timed case has a leaderboard
naming every student graded for it and the GPU, leaderboard.html has the ids in place of
names, (ben, cleo) is a similar-code pair for each exercise compared, ada's and ben's answers
are on the page, and dan's and eve's grades are below the reference's. Exit 0 when all hold.
"""
import argparse
import html
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
from course_tools.student import exercises as course_exercises  # noqa: E402
from course_tools.grading import class_report, reports  # noqa: E402
import mutant_class  # noqa: E402  (variants, solution_files)
import run_catalog  # noqa: E402  (parse_edits, apply_edits)

# Each filled answer opens with its student's words, which check looks for on the page.
ANSWER_OPENING = {"en": "ada measured this on the grading GPU", "fr": "Mesuré par ben sur le GPU de correction"}
ANSWER = {"en": ANSWER_OPENING["en"] + ": question {question} of exercise {number}.",
          "fr": ANSWER_OPENING["fr"] + " : question {question} de l'exercice {number}."}
ANSWERS_LANGUAGE = {"ada": "en", "ben": "fr"}


def filled_answers(folder, number, lang):
    """The exercise's answers file in `lang` with every placeholder replaced by a marked answer."""
    name = "answers.md" if lang == "en" else "answers.fr.md"
    with open(os.path.join(folder, name), encoding="utf-8") as handle:
        text = handle.read()
    counter = iter(range(1, 1000))
    placeholder = "(your answer)" if lang == "en" else "(votre réponse)"
    return name, re.sub(re.escape(placeholder),
                        lambda _: ANSWER[lang].format(question=next(counter), number=number), text)


def small_edits(text):
    """What a student who copied does to hide it: a comment of their own on top, two-space
    indentation instead of four, a blank line after every closing brace. sim_c compares
    tokens, so none of it hides the copy."""
    lines = ["// My own work for this exercise.", ""]
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        lines.append(" " * ((len(line) - len(stripped)) // 2) + stripped)
        if stripped == "}":
            lines.append("")
    return "\n".join(lines) + "\n"


def write_files(class_dir, student, exercise, files, extra=()):
    for name, content in list(files.items()) + list(extra):
        path = os.path.join(class_dir, student, "exercises", exercise.id, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(content)


def write(class_dir, numbers):
    exercises = mutant_class.chosen(numbers)
    for exercise in exercises:
        folder = os.path.join(ROOT, "exercises", exercise.id)
        solution = mutant_class.solution_files(exercise)
        english = filled_answers(folder, exercise.number, "en")
        french = filled_answers(folder, exercise.number, "fr")
        write_files(class_dir, "ada", exercise, solution, [english])
        write_files(class_dir, "ben", exercise, solution, [french])
        write_files(class_dir, "cleo", exercise, {name: small_edits(text) for name, text in solution.items()},
                    [french])
        wrong = mutant_class.variants(exercise)
        if not wrong:
            raise ValueError(f"exercise {exercise.number} has no known-wrong variant in tests/mutants")
        for student, (variant, _, target, text) in zip(("dan", "eve"), wrong):
            edited = dict(solution)
            edited[target] = run_catalog.apply_edits(solution[target], run_catalog.parse_edits(text, variant),
                                                     variant, target)
            write_files(class_dir, student, exercise, edited)
            print(f"{student}: exercise {exercise.number}, known-wrong variant {variant}")
    print(f"class written in {class_dir}: ada, ben, cleo (ben's copy), dan, eve; exercises {numbers}")
    return 0


def check(class_dir, results_dir):
    results = reports.load_results(results_dir)
    data = class_report.gather(results, None, class_report.listed_not_graded(results_dir))
    with open(os.path.join(results_dir, class_report.HTML_FILE), encoding="utf-8") as handle:
        page = handle.read()
    with open(os.path.join(results_dir, class_report.LEADERBOARD_FILE), encoding="utf-8") as handle:
        projected = handle.read()
    problems = []
    students = sorted(name for name in os.listdir(class_dir) if os.path.isdir(os.path.join(class_dir, name)))
    graded = {submission.student for submission in data.found}
    if set(students) - graded:
        problems.append(f"not graded: {sorted(set(students) - graded)}")

    boards = class_report.speed_boards(data)
    if not boards:
        problems.append("no leaderboard: no timed case was graded")
    for column, case, figure, _, bar, reference, gpus, rows in boards:
        named = [student for student, _, _ in rows]
        print(f"leaderboard {column} {case} ({figure}, bar {bar}, reference {reference}, on {gpus}): "
              + ", ".join(f"{student} {measured:.3f}" if isinstance(measured, (int, float)) else f"{student} -"
                          for student, measured, _ in rows))
        if f"leaderboard-{column}-{case}" not in page:
            problems.append(f"class.html lacks the leaderboard of {column} {case}")
        if "ada" not in named or "ben" not in named:
            problems.append(f"leaderboard {column} {case} does not rank the reference copies: {named}")
        if gpus == "the grading GPU":
            problems.append(f"leaderboard {column} {case} names no GPU")
    for student in students:
        if f">{html.escape(student)}<" in projected:
            problems.append(f"leaderboard.html names {student} (it must show ids only)")

    alike = class_report.similarity.compare(results_dir, ROOT, data.columns, sorted(graded))
    if alike.missing_tool:
        problems.append(f"similarity not compared: {alike.missing_tool}")
    compared = [exercise for exercise, _ in alike.compared]
    for exercise in compared:
        pair = next((p for p in alike.pairs if p.exercise == exercise and {p.first, p.second} == {"ben", "cleo"}),
                    None)
        if pair is None:
            problems.append(f"{exercise}: ben and cleo are not listed as alike")
        else:
            print(f"similar code {exercise}: ben / cleo {pair.first_in_second}% / {pair.second_in_first}%")
    for exercise, median in alike.too_short:
        print(f"similar code {exercise}: not compared (median {median} own tokens)")
    if not compared:
        problems.append("no exercise was compared for similar code")
    if 'id="similar-code"' not in page:
        problems.append("class.html has no similar-code section")

    for student, lang in ANSWERS_LANGUAGE.items():
        marker = html.escape(ANSWER_OPENING[lang])
        if marker not in page:
            problems.append(f"class.html does not show {student}'s answers ({marker!r})")

    scores = {submission.student: submission.score for submission in data.found}
    print("grades: " + ", ".join(f"{student} {reports.points(scores.get(student, 0))}" for student in students))
    for wrong in ("dan", "eve"):
        if wrong in scores and scores[wrong] >= scores.get("ada", 0):
            problems.append(f"{wrong} (a known-wrong variant) scored {scores[wrong]}, not below ada's {scores['ada']}")
    for problem in problems:
        print(f"FAIL: {problem}")
    print("week_class: " + ("every section holds" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    writing = commands.add_parser("write")
    writing.add_argument("class_dir")
    writing.add_argument("--exercises", default="11,13", help="comma-separated numbers (default 11,13)")
    checking = commands.add_parser("check")
    checking.add_argument("class_dir")
    checking.add_argument("results_dir")
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "write":
            return write(arguments.class_dir, arguments.exercises)
        return check(arguments.class_dir, arguments.results_dir)
    except (course_exercises.ExerciseError, run_catalog.CatalogError, reports.ReportError, ValueError,
            OSError) as error:
        print(f"week_class.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
