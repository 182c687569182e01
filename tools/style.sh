#!/usr/bin/env bash
# The course's own style, checked or applied (.clang-format, .editorconfig):
#   - C++/CUDA (.cu .cuh .cpp .hpp .h .c in common/, exercises/, solutions/, tests/, tools/,
#     slurm/examples/, slides/examples/): laid out exactly as clang-format 14 lays them out;
#   - Python (tools/ with its launcher tools/course, tests/, slurm/, exercises/, solutions/):
#     pyflakes finds nothing;
#   - every text file: no trailing whitespace (Markdown, .mutant and .edits files
#     excepted), no tab indentation outside Makefiles, a final newline.
#
#   tools/style.sh [--check] [PATH...]   report; exit 0 clean, 1 findings, 77 a tool missing
#   tools/style.sh --fix [PATH...]       apply clang-format and the whitespace rules, then check
#
# PATHs (files or folders) limit both to the files under them. The layout is clang-format
# 14's, the version of Debian 12 and so of CI: other major versions lay some code out
# differently, so with one of those the C++ part is skipped (exit 77, or 1 with other
# findings) instead of failing spuriously; CLANG_FORMAT=/path/to/clang-format-14 picks a
# binary. Nothing but clang-format -i and the whitespace fixes ever writes a file.
set -euo pipefail
export LC_ALL=C
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

readonly wanted_major=14
mode=check
paths=()
for arg in "$@"; do
  case $arg in
    --check) mode=check ;;
    --fix) mode=fix ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "style: unknown option $arg (--check, --fix)" >&2; exit 2 ;;
    *)
      [[ -e $arg ]] || { echo "style: no such file or folder: $arg" >&2; exit 2; }
      paths+=("$(realpath --relative-to="$repo" "$arg")")
      ;;
  esac
done

# --- the files ------------------------------------------------------------------
# The repository's files, without build outputs: git's view where there is one (tracked
# and new files, ignored ones left out), else every file outside the ignored folders.
list_files() {
  if [[ $(git rev-parse --show-toplevel 2>/dev/null) == "$repo" ]]; then
    git ls-files --cached --others --exclude-standard
  else
    find . \( -name .git -o -name build -o -name logs -o -name __pycache__ -o -name .gl \
              -o -name .whl \) -prune -o -type f -print | sed 's|^\./||'
  fi | sort -u | while IFS= read -r file; do
    [[ -f $file ]] || continue
    # CMake build folders by other names than build/ (CMakeCache.txt at their top).
    [[ $file == */* && -f ${file%%/*}/CMakeCache.txt ]] && continue
    printf '%s\n' "$file"
  done
}
under_paths() {
  if ((${#paths[@]} == 0)); then cat; return; fi
  local file path
  while IFS= read -r file; do
    for path in "${paths[@]}"; do
      if [[ $path == . || $file == "$path" || $file == "$path"/* ]]; then
        printf '%s\n' "$file"
        break
      fi
    done
  done
}
# The arguments one a line, or NUL-terminated; nothing at all for none.
lines() { if (($#)); then printf '%s\n' "$@"; fi; }
nul_list() { if (($#)); then printf '%s\0' "$@"; fi; }

mapfile -t all_files < <(list_files | under_paths)
mapfile -t cxx_files < <(lines "${all_files[@]}" |
  grep -E '^(common|exercises|solutions|tests|tools|slurm/examples|slides/examples)/.*\.(cu|cuh|cpp|hpp|h|c)$' || true)
mapfile -t python_files < <(lines "${all_files[@]}" |
  grep -E '^(tools|tests|slurm|exercises|solutions)/.*\.py$|^tools/course$' || true)

failed=0
skipped=()
finding() { failed=1; echo "$*"; }

# --- C++/CUDA: clang-format 14 ---------------------------------------------------
clang_format=${CLANG_FORMAT:-}
if [[ -z $clang_format ]]; then
  for candidate in "clang-format-$wanted_major" clang-format; do
    if command -v "$candidate" >/dev/null 2>&1; then clang_format=$candidate; break; fi
  done
fi
cxx_ready=no
if [[ -z $clang_format ]] || ! command -v "$clang_format" >/dev/null 2>&1; then
  skipped+=("C++ layout: clang-format is not installed (Debian: apt-get install clang-format; .ci/run does it)")
else
  version=$("$clang_format" --version)
  major=$(sed -nE 's/.*version ([0-9]+)\..*/\1/p' <<<"$version")
  if [[ $major != "$wanted_major" ]]; then
    skipped+=("C++ layout: $clang_format is version ${major:-unknown} ($version); the course's layout is clang-format $wanted_major's (Debian 12): set CLANG_FORMAT=/path/to/clang-format-$wanted_major")
  else
    cxx_ready=yes
  fi
fi

if [[ $cxx_ready == yes && $mode == fix && ${#cxx_files[@]} -gt 0 ]]; then
  nul_list "${cxx_files[@]}" | xargs -0 -r -n 16 "$clang_format" -i --style=file
  echo "style: clang-format $wanted_major applied to ${#cxx_files[@]} C++/CUDA files"
fi

# --- whitespace (.editorconfig) ----------------------------------------------------
# Text files (grep -I leaves binary ones out); empty files need no newline.
mapfile -t text_files < <(nul_list "${all_files[@]}" | xargs -0 -r grep -Il '' || true)
mapfile -t trimmed_files < <(lines "${text_files[@]}" | grep -Ev '\.(md|mutant|edits)$' || true)
mapfile -t untabbed_files < <(lines "${text_files[@]}" | grep -Ev '(^|/)(Makefile|[^/]*\.mk)$' || true)
if [[ $mode == fix ]]; then
  nul_list "${trimmed_files[@]}" | xargs -0 -r grep -l '[[:space:]]$' |
    while IFS= read -r file; do sed -i 's/[[:space:]]*$//' "$file"; done || true
  for file in "${text_files[@]}"; do
    [[ -z $(tail -c 1 "$file") ]] || echo >>"$file"
  done
fi

# --- check -------------------------------------------------------------------------
if [[ $cxx_ready == yes && ${#cxx_files[@]} -gt 0 ]]; then
  # Files that clang-format would change: one run names them all (file:line:col: ...).
  status=0
  output=$("$clang_format" --dry-run --Werror --style=file "${cxx_files[@]}" 2>&1) || status=$?
  mapfile -t differ < <(grep -oE '^[^ :]+:[0-9]+:[0-9]+: (error|warning):' <<<"$output" |
    cut -d: -f1 | sort -u)
  if ((status != 0 && ${#differ[@]} == 0)); then
    finding "C++ layout: $clang_format failed (exit status $status):"
    printf '  %s\n' "${output//$'\n'/$'\n'  }"
  fi
  if ((${#differ[@]})); then
    finding "C++ layout: ${#differ[@]} of ${#cxx_files[@]} files differ from clang-format $wanted_major's layout (tools/style.sh --fix lays them out):"
    printf '  %s\n' "${differ[@]}"
    for file in "${differ[@]:0:3}"; do
      echo "  $file, its first changes:"
      "$clang_format" --style=file "$file" | diff -u --label "$file" --label "$file (formatted)" \
        "$file" - | sed -n '3,14s/^/      /p' || true
    done
  elif ((status == 0)); then
    echo "C++ layout: ${#cxx_files[@]} files as clang-format $wanted_major lays them out"
  fi
fi

pyflakes=()
if command -v pyflakes3 >/dev/null 2>&1; then
  pyflakes=(pyflakes3)
elif command -v pyflakes >/dev/null 2>&1; then
  pyflakes=(pyflakes)
elif python3 -c 'import pyflakes' >/dev/null 2>&1; then
  pyflakes=(python3 -m pyflakes)
fi
if ((${#pyflakes[@]} == 0)); then
  skipped+=("Python: pyflakes is not installed (Debian: apt-get install pyflakes3; .ci/run does it)")
elif ((${#python_files[@]})); then
  if report=$("${pyflakes[@]}" "${python_files[@]}" 2>&1); then
    echo "Python: pyflakes finds nothing in ${#python_files[@]} files"
  else
    finding "Python: pyflakes finds (fix by hand):"
    printf '  %s\n' "${report//$'\n'/$'\n'  }"
  fi
fi

whitespace=()
mapfile -t -O 0 whitespace < <(
  nul_list "${trimmed_files[@]}" | xargs -0 -r grep -Hn '[[:space:]]$' |
    sed -E 's/^([^:]*:[0-9]+):.*/\1: trailing whitespace/' || true
  nul_list "${untabbed_files[@]}" | xargs -0 -r grep -Hn $'^\t' |
    sed -E 's/^([^:]*:[0-9]+):.*/\1: indented with a tab/' || true
  for file in "${text_files[@]}"; do
    [[ -z $(tail -c 1 "$file") ]] || echo "$file: no newline at the end"
  done
)
if ((${#whitespace[@]})); then
  finding "Whitespace (.editorconfig):"
  printf '  %s\n' "${whitespace[@]}"
else
  echo "Whitespace: ${#all_files[@]} files clean"
fi

for reason in "${skipped[@]}"; do echo "SKIPPED: $reason"; done
if ((failed)); then
  exit 1
elif ((${#skipped[@]})); then
  exit 77
fi
echo "PASS: the course's style holds"
