#!/usr/bin/env bash
# Proves the grader's confinement on the fake exercise, without a GPU: student code
# run by the check with --run-as and --hide cannot read or write hidden paths, cannot
# leave processes behind, cannot exhaust processes or memory, cannot make the check
# read a file for it. Where a proof could pass vacuously, the same run without the
# protection must show the attack working.
#
#   sandbox_test.sh BEHAVIOUR CHECK PROGRAM SANDBOX_DIR
# Needs root (to switch users and mount); otherwise it reports skipped (77).
set -u
behaviour=$1 check=$2 program=$3 sandbox=$4
user=course-sandbox-test

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "confinement needs root"
unshare --mount true 2>/dev/null || skip "this machine refuses mount namespaces"
if ! id -u "$user" >/dev/null 2>&1; then
  useradd --system --no-create-home --shell /usr/sbin/nologin --user-group "$user" 2>/dev/null \
    || skip "cannot create the user $user"
fi

secret_dir=$sandbox/secret
outside_dir=$sandbox/outside
rm -rf "$sandbox"
mkdir -p "$secret_dir" "$outside_dir"
trap 'rm -rf "$sandbox"' EXIT
echo "TOPSECRET-course-sandbox" >"$secret_dir/secret.txt"
chmod 755 "$sandbox" "$secret_dir"
chmod 644 "$secret_dir/secret.txt"   # readable by anyone: only hiding protects it
chmod 777 "$outside_dir"             # writable by anyone: only hiding protects it

confined=(--run-as "$user" --hide "$secret_dir" --hide "$outside_dir" --memory-limit-mb 512
          --timeout-scale 0.5)
# Live processes of the user (zombies are dead: they wait for a parent to reap them).
leftovers() { ps -u "$user" -o stat= 2>/dev/null | grep -qv '^Z'; }

run() {  # prints the check's report; returns its status
  output=$("$check" --program "$program" --variant "$behaviour" "$@" 2>&1)
  status=$?
  echo "$output"
  return $status
}

case $behaviour in
  correct)
    run "${confined[@]}" --expect pass || fail "a correct program fails when confined"
    ;;
  reads_hidden_file)
    run --run-as "$user" --memory-limit-mb 512 --expect fail >/dev/null \
      || fail "without --hide the secret should be readable: the proof would be vacuous"
    run "${confined[@]}" --expect pass || fail "the hidden file was read"
    grep -q TOPSECRET <<<"$output" && fail "the secret appears in the report"
    ;;
  writes_outside)
    run --run-as "$user" --memory-limit-mb 512 --expect pass >/dev/null
    [ -e "$outside_dir/PWNED-by-student" ] || fail "without --hide the write should succeed: the proof would be vacuous"
    rm -f "$outside_dir/PWNED-by-student" /tmp/PWNED-by-student
    run "${confined[@]}" --expect pass || fail "the confined program did not compute"
    [ -e "$outside_dir/PWNED-by-student" ] && fail "the program wrote into a hidden folder"
    [ -e /tmp/PWNED-by-student ] && { rm -f /tmp/PWNED-by-student; fail "the program wrote into the machine's /tmp"; }
    ;;
  fork_bomb | leaves_a_daemon)
    run "${confined[@]}" --expect pass || fail "the program should still be graded"
    sleep 0.5
    leftovers && fail "processes of $user survived the check: $(ps -u "$user" -o stat= | grep -cv '^Z')"
    ;;
  hogs_memory)
    run "${confined[@]}" --expect fail --expect-hint "memory limit" || fail "the memory limit did not stop it"
    ;;
  links_result_to_secret)
    run "${confined[@]}" --expect fail --expect-score 0 || fail "a linked result file was accepted"
    grep -q TOPSECRET <<<"$output" && fail "the check copied the linked file into its report"
    ;;
  *)
    echo "usage: sandbox_test.sh BEHAVIOUR CHECK PROGRAM SANDBOX_DIR" >&2
    exit 2
    ;;
esac
leftovers && fail "processes of $user are left"
echo "confinement holds against $behaviour"
