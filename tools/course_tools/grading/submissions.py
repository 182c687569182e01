"""Finding students' submissions and the exercise files inside them.

A submission is a folder (a copy of the course repository, or only the exercise
files, flat or in NN_name/ folders), an archive of one (.zip, .tar, .tar.gz/.tgz,
.tar.xz/.txz, .tar.bz2/.tbz2, and .7z where a 7-Zip command is installed: Debian's
7zip or p7zip-full), a folder or archive holding nothing but one such archive (a
course platform's bulk download: alice/submission.zip), or a git repository: its
working tree is graded (what the student sees), or with --git-head its last commit,
and a difference between the two in the student's files is always named. A class is a
folder holding one submission per student; the student's name is the entry's name
without extension; every other entry is named with the reason it is not graded.
Nothing here trusts the submission: archives are unpacked without links, devices,
absolute paths or '..', with caps on size and file count, and git is asked only for
its objects (never for what a repository's own configuration could run).
"""
import lzma
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import zipfile
import zlib

from course_tools.grading.reports import name_problem  # the rule every report file name follows

TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz", ".tar")
SEVEN_ZIP_SUFFIX = ".7z"
ARCHIVE_SUFFIXES = TAR_SUFFIXES + (".zip", SEVEN_ZIP_SUFFIX)
ARCHIVES_NAMED = ".zip, .tar, .tar.gz, .tar.xz, .tar.bz2 or .7z"
# The 7-Zip commands, in the order tried: Debian's 7zip (7zz; 7z from trixie on), p7zip-full's.
SEVEN_ZIP_COMMANDS = ("7z", "7zz", "7za")
SEVEN_ZIP_MISSING = ("a 7z archive, and no 7-Zip command is installed here: install 7zip (apt-get install 7zip) "
                     "and run again")
# Archives nothing here opens, each with what to ask the student for.
UNSUPPORTED = {".rar": "a RAR archive, which the grader does not open: ask for a .zip or .tar.gz"}
# What sits beside a platform's one archive without being the student's: macOS's and Windows's own files.
PLATFORM_LITTER = ("__MACOSX", "Thumbs.db", "desktop.ini")
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


class GradeWarning(str):
    """A warning that may change a grade (a backup copy graded, a file taken from an
    unexpected place, an archive unpacked from inside the submission, a git working tree
    that differs from its last commit): the instructor sees it on the console's summary
    and in class.html, and the student on the feedback page, like every other warning."""


def seven_zip():
    """The path of the 7-Zip command, or None."""
    for name in SEVEN_ZIP_COMMANDS:
        found = shutil.which(name)
        if found:
            return found
    return None


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


def not_a_submission(path):
    """Why the class entry `path` is not graded, or None when it is a submission to grade."""
    name = os.path.basename(path)
    lowered = name.lower()
    if name.startswith("."):
        return "a hidden file or folder (its name starts with a dot): not a submission"
    if os.path.isdir(path):
        return None
    if not os.path.isfile(path):
        return "neither a folder nor a file (a broken link, a device...): not a submission"
    if lowered.endswith(SEVEN_ZIP_SUFFIX) and not seven_zip():
        return SEVEN_ZIP_MISSING
    if lowered.endswith(ARCHIVE_SUFFIXES):
        return None
    for suffix, reason in UNSUPPORTED.items():
        if lowered.endswith(suffix):
            return reason
    return (f"a file, not a submission (a submission is a folder, a git repository or a {ARCHIVES_NAMED} "
            f"archive): move it out of the class folder, or pack the student's work in one of these")


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


def list_class(folder, skip=(), notes=None, left_out=None):
    """[(student, path)] for a class folder; errors for missing, empty, duplicate names.
    The grader's own folders and those in `skip` (the results folder) are left out, each
    with a line in `notes` (a list); every other entry that is not graded (a file that
    is no archive, a 7z archive without a 7-Zip command, a hidden file) goes into
    `left_out` (a list of (entry name, reason)), so that nothing in the class folder is
    passed over in silence."""
    if not os.path.exists(folder):
        raise SubmissionError(f"{folder}: no such folder")
    if not os.path.isdir(folder):
        raise SubmissionError(f"{folder}: a class must be a folder of submissions (one per student)")
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise SubmissionError(f"{folder}: cannot list it ({error.strerror})") from error
    entries, skipped = [], []
    for name in names:
        path = os.path.join(folder, name)
        if _same_folder(path, skip) or is_grader_folder(path):
            if notes is not None:
                notes.append(f"{path}: a results or work folder of the grader, not a submission: left out")
            continue
        reason = not_a_submission(path)
        if reason:
            skipped.append((name, reason))
        else:
            entries.append(path)
    if left_out is not None:
        left_out.extend(skipped)
    if not entries:
        listed = "".join(f"\n  {ascii(name)}: {reason}" for name, reason in skipped)
        raise SubmissionError(f"{folder}: no submissions in it (expected one folder or archive per student)"
                              + listed)
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
        if lowered.endswith(TAR_SUFFIXES):
            with tarfile.open(path) as tar:
                for member in tar:
                    names.append(member.name)
                    if len(names) >= LOOK_LIMIT:
                        break
        elif lowered.endswith(".zip"):
            with zipfile.ZipFile(path) as bundle:
                names = [info.filename for info in bundle.infolist()[:LOOK_LIMIT]]
        elif lowered.endswith(SEVEN_ZIP_SUFFIX):
            names = [member["Path"] for member in _seven_zip_members(path, path)[:LOOK_LIMIT]]
        else:
            for base, folders, files in os.walk(path):
                folders[:] = [f for f in folders if f not in SKIPPED_FOLDERS]
                names += [os.path.relpath(os.path.join(base, n), path) for n in folders + files]
                if len(names) >= LOOK_LIMIT:
                    break
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, lzma.LZMAError,
            SubmissionError):
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
    reason = not_a_submission(path)
    if reason:
        raise SubmissionError(f"{path}: {reason}")
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


def _too_many(label):
    return SubmissionError(f"{label}: more than {MAX_MEMBERS} files")


def _too_large(label):
    return SubmissionError(f"{label}: unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB")


def _unpack_tar(archive, destination, label):
    """Any tar, plain or compressed (gzip, xz, bzip2: tarfile tells them by their content)."""
    total = 0
    with tarfile.open(archive) as tar:
        for count, member in enumerate(tar):
            if count >= MAX_MEMBERS:
                raise _too_many(label)
            path = _safe_member_path(member.name)
            if path is None or not (member.isfile() or member.isdir()):
                continue  # links, devices, absolute or escaping paths: never unpacked
            target = os.path.join(destination, path)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            total += member.size
            if total > MAX_UNPACKED_BYTES:
                raise _too_large(label)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            source = tar.extractfile(member)
            with open(target, "wb") as handle:
                shutil.copyfileobj(source, handle)


def _unpack_zip(archive, destination, label):
    total = 0
    with zipfile.ZipFile(archive) as bundle:
        for count, info in enumerate(bundle.infolist()):
            if count >= MAX_MEMBERS:
                raise _too_many(label)
            path = _safe_member_path(info.filename)
            if path is None or info.is_dir():
                continue
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                continue  # a symbolic link
            total += info.file_size
            if total > MAX_UNPACKED_BYTES:
                raise _too_large(label)
            target = os.path.join(destination, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with bundle.open(info) as source, open(target, "wb") as handle:
                shutil.copyfileobj(source, handle)


SEVEN_ZIP_TIMEOUT = 300
# A password no archive has: 7-Zip asks for none on the terminal, and an encrypted archive fails.
SEVEN_ZIP_NO_PASSWORD = "-pcourse-grader-has-no-password"


def _seven_zip_members(archive, label):
    """The members of a 7z archive as 7-Zip lists them (-slt: one "Key = value" a line,
    a blank line between members)."""
    command = seven_zip()
    if not command:
        raise SubmissionError(f"{label}: {SEVEN_ZIP_MISSING}")
    try:
        listed = subprocess.run([command, "l", "-slt", "-ba", SEVEN_ZIP_NO_PASSWORD, "--", archive],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                                timeout=SEVEN_ZIP_TIMEOUT)
    except subprocess.TimeoutExpired as error:
        raise SubmissionError(f"{label}: 7-Zip could not list it in {SEVEN_ZIP_TIMEOUT} s") from error
    if listed.returncode != 0:
        why = " ".join((listed.stderr or listed.stdout).replace(os.path.abspath(archive), label).split())
        raise SubmissionError(f"{label}: not a readable archive (7-Zip: {why or 'status ' + str(listed.returncode)})")
    members, current = [], {}
    for line in listed.stdout.splitlines() + [""]:
        if not line.strip():
            if current:
                members.append(current)
            current = {}
            continue
        key, _, value = line.partition(" = ")
        current[key.strip()] = value
    return [member for member in members if "Path" in member]


def _unpack_seven_zip(archive, destination, label):
    """A 7z archive, with the guarantees of the other archives: every member is checked
    before anything is written (no link, no absolute path or '..', at most MAX_MEMBERS
    files and MAX_UNPACKED_BYTES), 7-Zip unpacks into a private folder, and only its
    regular files are copied on (_copy_tree). Unlike a tar or zip, whose links are
    skipped, an archive holding a link or an escaping path is refused whole: 7-Zip cannot
    be told to leave out one member safely."""
    members = _seven_zip_members(archive, label)
    if len(members) > MAX_MEMBERS:
        raise _too_many(label)
    total = 0
    for member in members:
        name = member["Path"]
        attributes = member.get("Attributes", "")
        unix = attributes.split()[-1] if attributes.split() else ""
        if member.get("Encrypted") == "+":
            raise SubmissionError(f"{label}: {name} is encrypted: ask for an archive without a password")
        if _safe_member_path(name) is None or unix.startswith("l") or member.get("Symbolic Link"):
            raise SubmissionError(
                f"{label}: holds a symbolic link or a path that leaves the archive ({name}): not unpacked; "
                f"ask for an archive of plain files and folders")
        try:
            total += int(member.get("Size") or 0)
        except ValueError:
            pass
        if total > MAX_UNPACKED_BYTES:
            raise _too_large(label)
    staging = destination.rstrip(os.sep) + ".7z-staging"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    try:
        try:
            unpacked = subprocess.run([seven_zip(), "x", "-y", "-bd", SEVEN_ZIP_NO_PASSWORD, f"-o{staging}", "--",
                                       archive], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                      errors="replace", timeout=SEVEN_ZIP_TIMEOUT)
        except subprocess.TimeoutExpired as error:
            raise SubmissionError(f"{label}: 7-Zip could not unpack it in {SEVEN_ZIP_TIMEOUT} s") from error
        if unpacked.returncode != 0:
            why = " ".join((unpacked.stderr or unpacked.stdout).replace(os.path.abspath(archive), label).split())
            raise SubmissionError(f"{label}: not a readable archive (7-Zip: {why[-300:]})")
        _copy_tree(staging, destination, label, skip_folders=())
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _is_git_repository(path):
    return os.path.isdir(os.path.join(path, ".git")) or (
        os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")))


def _copy_tree(source, destination, label, skip_folders=SKIPPED_FOLDERS):
    """Copies regular files only (no links out of the submission), with the size cap."""
    total = 0
    for base, folders, files in os.walk(source):
        folders[:] = [f for f in folders if f not in skip_folders and not os.path.islink(os.path.join(base, f))
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
    method = "tar"
    for suffixes, name in (((".tar.gz", ".tgz"), "gz"), ((".tar.xz", ".txz"), "xz"),
                           ((".tar.bz2", ".tbz2", ".tbz"), "bz2")):
        if lowered.endswith(suffixes):
            method = name
    found = re.search(r"^- method " + method + r": \w+\(([\'\"])(.*)\1\)$", text, re.M)
    if found:
        return found.group(2)
    return " ".join(text.split())


# ---------------------------------------------------------------------------
# Git repositories: the working tree or the last commit, and how they differ
# ---------------------------------------------------------------------------
GIT_TIMEOUT = 120
REGULAR_MODES = ("100644", "100755")


def _git_folder(path):
    """(the repository's git folder, whether it has a working tree), or None. A `.git`
    that is a file or a link (a worktree or submodule pointing elsewhere) is no
    repository here: it could name any repository of the grading machine."""
    dot_git = os.path.join(path, ".git")
    if os.path.isdir(dot_git) and not os.path.islink(dot_git):
        return dot_git, True
    if os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")):
        return path, False
    return None


def _git(git_folder, arguments, label, stdin=None):
    """git, asked about objects only (ls-tree, cat-file, rev-parse): none of these runs
    what a repository's configuration names (filters, fsmonitor, hooks)."""
    environment = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0",
                       GIT_NO_REPLACE_OBJECTS="1")
    environment.pop("GIT_DIR", None)
    try:
        return subprocess.run(["git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false",
                               f"--git-dir={git_folder}", *arguments], input=stdin, capture_output=True,
                              timeout=GIT_TIMEOUT, env=environment)
    except FileNotFoundError as error:
        raise SubmissionError(f"{label}: a git repository, and git is not installed here") from error
    except subprocess.TimeoutExpired as error:
        raise SubmissionError(f"{label}: git took more than {GIT_TIMEOUT} s to read it") from error


def _borrowed_objects(git_folder):
    """Whether the repository reads objects from elsewhere (alternates, a worktree's common
    folder): its last commit could then name files of another repository."""
    return (os.path.exists(os.path.join(git_folder, "objects", "info", "alternates"))
            or os.path.exists(os.path.join(git_folder, "commondir")))


def _head_files(git_folder, label):
    """{path: (mode, object id, size)} of the blobs of the last commit, or None when the
    repository has no commit."""
    if _borrowed_objects(git_folder):
        raise SubmissionError(f"{label}: its git repository borrows objects from another one (alternates): "
                              f"its commits cannot be read safely")
    verified = _git(git_folder, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], label)
    if verified.returncode != 0:
        return None
    listed = _git(git_folder, ["ls-tree", "-r", "-z", "-l", "--full-tree", "HEAD"], label)
    if listed.returncode != 0:
        raise SubmissionError(f"{label}: git cannot list its last commit: "
                              + " ".join(listed.stderr.decode("utf-8", "replace").split()))
    files = {}
    for record in listed.stdout.split(b"\0"):
        if not record:
            continue
        header, _, path = record.partition(b"\t")
        fields = header.decode("ascii", "replace").split()
        if len(fields) != 4 or fields[1] != "blob":
            continue  # a submodule's commit
        size = int(fields[3]) if fields[3].isdigit() else 0
        files[path.decode("utf-8", "surrogateescape")] = (fields[0], fields[2], size)
    return files


def _read_blobs(git_folder, object_ids, label):
    """{object id: bytes} (git cat-file --batch: the objects as stored, no filter)."""
    wanted = list(dict.fromkeys(object_ids))
    if not wanted:
        return {}
    answer = _git(git_folder, ["cat-file", "--batch"], label, stdin="".join(f"{o}\n" for o in wanted).encode())
    if answer.returncode != 0:
        raise SubmissionError(f"{label}: git cannot read its last commit's files")
    blobs, data, position = {}, answer.stdout, 0
    for object_id in wanted:
        end = data.index(b"\n", position)
        header = data[position:end].split()
        position = end + 1
        if len(header) < 3:
            continue  # "<id> missing"
        size = int(header[2])
        blobs[object_id] = data[position:position + size]
        position += size + 1
    return blobs


def _unpack_head(git_folder, destination, label):
    """The last commit's regular files (no links, no submodules), with the caps."""
    files = _head_files(git_folder, label)
    if files is None:
        raise SubmissionError(f"{label}: a git repository without any commit: nothing to grade at its last "
                              f"commit (without --git-head its working tree is graded)")
    regular = {path: entry for path, entry in files.items()
               if entry[0] in REGULAR_MODES and _safe_member_path(path) is not None}
    if len(regular) > MAX_MEMBERS:
        raise _too_many(label)
    if sum(size for _, _, size in regular.values()) > MAX_UNPACKED_BYTES:
        raise _too_large(label)
    blobs = _read_blobs(git_folder, [object_id for _, object_id, _ in regular.values()], label)
    for path, (_, object_id, _) in regular.items():
        target = os.path.join(destination, _safe_member_path(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(blobs.get(object_id, b""))


def _same_text(first, second):
    """Equal, or equal but for line ends (a Windows checkout's CRLF against a commit's LF)."""
    return first == second or first.replace(b"\r\n", b"\n") == second.replace(b"\r\n", b"\n")


def git_differences(folder, git_folder, label, wanted=None):
    """[(path, how)] of the files whose name is in `wanted` (lower-case names; None: every
    file) that differ between the working tree `folder` and the last commit: changed,
    new (not committed), or gone from the working tree."""
    def chosen(path):
        return wanted is None or os.path.basename(path).lower() in wanted

    head = _head_files(git_folder, label)
    in_tree = {}
    for relative in all_files(folder):
        full = os.path.join(folder, relative)
        if chosen(relative) and os.path.isfile(full) and not os.path.islink(full):
            in_tree[relative.replace(os.sep, "/")] = full
    if head is None:
        return [(path, "not committed: the repository has no commit") for path in sorted(in_tree)]
    in_head = {path: entry for path, entry in head.items() if chosen(path) and entry[0] in REGULAR_MODES}
    blobs = _read_blobs(git_folder, [in_head[path][1] for path in in_tree if path in in_head], label)
    found = []
    for path in sorted(set(in_tree) | set(in_head)):
        if path not in in_head:
            found.append((path, "not committed (a new or untracked file)"))
        elif path not in in_tree:
            found.append((path, "in the last commit, deleted from the working tree"))
        elif os.path.getsize(in_tree[path]) > MAX_UNPACKED_BYTES:
            found.append((path, "changed since the last commit"))   # never read whole: no exercise file is so large
        else:
            with open(in_tree[path], "rb") as handle:
                if not _same_text(handle.read(), blobs.get(in_head[path][1], b"")):
                    found.append((path, "changed since the last commit"))
    return found


def git_warning(label, graded_head, differences):
    """The warning that names which of the two was graded and where they differ."""
    listed = "; ".join(f"{path}: {how}" for path, how in differences[:10])
    if len(differences) > 10:
        listed += f"; and {len(differences) - 10} more"
    if graded_head:
        return GradeWarning(
            f"{label}: graded its last git commit (HEAD), not its working tree, which differs in the exercise "
            f"files ({listed}): the uncommitted work was not graded. Commit your work before handing it in.")
    return GradeWarning(
        f"{label}: graded its git working tree (what the student sees), not its last commit (HEAD), which "
        f"differs in the exercise files ({listed}); the instructor's --git-head grades the last commit "
        f"instead. Commit your work before handing it in.")


def _unpack_git(path, destination, label, git_head, wanted):
    """A git repository: its working tree (a copy of the folder without .git) or, with
    `git_head` or for a bare repository, its last commit; a warning whenever the two
    differ in the exercise files (`wanted`)."""
    git_folder, has_tree = _git_folder(path)
    if not has_tree:
        _unpack_head(git_folder, destination, label)
        return []
    if git_head:
        _unpack_head(git_folder, destination, label)
    else:
        _copy_tree(path, destination, label)
    try:
        differences = git_differences(path, git_folder, label, wanted)
    except SubmissionError as error:
        if git_head:
            raise
        return [GradeWarning(f"graded the working tree of {label}; it could not be compared with its last "
                             f"commit ({error})")]
    return [git_warning(label, git_head, differences)] if differences else []


# ---------------------------------------------------------------------------
# Unpacking a submission
# ---------------------------------------------------------------------------
def _unpack_archive(path, destination, label):
    lowered = path.lower()
    try:
        if lowered.endswith(TAR_SUFFIXES):
            _unpack_tar(path, destination, label)
        elif lowered.endswith(".zip"):
            _unpack_zip(path, destination, label)
        elif lowered.endswith(SEVEN_ZIP_SUFFIX):
            _unpack_seven_zip(path, destination, label)
        else:
            raise SubmissionError(f"{label}: not an archive the grader opens ({ARCHIVES_NAMED})")
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, lzma.LZMAError) as error:
        raise SubmissionError(f"{label}: not a readable archive ({_archive_problem(lowered, error)})") from error
    except OSError as error:
        if isinstance(error, PermissionError) or error.errno is not None:
            raise
        # bz2 says "Invalid data stream" as an OSError without an errno.
        raise SubmissionError(f"{label}: not a readable archive ({error})") from error


def _only_archive(folder):
    """The one archive a folder holds and nothing else (beside hidden files and what macOS
    or Windows leave), or None."""
    try:
        names = [name for name in os.listdir(folder) if not name.startswith(".") and name not in PLATFORM_LITTER]
    except OSError:
        return None
    if len(names) != 1:
        return None
    path = os.path.join(folder, names[0])
    if names[0].lower().endswith(ARCHIVE_SUFFIXES) and os.path.isfile(path) and not os.path.islink(path):
        return path
    return None


def unpack(path, destination, git_head=False, student_files=None):
    """Puts the submission's files into `destination` (a new folder) and returns the
    warnings (GradeWarning: those that may change the grade). Messages name the
    submission by its own name (alice.tar.gz), never by the instructor's path: students
    read them in their feedback. A folder or archive that holds nothing but one archive
    is graded from what that archive holds (once: an archive in that one is not opened).
    `git_head`: grade a git repository's last commit, not its working tree;
    `student_files`: the names of the exercise files graded, whose differences between
    the two are named (None: every file)."""
    os.makedirs(destination, exist_ok=True)
    label = os.path.basename(os.path.normpath(path))
    wanted = None if student_files is None else {name.lower() for name in student_files}
    warnings = []
    try:
        if os.path.isdir(path) and _git_folder(path) is not None:
            warnings += _unpack_git(path, destination, label, git_head, wanted)
        elif os.path.isdir(path):
            _copy_tree(path, destination, label)
        else:
            _unpack_archive(path, destination, label)
        inner = _only_archive(destination)
        if inner is not None:
            inner_label = f"{label}/{os.path.relpath(inner, destination)}"
            staging = destination.rstrip(os.sep) + ".inner"
            shutil.rmtree(staging, ignore_errors=True)
            os.makedirs(staging)
            _unpack_archive(inner, staging, inner_label)
            shutil.rmtree(destination)
            os.rename(staging, destination)
            warnings.append(GradeWarning(
                f"{label} holds nothing but the archive {os.path.basename(inner)}: graded what that archive holds "
                f"(a course platform's download looks so; hand in the archive itself, or its files)"))
    except PermissionError as error:
        raise SubmissionError(f"{label}: cannot read it ({error.strerror})") from error
    return warnings


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


def _expected_place(relative, exercise_id, wanted, files):
    """Whether a file sits where an exercise's files go: exercises/NN_name/ or NN_name/
    (anywhere), the top of the submission, or the top of the one folder that wraps it."""
    parts = relative.replace(os.sep, "/").split("/")
    if _rank(relative, exercise_id, wanted) <= 3 or len(parts) == 1:
        return True
    tops = {f.replace(os.sep, "/").split("/")[0] for f in files}
    return len(parts) == 2 and tops == {parts[0]}


def _outside_solutions(relative):
    # A nested copy of the course's solutions/ is no copy of the student's work.
    return "/solutions/" not in "/" + relative.replace(os.sep, "/")


def locate(folder, files, exercise_id, wanted, exclude_prefixes=("solutions/",), skeleton_digest=None):
    """The best path (relative to `folder`) for the declared file `wanted`, and a list
    of warnings (GradeWarning: those that may change the grade). Candidates whose names
    differ only in letter case count, with a warning. An exercise found twice (a backup
    copy in a second NN_name/ folder) is graded from the copy at the expected place, or
    from the only one the student edited (`skeleton_digest`: the course's file), with a
    warning naming both; only copies that nothing tells apart are an error, and it says
    so. Where the copy at the expected place is the untouched skeleton and the student's
    work is in another copy (03_device_memory.bak/), that copy is graded, and a file
    graded from an unexpected place is named."""
    candidates = [f for f in files if os.path.basename(f).lower() == wanted.lower()
                  and not f.replace(os.sep, "/").startswith(exclude_prefixes)]
    if not candidates:
        return None, []

    def settle(among):
        best = min(_rank(f, exercise_id, wanted) for f in among)
        tied = [f for f in among if _rank(f, exercise_id, wanted) == best]
        if len({digest(os.path.join(folder, f)) for f in tied}) > 1:
            found = _settle_tie(folder, tied, skeleton_digest)
            if found is None:
                raise SubmissionError(
                    f"{wanted} was found more than once with different contents, and nothing tells which one "
                    f"to grade (none is at the usual place, more than one was edited): " + ", ".join(tied)
                    + "; keep one copy only")
            return found
        return tied[0]

    chosen = settle(candidates)
    warnings, switched = [], False
    if skeleton_digest is not None and digest(os.path.join(folder, chosen)) == skeleton_digest:
        edited = [f for f in candidates if _outside_solutions(f)
                  and digest(os.path.join(folder, f)) != skeleton_digest]
        if edited:
            untouched, chosen, switched = chosen, settle(edited), True
            warnings.append(GradeWarning(
                f"{untouched} is the course's skeleton, untouched: graded the edited copy {chosen} instead "
                f"(a backup copy, graded rather than nothing; keep your work in {untouched})"))
    if os.path.basename(chosen) != wanted:
        warnings.append(f"{chosen}: used as {wanted}, although the names differ in letter case "
                        f"(file names are case-sensitive: rename it)")
    if not switched and not _expected_place(chosen, exercise_id, wanted, files):
        warnings.append(GradeWarning(
            f"{chosen}: graded as {exercise_id}/{wanted}, although it is not where the exercise's files go "
            f"(exercises/{exercise_id}/, {exercise_id}/ or the top of the submission): check that it is "
            f"the work meant for grading"))
    mine = digest(os.path.join(folder, chosen))
    others = [f for f in candidates if f != chosen and _outside_solutions(f)
              and digest(os.path.join(folder, f)) != mine]
    edited_others = [f for f in others if digest(os.path.join(folder, f)) != skeleton_digest]
    if edited_others or (others and not switched):
        text = (f"{wanted} is in the submission more than once, with different contents: graded "
                f"{chosen}, ignored " + ", ".join(others) + " (hand in one copy of each exercise)")
        warnings.append(GradeWarning(text) if edited_others else text)
    return chosen, warnings


def repository_root(folder, files):
    """The folder inside the submission that holds exercises/ (a copy of the repository), or None."""
    roots = sorted({f.replace(os.sep, "/").split("exercises/")[0] for f in files
                    if "/exercises/" in "/" + f.replace(os.sep, "/")}, key=len)
    return roots[0] if roots else None
