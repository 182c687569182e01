"""compile_commands.json for editors: the exact nvcc commands of the students' path.

clangd (and editors built on it) reads this file to know each source's flags, so that
`#include "course/..."` and the CUDA headers resolve. student/commands.py records every
compilation it runs; entries from earlier exercises are kept, so the file covers every
exercise built so far. Each source gets its own entry, with the other sources of the same
command left out (one input per entry, as clangd expects). A reference solution beside a
compiled exercise file gets the same command, so it opens with the same flags.
"""
import json
import os

from course_tools.student import atomic_write


def entries_for(root, command, sources):
    """The entries of one command, whose relative paths are relative to the current folder."""
    directory = os.getcwd()
    entries = []
    absolute = [os.path.abspath(s) for s in sources]
    for source in absolute:
        arguments = [word for word in command
                     if os.path.abspath(word) not in absolute or os.path.abspath(word) == source]
        entries.append({"directory": directory, "file": source, "arguments": arguments})
        relative = os.path.relpath(source, root)
        if relative.startswith("exercises" + os.sep):
            solution = os.path.join(root, "solutions", relative[len("exercises" + os.sep):])
            if os.path.isfile(solution):
                entries.append({"directory": directory, "file": solution, "arguments": [
                    os.path.relpath(solution) if os.path.abspath(word) == source else word
                    for word in arguments]})
    return entries


def record(database, root, command, sources):
    """Adds (or replaces) the entries of `sources` compiled by `command` in `database`."""
    try:
        with open(database, encoding="utf-8") as handle:
            known = json.load(handle)
        if not isinstance(known, list):
            known = []
    except (OSError, ValueError):
        known = []
    new = entries_for(root, command, sources)
    replaced = {entry["file"] for entry in new}
    merged = [e for e in known if isinstance(e, dict) and e.get("file") not in replaced] + new
    merged.sort(key=lambda entry: entry.get("file", ""))
    # Atomic, so that two builds at once leave a readable file (the later one wins).
    atomic_write.write_json(database, merged, mode=0o644)


def link_where_editors_look(database, link):
    """clangd looks for compile_commands.json in the parents of a file and their build/
    folders: `link` (build/compile_commands.json) points there, unless something else is
    there already (an instructor's own link to a CMake preset's file, say)."""
    if not os.path.lexists(link):
        os.symlink(os.path.relpath(database, os.path.dirname(link)), link)
