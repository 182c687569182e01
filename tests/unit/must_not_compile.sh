#!/usr/bin/env bash
# Proves that a mistake is caught at compile time:
#   must_not_compile.sh SOURCE SWITCH:WORD... -- CXX INCLUDE_DIR...
# compiles SOURCE (syntax only) as it is, which must succeed, then once with each SWITCH
# defined, which must fail with the compiler naming WORD (an extended regular expression),
# so that a failure for any other reason does not count. Used by unit.typed_request_misspelt
# (a misspelt request or parameter) and unit.english_only_message (a hint with no French).
set -u
source_file=$1
shift
mistakes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do mistakes+=("$1"); shift; done
shift
cxx=$1
shift
includes=()
for folder in "$@"; do includes+=(-I "$folder"); done
compile() { "$cxx" -std=c++17 -fsyntax-only "${includes[@]}" "$@" "$source_file" 2>&1; }

if ! output=$(compile); then
  echo "FAIL: $(basename "$source_file") does not compile as it is:"
  echo "$output" | head -n 20
  exit 1
fi
echo "ok: $(basename "$source_file") compiles as it is"

status=0
# switch : the word the compiler must name
for mistake in "${mistakes[@]}"; do
  switch=${mistake%%:*}
  word=${mistake#*:}
  if output=$(compile -D"$switch"); then
    echo "FAIL: $switch compiled: it must be a compile error"
    status=1
  elif ! grep -Eq "error:.*($word)" <<<"$output"; then
    echo "FAIL: $switch did not compile, but not for its mistake ('$word' not in the error):"
    echo "$output" | grep error: | head -n 5
    status=1
  else
    echo "ok: $switch is a compile error: $(grep -m1 error: <<<"$output")"
  fi
done
exit $status
