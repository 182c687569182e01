# shellcheck shell=bash
# Shared functions of the course's Slurm scripts; sourced, never run.
#
#   source "$repo/slurm/lib.sh"
#
# Two halves:
#   - on the login node (slurm/submit, slurm/interactive, slurm/grade-class): read the
#     site configuration, check it, build the sbatch options from it;
#   - inside a job (slurm/jobs/*.sbatch): load the site's modules, describe the node
#     and its GPUs at the top of the log, run the work so that a time limit (SIGTERM
#     from Slurm) leaves a clearly marked, partial result instead of a silent gap.

# --- messages -----------------------------------------------------------------------
course_die() {
  echo "slurm: error: $*" >&2
  exit 2
}

# --- the site configuration ----------------------------------------------------------
# What each setting is for, quoted in the error when one is missing.
declare -gA COURSE_SETTING_HELP=(
  [COURSE_PARTITION]="the partition (queue) of the GPU nodes, e.g. COURSE_PARTITION=gpu"
  [COURSE_TIME_STUDENT]="the time limit of a student's job, e.g. COURSE_TIME_STUDENT=0:10:00"
  [COURSE_TIME_GRADE]="the time limit of grading one submission, e.g. COURSE_TIME_GRADE=0:30:00"
  [COURSE_GPU_REQUEST]="how a job asks for one GPU: COURSE_GPU_REQUEST=\"--gres=gpu:1\" or \"--gpus=1\" (empty, \"\", on a cluster without GPUs)"
  [COURSE_ROOT]="the instructor's copy of the course on the cluster's shared file system, e.g. COURSE_ROOT=/shared/cuda-course"
)

# Reads the site configuration: $COURSE_SITE_CONFIG, else REPO/slurm/site.conf.
# Sets COURSE_SITE_CONFIG to the absolute path of the file read.
course_load_config() {
  local repo=$1
  local file=${COURSE_SITE_CONFIG:-$repo/slurm/site.conf}
  if [[ ! -f $file ]]; then
    if [[ -n ${COURSE_SITE_CONFIG:-} ]]; then
      course_die "COURSE_SITE_CONFIG names $file, which does not exist"
    fi
    course_die "no site configuration: $file does not exist.
  Copy the documented example and fill it in for your cluster (your instructor may
  provide one):  cp $repo/slurm/site.conf.example $file
  or point COURSE_SITE_CONFIG to the file."
  fi
  file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
  # shellcheck source=slurm/site.conf.example
  source "$file" || course_die "$file could not be read (a shell syntax error?)"
  COURSE_SITE_CONFIG=$file
  export COURSE_SITE_CONFIG
}

# course_require NAME...: each setting must have a non-empty value.
course_require() {
  local name
  for name in "$@"; do
    if [[ -z ${!name+set} ]]; then
      course_die "$name is not set in $COURSE_SITE_CONFIG: ${COURSE_SETTING_HELP[$name]:-see slurm/site.conf.example}"
    fi
    if [[ -z ${!name} ]]; then
      course_die "$name is empty in $COURSE_SITE_CONFIG: ${COURSE_SETTING_HELP[$name]:-see slurm/site.conf.example}"
    fi
  done
}

# course_require_declared NAME...: each setting must be present, possibly empty on purpose.
course_require_declared() {
  local name
  for name in "$@"; do
    if [[ -z ${!name+set} ]]; then
      course_die "$name is not set in $COURSE_SITE_CONFIG: ${COURSE_SETTING_HELP[$name]:-see slurm/site.conf.example}"
    fi
  done
}

# course_words VALUE: the words of VALUE in COURSE_WORDS (settings that hold options).
course_words() {
  COURSE_WORDS=()
  if [[ -n $1 ]]; then
    read -r -a COURSE_WORDS <<<"$1"
  fi
}

# course_options_of NAME: the words of setting NAME, each an sbatch option.
course_options_of() {
  local name=$1 word
  course_words "${!name:-}"
  for word in "${COURSE_WORDS[@]}"; do
    if [[ $word != -* ]]; then
      course_die "$name in $COURSE_SITE_CONFIG holds '$word', which is not an sbatch option (options start with -, e.g. --gres=gpu:1)"
    fi
  done
}

# course_sbatch_options PARTITION TIME CPUS MEMORY GPU(yes|no): the site's options for
# one job, in COURSE_SBATCH: partition, account, QoS, time, CPUs, memory, GPU, extras.
course_sbatch_options() {
  local partition=$1 time=$2 cpus=$3 memory=$4 gpu=$5
  COURSE_SBATCH=(--partition="$partition" --time="$time" --ntasks=1 --cpus-per-task="$cpus")
  [[ -n ${COURSE_ACCOUNT:-} ]] && COURSE_SBATCH+=(--account="$COURSE_ACCOUNT")
  [[ -n ${COURSE_QOS:-} ]] && COURSE_SBATCH+=(--qos="$COURSE_QOS")
  [[ -n $memory ]] && COURSE_SBATCH+=(--mem="$memory")
  if [[ $gpu == yes ]]; then
    course_options_of COURSE_GPU_REQUEST
    COURSE_SBATCH+=("${COURSE_WORDS[@]}")
  fi
  course_options_of COURSE_SBATCH_EXTRA
  COURSE_SBATCH+=("${COURSE_WORDS[@]}")
  return 0
}

course_need_slurm() {
  local command
  for command in "$@"; do
    command -v "$command" >/dev/null 2>&1 ||
      course_die "$command not found: run this on the cluster's login node, where Slurm's commands are installed"
  done
}

# What sbatch says on a machine where it is installed but no cluster answers (no slurm.conf,
# no controller found through DNS, the controller down): raw lines no student can act on.
COURSE_NO_CLUSTER_PATTERN='resolve_ctls_from_dns_srv|DNS SRV lookup failed|Could not establish a configuration source|failed to fetch config|Unable to contact slurm controller|Could not open.*slurm.conf'

# course_sbatch_failed STATUS OUTPUT: after sbatch failed, one clear line when no cluster
# answers (then exit 2), else sbatch's own message, which names what it refused.
course_sbatch_failed() {
  local status=$1 output=$2
  if grep -qE "$COURSE_NO_CLUSTER_PATTERN" <<<"$output"; then
    course_die "no Slurm cluster answers from this machine ($(hostname -s 2>/dev/null || echo here)): sbatch is installed, but finds no controller to ask. Run this on the cluster's login node; --print shows the command without asking Slurm"
  fi
  [[ -z $output ]] || echo "$output" >&2
  return "$status"
}

course_need_python() {
  command -v python3 >/dev/null 2>&1 ||
    course_die "python3 not found (the course's tools need Python 3; load its module first)"
}

# Prints a command, quoted where needed, so that it can be pasted back into a shell.
course_print_command() {
  local word words=() plain='^[A-Za-z0-9_./:=%,@+-]+$'
  for word in "$@"; do
    if [[ $word =~ $plain ]]; then
      words+=("$word")
    else
      words+=("$(printf '%q' "$word")")
    fi
  done
  echo "${words[*]}"
}

# --- inside a job ------------------------------------------------------------------------
course_load_modules() {
  course_words "${COURSE_MODULES:-}"
  ((${#COURSE_WORDS[@]})) || return 0
  if ! type module >/dev/null 2>&1; then
    local init
    for init in /etc/profile.d/lmod.sh /etc/profile.d/z00_lmod.sh /etc/profile.d/modules.sh \
      "${MODULESHOME:-/nonexistent}/init/bash"; do
      if [[ -f $init ]]; then
        # shellcheck source=/dev/null
        source "$init" >/dev/null 2>&1 || true
        type module >/dev/null 2>&1 && break
      fi
    done
  fi
  if ! type module >/dev/null 2>&1; then
    echo "== modules: this node has no 'module' command: not loading ${COURSE_WORDS[*]} (COURSE_MODULES)"
    return 0
  fi
  local name
  for name in "${COURSE_WORDS[@]}"; do
    echo "== module load $name"
    module load "$name" || course_die "'module load $name' failed on $(hostname): check COURSE_MODULES in $COURSE_SITE_CONFIG"
  done
}

# Sets COURSE_GPUS to the number of GPUs this job can see and prints them.
course_describe_gpus() {
  COURSE_GPUS=0
  local listing="" why="nvidia-smi is not installed"
  if command -v nvidia-smi >/dev/null 2>&1; then
    listing=$(nvidia-smi -L 2>/dev/null || true)
    why="nvidia-smi finds no device"
  fi
  if [[ -n $listing ]]; then
    COURSE_GPUS=$(grep -c '^GPU' <<<"$listing" || true)
  fi
  if ((COURSE_GPUS > 0)); then
    echo "== GPUs: $COURSE_GPUS (CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset})"
    local line
    while IFS= read -r line; do
      echo "==   $line"
    done <<<"$listing"
  else
    echo "== GPUs: none on this node ($why): CUDA programs cannot run here and GPU checks report SKIPPED"
  fi
}

# The start of every job: the site configuration where there is one (a job started
# by plain sbatch may have none: it then loads no module), then the header of the log:
# what, where, when, with what.
course_job_start() {
  local repo=$1 what=$2
  local file=${COURSE_SITE_CONFIG:-$repo/slurm/site.conf}
  if [[ -f $file ]]; then
    course_load_config "$repo"
  else
    COURSE_SITE_CONFIG=""
  fi
  export PYTHONUNBUFFERED=1  # a job stopped at its time limit keeps every line printed so far
  echo "== $what"
  echo "== job ${SLURM_JOB_ID:-none}${SLURM_ARRAY_TASK_ID:+ (array ${SLURM_ARRAY_JOB_ID}, task $SLURM_ARRAY_TASK_ID)}" \
    "on $(hostname), partition ${SLURM_JOB_PARTITION:-?}, ${SLURM_CPUS_PER_TASK:-1} CPU(s)," \
    "started $(date '+%Y-%m-%d %H:%M:%S')"
  if [[ -n ${SLURM_JOB_ID:-} ]] && command -v squeue >/dev/null 2>&1; then
    echo "== time limit: $(squeue -h -j "$SLURM_JOB_ID" -o %l 2>/dev/null || echo unknown)"
  fi
  echo "== site configuration: ${COURSE_SITE_CONFIG:-none}"
  # OpenMP and OpenBLAS use the cores the job was given (--cpus-per-task), no more: a
  # baseline that starts a thread per core of the node shares the job's cores with itself.
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-${SLURM_CPUS_PER_TASK:-1}}
  export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$OMP_NUM_THREADS}
  echo "== CPU cores this job may use: $(nproc) (OMP_NUM_THREADS=$OMP_NUM_THREADS," \
    "OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS)"
  course_load_modules
  course_describe_gpus
}

# A build folder of this job alone (tools/course reads BUILD_DIR), in the course's
# build/: two jobs of one student (a run and a check) never write the same files. It
# is removed at the end of the job.
course_private_build_dir() {
  local repo=$1
  BUILD_DIR=$repo/build/slurm/job-${SLURM_JOB_ID:-$$}
  mkdir -p "$BUILD_DIR"
  export BUILD_DIR
  trap 'rm -rf "$BUILD_DIR"' EXIT
  echo "== programs are built in ${BUILD_DIR#"$repo"/} (this job's own folder, removed at its end)"
}

course_time_left() {
  if [[ -n ${SLURM_JOB_ID:-} ]] && command -v squeue >/dev/null 2>&1; then
    squeue -h -j "$SLURM_JOB_ID" -o %L 2>/dev/null || echo unknown
  else
    echo unknown
  fi
}

# Signals a process and all its descendants (children listed before the parent stops,
# so that none escapes by being re-parented).
course_kill_tree() {
  local pid=$1 signal=$2 child
  local children
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null || true)
  kill "-$signal" "$pid" 2>/dev/null || true
  for child in $children; do
    course_kill_tree "$child" "$signal"
  done
}

# Time limits. Slurm sends SIGTERM to the batch shell before the end (the scripts ask
# for it with --signal=B:TERM@SECONDS) and again at the limit, then SIGKILL after
# KillWait. course_trap_stop installs a handler that records the stop and ends the
# running work; course_run then reports it. A job calls course_trap_stop first thing.
COURSE_STOPPED=""
COURSE_CHILD=""
course_on_stop() {
  local signal=$1
  if [[ -z $COURSE_STOPPED ]]; then
    COURSE_STOPPED="SIG$signal at $(date '+%Y-%m-%d %H:%M:%S'), $(course_time_left) before the time limit"
    echo
    echo "*** STOPPED: this job received SIG$signal: it reached its time limit or was cancelled."
    echo "*** The work was cut short here: the output above, and the result, are PARTIAL."
  fi
  if [[ -n $COURSE_CHILD ]]; then
    course_kill_tree "$COURSE_CHILD" TERM
  fi
}

course_trap_stop() {
  trap 'course_on_stop TERM' TERM
  trap 'course_on_stop INT' INT
}

# course_run COMMAND...: runs COMMAND, returns its status; if the job is stopped
# meanwhile, ends COMMAND (SIGTERM, SIGKILL after a grace period) and returns 143.
COURSE_GRACE_SECONDS=15
course_run() {
  if [[ -n $COURSE_STOPPED ]]; then
    return 143
  fi
  "$@" &
  COURSE_CHILD=$!
  # A stop signal that came after the check above and before COURSE_CHILD was set found
  # no child to end (bash runs a trap between commands): COMMAND is ended now.
  if [[ -n $COURSE_STOPPED ]]; then
    course_kill_tree "$COURSE_CHILD" TERM
  fi
  local status=0
  wait "$COURSE_CHILD" || status=$?
  if [[ -n $COURSE_STOPPED ]]; then
    local waited=0
    while kill -0 "$COURSE_CHILD" 2>/dev/null && ((waited < COURSE_GRACE_SECONDS)); do
      sleep 1 || true
      waited=$((waited + 1))
    done
    if kill -0 "$COURSE_CHILD" 2>/dev/null; then
      echo "*** still running ${COURSE_GRACE_SECONDS} s after SIGTERM: killed"
      course_kill_tree "$COURSE_CHILD" KILL
    fi
    wait "$COURSE_CHILD" 2>/dev/null || true
    status=143
  fi
  COURSE_CHILD=""
  return "$status"
}

# The last line of a job's log says how it ended: RESULT: ...
course_result() {
  echo
  echo "RESULT: $*"
}

course_result_stopped() {
  course_result "INCOMPLETE: $1 was stopped by $COURSE_STOPPED; the output above is PARTIAL." \
    "Resubmit it, with more time if it reached its time limit (e.g. slurm/submit --time=0:30:00 ...)."
}
