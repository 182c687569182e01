#!/usr/bin/env bash
# What a run starts ends with it, and a run holds the GPU lock no longer than its limit,
# without root (tests/CMakeLists.txt, harness.process_end):
#   1. a program whose code double-forks a writer that calls setsid, keeps the output
#      pipe open and appends to a file every 20 ms for a minute: the check ends within
#      seconds, with full marks, and the file stops growing;
#   2. a program that hangs in every case, checked with --gpu-lock: a timed run that asks
#      for the GPU meanwhile waits for the case in progress (at most its limit), not
#      for the whole check.
#
#   process_end_test.sh CHECK WRITER_PROGRAM HANGING_PROGRAM LOCK_TEST
set -u
check=$1 writer=$2 hangs=$3 lock_test=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
now_ms() { date +%s%3N; }

# --- 1. a detached writer ------------------------------------------------------------
export COURSE_TEST_WRITER_FILE=$work/writer.txt
start=$(now_ms)
"$check" --program "$writer" --variant detached_writer --expect pass --expect-score 10 \
  || fail "the check of a correct program with a detached writer did not pass"
took=$(( $(now_ms) - start ))
echo "check with a detached writer: $took ms"
(( took < 10000 )) || fail "the check waited for the writer: $took ms"
[ -s "$COURSE_TEST_WRITER_FILE" ] || fail "the writer never wrote: the test proves nothing"
size=$(stat -c %s "$COURSE_TEST_WRITER_FILE")
sleep 0.5
[ "$(stat -c %s "$COURSE_TEST_WRITER_FILE")" = "$size" ] \
  || fail "the writer still writes after the check ended"
echo "ok: the writer ended with the check ($size bytes written)"

# --- 2. the GPU lock is held per run ---------------------------------------------------
# Each case of the hanging program runs until its limit, 2 s (20 s x 0.1), and holds the
# lock in shared mode meanwhile; the check takes two limits.
lock=$work/gpu.lock
start=$(now_ms)
"$check" --program "$hangs" --variant hangs --gpu-lock "$lock" --timeout-scale 0.1 >"$work/hangs.txt" &
check_pid=$!
sleep 0.5
waited=$("$lock_test" --exclusive-wait "$lock") || fail "could not take the lock"
wait "$check_pid"
total=$(( $(now_ms) - start ))
echo "a timed run waited $waited ms for the GPU; the hanging check took $total ms"
(( total >= 3500 )) || fail "the hanging check took $total ms: its cases did not hang"
(( waited >= 500 )) || fail "the timed run did not wait for the case in progress: the lock is not taken"
(( waited <= 2500 )) || fail "the timed run waited $waited ms: more than the one run in progress"
echo "ok: a hanging program delays a timed run by one run's limit at most"
