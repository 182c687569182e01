"""The students' repository: the course without its solutions (make release).

    tools/course release DEST                 DEST: a new git repository holding one commit
    tools/course release --tar DEST.tar.gz    the same files as an archive (one folder inside)
    tools/course release --update COPY [--from RELEASE]
                                          bring a copy handed out earlier up to date
                                          (tools/course_tools/release/update.py: what it keeps, what it
                                          cannot merge)

What ships is chosen here (SHIPPED: the exercises with their skeletons, common/, the
students' Slurm scripts, the slides, the students' tools, the Makefile, CMake files, the
README, LICENSE, CHANGELOG.md and the students' page docs/cluster.md), from the files git tracks or would track (every file outside the ignored
folders where this is not a git checkout); everything else stays behind: solutions/,
tests/ (known-wrong variants, the grading catalog), the grader, the benchmark report, the
GPU suite, CI, and the pages for instructors and maintainers (docs/instructors.md,
docs/maintainers.md).
Course files are filtered on the way (filter_file):

  - lines between `[instructor-only]` and `[/instructor-only]` marker lines are left out,
    and the lines between `[release-only]` and `[/release-only]` are taken in: in the
    course they sit in a comment (each line starts with "# " in a Makefile or CMake file).
    A marker is a line of its own, behind the file's comment sign (`#`, `//`);
  - a Markdown page holds no marker block (one stops the release): each page is written for
    one audience, and the pages of the others stay behind. A list item that links to a
    course file that stays behind (the README's line on docs/instructors.md) is left out;
    in a table row the link becomes its text (and a cell "available" says "not available
    yet"); such a link anywhere else stops the release;
  - an exercise whose statement is still a placeholder (TODO(maintainer), as make
    new-exercise writes it) or that has no French statement (README.fr.md) stays behind,
    named on the console; the course map's row says "not available yet";
  - CMakePresets.json keeps the presets that build the students' files (COURSE_MODE
    student), each written out whole (what it inherited included);
  - an exercise's CMakeLists.txt loses its MUTANTS list (the names of the known-wrong
    variants).

A dot-file or script in an exercise folder that its course_exercise() call does not
declare (SCRIPTS, or any other of its files) stops the release before anything is written.
The written release is checked before it is committed or packed (tools/course release-leaks:
no solution file and no region of solution code in any of its files); a leak stops the
release and nothing is left at DEST. The release's .course-release.json lists every file it
shipped with its SHA-256, which --update reads to tell the files a student edited from
those nobody touched. Exit status: 0 written, 1 a leak or a merge that left files to look
at, 2 a usage error.
"""
import argparse
import fnmatch
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from course_tools.release import leaks as release_leaks
from course_tools.release import update as release_update
from course_tools.student import exercises
from course_tools.student.paths import ROOT

MANIFEST = ".course-release.json"

# Paths relative to the course's root (fnmatch: `*` also crosses folders). Anything not
# matched here stays behind, so a new instructor file never ships by accident; a new
# student tool goes into tools/course_tools/student/, which ships whole (the release's own
# build test proves it works).
SHIPPED = (
    "README.md", "Makefile", "CMakeLists.txt", "CMakePresets.json",
    # The licences and the changelog; CONTRIBUTING.md is for maintainers and stays behind.
    "LICENSE", "CHANGELOG.md",
    # The students' pages; docs/instructors.md and docs/maintainers.md stay behind.
    "docs/cluster.md", "docs/glossaire.md", "docs/labs-map.md", "docs/labs-map.fr.md",
    "docs/cpp-refresher.md", "docs/cpp-refresher.fr.md", "docs/speed.md", "docs/speed.fr.md",
    "docs/examples/*",
    ".clang-format", ".clangd", ".editorconfig", ".gitignore",
    "cmake/*.cmake",
    "common/*",
    "exercises/*",
    "slides/*.md", "slides/figures/*", "slides/diagrams/*", "slides/examples/*",
    # The students' jobs; the class grading (grade-class, its array and collecting jobs)
    # runs from the instructor's copy.
    "slurm/submit", "slurm/interactive", "slurm/lib.sh", "slurm/site.conf.example",
    "slurm/jobs/run.sbatch", "slurm/jobs/check.sbatch", "slurm/jobs/openmp.sbatch",
    "slurm/examples/*",
    # What make NN, run-NN, check-NN, make, make test and make slides run: the tools' command,
    # its package's root, and its student part whole (which imports nothing outside itself).
    "tools/course", "tools/course_tools/__init__.py", "tools/course_tools/cli.py",
    "tools/course_tools/student/*",
    "tools/marp/config.yml", "tools/marp/course.css", "tools/marp/package.json", "tools/marp/package-lock.json",
    "tools/clangd/*",
)
# Never shipped, whatever SHIPPED says: generated or personal files inside shipped folders,
# and the French slides waiting to be merged into the decks (slides/fr-pending/, the
# maintainers' drafts: "slides/*.md" would take them).
NEVER_SHIPPED = ("*/__pycache__/*", "*/node_modules/*", "*.pyc", "slides/fr-pending/*")

MARKER = re.compile(r"^\s*(#|//|<!--)?\s*\[(/?)(instructor-only|release-only)\]\s*(-->)?\s*$")
# A Markdown link's target, and a line that is an item of a list.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|[0-9]+\.)\s")
TABLE_ROW = re.compile(r"^\s*\|")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+).*?\1")


class ReleaseError(Exception):
    pass


# --- which files ---------------------------------------------------------------------------

def course_files(root):
    """The course's files (relative paths) as the working tree holds them: those git tracks
    and those it would track (new files not ignored yet, which the working tree's other
    files may already include), or every file outside the generated folders where `root`
    is not a git checkout (a copy of the working tree)."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], capture_output=True,
                                check=True).stdout.decode("utf-8").split("\0")
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(root):
            return sorted(p for p in listed if p and os.path.isfile(os.path.join(root, p)))
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for base, folders, names in os.walk(root):
        folders[:] = [f for f in folders if f not in (".git", "build", "node_modules", "__pycache__")]
        found += [os.path.relpath(os.path.join(base, n), root) for n in names]
    return sorted(found)


def shipped(path):
    return (any(fnmatch.fnmatch(path, pattern) for pattern in SHIPPED) and
            not any(fnmatch.fnmatch(path, pattern) for pattern in NEVER_SHIPPED))


# --- the filters -----------------------------------------------------------------------------

def filter_markers(text, path):
    """Leaves out the instructor-only blocks and takes in the release-only ones (see above)."""
    out, block, leader, after_marker = [], None, None, False
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        match = MARKER.match(line)
        # A blank line around a block is kept once, not once per side.
        if after_marker and not line.strip() and (not out or not out[-1].strip()):
            continue
        after_marker = bool(match)
        if match:
            sign, closing, kind = match.group(1), match.group(2) == "/", match.group(3)
            if not closing:
                if block:
                    raise ReleaseError(f"{path}:{number}: [{kind}] inside an open [{block}] block")
                block, leader = kind, sign
            else:
                if block != kind:
                    raise ReleaseError(f"{path}:{number}: [/{kind}] without an open [{kind}] block")
                block = None
            continue
        if block == "instructor-only":
            continue
        if block == "release-only" and leader in ("#", "//"):
            sign = leader
            body = line.rstrip("\n")
            if body != sign and not body.startswith(sign + " "):
                raise ReleaseError(f"{path}:{number}: a line of a [release-only] block must start with '{sign} '")
            line = body[len(sign) + 1:] + "\n" if body != sign else "\n"
        elif block == "release-only" and "-->" in line:
            raise ReleaseError(f"{path}:{number}: '-->' inside a [release-only] block would end its comment")
        out.append(line)
    if block:
        raise ReleaseError(f"{path}: the [{block}] block is never closed")
    return "".join(out)


def markdown_lines(text):
    """(line number, line) of a Markdown text, its fenced code blocks left out."""
    fence = None
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip()[len(opening.group(1)):]:
                fence = None
        else:
            yield number, line


def markdown_links(line):
    """The link targets of a line of Markdown, those inside `code` left out."""
    return LINK.findall(INLINE_CODE.sub("", line))


def link_target(page, link):
    """The course path (relative to the root) that the link `link` of `page` points at, its
    anchor left out; None for an anchor of the page itself, a URL or an absolute path."""
    target = link.split("#", 1)[0]
    if not target or target.startswith("/") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(page), target)).replace(os.sep, "/")


def markdown_for_students(text, path, left_behind):
    """A shipped Markdown page: no marker block, and no link to a course file that stays
    behind (`left_behind(course path)`): a list item holding one is left out; in a table row
    (the course map's row of an exercise that does not ship) the link becomes its text."""
    dropped, rows = set(), {}
    for number, line in markdown_lines(text):
        if MARKER.match(line):
            raise ReleaseError(f"{path}:{number}: a marker block in a Markdown page; write the text in "
                               f"the page of its audience (docs/instructors.md, docs/maintainers.md)")
        behind = [link for link in markdown_links(line)
                  if link_target(path, link) is not None and left_behind(link_target(path, link))]
        if not behind:
            continue
        if TABLE_ROW.match(line):
            rows[number] = table_row_for_students(line, behind)
            continue
        if not LIST_ITEM.match(line):
            raise ReleaseError(f"{path}:{number}: a link to {behind[0]}, which stays behind: give it a list "
                               f"item of its own, which the release leaves out")
        dropped.add(number)
    kept, gap = [], False
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if number in dropped:
            # A list left empty leaves one blank line where it was, not two.
            gap = gap or not kept or not kept[-1].strip()
            continue
        if not (gap and not line.strip()):
            kept.append(rows.get(number, line))
        gap = False
    return "".join(kept)


def table_row_for_students(line, behind):
    """A table row whose links in `behind` stay behind: each such link becomes its text, and
    a cell "available" becomes "not available yet"."""
    for link in behind:
        line = re.sub(r"\[([^\]]*)\]\(" + re.escape(link) + r"(?:\s+\"[^\"]*\")?\)", r"\1", line)
    return re.sub(r"\|\s*available\s*\|", "| not available yet |", line)


def student_presets(text, path):
    """CMakePresets.json with only the presets that build the students' files."""
    presets = json.loads(text)
    configure = {p["name"]: p for p in presets.get("configurePresets", [])}

    def resolved(name, seen=()):
        if name in seen or name not in configure:
            raise ReleaseError(f"{path}: preset {name} inherits from itself or from a missing preset")
        preset = configure[name]
        parents = preset.get("inherits", [])
        merged, cache = {}, {}
        # CMake's order: the preset's own fields win, then its parents in the order listed;
        # a name and `hidden` are never inherited.
        for parent in reversed([parents] if isinstance(parents, str) else parents):
            inherited = resolved(parent, seen + (name,))
            cache.update(inherited.pop("cacheVariables"))
            merged.update({k: v for k, v in inherited.items() if k not in ("name", "hidden")})
        cache.update(preset.get("cacheVariables", {}))
        merged.update({k: v for k, v in preset.items() if k not in ("inherits", "cacheVariables")})
        merged["cacheVariables"] = cache
        return merged

    def mode(preset):
        value = preset["cacheVariables"].get("COURSE_MODE")
        return value.get("value") if isinstance(value, dict) else value

    kept = [p for p in (resolved(name) for name in configure) if not p.get("hidden") and mode(p) == "student"]
    if not kept:
        raise ReleaseError(f"{path}: no preset with COURSE_MODE student, which the students' make needs")
    names = {p["name"] for p in kept}
    result = {key: value for key, value in presets.items()
              if key not in ("configurePresets", "buildPresets", "testPresets", "packagePresets", "workflowPresets")}
    result["configurePresets"] = kept
    for kind in ("buildPresets", "testPresets"):
        result[kind] = [p for p in presets.get(kind, []) if p.get("configurePreset") in names]
    return json.dumps(result, indent=2) + "\n"


def without_mutants(text, path):
    """An exercise's CMakeLists.txt without its MUTANTS list; the rest of the call as it was."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        words = line.split()
        first = words[0] if words else ""
        if first == "MUTANTS":
            skipping = True
        elif skipping and (first in exercises.KEYWORDS or first.startswith(")")):
            skipping = False
        if skipping:
            if ")" in line.split("#")[0]:
                out.append(")\n")
                skipping = False
            continue
        out.append(line)
    filtered = "".join(out)
    before, after = exercises.parse_call(text, path), exercises.parse_call(filtered, path)
    before.pop("MUTANTS", None)
    if before != after or "MUTANTS" in after:
        raise ReleaseError(f"{path}: its MUTANTS list could not be left out cleanly")
    return filtered


def filter_file(path, data, left_behind=lambda target: False):
    """The bytes that ship for the course file `path`; `left_behind(course path)` says
    whether a file a Markdown page links to stays behind."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if path.endswith(".md"):
        return markdown_for_students(text, path, left_behind).encode("utf-8")
    if path == "CMakePresets.json":
        text = student_presets(text, path)
    elif fnmatch.fnmatch(path, "exercises/*/CMakeLists.txt"):
        text = without_mutants(text, path)
    return filter_markers(text, path).encode("utf-8")


# --- writing ---------------------------------------------------------------------------------

def source_commit(root):
    """The course's commit, marked -dirty where its working tree has changes."""
    try:
        return subprocess.run(["git", "-C", root, "describe", "--always", "--dirty", "--abbrev=12"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".pl", ".rb")


def undeclared_extras(root, files):
    """The dot-files and scripts in exercise folders that no course_exercise() call declares
    (SCRIPTS, or any other of its files): a scratch script left behind by an instructor's
    session must not reach the students."""
    declared = set()
    for exercise in exercises.load(root):
        folder = os.path.relpath(exercise.folder, root).replace(os.sep, "/")
        declared.update(f"{folder}/{name}" for name in exercise.declared_files)
    found = []
    for path in files:
        parts = path.split("/")
        if len(parts) < 3 or parts[0] != "exercises" or path in declared:
            continue
        full = os.path.join(root, path)
        with open(full, "rb") as handle:
            shebang = handle.read(2) == b"#!"
        if (any(part.startswith(".") for part in parts[2:]) or path.endswith(SCRIPT_SUFFIXES)
                or shebang or os.access(full, os.X_OK)):
            found.append(path)
    return found


# What tools/course new-exercise writes at the top of a statement it scaffolds: a statement
# that still holds it is the template's example, not the exercise's.
PLACEHOLDER = "TODO(maintainer)"


def unfinished_exercises(root):
    """{exercise folder (relative): why it does not ship}: a statement that is still a
    placeholder (PLACEHOLDER, as make new-exercise writes it), or no French statement
    (README.fr.md). The course map's row of such an exercise says "not available yet"."""
    unfinished = {}
    for exercise in exercises.load(root):
        folder = os.path.relpath(exercise.folder, root).replace(os.sep, "/")
        for name, language in (("README.md", "statement"), ("README.fr.md", "French statement")):
            path = os.path.join(exercise.folder, name)
            if not os.path.isfile(path):
                unfinished[folder] = f"it has no {language} ({name})"
                break
            with open(path, encoding="utf-8", errors="replace") as handle:
                if PLACEHOLDER in handle.read():
                    unfinished[folder] = f"its {language} ({name}) is still a placeholder ({PLACEHOLDER})"
                    break
    return unfinished


def new_files(root):
    """The files git does not track yet but would (not ignored): shipped, and named."""
    try:
        return set(subprocess.run(["git", "-C", root, "ls-files", "-z", "--others", "--exclude-standard"],
                                  capture_output=True, check=True).stdout.decode("utf-8").split("\0"))
    except (OSError, subprocess.CalledProcessError):
        return set()


def write_tree(root, folder):
    """Writes the release's files into `folder` (which must not exist); returns the manifest."""
    unfinished = unfinished_exercises(root)
    for left_out, why in sorted(unfinished.items()):
        print(f"release: {left_out} left out: {why}; the course map says it is not available yet",
              file=sys.stderr)
    files = [p for p in course_files(root)
             if shipped(p) and not any(p.startswith(left_out + "/") for left_out in unfinished)]
    uncommitted = sorted(new_files(root).intersection(files))
    if uncommitted:
        print(f"release: {len(uncommitted)} file(s) not committed yet, shipped as they are: "
              + ", ".join(uncommitted), file=sys.stderr)
    if not any(fnmatch.fnmatch(p, "exercises/*/CMakeLists.txt") for p in files):
        raise ReleaseError(f"{root}: no exercise found (exercises/NN_name/CMakeLists.txt)")
    extras = undeclared_extras(root, files)
    if extras:
        raise ReleaseError("release: stopped: " + ", ".join(extras) + ": a dot-file or script in an "
                           "exercise folder that no course_exercise() declares (SCRIPTS ships a "
                           "script); remove it, or declare it; nothing was written")
    shipping = set(files)

    def left_behind(target):
        if target in shipping or target in ("", ".") or any(p.startswith(target + "/") for p in shipping):
            return False
        return os.path.lexists(os.path.join(root, target))

    hashes = {}
    for path in files:
        source = os.path.join(root, path)
        with open(source, "rb") as handle:
            data = filter_file(path, handle.read(), left_behind)
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(data)
        shutil.copymode(source, target)
        hashes[path] = hashlib.sha256(data).hexdigest()
    manifest = {"course_commit": source_commit(root), "files": hashes}
    with open(os.path.join(folder, MANIFEST), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return manifest


def checked_tree(root, folder):
    """write_tree, then the leak check; returns the manifest and the check's lines, or raises
    ReleaseError naming each leak."""
    manifest = write_tree(root, folder)
    report = release_leaks.scan(folder, root, shown_as="the release")
    if report.leaks:
        raise ReleaseError("\n".join(report.lines()) + "\nrelease: stopped: the release would show solution "
                                                       "code; nothing was written")
    return manifest, report.lines()


def commit_repository(folder, commit):
    """Makes `folder` a git repository of one commit holding every file written there."""
    git = ["git", "-C", folder]
    subprocess.run(git + ["-c", "init.defaultBranch=main", "init", "-q"], check=True)
    # -f: a shipped file that the release's own .gitignore would skip is shipped all the same.
    subprocess.run(git + ["add", "-A", "-f", "."], check=True)
    message = "The CUDA course, students' release" + (f" (course {commit})" if commit else "")
    subprocess.run(git + ["-c", "user.name=CUDA course", "-c", "user.email=course@release.invalid",
                          "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null",
                          "commit", "-q", "-m", message], check=True)


def write_archive(folder, archive, top):
    """A .tar.gz of `folder`'s files under `top/`, the same bytes for the same files."""
    def normalised(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        info.mode = 0o755 if info.isdir() or info.mode & 0o100 else 0o644
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for base, folders, names in os.walk(folder):
            folders.sort()
            for name in sorted(names):
                path = os.path.join(base, name)
                tar.add(path, arcname=os.path.join(top, os.path.relpath(path, folder)), filter=normalised)
    with open(archive, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed:
            packed.write(buffer.getvalue())


def release(root, destination, as_tar):
    """Writes the release; returns what to print. Raises ReleaseError."""
    if as_tar and not destination.endswith((".tar.gz", ".tgz")):
        destination += ".tar.gz"
    shown, destination = destination, os.path.abspath(destination)
    if os.path.lexists(destination) and (as_tar or os.listdir(destination)):
        raise ReleaseError(f"{destination} exists already: name a new {'archive' if as_tar else 'folder'}")
    inside = destination == root or destination.startswith(root + os.sep)
    if inside and not destination.startswith(os.path.join(root, "build") + os.sep):
        raise ReleaseError(f"{destination} is inside the course: write the release elsewhere (or under build/)")
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".release-", dir=os.path.dirname(destination))
    try:
        tree = os.path.join(staging, "tree")
        manifest, lines = checked_tree(root, tree)
        if as_tar:
            top = os.path.basename(destination)
            top = top[:-len(".tar.gz")] if top.endswith(".tar.gz") else top[:-len(".tgz")]
            write_archive(tree, destination, top)
            lines.append(f"release: {len(manifest['files'])} files and {MANIFEST} written to {shown} "
                         f"(folder {top}/ inside)")
        else:
            commit_repository(tree, manifest["course_commit"])
            if os.path.isdir(destination):
                os.rmdir(destination)
            os.rename(tree, destination)
            lines.append(f"release: {len(manifest['files'])} files and {MANIFEST} written to {shown}, a git "
                         f"repository of one commit (branch main)")
        return lines
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def update_from_course(root, copy, new_release):
    """--update: from `new_release`, or from a release of `root` written now."""
    try:
        if new_release:
            work = release_update.update(copy, new_release)
        else:
            with tempfile.TemporaryDirectory(prefix="release-update-") as scratch:
                fresh = os.path.join(scratch, "release")
                _, checked = checked_tree(root, fresh)
                print("\n".join(checked))
                work = release_update.update(copy, fresh)
    except (release_update.UpdateError, ReleaseError) as error:
        print(f"update: {error}", file=sys.stderr)
        return 2
    for line in work.lines():
        print(line)
    return 1 if any(line.endswith("by hand") for line in work.attention) else 0


def main(argv):
    parser = argparse.ArgumentParser(prog=argv[0], description=__doc__.splitlines()[0])
    parser.add_argument("destination", nargs="?", help="the folder (or with --tar the archive) to write")
    parser.add_argument("--tar", action="store_true", help="write a .tar.gz instead of a git repository")
    parser.add_argument("--update", metavar="COPY", help="a copy handed out earlier, to bring up to date")
    parser.add_argument("--from", dest="new_release", metavar="RELEASE",
                        help="with --update: the new release (default: one written from this course now)")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)  # the tests' fake courses
    options = parser.parse_args(argv[1:])
    root = os.path.abspath(options.root)
    try:
        if options.update:
            if options.destination or options.tar:
                parser.error("--update takes the copy to update, and no other destination")
            return update_from_course(root, options.update, options.new_release)
        if not options.destination:
            parser.error("name the folder to write (make release DEST=path)")
        for line in release(root, options.destination, options.tar):
            print(line)
        return 0
    except (ReleaseError, exercises.ExerciseError, release_leaks.LeakCheckError) as error:
        print(f"release: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"release: {' '.join(error.cmd)} failed (git is needed for a repository; --tar needs none)",
              file=sys.stderr)
        return 1
