#!/bin/sh
# expect_skip.sh TEXT COMMAND [ARGS...]: runs the command and passes when it exits 77 (the
# course's "skipped", which CTest would otherwise report as a skip, not as a proof) and
# printed TEXT. Its output is shown either way. EXPECT_STATUS=N expects exit status N instead
# (1: a verdict of FAIL that a test proves by its message).
expected=${EXPECT_STATUS:-77}
text=$1
shift
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$expected" ]; then
  echo "expect_skip.sh: exit status $status, expected $expected"
  exit 1
fi
case $output in
  *"$text"*) exit 0 ;;
esac
echo "expect_skip.sh: the output does not contain '$text'"
exit 1
