#!/usr/bin/env python3
"""Nothing lost at intake (issue 45), without a build: every entry of a class folder is a
submission or is named with the reason it is not graded; the archives instructors
receive (tar.xz, tar.bz2, 7z where 7-Zip is installed, a folder holding one zip) unpack
with the guarantees of the zip (no path out, no link, caps on size and files); a git
repository is graded from its working tree, or its last commit with --git-head, and a
difference between the two in the exercise files is a warning that names which was
graded, without running anything the repository's own configuration names; the
student's work kept in a backup copy beside an untouched skeleton is graded, with a
warning for the instructor; a copy of the students' release gets no "changed course
file" warning, and a release with one changed course file gets exactly one. Every file
is written under the test's own temporary folders.

    python3 tests/grading/test_intake.py
"""
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_tools.grading import engine, submissions  # noqa: E402

GRADER = [sys.executable, os.path.join(ROOT, "tools", "course"), "grade"]
EXERCISE = "03_device_memory"
FILE = "device_memory.cu"
SKELETON = os.path.join(ROOT, "exercises", EXERCISE, FILE)
SOLUTION = os.path.join(ROOT, "solutions", EXERCISE, FILE)
SEVEN_ZIP = submissions.seven_zip()
GIT = ["git", "-c", "user.name=Student", "-c", "user.email=student@example.org", "-c", "init.defaultBranch=main",
       "-c", "commit.gpgsign=false"]


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def hand_in(folder, relative=f"exercises/{EXERCISE}/{FILE}", source=SOLUTION):
    write(os.path.join(folder, relative), read(source))


def git(folder, *arguments):
    done = subprocess.run(GIT + ["-C", folder, *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(arguments)}: {done.stderr}")
    return done.stdout


def seven_zip(folder, archive):
    subprocess.run([SEVEN_ZIP, "a", "-snl", archive, "."], cwd=folder, check=True, capture_output=True)


class Scratch(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-intake-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.scratch, *parts)

    def unpack(self, source, **options):
        target = self.path("unpacked-" + os.path.basename(source))
        warnings = submissions.unpack(source, target, **options)
        return target, warnings


class ClassFolder(Scratch):
    """Every entry is a submission or a named entry not graded."""

    def make_class(self):
        folder = self.path("class")
        hand_in(self.path("work"))
        hand_in(os.path.join(folder, "alice"))
        for name, mode in (("kim.tar.xz", "w:xz"), ("bob.tar.bz2", "w:bz2"), ("carl.tgz", "w:gz")):
            with tarfile.open(os.path.join(folder, name), mode) as tar:
                tar.add(self.path("work"), arcname=name.split(".")[0])
        with zipfile.ZipFile(self.path("submission.zip"), "w") as bundle:
            bundle.write(SOLUTION, f"exercises/{EXERCISE}/{FILE}")
        os.makedirs(os.path.join(folder, "olga"))
        shutil.copyfile(self.path("submission.zip"), os.path.join(folder, "olga", "submission.zip"))
        if SEVEN_ZIP:
            seven_zip(self.path("work"), os.path.join(folder, "ivan.7z"))
        else:
            write(os.path.join(folder, "ivan.7z"), b"7z\xbc\xaf\x27\x1c")
        write(os.path.join(folder, "notes.txt"), "who handed in what\n")
        write(os.path.join(folder, "paul.rar"), b"Rar!\x1a\x07\x00")
        write(os.path.join(folder, ".DS_Store"), b"\0")
        return folder

    def test_each_entry_is_listed_or_named(self):
        folder = self.make_class()
        left_out = []
        listed = [student for student, _ in submissions.list_class(folder, left_out=left_out)]
        expected = ["alice", "bob", "carl", "kim", "olga"] + (["ivan"] if SEVEN_ZIP else [])
        self.assertEqual(listed, sorted(expected))
        reasons = dict(left_out)
        self.assertEqual(set(reasons), {".DS_Store", "notes.txt", "paul.rar"} | (set() if SEVEN_ZIP else {"ivan.7z"}))
        self.assertIn("not a submission", reasons["notes.txt"])
        self.assertIn("RAR", reasons["paul.rar"])
        self.assertIn("hidden", reasons[".DS_Store"])

    def test_list_names_a_7z_archive_without_7zip_and_every_other_entry(self):
        folder = self.make_class()
        empty_path = self.path("no-tools")
        os.makedirs(empty_path)
        listed = subprocess.run(GRADER + [folder, "--class", "--list"], capture_output=True, text=True,
                                env=dict(os.environ, PATH=empty_path))
        self.assertEqual(listed.returncode, 0, listed.stderr)
        students = [line.split("\t")[1] for line in listed.stdout.splitlines()]
        self.assertEqual(students, ["alice", "bob", "carl", "kim", "olga"])   # stdout: index, student, path
        self.assertIn("4 entries of", listed.stderr)
        self.assertIn("not graded: ivan.7z: a 7z archive, and no 7-Zip command is installed here: install 7zip",
                      listed.stderr)
        self.assertIn("not graded: notes.txt: a file, not a submission", listed.stderr)
        self.assertIn("not graded: paul.rar: a RAR archive", listed.stderr)

    def test_a_class_of_stray_files_only_says_what_it_holds(self):
        write(self.path("class", "notes.txt"), "x")
        with self.assertRaises(submissions.SubmissionError) as refused:
            submissions.list_class(self.path("class"))
        self.assertIn("no submissions in it", str(refused.exception))
        self.assertIn("notes.txt", str(refused.exception))


class Archives(Scratch):
    def staged(self):
        work = self.path("work")
        hand_in(work, f"exercises/{EXERCISE}/{FILE}")
        return work

    def test_tar_xz_and_tar_bz2_unpack(self):
        work = self.staged()
        for name, mode in (("kim.tar.xz", "w:xz"), ("bob.tar.bz2", "w:bz2")):
            with self.subTest(name):
                with tarfile.open(self.path(name), mode) as tar:
                    tar.add(work, arcname="copy")
                target, warnings = self.unpack(self.path(name))
                self.assertEqual(read(os.path.join(target, "copy", "exercises", EXERCISE, FILE)), read(SOLUTION))
                self.assertEqual(warnings, [])

    def test_tar_xz_keeps_the_zip_guarantees(self):
        with tarfile.open(self.path("evil.tar.xz"), "w:xz") as tar:
            for name in ("../escaped-PWNED.txt", "/tmp/absolute-PWNED.txt", "ok.txt"):
                info = tarfile.TarInfo(name)
                info.size = 3
                tar.addfile(info, io.BytesIO(b"bad"))
            link = tarfile.TarInfo("passwd")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(link)
        target, _ = self.unpack(self.path("evil.tar.xz"))
        self.assertEqual(submissions.all_files(target), ["ok.txt"])
        self.assertFalse(os.path.exists(self.path("escaped-PWNED.txt")))
        with tarfile.open(self.path("big.tar.bz2"), "w:bz2") as tar:
            info = tarfile.TarInfo("big.bin")
            info.size = 4096
            tar.addfile(info, io.BytesIO(b"\0" * 4096))
        cap = submissions.MAX_UNPACKED_BYTES
        submissions.MAX_UNPACKED_BYTES = 1024
        try:
            with self.assertRaises(submissions.SubmissionError) as refused:
                self.unpack(self.path("big.tar.bz2"))
        finally:
            submissions.MAX_UNPACKED_BYTES = cap
        self.assertIn("big.tar.bz2: unpacks to more than", str(refused.exception))

    def test_a_broken_tar_xz_is_named(self):
        write(self.path("dan.tar.xz"), b"\xfd7zXZ\0 not really")
        with self.assertRaises(submissions.SubmissionError) as refused:
            self.unpack(self.path("dan.tar.xz"))
        self.assertIn("dan.tar.xz: not a readable archive", str(refused.exception))

    @unittest.skipUnless(SEVEN_ZIP, "no 7-Zip command here (Debian: apt-get install 7zip)")
    def test_7z_unpacks_and_refuses_links_and_oversize(self):
        work = self.staged()
        seven_zip(work, self.path("ivan.7z"))
        target, warnings = self.unpack(self.path("ivan.7z"))
        self.assertEqual(read(os.path.join(target, "exercises", EXERCISE, FILE)), read(SOLUTION))
        self.assertEqual(warnings, [])
        os.symlink("/etc/passwd", os.path.join(work, "passwd"))
        seven_zip(work, self.path("linked.7z"))
        with self.assertRaises(submissions.SubmissionError) as refused:
            self.unpack(self.path("linked.7z"))
        self.assertIn("linked.7z: holds a symbolic link", str(refused.exception))
        self.assertFalse(os.path.exists(self.path("unpacked-linked.7z", "passwd")))
        cap = submissions.MAX_UNPACKED_BYTES
        submissions.MAX_UNPACKED_BYTES = 100
        try:
            with self.assertRaises(submissions.SubmissionError) as refused:
                self.unpack(self.path("ivan.7z"))
        finally:
            submissions.MAX_UNPACKED_BYTES = cap
        self.assertIn("unpacks to more than", str(refused.exception))
        write(self.path("broken.7z"), b"7z\xbc\xaf\x27\x1c broken")
        with self.assertRaises(submissions.SubmissionError) as refused:
            self.unpack(self.path("broken.7z"))
        self.assertIn("broken.7z: not a readable archive", str(refused.exception))

    def test_a_folder_holding_one_zip_is_unpacked_with_a_warning(self):
        with zipfile.ZipFile(self.path("submission.zip"), "w") as bundle:
            bundle.write(SOLUTION, f"exercises/{EXERCISE}/{FILE}")
        os.makedirs(self.path("olga", "__MACOSX"))
        shutil.copyfile(self.path("submission.zip"), self.path("olga", "submission.zip"))
        target, warnings = self.unpack(self.path("olga"))
        self.assertEqual(submissions.all_files(target), [f"exercises/{EXERCISE}/{FILE}"])
        self.assertEqual(len(warnings), 1)
        self.assertIsInstance(warnings[0], submissions.GradeWarning)
        self.assertIn("olga holds nothing but the archive submission.zip: graded what that archive holds",
                      warnings[0])
        # The same inside an archive: a tar.gz that holds one zip.
        with tarfile.open(self.path("pia.tar.gz"), "w:gz") as tar:
            tar.add(self.path("submission.zip"), arcname="submission.zip")
        target, warnings = self.unpack(self.path("pia.tar.gz"))
        self.assertEqual(submissions.all_files(target), [f"exercises/{EXERCISE}/{FILE}"])
        self.assertIn("pia.tar.gz holds nothing but the archive submission.zip", warnings[0])


class GitRepositories(Scratch):
    def clone(self, name="gita"):
        folder = self.path(name)
        hand_in(folder, source=SKELETON)
        write(os.path.join(folder, "README.md"), "mine\n")
        git(folder, "init", "-q")
        git(folder, "add", "-A")
        git(folder, "commit", "-q", "-m", "start")
        return folder

    def test_the_working_tree_is_graded_and_a_difference_named(self):
        folder = self.clone()
        hand_in(folder)                                       # the solution, not committed
        hand_in(folder, "04_cpu_vs_gpu/cpu_vs_gpu.cu")        # an untracked exercise file
        target, warnings = self.unpack(folder, student_files=[FILE, "cpu_vs_gpu.cu"])
        self.assertEqual(read(os.path.join(target, "exercises", EXERCISE, FILE)), read(SOLUTION))
        self.assertFalse(os.path.exists(os.path.join(target, ".git")))
        self.assertEqual(len(warnings), 1)
        self.assertIsInstance(warnings[0], submissions.GradeWarning)
        self.assertIn("gita: graded its git working tree (what the student sees), not its last commit (HEAD)",
                      warnings[0])
        self.assertIn(f"exercises/{EXERCISE}/{FILE}: changed since the last commit", warnings[0])
        self.assertIn("04_cpu_vs_gpu/cpu_vs_gpu.cu: not committed (a new or untracked file)", warnings[0])
        self.assertIn("Commit your work before handing it in", warnings[0])

    def test_git_head_grades_the_last_commit_and_says_what_was_left(self):
        folder = self.clone()
        hand_in(folder)
        target, warnings = self.unpack(folder, git_head=True, student_files=[FILE])
        self.assertEqual(read(os.path.join(target, "exercises", EXERCISE, FILE)), read(SKELETON))
        self.assertIn("gita: graded its last git commit (HEAD), not its working tree", warnings[0])
        self.assertIn("the uncommitted work was not graded", warnings[0])

    def test_a_clean_clone_and_other_files_give_no_warning(self):
        folder = self.clone()
        write(os.path.join(folder, "README.md"), "changed, not an exercise file\n")
        for head in (False, True):
            target, warnings = self.unpack(folder, git_head=head, student_files=[FILE])
            self.assertEqual(warnings, [])
            shutil.rmtree(target)

    def test_crlf_line_ends_of_a_windows_checkout_are_no_difference(self):
        folder = self.clone()
        path = os.path.join(folder, "exercises", EXERCISE, FILE)
        write(path, read(path).replace(b"\n", b"\r\n"))
        _, warnings = self.unpack(folder, student_files=[FILE])
        self.assertEqual(warnings, [])

    def test_a_repository_without_a_commit(self):
        folder = self.path("new")
        hand_in(folder)
        git(folder, "init", "-q")
        target, warnings = self.unpack(folder, student_files=[FILE])
        self.assertEqual(read(os.path.join(target, "exercises", EXERCISE, FILE)), read(SOLUTION))
        self.assertIn("the repository has no commit", warnings[0])
        with self.assertRaises(submissions.SubmissionError) as refused:
            submissions.unpack(folder, self.path("head"), git_head=True, student_files=[FILE])
        self.assertIn("without any commit", str(refused.exception))

    def test_nothing_the_repository_configures_is_run(self):
        folder = self.clone()
        marker = self.path("RAN-PWNED")
        script = self.path("run.sh")
        write(script, f"#!/bin/sh\ntouch {marker}\ncat\n")
        os.chmod(script, 0o755)
        write(os.path.join(folder, ".gitattributes"), "*.cu filter=evil\n")
        git(folder, "add", ".gitattributes")
        git(folder, "commit", "-q", "-m", "attributes")
        # Set last: git's own add and commit would run them.
        git(folder, "config", "core.fsmonitor", script)
        git(folder, "config", "filter.evil.smudge", script)
        git(folder, "config", "filter.evil.clean", script)
        hand_in(folder)
        for head in (False, True):
            target, warnings = self.unpack(folder, git_head=head, student_files=[FILE])
            self.assertFalse(os.path.exists(marker), "a command of the repository's configuration ran")
            self.assertTrue(warnings)
            shutil.rmtree(target)

    def test_a_dot_git_file_pointing_elsewhere_is_no_repository(self):
        folder = self.path("linked")
        hand_in(folder)
        write(os.path.join(folder, ".git"), f"gitdir: {os.path.join(ROOT, '.git')}\n")
        target, warnings = self.unpack(folder, git_head=True, student_files=[FILE])
        self.assertEqual(read(os.path.join(target, "exercises", EXERCISE, FILE)), read(SOLUTION))
        self.assertEqual(warnings, [])


class BackupCopies(Scratch):
    def locate(self, folder):
        return submissions.locate(folder, submissions.all_files(folder), EXERCISE, FILE,
                                  skeleton_digest=submissions.digest(SKELETON))

    def test_work_only_in_a_backup_copy_is_graded_with_a_warning(self):
        folder = self.path("bert")
        hand_in(folder, source=SKELETON)
        hand_in(folder, f"exercises/{EXERCISE}.bak/{FILE}")
        chosen, warnings = self.locate(folder)
        self.assertEqual(chosen, f"exercises/{EXERCISE}.bak/{FILE}")
        self.assertEqual(len(warnings), 1)
        self.assertIsInstance(warnings[0], submissions.GradeWarning)
        self.assertIn(f"exercises/{EXERCISE}/{FILE} is the course's skeleton, untouched: graded the edited copy "
                      f"exercises/{EXERCISE}.bak/{FILE} instead", warnings[0])

    def test_a_file_from_an_unexpected_place_is_named(self):
        folder = self.path("cleo")
        hand_in(folder, "old/stuff/device_memory.cu")
        hand_in(folder, "README.md", source=os.path.join(ROOT, "README.md"))
        chosen, warnings = self.locate(folder)
        self.assertEqual(chosen, "old/stuff/device_memory.cu")
        self.assertIsInstance(warnings[0], submissions.GradeWarning)
        self.assertIn("not where the exercise's files go", warnings[0])

    def test_usual_places_give_no_warning(self):
        for relative in (f"exercises/{EXERCISE}/{FILE}", f"{EXERCISE}/{FILE}", FILE, f"wrapper/{FILE}",
                         f"handin/{EXERCISE}/{FILE}", f"course/exercises/{EXERCISE}/{FILE}"):
            with self.subTest(relative):
                folder = self.path(relative.replace("/", "_"))
                hand_in(folder, relative)
                self.assertEqual(self.locate(folder), (relative, []))


class ReleaseCopies(Scratch):
    """A copy of the students' release is compared with what the release ships."""

    @classmethod
    def setUpClass(cls):
        cls.release_scratch = tempfile.mkdtemp(prefix="test-intake-release-")
        cls.release = os.path.join(cls.release_scratch, "release")
        made = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "release", cls.release],
                              capture_output=True, text=True)
        if made.returncode != 0:
            raise AssertionError("tools/course release failed:\n" + made.stdout + made.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.release_scratch, ignore_errors=True)

    def changes(self, folder):
        config = engine.Config(root=ROOT, results=self.path("results"), seed=1, exercises=[], arch="sm_75")
        student_paths = {f"exercises/{EXERCISE}/{FILE}"}
        grader = engine.SubmissionGrader(config, None, engine.course_files(ROOT), student_paths)
        return grader.ignored_changes(folder, submissions.all_files(folder))

    def test_an_untouched_release_gets_no_warning(self):
        copy = self.path("rel")
        shutil.copytree(self.release, copy)
        hand_in(copy)
        self.assertEqual(self.changes(copy), [])

    def test_a_release_with_one_changed_course_file_gets_one_warning(self):
        copy = self.path("relx")
        shutil.copytree(self.release, copy)
        hand_in(copy)
        with open(os.path.join(copy, "Makefile"), "a", encoding="utf-8") as handle:
            handle.write("\n# my own rule\n")
        changes = self.changes(copy)
        self.assertEqual(len(changes), 1, changes)
        self.assertIn("Makefile: differs from the course's Makefile: ignored", changes[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
