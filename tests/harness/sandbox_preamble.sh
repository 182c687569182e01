# Sourced by the sandbox tests (sandbox_test.sh, sandbox_build_test.sh): skip and fail
# with their exit codes, and the unprivileged user the confined runs use. Confinement
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
