#!/usr/bin/env python3
"""The prerequisite step of `make` (tools/course prerequisites), proved without uninstalling
anything: OpenBLAS and NumPy are hidden through the tool's test overrides, apt-get and sudo
are fakes on PATH that only write down how they were called, and the package manager's lock
is a scratch file this test locks as apt-get does (fcntl).

    python3 tests/tools/test_prerequisites.py
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = [os.path.join(ROOT, "tools", "course"), "prerequisites"]
FAKE = "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \"{calls}\"\nexit 0\n"


class Prerequisites(unittest.TestCase):
    def setUp(self):
        scratch = tempfile.TemporaryDirectory()
        self.addCleanup(scratch.cleanup)
        self.calls = os.path.join(scratch.name, "calls.txt")
        fake_bin = os.path.join(scratch.name, "bin")
        os.makedirs(fake_bin)
        for name in ("apt-get", "sudo"):
            path = os.path.join(fake_bin, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(FAKE.format(calls=self.calls))
            os.chmod(path, 0o755)
        empty = os.path.join(scratch.name, "empty")
        os.makedirs(empty)
        # The machine's own apt lock (another session's apt-get) must not hold these tests up.
        self.lock = os.path.join(scratch.name, "lock-frontend")
        open(self.lock, "w").close()
        self.environment = dict(
            os.environ,
            PATH=fake_bin + os.pathsep + os.environ.get("PATH", ""),
            COURSE_PREREQ_LIB_DIRS=empty, COURSE_PREREQ_INCLUDE_DIRS=empty,
            COURSE_PREREQ_PYTHONS=os.path.join(empty, "python3"), COURSE_PREREQ_APT_LOCKS=self.lock)
        for name in ("COURSE_NO_INSTALL", "COURSE_APT_LOCK_SECONDS"):
            self.environment.pop(name, None)

    def run_tool(self, *arguments, **environment):
        return subprocess.run([sys.executable, *TOOL] + list(arguments), capture_output=True,
                              text=True, timeout=120, env=dict(self.environment, **environment))

    def calls_made(self):
        if not os.path.exists(self.calls):
            return []
        with open(self.calls, encoding="utf-8") as handle:
            return handle.read().splitlines()

    def assert_refused(self, done, command):
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(len(lines), 1, f"one line expected on stdout, got: {done.stdout!r}")
        line = lines[0]
        self.assertTrue(line.startswith("missing prerequisites: "), line)
        self.assertIn("OpenBLAS (libopenblas-dev)", line)
        self.assertIn("NumPy (python3-numpy)", line)
        self.assertIn(command, line)
        self.assertTrue(line.endswith("then run make again"), line)
        self.assertEqual(self.calls_made(), [], "nothing may be installed")

    def test_no_sudo_not_root_refuses_with_the_command(self):
        done = self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="none")
        self.assert_refused(done, "`apt-get install -y ")
        self.assertIn("` as root, or with sudo", done.stdout)
        self.assertNotIn("`sudo", done.stdout)
        self.assertIn("libopenblas-dev", done.stdout.split("install -y", 1)[1])
        self.assertIn("python3-numpy", done.stdout.split("install -y", 1)[1])

    def test_the_report_also_needs_matplotlib_and_students_do_not(self):
        done = self.run_tool("--make", "--report", COURSE_PREREQ_PRIVILEGE="none")
        self.assert_refused(done, "`apt-get install -y ")
        self.assertIn("` as root, or with sudo", done.stdout)
        self.assertNotIn("`sudo", done.stdout)
        self.assertIn("matplotlib (python3-matplotlib)", done.stdout)
        self.assertIn("python3-matplotlib", done.stdout.split("install -y", 1)[1])
        done = self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="none")
        self.assertNotIn("matplotlib", done.stdout)

    def test_no_install_refuses_even_as_root(self):
        done = self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="root", COURSE_NO_INSTALL="1")
        self.assert_refused(done, "`apt-get install -y ")
        self.assertNotIn("sudo", done.stdout)

    def test_without_make_the_line_goes_to_stderr(self):
        done = self.run_tool(COURSE_PREREQ_PRIVILEGE="none")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
        self.assertIn("prerequisites: missing prerequisites: ", done.stderr)

    def test_root_installs_after_saying_what_and_why(self):
        # The fake apt-get installs nothing, so the tool must then say what is still missing.
        done = self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="root")
        self.assertIn("installing", done.stderr)
        self.assertIn("exercise 06", done.stderr)
        self.assertIn("exercise 08", done.stderr)
        calls = self.calls_made()
        # apt-get too waits for a lock another package manager holds (its own bounded wait).
        self.assertEqual(calls[0], "apt-get -o DPkg::Lock::Timeout=300 update -qq")
        self.assertTrue(calls[1].startswith("apt-get -o DPkg::Lock::Timeout=300 install -y"), calls)
        self.assertIn("libopenblas-dev", calls[1])
        self.assertIn("python3-numpy", calls[1])
        self.assertEqual(done.returncode, 1)
        self.assertEqual(len(done.stdout.splitlines()), 1)
        self.assertIn("missing prerequisites: ", done.stdout)

    def hold_lock(self):
        """Locks the scratch lock file as apt-get does, to the end of the test; the handle,
        to let it go earlier."""
        handle = open(self.lock, "w")
        self.addCleanup(handle.close)
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return handle

    def test_waits_for_another_package_manager_then_installs(self):
        # Issue 27: "Could not get lock /var/lib/dpkg/lock-frontend", and make gave up at once.
        # The lock is let go only once the tool says it waits (a fixed 2 s could end before
        # a slow machine even started the tool).
        handle = self.hold_lock()
        start = time.monotonic()
        tool = subprocess.Popen([sys.executable, *TOOL, "--make"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                env=dict(self.environment, COURSE_PREREQ_PRIVILEGE="root",
                                         COURSE_APT_LOCK_SECONDS="30"))
        self.addCleanup(tool.kill)
        stderr = []
        for line in tool.stderr:
            stderr.append(line)
            if "waiting" in line:
                time.sleep(1.5)  # it keeps waiting while the lock is held
                fcntl.lockf(handle, fcntl.LOCK_UN)
                break
        stderr.append(tool.stderr.read())
        stdout = tool.stdout.read()
        tool.wait(60)
        seconds = time.monotonic() - start
        done = subprocess.CompletedProcess(tool.args, tool.returncode, stdout, "".join(stderr))
        waiting = [line for line in done.stderr.splitlines() if "waiting" in line]
        self.assertEqual(len(waiting), 1, done.stderr)
        self.assertIn("waiting for another package manager", waiting[0])
        self.assertIn(f"process {os.getpid()} holds {self.lock}", waiting[0])
        self.assertIn("at most 30 s", waiting[0])
        self.assertGreaterEqual(seconds, 1.5)
        self.assertLess(seconds, 25)
        calls = self.calls_made()
        self.assertEqual(len(calls), 2, calls)
        self.assertRegex(calls[0], r"^apt-get -o DPkg::Lock::Timeout=[0-9]+ update -qq$")
        self.assertTrue(28 - seconds <= int(calls[0].split("=")[1].split()[0]) <= 30, calls)

    def test_a_lock_held_too_long_ends_in_the_one_line_refusal(self):
        self.hold_lock()
        start = time.monotonic()
        done = self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="root", COURSE_APT_LOCK_SECONDS="2")
        seconds = time.monotonic() - start
        self.assertGreaterEqual(seconds, 1.5)
        self.assertLess(seconds, 20)
        self.assertEqual(len([line for line in done.stderr.splitlines() if "waiting" in line]), 1, done.stderr)
        self.assert_refused(done, "`apt-get install -y ")
        with open("/proc/self/comm", encoding="utf-8") as handle:
            holder = handle.read().strip()  # python3, or python3.12 where that is what runs
        self.assertIn(f"once the other package manager is done ({holder}, process {os.getpid()}, "
                      f"which held {self.lock} for 2 s)", done.stdout)

    def test_make_stops_with_one_line_when_the_lock_stays_held(self):
        self.hold_lock()
        done = subprocess.run(["make", "-s", "-C", ROOT, "prerequisites"], capture_output=True,
                              text=True, timeout=120, env=dict(self.environment, COURSE_PREREQ_PRIVILEGE="root",
                                                               COURSE_APT_LOCK_SECONDS="1"))
        self.assertNotEqual(done.returncode, 0)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        # What it installs and why, that it waits, and make's $(error) line.
        self.assertEqual(len(lines), 3, done.stderr)
        self.assertIn("prerequisites: installing ", lines[0])
        self.assertIn("waiting for another package manager", lines[1])
        self.assertIn("missing prerequisites: ", lines[2])
        self.assertIn("once the other package manager is done", lines[2])
        self.assertEqual(self.calls_made(), [])

    def test_sudo_installs_without_a_password_question(self):
        self.run_tool("--make", COURSE_PREREQ_PRIVILEGE="sudo")
        calls = self.calls_made()
        self.assertTrue(calls and all(c.startswith("sudo -n ") for c in calls), calls)

    def test_make_stops_with_one_line(self):
        # What a person sees: make's $(error) line only, no second make line, no stack.
        done = subprocess.run(["make", "-s", "-C", ROOT, "prerequisites"], capture_output=True,
                              text=True, timeout=120,
                              env=dict(self.environment, COURSE_PREREQ_PRIVILEGE="none"))
        self.assertNotEqual(done.returncode, 0)
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        self.assertEqual(len(errors), 1, done.stderr)
        self.assertIn("missing prerequisites: ", errors[0])
        self.assertIn("`apt-get install -y ", errors[0])
        self.assertIn("as root, or with sudo", errors[0])
        self.assertEqual(self.calls_made(), [])

    def test_present_prerequisites_are_summarised(self):
        # Nothing hidden: on a machine that has them all (CI), one summary and "ok".
        environment = {k: v for k, v in self.environment.items() if not k.startswith("COURSE_PREREQ_")}
        done = subprocess.run([sys.executable, *TOOL, "--make"], capture_output=True, text=True,
                              timeout=120, env=dict(environment, COURSE_PREREQ_PRIVILEGE="none"))
        if done.returncode != 0:
            self.skipTest(f"this machine lacks a prerequisite: {done.stdout.strip()}")
        self.assertEqual(done.stdout, "ok\n")
        self.assertIn("prerequisites: cmake ", done.stderr)
        for line in done.stderr.splitlines()[1:]:
            self.assertRegex(line, r"^  optional: .*: not found, ")


if __name__ == "__main__":
    unittest.main()
