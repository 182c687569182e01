"""The tools' package keeps its shape (tools/course_tools/, one command: tools/course):

  - no file under tools/ changes Python's import path (sys.path): the launcher's folder is
    on it already, and a module finds another by its name in the package;
  - the package's modules import each other without a cycle, imports inside functions
    included (an import made late to dodge a cycle hides it, it does not remove it);
  - student/, which the students' copy ships alone, imports nothing outside itself;
  - every subcommand names a module and a function that exist;
  - the tools a students' copy ships (the release's SHIPPED) run there alone: a subcommand
    of a part it lacks says so, and help lists only what it has.

The rules are proved first on a small package written for the purpose.

    python3 tests/tools/test_tools_package.py
"""
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOLS = os.path.join(ROOT, "tools")
PACKAGE = "course_tools"


def python_files(tools):
    """Every Python file under `tools`: the .py files, and the scripts without a suffix whose
    first line runs Python (the launcher)."""
    found = []
    for base, folders, names in os.walk(tools):
        folders[:] = sorted(f for f in folders if f not in ("node_modules", "__pycache__"))
        for name in sorted(names):
            path = os.path.join(base, name)
            if name.endswith(".py"):
                found.append(path)
            elif "." not in name:
                with open(path, "rb") as handle:
                    first = handle.readline()
                if first.startswith(b"#!") and b"python" in first:
                    found.append(path)
    return found


def path_changes(path):
    """The lines of `path` that touch sys.path (or site.addsitedir), as 'file:line'."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                (node.value.id == "sys" and node.attr == "path")
                or (node.value.id == "site" and node.attr == "addsitedir")):
            lines.append(f"{os.path.relpath(path, os.path.dirname(os.path.dirname(path)))}:{node.lineno}")
    return lines


def shell_path_changes(tools):
    """Python run inline by a shell script (python3 -c '...') that edits sys.path."""
    found = []
    for base, folders, names in os.walk(tools):
        folders[:] = [f for f in folders if f not in ("node_modules", "__pycache__")]
        for name in names:
            if name.endswith(".sh"):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if "sys.path" in line:
                            found.append(f"{path}:{number}")
    return found


def modules(tools, package):
    """{dotted module name: its file} for every module of the package under `tools`."""
    found = {}
    for base, folders, names in os.walk(os.path.join(tools, package)):
        folders[:] = [f for f in folders if f != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                relative = os.path.relpath(os.path.join(base, name), tools)[:-3].split(os.sep)
                if relative[-1] == "__init__":
                    relative = relative[:-1]
                found[".".join(relative)] = os.path.join(base, name)
    return found


def imports(name, path, known):
    """The package's modules that module `name` imports, anywhere in it (functions too)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    is_package = path.endswith("__init__.py")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")[:len(name.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(parts + ([base] if base else []))
            # `from a.b import c`: the module a.b.c where there is one, else a.b itself.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # `import a.b.c` imports a and a.b too; only the package's modules count.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(tools, package):
    known = modules(tools, package)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges):
    """The import cycles of `edges` (strongly connected components of more than one module,
    or a module importing itself), each as a sorted list; Tarjan's algorithm."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def outside_imports(edges, part):
    """Imports from `part` (a sub-package) of the package's modules outside it."""
    return sorted(f"{name} imports {target}" for name, targets in edges.items()
                  if name == part or name.startswith(part + ".")
                  for target in targets
                  if not (target == part or target.startswith(part + ".")))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


class TheRulesCatchWhatTheyShould(unittest.TestCase):
    def setUp(self):
        self.tools = tempfile.mkdtemp(prefix="tools-package-test-")
        self.addCleanup(shutil.rmtree, self.tools)
        write(os.path.join(self.tools, "course"), "#!/usr/bin/env python3\nimport sys\n"
              "sys.path.insert(0, 'x')\nfrom pkg import cli\n")
        write(os.path.join(self.tools, "pkg", "__init__.py"), "")
        write(os.path.join(self.tools, "pkg", "cli.py"), "import importlib\n")
        write(os.path.join(self.tools, "pkg", "student", "__init__.py"), "")
        write(os.path.join(self.tools, "pkg", "student", "a.py"), "from pkg.student import b\n")
        # b imports c late, inside a function, and c imports b: a cycle all the same.
        write(os.path.join(self.tools, "pkg", "student", "b.py"), "def f():\n    from pkg.other import c\n")
        write(os.path.join(self.tools, "pkg", "other", "__init__.py"), "")
        write(os.path.join(self.tools, "pkg", "other", "c.py"), "from ..student import b\nimport os\n")
        write(os.path.join(self.tools, "run.sh"), "python3 -c 'import sys; sys.path.insert(0, \"x\")'\n")

    def test_a_path_change_is_found(self):
        changed = [line for path in python_files(self.tools) for line in path_changes(path)]
        self.assertEqual(len(changed), 1, changed)
        self.assertTrue(changed[0].endswith("course:3"), changed)
        self.assertEqual(len(shell_path_changes(self.tools)), 1)

    def test_a_cycle_through_a_late_import_is_found(self):
        edges = graph(self.tools, "pkg")
        self.assertEqual(edges["pkg.other.c"], {"pkg.student.b"})
        self.assertEqual(cycles(edges), [["pkg.other.c", "pkg.student.b"]])

    def test_an_import_out_of_the_shipped_part_is_found(self):
        self.assertEqual(outside_imports(graph(self.tools, "pkg"), "pkg.student"),
                         ["pkg.student.b imports pkg.other.c"])


class TheCourseTools(unittest.TestCase):
    def test_no_file_changes_the_import_path(self):
        changed = [line for path in python_files(TOOLS) for line in path_changes(path)]
        self.assertEqual(changed + shell_path_changes(TOOLS), [],
                         "a module finds another by its name in course_tools, never through sys.path")

    def test_the_launcher_is_checked_too(self):
        self.assertIn(os.path.join(TOOLS, "course"), python_files(TOOLS))

    def test_no_import_cycle(self):
        self.assertEqual(cycles(graph(TOOLS, PACKAGE)), [],
                         "move what both modules need into a third one, or into the one imported")

    def test_the_student_part_stands_alone(self):
        self.assertEqual(outside_imports(graph(TOOLS, PACKAGE), f"{PACKAGE}.student"), [],
                         "the students' copy ships course_tools/student/ alone")

    def test_every_subcommand_exists(self):
        sys.path.insert(0, TOOLS)
        try:
            from course_tools import cli
            known = modules(TOOLS, PACKAGE)
            for command in cli.COMMANDS:
                self.assertIn(command.module, known, command.name)
                with open(known[command.module], encoding="utf-8") as handle:
                    tree = ast.parse(handle.read())
                functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
                self.assertIn(command.function, functions, command.name)
        finally:
            sys.path.remove(TOOLS)

    def test_the_students_copy_runs_its_tools_alone(self):
        sys.path.insert(0, TOOLS)
        try:
            from course_tools.release import write as release
            files = [p for p in release.course_files(ROOT) if p.startswith("tools/") and release.shipped(p)]
        finally:
            sys.path.remove(TOOLS)
        copy = tempfile.mkdtemp(prefix="tools-package-students-")
        self.addCleanup(shutil.rmtree, copy)
        for path in files:
            os.makedirs(os.path.join(copy, os.path.dirname(path)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, path), os.path.join(copy, path))
        self.assertIn("tools/course_tools/student/commands.py", files)
        self.assertFalse([p for p in files if p.startswith("tools/course_tools/grading/")])
        launcher = [sys.executable, os.path.join(copy, "tools", "course")]
        done = subprocess.run(launcher + ["grade", "--help"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn("tools/course grade: not in the students' copy", done.stderr)
        listed = subprocess.run(launcher + ["help"], capture_output=True, text=True, check=True).stdout
        self.assertIn("  check ", listed)
        self.assertNotIn("  grade ", listed)
        done = subprocess.run(launcher + ["test-summary", "/nonexistent.xml"], capture_output=True, text=True)
        self.assertIn("cannot read /nonexistent.xml", done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
