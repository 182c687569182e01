#!/usr/bin/env bash
# Proves the confinement of the grader's builds (course_sandbox, which
# tools/course_tools/grading/engine.py runs every student build through), without a GPU: a
# confined nvcc still compiles a .cu for sm_75 in its own tree, as the sandbox user,
# and a source that includes a file of a readable copy of the course that nobody
# listed (/srv/..., 755 all the way, the file 644) no longer compiles. The same
# include compiles with the allow-list off (--show /): the proof is not vacuous.
#
#   sandbox_build_test.sh COURSE_SANDBOX NVCC COURSE_COPY_DIR
# Needs root (to switch users and mount); otherwise it reports skipped (77).
set -u
sandbox=$1 nvcc=$2 course_copy=$3
# shellcheck source=tests/harness/sandbox_preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/sandbox_preamble.sh"

# A build's work folder, as the grader makes it: in root's /run, the user's alone.
work=$(mktemp -d /run/course-sandbox-build.XXXXXX)
made_srv=""
case $course_copy in /srv/*) [ -d /srv ] || { mkdir /srv; made_srv=1; } ;; esac
trap 'rm -rf "$work" "$course_copy"; [ -n "$made_srv" ] && rmdir /srv' EXIT
solution=$course_copy/solutions/03_device_memory/device_memory.cu
plant_world_readable_copy "$course_copy" '__global__ void reference_solution_kernel(float* x) { x[0] = 1.0f; }'

tree=$work/tree
mkdir -p "$tree"
cat >"$tree/own.cu" <<'EOF'
__global__ void scale(float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int main() { return 0; }
EOF
printf '#include "%s"\nint main() { return 0; }\n' "$solution" >"$tree/leaky.cu"
chown -R "$user:$user" "$work"
chmod 700 "$work"
toolkit=$(dirname "$(dirname "$(readlink -f "$nvcc")")")

build() {  # build SOURCE [sandbox options]: compiles SOURCE confined, prints what it said
  local source=$1
  shift
  output=$(cd "$tree" && "$sandbox" --run-as "$user" --show "$toolkit" "$@" -- \
    "$nvcc" -arch=sm_75 -o "${source%.cu}" "$source" 2>&1)
}

build own.cu --show "$work" || fail "a confined nvcc cannot compile its own tree: $output"
[ "$(stat -c %U "$tree/own")" = "$user" ] || fail "the program was not built as $user"
build leaky.cu --show / \
  || fail "with the allow-list off (--show /) the include should compile (the proof would be vacuous): $output"
rm -f "$tree/leaky"
build leaky.cu --show "$work" && fail "a confined build included the course copy's $solution"
[ -e "$tree/leaky" ] && fail "a program was built from the course copy"
grep -q 'No such file\|cannot open' <<<"$output" || fail "the build failed for another reason: $output"
# What the build sees of /run: its own work folder, nothing else.
seen=$(cd "$tree" && "$sandbox" --run-as "$user" --show "$work" -- ls -A /run 2>&1)
[ "$seen" = "$(basename "$work")" ] || fail "the build sees more of /run than its work folder: $seen"
# A hidden folder inside a shown one that holds another shown one (the folder of all
# builds holds this build's tree) shows that one alone.
mkdir -p "$work/all/mine" "$work/all/another-submission"
seen=$(cd "$tree" && "$sandbox" --run-as "$user" --show "$work" --show "$work/all/mine" --hide "$work/all" \
  -- ls -A "$work/all" 2>&1)
[ "$seen" = mine ] || fail "a hidden folder shows more or less than the shown folder inside it: $seen"
echo "confined builds compile their own tree and cannot read a course copy"
