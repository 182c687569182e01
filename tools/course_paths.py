"""Where the course's folders are, defined once for every tool under tools/."""
import os

# The repository: the folder above tools/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TOOLS = os.path.join(ROOT, "tools")
COMMON = os.path.join(ROOT, "common")
EXERCISES = os.path.join(ROOT, "exercises")
SOLUTIONS = os.path.join(ROOT, "solutions")
