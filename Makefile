# The course's front door.
#
# [instructor-only]
# Instructors (CMake underneath; PRESET=ci builds for sm_75 only, PRESET=student
# builds only the student's files; CUDA_ARCHS="75-real;90" chooses the GPUs):
#   make                 check the prerequisites (installing what it may), configure,
#                        build everything, grade the reference solutions, print the
#                        score table (the main job)
#   make test            the same up to the build, then the whole test suite
#   make gpu-suite       the same on a GPU machine, for its GPU, with a summary table
#   make report          on a GPU machine: build the solutions, run every demo's measurements
#                        and write build/report/index.html, report.md and figures/ (plots need
#                        python3-matplotlib; tools/course report --update-slides copies the figures
#                        into slides/figures/)
#   make report-device   only say whether a GPU is visible (make report's first step)
#   make calibrate       on a node of the GPU kind a course is graded on: grade the reference
#                        solutions 3 times and write calibration/site-bars.tsv, the speed bars
#                        relaxed where that GPU needs it (never tightened); make, make test,
#                        make check-NN and the grader then judge speed against them there
#   make prerequisites   only the prerequisites (COURSE_NO_INSTALL=1: never install)
#   make configure       the prerequisites, then CMake's configure step (build/PRESET)
#   make build           the same, then build everything (no grading, no tests)
#   make slides          the lecture decks, slides/*.md -> build/slides/NAME.html and .pdf
#                        (PDF where chromium is installed; PRESET=student: no solution code)
#   make slides LANG=fr  the French decks, slides/NAME.fr.md -> build/slides/fr/NAME.html and
#                        .pdf (PRESET=student: build/slides/student/fr/). Only LANG=fr and
#                        LANG=en choose: LANG is also your shell's locale (C.UTF-8,
#                        fr_FR.UTF-8...), and any other value leaves the decks in English
#   make new-exercise NN=next SLUG=shared_memory_histogram
#                        create exercise NN (two digits, or next: the one after the last) from
#                        templates (tools/course new-exercise: it builds, its skeleton fails
#                        its check, its solution passes; DRY_RUN=1 lists what it would write)
#   make release DEST=DIR  the students' repository: the course without its solutions, as a
#                        git repository of one commit (FORMAT=tar: DIR.tar.gz); one handed
#                        out already is updated by tools/course release --update COPY
# The grader (not a make target; as root, or with sudo, on a GPU machine; docs/instructors.md, "Grading a class"):
#   tools/course grade CLASS_FOLDER --class --results RESULTS     a whole class
#   tools/course grade SUBMISSION --results RESULTS               one submission
#   slurm/grade-class CLASS RESULTS                               the same on a cluster
# [/instructor-only]
# [release-only]
# # Every exercise at once (CMake underneath; CUDA_ARCHS="75-real;90" chooses the GPUs):
# #   make                 check the prerequisites (installing what it may), then build every
# #                        exercise from your files
# #   make test            the same, then run every exercise's check on your files and print
# #                        your scores (without a CUDA device the checks report skipped)
# #   make prerequisites   only the prerequisites (COURSE_NO_INSTALL=1: never install)
# #   make configure       the prerequisites, then CMake's configure step (build/student)
# #   make build           the same as make: build every exercise from your files
# #   make slides          the lecture decks, slides/*.md -> build/slides/student/NAME.html and
# #                        .pdf (PDF where chromium is installed)
# #   make slides LANG=fr  the same in French -> build/slides/student/fr/NAME.html and .pdf
# #                        (only LANG=fr or en chooses: LANG is also your shell's locale,
# #                        C.UTF-8, fr_FR.UTF-8..., which leaves the decks in English)
# [/release-only]
# Students (nvcc directly, commands printed; NN is the exercise number):
#   make NN              build exercise NN from your files (make 3 is make 03)
#   make run-NN          run it (ARGS="..." passes arguments)
#   make check-NN        run its check (ARGS="--case NAME" for one case)
#   make profile-NN      run it under Nsight Compute: one line per kernel (time, DRAM GB/s,
#                        FP32 FLOP/s, occupancy, sectors per request), the report kept in
#                        build/profile/NN.ncu-rep (without ncu, one line says what to install)
#                        (without a CUDA device these say so and name the cluster's command)
#   make check-NN LANG=fr  the same, its messages and hints in French (COURSE_LANG=fr, or a
#                        French locale, does the same for every check; COURSE_LANG=en: English)
#   make list            the exercises available
#   make clean           remove build/ (every build, its logs, the slides)
#   make help            this text
# On a cluster (Slurm; the site's settings in slurm/site.conf; logs in logs/):
#   make submit-NN       submit a job that builds and runs exercise NN on a GPU node
#   make submit-check-NN submit a job that runs its check (the log says PASS/FAIL/SKIPPED)
#   make submit-profile-NN  submit a job that profiles it (make profile-NN on a GPU node)
#   make submit-openmp   submit the CPU-only OpenMP example

# [instructor-only]
PRESET ?= default
# [/instructor-only]
# [release-only]
# PRESET ?= student
# [/release-only]
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON ?= python3
# The course's tools, one command with subcommands (tools/course help lists them).
COURSE = $(PYTHON) tools/course
BUILD := build/$(PRESET)
EXERCISE_NUMBERS := $(sort $(foreach dir,$(wildcard exercises/[0-9][0-9]_*),$(firstword $(subst _, ,$(notdir $(dir))))))
# CUDA_ARCHS=... compiles for those GPUs (CMake's list, e.g. "75-real;80-real;90"); by default
# this machine's GPU, or sm_75 with PTX where there is none (cmake/CudaArchitectures.cmake).
# CONFIGURE_ARGS=... adds CMake options, e.g. -DCOURSE_ONLY=03_ (as the GPU suite reads it).
CONFIGURE_ARGS ?=
CMAKE_ARGS = $(CONFIGURE_ARGS)$(if $(CUDA_ARCHS), -DCMAKE_CUDA_ARCHITECTURES="$(CUDA_ARCHS)")

# The recursive makes of CMake's build would print two "Entering/Leaving directory" lines
# per target (844 in a full build), which tell a person nothing.
MAKEFLAGS += --no-print-directory
# The CUDA toolkit's usual home, for CMake and the tools, where PATH lacks it.
ifeq ($(shell command -v nvcc 2>/dev/null),)
export PATH := $(PATH):/usr/local/cuda/bin
endif

.PHONY: all prerequisites configure build test gpu-suite slides report report-device calibrate release new-exercise list \
  clean help submit-openmp $(EXERCISE_NUMBERS) $(SHORT_NUMBERS)

# ctest's lines that a person does not read: the score table or the test summary replaces
# its closing summary (which says "100% tests passed" when every test was skipped).
# ctest's line for each test that ended well ("12/80 Test #7: ... Passed"): progress, not news.
CTEST_PROGRESS = ^ *([0-9]+)/([0-9]+) Test +\#[0-9]+: .*[ *](?:Passed|Skipped|Not Run)
CTEST_NOISE = --hide '^ +Start +[0-9]+: ' --hide '^Internal ctest changing into' --hide '^Test project '

# [instructor-only]
all: build
	@rm -rf $(BUILD)/scores
	@echo "== grading the reference solutions"
	@status=0; \
	$(COURSE) quiet-run --log $(BUILD)/solutions.log --label graded --progress '$(CTEST_PROGRESS)' \
	  $(CTEST_NOISE) --cut '^[0-9]+% tests passed' -- \
	  ctest --test-dir $(BUILD) -L 'variant=solution' -L 'aspect=correctness' -j $(JOBS) \
	  --output-on-failure --output-junit $(CURDIR)/$(BUILD)/solutions.junit.xml || status=$$?; \
	$(COURSE) score-table $(BUILD) solution --junit $(BUILD)/solutions.junit.xml; exit $$status
# [/instructor-only]
# [release-only]
# all: build
# [/release-only]

# Every prerequisite, before CMake runs (tools/course prerequisites): what is missing is installed
# where that needs no question, or make stops with one line (through $(error): no make noise
# after it) naming the packages and the command. A dry run (make -n) installs nothing.
# Python 3 runs the step itself, so where it is missing this shell installs it first, by the
# same rule (root or sudo -n, unless COURSE_NO_INSTALL=1).
PREREQUISITES_ENV = $(if $(findstring n,$(firstword -$(MAKEFLAGS))),COURSE_NO_INSTALL=1)
APT_AS = $(if $(filter 0,$(shell id -u)),,sudo -n )
# Another package manager's lock (an unattended upgrade): apt-get waits for it, as
# tools/course prerequisites does, at most COURSE_APT_LOCK_SECONDS.
APT_WAITS = -o DPkg::Lock::Timeout=$${COURSE_APT_LOCK_SECONDS:-300}
PYTHON_MISSING = missing prerequisites: Python 3 (python3): run `apt-get install -y python3`$(if $(APT_AS), as root or with sudo); then run make again
INSTALL_PYTHON = { [ "$${COURSE_NO_INSTALL:-0}" = 0 ] && [ -z "$(PREREQUISITES_ENV)" ] && command -v apt-get >/dev/null && \
  { [ -z "$(APT_AS)" ] || sudo -n true 2>/dev/null; } && \
  echo "prerequisites: installing python3 with apt-get (the course's tools are Python)" >&2 && \
  $(APT_AS)apt-get $(APT_WAITS) update -qq >&2 && $(APT_AS)apt-get $(APT_WAITS) install -y -qq --no-install-recommends python3 >&2; }
prerequisites:
	@$(eval prerequisites_said := $(shell if command -v $(PYTHON) >/dev/null 2>&1 || $(INSTALL_PYTHON); \
	  then $(PREREQUISITES_ENV) $(COURSE) prerequisites --make $(PREREQUISITES_FOR); else echo '$(PYTHON_MISSING)'; fi))
	@$(if $(filter ok,$(prerequisites_said)),:,$(error $(or $(prerequisites_said),$(PYTHON_MISSING))))

configure: prerequisites
	@echo "== configuring $(BUILD) (cmake --preset $(PRESET)$(if $(strip $(CMAKE_ARGS)), $(strip $(CMAKE_ARGS))))"
	@cmake --preset $(PRESET) --log-level=NOTICE $(CMAKE_ARGS) > /dev/null

build: configure
	@echo "== building (cmake --build --preset $(PRESET) -j $(JOBS); the whole output: $(BUILD)/build.log)"
	@$(COURSE) quiet-run --log $(BUILD)/build.log --progress '^\[ *([0-9]+)%\]' --label built -- \
	  cmake --build --preset $(PRESET) -j $(JOBS)

# With PRESET=student (the default of the students' copy of the course) the tests are the
# checks of the student's own files: the score table says what each earned (ctest's status
# decides, as for the main job); otherwise a table of passed, failed and skipped tests.
TEST_REPORT = $(if $(filter student,$(PRESET)),$(COURSE) score-table $(BUILD) student --junit $(BUILD)/junit.xml,$(COURSE) test-summary $(BUILD)/junit.xml || status=1)
test: build
	@echo "== testing (ctest --preset $(PRESET) -j $(JOBS); the whole output: $(BUILD)/test.log)"
	@rm -rf $(BUILD)/scores
	@status=0; \
	$(COURSE) quiet-run --log $(BUILD)/test.log --label tested \
	  --progress '$(CTEST_PROGRESS)' \
	  $(CTEST_NOISE) --cut '^[0-9]+% tests passed' -- \
	  ctest --preset $(PRESET) -j $(JOBS) --output-junit $(CURDIR)/$(BUILD)/junit.xml || status=$$?; \
	$(TEST_REPORT); exit $$status

# [instructor-only]
# Where no GPU is visible it refuses at once, with one line, as make report does.
gpu-suite:
	@tools/course_tools/suite/gpu_suite.sh $(SUITE_ARGS)
# [/instructor-only]

# The decks (tools/course slides): code cut from the sources this build compiles (CMake lists
# them in $(BUILD)/compiled_sources.tsv, hence the configure step), rendered by Marp, which
# npm installs the first time from the versions tools/marp/package-lock.json pins.
# Their language is LANG=fr or LANG=en, exactly. LANG is every shell's locale too: any other
# value (C.UTF-8, fr_FR.UTF-8) is a locale, and leaves the decks English. fr and en are no
# locales: where one is given, the programs make runs (and sub-makes: MAKEOVERRIDES) get
# LANG=C.UTF-8 instead, and COURSE_LANG=fr or en, the language of the checks' messages and
# hints (make check-NN LANG=fr; without it, COURSE_LANG or a French locale chooses French:
# common/course/check/message.hpp).
SLIDES_LANG := $(filter fr en,$(LANG))
ifneq ($(SLIDES_LANG),)
override LANG := C.UTF-8
export LANG
export COURSE_LANG := $(SLIDES_LANG)
MAKEOVERRIDES := $(filter-out LANG=%,$(MAKEOVERRIDES))
endif
# The site bars of make calibrate, where they exist: every check run from here judges speed
# against them on the GPU they were measured on (common/course/check/speed_bar.hpp).
ifneq ($(wildcard calibration/site-bars.tsv),)
export COURSE_SITE_BARS ?= $(abspath calibration/site-bars.tsv)
endif
MARP_INSTALLED := tools/marp/node_modules/.installed
$(MARP_INSTALLED): tools/marp/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "make slides needs npm, to install Marp: apt-get install -y npm$(if $(APT_AS), as root or with sudo)" >&2; exit 2; }
	@echo "== installing Marp into tools/marp/node_modules (npm ci: the versions of its package-lock.json)"
	@npm ci --prefix tools/marp --no-audit --no-fund --loglevel=error
	@touch $@

slides: PREREQUISITES_FOR = --slides
slides: configure $(MARP_INSTALLED)
	@$(COURSE) slides --build-dir $(BUILD) --lang $(or $(SLIDES_LANG),en)

# [instructor-only]
# The benchmark report (tools/course report): a machine without a GPU stops at report-device,
# before anything is configured or built. The prerequisites then include matplotlib.
report: PREREQUISITES_FOR = --report
report: report-device configure
	@$(COURSE) report --build-dir $(BUILD) --jobs $(JOBS)

report-device:
	@$(COURSE) report --require-device

# Site bars for this machine's GPU (tools/course calibrate, docs/instructors.md "Speed bars on
# your GPU"): the reference solutions graded RUNS times (3), NN=11,12 for some exercises only.
calibrate: build
	@$(COURSE) calibrate --build-dir $(BUILD) $(if $(RUNS),--runs $(RUNS)) $(if $(NN),--only $(NN))

# A new exercise folder, its solution, a known-wrong variant and its course-map row, from the
# templates of tools/course_tools/authoring/templates/ (DRY_RUN=1 lists what it would write).
new-exercise:
	@$(COURSE) new-exercise $(if $(DRY_RUN),--dry-run) -- "$(NN)" "$(SLUG)"

# The students' repository (tools/course release): DEST=DIR becomes a git repository of one
# commit, or with FORMAT=tar the archive DIR.tar.gz; the release is checked for solution
# code before anything is written (tools/course release-leaks).
release:
	@$(if $(DEST),,$(error make release needs DEST=DIR, the folder (or with FORMAT=tar the archive) to write))
	@$(COURSE) release $(if $(filter tar,$(FORMAT)),--tar) $(DEST)
# [/instructor-only]
# [release-only]
# # The instructors' targets need what only their copy of the course has (the solutions).
# gpu-suite report report-device calibrate release new-exercise:
# 	@echo "make $@ is an instructors' target: this students' copy of the course has no solutions" >&2; exit 2
# [/release-only]

list:
	@for dir in exercises/[0-9][0-9]_*; do echo "$$(basename $$dir)"; done

# One rule for exercise numbers, as in tools/course and slurm/submit: make 3 is make 03.
SHORT_NUMBERS := $(patsubst 0%,%,$(filter 0%,$(EXERCISE_NUMBERS)))
$(EXERCISE_NUMBERS) $(SHORT_NUMBERS):
	@$(COURSE) build $@

# Without a CUDA device, tools/course exits 77 after saying what to do instead (the
# cluster's make submit-NN); make ends quietly then, since nothing here went wrong that
# make could help with. Scripts that must tell a skip from a pass call tools/course.
run-%:
	@$(COURSE) run $* $(ARGS) || { status=$$?; [ $$status -eq 77 ] || exit $$status; }

check-%:
	@$(COURSE) check $* $(ARGS) || { status=$$?; [ $$status -eq 77 ] || exit $$status; }

profile-%:
	@$(COURSE) profile $* $(ARGS) || { status=$$?; [ $$status -eq 77 ] || exit $$status; }

# Slurm: the same builds, runs and checks as jobs on the cluster's GPU nodes.
submit-check-%:
	@slurm/submit check $* $(ARGS)

submit-profile-%:
	@slurm/submit profile $* $(ARGS)

submit-openmp:
	@slurm/submit openmp

submit-%:
	@slurm/submit run $* $(ARGS)

clean:
	rm -rf build

# The header above, without what tools/course release filters (the students' copy has no markers).
help:
	@sed -n '2,/^$$/p' Makefile | sed -e '/\[release-only\]/,/\[\/release-only\]/d' \
	  -e '/\[\/\{0,1\}instructor-only\]/d' -e 's/^# \{0,1\}//'

# Any other target: a number names an exercise that does not exist (make 99).
.DEFAULT:
	@$(if $(shell echo '$@' | grep -E '^[0-9]+$$'),$(error no exercise $@: the exercises are $(EXERCISE_NUMBERS) (make list names them)),$(error no target '$@': make help lists them))
