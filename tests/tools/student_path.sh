#!/usr/bin/env bash
# The students' path, end to end: `make NN` builds exercise NN's skeleton and
# `make check-NN` runs its check, with nvcc alone (no CMake), into a scratch folder.
#
#   student_path.sh build NN   the program compiles, and again after the student's file
#                              changed without recompiling the course's objects (CPU-only test)
#   student_path.sh check NN   the untouched skeleton's check fails case by case
#                              (exit 77, skipped, where there is no GPU)
#   student_path.sh check-fr NN  the same with make check-NN LANG=fr: its failures, hints and
#                              score in French (issue 41); without a GPU, the skip in French
#                              and exit 77
set -u
mode=$1
number=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export BUILD_DIR=$scratch
# English unless a mode asks for French, whatever the caller's locale.
export COURSE_LANG=en

case $mode in
  build)
    make -s -C "$root" "$number" || { echo "FAIL: make $number did not build"; exit 1; }
    program=$(ls "$scratch"/"$number"_* 2>/dev/null | head -n 1)
    [ -x "$program" ] || { echo "FAIL: make $number left no program in $scratch"; exit 1; }
    echo "built $program"
    # A fix to the student's file recompiles that file alone: the course's objects are reused.
    touch -d '2000-01-01' "$program"
    again=$(make -C "$root" "$number" 2>&1) || { echo "$again"; echo "FAIL: make $number did not build again"; exit 1; }
    if grep -E -- ' -c [^ ]*(harness/|program_main)' <<<"$again"; then
      echo "FAIL: make $number recompiled the course's own files (above), which had not changed"; exit 1
    fi
    grep -q "the course's objects of exercise $number are up to date" <<<"$again" || { echo "$again"; echo "FAIL: no course object was reused"; exit 1; }
    echo "built again after a change to the student's file: the course's objects were reused"
    ;;
  check)
    output=$(make -s -C "$root" "check-$number" 2>&1)
    status=$?
    echo "$output"
    if grep -q "SKIPPED: check" <<<"$output"; then
      # Without a device the skip comes before the check is compiled (issue 45: 137 s
      # spent compiling a check that could only say SKIPPED), after the student's file is.
      if grep -q "harness/check.cpp" <<<"$output"; then
        echo "FAIL: the check was compiled on a machine that cannot run it"; exit 1
      fi
      program=$(ls "$scratch"/"$number"_* 2>/dev/null | head -n 1)
      [ -x "$program" ] || { echo "FAIL: the student's program was not built before the skip"; exit 1; }
      exit 77
    fi
    # make reports a failing check as its own error status (2); a skip (77) ends quietly.
    [ "$status" -ne 0 ] || { echo "FAIL: the skeleton's check passed"; exit 1; }
    grep -q "^  FAIL" <<<"$output" || { echo "FAIL: no failing case was listed"; exit 1; }
    grep -q "hint:" <<<"$output" || { echo "FAIL: no hint was printed"; exit 1; }
    grep -q "^score: 0/" <<<"$output" || { echo "FAIL: the skeleton scored points"; exit 1; }
    echo "the skeleton's check fails case by case, with hints, as it should"
    ;;
  check-fr)
    output=$(make -s -C "$root" "check-$number" LANG=fr 2>&1)
    status=$?
    echo "$output"
    if grep -q "^SKIPPED:" <<<"$output"; then
      grep -q "^SKIPPED: le correcteur $number .* demande un GPU CUDA" <<<"$output" ||
        { echo "FAIL: the skip is not in French"; exit 1; }
      grep -q "^--- l'exercice $number n'a pas été vérifié" <<<"$output" ||
        { echo "FAIL: make's closing line is not in French"; exit 1; }
      echo "the skip is in French; the failing cases need a GPU"
      exit 77
    fi
    [ "$status" -ne 0 ] || { echo "FAIL: the skeleton's check passed"; exit 1; }
    grep -q "^  FAIL" <<<"$output" || { echo "FAIL: no failing case was listed"; exit 1; }
    if grep -q "hint:" <<<"$output"; then echo "FAIL: a hint is in English"; exit 1; fi
    grep -q "^ *piste" <<<"$output" || { echo "FAIL: no hint (piste) was printed"; exit 1; }
    grep -q "^note.*: 0/.* cas réussis sur" <<<"$output" || { echo "FAIL: the score line is not in French"; exit 1; }
    grep -q "^== correcteur $number" <<<"$output" || { echo "FAIL: the heading is not in French"; exit 1; }
    echo "the skeleton's check fails case by case, in French, as make check-$number LANG=fr asks"
    ;;
  *)
    echo "usage: student_path.sh build|check|check-fr NN" >&2
    exit 2
    ;;
esac
