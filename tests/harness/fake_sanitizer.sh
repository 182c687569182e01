#!/bin/sh
# A stand-in for compute-sanitizer, for the harness tests of the cases that run under a
# tool of their own (judge.hpp's under_tool): it takes compute-sanitizer's options, runs
# the program, and when its --tool is the one named by FAKE_SANITIZER_REPORTS, reports a
# hazard at the program's end, as the real tool reports what it found, with its
# --error-exitcode.
tool=memcheck
error_exit=0
while [ $# -gt 0 ]; do
  case $1 in
    --tool) tool=$2; shift 2 ;;
    --error-exitcode) error_exit=$2; shift 2 ;;
    --*) shift 2 ;;
    *) break ;;
  esac
done
echo "========= COMPUTE-SANITIZER"
"$@"
status=$?
if [ "$tool" = "${FAKE_SANITIZER_REPORTS:-}" ]; then
  echo "========= Error: Race reported between Write access at fake_kernel()+0x10 in fake.cu:1"
  echo "=========     and Read access at fake_kernel()+0x20 in fake.cu:2 [4 hazards]"
  echo "========= $tool: 1 hazard displayed (1 error, 0 warnings)"
  echo "========= ERROR SUMMARY: 1 error"
  exit "$error_exit"
fi
echo "========= ERROR SUMMARY: 0 errors"
exit $status
