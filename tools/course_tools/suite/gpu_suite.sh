#!/usr/bin/env bash
# The GPU suite: on a machine with a GPU, configure for that GPU, build every
# variant, run every test (compute-sanitizer runs included) and print a summary
# table last. Logs go to $LOG_DIR (default build/gpu/logs). make gpu-suite runs it
# (SUITE_ARGS=... are its arguments):
#
#   gpu_suite.sh                     # everything
#   gpu_suite.sh -R 03_              # extra arguments go to ctest
#   CONFIGURE_ARGS=-DCOURSE_ONLY=0[5-8]_ gpu_suite.sh   # build a subset only
#   DEMOS="05 06" gpu_suite.sh       # also run these exercises' demos (reference
#                                    # solutions) before the tests: $LOG_DIR/demo-NN.txt
#   SUITE_SECONDS=570 gpu_suite.sh   # a deadline, counted from the start: the tests
#                                    # still running then are stopped (Timeout), those not
#                                    # started are listed, and the summary is printed all
#                                    # the same (a lent machine's call has a time limit)
#   SUITE_RESUME=1 gpu_suite.sh      # only the tests the last run left unfinished (not
#                                    # started, failed, stopped at its deadline): the run
#                                    # writes their expression to $LOG_DIR/unfinished.regex
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# Without a GPU every GPU test would only skip, after a full build: refuse at once, before
# anything is written, as make report does (tools/course cuda-device asks the driver itself).
if ! absent=$(python3 "$root/tools/course" cuda-device 2>&1); then
  echo "gpu_suite: no GPU visible here (${absent:-the CUDA driver could not be asked}): nothing was" \
    "built or run; run make gpu-suite on a GPU node (on a cluster: slurm/interactive make gpu-suite)" >&2
  exit 2
fi
build=${BUILD_DIR:-$root/build/gpu}
logs=${LOG_DIR:-$build/logs}
jobs=${JOBS:-$(nproc)}
# The checks share the GPU through its lock (timed cases alone, the rest side by side),
# so the tests run as many at once as the machine has cores.
test_jobs=${TEST_JOBS:-$(nproc)}
read -r -a configure_args <<<"${CONFIGURE_ARGS:-}"
mkdir -p "$logs"
# Resuming: the last run's unfinished tests, read before this run writes its own lists.
if [ -n "${SUITE_RESUME:-}" ]; then
  if [ ! -s "$logs/unfinished.regex" ]; then
    echo "gpu_suite: SUITE_RESUME=1, but the last run left no unfinished test ($logs/unfinished.regex):" \
      "nothing to resume; run without SUITE_RESUME for the whole suite" >&2
    exit 2
  fi
  resume_regex=$(cat "$logs/unfinished.regex")
  echo "gpu_suite: resuming the $(tr '|' '\n' <<<"$resume_regex" | wc -l) test(s) the last run left unfinished"
  set -- -R "$resume_regex" "$@"
fi
suite_start=$(date +%s)
# Every hold of the GPU lock is logged while this log exists (gpu_lock.hpp): the summary
# at the end says how long timed runs kept the GPU alone.
gpu_lock=${COURSE_GPU_LOCK:-/tmp/course-gpu-all.lock}
: >"$gpu_lock.log" && chmod 666 "$gpu_lock.log"
# How busy the processors and the GPU were, every 5 s: where the suite's time goes.
vmstat -n 5 >"$logs/vmstat.log" 2>&1 &
vmstat_pid=$!
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 5 >"$logs/gpu-use.csv" 2>&1 &
gpu_use_pid=$!
trap 'kill "$vmstat_pid" "$gpu_use_pid" 2>/dev/null; mv -f "$gpu_lock.log" "$logs/gpu-lock.log" 2>/dev/null' EXIT

if ! nvidia-smi -L >"$logs/nvidia-smi.txt" 2>&1; then
  echo "gpu_suite: no GPU visible (nvidia-smi -L failed); the GPU tests would only skip" >&2
fi
cat "$logs/nvidia-smi.txt"

echo "== configure ($build)"
cmake -S "$root" -B "$build" -DCOURSE_MODE=instructor -DCOURSE_GPU_LOCK="$gpu_lock" "${configure_args[@]}" >"$logs/configure.log" 2>&1 \
  || { tail -n 30 "$logs/configure.log"; echo "gpu_suite: configure failed" >&2; exit 1; }
grep -E "CUDA architectures|compute-sanitizer" "$logs/configure.log"

echo "== build (-j $jobs)"
start=$(date +%s)
cmake --build "$build" -j "$jobs" >"$logs/build.log" 2>&1 \
  || { grep -E -B2 -A8 "error" "$logs/build.log" | head -n 60; echo "gpu_suite: build failed" >&2; exit 1; }
echo "built in $(( $(date +%s) - start )) s"

# The demos print the figures the statements ask about (tables of GB/s, GFLOP/s, the
# ratios to the ceilings measured in the same run); they run alone on the GPU.
for number in ${DEMOS:-}; do
  for program in "$build"/exercises/"${number}"_*/ex"${number}"_solution; do
    [ -x "$program" ] || { echo "gpu_suite: no demo program for exercise $number" >&2; continue; }
    echo "== demo $number ($(basename "$program"))"
    start=$(date +%s)
    timeout 300 "$program" >"$logs/demo-$number.txt" 2>&1
    echo "demo $number: exit $?, $(( $(date +%s) - start )) s, $logs/demo-$number.txt"
  done
done

echo "== test (-j $test_jobs)"
start=$(date +%s)
deadline_args=()
deadline_passed=false
if [ -n "${SUITE_SECONDS:-}" ]; then
  deadline=$(( suite_start + SUITE_SECONDS ))
  # ctest stops every test at this time of day and starts no more; its JUnit file then
  # holds the tests that started. A time already past would mean tomorrow to ctest.
  deadline_args=(--stop-time "$(date -d "@$deadline" +%H:%M:%S)")
  [ "$(date +%s)" -lt "$deadline" ] || deadline_passed=true
fi
if $deadline_passed; then
  echo "gpu_suite: the deadline (SUITE_SECONDS=$SUITE_SECONDS) passed before the tests" >"$logs/ctest.log"
  echo '<testsuite name="not started"/>' >"$logs/junit.xml"
  ctest_status=1
else
  # The JUnit file keeps what every test printed (the catalog's timeline among them).
  ctest --test-dir "$build" -j "$test_jobs" --output-on-failure --output-junit "$logs/junit.xml" \
    --test-output-size-passed 200000 --test-output-size-failed 200000 \
    "${deadline_args[@]}" "$@" >"$logs/ctest.log" 2>&1
  ctest_status=$?
fi
echo "tested in $(( $(date +%s) - start )) s"
grep -E "tests passed|Total Test time|deadline" "$logs/ctest.log"
# Every test this run was asked for; those it did not finish, for SUITE_RESUME=1.
ctest --test-dir "$build" -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort >"$logs/all-tests.txt"
if python3 "$root/tools/course" suite-unfinished "$logs/all-tests.txt" "$logs/junit.xml" >"$logs/unfinished.regex"; then
  echo "gpu_suite: $(tr '|' '\n' <"$logs/unfinished.regex" | wc -l) test(s) left unfinished" \
    "(not started, failed or stopped): SUITE_RESUME=1 runs those alone"
else
  rm -f "$logs/unfinished.regex"
fi
if [ -n "${SUITE_SECONDS:-}" ] && [ "$(date +%s)" -ge "$deadline" ]; then
  sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) .*$/\1/p' "$logs/ctest.log" | sort -u >"$logs/ended-tests.txt"
  comm -23 "$logs/all-tests.txt" "$logs/ended-tests.txt" >"$logs/not-started.txt"
  echo "gpu_suite: the deadline (SUITE_SECONDS=$SUITE_SECONDS) came first: the tests still" \
    "running then count as failed (Timeout), and $(wc -l <"$logs/not-started.txt") test(s) did not start"
  sed 's/^/  not started: /' "$logs/not-started.txt"
fi
python3 "$root/tools/course" gpu-lock-summary "$gpu_lock.log"
python3 "$root/tools/course" test-summary "$logs/junit.xml"
summary_status=$?
echo "gpu_suite: $(( $(date +%s) - suite_start )) s in all, configure and build included"
[ "$ctest_status" -eq 0 ] && [ "$summary_status" -eq 0 ]
