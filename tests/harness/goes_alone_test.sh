#!/usr/bin/env bash
# A timed case holds the GPU alone only from the moment its program starts to measure
# (common/course/check/gpu_lock.hpp, protocol.hpp's "alone"), without root or a GPU
# (tests/CMakeLists.txt, harness.goes_alone): the fake check with a timed second case,
# run with --gpu-lock and the lock's log on, passes with full marks, and the log shows
#   - the untimed case: one shared hold, never alone;
#   - the timed case: a shared hold (its preparation), then an alone hold (from the
#     program's "alone" to the case's end).
#
#   goes_alone_test.sh TIMED_CHECK PROGRAM
set -u
check=$1 program=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

lock=$work/gpu.lock
: >"$lock.log"  # its existence turns the log on
"$check" --program "$program" --variant correct --gpu-lock "$lock" \
  --expect pass --expect-score 10 >"$work/check.txt" 2>&1 \
  || { cat "$work/check.txt"; fail "the check did not pass the correct program with full marks"; }

# The log's lines: mode, waited, held, asked at, program, case (tab-separated).
holds_of() { awk -F'\t' -v c="$1" '$6 == c { printf "%s ", $1 }' "$lock.log"; }
echo "log:"; cat "$lock.log"
untimed=$(holds_of small_sum)
timed=$(holds_of large_sum_timed)
[ "$untimed" = "shared " ] || fail "the untimed case held the GPU as '${untimed}', not once shared"
[ "$timed" = "shared alone " ] || fail "the timed case held the GPU as '${timed}', not shared then alone"
echo "PASS: the untimed case shared the GPU; the timed case shared it, then had it alone"
