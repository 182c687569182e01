#!/usr/bin/env bash
# Proves the grader's confinement on the fake exercise, without a GPU: student code
# run by the check with --run-as cannot read a copy of the course that nobody listed
# (the allow-list: only system folders and the run's own are shown), cannot read or
# write paths hidden with --hide, cannot leave processes behind, cannot exhaust
# processes or memory, cannot make the check read a file for it. Where a proof could
# pass vacuously, the same run without the protection must show the attack working
# (--show / turns the allow-list off).
#
#   sandbox_test.sh BEHAVIOUR CHECK PROGRAM SANDBOX_DIR [COURSE_COPY_DIR [TMP_PLANT]]
# (TMP_PLANT: the file in /tmp the program tries to write, named after the build)
# Needs root (to switch users and mount); otherwise it reports skipped (77).
set -u
behaviour=$1 check=$2 program=$3 sandbox=$4 course_copy=${5:-} tmp_plant=${6:-/tmp/PWNED-by-student}
# shellcheck source=tests/harness/sandbox_preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/sandbox_preamble.sh"

secret_dir=$sandbox/secret
outside_dir=$sandbox/outside
rm -rf "$sandbox"
mkdir -p "$secret_dir" "$outside_dir"
trap 'rm -rf "$sandbox"' EXIT
echo "TOPSECRET-course-sandbox" >"$secret_dir/secret.txt"
chmod 755 "$sandbox" "$secret_dir"
chmod 644 "$secret_dir/secret.txt"   # readable by anyone: only hiding protects it
chmod 777 "$outside_dir"             # writable by anyone: only hiding protects it

# SANDBOX_DIR (under /run) is shown, so that --hide alone must protect its secret and
# outside folders, as it protects a course inside /usr/local.
confined=(--run-as "$user" --show "$sandbox" --hide "$secret_dir" --hide "$outside_dir"
          --memory-limit-mb 512 --timeout-scale 0.5)
unhidden=(--run-as "$user" --show "$sandbox" --memory-limit-mb 512)
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
    run "${unhidden[@]}" --expect fail >/dev/null \
      || fail "without --hide the secret should be readable: the proof would be vacuous"
    run "${confined[@]}" --expect pass || fail "the hidden file was read"
    grep -q TOPSECRET <<<"$output" && fail "the secret appears in the report"
    ;;
  reads_course_copy)
    # A course checked out where anyone may read it (/srv/course, a home of mode 755):
    # 755 all the way down, a solution of mode 644, and no --hide names it.
    [ -n "$course_copy" ] || fail "reads_course_copy needs COURSE_COPY_DIR"
    case $course_copy in /srv/*) [ -d /srv ] || { mkdir /srv; made_srv=1; } ;; esac
    trap 'rm -rf "$sandbox" "$course_copy"; [ -n "${made_srv:-}" ] && rmdir /srv' EXIT
    plant_world_readable_copy "$course_copy" "REFERENCE-SOLUTION-course-copy"
    run --run-as "$user" --show / --memory-limit-mb 512 --expect fail >/dev/null \
      || fail "with the allow-list off (--show /) the copy should be readable: the proof would be vacuous"
    run --run-as "$user" --memory-limit-mb 512 --expect pass || fail "the course copy was read"
    grep -q REFERENCE-SOLUTION <<<"$output" && fail "the solution appears in the report"
    ;;
  writes_outside)
    run "${unhidden[@]}" --expect pass >/dev/null
    [ -e "$outside_dir/PWNED-by-student" ] || fail "without --hide the write should succeed: the proof would be vacuous"
    rm -f "$outside_dir/PWNED-by-student" "$tmp_plant"
    run "${confined[@]}" --expect pass || fail "the confined program did not compute"
    [ -e "$outside_dir/PWNED-by-student" ] && fail "the program wrote into a hidden folder"
    [ -e "$tmp_plant" ] && { rm -f "$tmp_plant"; fail "the program wrote into the machine's /tmp"; }
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
