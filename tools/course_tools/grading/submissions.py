"""Finding students' submissions and the exercise files inside them.

A submission is a folder (a copy of the course repository, or only the exercise
files, flat or in NN_name/ folders), a .tar/.tar.gz/.tgz/.zip archive of one, or a
git repository (what is committed at HEAD counts). A class is a folder holding one
submission per student; the student's name is the entry's name without extension.
Nothing here trusts the submission: archives are unpacked without links, devices,
absolute paths or '..', and with a size cap.
"""
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import zipfile
import zlib

from course_tools.grading.reports import name_problem  # the rule every report file name follows

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
MAX_UNPACKED_BYTES = 200 << 20   # a submission is source code: 200 MiB is far beyond it
MAX_MEMBERS = 20000
SKIPPED_FOLDERS = {".git", "build", "__pycache__", ".svn", ".hg"}
# What marks the folders tools/course grade makes (a results folder, a work folder in /run).
GRADER_LOCK = ".grading.lock"
GRADER_SETTINGS = "grading.json"
GRADER_WORK_PREFIX = "course-grade-"
GRADER_WORK_OWNER = ".owner"


class SubmissionError(Exception):
    """A problem with the input that the instructor must fix (a clear message)."""


def student_name(path):
    name = os.path.basename(os.path.normpath(path))
    for suffix in ARCHIVE_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def is_submission_entry(path):
    name = os.path.basename(path)
    if name.startswith("."):
        return False
    return os.path.isdir(path) or name.lower().endswith(ARCHIVE_SUFFIXES)


def is_grader_folder(path):
    """A folder tools/course grade made: a results folder (its lock, or its settings beside
    submissions/), wherever the instructor put it, or a work folder in /run. Graded as a
    submission, a results folder placed in the class became a student called `results`."""
    if not os.path.isdir(path) or os.path.islink(path):
        return False
    if os.path.exists(os.path.join(path, GRADER_LOCK)):
        return True
    if os.path.isfile(os.path.join(path, GRADER_SETTINGS)) and os.path.isdir(os.path.join(path, "submissions")):
        return True
    return (os.path.basename(path).startswith(GRADER_WORK_PREFIX)
            and os.path.isfile(os.path.join(path, GRADER_WORK_OWNER)))


def _same_folder(path, others):
    real = os.path.realpath(path)
    return any(real == os.path.realpath(other) for other in others if other)


def list_class(folder, skip=(), notes=None):
    """[(student, path)] for a class folder; errors for missing, empty, duplicate names.
    The grader's own folders and those in `skip` (the results folder) are left out, each
    with a line in `notes` (a list)."""
    if not os.path.exists(folder):
        raise SubmissionError(f"{folder}: no such folder")
    if not os.path.isdir(folder):
        raise SubmissionError(f"{folder}: a class must be a folder of submissions (one per student)")
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise SubmissionError(f"{folder}: cannot list it ({error.strerror})") from error
    entries = [os.path.join(folder, n) for n in names if is_submission_entry(os.path.join(folder, n))]
    ours = [path for path in entries if _same_folder(path, skip) or is_grader_folder(path)]
    for path in ours:
        if notes is not None:
            notes.append(f"{path}: a results or work folder of the grader, not a submission: left out")
    entries = [path for path in entries if path not in ours]
    if not entries:
        raise SubmissionError(f"{folder}: no submissions in it (expected one folder or archive per student)")
    by_student = {}
    for path in entries:
        by_student.setdefault(student_name(path), []).append(path)
    duplicates = {s: p for s, p in by_student.items() if len(p) > 1}
    if duplicates:
        lines = [f"  {s}: " + ", ".join(os.path.basename(p) for p in paths) for s, paths in sorted(duplicates.items())]
        raise SubmissionError("two submissions for the same student name:\n" + "\n".join(lines))
    check_names(by_student)
    return [(student, paths[0]) for student, paths in sorted(by_student.items())]


LOOK_LIMIT = 5000  # files looked at per entry when telling a class from one submission


def _names_inside(path):
    """The relative paths in a folder or an archive (names only: nothing is unpacked),
    at most LOOK_LIMIT of them; none when it cannot be read."""
    lowered = path.lower()
    names = []
    try:
        if lowered.endswith((".tar.gz", ".tgz", ".tar")):
            with tarfile.open(path) as tar:
                for member in tar:
                    names.append(member.name)
                    if len(names) >= LOOK_LIMIT:
                        break
        elif lowered.endswith(".zip"):
            with zipfile.ZipFile(path) as bundle:
                names = [info.filename for info in bundle.infolist()[:LOOK_LIMIT]]
        else:
            for base, folders, files in os.walk(path):
                folders[:] = [f for f in folders if f not in SKIPPED_FOLDERS]
                names += [os.path.relpath(os.path.join(base, n), path) for n in folders + files]
                if len(names) >= LOOK_LIMIT:
                    break
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error):
        return []
    return [name.replace(os.sep, "/").strip("/") for name in names]


def _holds_course_files(names, student_files):
    """Whether these paths look like a submission of this course: an exercises/ folder,
    or a file named like a student file (in any letter case, as locate accepts it)."""
    wanted = {name.lower() for name in student_files}
    return any("exercises" in name.split("/") or name.split("/")[-1].lower() in wanted for name in names)


def class_inside(folder, student_files, exercise_ids, skip=()):
    """The entries of `folder` that each look like a submission of this course, when
    there are two or more and the folder is no submission itself (no exercises/, no
    NN_name/ folder, no student file at its top); else []. What tells that a folder
    given without --class is a class."""
    if not os.path.isdir(folder) or is_grader_folder(folder):
        return []
    try:
        top = os.listdir(folder)
    except OSError:
        return []
    own = {"exercises"} | {e.lower() for e in exercise_ids} | {f.lower() for f in student_files}
    if any(name.lower() in own for name in top):
        return []
    entries = [os.path.join(folder, name) for name in sorted(top)]
    entries = [path for path in entries if is_submission_entry(path)
               and not _same_folder(path, skip) and not is_grader_folder(path)]
    alike = [path for path in entries if _holds_course_files(_names_inside(path), student_files)]
    return alike if len(alike) >= 2 else []


def check_names(students):
    """Refuses, before anything is graded, the names that cannot name a report file
    (reports.name_problem: a control character such as a newline or a tab, a '/' or
    '\\', a leading dot, bytes that are not UTF-8, more than reports.MAX_NAME_BYTES
    bytes). Every other name (quotes, '$()', backticks, spaces, accents, a leading
    dash) is data: it never reaches a shell, a compiler or the sandbox."""
    problems = [(student, name_problem(student)) for student in sorted(students)]
    problems = [(student, problem) for student, problem in problems if problem]
    if problems:
        lines = [f"  {ascii(student)}: {problem}" for student, problem in problems]
        raise SubmissionError(
            "these submission names cannot name a report file; rename the folders or archives "
            "(the student's name is the name without its extension) and run again. Nothing was graded:\n"
            + "\n".join(lines))


def single(path, skip=()):
    if not os.path.exists(path):
        raise SubmissionError(f"{path}: no such file or folder")
    if _same_folder(path, skip) or is_grader_folder(path):
        raise SubmissionError(f"{path}: a results or work folder of the grader, not a submission")
    if not (os.path.isdir(path) or path.lower().endswith(ARCHIVE_SUFFIXES)):
        raise SubmissionError(f"{path}: a submission is a folder, a git repository or a .tar.gz/.tgz/.tar/.zip archive")
    check_names([student_name(path)])
    return [(student_name(path), path)]


# ---------------------------------------------------------------------------
# Unpacking into a private folder
# ---------------------------------------------------------------------------
def _safe_member_path(name):
    normalized = os.path.normpath(name)
    if os.path.isabs(name) or normalized == ".." or normalized.startswith(".." + os.sep):
        return None
    return normalized


def _unpack_tar(archive, destination, label):
    total = 0
    with tarfile.open(archive) as tar:
        for count, member in enumerate(tar):
            if count >= MAX_MEMBERS:
                raise SubmissionError(f"{label}: more than {MAX_MEMBERS} files")
            path = _safe_member_path(member.name)
            if path is None or not (member.isfile() or member.isdir()):
                continue  # links, devices, absolute or escaping paths: never unpacked
            target = os.path.join(destination, path)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            total += member.size
            if total > MAX_UNPACKED_BYTES:
                raise SubmissionError(f"{label}: unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            source = tar.extractfile(member)
            with open(target, "wb") as handle:
                shutil.copyfileobj(source, handle)


def _unpack_zip(archive, destination, label):
    total = 0
    with zipfile.ZipFile(archive) as bundle:
        for count, info in enumerate(bundle.infolist()):
            if count >= MAX_MEMBERS:
                raise SubmissionError(f"{label}: more than {MAX_MEMBERS} files")
            path = _safe_member_path(info.filename)
            if path is None or info.is_dir():
                continue
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                continue  # a symbolic link
            total += info.file_size
            if total > MAX_UNPACKED_BYTES:
                raise SubmissionError(f"{label}: unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB")
            target = os.path.join(destination, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with bundle.open(info) as source, open(target, "wb") as handle:
                shutil.copyfileobj(source, handle)


def _is_git_repository(path):
    return os.path.isdir(os.path.join(path, ".git")) or (
        os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")))


def _copy_tree(source, destination, label):
    """Copies regular files only (no links out of the submission), with the size cap."""
    total = 0
    for base, folders, files in os.walk(source):
        folders[:] = [f for f in folders if f not in SKIPPED_FOLDERS and not os.path.islink(os.path.join(base, f))
                      and not is_grader_folder(os.path.join(base, f))]  # results kept inside a submission
        for name in files:
            path = os.path.join(base, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            total += os.path.getsize(path)
            if total > MAX_UNPACKED_BYTES:
                raise SubmissionError(f"{label}: more than {MAX_UNPACKED_BYTES >> 20} MiB of files")
            target = os.path.join(destination, os.path.relpath(path, source))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            try:
                shutil.copyfile(path, target)
            except OSError as error:
                # Kept as an empty marker so that the exercise can say which file was unreadable.
                with open(target + ".unreadable", "w", encoding="utf-8") as marker:
                    marker.write(error.strerror or "unreadable")


def _archive_problem(lowered, error):
    """One line on why an archive cannot be read. tarfile, guessing the compression,
    answers with one line per method it tried: the one the file's name claims is kept."""
    text = str(error)
    method = "gz" if lowered.endswith((".tar.gz", ".tgz")) else "tar"
    found = re.search(r"^- method " + method + r": \w+\(([\'\"])(.*)\1\)$", text, re.M)
    if found:
        return found.group(2)
    return " ".join(text.split())


def unpack(path, destination):
    """Puts the submission's files into `destination` (a new folder). Messages name the
    submission by its own name (alice.tar.gz), never by the instructor's path: students
    read them in their feedback."""
    os.makedirs(destination, exist_ok=True)
    label = os.path.basename(os.path.normpath(path))
    lowered = path.lower()
    try:
        if lowered.endswith((".tar.gz", ".tgz", ".tar")):
            _unpack_tar(path, destination, label)
        elif lowered.endswith(".zip"):
            _unpack_zip(path, destination, label)
        elif _is_git_repository(path):
            archive = os.path.join(destination, ".submission.tar")
            result = subprocess.run(
                ["git", "-c", "safe.directory=*", "-C", path, "archive", "--format=tar", "-o", archive, "HEAD"],
                capture_output=True, text=True, timeout=120)
            if result.returncode != 0:
                stderr = result.stderr.replace(os.path.abspath(path), label).strip()
                raise SubmissionError(f"{label}: git archive HEAD failed: {stderr}")
            _unpack_tar(archive, destination, label)
            os.remove(archive)
        else:
            _copy_tree(path, destination, label)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise SubmissionError(f"{label}: not a readable archive ({_archive_problem(lowered, error)})") from error
    except PermissionError as error:
        raise SubmissionError(f"{label}: cannot read it ({error.strerror})") from error



# ---------------------------------------------------------------------------
# Locating the declared files
# ---------------------------------------------------------------------------
def all_files(folder):
    found = []
    for base, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if f not in SKIPPED_FOLDERS)
        for name in sorted(files):
            found.append(os.path.relpath(os.path.join(base, name), folder))
    return found


def _rank(relative, exercise_id, wanted):
    """Lower is better: the repository path, then an NN_name/ folder, then anywhere."""
    parts = relative.replace(os.sep, "/").split("/")
    if parts[-2:-1] == [exercise_id] and len(parts) >= 3 and parts[-3] == "exercises":
        rank = 0
    elif parts[-2:-1] == [exercise_id]:
        rank = 1
    elif exercise_id in parts:
        rank = 2
    else:
        rank = 3
    return rank * 2 + (0 if parts[-1] == wanted else 1)  # exact letter case first


def digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _depth(relative):
    return len(relative.replace(os.sep, "/").split("/"))


def _settle_tie(folder, tied, skeleton_digest):
    """Of equally ranked copies with different contents, the one to grade, or None:
    the one at the expected place (the shallowest: a backup/ or old/ copy sits deeper),
    else the only one that differs from the course's skeleton (the others being
    untouched copies of it)."""
    shallowest = min(_depth(f) for f in tied)
    at_top = [f for f in tied if _depth(f) == shallowest]
    if len(at_top) == 1:
        return at_top[0]
    edited = [f for f in tied if digest(os.path.join(folder, f)) != skeleton_digest]
    return edited[0] if len(edited) == 1 else None


def locate(folder, files, exercise_id, wanted, exclude_prefixes=("solutions/",), skeleton_digest=None):
    """The best path (relative to `folder`) for the declared file `wanted`, and a list
    of warnings. Candidates whose names differ only in letter case count, with a
    warning. An exercise found twice (a backup copy in a second NN_name/ folder) is
    graded from the copy at the expected place, or from the only one the student
    edited (`skeleton_digest`: the course's file), with a warning naming both; only
    copies that nothing tells apart are an error, and it says so."""
    candidates = [f for f in files if os.path.basename(f).lower() == wanted.lower()
                  and not f.replace(os.sep, "/").startswith(exclude_prefixes)]
    if not candidates:
        return None, []
    best = min(_rank(f, exercise_id, wanted) for f in candidates)
    tied = [f for f in candidates if _rank(f, exercise_id, wanted) == best]
    chosen = tied[0]
    if len({digest(os.path.join(folder, f)) for f in tied}) > 1:
        chosen = _settle_tie(folder, tied, skeleton_digest)
        if chosen is None:
            raise SubmissionError(
                f"{wanted} was found more than once with different contents, and nothing tells which one "
                f"to grade (none is at the usual place, more than one was edited): " + ", ".join(tied)
                + "; keep one copy only")
    warnings = []
    if os.path.basename(chosen) != wanted:
        warnings.append(f"{chosen}: used as {wanted}, although the names differ in letter case "
                        f"(file names are case-sensitive: rename it)")
    mine = digest(os.path.join(folder, chosen))
    # A nested copy of the course's solutions/ is no copy of the student's work.
    others = [f for f in candidates if f != chosen and "/solutions/" not in "/" + f.replace(os.sep, "/")
              and digest(os.path.join(folder, f)) != mine]
    if others:
        warnings.append(f"{wanted} is in the submission more than once, with different contents: graded "
                        f"{chosen}, ignored " + ", ".join(others) + " (hand in one copy of each exercise)")
    return chosen, warnings


def repository_root(folder, files):
    """The folder inside the submission that holds exercises/ (a copy of the repository), or None."""
    roots = sorted({f.replace(os.sep, "/").split("exercises/")[0] for f in files
                    if "/exercises/" in "/" + f.replace(os.sep, "/")}, key=len)
    return roots[0] if roots else None
