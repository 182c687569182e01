"""The answers files: each exercise's statement ends with Questions, and the student writes
the answers in exercises/NN_name/answers.md (answers.fr.md beside the French statement),
hands it in with the code, and the grader shows them to the teacher (feedback page, class
report). They earn no points by themselves: the teacher reads them.

    tools/course answers            write every exercise's answers.md and answers.fr.md from
                                    its statements' Questions
    tools/course answers --check    write nothing; exit 1 where a file differs from what the
                                    statements give (CTest course.answers)

The files are generated, one question per section, the question quoted, a placeholder line
to replace; parse() reads a filled one back (the grader). The statements are the one source:
a question changed there changes the file here.
"""
import argparse
import glob
import os
import re
import sys

from course_tools.authoring.french_typography import fix_text
from course_tools.student.paths import ROOT

FILES = {"en": ("README.md", "answers.md"), "fr": ("README.fr.md", "answers.fr.md")}
PLACEHOLDER = {"en": "(your answer)", "fr": "(votre réponse)"}
HEADER = {
    "en": ("# Exercise {number}: your answers\n\n"
           "Write your answer under each question, in place of the line `(your answer)`: a few\n"
           "sentences, figures you measured, code in ``` blocks. This file is handed in with your\n"
           "code (keep it in this folder); the grader shows your answers to your teacher. They\n"
           "earn no points by themselves. The questions are those of README.md.\n"),
    "fr": ("# Exercice {number} : vos réponses\n\n"
           "Écrivez votre réponse sous chaque question, à la place de la ligne `(votre réponse)` :\n"
           "quelques phrases, les valeurs que vous avez mesurées, du code entre ```. Ce fichier est\n"
           "rendu avec votre code (gardez-le dans ce dossier) ; le correcteur montre vos réponses à\n"
           "votre enseignant. Elles ne rapportent aucun point par elles-mêmes. Les questions sont\n"
           "celles de README.fr.md.\n"),
}
QUESTION_HEADING = re.compile(r"^## Question (\d+)\s*$", re.M)
ITEM = re.compile(r"^(\d+)\.\s+(.*)$")
LARGEST_ANSWERS = 100_000  # characters of an answers file read back (the rest is cut, said so)


def questions(statement):
    """[(number, text)] of the numbered list under a statement's '## Questions' heading."""
    found, inside, current = [], False, None
    for line in statement.splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line.strip() == "## Questions"
            continue
        if not inside:
            continue
        item = ITEM.match(line)
        if item:
            current = [int(item.group(1)), item.group(2).strip()]
            found.append(current)
        elif current is not None and line.startswith("   ") and line.strip():
            current[1] += " " + line.strip()
        elif line.strip():
            current = None  # a paragraph after the list: not a question's text
    return [(number, text) for number, text in found]


def template(number, lang, asked):
    parts = [HEADER[lang].format(number=number)]
    for index, text in asked:
        parts.append(f"## Question {index}\n\n> {text}\n\n{PLACEHOLDER[lang]}\n")
    text = "\n".join(parts)
    return fix_text(text)[0] if lang == "fr" else text


def parse(text, lang):
    """{question number: the answer, '' when left as the template} of a filled answers file."""
    cut = text[:LARGEST_ANSWERS]
    answers = {}
    headings = list(QUESTION_HEADING.finditer(cut))
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(cut)
        body = [line for line in cut[heading.end():end].splitlines() if not line.startswith(">")]
        answer = "\n".join(body).strip()
        answers[int(heading.group(1))] = "" if answer in (PLACEHOLDER["en"], PLACEHOLDER["fr"]) else answer
    return answers


def expected(root=ROOT):
    """{path: text} of every answers file the statements give."""
    files = {}
    for folder in sorted(glob.glob(os.path.join(root, "exercises", "[0-9][0-9]_*"))):
        number = os.path.basename(folder)[:2]
        for lang, (statement_name, answers_name) in FILES.items():
            statement = os.path.join(folder, statement_name)
            if not os.path.isfile(statement):
                continue
            with open(statement, encoding="utf-8") as handle:
                asked = questions(handle.read())
            if asked:
                files[os.path.join(folder, answers_name)] = template(number, lang, asked)
    return files


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--root", default=ROOT)
    options = parser.parse_args(argv[1:])
    files = expected(options.root)
    stale = []
    for path, text in files.items():
        try:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            current = None
        if current != text:
            stale.append(path)
            if not options.check:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
    shown = [os.path.relpath(path, options.root) for path in stale]
    if options.check:
        for path in shown:
            print(f"answers: {path} is not what the statement's Questions give: run tools/course answers",
                  file=sys.stderr)
        if stale:
            return 1
        print(f"answers: the {len(files)} answers files hold their statements' questions")
        return 0
    print(f"answers: wrote {len(stale)} of {len(files)} answers files")
    return 0
