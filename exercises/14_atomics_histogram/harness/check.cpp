// Exercise 14 - the check. Runs the student's program case by case and compares the
// counts it reports with exact counts computed here, on the CPU, by the bin rule of
// histogram.hpp; times the privatised histogram against the global-atomic one on the
// same skewed input in the same run. Contains no student code.
//
//   make check-14                          (students)
//   build/.../check_14 --program PROGRAM   (instructors; --help lists the options)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/float4.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Request;
using course::check::Run;
namespace request = histogram::request;
namespace result = histogram::result;
using Histogram = request::Histogram;

// The reference counts of a case (workload.hpp: histogram.hpp's rule).
std::vector<std::int32_t> reference_counts(const Histogram& h, std::uint64_t seed) {
  std::vector<float> x;
  histogram::make_input(h.input, h.n, h.lo, h.hi, h.bins, seed, x);
  return histogram::reference_counts(x, h.lo, h.hi, h.bins);
}

std::string describe(const Histogram& h) {
  return std::to_string(h.bins) + " bins over [" + course::format_number(h.lo) + ", " +
         course::format_number(h.hi) + "), " + h.input + " input";
}

// The lab's data and range.
Histogram lab_histogram() { return {"lab", kLabElements, kLabLo, kLabHi, kLabBins}; }
Histogram edge_histogram(int set) {
  const histogram::EdgeSet& e = histogram::kEdgeSets[set];
  return {set == 0 ? "edges0" : "edges1", 0, e.lo, e.hi, e.bins};
}
// The uniform and skewed cases' range: a power of two wide.
constexpr float kLo = -8.0f;
constexpr float kHi = 8.0f;

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------
const std::string kRaceHint =
    "counts too low: updates were lost. Several threads increment the same bin at once: use "
    "atomicAdd, never `counts[bin] += 1` (read, add and write are three steps).";
const std::string kSyncHint =
    "shared memory: __syncthreads() after zeroing the block's bins (before any thread counts) "
    "and again after counting (before the block merges its bins into counts).";
const std::string kZeroHint =
    "counts from garbage (too high, or so high that they wrapped around below zero): the "
    "block's shared bins must be set to 0 before counting (shared memory starts with "
    "whatever the last kernel left there).";
const std::string kRangeHint =
    "values outside [lo, hi), infinities and NaN must not be counted: test "
    "`v >= lo && v < hi` (false for NaN) before computing the bin.";
const std::string kUpperEdgeHint =
    "the upper edge: hi itself is out of range, and a value just below hi is in the last bin "
    "(lower the bin to bins - 1 when (v - lo) * scale rounds up to bins).";
const std::string kStrideHint =
    "some values were not counted: with a grid smaller than n, each thread must loop, "
    "i += gridDim.x * blockDim.x, while i < n (a grid-stride loop).";
const std::string kTailHint =
    "the last n % 4 values were not counted: after the float4 loop over the n / 4 vectors, "
    "the loop of one value per step must count values 4 * (n / 4) + global index, stepping "
    "by the whole grid, while i < n.";
const std::string kPastEndHint =
    "values after x[n - 1] were counted: the float4 loop runs while v < n / 4 (vectors, not "
    "values), the loop of one value per step while i < n.";

// The counts of a kernel that counted every value but the last n % 4 (its float4 loop
// right, its loop over the rest forgotten); none when there is no such value, or no
// float4 before them (then they are the counts of a kernel that counted nothing).
std::vector<std::int32_t> tail_missed_counts(const Histogram& h, std::uint64_t seed) {
  std::vector<float> x;
  histogram::make_input(h.input, h.n, h.lo, h.hi, h.bins, seed, x);
  const std::size_t in_vectors = x.size() / course::kFloatsPerFloat4 * course::kFloatsPerFloat4;
  if (in_vectors == 0 || in_vectors == x.size()) return {};
  x.resize(in_vectors);
  return histogram::reference_counts(x, h.lo, h.hi, h.bins);
}

// Says what kind of wrong the counts are: every hint that fits.
void hint_for_counts(CaseContext& c, const Histogram& h, const std::vector<std::int32_t>& got,
                     const std::vector<std::int32_t>& expected, bool is_shared) {
  std::int64_t total_got = 0, total_expected = 0;
  bool any_unwritten = false;
  for (std::size_t b = 0; b < got.size(); ++b) {
    if (course::is_poison(got[b])) {
      any_unwritten = true;
      continue;
    }
    total_got += got[b];
    total_expected += expected[b];
  }
  if (any_unwritten) {
    c.hint("set counts to 0 (cudaMemset of bins * sizeof(int) bytes) before the launch: the "
           "kernels only add to it.");
    return;
  }
  const bool edges = h.input == "edges0" || h.input == "edges1";
  if (edges) {
    const std::size_t last = got.size() - 1;
    if (got[last] != expected[last]) c.hint(kUpperEdgeHint);
    c.hint(kRangeHint);
  }
  // No count of values is negative: a bin that is came from garbage that overflowed.
  const bool wrapped = std::any_of(got.begin(), got.end(), [](std::int32_t count) {
    return count < 0 && !course::is_poison(count);
  });
  if (h.padding > 0 && total_got > total_expected) {
    // The padding after x[n - 1] is all in the first bin.
    c.hint(kPastEndHint);
  } else if (total_got > total_expected || wrapped) {
    // Extra counts: garbage in unzeroed shared bins, or values that have no bin.
    if (is_shared) c.hint(kZeroHint);
    c.hint(kRangeHint);
  } else if (is_shared && got == tail_missed_counts(h, c.seed())) {
    c.hint(kTailHint);
  } else if (total_got < total_expected) {
    c.hint(kRaceHint);
    if (is_shared) c.hint(kSyncHint);
    c.hint(kStrideHint);
  }
  if (h.input == "uniform" && total_got == total_expected) c.hint(kUpperEdgeHint);
}

bool expect_counts(CaseContext& c, const Run& run, const course::check::Array<std::int32_t>& record,
                   const Histogram& h, bool is_shared) {
  const std::vector<std::int32_t> expected = reference_counts(h, c.seed());
  if (c.expect_array(run, record, expected, course::kExact)) return true;
  std::vector<std::int32_t> got;
  if (CaseContext::reported(run, record) && c.read_array(run, record, got) &&
      got.size() == expected.size()) {
    hint_for_counts(c, h, got, expected, is_shared);
  }
  return false;
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------
// The lab's data, then both edge sets: the bin rule on its own, on the host.
void check_cpu(CaseContext& c) {
  for (const Histogram& h : {lab_histogram(), edge_histogram(0), edge_histogram(1)}) {
    const bool edges = h.input != "lab";
    const Run run = c.run(request::cpu, h);
    if (!c.finished(run)) {
      if (edges) {
        c.hint(kRangeHint);
        c.hint(kUpperEdgeHint);
      }
      return;
    }
    if (!c.expect_host_guard_untouched(
            run, result::counts, "histogram_cpu",
            edges ? kUpperEdgeHint : "counts has bins elements: indices 0 to bins - 1.")) {
      return;
    }
    if (!expect_counts(c, run, result::counts, h, false)) {
      c.note("(histogram_cpu, " + describe(h) + ")");
      c.hint("histogram_cpu sets every count to 0 first, then adds 1 to counts[bin_of(x[i], "
             "lo, hi, bins)] for each value whose bin is not -1.");
      return;
    }
  }
}

void check_counter(CaseContext& c, int blocks, int threads) {
  const Run run = c.run(request::counter, {blocks, threads});
  if (!c.finished(run)) return;
  const std::vector<std::int32_t> expected = {blocks * threads};
  if (!c.expect_array(run, result::counter, expected, course::kExact)) {
    c.note("(count_threads_atomic<<<" + std::to_string(blocks) + ", " + std::to_string(threads) +
           ">>> on a counter set to 0)");
    c.hint("each thread must add 1 with atomicAdd(counter, 1): `*counter += 1` loses updates.");
  }
}

// One launch of the student's global or shared histogram on the given grid.
void check_gpu(CaseContext& c, const Request<request::Launch>& kind, const Histogram& h, int blocks,
               int threads) {
  const std::string& method = kind.name;  // the launcher is histogram_<method>_on_device
  const Run run = c.run(kind, {h, blocks, threads});
  if (!c.finished(run)) {
    // An atomic out of bounds on these inputs comes from a value that has no bin.
    if (h.input == "edges0" || h.input == "edges1") {
      c.hint(kRangeHint);
      c.hint(kUpperEdgeHint);
    }
    return;
  }
  if (!c.expect_kernel_launched(run)) return;
  if (!expect_counts(c, run, result::counts, h, kind.name == request::shared.name)) {
    c.note("(histogram_" + method + "_on_device, " + describe(h) + ", n = " + std::to_string(h.n) +
           ", " + std::to_string(blocks) + " x " + std::to_string(threads) + " threads" +
           (h.offset > 0 ? ", x starting " + std::to_string(h.offset) +
                               " floats into its buffer: not 16-byte aligned"
                         : "") +
           (h.padding > 0 ? ", " + std::to_string(h.padding) + " values after x[n - 1], each lo"
                          : "") +
           ")");
  }
}

void check_gpu_edges(CaseContext& c, const Request<request::Launch>& kind) {
  for (int set = 0; set < static_cast<int>(std::size(histogram::kEdgeSets)) && c.passed(); ++set) {
    check_gpu(c, kind, edge_histogram(set), kLabBlocks, kLabThreadsPerBlock);
  }
}

// Every value in one bin, n = 1001, 1002 and 1003, on a grid of 2 x 64 threads: the loop
// over the last n % 4 values, after the float4 loop. After x[n - 1] come 3 n + 4 more
// values (each lo, in the first bin), so that a float4 loop that runs over n vectors
// instead of n / 4, or a loop that runs while i <= n, counts them.
void check_shared_tails(CaseContext& c) {
  for (const int n : {1001, 1002, 1003}) {
    Histogram h{"skewed", n, kLo, kHi, 10};
    h.padding = 3 * n + 4;
    check_gpu(c, request::shared, h, 2, kLabThreadsPerBlock);
    if (!c.passed()) return;
  }
}

// A size, a bin count, a grid and an input drawn from the seed, for both kernels.
constexpr int kHiddenMaxElements = 3000000;
// Odd parts below 2^7 keep the uniform input's arithmetic exact (workload.hpp).
constexpr int kHiddenBins[] = {1, 2, 7, 10, 64, 100, 127, 1000, 4096};
constexpr int kHiddenBlockSizes[] = {32, 64, 128, 256, 512, 1024};
constexpr int kHiddenMaxBlocks = 1000;
constexpr std::uint64_t kHiddenShapeSalt = 14;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  Histogram h;
  h.input = rng.uniform_int(0, 3) == 0 ? "skewed" : "uniform";
  h.n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  h.lo = static_cast<float>(rng.uniform_int(-64, 64));
  h.hi = h.lo + static_cast<float>(1 << rng.uniform_int(0, 7));
  h.bins = kHiddenBins[rng.uniform_int(0, static_cast<int>(std::size(kHiddenBins)) - 1)];
  const int blocks = static_cast<int>(rng.uniform_int(1, kHiddenMaxBlocks));
  const int threads =
      kHiddenBlockSizes[rng.uniform_int(0, static_cast<int>(std::size(kHiddenBlockSizes)) - 1)];
  check_gpu(c, request::global, h, blocks, threads);
  if (c.passed()) check_gpu(c, request::shared, h, blocks, threads);
}

// The speed case: every value in one bin, the global kernel's worst case.
constexpr int kSpeedElements = 1 << 22;
constexpr int kSanitizerSpeedElements = 1 << 16;
constexpr int kSpeedBins = 256;
constexpr int kSpeedBlocks = 1024;
constexpr int kSpeedThreads = 256;
constexpr int kSpeedRepetitions = 10;
constexpr int kSanitizerSpeedRepetitions = 1;
// With every value in one bin, the global kernel's 4M atomics on one address are served
// one after the other by the L2 slice that holds it; the privatised kernel spreads them
// over the multiprocessors' shared memories and sends 1024 to global memory.
// Measured on an H100 and an H200 the ratio is in the hundreds; 10x is a wide margin.
constexpr course::check::SpeedBar kPrivatisedBar{
    "speed-up of the privatised histogram over the global-atomic one",
    course::check::BarKind::at_least, 10.0, "241-283 on H100, 233 on H200"};

void check_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const Histogram h{"skewed", sanitized ? kSanitizerSpeedElements : kSpeedElements, kLo, kHi,
                    kSpeedBins};
  const Run run =
      c.run(request::speed, {{h, kSpeedBlocks, kSpeedThreads},
                             sanitized ? kSanitizerSpeedRepetitions : kSpeedRepetitions});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!expect_counts(c, run, result::global_counts, h, false) ||
      !expect_counts(c, run, result::shared_counts, h, true)) {
    return;
  }
  if (sanitized) {
    c.note("(times are not judged under compute-sanitizer)");
    return;
  }
  double global_ms = 0.0, shared_ms = 0.0;
  if (!c.read_times(run, {{result::global_ms, global_ms}, {result::shared_ms, shared_ms}})) {
    return;
  }
  const std::string figures = "on " + std::to_string(h.n) +
                              " values all in one bin, the "
                              "global-atomic histogram took " +
                              course::format_number(global_ms) + " ms and the privatised one " +
                              course::format_number(shared_ms) + " ms";
  c.judge_speed(kPrivatisedBar, global_ms / shared_ms, figures,
                {"histogram_shared must count into the block's shared bins (atomicAdd on "
                 "block_counts[bin]) and touch global memory only in the merge, once per "
                 "non-zero bin."});
}

// ---------------------------------------------------------------------------
// The largest value: atomic_max_float, through the given max_global
// ---------------------------------------------------------------------------
const std::string kNeverStoredHint =
    "the maximum was never stored: when value is larger, atomic_max_float must write it at "
    "address, with atomicCAS on the float's bits (reinterpret_cast<int*>(address), "
    "__float_as_int(value)).";
const std::string kIntOrderHint =
    "negative floats: atomicMax on the float's bits read as ints is no float maximum. The "
    "sign bit makes every negative float a negative int, ordered backwards (the bits of -2.0 "
    "are a larger int than those of -1.0, and those of -infinity beat every negative float's): "
    "compare floats, in an atomicCAS loop.";
const std::string kLostUpdateHint =
    "an update was lost: two calls replaced the same value, so both compared with it and both "
    "wrote (a read, a comparison and a write are three steps, like `*counter += 1`). The write "
    "must be an atomicCAS that swaps only if the value is still the one compared, retried when "
    "it is not.";
const std::string kCasResultHint =
    "a failed atomicCAS returns the value it found there: that is the new observed value, to "
    "compare with value and to swap from on the next try (observed = atomicCAS(...), loop "
    "while observed != assumed).";
const std::string kStaleCompareHint =
    "a value was written by a call that did not raise the maximum: after a failed atomicCAS, "
    "compare the value it returned with yours again before the next try, or a smaller value "
    "is written over a larger one. atomic_max_float returns what *address held before the "
    "call, as atomicMax does.";

// One maximum's case: its input, its grid, how many launches (each must be right).
// Every value larger than the one before: every call raises the maximum, and 131072
// threads contend for it.
constexpr int kMaxContendedElements = (1 << 18) + 3;
constexpr int kMaxContendedBlocks = 512;

using MaxCase = request::Max;

// Whether one launch's previous array is what an atomic maximum can return. The calls
// that raised the maximum (previous[i] < x[i]) each replaced a different value, since
// the stored value only grows; and every value a call returned is -infinity or one that
// a raising call stored. False, with the hint, otherwise.
bool expect_previous_consistent(CaseContext& c, const std::vector<float>& x, const float* previous,
                                int launch) {
  std::vector<float> replaced, stored;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(previous[i])) {
      c.fail("launch " + std::to_string(launch) + ": previous[" + std::to_string(i) +
             "] was not written (NaN): atomic_max_float returned no value there");
      return false;
    }
    if (previous[i] < x[i]) {
      replaced.push_back(previous[i]);
      stored.push_back(x[i]);
    }
  }
  std::sort(replaced.begin(), replaced.end());
  const auto twice = std::adjacent_find(replaced.begin(), replaced.end());
  if (twice != replaced.end()) {
    c.fail("launch " + std::to_string(launch) + ": two calls both replaced the value " +
           course::format_number(*twice) + " (each returned it and had a larger value)");
    c.hint(kLostUpdateHint);
    c.hint(kCasResultHint);
    return false;
  }
  std::sort(stored.begin(), stored.end());
  const float lowest = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (previous[i] != lowest && !std::binary_search(stored.begin(), stored.end(), previous[i])) {
      c.fail("launch " + std::to_string(launch) + ": the call for x[" + std::to_string(i) + "] = " +
             course::format_number(x[i]) + " returned " + course::format_number(previous[i]) +
             ", a value that no call raising the maximum had written");
      c.hint(kStaleCompareHint);
      return false;
    }
  }
  return true;
}

void check_max(CaseContext& c, const MaxCase& m) {
  const Run run = c.run(request::max, m);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  std::vector<float> x, maxima, previous;
  histogram::make_max_input(m.input, m.n, c.seed(), x);
  if (!c.read_array(run, result::maxima, maxima) ||
      !c.read_array(run, result::previous, previous)) {
    return;
  }
  if (maxima.size() != static_cast<std::size_t>(m.launches) ||
      previous.size() != static_cast<std::size_t>(m.launches) * x.size()) {
    c.fail("the program reported " + std::to_string(maxima.size()) + " maxima and " +
           std::to_string(previous.size()) + " previous values, expected " +
           std::to_string(m.launches) + " and " + std::to_string(m.launches * m.n));
    return;
  }
  const float expected = *std::max_element(x.begin(), x.end());
  const bool has_negative = std::any_of(x.begin(), x.end(), [](float v) { return v < 0.0f; });
  const std::string context = "(max_on_device, " + m.input + " input, n = " + std::to_string(m.n) +
                              ", " + std::to_string(m.blocks) + " x " + std::to_string(m.threads) +
                              " threads)";
  for (int launch = 0; launch < m.launches; ++launch) {
    const float got = maxima[static_cast<std::size_t>(launch)];
    if (got != expected) {
      c.fail("launch " + std::to_string(launch) + ": the maximum is " + course::format_number(got) +
             ", expected " + course::format_number(expected));
      c.note(context);
      if (got == -std::numeric_limits<float>::infinity()) c.hint(kNeverStoredHint);
      if (has_negative && expected < 0.0f) c.hint(kIntOrderHint);
      if (got < expected) c.hint(kLostUpdateHint);
      return;
    }
    if (!expect_previous_consistent(c, x, previous.data() + launch * x.size(), launch)) {
      c.note(context);
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::alone_on_gpu;
  const Histogram lab = lab_histogram();
  course::check::Exercise exercise{
      "14",
      "atomics_histogram",
      {
          course::check::host_only({"cpu_histogram_lab_and_edges", 2, check_cpu}),
          {"counter_lab_64x64", 1,
           [](CaseContext& c) { check_counter(c, kLabCounterBlocks, kLabCounterThreads); }},
          {"counter_1000x1024", 1, [](CaseContext& c) { check_counter(c, 1000, 1024); }},
          {"global_lab_128x64", 2,
           [lab](CaseContext& c) {
             check_gpu(c, request::global, lab, kLabBlocks, kLabThreadsPerBlock);
           }},
          {"global_n_zero", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 0, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_n_one", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"skewed", 1, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_uniform_1000003", 2,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 1000003, kLo, kHi, 256}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_skewed_one_bin", 2,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"skewed", (1 << 20) + 5, kLo, kHi, kMaxBins},
                       kLabBlocks, kLabThreadsPerBlock);
           }},
          {"global_single_bin", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 54321, kLo, kHi, 1}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_edges_and_out_of_range", 2,
           [](CaseContext& c) { check_gpu_edges(c, request::global); }},
          // The shared-memory cases rely on the driver's scribble over shared memory
          // (harness/cases.cu): another program's kernels in between could leave zeros there and
          // hide bins that were never zeroed.
          alone_on_gpu({"shared_lab_128x64", 2,
                        [lab](CaseContext& c) {
                          check_gpu(c, request::shared, lab, kLabBlocks, kLabThreadsPerBlock);
                        }}),
          {"shared_n_zero_and_one", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 0, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
             if (c.passed()) {
               check_gpu(c, request::shared, {"skewed", 1, kLo, kHi, 10}, kLabBlocks,
                         kLabThreadsPerBlock);
             }
           }},
          alone_on_gpu({"shared_uniform_4096_bins", 2,
                        [](CaseContext& c) {
                          check_gpu(c, request::shared, {"uniform", 2000003, kLo, kHi, kMaxBins},
                                    kLabBlocks, 256);
                        }}),
          {"shared_skewed_one_bin", 2,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"skewed", (1 << 22) + 1, kLo, kHi, 256}, kLabBlocks,
                       256);
           }},
          {"shared_single_bin", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 54321, kLo, kHi, 1}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"shared_edges_and_out_of_range", 2,
           [](CaseContext& c) { check_gpu_edges(c, request::shared); }},
          {"shared_one_warp_grid", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 100003, kLo, kHi, 100}, 1, 32);
           }},
          {"shared_float4_tails_and_end", 2, check_shared_tails},
          {"shared_unaligned_input", 2,
           [](CaseContext& c) {
             for (const int offset : {1, 2, 3}) {
               Histogram h{"skewed", 100003, kLo, kHi, 100};
               h.offset = offset;
               check_gpu(c, request::shared, h, kLabBlocks, kLabThreadsPerBlock);
               if (!c.passed()) return;
             }
           }},
          {"hidden_seeded", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"privatised_10x_faster_on_skewed", 2, check_speed},
                               {kPrivatisedBar}),
          {"max_random_with_negatives", 1,
           [](CaseContext& c) {
             check_max(c, {"random", 1000003, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_all_negative", 2,
           [](CaseContext& c) {
             check_max(c, {"negative", 100003, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_all_equal", 1,
           [](CaseContext& c) {
             check_max(c, {"equal", 1, 1, 32, 1});
             if (c.passed()) check_max(c, {"equal", 4099, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_increasing_largest_last", 2,
           [](CaseContext& c) {
             check_max(c, {"increasing", kMaxContendedElements, kMaxContendedBlocks, 256, 5});
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
