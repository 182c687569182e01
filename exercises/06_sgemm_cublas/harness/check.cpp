// Exercise 06 - the check. Runs the student's program case by case and compares the C
// it reports with a float64 reference computed here, element by element within a
// bound that grows with k (workload.hpp says why). Contains no student code.
//
//   make check-06                          (students)
//   build/.../check_06 --program PROGRAM   (instructors; --help lists the options)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/reported_time.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Run;
using sgemm::Problem;
using sgemm::Shape;
namespace request = sgemm_cublas::request;
namespace result = sgemm_cublas::result;

// ---------------------------------------------------------------------------
// Hints: each names one classic mistake (the known-wrong variants look for them)
// ---------------------------------------------------------------------------
const std::string kLeadingDimensionHint =
    "a leading dimension is wrong: the padding (filled with 1e30) was read, or rows were "
    "written at the wrong place. Row i of A starts at a + i * lda, not a + i * k; pass lda, ldb "
    "and ldc to cuBLAS as they are, and copy the padded matrices whole (m * lda floats for A).";
const std::string kSwappedHint =
    "A and B are swapped: the result is B A. cuBLAS reads our row-major matrices as their "
    "transposes, and C = A B is C^T = B^T A^T: pass B (with ldb) first, then A (with lda), and "
    "the sizes n, m, k.";
const std::string kTransposedHint =
    "the result is transposed: transposing both operands (CUBLAS_OP_T) gives A B in column-major "
    "order, which row-major code reads as (A B)^T. Swap the operands instead: CUBLAS_OP_N twice, "
    "B first, then A, sizes n, m, k.";
const std::string kBetaHint =
    "beta C is missing: the result is alpha A B alone. Pass beta through (by address to "
    "cublasSgemm), and copy C to the device before the call: beta C reads it.";
const std::string kUninitialisedHint =
    "the result is NaN: the multiply read device memory that was never written. With beta != 0, "
    "C must be copied to the device before the call.";
const std::string kUnchangedHint =
    "C came back unchanged: nothing was computed, or the result was not copied back to c. "
    "(cblas_sgemm with CblasColMajor rejects these leading dimensions, prints an error and "
    "returns without computing.)";
const std::string kInvalidValueHint =
    "cuBLAS rejected the arguments (CUBLAS_STATUS_INVALID_VALUE): in its column-major terms "
    "each leading dimension must be at least the number of rows of its matrix. Row-major "
    "C = A B is column-major C^T = B^T A^T: cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, "
    "k, &alpha, b, ldb, a, lda, &beta, c, ldc).";
const std::string kOverrunHint =
    "cuBLAS wrote past the end of C: the sizes and leading dimension it was given describe a "
    "larger C than the m * ldc floats allocated (column-major: ldc rows per column, m columns "
    "of C^T).";
const std::string kPaddingHint =
    "the padding of C changed: elements n .. ldc - 1 of each row are not part of C. Pass ldc to "
    "cuBLAS, and copy C back as it went in (the whole m * ldc block, or only its n columns with "
    "cudaMemcpy2D).";
const std::string kNoSgemmHint =
    "sgemm_on_gpu must compute C on the GPU with cublasSgemm (through sgemm_on_device), inside a "
    "cuBLAS handle of its own (cublasCreate).";
const std::string kHandleHint =
    "every cublasCreate needs its cublasDestroy: a handle holds device memory and other "
    "resources until it is destroyed.";
const std::string kTimingHint =
    "cublasSgemm returns before the multiply ends, like a kernel launch: a host clock read "
    "right after it measures the call, not the multiply. Record CUDA events around it "
    "(course::EventTimer) and read elapsed_ms(), which waits for the stop event.";

// ---------------------------------------------------------------------------
// The expected C, and the wrong formulas the classic mistakes compute
// ---------------------------------------------------------------------------
enum class Formula {
  kRight,            // alpha A B + beta C
  kWithoutBetaC,     // alpha A B: beta ignored, or C never copied in
  kOperandsSwapped,  // alpha B A + beta C (square shapes): A and B in the wrong order
  kTransposed,       // alpha (A B)^T + beta C (m = n): both operands transposed
};

struct Expected {
  double value = 0.0;
  double bound = 0.0;  // the largest error a right float32 result may have
};

Expected expected_element(const Problem& pr, Formula formula, int i, int j) {
  sgemm::Dot dot;
  if (formula == Formula::kOperandsSwapped) {
    dot = sgemm::dot_in_double(
        pr.shape.k, [&](int p) { return pr.b_at(i, p); }, [&](int p) { return pr.a_at(p, j); });
  } else if (formula == Formula::kTransposed) {
    dot = sgemm::dot_in_double(
        pr.shape.k, [&](int p) { return pr.a_at(j, p); }, [&](int p) { return pr.b_at(p, i); });
  } else {
    dot = sgemm::reference_dot(pr, i, j);
  }
  Expected e;
  e.value =
      formula == Formula::kWithoutBetaC ? pr.alpha * dot.value : sgemm::combine(pr, dot, i, j);
  e.bound = sgemm::error_bound(pr, dot, i, j);
  return e;
}

bool within(float got, const Expected& e) {
  return std::isfinite(got) && std::fabs(static_cast<double>(got) - e.value) <= e.bound;
}

using Positions = std::vector<std::pair<int, int>>;

Positions every_element(const Shape& s) {
  Positions all;
  all.reserve(static_cast<std::size_t>(s.m) * s.n);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) all.emplace_back(i, j);
  }
  return all;
}

// True when every element at `positions` of `got` fits `formula`.
bool fits(const Problem& pr, const std::vector<float>& got, const Positions& positions,
          Formula formula) {
  for (const auto& [i, j] : positions) {
    if (!within(got[static_cast<std::size_t>(i) * pr.shape.ldc + j],
                expected_element(pr, formula, i, j))) {
      return false;
    }
  }
  return true;
}

// The program must have ended normally; a cuBLAS error, and a write past the end of a
// device buffer (here by cuBLAS's kernels, not by a kernel of the student's), earn
// hints of their own.
bool finished(CaseContext& c, const Run& run) {
  if (c.finished(run)) return true;
  if (run.child.output.find("CUBLAS_STATUS_INVALID_VALUE") != std::string::npos) {
    c.hint(kInvalidValueHint);
  }
  std::int64_t overruns = 0;
  const auto found = run.results.records.find(course::check::kOverrunRecord);
  if (found != run.results.records.end() && found->second.type == course::check::ValueType::i64 &&
      found->second.count == 1) {
    overruns = found->second.values<std::int64_t>()[0];
  }
  if (overruns > 0) c.hint(kOverrunHint);
  return false;
}

// What a wrong C looks like: names the mistake whose formula it fits.
void diagnose(CaseContext& c, const Problem& pr, const std::vector<float>& got,
              const Positions& positions, std::size_t huge, std::size_t nan) {
  const Shape& s = pr.shape;
  bool unchanged = pr.beta != 0.0f;
  for (const auto& [i, j] : positions) {
    const std::size_t at = static_cast<std::size_t>(i) * s.ldc + j;
    unchanged = unchanged && std::memcmp(&got[at], &pr.c[at], sizeof(float)) == 0;
  }
  if (unchanged) {
    c.hint(kUnchangedHint);
  } else if (huge > 0) {
    c.hint(kLeadingDimensionHint);
  } else if (nan > 0 && pr.beta != 0.0f) {
    c.hint(kUninitialisedHint);
  } else if (pr.beta != 0.0f && fits(pr, got, positions, Formula::kWithoutBetaC)) {
    c.hint(kBetaHint);
  } else if (s.m == s.n && s.n == s.k && fits(pr, got, positions, Formula::kOperandsSwapped)) {
    c.hint(kSwappedHint);
  } else if (s.m == s.n && fits(pr, got, positions, Formula::kTransposed)) {
    c.hint(kTransposedHint);
  } else {
    c.hint("each element must be alpha sum_p A(i, p) B(p, j) + beta C(i, j) in float32 "
           "arithmetic (cuBLAS's default math mode, not TF32): mind the operand order and the "
           "leading dimensions.");
  }
}

// Results this large come only from the padding (1e30): no product of inputs in [-1, 1)
// and sizes below a million comes near.
constexpr double kPaddingScale = 1.0e20;

// Compares C at `positions` with the reference, checks that the padding of C and the
// guard after it are untouched. `function` names the call for the messages.
bool expect_c(CaseContext& c, const Run& run, const Problem& pr, const Positions& positions,
              const std::string& function) {
  const Shape& s = pr.shape;
  if (!c.expect_host_guard_untouched(run, result::c, function,
                                     "C holds m * ldc floats: write no element after them.")) {
    return false;
  }
  std::vector<float> got;
  if (!CaseContext::reported(run, result::c) || !c.read_array(run, result::c, got) ||
      got.size() != s.c_elements()) {
    c.fail("the program reported no output 'c' of " + std::to_string(s.c_elements()) + " floats");
    return false;
  }

  std::size_t wrong = 0, unwritten = 0, huge = 0, nan = 0;
  std::string first;
  constexpr std::size_t kShownMismatches = 5;
  for (const auto& [i, j] : positions) {
    const float value = got[static_cast<std::size_t>(i) * s.ldc + j];
    const Expected e = expected_element(pr, Formula::kRight, i, j);
    if (!course::is_poison(value) && within(value, e)) continue;
    ++wrong;
    if (course::is_poison(value)) {
      ++unwritten;
    } else if (std::isnan(value)) {
      ++nan;
    } else if (!(std::fabs(value) < kPaddingScale)) {
      ++huge;
    }
    if (wrong <= kShownMismatches) {
      first +=
          "    C(" + std::to_string(i) + ", " + std::to_string(j) + "): expected " +
          course::format_number(e.value) + " +- " + course::format_number(e.bound) + ", got " +
          (course::is_poison(value) ? std::string("<not written>") : course::format_number(value)) +
          "\n";
    }
  }
  bool ok = true;
  if (wrong > 0) {
    ok = false;
    std::string summary =
        function + ", " + s.text() + ", alpha = " + course::format_number(pr.alpha) +
        ", beta = " + course::format_number(pr.beta) + ": " + std::to_string(wrong) + " of " +
        std::to_string(positions.size()) + " elements of C wrong";
    if (unwritten > 0) summary += " (" + std::to_string(unwritten) + " never written)";
    c.fail(summary +
           "; each may differ from the float64 reference by at most\n"
           "    2 (k + 2) 2^-24 (|alpha| sum_p |A(i, p) B(p, j)| + |beta C(i, j)|)\n" +
           first +
           (wrong > kShownMismatches
                ? "    ... and " + std::to_string(wrong - kShownMismatches) + " more\n"
                : ""));
    if (unwritten == positions.size()) {
      c.hint("no element of C was written: is the function implemented, and is C copied back to "
             "the host?");
    } else {
      diagnose(c, pr, got, positions, huge, nan);
    }
  }

  // The padding of C: every element between n and ldc of each row, bit for bit.
  std::size_t padding_changed = 0;
  for (int i = 0; i < s.m; ++i) {
    for (int j = s.n; j < s.ldc; ++j) {
      const float value = got[static_cast<std::size_t>(i) * s.ldc + j];
      if (std::memcmp(&value, &sgemm::kPaddingValue, sizeof value) != 0) ++padding_changed;
    }
  }
  if (padding_changed > 0) {
    ok = false;
    c.fail(function + " changed " + std::to_string(padding_changed) + " of the " +
           std::to_string(static_cast<std::size_t>(s.m) * (s.ldc - s.n)) +
           " padding elements of C (ldc = " + std::to_string(s.ldc) +
           ", n = " + std::to_string(s.n) + ")");
    c.hint(kPaddingHint);
  }
  return ok;
}

// ---------------------------------------------------------------------------
// Running one problem
// ---------------------------------------------------------------------------
struct Request {
  Shape shape;
  float alpha = 1.0f;
  float beta = 0.0f;
};

request::Multiply params(const Request& r) {
  const Shape& s = r.shape;
  return {s.m, s.n, s.k, s.lda, s.ldb, s.ldc, r.alpha, r.beta};
}

Problem problem_of(CaseContext& c, const Request& r) {
  return sgemm::make_problem(r.shape, r.alpha, r.beta, c.seed());
}

std::int64_t count_of(CaseContext& c, const Run& run,
                      const course::check::Value<std::int64_t>& key) {
  std::int64_t value = -1;
  c.read_value(run, key, value);
  return value;
}

// sgemm_on_gpu must have called cublasSgemm: cuBLAS launches its kernels inside its
// own library, where the course's launch counter does not see them.
bool expect_sgemm_called(CaseContext& c, const Run& run) {
  const std::int64_t calls = count_of(c, run, result::cublas_sgemm_calls);
  if (calls > 0) return true;
  if (calls == 0) {
    c.fail("sgemm_on_gpu called cublasSgemm 0 times");
    c.hint(kNoSgemmHint);
  }
  return false;
}

bool check_cpu(CaseContext& c, const Request& r) {
  const Run run = c.run(request::cpu, params(r));
  if (!finished(c, run)) return false;
  const Problem pr = problem_of(c, r);
  return expect_c(c, run, pr, every_element(r.shape), "sgemm_on_cpu");
}

// One sgemm_on_gpu call; `run` receives it for the cases that look further.
bool check_gpu(CaseContext& c, const Request& r, Run* run_out = nullptr) {
  Run run = c.run(request::gpu, params(r));
  const bool ok = finished(c, run) && expect_sgemm_called(c, run) &&
                  expect_c(c, run, problem_of(c, r), every_element(r.shape), "sgemm_on_gpu");
  if (run_out != nullptr) *run_out = std::move(run);
  return ok;
}

// ---------------------------------------------------------------------------
// The time sgemm_on_gpu returns
// ---------------------------------------------------------------------------

// Large enough that the multiply takes about a millisecond even on an H200 (58 GFLOP),
// while the call returns in tens of microseconds.
constexpr int kTimingSize = 3072;
// The C of this size is checked at these many positions drawn from the seed (a float64
// reference of every element would take a minute); the other cases check every element.
constexpr int kTimingSamples = 64;
constexpr std::uint64_t kTimingSampleSalt = 6;
// The runner also times the same multiply on the same inputs with events, its fastest of
// several calls (course/check/reported_time.hpp says how the time is judged).

void check_sgemm_time(CaseContext& c) {
  const Request r{Shape::dense(kTimingSize, kTimingSize, kTimingSize), 1.0f, 0.0f};
  const Run run = c.run(request::gpu_timing, params(r));
  if (!finished(c, run) || !expect_sgemm_called(c, run)) return;
  const std::string size = std::to_string(kTimingSize);
  course::check::ReportedTime t{"sgemm_on_gpu", "multiply", size + " x " + size + " x " + size};
  if (!c.read_value(run, result::sgemm_ms, t.reported_ms) ||
      !c.read_value(run, result::call_ms, t.call_ms) ||
      !c.read_value(run, result::reference_sgemm_ms, t.fastest_ms) ||
      !course::check::read_watched_call(c, run, t)) {
    return;
  }
  course::Rng rng(course::derive_seed(c.seed(), kTimingSampleSalt));
  Positions samples;
  for (int s = 0; s < kTimingSamples; ++s) {
    samples.emplace_back(static_cast<int>(rng.uniform_int(0, kTimingSize - 1)),
                         static_cast<int>(rng.uniform_int(0, kTimingSize - 1)));
  }
  samples.emplace_back(kTimingSize - 1, kTimingSize - 1);  // the last element too
  // The values of the other cases are graded there; here the time must be that of a
  // multiply that computed C.
  if (!expect_c(c, run, problem_of(c, r), samples, "sgemm_on_gpu")) return;

  course::check::expect_plausible_time(
      c, t,
      {"time the multiply with a course::EventTimer: start() before sgemm_on_device, stop() "
       "after it, and return elapsed_ms().",
       "return the multiply's own time in milliseconds (elapsed_ms() of one call), not "
       "microseconds nor a total over several calls.",
       "time the multiply alone: start() right before sgemm_on_device and stop() right after "
       "it, with the copies, cudaMalloc/cudaFree and the handle's creation outside.",
       kTimingHint});
}

// ---------------------------------------------------------------------------
// Clean-up: the handle and the device memory
// ---------------------------------------------------------------------------
const Request kCleanUpRequest{Shape::dense(128, 96, 80), 1.5f, -0.75f};

void check_handle_destroyed(CaseContext& c) {
  Run run;
  if (!check_gpu(c, kCleanUpRequest, &run)) return;
  const std::int64_t created = count_of(c, run, result::cublas_handles_created);
  const std::int64_t destroyed = count_of(c, run, result::cublas_handles_destroyed);
  if (created < 0 || destroyed < 0) return;
  if (created == 0) {
    c.fail("sgemm_on_gpu created no cuBLAS handle");
    c.hint(kNoSgemmHint);
  } else if (destroyed != created) {
    c.fail("sgemm_on_gpu created " + std::to_string(created) + " cuBLAS handle(s) and destroyed " +
           std::to_string(destroyed));
    c.hint(kHandleHint);
  }
}

void check_memory_freed(CaseContext& c) {
  Run run;
  if (check_gpu(c, kCleanUpRequest, &run)) c.expect_no_leak(run);
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

// alpha and beta other than 1 and 0, exact in float so that the reference uses the very
// values the program does.
constexpr float kAlpha = 1.5f;
constexpr float kBeta = -0.75f;

// A shape, leading dimensions, alpha and beta the student has not seen: drawn from the
// seed, so graders change them with --seed.
constexpr int kHiddenMaxDimension = 200;
constexpr int kHiddenMaxPadding = 9;
constexpr float kHiddenAlphas[] = {0.5f, 1.25f, 2.0f, -1.0f};
constexpr float kHiddenBetas[] = {0.0f, 0.5f, -0.75f, 1.0f};
constexpr std::uint64_t kHiddenShapeSalt = 6;

void check_hidden(CaseContext& c) {
  // A stream of its own, apart from the ones that draw the inputs from the same seed.
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  auto draw = [&](int lo, int hi) { return static_cast<int>(rng.uniform_int(lo, hi)); };
  const int m = draw(1, kHiddenMaxDimension), n = draw(1, kHiddenMaxDimension),
            k = draw(1, kHiddenMaxDimension);
  const Shape shape = Shape::padded(m, n, k, draw(0, kHiddenMaxPadding), draw(0, kHiddenMaxPadding),
                                    draw(0, kHiddenMaxPadding));
  const float alpha = kHiddenAlphas[draw(0, static_cast<int>(std::size(kHiddenAlphas)) - 1)];
  const float beta = kHiddenBetas[draw(0, static_cast<int>(std::size(kHiddenBetas)) - 1)];
  check_gpu(c, {shape, alpha, beta});
}

// The shape of the padded cases: odd sizes, a different padding for each matrix.
const Shape kPaddedShape = Shape::padded(45, 38, 29, 7, 5, 11);

}  // namespace

int main(int argc, char** argv) {
  using course::check::host_only;
  course::check::Exercise exercise{
      "06",
      "sgemm_cublas",
      {
          host_only({"cpu_non_square_alpha_beta", 2,
                     [](CaseContext& c) {
                       check_cpu(c, {Shape::dense(37, 53, 61), kAlpha, kBeta});
                     }}),
          host_only({"cpu_padded_leading_dimensions", 2,
                     [](CaseContext& c) {
                       check_cpu(c, {kPaddedShape, kAlpha, kBeta});
                     }}),
          {"one_by_one_by_one", 1,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(1, 1, 1), kAlpha, kBeta});
           }},
          {"row_times_column_1xkx1", 1,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(1, 1, 1000), 1.0f, 0.0f});
           }},
          {"single_row_m_is_1", 1,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(1, 70, 45), kAlpha, kBeta});
           }},
          {"single_column_n_is_1", 1,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(70, 1, 45), 1.0f, 0.0f});
           }},
          {"non_square_37x53x61", 2,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(37, 53, 61), 1.0f, 0.0f});
           }},
          {"square_96_a_b_do_not_commute", 2,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(96, 96, 96), 1.0f, 0.0f});
           }},
          {"alpha_and_beta", 2,
           [](CaseContext& c) {
             check_gpu(c, {Shape::dense(64, 80, 48), kAlpha, kBeta});
           }},
          {"padded_leading_dimensions", 3,
           [](CaseContext& c) {
             check_gpu(c, {kPaddedShape, kAlpha, kBeta});
           }},
          {"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"sgemm_time_is_plausible", 2, check_sgemm_time},
                               {course::check::kHonestTimeBar}),
          {"destroys_its_cublas_handle", 2, check_handle_destroyed},
          {"frees_its_device_memory", 2, check_memory_freed},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
