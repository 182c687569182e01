"""Creates a new exercise in one command, from the templates in templates/ beside this file:

    tools/course new-exercise 27 shared_memory_histogram     (make new-exercise NN=27 SLUG=...)
    tools/course new-exercise next shared_memory_histogram   the number after the last one taken
    tools/course new-exercise --dry-run next shared_memory_histogram   lists what it would write

It writes exercises/NN_SLUG/ (statement in English and French, skeleton SLUG.cu, header SLUG.hpp, CMakeLists.txt
with the course_exercise(...) call, and the course's side in harness/: workload.hpp,
demo.cu, cases.cu, check.cpp), the reference
solutions/NN_SLUG/SLUG.cu, tests/mutants/NN_SLUG/ with one known-wrong variant to copy, and
the exercise's row in the README's course map (a "planned" row of that number becomes a
link). The exercise is a small real one, a scaled copy y = factor * x: right after creation
it builds, its skeleton fails its check and its solution passes; every TODO(maintainer)
says what to replace. student.cu.in holds each TODO(student) region's steps and answer: the
skeleton keeps the steps, the solution the answer, so the two differ only there and each
instruction is written once.

NN is two digits that no exercise uses yet, or `next`: one more than the highest number an
exercise, a solution or a known-wrong variant's folder holds (so that an example written
with it in the docs runs as written, whatever exercises exist by then). SLUG names the folder, the student file and the
C++ namespace of workload.hpp: lowercase letters and digits in words joined by single
underscores, starting with a letter, at most 30 characters (so that every generated line
stays within the 100 columns of .clang-format), and neither a C++ keyword, a name that the
generated code already uses, nor the name of another exercise's student file.

The templates (templates/*.in, listed in OUTPUTS) are the generated files with @NUMBER@,
@SLUG@, @TITLE@ (the slug in words) and @PLANNED@ (the course map's planned topic) in their
places. tests/tools/test_new_exercise.py proves that what they make builds, keeps the
course's style for the shortest and longest names, and on a GPU passes (solution) and fails
(skeleton, variant) its check.

Exit status: 0 created (or listed), 2 refused, with the reason; a refusal writes nothing.
"""
import argparse
import os
import re
import sys

from course_tools.authoring.regions import CLOSE, OPEN
from course_tools.student import exercises
from course_tools.student.paths import ROOT

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
SLUG_PATTERN = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
MAX_SLUG_LENGTH = 30
PLACEHOLDER = re.compile(r"@([A-Z]+)@")
# The template of the student's file; the skeleton and the solution are derived from it
# (skeleton_of, solution_of).
SOLUTION_TEMPLATE = "student.cu.in"
SKELETON = object()

# What is written: (template, destination). Destinations name {id} (NN_SLUG) and {slug}.
OUTPUTS = (
    ("README.md.in", "exercises/{id}/README.md"),
    ("README.fr.md.in", "exercises/{id}/README.fr.md"),
    ("CMakeLists.txt.in", "exercises/{id}/CMakeLists.txt"),
    (SKELETON, "exercises/{id}/{slug}.cu"),
    ("api.hpp.in", "exercises/{id}/{slug}.hpp"),
    ("workload.hpp.in", "exercises/{id}/harness/workload.hpp"),
    ("demo.cu.in", "exercises/{id}/harness/demo.cu"),
    ("cases.cu.in", "exercises/{id}/harness/cases.cu"),
    ("check.cpp.in", "exercises/{id}/harness/check.cpp"),
    (SOLUTION_TEMPLATE, "solutions/{id}/{slug}.cu"),
    ("example_no_bounds_check.mutant.in", "tests/mutants/{id}/example_no_bounds_check.mutant"),
)
WHAT = {
    "README.md": "the statement",
    "README.fr.md": "the statement in French (course.french_parity holds it to the English one)",
    "CMakeLists.txt": "the course_exercise(...) call",
    "workload.hpp": "inputs, CPU reference and result keys, shared by program and check",
    "demo.cu": "the demo (make run-{number})",
    "cases.cu": "the cases the check asks the program for",
    "check.cpp": "the check: one case",
}

CXX_KEYWORDS = set("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid
    typename union unsigned using virtual void volatile wchar_t while xor xor_eq""".split())


class Refused(Exception):
    pass


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def title_of(slug):
    return slug.replace("_", " ")


def names_in_use():
    """{name: why} for the slugs the generated exercise cannot take: C++ keywords, the
    identifiers of the C++ templates (outside comments and strings: the namespace would
    clash with them) and the other files of the exercise's folder (demo.cu, check.cpp...)."""
    taken = {word: "a C++ keyword" for word in CXX_KEYWORDS}
    for template in sorted(os.listdir(TEMPLATES)):
        if template.endswith((".cu.in", ".hpp.in", ".cpp.in")):
            code = re.sub(r'//[^\n]*|"(\\.|[^"\\\n])*"', " ", read(os.path.join(TEMPLATES, template)))
            code = PLACEHOLDER.sub(" ", code)
            for word in re.findall(r"\b[a-z_][a-z0-9_]*\b", code):
                taken.setdefault(word, f"a name the generated code uses (tools/course_tools/authoring/templates/{template})")
    for _, destination in OUTPUTS:
        name = os.path.basename(destination)
        if destination.startswith("exercises/") and "{" not in name:
            taken.setdefault(name.split(".")[0].lower(), f"the name of another file of the exercise ({name})")
    return taken


def validate(number, slug):
    """Raises Refused with the reason when NN or SLUG cannot be used."""
    if not number or not slug:
        raise Refused("give the exercise's number and name: tools/course new-exercise next "
                      "shared_memory_histogram (make new-exercise NN=next SLUG=shared_memory_histogram)")
    if not re.fullmatch(r"[0-9]{2}", number) or number == "00":
        raise Refused(f"the number must be two digits from 01 to 99 (e.g. 05), not '{number}'")
    if not SLUG_PATTERN.match(slug):
        raise Refused(f"the name '{slug}' is not lowercase letters and digits in words joined by "
                      "single underscores, starting with a letter (e.g. shared_memory_histogram)")
    if len(slug) > MAX_SLUG_LENGTH:
        raise Refused(f"the name '{slug}' has {len(slug)} characters, more than {MAX_SLUG_LENGTH}: "
                      "the generated lines would pass the 100 columns of .clang-format")
    why = names_in_use().get(slug)
    if why:
        raise Refused(f"the name '{slug}' is {why}: it would clash in the generated code")
    # The grader finds a flat submission's files by their names (tools/course_tools/grading/submissions.py).
    try:
        present = exercises.load(ROOT)
    except exercises.ExerciseError as error:
        raise Refused(f"the exercises there cannot be read: {error}")
    for exercise in present:
        if f"{slug}.cu" in exercise.student_files:
            raise Refused(f"exercise {exercise.number} already has a student file {slug}.cu: the grader "
                          "could not tell the two apart in a submission of files side by side")
    # A folder of that number anywhere, even a leftover without its exercise, takes it.
    for parent, folders in numbered_folders().items():
        taken = sorted(e for e in folders if e.startswith(number + "_"))
        if taken:
            raise Refused(f"number {number} is taken: {parent}/{taken[0]} exists")


def numbered_folders():
    """{parent: its NN_name folders} for the folders an exercise's number lives in."""
    found = {}
    for parent in ("exercises", "solutions", os.path.join("tests", "mutants")):
        folder = os.path.join(ROOT, parent)
        found[parent] = [e for e in os.listdir(folder) if re.match(r"[0-9]{2}_", e)] if os.path.isdir(folder) else []
    return found


def next_number():
    """NN=next: one more than the highest number taken (two digits), or "100" past 99, which
    validate() refuses."""
    taken = [int(e[:2]) for folders in numbered_folders().values() for e in folders]
    return f"{max(taken, default=0) + 1:02d}"


def student_regions(template, keep_steps, keep_answer):
    """The student file's template with each TODO(student) region cut down: a region is
    the TODO(student) line, the steps (the comment lines right under it), then the answer.
    The skeleton keeps the steps, the solution the answer: each instruction is written
    once, where the student works."""
    kept, inside, steps = [], False, False
    for line in template.splitlines(keepends=True):
        if CLOSE in line:
            inside = False
        elif OPEN in line:
            inside, steps = True, True
        elif inside:
            steps = steps and line.lstrip().startswith("//")
            if not (keep_steps if steps else keep_answer):
                continue
        kept.append(line)
    return "".join(kept)


def skeleton_of(template):
    """The skeleton: each TODO(student) region emptied down to its line and its steps."""
    return student_regions(template, keep_steps=True, keep_answer=False)


def solution_of(template):
    """The solution: each TODO(student) region's line and its answer, without the steps."""
    return student_regions(template, keep_steps=False, keep_answer=True)


def render(template, values):
    """The template's text with its @NAME@ placeholders replaced."""
    def substitute(match):
        if match.group(1) not in values:
            raise ValueError(f"tools/course_tools/authoring/templates/{template}: unknown placeholder {match.group(0)}")
        return values[match.group(1)]
    return PLACEHOLDER.sub(substitute, read(os.path.join(TEMPLATES, template)))


# --- the README's course map -------------------------------------------------------------
COURSE_MAP_HEADING = "## Course map"
ROW = re.compile(r"^\| ([0-9]{2}) \| (.*) \| ([a-z ]+) \|$")


def course_map_update(readme, number, exercise_id, title):
    """(new README text, what changed, the planned topic or ""): a planned row of `number`
    becomes a link to the exercise; otherwise a row is added in order."""
    lines = readme.split("\n")
    try:
        start = lines.index(COURSE_MAP_HEADING)
    except ValueError:
        raise Refused(f"README.md has no '{COURSE_MAP_HEADING}' section to add the exercise to")
    rows = []  # (line index, number, topic, status)
    for index in range(start + 1, len(lines)):
        if lines[index].startswith("## "):
            break
        match = ROW.match(lines[index])
        if match:
            rows.append((index, match.group(1), match.group(2), match.group(3)))
    if not rows:
        raise Refused(f"README.md's '{COURSE_MAP_HEADING}' holds no table rows")
    link = f"exercises/{exercise_id}/"
    for index, row_number, topic, status in rows:
        if row_number == number:
            if status != "planned":
                raise Refused(f"README.md's course map already lists exercise {number} as {status}: "
                              f"{lines[index]}")
            lines[index] = f"| {number} | [{topic}]({link}) | available |"
            return "\n".join(lines), f"course map: planned row {number} turned into a link", topic
    after = max((r for r in rows if r[1] < number), default=None, key=lambda r: r[1])
    at = after[0] + 1 if after else rows[0][0]
    lines.insert(at, f"| {number} | [{title}]({link}) | available |")
    return "\n".join(lines), f"course map: row {number} added", ""


def plan(number, slug):
    """[(relative path, text)] of every file to write, README.md last, and what changed in it."""
    exercise_id = f"{number}_{slug}"
    readme, change, planned = course_map_update(read(os.path.join(ROOT, "README.md")), number,
                                              exercise_id, title_of(slug))
    values = {"NUMBER": number, "SLUG": slug, "TITLE": title_of(slug),
              "PLANNED": f" (the course map planned it as: {planned})" if planned else ""}
    files = []
    for template, destination in OUTPUTS:
        if template is SKELETON:
            text = skeleton_of(render(SOLUTION_TEMPLATE, values))
        elif template == SOLUTION_TEMPLATE:
            text = solution_of(render(SOLUTION_TEMPLATE, values))
        else:
            text = render(template, values)
        files.append((destination.format(id=exercise_id, slug=slug), text))
    files.append(("README.md", readme))
    return files, change


def describe(path, number, slug, change):
    name = os.path.basename(path)
    if path == "README.md":
        return change
    if path.startswith("solutions/"):
        return "the reference solution"
    if path.startswith("tests/mutants/"):
        return "a known-wrong variant to copy (missing bounds check), caught by the check"
    if name == f"{slug}.cu":
        return "the skeleton: the solution without its TODO(student) code"
    if name == f"{slug}.hpp":
        return "the fixed signatures"
    return WHAT.get(name, "").format(number=number)


def main(argv):
    parser = argparse.ArgumentParser(
        prog=argv[0], description="Create exercises/NN_SLUG with its statement, skeleton, solution, check, "
                    "driver, CMake call, a known-wrong variant and its row in the course map.")
    parser.add_argument("number", nargs="?", default="", help="two digits, e.g. 27, or next")
    parser.add_argument("slug", nargs="?", default="", help="e.g. shared_memory_histogram")
    parser.add_argument("--dry-run", action="store_true", help="list what would be written, write nothing")
    options = parser.parse_args(argv[1:])
    number, slug = options.number.strip(), options.slug.strip()
    if number == "next":
        number = next_number()
    try:
        validate(number, slug)
        files, change = plan(number, slug)
    except Refused as refusal:
        print(f"new_exercise: refused: {refusal}", file=sys.stderr)
        return 2
    exercise_id = f"{number}_{slug}"
    width = max(len(path) for path, _ in files)
    print(f"new_exercise: {'would write' if options.dry_run else 'wrote'} exercise {exercise_id}:")
    for path, text in files:
        print(f"  {path:<{width}}  {describe(path, number, slug, change)}")
        if options.dry_run:
            continue
        target = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    if options.dry_run:
        print("(dry run: nothing written)")
        return 0
    print(f"""Next:
  cmake -B build/one -DCOURSE_ONLY={number}_ && cmake --build build/one -j   build it alone
  ctest --test-dir build/one    on a GPU: the solution passes, the skeleton and the variant fail
  grep -rn 'TODO(maintainer)' exercises/{exercise_id} solutions/{exercise_id} tests/mutants/{exercise_id}
                                what to replace with the exercise's own computation, cases and text""")
    return 0
