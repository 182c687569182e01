# shellcheck shell=bash
# Sourced by the sandbox tests (sandbox_test.sh, sandbox_build_test.sh): skip and fail
# with their exit codes, the unprivileged user the confined runs use, and the
# world-readable course copy that a confined run must not reach. Confinement
# needs root and mount namespaces; without them the test reports skipped (77).
user=course-sandbox-test

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "confinement needs root"
unshare --mount true 2>/dev/null || skip "this machine refuses mount namespaces"
if ! id -u "$user" >/dev/null 2>&1; then
  useradd --system --no-create-home --shell /usr/sbin/nologin --user-group "$user" 2>/dev/null \
    || skip "cannot create the user $user"
fi

# A copy of the course at COPY, readable by anyone and mode 755 up to /, whose reference
# solution of exercise 03 holds TEXT: what only the sandbox's allow-list can keep from a
# confined run (no --hide names it).
plant_world_readable_copy() {
  local copy=$1 text=$2 folder
  rm -rf "$copy"
  mkdir -p "$copy/solutions/03_device_memory"
  echo "$text" >"$copy/solutions/03_device_memory/device_memory.cu"
  chmod -R a+rX "$copy"
  folder=$copy
  while [ "$folder" != / ]; do
    [ "$(stat -c %a "$folder")" = 755 ] || chmod 755 "$folder"
    folder=$(dirname "$folder")
  done
}
