#!/usr/bin/env bash
# The site configuration of the Slurm scripts, without Slurm: every missing or wrong
# setting stops slurm/submit, slurm/interactive and slurm/grade-class with a message
# that names the setting and the file, and a complete configuration (the documented
# example included) becomes the sbatch/salloc command lines it should (--print shows
# them, submitting nothing).
#
#   bash tests/slurm/test_config.sh        (exit 0 pass, 1 fail)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/course-slurm-config.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

ok() { echo "ok: $*"; }
bad() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_error WHAT STATUS MESSAGE COMMAND...: COMMAND exits with STATUS and prints MESSAGE.
expect_error() {
  local what=$1 expected=$2 message=$3 output status=0
  shift 3
  output=$("$@" 2>&1) || status=$?
  if ((status != expected)); then
    bad "$what: exit status $status, expected $expected; output: $output"
  elif ! grep -qF -- "$message" <<<"$output"; then
    bad "$what: the message does not say '$message': $output"
  else
    ok "$what: $(head -n 1 <<<"$output")"
  fi
}

# expect_output WHAT TEXT COMMAND...: COMMAND succeeds and prints TEXT.
expect_output() {
  local what=$1 text=$2 output status=0
  shift 2
  output=$("$@" 2>&1) || status=$?
  if ((status != 0)); then
    bad "$what: exit status $status: $output"
  elif ! grep -qF -- "$text" <<<"$output"; then
    bad "$what: no '$text' in: $output"
  else
    ok "$what"
  fi
}

# A copy of the course's slurm/ with no slurm/site.conf in it.
copy=$work/course
mkdir -p "$copy/tools"
cp -r "$repo/slurm" "$copy/"
# slurm/submit reads an exercise's JOB_CPUS from its CMakeLists.txt through tools/course
# exercises: the launcher and the package's student part, as a students' copy has them.
cp "$repo/tools/course" "$copy/tools/"
mkdir -p "$copy/tools/course_tools"
cp "$repo/tools/course_tools/__init__.py" "$repo/tools/course_tools/cli.py" "$copy/tools/course_tools/"
cp -r "$repo/tools/course_tools/student" "$copy/tools/course_tools/"
for exercise in 03_device_memory 06_sgemm_cublas 25_two_gpus_nccl; do
  mkdir -p "$copy/exercises/$exercise"
  cp "$repo/exercises/$exercise/CMakeLists.txt" "$copy/exercises/$exercise/"
done
rm -f "$copy/slurm/site.conf"

complete() {
  cat <<'EOF'
COURSE_PARTITION=gpu
COURSE_GPU_REQUEST="--gres=gpu:1"
COURSE_CPU_PARTITION=cpu
COURSE_ACCOUNT=cuda101
COURSE_QOS=teaching
COURSE_TIME_STUDENT=0:10:00
COURSE_CPUS_STUDENT=2
COURSE_MEM_STUDENT=4G
COURSE_OPENMP_CPUS=12
COURSE_TIME_GRADE=0:30:00
COURSE_ARRAY_MAX_PARALLEL=3
COURSE_CPUS_GRADE=2
COURSE_MEM_GRADE=8G
COURSE_SBATCH_EXTRA="--constraint=sm75"
EOF
  echo "COURSE_ROOT=$repo"
}
config() {  # config NAME [LINE...]: the complete configuration, minus or plus lines
  local file=$work/$1.conf
  shift
  complete >"$file"
  local line
  for line in "$@"; do
    if [[ $line == -* ]]; then
      sed -i "/^${line#-}=/d" "$file"
    else
      echo "$line" >>"$file"
    fi
  done
  echo "$file"
}

unset COURSE_SITE_CONFIG
expect_error "no site.conf" 2 "cp $copy/slurm/site.conf.example $copy/slurm/site.conf" \
  "$copy/slurm/submit" --print check 03
expect_error "COURSE_SITE_CONFIG names a missing file" 2 "COURSE_SITE_CONFIG names $work/none.conf, which does not exist" \
  env COURSE_SITE_CONFIG="$work/none.conf" "$copy/slurm/submit" --print check 03

file=$(config no-partition -COURSE_PARTITION)
expect_error "COURSE_PARTITION missing" 2 "COURSE_PARTITION is not set in $file: the partition" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/submit" --print check 03
file=$(config empty-partition 'COURSE_PARTITION=""')
expect_error "COURSE_PARTITION empty" 2 "COURSE_PARTITION is empty in $file" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/interactive" --print
file=$(config no-time -COURSE_TIME_STUDENT)
expect_error "COURSE_TIME_STUDENT missing" 2 "COURSE_TIME_STUDENT is not set in $file" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/submit" --print run 03
file=$(config no-gpu -COURSE_GPU_REQUEST)
expect_error "COURSE_GPU_REQUEST missing" 2 "COURSE_GPU_REQUEST is not set in $file: how a job asks for one GPU" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/submit" --print check 03
file=$(config bad-gpu 'COURSE_GPU_REQUEST="gpu:1"')
expect_error "COURSE_GPU_REQUEST not an option" 2 "COURSE_GPU_REQUEST in $file holds 'gpu:1', which is not an sbatch option" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/submit" --print check 03
file=$(config syntax 'COURSE_QOS="unclosed')
expect_error "a shell syntax error" 2 "could not be read" \
  env COURSE_SITE_CONFIG="$file" "$copy/slurm/submit" --print check 03

export COURSE_SITE_CONFIG
COURSE_SITE_CONFIG=$(config complete)
expect_error "an exercise that does not exist" 2 "no exercise 99" "$copy/slurm/submit" --print check 99
expect_error "not an exercise number" 2 "no exercise x3: the exercises are 03 06 25" "$copy/slurm/submit" --print check x3
expect_error "an unknown job" 2 "unknown job 'build'" "$copy/slurm/submit" --print build 03
expect_error "an option without its value" 2 "--name=value form" "$copy/slurm/submit" --time 0:20:00 check 03

expect_output "check: the site's options, the GPU, the log" \
  "sbatch --parsable --job-name=course-03-check --output=$copy/logs/03-check-%j.log --chdir=$copy --export=ALL --partition=gpu --time=0:10:00 --ntasks=1 --cpus-per-task=2 --account=cuda101 --qos=teaching --mem=4G --gres=gpu:1 --constraint=sm75 $copy/slurm/jobs/check.sbatch 03 --case n_is_one" \
  "$copy/slurm/submit" --print check 3 --case n_is_one
expect_output "run: a command-line option comes last and wins" \
  "--gres=gpu:1 --constraint=sm75 --time=0:20:00 $copy/slurm/jobs/run.sbatch 03" \
  "$copy/slurm/submit" --print --time=0:20:00 run 03
expect_output "run 06: the cores of its CPU baseline (JOB_CPUS 8)" \
  "--ntasks=1 --cpus-per-task=8 " "$copy/slurm/submit" --print run 06
expect_output "check 06: the same cores" "--cpus-per-task=8 " "$copy/slurm/submit" --print check 6
expect_output "run 06 on a site that caps the baselines' cores" "--cpus-per-task=4 " \
  env COURSE_SITE_CONFIG="$(config capped COURSE_CPUS_BASELINE_MAX=4)" "$copy/slurm/submit" --print run 06
expect_output "run 25: two GPUs of one node (JOB_GPUS 2)" "--gres=gpu:2 " "$copy/slurm/submit" --print run 25
expect_output "run 03: no CPU baseline, COURSE_CPUS_STUDENT cores" "--cpus-per-task=2 " \
  "$copy/slurm/submit" --print run 03
expect_output "openmp: the CPU partition, no GPU, COURSE_OPENMP_CPUS cores" \
  "--output=$copy/logs/openmp-%j.log --chdir=$copy --export=ALL --partition=cpu --time=0:10:00 --ntasks=1 --cpus-per-task=12 --account=cuda101 --qos=teaching --mem=4G --constraint=sm75 $copy/slurm/jobs/openmp.sbatch" \
  "$copy/slurm/submit" --print openmp
expect_output "openmp --cpus" "--cpus-per-task=3 " "$copy/slurm/submit" --print openmp --cpus 3
expect_output "interactive: salloc with the GPU, then a shell on the node" \
  "salloc --job-name=course-interactive --partition=gpu --time=0:10:00 --ntasks=1 --cpus-per-task=2 --account=cuda101 --qos=teaching --mem=4G --gres=gpu:1 --constraint=sm75 srun --pty" \
  "$copy/slurm/interactive" --print
expect_output "interactive with a command" "--constraint=sm75 srun make check-03" "$copy/slurm/interactive" --print make check-03

# Instructors: COURSE_ROOT and the class.
class=$work/class
mkdir -p "$class/alice" "$class/bob"
cp "$repo/solutions/03_device_memory/device_memory.cu" "$class/alice/"
cp "$repo/exercises/03_device_memory/device_memory.cu" "$class/bob/"
file=$(config no-root -COURSE_ROOT)
expect_error "COURSE_ROOT missing" 2 "COURSE_ROOT is not set in $file: the instructor's copy" \
  env COURSE_SITE_CONFIG="$file" "$repo/slurm/grade-class" --print "$class" "$work/results"
file=$(config bad-root "COURSE_ROOT=$work/nowhere")
expect_error "COURSE_ROOT not the course" 2 "COURSE_ROOT=$work/nowhere (in $file) is not a copy of the course" \
  env COURSE_SITE_CONFIG="$file" "$repo/slurm/grade-class" --print "$class" "$work/results"
file=$(config no-grade-time -COURSE_TIME_GRADE)
expect_error "COURSE_TIME_GRADE missing" 2 "COURSE_TIME_GRADE is not set in $file" \
  env COURSE_SITE_CONFIG="$file" "$repo/slurm/grade-class" --print "$class" "$work/results"
expect_error "a class that does not exist" 2 "$work/nope: no such folder" \
  "$repo/slurm/grade-class" --print "$work/nope" "$work/results"
expect_error "an unknown exercise" 2 "no exercise 42" \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --exercises 42
expect_output "grade-class: the array, one task per submission, at most COURSE_ARRAY_MAX_PARALLEL at once" \
  "sbatch --parsable --job-name=grade-results --array=0-1%3 --output=$work/results/logs/task-%A_%a.log --chdir=$work/results --export=ALL --partition=gpu --time=0:30:00 --ntasks=1 --cpus-per-task=2 --account=cuda101 --qos=teaching --mem=8G --gres=gpu:1 --constraint=sm75 $repo/slurm/jobs/grade-task.sbatch $class $work/results --exercises 03 --timeout-scale 2" \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --exercises 03 --timeout-scale 2
expect_output "grade-class: the collecting job, after the array (afterany), no GPU" \
  "sbatch --parsable --dependency=afterany:ARRAY_JOB_ID --job-name=collect-results --output=$work/results/logs/collect-%j.log --chdir=$work/results --export=ALL --partition=cpu --time=0:15:00 --ntasks=1 --cpus-per-task=1 --account=cuda101 --qos=teaching --constraint=sm75 $repo/slurm/jobs/grade-collect.sbatch $class $work/results --exercises 03" \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --exercises 03
expect_output "grade-class: --max-parallel" "--array=0-1%1 " \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --max-parallel 1
expect_output "grade-class: --cpu-only reaches each task's grader" \
  "$repo/slurm/jobs/grade-task.sbatch $class $work/results --exercises 03 --cpu-only" \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --exercises 03 --cpu-only
if [[ -e $work/results ]]; then
  bad "grade-class --print wrote $work/results"
else
  ok "grade-class --print writes nothing"
fi
expect_output "grade-class --seed never on a command line" "--exercises 01,02,03,04" \
  "$repo/slurm/grade-class" --print "$class" "$work/results" --seed 77
if "$repo/slurm/grade-class" --print "$class" "$work/results" --seed 77 2>&1 | grep -q -- "--seed"; then
  bad "grade-class put the seed on an sbatch command line"
else
  ok "grade-class keeps the seed off the command lines (in RESULTS/grading.json)"
fi

# --test-only where sbatch is installed but no cluster answers: one clear line, not
# sbatch's DNS errors (issue 45); a cluster's own refusal is shown as sbatch says it.
fake_bin=$work/fake-bin
mkdir -p "$fake_bin"
cat >"$fake_bin/sbatch" <<'FAKE'
#!/usr/bin/env bash
if [[ ${FAKE_SBATCH:-} == refuses ]]; then
  echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2
  exit 1
fi
echo "sbatch: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host" >&2
echo "sbatch: error: fetch_config: DNS SRV lookup failed" >&2
echo "sbatch: error: _establish_config_source: failed to fetch config" >&2
echo "sbatch: fatal: Could not establish a configuration source" >&2
exit 1
FAKE
chmod +x "$fake_bin/sbatch"
expect_error "--test-only without a cluster" 2 "no Slurm cluster answers from this machine" \
  env PATH="$fake_bin:$PATH" COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --test-only check 3
if env PATH="$fake_bin:$PATH" COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --test-only check 3 2>&1 |
  grep -q resolve_ctls; then
  bad "--test-only without a cluster printed sbatch's DNS errors"
else
  ok "--test-only without a cluster: sbatch's DNS errors are not shown"
fi
expect_error "a submission without a cluster" 2 "no Slurm cluster answers from this machine" \
  env PATH="$fake_bin:$PATH" COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" check 3
expect_error "--test-only refused by the cluster" 1 "Invalid partition name specified" \
  env FAKE_SBATCH=refuses PATH="$fake_bin:$PATH" COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" \
  "$copy/slurm/submit" --test-only check 3

# One rule for exercise numbers: 3 is 03 for slurm/submit as for make and tools/course; an
# unknown number gets the same message from all three.
expect_output "slurm/submit check 3 is check 03" "$copy/slurm/jobs/check.sbatch 03" \
  env COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --print check 3
expect_error "an unknown exercise, as make says it" 2 "no exercise 99: the exercises are 03 06 25 (make list names them)" \
  env COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --print check 99

# A profile is run.sbatch's --profile step, under the profile's own name and log.
expect_output "slurm/submit profile 3 is run.sbatch --profile 03" "$copy/slurm/jobs/run.sbatch --profile 03" \
  env COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --print profile 3
expect_output "a profile job's log" "logs/03-profile-%j.log" \
  env COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --print profile 03

# The documented example is complete: it reads without error.
expect_output "site.conf.example: a complete configuration" "--partition=gpu --time=0:10:00" \
  env COURSE_SITE_CONFIG="$repo/slurm/site.conf.example" "$copy/slurm/submit" --print check 03

# The job scripts stop clearly when started outside their wrapper.
expect_error "grade-task.sbatch outside an array" 2 "this script is one task of a job array" \
  env -u SLURM_ARRAY_TASK_ID COURSE_REPO="$repo" bash "$repo/slurm/jobs/grade-task.sbatch" "$class" "$work/results"
expect_error "run.sbatch outside the course" 2 "is not a copy of the course" \
  env COURSE_REPO="$work" bash "$repo/slurm/jobs/run.sbatch" 03

if ((failures)); then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS: the site configuration and the command lines it makes"
