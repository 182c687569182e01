"""Brings a students' copy of the course, handed out earlier, up to a new release without
losing their work (tools/course release --update COPY [--from RELEASE]).

The copy is changed in place, file by file of the new release:

  - a student file (an exercise's STUDENT_FILES) keeps the content of each of its
    TODO(student) regions, while the text around them comes from the new release: the
    regions are read by authoring/regions.py and matched by their opening lines
    (the line holding `TODO(student)`), in order. A file whose regions cannot all be
    matched (one added, removed or reworded, or markers the student broke) is left as it
    is, and the new release's version is written beside it as NAME.new, to merge by hand.
    A student file the student never edited (its SHA-256 is the one .course-release.json
    recorded when it was handed out) is simply replaced;
  - every other file (statements, drivers, checks, common/, tools, Makefile...) belongs to
    the course and is replaced or added; where the student had edited one, their version is
    kept beside it as NAME.mine;
  - a file the course no longer ships is removed, unless the student edited it (kept, and
    named).

Nothing is committed: the last lines say what changed and what needs a person. Exit
status: 0 merged, 1 a file left to merge by hand (NAME.new), 2 a usage error.
"""
import hashlib
import json
import os
import shutil

from course_tools.authoring import regions as check_student_regions
from course_tools.student import exercises

MANIFEST = ".course-release.json"


class UpdateError(Exception):
    pass


def read_manifest(folder, required):
    path = os.path.join(folder, MANIFEST)
    if not os.path.isfile(path):
        if required:
            raise UpdateError(f"{folder} is not a release written by tools/course release (no {MANIFEST})")
        return {}
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle).get("files", {})
    except (OSError, ValueError, AttributeError) as error:
        raise UpdateError(f"{path}: unreadable ({error})")


def student_files(folder):
    """The student files of the exercises in `folder` (relative paths); none where the
    exercises cannot be read."""
    try:
        found = exercises.load(folder)
    except (OSError, exercises.ExerciseError):
        return set()
    return {os.path.join("exercises", e.id, name) for e in found for name in e.student_files}


def digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read().splitlines(keepends=True)


def merged_regions(mine_path, new_path):
    """The new file's text with the student's region contents, or (None, why not)."""
    try:
        mine = check_student_regions.segments(read_lines(mine_path), mine_path)
        new = check_student_regions.segments(read_lines(new_path), new_path)
    except (ValueError, UnicodeDecodeError) as error:
        return None, f"its TODO(student) regions cannot be read ({error})"

    def openings(parts):
        return [" ".join(part[-1][1].split()) if part else "" for part in parts[0:-1:2]]

    mine_openings, new_openings = openings(mine), openings(new)
    if mine_openings != new_openings:
        added = [o for o in new_openings if o not in mine_openings]
        removed = [o for o in mine_openings if o not in new_openings]
        detail = "; ".join([f"new: {o!r}" for o in added] + [f"gone or reworded: {o!r}" for o in removed])
        return None, (f"its regions differ from the new release's ({len(mine_openings)} here, "
                      f"{len(new_openings)} there{': ' + detail if detail else ', in another order'})")
    text = []
    for index, part in enumerate(new):
        source = mine[index] if index % 2 else part  # regions from the student, the rest from the release
        text += [line for _, line in source]
    return "".join(text), None


class Update:
    def __init__(self, copy, new):
        self.copy, self.new = copy, new
        self.changed, self.attention = [], []

    def install(self, relative, keep_as=None):
        """Copies the new release's file over the copy's, keeping the student's as `keep_as`."""
        target = os.path.join(self.copy, relative)
        if keep_as:
            shutil.copy2(target, os.path.join(self.copy, keep_as))
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        shutil.copy2(os.path.join(self.new, relative), target)

    def student_file(self, relative, handed_out):
        mine, new = os.path.join(self.copy, relative), os.path.join(self.new, relative)
        if handed_out and digest(mine) == handed_out:
            self.install(relative)
            self.changed.append(f"updated {relative} (you had not edited it)")
            return
        text, why_not = merged_regions(mine, new)
        if text is None:
            shutil.copy2(new, mine + ".new")
            self.attention.append(f"{relative}: left as it was, since {why_not}; the new release's "
                                  f"version is {relative}.new: copy your work into it by hand")
            return
        with open(mine, encoding="utf-8") as handle:
            if handle.read() == text:
                return
        with open(mine, "w", encoding="utf-8") as handle:
            handle.write(text)
        shutil.copymode(new, mine)
        self.changed.append(f"merged {relative}: the course's text updated, your TODO(student) regions kept")

    def run(self):
        new_files = read_manifest(self.new, required=True)
        old_files = read_manifest(self.copy, required=False)
        students = student_files(self.new) | student_files(self.copy)
        for relative in sorted(new_files):
            mine = os.path.join(self.copy, relative)
            if not os.path.isfile(os.path.join(self.new, relative)):
                raise UpdateError(f"{self.new}: {relative} is listed in {MANIFEST} but missing")
            if not os.path.exists(mine):
                self.install(relative)
                self.changed.append(f"added {relative}")
            elif digest(mine) == new_files[relative]:
                continue
            elif relative in students:
                self.student_file(relative, old_files.get(relative))
            elif relative in old_files and digest(mine) != old_files[relative]:
                self.install(relative, keep_as=relative + ".mine")
                self.attention.append(f"{relative}: replaced by the course's new version; you had edited "
                                      f"it, and your version is kept as {relative}.mine")
            else:
                self.install(relative)
                self.changed.append(f"updated {relative}")
        for relative in sorted(set(old_files) - set(new_files)):
            mine = os.path.join(self.copy, relative)
            if not os.path.isfile(mine):
                continue
            if digest(mine) == old_files[relative]:
                os.remove(mine)
                self.changed.append(f"removed {relative} (no longer part of the course)")
            else:
                self.attention.append(f"{relative}: no longer part of the course, but you had edited it: kept")
        shutil.copy2(os.path.join(self.new, MANIFEST), os.path.join(self.copy, MANIFEST))

    def lines(self):
        out = self.changed[:]
        out += [f"NEEDS YOU: {line}" for line in self.attention]
        merged_by_hand = sum(1 for line in self.attention if line.endswith("by hand"))
        out.append(f"update: {len(self.changed)} file(s) changed, {len(self.attention)} to look at"
                   + (f" ({merged_by_hand} to merge by hand)" if merged_by_hand else "")
                   + "; nothing was committed")
        return out


def update(copy, new):
    """Merges release folder `new` into the student's `copy`; returns the Update."""
    for folder in (copy, new):
        if not os.path.isdir(folder):
            raise UpdateError(f"{folder}: no such folder")
    work = Update(os.path.abspath(copy), os.path.abspath(new))
    work.run()
    return work
