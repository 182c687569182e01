#!/usr/bin/env bash
# A stand-in for tools/course grade in the Slurm test (COURSE_GRADE_COMMAND): an array
# task (COURSE_STUDENT set) never finishes, so that it reaches its time limit; the
# collecting job's --reports-only goes to the real grader. Its pid goes to
# $COURSE_SLOW_GRADER_PIDS, so that the test can check that nothing outlives the task.
#
#   COURSE_GRADE_COMMAND="tests/slurm/slow_grader.sh" slurm/grade-class ...
set -euo pipefail
if [[ -z ${COURSE_STUDENT:-} ]]; then
  exec python3 "$(dirname "${BASH_SOURCE[0]}")/../../tools/course" grade "$@"
fi
if [[ -n ${COURSE_SLOW_GRADER_PIDS:-} ]]; then
  echo "$$" >>"$COURSE_SLOW_GRADER_PIDS"
fi
echo "slow_grader.sh: grading $COURSE_STUDENT forever (until the time limit)"
exec sleep 3600
