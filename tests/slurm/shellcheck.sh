#!/usr/bin/env bash
# Lints every shell script of slurm/ and tests/slurm/ with shellcheck (sourced files
# followed, every severity, style included).
#
#   bash tests/slurm/shellcheck.sh        (exit 0 clean, 1 findings, 77 no shellcheck)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"  # the scripts' "shellcheck source=" paths are relative to the repository

if ! command -v shellcheck >/dev/null 2>&1; then
  echo "SKIPPED: shellcheck is not installed (Debian: apt-get install shellcheck; .ci/run does it)"
  exit 77
fi

scripts=(slurm/submit slurm/interactive slurm/grade-class slurm/lib.sh slurm/site.conf.example)
scripts+=(slurm/jobs/*.sbatch tests/slurm/*.sh)
# Anything new with a shell shebang is linted too.
for file in slurm/* tests/slurm/*; do
  [[ -f $file ]] || continue
  if head -n 1 "$file" | grep -Eq '^#!.*\b(ba)?sh\b' && [[ ! " ${scripts[*]} " == *" $file "* ]]; then
    scripts+=("$file")
  fi
done
shellcheck --version | sed -n 2p
shellcheck --external-sources --severity=style "${scripts[@]}"
echo "PASS: shellcheck finds nothing in ${#scripts[@]} scripts: ${scripts[*]}"
