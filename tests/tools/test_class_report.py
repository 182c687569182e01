#!/usr/bin/env python3
"""Tests of the class report (tools/course_tools/grading/class_report.py) on a fake class of 30
submissions (fake_class.py: odd names, a skipped and a build-failed exercise, an
unreadable archive, a submission without a result), rendered as tools/course grade
--reports-only and the Slurm collecting job render it. Its tables are read back from
class.html and checked against counts made here from the fake results; the page is
rendered again with matplotlib out of reach, where it must hold the same tables and say
that the plots are absent. No GPU, no browser (test_class_report_browser.py opens it).

    python3 tests/tools/test_class_report.py
"""
import html
import html.parser
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
import fake_class  # noqa: E402
from course_tools.authoring import statement_cases  # noqa: E402
from course_tools.grading import class_plots, class_report, reports, similarity  # noqa: E402


class Page(html.parser.HTMLParser):
    """The tables of a page by id (rows of cell texts, with each cell's links and
    class), the ids of its h2 headings in order, the tables inside a red section, and
    every img's src."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tables, self.cells, self.headings, self.images = {}, {}, [], []
        self.alert_tables, self.notes = [], []
        self.table = self.row = self.cell = None
        self.in_alert = self.in_note = False
        self.feed(text)

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag == "section" and "alert" in (attributes.get("class") or ""):
            self.in_alert = True
        elif tag == "h2":
            self.headings.append(attributes.get("id"))
        elif tag == "table":
            self.table = (attributes.get("id") or "").replace("table-", "", 1)
            self.tables[self.table], self.cells[self.table] = [], []
            if self.in_alert:
                self.alert_tables.append(self.table)
        elif tag == "tr" and self.table:
            self.row = ([], [])
        elif tag in ("td", "th") and self.row is not None:
            self.cell = {"text": "", "links": [], "class": attributes.get("class") or ""}
        elif tag == "a" and self.cell is not None:
            self.cell["links"].append(attributes.get("href"))
        elif tag == "img":
            self.images.append(attributes.get("src"))
        elif tag == "p" and "note" in (attributes.get("class") or ""):
            self.in_note = True
            self.notes.append("")

    def handle_endtag(self, tag):
        if tag == "section":
            self.in_alert = False
        elif tag in ("td", "th") and self.cell is not None:
            self.row[0].append(self.cell["text"])
            self.row[1].append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[self.table].append(self.row[0])
            self.cells[self.table].append(self.row[1])
            self.row = None
        elif tag == "table":
            self.table = None
        elif tag == "p":
            self.in_note = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.in_note:
            self.notes[-1] += data


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def render(folder, block_matplotlib=False):
    """class.html and class.md of the class in `folder`, written in a process of their
    own; with block_matplotlib, one where no Python can give matplotlib."""
    script = ("import sys; sys.path.insert(0, sys.argv[1])\n"
              + ("sys.modules['matplotlib'] = None\n" if block_matplotlib else "")
              + "from course_tools.grading import class_report, reports\n"
                "class_report.write(sys.argv[2], reports.load_results(sys.argv[2]), sys.argv[3].split(','),\n"
                "                   pythons=[] if sys.argv[4] == 'blocked' else None)\n")
    done = subprocess.run([sys.executable, "-c", script, os.path.join(ROOT, "tools"), folder,
                           ",".join(fake_class.EXERCISES), "blocked" if block_matplotlib else "free"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"the class report could not be rendered:\n{done.stdout}{done.stderr}")
    return read(os.path.join(folder, "class.html")), read(os.path.join(folder, "class.md"))


def results_by_index():
    return [fake_class.result(index, student) for index, student in enumerate(fake_class.STUDENTS)]


def rows_of(exercise_id):
    """(index, student, exercise record) of every submission with a result."""
    for index, entry in enumerate(results_by_index()):
        for record in entry["exercises"]:
            if record["id"] == exercise_id:
                yield index, entry["student"], record


def expected_cases():
    """{(exercise, case): (passed, failed, not run)} counted from the fake results."""
    counts = {}
    for exercise_id in fake_class.EXERCISES:
        for _, _, record in rows_of(exercise_id):
            if record["status"] != "graded":
                continue
            for entry in record["items"]:
                passed, failed, not_run = counts.get((exercise_id, entry["name"]), (0, 0, 0))
                if entry["passed"]:
                    passed += 1
                elif entry["output"].startswith("not run:"):
                    not_run += 1
                else:
                    failed += 1
                counts[(exercise_id, entry["name"])] = (passed, failed, not_run)
    return counts


def href_student(href):
    """The student a feedback link names."""
    assert href.startswith("feedback/") and href.endswith(".html"), href
    return urllib.parse.unquote(href[len("feedback/"):-len(".html")])


class ClassPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="test-class-report-")
        cls.plotted_dir = os.path.join(cls.scratch, "plotted")
        cls.bare_dir = os.path.join(cls.scratch, "bare")
        for folder in (cls.plotted_dir, cls.bare_dir):
            fake_class.write(folder)
        cls.html, cls.markdown = render(cls.plotted_dir)
        cls.page = Page(cls.html)
        cls.bare_html, cls.bare_markdown = render(cls.bare_dir, block_matplotlib=True)
        cls.bare = Page(cls.bare_html)
        distributions = [{"id": "03_device_memory", "max_score": 22, "scores": [1, 22]}]
        cls.matplotlib_here = bool(class_plots.draw(distributions)[0])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_every_section_in_order(self):
        self.assertEqual(self.page.headings, ["not-graded", "warnings", "exercises", "cases", "hints", "leaderboard",
                                              "speed-credit", "answers", "similar-code", "grading-time"])
        for table in ("not-graded", "exercises", "cases", "hints", "times", "slowest"):
            self.assertIn(table, self.page.tables)
        self.assertTrue(os.path.exists(os.path.join(self.plotted_dir, "class.md")))
        for title in ("## Not graded", "## Warnings", "## Exercises", "## Cases", "## Hints", "## Leaderboard",
                      "## Speed credit", "## Answers", "## Similar code", "## Grading time"):
            self.assertIn(title, self.markdown)

    def test_not_graded_comes_first_in_red_with_the_reason(self):
        self.assertEqual(self.page.alert_tables, ["not-graded"])
        rows = self.page.tables["not-graded"][1:]
        cells = self.page.cells["not-graded"][1:]
        self.assertEqual(rows[0], [fake_class.NO_RESULT, "all", "no result", fake_class.NO_RESULT_REASON])
        self.assertEqual(cells[0][0]["links"], [])                    # no feedback page to link to
        self.assertEqual(rows[1][:3], ["student28", "03, 04, 14", "unreadable"])
        self.assertIn("not a readable archive", rows[1][3])
        statuses = [row[2] for row in rows]
        order = ["no result", "unreadable", "skipped", "build failed", "missing"]
        self.assertEqual(statuses, sorted(statuses, key=order.index))
        self.assertTrue(all("bad" in row[2]["class"] for row in cells))
        skipped = {row[0] for row in rows if row[2] == "skipped"}
        self.assertEqual(skipped, {fake_class.STUDENTS[index] for index in fake_class.SKIPPED_14})
        failed = {row[0]: row for row in rows if row[2] == "build failed"}
        self.assertEqual(set(failed), {fake_class.STUDENTS[index] for index in fake_class.BUILD_FAILED_04})
        for row in failed.values():
            self.assertEqual(row[1], "04")
            self.assertIn("cpu_vs_gpu.cu(58): error: this declaration", row[3])
        missing = {row[0] for row in rows if row[2] == "missing"}
        self.assertEqual(missing, {fake_class.STUDENTS[index] for index in fake_class.MISSING_04 | fake_class.MISSING_14})

    def test_exercise_statistics(self):
        table = {row[0]: row for row in self.page.tables["exercises"][1:]}
        self.assertEqual(list(table), fake_class.EXERCISES)
        for exercise_id in fake_class.EXERCISES:
            graded = [record for _, _, record in rows_of(exercise_id) if record["status"] == "graded"]
            scores = [record["score"] for record in graded]
            full = sum(1 for record in graded if record["score"] == record["max_score"])
            row = table[exercise_id]
            self.assertEqual(row[2], str(len(graded)), exercise_id)
            self.assertEqual(row[3], reports.points(round(statistics.mean(scores), 1)), exercise_id)
            self.assertEqual(row[4], reports.points(statistics.median(scores)), exercise_id)
            self.assertEqual(row[5], str(full), exercise_id)
        self.assertEqual(table["04_cpu_vs_gpu"][6], "1 unreadable, 2 build failed, 1 missing, 1 no result")
        self.assertEqual(table["14_atomics_histogram"][6], "1 unreadable, 3 skipped, 2 missing, 1 no result")
        self.assertEqual(table["03_device_memory"][2], "28")

    def test_cases_worst_first_with_the_statement(self):
        expected = expected_cases()
        rows = self.page.tables["cases"][1:]
        self.assertEqual(len(rows), len(expected))
        rates = []
        for exercise_id, label, rate, passed, failed, not_run, description in rows:
            name = label.split(" (")[0]
            self.assertEqual((int(passed), int(failed), int(not_run)), expected[(exercise_id, name)], label)
            total = int(passed) + int(failed)
            rates.append(int(passed) / total)
            self.assertEqual(rate, f"{round(100 * int(passed) / total)}%")
            self.assertEqual("(hidden)" in label, name in fake_class.HIDDEN, label)
            if "(sanitizer)" in label:
                self.assertIn(f"compute-sanitizer {name}", description)
            else:
                statement = statement_cases.load(exercise_id).describe(name).replace("`", "")
                self.assertTrue(statement, f"{exercise_id} {name}: the statement has no description")
                self.assertEqual(description, statement)
        self.assertEqual(rates, sorted(rates), "not worst first")
        self.assertEqual(rows[0][0], "03_device_memory")
        self.assertEqual(expected[("14_atomics_histogram", "racecheck")][2], 1)   # i == 9's run was not run

    def test_hints_most_students_first_with_their_pages(self):
        rows = self.page.tables["hints"][1:]
        cells = self.page.cells["hints"][1:]
        counts = [int(row[2]) for row in rows]
        self.assertEqual(counts, sorted(counts, reverse=True))
        by_text = {row[1]: (row, cell) for row, cell in zip(rows, cells)}
        graded_03 = [index for index, _, record in rows_of("03_device_memory") if record["status"] == "graded"]
        never_written = [fake_class.STUDENTS[index] for index in graded_03 if index % 3 == 0]
        row, cell = by_text[fake_class.NEVER_WRITTEN]
        self.assertEqual(row[0], "03_device_memory")
        self.assertEqual(int(row[2]), len(never_written))
        self.assertEqual(int(row[3]), 4 * len(never_written))           # four cases print it
        self.assertEqual(sorted(href_student(href) for href in cell[5]["links"]), sorted(never_written))
        race = by_text[fake_class.RACE_HINT][0]
        self.assertEqual(race[4], "shared_skewed_one_bin (racecheck)")
        memcheck = by_text[fake_class.MEMCHECK_HINT][0]
        self.assertEqual(memcheck[4], "n_is_one (memcheck)")
        self.assertIn(fake_class.LEAK, by_text)
        self.assertIn(fake_class.TIMING, by_text)
        # The hint that only a hidden case printed (in memcheck's report): counted, not quoted.
        self.assertNotIn(fake_class.HIDDEN_ONLY_HINT, self.html + self.markdown)
        self.assertTrue(any(note.startswith("03_device_memory: 1 other hint(s)") for note in self.page.notes),
                        self.page.notes)

    def test_hints_of_a_french_grading_are_counted_too(self):
        # --feedback-lang fr: the checks print "piste\u00a0: ..."; an index line is no hint.
        output = ("    indice 3\u00a0: attendu 1, obtenu 2\n"
                  "         piste\u00a0: arrondissez le nombre de blocs au-dessus.\n"
                  "         hint: round the block count up.\n")
        self.assertEqual(class_report.HINT.findall(output),
                         ["arrondissez le nombre de blocs au-dessus.", "round the block count up."])

    def test_every_link_opens_a_feedback_page_of_the_class(self):
        names = set(fake_class.STUDENTS)
        links = [href for table in self.page.cells.values() for row in table for cell in row for href in cell["links"]]
        self.assertGreater(len(links), 40)
        for href in links:
            self.assertIn(href_student(href), names, href)
            self.assertNotIn(" ", href)
            self.assertNotIn("#", href)

    def test_the_copied_pair_is_flagged_side_by_side_and_nothing_else(self):
        if not shutil.which(similarity.SIM):
            self.skipTest(f"{similarity.SIM} is not installed ({similarity.PACKAGE}); CI installs it")
        header, *rows = self.page.tables["similar-code"]
        self.assertEqual(header, ["exercise", "student", "student", "alike"])
        self.assertEqual(len(rows), 1, rows)
        exercise, first, second, alike = rows[0]
        self.assertEqual(exercise, "14_atomics_histogram")
        self.assertEqual({first, second}, {reports.clean(name) for name in fake_class.COPIED_14})
        self.assertRegex(alike, r"^\d+% / \d+%$")
        # The two files side by side, with the student's name escaped in the titles.
        self.assertIn("<details><summary>14_atomics_histogram: ", self.html)
        self.assertIn(html.escape(reports.clean(fake_class.COPIED_14[0])), self.html)
        self.assertNotIn(fake_class.COPIED_14[0], self.html)
        self.assertIn("histogram_shared", self.html.split('id="similar-code"', 1)[1])
        # 03's own code is two lines: too short to compare, and the page says so.
        self.assertIn("Not compared, the students&#x27; own code being too short", self.html)
        self.assertIn("03 (", self.html.split("Not compared", 1)[1].split("</p>", 1)[0])

    def test_the_leaderboard_best_first_with_the_bar_and_the_gpu(self):
        graded = [(index, student) for index, student, record in rows_of("14_atomics_histogram")
                  if any(entry.get("speed") for entry in record.get("items", []))]
        expected = sorted(graded, key=lambda pair: (-fake_class.speed_up(pair[0]), pair[1]))
        header, *rows = self.page.tables["leaderboard-14_atomics_histogram-shared_lab_128x64"]
        self.assertEqual(header, ["rank", "student", "figure", "passed"])
        self.assertEqual([row[1] for row in rows], [reports.clean(student) for _, student in expected])
        self.assertEqual([row[0] for row in rows], [str(rank) for rank in range(1, len(expected) + 1)])
        self.assertEqual([row[3] for row in rows],
                         ["yes" if fake_class.speed_up(index) >= fake_class.SPEED_BAR else "no" for index, _ in expected])
        self.assertIn(f"Bar &gt;= 2; reference 241-283 on H100; measured on {fake_class.SPEED_GPU}.", self.html)

    def test_the_projected_leaderboard_names_no_one(self):
        page = read(os.path.join(self.plotted_dir, class_report.LEADERBOARD_FILE))
        for student in fake_class.STUDENTS:
            if len(student) > 3:
                self.assertNotIn(html.escape(student), page)
        table = Page(page).tables["leaderboard-14_atomics_histogram-shared_lab_128x64"]
        ids = [row[1] for row in table[1:]]
        best = max((index for index, _, record in rows_of("14_atomics_histogram")
                    if any(entry.get("speed") for entry in record.get("items", []))), key=fake_class.speed_up)
        self.assertEqual(ids[0], reports.leaderboard_id(fake_class.STUDENTS[best], fake_class.SEED))
        found = reports.submissions(reports.load_results(self.plotted_dir), fake_class.EXERCISES)
        student = next(sub for sub in found if sub.student == fake_class.STUDENTS[best])
        self.assertIn(f"class leaderboard of the timed cases: {ids[0]}.",
                      reports.render_markdown(reports.feedback_blocks(student)))

    def test_a_bar_at_most_ranks_the_smallest_first(self):
        data = class_report.gather(results_by_index(), fake_class.EXERCISES)
        for submission in data.found:
            for row in submission.rows:
                for entry in row.get("items", []):
                    for speed in entry.get("speed", []):
                        speed["direction"] = "at_most"
        (_, _, _, direction, _, _, _, rows), = class_report.speed_boards(data)
        self.assertEqual(direction, "at_most")
        self.assertEqual([measured for _, measured, _ in rows], sorted(measured for _, measured, _ in rows))

    def test_the_speed_credit_beside_the_grade_or_off(self):
        said = class_report.credit_blocks(class_report.gather(results_by_index(), fake_class.EXERCISES))
        self.assertEqual([kind for kind, *_ in said], ["para"])
        self.assertTrue(said[0][1].startswith("Off: tools/course grade --speed-credit POINTS"))
        credited = results_by_index()
        for index, entry in enumerate(credited[:3]):
            entry["speed_credit"] = {"points_per_bar": 4, "score": 1.5 * index, "max_score": 8,
                                     "note": "" if index else "speed credit needs make calibrate on this GPU"}
        data = class_report.gather(credited, fake_class.EXERCISES)
        page = Page(class_report.render_html(class_report.credit_blocks(data)))
        header, *rows = page.tables["speed-credit"]
        self.assertEqual(header, ["student", "grade", "speed credit", "of at most"])
        found = {submission.student: submission for submission in data.found}
        for row, entry in zip(rows, sorted(credited[:3], key=lambda entry: entry["student"])):
            submission = found[entry["student"]]
            grade = f"{reports.points(submission.score)} / {reports.points(submission.max_score)}"
            credit = reports.points(entry["speed_credit"]["score"]) if submission.complete else "-"
            self.assertEqual(row, [reports.clean(entry["student"]), grade, credit, "8"])
        self.assertEqual(page.notes, ["No credit for some submissions: speed credit needs make calibrate on this GPU."])

    def test_the_answers_question_by_question_escaped(self):
        header, *rows = self.page.tables["answers"]
        self.assertEqual(rows, [["03_device_memory", "2", "1", "5"]])
        self.assertIn("<summary>03_device_memory, question 1: 1 answer(s)</summary>", self.html)
        self.assertIn(html.escape(fake_class.ANSWER_WITH_HTML), self.html)
        self.assertNotIn(fake_class.ANSWER_WITH_HTML, self.html)
        found = reports.submissions(reports.load_results(self.plotted_dir), fake_class.EXERCISES)
        student = next(sub for sub in found if sub.student == fake_class.ANSWERED_03[0])
        feedback = reports.render_html(reports.feedback_blocks(student))
        self.assertIn("Your answers (exercises/03_device_memory/answers.md): 2 of 5 questions answered", feedback)
        self.assertIn(html.escape(fake_class.ANSWER_WITH_HTML), feedback)

    def test_without_similarity_tester_the_page_says_what_to_install(self):
        blocks = class_report.similar_blocks(similarity.Outcome(missing_tool="sim_c is not installed (Debian and "
                                                                "Ubuntu: apt-get install similarity-tester)"))
        self.assertEqual(blocks, [("note", "sim_c is not installed (Debian and Ubuntu: apt-get install "
                                           "similarity-tester).")])

    def test_not_graded_lists_only_the_exercises_the_grading_asked_for(self):
        # The results hold 03, 04 and 14; a grading configured for 03 alone names no 04 or 14.
        data = class_report.gather(results_by_index(), ["03_device_memory"])
        listed = {numbers for _, _, numbers, _, _ in data.not_graded}
        self.assertEqual(listed, {"-", "03", "all"} & listed)
        self.assertTrue(listed, "the unreadable submission at least")
        self.assertEqual(data.columns, ["03_device_memory"])

    def test_times_and_slowest(self):
        table = {row[0]: row for row in self.page.tables["times"][1:]}
        self.assertEqual(table["04_cpu_vs_gpu"][4:6], ["42.0 s", "student11"])
        slowest = self.page.tables["slowest"][1:]
        self.assertEqual(len(slowest), class_report.SLOWEST)
        self.assertEqual(slowest[0][:3], ["student11", "44.5 s", "04_cpu_vs_gpu (42.0 s)"])
        totals = [float(row[1].split()[0]) for row in slowest]
        self.assertEqual(totals, sorted(totals, reverse=True))

    def test_names_and_outputs_are_escaped(self):
        self.assertNotIn("<img src=x", self.html)
        self.assertIn("&lt;img src=x onerror=alert(1)&gt;", self.html)
        self.assertNotIn("<b>bold", self.html)
        self.assertIn("o&#x27;neil, &lt;b&gt;bold&lt;i&gt; &amp; &quot;q&quot;", self.html)
        self.assertIn("\\<img src=x onerror=alert(1)\\>", self.markdown)
        self.assertNotIn("<script", self.html.lower())

    def test_no_seed_and_no_hidden_input(self):
        for text in (self.html, self.markdown, self.bare_html, self.bare_markdown):
            self.assertNotIn(str(fake_class.SEED), text)
            self.assertNotIn(fake_class.SECRET_TEXT, text)
            self.assertNotIn("4242421", text)

    def test_plots_where_matplotlib_is(self):
        if not self.matplotlib_here:
            self.skipTest("no Python here imports matplotlib: the plotted page cannot be checked")
        self.assertEqual(len(self.page.images), 3)
        for source in self.page.images:
            self.assertTrue(source.startswith("data:image/svg+xml;base64,"))   # one self-contained file
        self.assertNotIn("Plots absent", self.html)
        for student in fake_class.STUDENTS:                                   # no name in a plot
            self.assertNotIn(student.encode("utf-8"), b"".join(
                __import__("base64").b64decode(source.split(",", 1)[1]) for source in self.page.images))

    def test_a_plot_that_fails_is_a_reason_not_an_exception(self):
        plots, why = class_plots.draw([{"id": "03_device_memory", "max_score": 22, "scores": [None, "x"]}])
        self.assertEqual(plots, {})
        self.assertTrue(why)

    def test_without_matplotlib_the_tables_alone_and_said_so(self):
        self.assertEqual(self.bare.images, [])
        self.assertTrue(any(note.startswith("Plots absent: matplotlib is not installed") for note in self.bare.notes),
                        self.bare.notes)
        self.assertEqual(self.bare.tables, self.page.tables)


class Wiring(unittest.TestCase):
    """grade.py --reports-only and the Slurm collecting job write the page; an empty or
    broken results folder gets a message, never a traceback."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-class-report-wiring-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def grade(self, *arguments):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "grade", *arguments],
                              capture_output=True, text=True)

    def test_reports_only_writes_the_class_report(self):
        fake_class.write(self.scratch)
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(os.path.join(self.scratch, "class.html"), done.stdout)
        page = Page(read(os.path.join(self.scratch, "class.html")))
        self.assertEqual(page.tables["not-graded"][1][0], fake_class.NO_RESULT)   # from not_graded.txt
        self.assertTrue(os.path.exists(os.path.join(self.scratch, "class.md")))
        self.assertTrue(os.path.exists(os.path.join(self.scratch, "gradebook.csv")))

    def test_a_student_graded_since_not_graded_txt_is_not_listed(self):
        fake_class.write(self.scratch)
        with open(os.path.join(self.scratch, "not_graded.txt"), "w", encoding="utf-8") as handle:
            handle.write("student11\tstopped by its time limit\n")
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = Page(read(os.path.join(self.scratch, "class.html")))
        self.assertNotIn("student11", [row[0] for row in page.tables["not-graded"]])

    def test_the_collecting_job_lists_the_class_without_results(self):
        fake_class.write(self.scratch)
        os.remove(os.path.join(self.scratch, "not_graded.txt"))
        os.makedirs(os.path.join(self.scratch, "slurm"))
        os.makedirs(os.path.join(self.scratch, "incomplete"))
        with open(os.path.join(self.scratch, "slurm", "class.tsv"), "w", encoding="utf-8") as handle:
            for index, student in enumerate(fake_class.STUDENTS + [fake_class.NO_RESULT]):
                handle.write(f"{index}\t{student}\t/class/{student}\n")
        with open(os.path.join(self.scratch, "incomplete", "zoe.txt"), "w", encoding="utf-8") as handle:
            handle.write("zoe: NOT GRADED: the task was stopped by SIGTERM\n")
        done = subprocess.run([sys.executable, os.path.join(ROOT, "slurm", "class_grading.py"), "collect",
                               self.scratch], capture_output=True, text=True)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)    # zoe is not graded
        self.assertIn(f"== class report: {os.path.join(self.scratch, 'class.html')}", done.stdout)
        page = Page(read(os.path.join(self.scratch, "class.html")))
        first = page.tables["not-graded"][1]
        self.assertEqual(first[:3], ["zoe", "all", "no result"])
        self.assertIn("stopped by SIGTERM", first[3])
        self.assertIn("incomplete/zoe.txt", first[3])

    def test_left_out_entries_and_grade_warnings_are_listed(self):
        fake_class.write(self.scratch)
        class_report.write_left_out(self.scratch, [("notes.txt", "a file, not a submission"),
                                                   ("ivan.7z", "a 7z archive, and no 7-Zip command is installed")])
        path = os.path.join(self.scratch, "submissions", "student11.json")
        with open(path, encoding="utf-8") as handle:
            result = json.load(handle)
        warning = "alice: graded the edited copy exercises/03_device_memory.bak/device_memory.cu <b>instead</b>"
        result["warnings"] = result.get("warnings", []) + [warning]
        result["grade_warnings"] = [warning]
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(result, handle)
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = Page(read(os.path.join(self.scratch, "class.html")))
        rows = page.tables["not-graded"][1:]
        self.assertEqual(rows[0][:3], ["ivan.7z", "-", "not graded"])
        self.assertIn("no 7-Zip", rows[0][3])
        self.assertEqual(rows[1][:3], ["notes.txt", "-", "not graded"])
        self.assertEqual(page.tables["grade-warnings"][1:], [["student11", warning]])
        self.assertIn("grade-warnings", page.alert_tables)
        self.assertIn("2 other entries of the class folder not graded", read(os.path.join(self.scratch, "class.html")))
        markdown = read(os.path.join(self.scratch, "class.md"))
        self.assertIn("ivan.7z", markdown)
        self.assertIn("03_device_memory.bak", markdown)

    def test_no_submissions_folder_is_a_message(self):
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertEqual(done.returncode, 1)
        self.assertIn("grade.py: the reports were not written: cannot read", done.stderr)
        self.assertNotIn("Traceback", done.stderr)

    def test_an_empty_class_gets_a_page_that_says_so(self):
        os.makedirs(os.path.join(self.scratch, "submissions"))
        done = self.grade("--reports-only", "--results", self.scratch, "--exercises", "03")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("No submission has a result yet", read(os.path.join(self.scratch, "class.html")))

    def test_a_malformed_result_is_a_message_naming_it(self):
        fake_class.write(self.scratch)
        path = os.path.join(self.scratch, "submissions", "student11.json")
        with open(path, encoding="utf-8") as handle:
            broken = json.load(handle)
        broken["exercises"][0]["items"][0]["passed"] = "yes"
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(broken, handle)
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertEqual(done.returncode, 1)
        self.assertIn(f"{path}: exercises[0]: items[0]: 'passed' is not true or false", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("{\"schema\": 1, ")
        done = self.grade("--reports-only", "--results", self.scratch)
        self.assertIn(f"{path}: not a readable result file", done.stderr)
        self.assertNotIn("Traceback", done.stderr)


class MutantClass(unittest.TestCase):
    """tests/grading/mutant_class.py, which the GPU proof uses: its class applies each
    known-wrong variant to the solution, and its check finds each variant's hint among
    the class report's hints, naming its students (here on results made up to print
    them, and then with one hint gone)."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="test-mutant-class-")
        self.class_dir = os.path.join(self.scratch, "class")
        self.results = os.path.join(self.scratch, "results")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def run_tool(self, *arguments):
        return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "grading", "mutant_class.py"), *arguments],
                              capture_output=True, text=True)

    def test_write_then_check(self):
        done = self.run_tool("write", self.class_dir, "--exercises", "03", "--copies", "03-no_bounds_check=2")
        self.assertEqual(done.returncode, 0, done.stderr)
        students = sorted(os.listdir(self.class_dir))
        self.assertIn("03-no_bounds_check-2", students)
        sys.path.insert(0, os.path.join(ROOT, "tests", "grading"))
        import mutant_class
        exercise = mutant_class.course_exercises.find(ROOT, "03")
        hints = {name: hint for name, hint, _, _ in mutant_class.variants(exercise)}
        self.assertEqual(len(students), len(hints) + 1)
        solution = read(os.path.join(ROOT, "solutions", exercise.id, exercise.student_files[0]))
        edited = read(os.path.join(self.class_dir, "03-no_bounds_check", "exercises", exercise.id,
                                   exercise.student_files[0]))
        self.assertNotEqual(edited, solution)
        folder = os.path.join(self.results, "submissions")
        os.makedirs(folder)

        def write_results(skip=None):
            for student in students:
                variant = mutant_class.STUDENT.match(student).group(2)
                output = "" if student == skip else f"wrong\nhint: {hints[variant]}, more words"
                record = fake_class.exercise(exercise.id, [fake_class.item("n_is_one", 2, False, output)], 1.0)
                entry = {"schema": 1, "student": student, "exercises": [record]}
                with open(os.path.join(folder, f"{student}.json"), "w", encoding="utf-8") as handle:
                    json.dump(entry, handle)
            done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "course"), "grade", "--reports-only",
                                   "--results", self.results, "--exercises", "03"], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)

        write_results()
        done = self.run_tool("check", self.class_dir, self.results)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn(f"ok: 03 no_bounds_check: {hints['no_bounds_check']!r}, 2 student(s)", done.stdout)
        write_results(skip="03-no_bounds_check-2")
        done = self.run_tool("check", self.class_dir, self.results)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("FAIL: 03 no_bounds_check:", done.stdout)
        self.assertIn("does not name ['03-no_bounds_check-2']", done.stdout)


class HintSources(unittest.TestCase):
    def test_a_sanitizer_report_is_attributed_to_its_cases(self):
        record = fake_class.exercise("03_device_memory", [
            fake_class.item("n_is_one", 2, True),
            fake_class.item("hidden_size_from_seed", 2, True),
            fake_class.item("memcheck", 2, False, "n_is_one:\nhint: visible\nhidden_size_from_seed:\nhint: secret",
                            kind="sanitizer"),
            fake_class.item("racecheck", 2, False, "racecheck could not complete the check (status 3):\n"
                                                   "hidden_size_from_seed FAIL\n   hint: quoted", kind="sanitizer")],
            1.0)
        found = [(case, hidden, class_report.HINT.findall(output))
                 for case, hidden, output in class_report.hint_sources(record)]
        self.assertEqual(found, [("n_is_one (memcheck)", False, ["visible"]),
                                 ("hidden_size_from_seed (memcheck)", True, ["secret"]),
                                 ("racecheck", True, ["quoted"])])


class KeptSources(unittest.TestCase):
    def test_the_graded_files_are_kept_and_nothing_from_outside(self):
        with tempfile.TemporaryDirectory(prefix="kept-sources-") as scratch:
            raw, results = os.path.join(scratch, "raw"), os.path.join(scratch, "results")
            os.makedirs(os.path.join(raw, "exercises", "14_atomics_histogram"))
            with open(os.path.join(raw, "exercises", "14_atomics_histogram", "atomics_histogram.cu"), "w") as handle:
                handle.write("// mine\n")
            with open(os.path.join(scratch, "secret.txt"), "w") as handle:
                handle.write("not the student's\n")
            os.symlink(os.path.join(scratch, "secret.txt"), os.path.join(raw, "link.cu"))
            stale = os.path.join(results, "sources", "kim", "03_device_memory", "device_memory.cu")
            os.makedirs(os.path.dirname(stale))
            open(stale, "w").close()
            similarity.keep_sources(results, "kim", raw, [
                {"id": "14_atomics_histogram", "files": {"atomics_histogram.cu":
                                                         "exercises/14_atomics_histogram/atomics_histogram.cu"}},
                {"id": "03_device_memory", "files": {"device_memory.cu": "link.cu"}}])
            kept = sorted(os.path.relpath(os.path.join(folder, name), results)
                          for folder, _, names in os.walk(results) for name in names)
            self.assertEqual(kept, ["sources/kim/14_atomics_histogram/atomics_histogram.cu"])


class Statements(unittest.TestCase):
    def test_a_cases_table_is_read(self):
        text = ("| call | what |\n|---|---|\n| `cudaMalloc` | not a case |\n\n"
                "| case | points | runs under | what it catches |\n|---|---|---|---|\n"
                "| `a_case` | 2 | `memcheck` | a \\| b, `code` |\n"
                "| `<step>_edges` | 1 each | `racecheck` | edges |\n"
                "| `timed` | 2 | `-` | at least 0.25<!-- bar 04 timed --> of the time |\n")
        cases = statement_cases.Cases(statement_cases.parse(text))
        self.assertEqual(cases.describe("a_case"), "runs under memcheck: a | b, `code`")
        self.assertEqual(cases.describe("tiled_edges"), "runs under racecheck: edges")
        self.assertEqual(cases.describe("timed"), "runs under -: at least 0.25 of the time")
        self.assertEqual(cases.describe("cudaMalloc"), "")
        self.assertEqual(cases.describe("edges"), "")

    def test_every_exercise_has_its_cases_described(self):
        for exercise_id in sorted(os.listdir(os.path.join(ROOT, "exercises"))):
            if os.path.exists(os.path.join(ROOT, "exercises", exercise_id, "README.md")):
                cases = statement_cases.load(exercise_id)
                self.assertTrue(cases.exact or cases.patterns, f"{exercise_id}: no cases table found")

    def test_an_exercise_id_is_never_a_path(self):
        self.assertFalse(statement_cases.load("../../etc").exact)


if __name__ == "__main__":
    unittest.main(verbosity=2)
