#!/usr/bin/env bash
# The compile and link launcher of the known-wrong variants (RULE_LAUNCH_COMPILE and
# RULE_LAUNCH_LINK, cmake/CourseExercise.cmake): runs the command after TARGET. When it
# succeeds, what it printed (the warnings a mutant provokes on purpose) comes out with each
# line tagged "[log only] TARGET: ", which tools/course quiet-run writes to the build log and
# not to the console; when it fails, its output comes out untagged, the errors visible.
#
#   tools/variant_build.sh TARGET COMMAND...
set -u
target=$1
shift
output=$("$@" 2>&1)
status=$?
if [ -n "$output" ]; then
  if [ "$status" -eq 0 ]; then
    printf '%s\n' "$output" | sed "s|^|[log only] $target: |"
  else
    printf '%s\n' "$output" >&2
  fi
fi
exit "$status"
