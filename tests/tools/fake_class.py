"""A fake graded class for the class report's tests (test_class_report.py and
test_class_report_browser.py): the result files of 30 submissions, written the way
tools/course grade writes them (tools/course_tools/grading/SCHEMA.md), with no grader and no GPU.

    python3 tests/tools/fake_class.py RESULTS     write them (then: tools/course grade --reports-only)

Exercises 03, 04 and 14, with their real case names, so that the page finds each case's
description in the statement. Who made which mistake follows the student's index i
(0 to 28, in STUDENTS' order), so that the tests can count what the page must show:

    03  i % 3 == 0: block count rounded down (four cases fail, the hidden one among
        them; hint "some elements were never written")
        i % 5 == 1: no bounds check (two cases and memcheck fail, hint "out of bounds";
        memcheck's report of the hidden case carries a hint no visible case printed)
        i % 7 == 2: leaks (frees_its_device_memory fails, hint "every cudaMalloc")
    04  BUILD_FAILED_04 build failed, MISSING_04 missing; of the others, even i fail
        kernel_time_is_plausible (hint "time the kernel alone")
    14  SKIPPED_14 skipped (no GPU), MISSING_14 missing; i % 4 == 1 lose updates in
        shared_skewed_one_bin (hint "updates were lost") and fail racecheck; i == 9
        scores 0 on its cases, so its sanitizer runs are "not run"
    sources (RESULTS/sources/, what the grader keeps for the similarity check): in 14,
        COPIED_14's two students hold one histogram kernel, the second with its names
        changed, its comments rewritten and its lines moved about; DISTINCT_14's students
        each one of their own; in 03, every student of SHORT_03 the same few right lines
        (too short to compare)
    speed: 14's shared_lab_128x64 is timed: each graded student's speed-up of the privatised
        histogram over the global one is 1 + index / 4 (SPEED_BAR passes it from index 4 on),
        measured on SPEED_GPU
    answers: ANSWERED_03's students handed in 03's answers file, the first with two answers
        (one quoting HTML), the second with none filled in
    all UNREADABLE: an archive that could not be read (every exercise unreadable)
    and NO_RESULT ("zoe") has no result file at all: RESULTS/not_graded.txt names her.

Every result holds the grading seed (SEED) and the hidden cases print SECRET_TEXT:
neither may reach the page.
"""
import json
import os
import sys

SEED = 987654321
SECRET_TEXT = "SECRET-HIDDEN-INPUT-n=4242421"
HIDDEN_ONLY_HINT = "the hidden size 4242421 ends past the last block"

ODD_NAMES = ["o'neil, <b>bold<i> & \"q\"", "semi;colon $(id)", "Hélène", "a *b* [c](d) #e",
             "100% #1?", "<img src=x onerror=alert(1)>", "é" * 100]
STUDENTS = ODD_NAMES + [f"student{index:02d}" for index in range(len(ODD_NAMES), 29)]
NO_RESULT = "zoe"
NO_RESULT_REASON = "NOT GRADED: the task was stopped by SIGTERM (time limit); incomplete/zoe.txt"
UNREADABLE = {28}
BUILD_FAILED_04 = {4, 10}
MISSING_04 = {7}
SKIPPED_14 = {3, 12, 20}
MISSING_14 = {5, 17}

CASES_03 = [("n_is_one", 2), ("seed_example_64_doubled", 2), ("n_zero_then_five", 2),
            ("n_smaller_than_a_block", 2), ("n_not_a_multiple_of_256", 3), ("n_exact_multiple_of_256", 2),
            ("five_million_and_three", 3), ("hidden_size_from_seed", 2), ("frees_its_device_memory", 2)]
CASES_04 = [("cpu_loop_on_its_own", 2), ("n_is_one", 1), ("n_zero_then_1000", 2), ("n_255_smaller_than_a_block", 1),
            ("n_256_exactly_one_block", 1), ("n_257_one_past_a_block", 2), ("three_million_and_17", 2),
            ("blocks_of_128_odd_n", 1), ("blocks_of_1024_odd_n", 2), ("hidden_size_from_seed", 2),
            ("kernel_time_is_plausible", 2), ("frees_its_device_memory", 2)]
CASES_14 = [("counter_lab_64x64", 1), ("global_lab_128x64", 2), ("shared_lab_128x64", 2),
            ("shared_skewed_one_bin", 2), ("hidden_seeded", 2)]
HIDDEN = {"hidden_size_from_seed", "hidden_seeded"}

ROUNDED_DOWN = {"n_smaller_than_a_block", "n_not_a_multiple_of_256", "five_million_and_three", "hidden_size_from_seed"}
NEVER_WRITTEN = ("some elements were never written: does the grid cover every element (round the block count "
                 "up: (n + 255) / 256)?")
OUT_OF_BOUNDS = "a kernel wrote past the end of a device buffer: out of bounds; the test if (i < n) is missing"
LEAK = "every cudaMalloc needs its cudaFree: 2 device buffers were not freed"
TIMING = "time the kernel alone: no copy or cudaMalloc between your two events"
LOST = "updates were lost: two threads added to one bin at once; use atomicAdd"
MEMCHECK_HINT = "compute-sanitizer memcheck saw an invalid access: look at the kernel's bounds test"
RACE_HINT = "a shared-memory race: two threads of a block touch the same shared location"
BUILD_LOG = ("exercises/04_cpu_vs_gpu/cpu_vs_gpu.cu(58): error: this declaration has no storage class or "
             "type specifier\n  oops\n  ^\n1 error detected in the compilation of \"cpu_vs_gpu.cu\".")


def item(name, points, passed, output="", kind="case", seconds=0.3):
    return {"name": name, "kind": kind, "score": points if passed else 0, "max_score": points, "passed": passed,
            "hidden": name in HIDDEN, "seconds": seconds, "output": "" if passed else output}


def case_output(name, hint):
    lines = ["y: 3 of 1000 elements wrong (index 997: expected 1.5, got <never written>)"]
    if name in HIDDEN:
        lines.append(f"inputs: {SECRET_TEXT}")
    return "\n".join(lines + [f"hint: {hint}"])


def exercise(exercise_id, items, seconds):
    return {"number": exercise_id[:2], "id": exercise_id, "title": exercise_id[3:].replace("_", " "),
            "status": "graded", "score": sum(entry["score"] for entry in items),
            "max_score": sum(entry["max_score"] for entry in items), "seconds": seconds,
            "files": {}, "message": "", "build_log": "", "items": items}


def not_graded(exercise_id, status, max_score, message="", build_log="", seconds=None):
    record = {"number": exercise_id[:2], "id": exercise_id, "title": exercise_id[3:].replace("_", " "),
              "status": status, "score": 0, "max_score": max_score, "files": {}, "message": message,
              "build_log": build_log, "items": []}
    if seconds is not None:
        record["seconds"] = seconds
    return record


ANSWERED_03 = ("student13", ODD_NAMES[2])
ANSWER_WITH_HTML = "It would read <script>alert(1)</script> from the device: a segfault."


def answers_03(student):
    if student == ANSWERED_03[0]:
        return {"file": "exercises/03_device_memory/answers.md", "questions": 5,
                "answered": {"1": ANSWER_WITH_HTML, "3": "Because cudaMemcpy waits for the kernel."}}
    return {"file": "answers.fr.md", "questions": 5, "answered": {}}


def exercise_03(index):
    items = []
    for name, points in CASES_03:
        if index % 3 == 0 and name in ROUNDED_DOWN:
            items.append(item(name, points, False, case_output(name, NEVER_WRITTEN)))
        elif index % 5 == 1 and name in ("n_smaller_than_a_block", "n_not_a_multiple_of_256"):
            items.append(item(name, points, False, case_output(name, OUT_OF_BOUNDS)))
        elif index % 7 == 2 and name == "frees_its_device_memory":
            items.append(item(name, points, False, case_output(name, LEAK)))
        else:
            items.append(item(name, points, True))
    if index % 5 == 1:
        report = (f"n_is_one:\n========= Invalid __global__ write of size 4 bytes\nhint: {MEMCHECK_HINT}\n"
                  f"hidden_size_from_seed:\n========= Invalid __global__ write at {SECRET_TEXT}\n"
                  f"hint: {HIDDEN_ONLY_HINT}")
        items.append(item("memcheck", 2, False, report, kind="sanitizer", seconds=6.0))
    else:
        items.append(item("memcheck", 2, True, kind="sanitizer", seconds=6.0))
    return exercise("03_device_memory", items, 8.0 + index % 4)


def exercise_04(index):
    if index in BUILD_FAILED_04:
        return not_graded("04_cpu_vs_gpu", "build_failed", 22, "the files do not compile: the first errors are "
                          "in the build log", BUILD_LOG, seconds=4.0)
    if index in MISSING_04:
        return not_graded("04_cpu_vs_gpu", "missing", 22, "none of cpu_vs_gpu.cu was found")
    items = [item(name, points, not (index % 2 == 0 and name == "kernel_time_is_plausible"),
                  case_output(name, TIMING)) for name, points in CASES_04]
    items.append(item("memcheck", 2, True, kind="sanitizer", seconds=5.0))
    return exercise("04_cpu_vs_gpu", items, 10.0 + index % 3 + (30.0 if index == 11 else 0.0))


SPEED_FIGURE = "speed-up of the privatised histogram over the global one"
SPEED_BAR = 2.0
SPEED_GPU = "NVIDIA H200"


def speed_up(index):
    return 1.0 + index / 4


def exercise_14(index):
    if index in SKIPPED_14:
        return not_graded("14_atomics_histogram", "skipped", 13, "no CUDA device visible (CUDA_VISIBLE_DEVICES=)",
                          seconds=2.0)
    if index in MISSING_14:
        return not_graded("14_atomics_histogram", "missing", 13, "none of atomics_histogram.cu was found")
    if index == 9:
        items = [item(name, points, False, case_output(name, LOST)) for name, points in CASES_14]
        items += [item(tool, 2, False, f"not run: {tool} points go to code that earns correctness points",
                       kind="sanitizer") for tool in ("memcheck", "racecheck")]
        return exercise("14_atomics_histogram", items, 12.0)
    lost = index % 4 == 1
    items = [item(name, points, not (lost and name == "shared_skewed_one_bin"), case_output(name, LOST))
             for name, points in CASES_14]
    timed = next(entry for entry in items if entry["name"] == "shared_lab_128x64")
    timed["speed"] = [{"figure": SPEED_FIGURE, "direction": "at_least", "bar": SPEED_BAR, "measured": speed_up(index),
                       "reference": "241-283 on H100"}]
    timed["passed"] = timed["passed"] and speed_up(index) >= SPEED_BAR
    timed["score"] = timed["max_score"] if timed["passed"] else 0
    items.append(item("memcheck", 2, True, kind="sanitizer", seconds=7.0))
    items.append(item("racecheck", 2, not lost, f"shared_skewed_one_bin:\n========= Race reported\nhint: {RACE_HINT}",
                      kind="sanitizer", seconds=9.0))
    return dict(exercise("14_atomics_histogram", items, 20.0 + index % 5), gpu=SPEED_GPU)


def result(index, student):
    if index in UNREADABLE:
        message = f"{student}.tar.gz: not a readable archive (not a gzip file)"
        exercises = [not_graded(exercise_id, "unreadable", points, message)
                     for exercise_id, points in (("03_device_memory", 22), ("04_cpu_vs_gpu", 22),
                                                 ("14_atomics_histogram", 13))]
    else:
        exercises = [exercise_03(index), exercise_04(index), exercise_14(index)]
        if student in ANSWERED_03:
            exercises[0]["answers"] = answers_03(student)
    timed = [entry["seconds"] for entry in exercises if "seconds" in entry]
    return {"schema": 1, "student": student, "source": f"/class/{student}.tar.gz", "seed": SEED,
            "graded_at": f"2026-11-22T00:{10 + index:02d}:00Z", "seconds": max(timed or [1.0]) + 2.5,
            "phases": {"build": 3.0 + index % 3, "checks": sum(timed), "sanitizer": 6.0},
            "score": sum(entry["score"] for entry in exercises if entry["status"] == "graded"),
            "max_score": sum(entry["max_score"] for entry in exercises), "warnings": [], "exercises": exercises}


EXERCISES = ["03_device_memory", "04_cpu_vs_gpu", "14_atomics_histogram"]

COPIED_14 = (ODD_NAMES[0], "student11")  # a name to escape, in the pair's title and columns
DISTINCT_14 = ("student13", "student14", "student15")
SHORT_03 = ("student13", "student14", "student15", "student16")

# Three histogram kernels written three ways, and one copied with its names changed.
HISTOGRAM_SHARED = """\
__global__ void histogram_shared(const int* values, int n, int* bins, int bin_count) {
  extern __shared__ int local[];
  for (int b = threadIdx.x; b < bin_count; b += blockDim.x) local[b] = 0;
  __syncthreads();
  // one pass over the input, a grid-wide stride
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = values[i];
    if (v >= 0 && v < bin_count) atomicAdd(&local[v], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bin_count; b += blockDim.x) {
    int count = local[b];
    if (count != 0) atomicAdd(&bins[b], count);
  }
}

void launch_shared(const int* values, int n, int* bins, int bin_count, int blocks, int threads) {
  size_t bytes = bin_count * sizeof(int);
  histogram_shared<<<blocks, threads, bytes>>>(values, n, bins, bin_count);
  CUDA_CHECK_LAUNCH();
}
"""
HISTOGRAM_COPIED = """\
// privatised histogram: my own version
__global__ void histogram_shared(const int* input, int count, int* out, int nbins) {
  extern __shared__ int priv[];
  for (int k = threadIdx.x; k < nbins; k += blockDim.x) priv[k] = 0;
  __syncthreads();
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += gridDim.x * blockDim.x) {
    int x = input[j];
    if (x >= 0 && x < nbins) atomicAdd(&priv[x], 1);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < nbins; k += blockDim.x) {
    int c = priv[k];
    if (c != 0) atomicAdd(&out[k], c);
  }
}

void launch_shared(const int* input, int count, int* out, int nbins, int grid, int block) {
  size_t shared_bytes = nbins * sizeof(int);
  histogram_shared<<<grid, block, shared_bytes>>>(input, count, out, nbins);
  CUDA_CHECK_LAUNCH();
}
"""
HISTOGRAM_OTHERS = [
    """\
__global__ void histogram_shared(const int* values, int n, int* bins, int bin_count) {
  extern __shared__ unsigned int counts[];
  unsigned int tid = threadIdx.x;
  while (tid < (unsigned)bin_count) { counts[tid] = 0u; tid += blockDim.x; }
  __syncthreads();
  const int stride = blockDim.x * gridDim.x;
  int index = threadIdx.x + blockDim.x * blockIdx.x;
  while (index < n) {
    const int bin = values[index];
    if (bin < bin_count && bin >= 0) { atomicAdd(counts + bin, 1u); }
    index = index + stride;
  }
  __syncthreads();
  tid = threadIdx.x;
  while (tid < (unsigned)bin_count) {
    if (counts[tid] > 0u) { atomicAdd(bins + tid, (int)counts[tid]); }
    tid += blockDim.x;
  }
}
""",
    """\
namespace {
constexpr int kWarp = 32;
__device__ void clear(int* table, int size) {
  for (int slot = threadIdx.x; slot < size; slot += blockDim.x) { table[slot] = 0; }
}
__device__ void merge(const int* table, int* global_bins, int size) {
  for (int slot = threadIdx.x; slot < size; slot += blockDim.x) {
    const int mine = table[slot];
    if (mine) { atomicAdd(global_bins + slot, mine); }
  }
}
}  // namespace

__global__ void histogram_shared(const int* values, int n, int* bins, int bin_count) {
  extern __shared__ int table[];
  clear(table, bin_count);
  __syncthreads();
  const int first = (blockIdx.x * blockDim.x + threadIdx.x);
  const int step = gridDim.x * blockDim.x;
  for (int at = first; at < n; at += step) {
    const int value = __ldg(values + at);
    if (static_cast<unsigned>(value) < static_cast<unsigned>(bin_count)) { atomicAdd(table + value, 1); }
  }
  __syncthreads();
  merge(table, bins, bin_count);
  (void)kWarp;
}
""",
    """\
template <int kBlock>
__global__ void histogram_fixed(const int* __restrict__ values, int n, int* __restrict__ bins, int bin_count) {
  extern __shared__ int hist[];
  #pragma unroll 4
  for (int h = threadIdx.x; h < bin_count; h += kBlock) hist[h] = 0;
  __syncthreads();
  int base = blockIdx.x * kBlock * 4 + threadIdx.x;
  for (; base < n; base += gridDim.x * kBlock * 4) {
    #pragma unroll
    for (int part = 0; part < 4; ++part) {
      const int where = base + part * kBlock;
      if (where < n) {
        const int v = values[where];
        if (v >= 0 && v < bin_count) atomicAdd_block(&hist[v], 1);
      }
    }
  }
  __syncthreads();
  for (int h = threadIdx.x; h < bin_count; h += kBlock) if (hist[h]) atomicAdd(bins + h, hist[h]);
}
""",
]
SHORT_AFFINE = """\
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale * x[i] + offset;
"""


def write_sources(results_dir):
    """The files the grader would have kept for the similarity check (see the top)."""
    def put(student, exercise_id, name, text):
        path = os.path.join(results_dir, "sources", student, exercise_id, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    put(COPIED_14[0], "14_atomics_histogram", "atomics_histogram.cu", HISTOGRAM_SHARED)
    put(COPIED_14[1], "14_atomics_histogram", "atomics_histogram.cu", HISTOGRAM_COPIED)
    for student, text in zip(DISTINCT_14, HISTOGRAM_OTHERS):
        put(student, "14_atomics_histogram", "atomics_histogram.cu", text)
    for student in SHORT_03:
        put(student, "03_device_memory", "device_memory.cu", SHORT_AFFINE)


def write(results_dir):
    """Writes the class's result files, grading.json and not_graded.txt."""
    folder = os.path.join(results_dir, "submissions")
    os.makedirs(folder, exist_ok=True)
    for index, student in enumerate(STUDENTS):
        with open(os.path.join(folder, f"{student}.json"), "w", encoding="utf-8") as handle:
            json.dump(result(index, student), handle, indent=1)
    with open(os.path.join(results_dir, "grading.json"), "w", encoding="utf-8") as handle:
        json.dump({"seed": SEED, "exercises": EXERCISES}, handle)
    with open(os.path.join(results_dir, "not_graded.txt"), "w", encoding="utf-8") as handle:
        handle.write(f"{NO_RESULT}\t{NO_RESULT_REASON}\n")
    write_sources(results_dir)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    write(sys.argv[1])
