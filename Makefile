# The course's front door.
#
# Instructors (CMake underneath; PRESET=ci builds for sm_75 only, PRESET=student
# builds only the student's files):
#   make                 configure, build everything, grade the reference solutions,
#                        print the score table (the main job)
#   make test            build everything and run the whole test suite
#   make gpu-suite       the same on a GPU machine, for its GPU, with a summary table
# Students (nvcc directly, commands printed; NN is the exercise number):
#   make NN              build exercise NN from your files
#   make run-NN          run it (ARGS="..." passes arguments)
#   make check-NN        run its check (ARGS="--case NAME" for one case)
#   make list            the exercises available
# On a cluster (Slurm; the site's settings in slurm/site.conf; logs in logs/):
#   make submit-NN       submit a job that builds and runs exercise NN on a GPU node
#   make submit-check-NN submit a job that runs its check (the log says PASS/FAIL/SKIPPED)
#   make submit-openmp   submit the CPU-only OpenMP example

PRESET ?= default
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON ?= python3
BUILD := build/$(PRESET)
EXERCISE_NUMBERS := $(sort $(foreach dir,$(wildcard exercises/[0-9][0-9]_*),$(firstword $(subst _, ,$(notdir $(dir))))))

.PHONY: all configure build test gpu-suite list clean help submit-openmp $(EXERCISE_NUMBERS)

all: build
	@rm -rf $(BUILD)/scores
	@status=0; \
	ctest --test-dir $(BUILD) -L 'variant=solution' -L 'aspect=correctness' -j $(JOBS) \
	  --output-on-failure || status=$$?; \
	echo; $(PYTHON) tools/score_table.py $(BUILD) solution; exit $$status

configure:
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

test: build
	@status=0; \
	ctest --preset $(PRESET) -j $(JOBS) --output-junit $(CURDIR)/$(BUILD)/junit.xml || status=$$?; \
	echo; $(PYTHON) tools/test_summary.py $(BUILD)/junit.xml || status=1; exit $$status

gpu-suite:
	tools/gpu_suite.sh

list:
	@for dir in exercises/[0-9][0-9]_*; do echo "$$(basename $$dir)"; done

$(EXERCISE_NUMBERS):
	@$(PYTHON) tools/student.py build $@

run-%:
	@$(PYTHON) tools/student.py run $* $(ARGS)

check-%:
	@$(PYTHON) tools/student.py check $* $(ARGS)

# Slurm: the same builds, runs and checks as jobs on the cluster's GPU nodes.
submit-check-%:
	@slurm/submit check $* $(ARGS)

submit-openmp:
	@slurm/submit openmp

submit-%:
	@slurm/submit run $* $(ARGS)

clean:
	rm -rf build

help:
	@sed -n '2,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
