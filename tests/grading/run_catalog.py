#!/usr/bin/env python3
"""The catalog of hostile and broken submissions, graded and compared with what each
must get.

    tests/grading/run_catalog.py --grader tools/course [--entries a,b] [--keep DIR]
                                 [--jobs N] [--seed N] [--timeout SECONDS]
    tests/grading/run_catalog.py --check-only RESULTS [--class DIR] [--entries a,b]
    tests/grading/run_catalog.py --materialise DIR [--entries a,b]

Each entry of tests/grading/catalog/ (its entry.json, tests/grading/README.md
describes the format) is one student's submission: a compile error, a fork bomb, a
forged report, a correct repository as a tarball... Entries describe their files as
edits of the course's own files (the "@@ find / @@ replace / @@ end" format of
cmake/Mutants.cmake), so the catalog never holds a second copy of a solution and
follows the course as it changes.

The whole catalog is one class, graded by one run of the grader, because what it
proves is that every submission gets its due *without disturbing the others*: a
sandbox failure in one entry shows up as a wrong result in another, as a file left
where no submission may write (no_file_named), a canary file deleted from the class,
results or build folder (canaries_intact), or a process that outlived its run
(no_process_named).

One line per entry: PASS, FAIL with the unmet expectations, or SKIPPED when an
exercise that must be graded came back "skipped" (no GPU here); expectations that need
no GPU (builds, missing files, warnings) are checked all the same. Where no GPU is
visible (or with --cpu-only), that is decided first: the grader runs with --cpu-only
(it builds, and runs no check) on the exercises the expectations name, so the
catalog says SKIPPED for the GPU expectations in a minute or two instead of grading
every exercise's checks for nothing. Exit status: 1 if
any entry failed, 77 if none failed but some were skipped (CTest's skip code), 0
otherwise, 2 when the catalog or the command line is wrong.

Python 3 standard library only (and the course's tools/course_tools/grading/gpu.py, which is too).
"""
import argparse
import dataclasses
import datetime
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import xml.etree.ElementTree
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CATALOG = os.path.join(HERE, "catalog")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import gpu  # noqa: E402
from course_tools.student import exercises  # noqa: E402

LAYOUTS = ("repository", "flat", "tar.gz", "git")
STATUSES = ("graded", "build_failed", "missing", "incomplete", "skipped", "error")
# Only a graded exercise needs a GPU: builds, missing files and warnings do not.
GPU_STATUS = "graded"
SKIPPED_STATUS = "skipped"
FILE_KINDS = ("from", "text", "symlink", "tree")
EXERCISE_KEYS = ("status", "score", "max_score", "output_contains", "output_lacks", "items")
# What an expectation may say of one item of a graded exercise (a case, or a sanitizer
# run: "memcheck", "racecheck", "synccheck"), named by the item's name.
ITEM_KEYS = ("score", "max_score", "passed", "output_contains", "output_lacks")
EXPECT_KEYS = ("exercises", "warnings_contain", "warnings_count", "no_file_named",
               "canaries_intact", "no_process_named", "result_max_bytes", "seconds", "reports_inert",
               "graded_alongside")
# Every submission is graded within this, whatever the others do (an entry may say less):
# the hostile ones end at their own limits and must not hold anyone up.
DEFAULT_MAX_SECONDS = 300
# The others graded while a submission is: with N at a time, up to N - 1 at each moment;
# over a whole grading, this many at least, so that "finished on time" means something.
ALONGSIDE_WANTED = 8
ENTRY_KEYS = ("description", "layout", "files", "expect", "archive_prefix")

# Files that hostile entries try to plant carry this text; the sweep removes only
# files that do, so that it can never delete anything else.
PLANTED_MARKER = "left by the course's grading catalog"
# Canary files planted before grading; deletes_files must not be able to remove them.
CANARY_PREFIX = "course-catalog-canary"
# A watched process seen older than this escaped the kill at the end of its run. A run
# is one served program answering all its cases (20 s each at most, waits for the GPU
# lock not counted), or the same under compute-sanitizer: in the GPU suite, with every
# core busy, such a run lasted 42 s. The daemon lives 240 s by itself and the fork
# bomb's children 180 s, so that one that escaped is still seen well past this.
PROCESS_GRACE_SECONDS = 120
# The most entries a sweep for planted files lists (sweep_planted).
SWEEP_MAX_ENTRIES = 200000
TREE_SKIPPED = {".git", "__pycache__", "build"}
FIXED_MTIME = 1700000000  # archive members get one date, so archives are reproducible
EXIT_SKIPPED = 77


class CatalogError(Exception):
    """A catalog entry, an edits file or the command line is wrong: a clear message."""


# ---------------------------------------------------------------------------
# Edits: the format of cmake/Mutants.cmake, in Python
# ---------------------------------------------------------------------------
FIND, REPLACE, END = "@@ find\n", "@@ replace\n", "@@ end"


def parse_edits(text, source):
    """[(find, replace)] from an edits file. Text outside the blocks (comments) is
    ignored, as Mutants.cmake does; a file without a block is an error, since it would
    silently test nothing."""
    blocks = []
    rest = text
    while True:
        find_at = rest.find(FIND)
        if find_at == -1:
            break
        replace_at = rest.find(REPLACE, find_at)
        end_at = rest.find(END, replace_at) if replace_at != -1 else -1
        if replace_at == -1 or end_at == -1:
            raise CatalogError(f"{source}: expected '@@ find', '@@ replace', '@@ end' in this order")
        blocks.append((rest[find_at + len(FIND):replace_at], rest[replace_at + len(REPLACE):end_at]))
        rest = rest[end_at + len(END):]
    if not blocks:
        raise CatalogError(f"{source}: no '@@ find' block")
    return blocks


def apply_edits(text, blocks, source, target):
    """`text` with each block applied in turn. Each find text must occur exactly once
    (in the text as the previous blocks left it), so that an entry that no longer
    applies to the course stops the catalog instead of testing something else."""
    for number, (find, replace) in enumerate(blocks, 1):
        count = text.count(find)
        if count != 1:
            where = "is not in" if count == 0 else f"occurs {count} times in"
            raise CatalogError(f"{source}: the text of block {number} {where} {target}:\n{find}")
        text = text.replace(find, replace)
    return text


# ---------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------
@dataclass
class Entry:
    name: str
    folder: str
    description: str
    layout: str
    files: dict
    expect: dict
    archive_prefix: str = ""

    @property
    def submission_name(self):
        """The name of the submission in the class folder; the student is `name`."""
        return self.name + ".tar.gz" if self.layout == "tar.gz" else self.name


def _check_range(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, dict)):
        raise CatalogError(f"{where}: expected a number or {{\"min\": a, \"max\": b}}, not {value!r}")
    if isinstance(value, dict):
        if not value or set(value) - {"min", "max"}:
            raise CatalogError(f"{where}: a range has 'min' and/or 'max', not {sorted(value)}")
        for bound in value.values():
            if isinstance(bound, bool) or not isinstance(bound, (int, float)):
                raise CatalogError(f"{where}: range bounds must be numbers, not {bound!r}")


def _check_strings(value, where):
    if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
        raise CatalogError(f"{where}: expected a list of non-empty strings")


def _validate_items(items, where):
    if not isinstance(items, dict) or not items:
        raise CatalogError(f"{where}: 'items' must map item names (a case, memcheck, racecheck, "
                           f"synccheck) to expectations")
    for name, spec in items.items():
        at = f"{where}: item {name}"
        if not isinstance(spec, dict) or not spec or set(spec) - set(ITEM_KEYS):
            raise CatalogError(f"{at}: expected an object with keys among {', '.join(ITEM_KEYS)}")
        if "score" in spec and spec["score"] != "full":
            _check_range(spec["score"], f"{at}: score")
        if "max_score" in spec:
            _check_range(spec["max_score"], f"{at}: max_score")
        if "passed" in spec and not isinstance(spec["passed"], bool):
            raise CatalogError(f"{at}: 'passed' must be true or false")
        for key in ("output_contains", "output_lacks"):
            if key in spec:
                _check_strings(spec[key], f"{at}: {key}")


def _validate_expect(expect, where):
    if not isinstance(expect, dict):
        raise CatalogError(f"{where}: 'expect' must be an object")
    unknown = set(expect) - set(EXPECT_KEYS)
    if unknown:
        raise CatalogError(f"{where}: unknown expectation(s) {sorted(unknown)} (known: {', '.join(EXPECT_KEYS)})")
    exercises = expect.get("exercises", {})
    if not isinstance(exercises, dict):
        raise CatalogError(f"{where}: 'exercises' must map exercise numbers to expectations")
    for number, spec in exercises.items():
        at = f"{where}: exercise {number}"
        if len(number) != 2 or not number.isdigit():
            raise CatalogError(f"{at}: exercise numbers have two digits ('03')")
        if not isinstance(spec, dict) or set(spec) - set(EXERCISE_KEYS):
            raise CatalogError(f"{at}: expected an object with keys among {', '.join(EXERCISE_KEYS)}")
        if spec.get("status") not in STATUSES:
            raise CatalogError(f"{at}: 'status' must be one of {', '.join(STATUSES)}")
        if "score" in spec and spec["score"] != "full":
            _check_range(spec["score"], f"{at}: score")
        if "max_score" in spec:
            _check_range(spec["max_score"], f"{at}: max_score")
        for key in ("output_contains", "output_lacks"):
            if key in spec:
                _check_strings(spec[key], f"{at}: {key}")
        if "items" in spec:
            _validate_items(spec["items"], at)
    if "warnings_contain" in expect:
        _check_strings(expect["warnings_contain"], f"{where}: warnings_contain")
    if "warnings_count" in expect:
        _check_range(expect["warnings_count"], f"{where}: warnings_count")
    for key in ("no_file_named", "no_process_named"):
        if key in expect and (not isinstance(expect[key], str) or not expect[key]):
            raise CatalogError(f"{where}: {key} must be a non-empty string")
    if "canaries_intact" in expect and expect["canaries_intact"] is not True:
        raise CatalogError(f"{where}: canaries_intact can only be true")
    if "result_max_bytes" in expect and (not isinstance(expect["result_max_bytes"], int)
                                         or expect["result_max_bytes"] <= 0):
        raise CatalogError(f"{where}: result_max_bytes must be a positive number")
    if "seconds" in expect:
        _check_range(expect["seconds"], f"{where}: seconds")
    for key in ("reports_inert", "graded_alongside"):
        if key in expect and expect[key] is not True:
            raise CatalogError(f"{where}: {key} can only be true")


def _escapes(path):
    """True for a path that leaves the folder it is written into."""
    parts = path.split("/")
    return path.startswith("/") or ".." in parts


def _validate_files(files, layout, folder, where):
    if not isinstance(files, dict) or not files:
        raise CatalogError(f"{where}: 'files' must map paths in the submission to their sources")
    symlinks = {path for path, spec in files.items() if isinstance(spec, dict) and "symlink" in spec}
    for path, spec in files.items():
        at = f"{where}: file '{path}'"
        if not path or path.endswith("/") or "\\" in path or "//" in path:
            raise CatalogError(f"{at}: a path is relative, '/'-separated, without a trailing '/'")
        if layout != "tar.gz" and _escapes(path):
            raise CatalogError(f"{at}: only a tar.gz entry may hold paths outside the submission")
        if layout != "tar.gz" and any(path.startswith(link + "/") for link in symlinks):
            raise CatalogError(f"{at}: only a tar.gz entry may hold a file written through a link")
        if not isinstance(spec, dict):
            raise CatalogError(f"{at}: expected an object")
        kinds = [k for k in FILE_KINDS if k in spec]
        if len(kinds) != 1 or set(spec) - set(FILE_KINDS) - {"edits"}:
            raise CatalogError(f"{at}: expected exactly one of {', '.join(FILE_KINDS)} (and 'edits' with 'from')")
        if "edits" in spec:
            if kinds != ["from"]:
                raise CatalogError(f"{at}: 'edits' applies to a file taken 'from' the course")
            if not os.path.isfile(os.path.join(folder, spec["edits"])):
                raise CatalogError(f"{at}: no edits file {spec['edits']} in {folder}")
        if not isinstance(spec[kinds[0]], str):
            raise CatalogError(f"{at}: '{kinds[0]}' must be a string")


# The complete, correct submissions follow the course as it grows: "solutions": "every"
# in a file spec stands for the reference solution of every exercise, and a list of
# exercise numbers ("solutions": ["03", "16"]) for those exercises' only. Under
# "exercises" each goes to exercises/NN_name/FILE, on top of the spec's "tree" if it has
# one ("exercises": {"tree": "exercises", "solutions": "every"} is a copy of the
# repository); under "." each goes to the top (a flat folder of files). The expectation
# "every" stands for every exercise not named.
SOLUTIONS = "solutions"
EVERY_EXERCISE = "every"


def _chosen_exercises(choice, where, path, root):
    course = exercises.load(root)
    if choice == EVERY_EXERCISE:
        return course
    known = {exercise.number: exercise for exercise in course}
    if not (isinstance(choice, list) and choice and all(isinstance(n, str) for n in choice)):
        raise CatalogError(f"{where}: file '{path}': \"{SOLUTIONS}\" is \"every\" or a list of "
                           "exercise numbers (\"03\")")
    unknown = [number for number in choice if number not in known]
    if unknown:
        raise CatalogError(f"{where}: file '{path}': no exercise numbered {', '.join(unknown)}")
    return [known[number] for number in choice]


def _expand_solutions_and_every(data, where, root):
    files, expect = data.get("files"), data.get("expect")
    if isinstance(files, dict):
        expanded = {}
        for path, spec in files.items():
            if not (isinstance(spec, dict) and SOLUTIONS in spec):
                expanded[path] = spec
                continue
            tree = {key: value for key, value in spec.items() if key != SOLUTIONS}
            nested = path == "exercises" and tree in ({"tree": "exercises"}, {})
            if not (nested or (path == "." and not tree)):
                raise CatalogError(f"{where}: file '{path}': \"{SOLUTIONS}\" goes under \"exercises\" "
                                   "(alone or with {\"tree\": \"exercises\"}) or alone under '.'")
            if tree:
                expanded[path] = tree
            for exercise in _chosen_exercises(spec[SOLUTIONS], where, path, root):
                for name in exercise.student_files:
                    target = f"{path}/{exercise.id}/{name}" if nested else name
                    expanded[target] = {"from": f"solutions/{exercise.id}/{name}"}
        data["files"] = expanded
    wanted = expect.get("exercises") if isinstance(expect, dict) else None
    if isinstance(wanted, dict) and EVERY_EXERCISE in wanted:
        every = wanted.pop(EVERY_EXERCISE)
        for exercise in exercises.load(root):
            wanted.setdefault(exercise.number, dict(every) if isinstance(every, dict) else every)


def load_entry(folder, root=ROOT):
    """The entry described by folder/entry.json, checked; CatalogError names what is wrong."""
    name = os.path.basename(os.path.normpath(folder))
    where = f"catalog entry {name}"
    path = os.path.join(folder, "entry.json")
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise CatalogError(f"{where}: cannot read {path} ({error.strerror})") from error
    except json.JSONDecodeError as error:
        raise CatalogError(f"{where}: {path} is not valid JSON ({error})") from error
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: entry.json must hold an object")
    unknown = set(data) - set(ENTRY_KEYS)
    if unknown:
        raise CatalogError(f"{where}: unknown key(s) {sorted(unknown)} (known: {', '.join(ENTRY_KEYS)})")
    if not isinstance(data.get("description"), str) or not data["description"].strip():
        raise CatalogError(f"{where}: a description says what misbehaves and why it is graded so")
    if data.get("layout") not in LAYOUTS:
        raise CatalogError(f"{where}: 'layout' must be one of {', '.join(LAYOUTS)}")
    prefix = data.get("archive_prefix", "")
    if prefix and (data["layout"] != "tar.gz" or not prefix.endswith("/") or _escapes(prefix)):
        raise CatalogError(f"{where}: archive_prefix is a relative folder ending in '/', for tar.gz only")
    _expand_solutions_and_every(data, where, root)
    _validate_files(data.get("files"), data["layout"], folder, where)
    _validate_expect(data.get("expect"), where)
    return Entry(name=name, folder=folder, description=data["description"], layout=data["layout"],
                 files=data["files"], expect=data["expect"], archive_prefix=prefix)


def load_catalog(names=None, catalog=CATALOG):
    """The catalog's entries (all, or those named), sorted by name."""
    # An empty folder is no entry: git keeps none, but a copy synchronised over an older
    # one keeps the folders of entries since renamed.
    folders = sorted(n for n in os.listdir(catalog)
                     if os.path.isdir(os.path.join(catalog, n)) and os.listdir(os.path.join(catalog, n)))
    lost = [n for n in folders if not os.path.isfile(os.path.join(catalog, n, "entry.json"))]
    if lost:
        raise CatalogError(f"catalog folder(s) without an entry.json: {', '.join(lost)}")
    available = folders
    if names:
        unknown = [n for n in names if n not in available]
        if unknown:
            raise CatalogError(f"no catalog entry named {', '.join(unknown)} (available: {', '.join(available)})")
        available = [n for n in available if n in names]
    return [load_entry(os.path.join(catalog, n)) for n in available]


CORRECT_ENTRIES = ("complete_correct_repository", "correct_flat_files", "correct_in_tarball",
                   "correct_in_git")


def correct_copies(count, catalog=CATALOG):
    """`count` more students handing in correct work, in turn like each entry of
    CORRECT_ENTRIES (a class-sized grading, with the catalog mixed in): each must get
    the marks of its model."""
    models = [load_entry(os.path.join(catalog, name)) for name in CORRECT_ENTRIES]
    copies = []
    for index in range(count):
        model = models[index % len(models)]
        copies.append(dataclasses.replace(model, name=f"correct_copy_{index + 1:02d}"))
    return copies


# ---------------------------------------------------------------------------
# Materialisation: an entry's files, then the submission in its layout
# ---------------------------------------------------------------------------
@dataclass
class Item:
    kind: str           # "file" or "symlink"
    data: bytes = b""   # a file's contents
    target: str = ""    # a link's target


def _read_course_file(relative, where, root):
    path = os.path.join(root, relative)
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise CatalogError(f"{where}: cannot read the course's {relative} ({error.strerror})") from error


def _tree(relative, where, root):
    """{path: bytes} for a course file, or every file of a course folder (no links,
    no build outputs), so that an entry can hold a student's copy of the repository."""
    base = os.path.join(root, relative)
    if os.path.isfile(base):
        return {relative: _read_course_file(relative, where, root)}
    if not os.path.isdir(base):
        raise CatalogError(f"{where}: the course has no {relative}")
    found = {}
    for folder, subfolders, names in os.walk(base):
        subfolders[:] = sorted(s for s in subfolders if s not in TREE_SKIPPED)
        for name in sorted(names):
            path = os.path.join(folder, name)
            if not os.path.islink(path) and os.path.isfile(path):
                found[os.path.relpath(path, root).replace(os.sep, "/")] = _read_course_file(
                    os.path.relpath(path, root), where, root)
    return found


def collect_files(entry, root=ROOT):
    """{path in the submission: Item}, in the entry's order, trees first so that the
    files named after them replace what the trees brought."""
    where = f"catalog entry {entry.name}"
    items = {}
    for path, spec in entry.files.items():
        if "tree" in spec:
            for found, data in _tree(spec["tree"], f"{where}: file '{path}'", root).items():
                inside = os.path.relpath(found, spec["tree"]).replace(os.sep, "/")
                items[path if inside == "." else f"{path}/{inside}"] = Item("file", data)
    for path, spec in entry.files.items():
        at = f"{where}: file '{path}'"
        if "tree" in spec:
            continue
        if "symlink" in spec:
            items[path] = Item("symlink", target=spec["symlink"])
        elif "text" in spec:
            items[path] = Item("file", spec["text"].encode("utf-8"))
        else:
            data = _read_course_file(spec["from"], at, root)
            if "edits" in spec:
                edits_path = os.path.join(entry.folder, spec["edits"])
                with open(edits_path, encoding="utf-8") as handle:
                    blocks = parse_edits(handle.read(), f"{where}: {spec['edits']}")
                data = apply_edits(data.decode("utf-8"), blocks, f"{where}: {spec['edits']}",
                                   spec["from"]).encode("utf-8")
            items[path] = Item("file", data)
    return items


def _write_folder(items, folder):
    os.makedirs(folder)
    for path, item in items.items():
        target = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if item.kind == "symlink":
            os.symlink(item.target, target)
        else:
            with open(target, "wb") as handle:
                handle.write(item.data)


def _write_tar_gz(items, path, prefix):
    """Members are written as named (even '../x' or '/tmp/x': that is what some entries
    test), without directory members, in the entry's order."""
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for name, item in items.items():
            member = tarfile.TarInfo(name if _escapes(name) else prefix + name)
            member.mtime = FIXED_MTIME
            member.uname = member.gname = "student"
            if item.kind == "symlink":
                member.type = tarfile.SYMTYPE
                member.linkname = item.target
                member.mode = 0o777
                archive.addfile(member)
            else:
                member.size = len(item.data)
                member.mode = 0o644
                archive.addfile(member, io.BytesIO(item.data))


def _git(folder, *args):
    environment = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Student",
                       GIT_AUTHOR_EMAIL="student@example.org", GIT_COMMITTER_NAME="Student",
                       GIT_COMMITTER_EMAIL="student@example.org")
    command = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
               "-c", "core.hooksPath=/dev/null", *args]
    result = subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        raise CatalogError(f"git {' '.join(args)} failed in {folder}:\n{result.stderr.strip()}")


def materialise_entry(entry, class_dir, root=ROOT):
    """Writes the entry's submission into class_dir; returns its path."""
    items = collect_files(entry, root)
    os.makedirs(class_dir, exist_ok=True)
    target = os.path.join(class_dir, entry.submission_name)
    if os.path.lexists(target):
        raise CatalogError(f"catalog entry {entry.name}: {target} already exists")
    if entry.layout == "tar.gz":
        _write_tar_gz(items, target, entry.archive_prefix)
    else:
        _write_folder(items, target)
    if entry.layout == "git":
        if shutil.which("git") is None:
            raise CatalogError(f"catalog entry {entry.name}: its layout is git, and git is not installed")
        _git(target, "init", "-q")
        _git(target, "add", "-A")
        _git(target, "commit", "-q", "-m", "My solutions")
    return target


def materialise(entries, class_dir, root=ROOT):
    os.makedirs(class_dir, exist_ok=True)
    return {entry.name: materialise_entry(entry, class_dir, root) for entry in entries}


# ---------------------------------------------------------------------------
# What grading left behind: planted files, canaries, processes
# ---------------------------------------------------------------------------
def find_named(roots, strings, max_depth=None, skip=(".git",)):
    """{string: [paths]} of the files, folders and links whose name contains `string`,
    below each root (to max_depth levels; 0 = the root's own entries); links to
    folders are not followed."""
    found = {s: [] for s in strings}
    if not strings:
        return found
    seen = 0
    for root in roots:
        stack = [(root, 0)]
        while stack and seen < SWEEP_MAX_ENTRIES:
            folder, depth = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for item in entries:
                seen += 1
                for s in strings:
                    if s in item.name and item.path not in found[s]:
                        found[s].append(item.path)
                if (item.is_dir(follow_symlinks=False) and item.name not in skip
                        and (max_depth is None or depth < max_depth)):
                    stack.append((item.path, depth + 1))
    return found


def _is_planted(path):
    try:
        with open(path, "rb") as handle:
            return PLANTED_MARKER.encode() in handle.read(4096)
    except OSError:
        return False


def sweep_planted(strings, class_dir, results_dir, root=ROOT, extra=True, since=None):
    """{string: [paths]} of files named *string* under the class and results folders (this
    run's own: any such file counts) and, outside them, of this run's own planted files
    only: those holding the catalog's marker, written since `since` (a time.time()), in
    the repository and, with `extra`, where an unconfined entry would have planted them
    (the top of /tmp, the ancestors of those folders, $HOME: their own entries only, never
    another user's folders). A file another user or another run left there is not this
    run's business (issue 45: a stranger's /tmp/x/PWNED failed the catalog). The files this
    run planted are removed, so that a failing sandbox leaves no litter."""
    own = [p for p in (class_dir, results_dir) if p]
    found = find_named(own, strings)
    outside = find_named([root], strings) if root else {s: [] for s in strings}
    if extra:
        around = {tempfile.gettempdir(), "/tmp", os.path.expanduser("~")}
        for base in own:
            parent = os.path.dirname(os.path.abspath(base))
            while True:
                around.add(parent)
                if parent == os.path.dirname(parent):
                    break
                parent = os.path.dirname(parent)
        for s, paths in find_named(sorted(around), strings, max_depth=0).items():
            outside[s] += [p for p in paths if p not in outside[s]]
    for s, paths in outside.items():
        found[s] += [p for p in paths if p not in found[s] and _planted_since(p, since)]
    removed = set()
    for paths in found.values():
        for path in paths:
            if path not in removed and _is_planted(path):
                try:
                    os.unlink(path)
                    removed.add(path)
                except OSError:
                    pass
    return found, removed


def _planted_since(path, since):
    """A file of the catalog's (its marker), written at `since` or later (None: any time)."""
    try:
        # The change time, which an unpacker cannot set back as it sets the modification
        # time (tar_path_traversal's members carry FIXED_MTIME).
        written = os.lstat(path).st_ctime
    except OSError:
        return False
    return (since is None or written >= since - 2) and _is_planted(path)


def plant_canaries(folders):
    """One canary file per folder; returns their paths."""
    paths = []
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{CANARY_PREFIX}-{os.getpid()}.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("planted by tests/grading/run_catalog.py: no submission may delete it\n")
        paths.append(path)
    return paths


def _uptime():
    with open("/proc/uptime", encoding="ascii") as handle:
        return float(handle.read().split()[0])


def scan_processes(names):
    """{name: [(pid, age in seconds)]} of the processes whose command name starts with
    one of `names` (Linux /proc; empty elsewhere)."""
    found = {n: [] for n in names}
    if not names or not os.path.isdir("/proc"):
        return found
    ticks = os.sysconf("SC_CLK_TCK")
    now = _uptime()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as handle:
                command = handle.read().strip()
            with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        for name in names:
            if command.startswith(name[:15]):  # the kernel keeps 15 characters
                found[name].append((int(pid), now - int(fields[19]) / ticks))
    return found


class ProcessWatch:
    """Looks every second, while the grader runs, for processes that entries name in
    no_process_named, and keeps the oldest age seen: a process that lives past
    PROCESS_GRACE_SECONDS escaped the end of its run."""

    def __init__(self, names, interval=1.0):
        self.names = sorted(set(names))
        self.interval = interval
        self.oldest = {n: 0.0 for n in self.names}
        self.pids = {n: set() for n in self.names}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _look(self):
        for name, processes in scan_processes(self.names).items():
            for pid, age in processes:
                self.pids[name].add(pid)
                self.oldest[name] = max(self.oldest[name], age)

    def _run(self):
        while not self._stop.is_set():
            self._look()
            self._stop.wait(self.interval)

    def start(self):
        if self.names:
            self._thread.start()
        return self

    def stop(self):
        """Stops watching; returns {name: (oldest age seen, processes still alive)}."""
        if self.names:
            self._stop.set()
            self._thread.join()
            self._look()
        alive = scan_processes(self.names)
        return {n: (self.oldest[n], len(alive[n])) for n in self.names}


# ---------------------------------------------------------------------------
# Comparison of one result with its entry's expectations
# ---------------------------------------------------------------------------
@dataclass
class Context:
    """What the comparison knows beyond the result files. A None field was not
    observed (--check-only), and the expectations that need it are noted as unchecked."""
    results_dir: str
    found_files: dict = None     # {string: [paths]}
    removed_files: set = field(default_factory=set)
    canaries: dict = None        # {path: still there}
    processes: dict = None       # {name: (oldest age seen, still alive)}
    jobs: int = 0                # submissions the grader graded at once (0: not known)


@dataclass
class Outcome:
    name: str
    problems: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    @property
    def verdict(self):
        if self.problems:
            return "FAIL"
        return "SKIPPED" if self.skipped else "PASS"


def _in_range(value, spec):
    if isinstance(spec, dict):
        return spec.get("min", value) <= value <= spec.get("max", value)
    return value == spec


def _describe_range(spec):
    if isinstance(spec, dict):
        parts = [f">= {spec['min']}" if "min" in spec else "", f"<= {spec['max']}" if "max" in spec else ""]
        return " and ".join(p for p in parts if p)
    return str(spec)


def _excerpt(text, length=240):
    text = " ".join(text.split())
    return text if len(text) <= length else text[:length] + "..."


def exercise_output(record):
    """The text output expectations are matched against: the exercise's message,
    build log and every item's output."""
    parts = [record.get("message") or "", record.get("build_log") or ""]
    parts += [item.get("output") or "" for item in record.get("items") or [] if isinstance(item, dict)]
    return "\n".join(parts)


def _compare_exercise(number, spec, record, outcome):
    if record is None:
        outcome.problems.append(f"{number}: not in the result")
        return
    status = record.get("status")
    if spec["status"] == GPU_STATUS and status == SKIPPED_STATUS:
        outcome.skipped.append(f"{number}: {_excerpt(record.get('message') or 'skipped', 80)}")
        return
    if status != spec["status"]:
        detail = record.get("message") or record.get("build_log") or ""
        outcome.problems.append(f"{number}: status {status!r}, expected {spec['status']!r}"
                                + (f" ({_excerpt(detail)})" if detail else ""))
        return
    score, max_score = record.get("score"), record.get("max_score")
    if "score" in spec:
        wanted = spec["score"]
        if wanted == "full":
            if not isinstance(max_score, (int, float)) or max_score <= 0 or score != max_score:
                outcome.problems.append(f"{number}: score {score} of {max_score}, expected full marks"
                                        + _failed_items(record))
        elif not isinstance(score, (int, float)) or not _in_range(score, wanted):
            outcome.problems.append(f"{number}: score {score}, expected {_describe_range(wanted)}"
                                    + _passed_items(record))
    if "max_score" in spec and (not isinstance(max_score, (int, float)) or not _in_range(max_score, spec["max_score"])):
        outcome.problems.append(f"{number}: max_score {max_score}, expected {_describe_range(spec['max_score'])}")
    _compare_items(number, spec.get("items", {}), record, outcome)
    text = exercise_output(record)
    for wanted in spec.get("output_contains", []):
        if wanted not in text:
            outcome.problems.append(f"{number}: no output contains {wanted!r} (output: {_excerpt(text) or 'none'})")
    for unwanted in spec.get("output_lacks", []):
        if unwanted in text:
            at = text.index(unwanted)
            outcome.problems.append(f"{number}: the output contains {unwanted!r}: "
                                    f"...{_excerpt(text[max(0, at - 60):at + 180])}")


def _compare_items(number, items, record, outcome):
    """The expectations of single items (a racecheck run that must score 0, a case that
    must pass), each found by its name among the exercise's items."""
    found = {i.get("name"): i for i in record.get("items") or [] if isinstance(i, dict)}
    for name, spec in items.items():
        at = f"{number}: item {name}"
        item = found.get(name)
        if item is None:
            outcome.problems.append(f"{at}: not in the result (items: {', '.join(map(str, found)) or 'none'})")
            continue
        score, max_score = item.get("score"), item.get("max_score")
        output = item.get("output") or ""
        if "score" in spec:
            wanted = spec["score"]
            full = wanted == "full" and isinstance(max_score, (int, float)) and max_score > 0 and score == max_score
            if not (full if wanted == "full" else isinstance(score, (int, float)) and _in_range(score, wanted)):
                outcome.problems.append(f"{at}: score {score} of {max_score}, expected "
                                        f"{'full marks' if wanted == 'full' else _describe_range(wanted)}"
                                        f" (output: {_excerpt(output, 300) or 'none'})")
        if "max_score" in spec and (not isinstance(max_score, (int, float))
                                    or not _in_range(max_score, spec["max_score"])):
            outcome.problems.append(f"{at}: max_score {max_score}, expected {_describe_range(spec['max_score'])}")
        if "passed" in spec and item.get("passed") is not spec["passed"]:
            outcome.problems.append(f"{at}: {'passed' if item.get('passed') else 'failed'}, expected "
                                    f"{'to pass' if spec['passed'] else 'to fail'}")
        for wanted in spec.get("output_contains", []):
            if wanted not in output:
                outcome.problems.append(f"{at}: its output lacks {wanted!r} (output: {_excerpt(output) or 'none'})")
        for unwanted in spec.get("output_lacks", []):
            if unwanted in output:
                outcome.problems.append(f"{at}: its output contains {unwanted!r}")


def _failed_items(record):
    """The failed items' names, each with the start of what it printed: a correct
    submission short of full marks is a grading fault to diagnose from this line."""
    failed = [f"{i.get('name', '?')}: {_excerpt(i.get('output') or 'no output', 300)}"
              for i in record.get("items") or [] if isinstance(i, dict) and not i.get("passed")]
    return f" (failed: {'; '.join(failed)})" if failed else ""


def _passed_items(record):
    passed = [i.get("name", "?") for i in record.get("items") or [] if isinstance(i, dict) and i.get("passed")]
    return f" (passed: {', '.join(passed)})" if passed else ""


def load_result(results_dir, name):
    """(result, size in bytes, problem): the student's result file, or why there is none."""
    path = os.path.join(results_dir, "submissions", f"{name}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None, 0, f"no result file {path}"
    except OSError as error:
        return None, 0, f"cannot read {path} ({error.strerror})"
    try:
        result = json.loads(text)
    except json.JSONDecodeError as error:
        return None, len(text.encode()), f"{path} is not valid JSON ({error})"
    if not isinstance(result, dict):
        return None, len(text.encode()), f"{path} does not hold an object"
    return result, len(text.encode()), None


def graded_interval(result):
    """(start, end) of a result's grading, in seconds since the epoch, or None."""
    try:
        start = datetime.datetime.strptime(result["graded_at"], "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=datetime.timezone.utc).timestamp()
        return start, start + float(result["seconds"])
    except (KeyError, TypeError, ValueError):
        return None


def graded_alongside(name, results_dir):
    """How many other submissions of the results folder were being graded while `name` was
    (the start is known to the second: intervals that touch count)."""
    own = load_result(results_dir, name)[0]
    mine = graded_interval(own) if own else None
    if mine is None:
        return 0
    count = 0
    folder = os.path.join(results_dir, "submissions")
    for file_name in os.listdir(folder) if os.path.isdir(folder) else []:
        other = file_name[:-len(".json")]
        if not file_name.endswith(".json") or other == name:
            continue
        result = load_result(results_dir, other)[0]
        theirs = graded_interval(result) if result else None
        if theirs and theirs[0] <= mine[1] + 1 and mine[0] <= theirs[1] + 1:
            count += 1
    return count


# What a report must never carry raw, whatever a program printed: terminal control
# characters (ESC starts colour, cursor and title sequences) and live HTML.
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
LIVE_HTML = re.compile(r"<\s*(script|img|iframe|object|embed)\b", re.IGNORECASE)


def report_problems(results_dir, name):
    """Why the reports written for `name` are not inert and valid, if they are not."""
    problems = []
    paths = {"feedback Markdown": os.path.join(results_dir, "feedback", f"{name}.md"),
             "feedback HTML": os.path.join(results_dir, "feedback", f"{name}.html"),
             "Gradescope": os.path.join(results_dir, "gradescope", name, "results.json"),
             "Classroom": os.path.join(results_dir, "classroom", f"{name}.json"),
             "gradebook": os.path.join(results_dir, "gradebook.csv"),
             "JUnit": os.path.join(results_dir, "junit.xml")}
    for what, path in paths.items():
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            problems.append(f"no {what} report ({path})")
            continue
        except UnicodeDecodeError as error:
            problems.append(f"the {what} report is not UTF-8 ({error})")
            continue
        if RAW_CONTROL.search(text):
            problems.append(f"the {what} report holds a raw control character")
        if what == "feedback HTML" and LIVE_HTML.search(text):
            problems.append("the feedback HTML holds a live tag: " + LIVE_HTML.search(text).group(0))
        try:
            if what in ("Gradescope", "Classroom"):
                json.loads(text)
            elif what == "JUnit":
                xml.etree.ElementTree.fromstring(text)
        except (ValueError, xml.etree.ElementTree.ParseError) as error:
            problems.append(f"the {what} report does not parse ({error})")
    return problems


def compare_entry(entry, context):
    """The entry's Outcome against its result file and what was observed around it."""
    outcome = Outcome(entry.name)
    expect = entry.expect
    result, size, problem = load_result(context.results_dir, entry.name)
    if problem:
        outcome.problems.append(problem)
    else:
        seconds, bound = result.get("seconds"), expect.get("seconds", {"max": DEFAULT_MAX_SECONDS})
        if "seconds" in result or "seconds" in expect:
            if isinstance(seconds, (int, float)):
                outcome.notes.append(f"{seconds:.0f} s")
            if not isinstance(seconds, (int, float)) or not _in_range(seconds, bound):
                outcome.problems.append(f"graded in {seconds} s, expected {_describe_range(bound)}: it was held up")
        if expect.get("reports_inert"):
            outcome.problems += report_problems(context.results_dir, entry.name)
        if result.get("student") != entry.name:
            outcome.problems.append(f"the result names the student {result.get('student')!r}")
        records = {r.get("number"): r for r in result.get("exercises") or [] if isinstance(r, dict)}
        for number, spec in sorted(expect.get("exercises", {}).items()):
            _compare_exercise(number, spec, records.get(number), outcome)
        warnings = [w for w in result.get("warnings") or [] if isinstance(w, str)]
        for wanted in expect.get("warnings_contain", []):
            if not any(wanted in w for w in warnings):
                outcome.problems.append(f"no warning contains {wanted!r} (warnings: "
                                        f"{_excerpt('; '.join(warnings)) or 'none'})")
        if "warnings_count" in expect and not _in_range(len(warnings), expect["warnings_count"]):
            outcome.problems.append(f"{len(warnings)} warning(s), expected {_describe_range(expect['warnings_count'])}"
                                    + (f": {_excerpt('; '.join(warnings))}" if warnings else ""))
        if "result_max_bytes" in expect and size > expect["result_max_bytes"]:
            outcome.problems.append(f"the result file holds {size} bytes, more than {expect['result_max_bytes']}")
        if expect.get("graded_alongside") and context.jobs and not outcome.skipped:
            # Graded at once with others, on a GPU: they must have run meanwhile (and, by
            # their own seconds bound, finished on time).
            others = len(os.listdir(os.path.join(context.results_dir, "submissions"))) - 1
            wanted = min(ALONGSIDE_WANTED, context.jobs - 1 if context.jobs <= ALONGSIDE_WANTED else others)
            alongside = graded_alongside(entry.name, context.results_dir)
            if alongside < wanted:
                outcome.problems.append(f"graded alongside {alongside} other submission(s), fewer than {wanted}")
            else:
                outcome.notes.append(f"graded alongside {alongside} other submission(s)")
    if "no_file_named" in expect:
        name = expect["no_file_named"]
        if context.found_files is None:
            outcome.notes.append("no_file_named not checked")
        else:
            paths = context.found_files.get(name, [])
            if paths:
                listed = ", ".join(p + (" (removed)" if p in context.removed_files else "") for p in paths[:8])
                more = f" and {len(paths) - 8} more" if len(paths) > 8 else ""
                outcome.problems.append(f"files named *{name}* exist: {listed}{more}")
    if expect.get("canaries_intact"):
        if context.canaries is None:
            outcome.notes.append("canaries not checked")
        else:
            gone = sorted(p for p, there in context.canaries.items() if not there)
            if gone:
                outcome.problems.append(f"canary file(s) deleted: {', '.join(gone)}")
    if "no_process_named" in expect:
        name = expect["no_process_named"]
        if context.processes is None or name not in context.processes:
            outcome.notes.append("processes not watched")
        else:
            oldest, alive = context.processes[name]
            if oldest > PROCESS_GRACE_SECONDS or alive:
                outcome.problems.append(f"processes named {name} outlived their run: the oldest seen was "
                                        f"{oldest:.0f} s old, {alive} still alive after grading")
    return outcome


def _grouped(skipped):
    """'01: why; 03: why' as '01, 03: why': one reason, said once."""
    groups = {}
    for text in skipped:
        number, _, message = text.partition(": ")
        groups.setdefault(message, []).append(number)
    return "; ".join(f"{', '.join(numbers)}: {message}" for message, numbers in groups.items())


def report(outcomes, out=None):
    """Prints one line per entry and the total; returns the exit status."""
    out = out or sys.stdout
    width = max([len(o.name) for o in outcomes] + [10])
    for outcome in outcomes:
        line = f"{outcome.verdict:<8} {outcome.name:<{width}}"
        if outcome.verdict == "SKIPPED":
            line += f"  ({_grouped(outcome.skipped)})"
        if outcome.notes:
            line += f"  [{'; '.join(outcome.notes)}]"
        print(line.rstrip(), file=out)
        for problem in outcome.problems:
            print(f"           - {problem}", file=out)
    passed = sum(o.verdict == "PASS" for o in outcomes)
    failed = sum(o.verdict == "FAIL" for o in outcomes)
    skipped = sum(o.verdict == "SKIPPED" for o in outcomes)
    print(f"{passed} passed, {failed} failed, {skipped} skipped", file=out)
    if failed:
        return 1
    return EXIT_SKIPPED if skipped else 0


def unexpected_results(results_dir, entries):
    """Result files of students the catalog does not hold (a canary taken for a
    submission, a file unpacked as a student of its own...)."""
    folder = os.path.join(results_dir, "submissions")
    names = {e.name for e in entries}
    try:
        files = sorted(os.listdir(folder))
    except OSError:
        return []
    return [f for f in files if f.endswith(".json") and f[:-5] not in names]


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------
def grader_command(grader, class_dir, results_dir, jobs, seed, cpu_only=False, exercises=None):
    """`grader`: the course's tools/course (whose grade subcommand runs), or a stand-in
    program taking the same arguments (a .py one runs with this Python)."""
    if os.path.basename(grader) == "course":
        command = [sys.executable, grader, "grade"]
    else:
        command = [sys.executable, grader] if grader.endswith(".py") else [grader]
    command += [class_dir, "--class", "--results", results_dir]
    if jobs:
        command += ["--jobs", str(jobs)]
    if seed is not None:
        command += ["--seed", str(seed)]
    if exercises:
        command += ["--exercises", ",".join(exercises)]
    if cpu_only:
        command += ["--cpu-only"]
    return command


def expected_exercises(entries):
    """The exercise numbers some entry has an expectation about."""
    return sorted({number for entry in entries for number in entry.expect.get("exercises", {})})


def run_grader(command, timeout):
    """Runs the grader in a session of its own (so that a timeout can stop all of it);
    returns its exit status, or None when it ran out of time. Its progress lines (one
    per submission started and finished) are passed on as they come."""
    print("$ " + " ".join(command), flush=True)
    started = time.monotonic()
    process = subprocess.Popen(command, start_new_session=True)
    try:
        status = process.wait(timeout=timeout or None)
        print(f"run_catalog: the grader ended after {time.monotonic() - started:.0f} s", flush=True)
        return status
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None
    except KeyboardInterrupt:
        # Its own session does not get the terminal's Ctrl-C: pass it on.
        os.killpg(process.pid, signal.SIGINT)
        process.wait()
        raise


def compare_all(entries, context):
    outcomes = [compare_entry(entry, context) for entry in entries]
    extra = unexpected_results(context.results_dir, entries)
    if extra:
        outcomes.append(Outcome("(unexpected)", problems=[f"results for submissions the catalog does not hold: "
                                                          f"{', '.join(extra)}"]))
    return outcomes


def grade_and_compare(args, entries):
    if not os.path.isfile(args.grader):
        raise CatalogError(f"no grader at {args.grader}")
    if args.keep:
        if os.path.exists(args.keep) and os.listdir(args.keep):
            raise CatalogError(f"--keep {args.keep}: the folder must be new or empty")
        work = os.path.abspath(args.keep)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="course-catalog-")
    class_dir, results_dir = os.path.join(work, "class"), os.path.join(work, "results")
    cpu_only, exercises = args.cpu_only, None
    if not cpu_only:
        count, reason = gpu.visible()
        cpu_only = count == 0
        if cpu_only:
            print(f"run_catalog: no GPU is visible ({reason}).", flush=True)
    if cpu_only:
        exercises = expected_exercises(entries)
        at_best = [entry.name for entry in entries
                   if any(spec["status"] == GPU_STATUS for spec in entry.expect.get("exercises", {}).values())]
        print(f"run_catalog: grading --cpu-only, exercises {','.join(exercises)} (those the entries name): "
              f"builds, missing files, warnings and planted files are checked; no check runs. "
              f"{len(at_best)} of the {len(entries)} entries expect a graded exercise, so they can at best be "
              f"SKIPPED here: {', '.join(at_best)}", flush=True)
    print(f"run_catalog: {len(entries)} submissions to grade; the grader prints a line as each starts and ends",
          flush=True)
    canaries = []
    started = time.time()
    try:
        materialise(entries, class_dir)
        canaries = plant_canaries([class_dir, results_dir, os.path.join(ROOT, "build")])
        watch = ProcessWatch([e.expect["no_process_named"] for e in entries if "no_process_named" in e.expect])
        watch.start()
        try:
            status = run_grader(grader_command(args.grader, class_dir, results_dir, args.jobs, args.seed,
                                               cpu_only, exercises), args.timeout)
        finally:
            processes = watch.stop()
        if status is None:
            print(f"run_catalog: the grader ran past --timeout {args.timeout} s and was stopped")
        elif status != 0:
            print(f"run_catalog: the grader exited with status {status}")
        strings = sorted({e.expect["no_file_named"] for e in entries if "no_file_named" in e.expect})
        found, removed = sweep_planted(strings, class_dir, results_dir, since=started)
        context = Context(results_dir, found_files=found, removed_files=removed,
                          canaries={p: os.path.exists(p) for p in canaries}, processes=processes,
                          jobs=0 if cpu_only else (args.jobs or 2))
        outcomes = compare_all(entries, context)
        if status is None:
            outcomes.append(Outcome("(grader)", problems=[f"ran past --timeout {args.timeout} s"]))
        code = report(outcomes)
        if args.keep:
            print(f"class: {class_dir}\nresults: {results_dir}")
        return code
    finally:
        for path in canaries:
            if os.path.exists(path):
                os.unlink(path)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Grade the catalog of hostile and broken submissions and compare every result "
                    "with its entry's expectations.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--grader", help="the course's tools/course (its grade subcommand), or a stand-in")
    mode.add_argument("--check-only", metavar="RESULTS", help="compare an existing results folder, without grading")
    mode.add_argument("--materialise", metavar="DIR", help="only write the class folder (one submission per entry)")
    parser.add_argument("--entries", help="comma-separated entry names (default: all)")
    parser.add_argument("--keep", metavar="DIR", help="grade in DIR (DIR/class, DIR/results) and keep it")
    parser.add_argument("--class", dest="class_dir", metavar="DIR",
                        help="with --check-only: the class folder that was graded (searched for planted files)")
    parser.add_argument("--jobs", type=int, help="passed to the grader")
    parser.add_argument("--seed", type=int, help="passed to the grader")
    parser.add_argument("--timeout", type=float, default=0, help="stop the grader after this many seconds (default: never)")
    parser.add_argument("--cpu-only", action="store_true",
                        help="grade with the grader's --cpu-only even where a GPU is visible (the default where "
                             "none is): builds only, GPU expectations SKIPPED")
    parser.add_argument("--correct-copies", type=int, default=0, metavar="N",
                        help="add N students handing in the complete correct work (a class-sized grading)")
    args = parser.parse_args(argv)
    if args.keep and not args.grader:
        parser.error("--keep goes with --grader")
    if args.cpu_only and not args.grader:
        parser.error("--cpu-only goes with --grader")
    if args.class_dir and not args.check_only:
        parser.error("--class goes with --check-only")
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        names = [n.strip() for n in args.entries.split(",") if n.strip()] if args.entries else None
        entries = load_catalog(names) + correct_copies(args.correct_copies)
        if args.materialise:
            if os.path.exists(args.materialise) and os.listdir(args.materialise):
                raise CatalogError(f"--materialise {args.materialise}: the folder must be new or empty")
            paths = materialise(entries, args.materialise)
            print(f"{len(paths)} submissions written to {args.materialise}")
            return 0
        if args.check_only:
            strings = sorted({e.expect["no_file_named"] for e in entries if "no_file_named" in e.expect})
            found, removed = sweep_planted(strings, args.class_dir, args.check_only, extra=False)
            context = Context(args.check_only, found_files=found, removed_files=removed)
            return report(compare_all(entries, context))
        return grade_and_compare(args, entries)
    except CatalogError as error:
        print(f"run_catalog: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
