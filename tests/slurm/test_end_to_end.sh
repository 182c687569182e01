#!/usr/bin/env bash
# End-to-end test of the course's Slurm scripts (slurm/) against a real Slurm: starts a
# private single-node cluster (tests/slurm/cluster.sh), then, as a student and as an
# instructor would:
#   1. validates every job script with sbatch --test-only (through slurm/submit and
#      slurm/grade-class, and each script by itself) and runs an interactive command
#      through slurm/interactive (salloc + srun);
#   2. submits, from a copy of the course, make submit-check-03, make submit-03 and the
#      OpenMP example, and grades a class of 6 submissions (solutions in three layouts,
#      the untouched skeleton, a file that does not compile, no file at all; exercise 03
#      only) as a job array with its collecting job; checks every log, the gradebook and
#      the class report;
#   3. adds a late submission whose grading is stopped as at its time limit (a stand-in
#      grader that never ends; the test sends the limit's warning SIGTERM itself once the
#      grader runs, a 3-minute limit as the backstop): the task leaves a marked partial
#      result and the collecting job lists it as not graded (first in the class report);
#   4. submits the grading again: only that submission is graded, the others' results
#      are untouched, the gradebook is complete; a third submission only rebuilds the
#      reports.
# Without a GPU the checks report SKIPPED, and the test expects it. Every daemon and
# job is stopped at the end, whatever happens; nothing is left running.
#
#   bash tests/slurm/test_end_to_end.sh        (root; exit 0 pass, 1 fail, 77 skipped)
#
# Skipped (77), with the reason, where Slurm, munge, nvcc or root are missing, or
# where the daemons cannot start here; COURSE_SLURM_REQUIRED=1 (CI) turns the last
# case into a failure. COURSE_SLURM_TEST_KEEP=1 keeps the work folder for a look.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/tests/slurm
limit=${COURSE_SLURM_TEST_SECONDS:-900}  # the whole test, daemons included
started=$SECONDS

skip() {
  echo "SKIPPED: $*"
  exit 77
}
step() { echo "== $* ($((SECONDS - started)) s)"; }
ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*" >&2
  local file
  for file in "${shown_on_failure[@]}"; do
    if [[ -f $file ]]; then
      echo "--- $file" >&2
      tail -n 40 "$file" >&2
    fi
  done
  exit 1
}
shown_on_failure=()

export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null 2>&1 || skip "nvcc not found (the CUDA toolkit builds the exercises in the jobs)"
command -v g++ >/dev/null 2>&1 || skip "g++ not found (the OpenMP example)"
((EUID == 0)) || skip "needs root (the private cluster's slurmd starts jobs as their users)"

work=$(mktemp -d "${TMPDIR:-/tmp}/course-slurm-test.XXXXXX")
chmod 755 "$work"  # munged's socket lives below it
cleanup() {
  local status=$?
  trap - EXIT TERM INT
  "$here/cluster.sh" stop "$work/cluster" || status=1
  if [[ -f $work/slow.pids ]]; then
    local pid
    while read -r pid; do
      if kill -0 "$pid" 2>/dev/null; then
        echo "FAIL: the stand-in grader $pid outlived its task" >&2
        kill -KILL "$pid" 2>/dev/null || true
        status=1
      fi
    done <"$work/slow.pids"
  fi
  if [[ ${COURSE_SLURM_TEST_KEEP:-0} == 1 ]]; then
    echo "work folder kept: $work"
  else
    rm -rf "$work"
  fi
  echo "slurm end-to-end test: exit $status after $((SECONDS - started)) s"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# --- the cluster ----------------------------------------------------------------------------
step "starting a private Slurm cluster in $work/cluster"
status=0
"$here/cluster.sh" start "$work/cluster" || status=$?
((status == 0)) || { ((status == 77)) && exit 77; fail "the cluster did not start (status $status)"; }
# shellcheck source=/dev/null
source "$work/cluster/env"
cpus=$(sinfo -h -n localhost -o %c)
openmp_cpus=$((cpus >= 2 ? 2 : 1))

gpu=no
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  gpu=yes
fi
echo "this machine: $cpus CPU(s), GPU: $gpu"
# Without a GPU tools/course grade refuses to grade unless asked for the CPU side only.
cpu_only=()
[[ $gpu == yes ]] || cpu_only=(--cpu-only)
skipped_line='03: skipped; NOT COMPLETE: a grading on a GPU grades the skipped exercises'

# --- helpers ------------------------------------------------------------------------------------
# The queue is empty only when squeue says so: a squeue that fails (slurmctld slow to
# answer on a loaded machine) is not an empty queue, and the test asks again.
wait_for_queue() {
  local what=$1 seconds=$2
  local deadline=$((SECONDS + seconds)) queue error=""
  while :; do
    if queue=$(squeue -h -o %i 2>&1); then
      [[ -n $queue ]] || break
      error=""
    else
      error=$queue
    fi
    if ((SECONDS > deadline || SECONDS - started > limit)); then
      [[ -z $error ]] || fail "$what: squeue still fails after $seconds s: $error"
      fail "$what: jobs still in the queue after $seconds s: $(squeue -h -o '%i %j %T %r' | tr '\n' ';')"
    fi
    sleep 2
  done
  step "$what: the queue is empty"
}

# job_state JOB: Slurm's state of a job or array task (PENDING, RUNNING, COMPLETED...),
# empty where scontrol does not answer.
job_state() {
  scontrol show job "$1" -o 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}

exit_code() {
  scontrol show job "$1" -o | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p'
}

expect_exit() {
  local job=$1 expected=$2 what=$3 code
  code=$(exit_code "$job")
  [[ $code == "$expected" ]] || fail "$what: job $job ended with exit code '$code', expected $expected"
  ok "$what: exit code $expected"
}

# expect_in FILE ERE WHAT / expect_not_in FILE ERE WHAT
expect_in() {
  [[ -f $1 ]] || fail "$3: $1 does not exist"
  grep -Eq -- "$2" "$1" || { shown_on_failure+=("$1"); fail "$3: no line matching /$2/ in $1"; }
  ok "$3"
}
expect_not_in() {
  [[ -f $1 ]] || fail "$3: $1 does not exist"
  if grep -Eq -- "$2" "$1"; then
    shown_on_failure+=("$1")
    fail "$3: a line matches /$2/ in $1"
  fi
  ok "$3"
}

submitted_id() {
  sed -n "s/^$1 \\([0-9][0-9]*\\).*/\\1/p" <<<"$2" | head -n 1
}

# --- a student's copy of the course, the site configuration, a class ---------------------
student=$work/student
mkdir -p "$student"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # What a student's clone holds: tracked files, plus new ones not ignored (a work in progress).
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null) | tar -C "$student" -xf -
else
  tar -C "$repo" --exclude=./build --exclude=./logs --exclude=./.git -cf - . | tar -C "$student" -xf -
fi
[[ -f $student/slurm/submit && -f $student/tools/course ]] || fail "the copy of the course in $student is incomplete"

modules=""
if ! type module >/dev/null 2>&1 && [[ ! -e /etc/profile.d/modules.sh && ! -e /etc/profile.d/lmod.sh ]]; then
  modules="cuda/13.0"  # no module command here: the jobs must say so and go on
fi
cat >"$work/site.conf" <<EOF
# The test's site configuration: the private cluster has one partition, no GPU
# resources declared.
COURSE_PARTITION=debug
COURSE_GPU_REQUEST=""
COURSE_TIME_STUDENT=0:10:00
COURSE_CPUS_STUDENT=1
COURSE_MEM_STUDENT=1G
COURSE_OPENMP_CPUS=$openmp_cpus
COURSE_ROOT=$repo
COURSE_TIME_GRADE=0:10:00
COURSE_ARRAY_MAX_PARALLEL=2
COURSE_CPUS_GRADE=1
COURSE_MEM_GRADE=2G
COURSE_TIME_COLLECT=0:05:00
COURSE_MODULES="$modules"
EOF
export COURSE_SITE_CONFIG=$work/site.conf

solution=$repo/solutions/03_device_memory/device_memory.cu
skeleton=$repo/exercises/03_device_memory/device_memory.cu
class=$work/class
results=$work/results
mkdir -p "$class"/{alice/exercises/03_device_memory,bob,dave/exercises/03_device_memory,erin,frank} "$work/carol/exercises/03_device_memory"
cp "$solution" "$class/alice/exercises/03_device_memory/"            # the repository layout
cp "$solution" "$class/bob/"                                          # flat
cp "$solution" "$work/carol/exercises/03_device_memory/"              # an archive
tar -C "$work/carol" -czf "$class/carol.tar.gz" exercises
cp "$skeleton" "$class/dave/exercises/03_device_memory/"              # the untouched skeleton
{ cat "$solution"; echo "this line does not compile"; } >"$class/erin/device_memory.cu"
echo "I did not do it" >"$class/frank/notes.txt"                        # no exercise file

# --- 1. every script passes sbatch --test-only; an interactive command -----------------------
step "sbatch --test-only on every script"
test_only() {
  local what=$1 answer
  shift
  answer=$("$@" 2>&1) || fail "$what: --test-only failed: $answer"
  grep -q "to start at" <<<"$answer" || fail "$what: sbatch --test-only did not answer: $answer"
  ok "$what: $(grep -c 'to start at' <<<"$answer") job(s) accepted by sbatch --test-only"
}
cd "$student"
test_only "slurm/submit run" slurm/submit --test-only run 03
test_only "slurm/submit check" slurm/submit --test-only check 03
test_only "slurm/submit openmp" slurm/submit --test-only openmp --cpus "$openmp_cpus"
test_only "slurm/submit run 25 (two GPUs where the site asks for GPUs)" slurm/submit --test-only run 25
test_only "slurm/grade-class" "$repo/slurm/grade-class" --test-only "$class" "$work/results-test-only" --exercises 03
[[ ! -e $work/results-test-only ]] || fail "slurm/grade-class --test-only wrote $work/results-test-only"
test_only "run.sbatch" sbatch --test-only slurm/jobs/run.sbatch 03
test_only "check.sbatch" sbatch --test-only slurm/jobs/check.sbatch 03
test_only "openmp.sbatch" sbatch --test-only --cpus-per-task="$openmp_cpus" slurm/jobs/openmp.sbatch
test_only "grade-task.sbatch" sbatch --test-only --array=0-5%2 slurm/jobs/grade-task.sbatch "$class" "$results"
test_only "grade-collect.sbatch" sbatch --test-only slurm/jobs/grade-collect.sbatch "$class" "$results"
[[ ! -e $student/logs ]] || fail "--test-only created $student/logs"

step "slurm/interactive: one command through salloc and srun"
# shellcheck disable=SC2016 # expanded on the node, by the job's shell
answer=$(timeout 120 slurm/interactive bash -c 'echo "interactive: job $SLURM_JOB_ID on $(hostname)"' 2>&1) ||
  fail "slurm/interactive failed: $answer"
grep -q '^interactive: job [0-9]' <<<"$answer" || fail "slurm/interactive: no output from the node: $answer"
ok "slurm/interactive ran on the node: $(grep '^interactive:' <<<"$answer")"
grep -q 'srun --pty' <<<"$(slurm/interactive --print)" || fail "slurm/interactive --print: no interactive shell"

# --- 2. students' jobs, and a class graded by a job array -------------------------------------
step "students' jobs: make submit-check-03, make submit-03, the OpenMP example"
answer=$(make -s submit-check-03) || fail "make submit-check-03: $answer"
echo "$answer"
check_job=$(submitted_id "Submitted job" "$answer")
[[ -n $check_job ]] || fail "make submit-check-03 printed no job id"
grep -q "log: *logs/03-check-$check_job.log" <<<"$answer" || fail "make submit-check-03 did not name its log"
answer=$(make -s submit-03) || fail "make submit-03: $answer"
echo "$answer"
run_job=$(submitted_id "Submitted job" "$answer")
[[ -n $run_job ]] || fail "make submit-03 printed no job id"
answer=$(slurm/submit openmp --cpus "$openmp_cpus") || fail "slurm/submit openmp: $answer"
echo "$answer"
openmp_job=$(submitted_id "Submitted job" "$answer")
[[ -n $openmp_job ]] || fail "slurm/submit openmp printed no job id"
# Exercise 25 needs two GPUs: on a node with none its check reports skipped, with the reason.
answer=$(make -s submit-check-25) || fail "make submit-check-25: $answer"
echo "$answer"
two_gpu_job=$(submitted_id "Submitted job" "$answer")
[[ -n $two_gpu_job ]] || fail "make submit-check-25 printed no job id"

step "an instructor grades the class: slurm/grade-class"
cd "$work"
answer=$("$repo/slurm/grade-class" "$class" "$results" --exercises 03 --seed 12345 "${cpu_only[@]}") ||
  fail "slurm/grade-class: $answer"
echo "$answer"
grep -q "6 submission(s), 0 already graded.*6 to grade" <<<"$answer" || fail "slurm/grade-class: not 6 to grade"
array_job=$(submitted_id "Submitted array job" "$answer")
collect_job=$(submitted_id "Submitted collecting job" "$answer")
[[ -n $array_job && -n $collect_job ]] || fail "slurm/grade-class printed no job ids"
grep -q "0-5\\], at most 2 at a time" <<<"$answer" || fail "slurm/grade-class: the array is not 0-5 with at most 2 at once"
scontrol show job "$collect_job" -o | grep -q "Dependency=afterany:${array_job}" ||
  fail "the collecting job does not depend on the array (afterany)"
ok "collecting job $collect_job depends on array job $array_job (afterany)"

wait_for_queue "students' jobs and the class grading" 600

logs=$student/logs
check_log=$logs/03-check-$check_job.log
run_log=$logs/03-run-$run_job.log
openmp_log=$logs/openmp-$openmp_job.log
shown_on_failure+=("$check_log" "$run_log" "$openmp_log")
for log in "$check_log" "$run_log" "$openmp_log"; do
  expect_in "$log" "^== job $(basename "$log" .log | sed 's/.*-//') on " "$(basename "$log"): its header names the job and node"
done
expect_in "$run_log" "^== CPU cores this job may use: 1 \\(OMP_NUM_THREADS=1," "run log: the cores the job may use (COURSE_CPUS_STUDENT=1)"
if [[ -n $modules ]]; then
  expect_in "$check_log" "no 'module' command: not loading cuda/13.0" "check log: no module command, said and skipped"
fi
if [[ $gpu == no ]]; then
  expect_in "$check_log" "^== GPUs: none on this node" "check log: says the node has no GPU"
  expect_in "$check_log" "^SKIPPED: check 03 .*needs a CUDA device" "check log: the check itself reports SKIPPED"
  expect_in "$check_log" "^RESULT: SKIPPED: the check of exercise 03 could not run: no GPU on node" \
    "check log: its RESULT line says SKIPPED for lack of a GPU"
  expect_exit "$check_job" 77 "check job"
  expect_in "$run_log" "^RESULT: FAILED .*this node has no GPU" "run log: the program cannot run without a GPU, said so"
  expect_in "$logs/25-check-$two_gpu_job.log" "^RESULT: SKIPPED: the check of exercise 25 could not run" \
    "check log of 25 (two GPUs): SKIPPED on a node without GPUs, with the reason"
else
  expect_in "$check_log" "^RESULT: FAIL: the check of exercise 03 failed" "check log: the untouched skeleton fails its check"
  expect_exit "$check_job" 1 "check job"
  expect_in "$run_log" "^RESULT: (DONE|FAILED)" "run log: has its RESULT line"
fi
expect_in "$check_log" "nvcc .*exercises/03_device_memory/device_memory.cu" "check log: shows nvcc's command"
expect_in "$openmp_log" "^running with $openmp_cpus OpenMP threads \\(OMP_NUM_THREADS=$openmp_cpus, SLURM_CPUS_PER_TASK=$openmp_cpus" \
  "OpenMP log: $openmp_cpus threads, as many as --cpus-per-task"
expect_in "$openmp_log" "^RESULT: DONE: the OpenMP example ran with $openmp_cpus threads" "OpenMP log: DONE"
expect_exit "$openmp_job" 0 "OpenMP job"

gradebook=$results/gradebook.csv
shown_on_failure+=("$results/logs/collect-$collect_job.log" "$gradebook")
for index in 0 1 2 3 4 5; do
  expect_in "$results/logs/task-${array_job}_$index.log" "^RESULT: GRADED: " "array task $index: graded"
done
if [[ $gpu == no ]]; then
  expect_in "$results/logs/task-${array_job}_0.log" "^SKIPPED: 03_device_memory could not be checked on this node" \
    "array task 0 (alice): says the GPU check was skipped"
fi
expect_in "$results/logs/collect-$collect_job.log" "^== every submission is graded" "collecting job: every submission graded"
expect_exit "$collect_job" 0 "collecting job"
expect_in "$gradebook" "^student,03_device_memory,total,max_total,status$" "gradebook: one column, exercise 03"
if [[ $gpu == no ]]; then
  for name in alice bob carol dave; do
    expect_in "$gradebook" "^$name,,,22,$skipped_line$" "gradebook: $name skipped (no GPU), no score, not 0"
  done
  [[ $(grep -c ",$skipped_line$" "$gradebook") == 4 ]] || fail "gradebook: not exactly 4 skipped"
else
  for name in alice bob carol; do
    expect_in "$gradebook" "^$name,[0-9.]+,[1-9][0-9.]*,22,ok$" "gradebook: $name graded with points"
  done
  expect_in "$gradebook" "^dave,0,0,22,ok$" "gradebook: dave (skeleton) graded 0"
fi
expect_in "$gradebook" "^erin,0,0,22,03: build_failed$" "gradebook: erin build_failed"
expect_in "$gradebook" "^frank,0,0,22,03: missing$" "gradebook: frank missing"
[[ $(wc -l <"$gradebook") == 7 ]] || fail "gradebook: expected a header and 6 students"
for name in alice bob carol dave erin frank; do
  [[ -f $results/feedback/$name.md && -f $results/gradescope/$name/results.json ]] ||
    fail "reports: no feedback or Gradescope result for $name"
done
[[ -f $results/junit.xml ]] || fail "reports: no junit.xml"
ok "reports: feedback, Gradescope results and JUnit for every student"
expect_in "$results/logs/collect-$collect_job.log" "^== class report: $results/class.html$" \
  "collecting job: writes the class report"
expect_in "$results/class.html" "<h2 id=\"not-graded\">" "class report: written, with its sections"
grep -q '"seed": 12345' "$results/grading.json" || fail "grading.json does not hold the seed 12345"
ok "grading.json: seed 12345, the same for every task"
[[ ! -e $results/not_graded.txt ]] || fail "not_graded.txt exists though every submission is graded"
[[ -z $(ls -A "$results/incomplete") ]] || fail "incomplete/ is not empty: $(ls "$results/incomplete")"

# --- 3. a late submission, whose grading reaches its time limit ------------------------------
step "a late submission (zoe) whose grading is stopped by a time limit's warning signal"
mkdir -p "$class/zoe"
cp "$solution" "$class/zoe/"
(cd "$results/submissions" && md5sum ./*.json) >"$work/graded.md5"
{
  cat "$work/site.conf"
  echo "COURSE_TIME_GRADE=3"
  echo "COURSE_GRADE_COMMAND=$here/slow_grader.sh"
} >"$work/slow.conf"
export COURSE_SLOW_GRADER_PIDS=$work/slow.pids
# grade-task.sbatch's own warning (--signal=B:TERM@120) would come at once with a limit
# this short: the warning is moved to 10 s before the 3-minute limit, as a backstop.
answer=$(COURSE_SITE_CONFIG=$work/slow.conf "$repo/slurm/grade-class" "$class" "$results" --signal=B:TERM@10 "${cpu_only[@]}") ||
  fail "slurm/grade-class (late submission): $answer"
echo "$answer"
grep -q "7 submission(s), 6 already graded.*1 to grade" <<<"$answer" || fail "not exactly the late submission to grade"
slow_array=$(submitted_id "Submitted array job" "$answer")
slow_collect=$(submitted_id "Submitted collecting job" "$answer")
grep -q "\\[6\\]" <<<"$answer" || fail "the array is not task 6 alone"
# The SIGTERM that a time limit's warning (sbatch --signal=B:TERM@...) sends, sent by the
# test once the stand-in grader runs: Slurm checks its signal times only every few tens of
# seconds, so on a loaded machine a --signal warning arrived as the task started, before
# the grader did, and the test could not tell a stopped grading from one never started.
# The limit and its own warning stay as the backstop.
# Each wait is for a state, with its own deadline: the task may stay pending until one of
# Slurm's scheduling passes (every 60 s at most here); once it runs, its grader starts
# within seconds; a task that ends first shows its log.
slow_task=${slow_array}_6
slow_log=$results/logs/task-${slow_array}_6.log
shown_on_failure+=("$slow_log")
pending_deadline=$((SECONDS + 150))
running_deadline=""
until [[ -s $work/slow.pids ]]; do
  state=$(job_state "$slow_task")
  case $state in
    PENDING | CONFIGURING | "")
      # "": scontrol did not answer this time; asked again until the deadline.
      ((SECONDS < pending_deadline)) ||
        fail "task $slow_task did not start within 150 s of its submission (state '${state:-no answer}'):" \
          "$(scontrol show job "$slow_task" -o 2>&1 | grep -o 'Reason=[^ ]*')"
      ;;
    RUNNING)
      [[ -n $running_deadline ]] || running_deadline=$((SECONDS + 60))
      ((SECONDS < running_deadline)) ||
        fail "task $slow_task has run for 60 s and its stand-in grader has not written its pid to $work/slow.pids"
      ;;
    *)
      [[ -s $work/slow.pids ]] && break  # it wrote its pid, then ended: the checks below say what went wrong
      fail "task $slow_task ended ($state) before its stand-in grader started"
      ;;
  esac
  sleep 1
done
scancel --batch --signal=TERM "$slow_task" || fail "scancel could not signal task $slow_task"
wait_for_queue "the time-limited grading" 240
shown_on_failure+=("$results/logs/collect-$slow_collect.log")
expect_in "$slow_log" "^\\*\\*\\* STOPPED: this job received SIGTERM" "time-limited task: its log marks the stop"
expect_in "$slow_log" "^RESULT: INCOMPLETE: the grading of zoe was stopped by SIGTERM" "time-limited task: RESULT: INCOMPLETE"
expect_in "$results/incomplete/zoe.txt" "^zoe: NOT GRADED: the task was stopped by SIGTERM" \
  "time-limited task: incomplete/zoe.txt says why"
expect_in "$results/not_graded.txt" "^zoe	.*stopped by SIGTERM" "not_graded.txt lists zoe"
expect_in "$results/logs/collect-$slow_collect.log" "^== NOT GRADED \\(1\\)" "collecting job: lists 1 not graded"
expect_in "$results/logs/collect-$slow_collect.log" "^  zoe: NOT GRADED" "collecting job: names zoe"
expect_exit "$slow_collect" 1 "collecting job with a submission not graded"
expect_not_in "$gradebook" "^zoe," "gradebook: zoe absent, not silently zero"
expect_in "$results/class.html" '<tr><td class="name">zoe</td><td>all</td><td class="bad">no result</td>' \
  "class report: zoe listed as not graded, in red"
[[ -s $work/slow.pids ]] || fail "the stand-in grader never ran"
while read -r pid; do
  ! kill -0 "$pid" 2>/dev/null || fail "the stand-in grader $pid outlived its stopped task"
done <"$work/slow.pids"
ok "the stopped task's grader is gone"

# --- 4. the same grading again: only the missing submission ----------------------------------
step "the grading submitted again: only zoe is graded"
answer=$("$repo/slurm/grade-class" "$class" "$results" "${cpu_only[@]}") || fail "slurm/grade-class (again): $answer"
echo "$answer"
grep -q "7 submission(s), 6 already graded.*1 to grade" <<<"$answer" || fail "the second run does not grade zoe alone"
again_array=$(submitted_id "Submitted array job" "$answer")
again_collect=$(submitted_id "Submitted collecting job" "$answer")
refused=$("$repo/slurm/grade-class" "$class" "$results" "${cpu_only[@]}" 2>&1) && fail "a second grading was accepted while one is queued"
grep -q "still in the queue" <<<"$refused" || fail "no clear refusal while a grading is queued: $refused"
ok "a grading into the same results is refused while one is queued"
wait_for_queue "the second grading" 300
shown_on_failure+=("$results/logs/task-${again_array}_6.log" "$results/logs/collect-$again_collect.log")
expect_in "$results/logs/task-${again_array}_6.log" "^RESULT: GRADED: zoe" "second grading: zoe graded"
[[ $(find "$results/logs" -name "task-${again_array}_*.log" | wc -l) == 1 ]] || fail "the second array ran more than one task"
(cd "$results/submissions" && md5sum --quiet -c "$work/graded.md5") || fail "results of already graded students changed"
ok "the 6 earlier results are untouched"
expect_in "$results/logs/collect-$again_collect.log" "^== every submission is graded" "collecting job: all 7 graded"
expect_exit "$again_collect" 0 "collecting job after the second grading"
[[ ! -e $results/not_graded.txt && ! -e $results/incomplete/zoe.txt ]] || fail "not_graded.txt or incomplete/zoe.txt remains"
if [[ $gpu == no ]]; then
  expect_in "$gradebook" "^zoe,,,22,$skipped_line$" "gradebook: zoe now present"
else
  expect_in "$gradebook" "^zoe,[0-9.]+,[1-9][0-9.]*,22,ok$" "gradebook: zoe now present"
fi
[[ $(wc -l <"$gradebook") == 8 ]] || fail "gradebook: expected a header and 7 students"

answer=$("$repo/slurm/grade-class" "$class" "$results" "${cpu_only[@]}") || fail "slurm/grade-class (third): $answer"
grep -q "Every submission already has a result" <<<"$answer" || fail "a third run should only rebuild the reports: $answer"
grep -q "Submitted array job" <<<"$answer" && fail "a third run submitted an array"
last_collect=$(submitted_id "Submitted collecting job" "$answer")
wait_for_queue "the reports rebuilt" 120
expect_exit "$last_collect" 0 "collecting job alone"

step "PASS: students' jobs, OpenMP, interactive, and a class of 7 graded through the array and the collecting job"
