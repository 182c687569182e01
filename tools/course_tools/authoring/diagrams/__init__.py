"""The lecture decks' diagrams, drawn as SVG text: one function per diagram, in the module of
the deck that shows it (part1.py, part2.py, part3.py, slurm.py), each drawn once per language:
slides/diagrams/NAME.svg for the English decks, NAME.fr.svg for the French ones, which the
decks show as images (![...](diagrams/NAME.svg), ![...](diagrams/NAME.fr.svg)).

    tools/course diagrams                 write every diagram into slides/diagrams/
    tools/course diagrams --deck part1    only that deck's (while drawing; --check covers all)
    tools/course diagrams --check         write nothing; exit 1 when a committed SVG differs
                                          from what is drawn here, is missing, or has no function
    tools/course diagrams --output DIR    write them into DIR instead
    tools/course diagrams --list          print, as JSON, each diagram's deck, exercises and files

The SVGs are committed (the slide tool reads figures from slides/, and the students'
release ships them); the CTest test slides.diagrams runs --check, so an edit here that was
not written out fails. Python's standard library only, and deterministic: the same code
writes the same bytes.

Where the numbers come from: numbers.py. The writer and its layout rules (canvas, smallest
text, nothing outside its box, no two texts overlapping): svg.py. A diagram function is
marked @diagram("NN", ...) with the exercises whose ideas it shows; each exercise has one
at least (tests/tools/test_diagrams.py).
"""
import argparse
import json
import os
import sys

from course_tools.authoring.diagrams import part1, part2, part3, slurm
from course_tools.authoring.diagrams.svg import LANGUAGES, LayoutError, Say, require
from course_tools.student.paths import ROOT

DIAGRAMS_DIR = os.path.join(ROOT, "slides", "diagrams")
DECKS = {"part1": part1, "part2": part2, "part3": part3, "slurm": slurm}


def file_name(name, lang):
    return f"{name}.svg" if lang == "en" else f"{name}.{lang}.svg"


def listed():
    """[(deck, function)] of every diagram, in the decks' order."""
    return [(deck, function) for deck, module in DECKS.items() for function in module.DIAGRAMS]


def drawn(decks=None):
    """({file name: SVG text}, [layout problems]) of every diagram of `decks` (all by default)."""
    result, problems = {}, []
    for deck, function in listed():
        if decks and deck not in decks:
            continue
        for lang in LANGUAGES:
            try:
                svg = function(Say(lang))
                require(svg.name == function.__name__, f"{function.__name__} draws {svg.name}")
                result[file_name(svg.name, lang)] = svg.render(function)
            except LayoutError as error:
                problems.append(f"{deck}.py, {lang}: {error}")
    return result, problems


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--deck", action="append", choices=sorted(DECKS))
    parser.add_argument("--output", default=DIAGRAMS_DIR)
    options = parser.parse_args(argv[1:])
    if options.list:
        print(json.dumps([{"name": f.__name__, "deck": deck, "exercises": list(getattr(f, "exercises", ())),
                           "files": [file_name(f.__name__, lang) for lang in LANGUAGES]}
                          for deck, f in listed()], indent=1))
        return 0
    diagrams, problems = drawn(None if options.check else options.deck)
    for problem in problems:
        print(f"diagrams: {problem}", file=sys.stderr)
    if problems:
        return 1
    folder = os.path.abspath(options.output)
    shown = os.path.relpath(folder, ROOT) if folder.startswith(ROOT + os.sep) else folder
    if options.check:
        present = sorted(n for n in os.listdir(folder) if n.endswith(".svg")) if os.path.isdir(folder) else []
        problems = [f"{shown}/{n}: no function in tools/course_tools/authoring/diagrams/ draws it (remove it, or add one)"
                    for n in present if n not in diagrams]
        for name, text in sorted(diagrams.items()):
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                problems.append(f"{shown}/{name}: missing: run tools/course diagrams")
                continue
            with open(path, encoding="utf-8") as handle:
                if handle.read() != text:
                    problems.append(f"{shown}/{name}: out of date: run tools/course diagrams and commit it")
        for problem in problems:
            print(f"diagrams: {problem}", file=sys.stderr)
        if problems:
            return 1
        print(f"diagrams: the {len(diagrams)} diagrams in {shown} are what tools/course diagrams draws")
        return 0
    os.makedirs(folder, exist_ok=True)
    for name, text in sorted(diagrams.items()):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"diagrams: wrote {len(diagrams)} diagrams into {shown}")
    return 0
