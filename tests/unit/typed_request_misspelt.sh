#!/usr/bin/env bash
# Proves that the typed requests catch a misspelling at compile time:
#   typed_request_misspelt.sh CXX INCLUDE_DIR...
# compiles tests/unit/typed_request_misspelt.cpp (syntax only) as it is, which must
# succeed, then with each mistake switched on, which must fail with the compiler naming
# the misspelt word (so that a failure for any other reason does not count).
set -u
cxx=$1
shift
includes=()
for folder in "$@"; do includes+=(-I "$folder"); done
source_file="$(dirname "${BASH_SOURCE[0]}")/typed_request_misspelt.cpp"
compile() { "$cxx" -std=c++17 -fsyntax-only "${includes[@]}" "$@" "$source_file" 2>&1; }

if ! output=$(compile); then
  echo "FAIL: the correct requests do not compile:"
  echo "$output" | head -n 20
  exit 1
fi
echo "ok: the correct requests compile"

status=0
# switch : the word the compiler must name
for mistake in MISSPELT_REQUEST:smu MISSPELT_PARAMETER:count EXTRA_PARAMETER:'initializer|Sum'; do
  switch=${mistake%%:*}
  word=${mistake#*:}
  if output=$(compile -D"$switch"); then
    echo "FAIL: $switch compiled: a misspelt request or parameter must be a compile error"
    status=1
  elif ! grep -Eq "error:.*($word)" <<<"$output"; then
    echo "FAIL: $switch did not compile, but not for the misspelling ('$word' not in the error):"
    echo "$output" | grep error: | head -n 5
    status=1
  else
    echo "ok: $switch is a compile error: $(grep -m1 error: <<<"$output")"
  fi
done
exit $status
