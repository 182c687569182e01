"""Where the course's folders are, defined once for every tool under tools/."""
import os

# The repository: the folder above tools/, which holds course_tools/student/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
TOOLS = os.path.join(ROOT, "tools")
# The tools' one command (tools/course SUBCOMMAND), for a tool that runs another in a
# Python of its own (one that has matplotlib, Numba or CuPy).
LAUNCHER = os.path.join(TOOLS, "course")
COMMON = os.path.join(ROOT, "common")
EXERCISES = os.path.join(ROOT, "exercises")
SOLUTIONS = os.path.join(ROOT, "solutions")
