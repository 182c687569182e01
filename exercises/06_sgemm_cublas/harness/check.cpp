// Exercise 06 - the check. Runs the student's program case by case and compares the C
// it reports with a float64 reference computed here, element by element within a
// bound that grows with k (workload.hpp says why). Contains no student code.
//
//   make check-06                          (students)
//   build/.../check_06 --program PROGRAM   (instructors; --help lists the options)
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
using course::check::Message;

const Message kLeadingDimensionHint{
    "a leading dimension is wrong: the padding (filled with 1e30) was read, or rows were "
    "written at the wrong place. Row i of A starts at a + i * lda, not a + i * k; pass lda, ldb "
    "and ldc to cuBLAS as they are, and copy the padded matrices whole (m * lda floats for A).",
    "une dimension principale est fausse : le remplissage (valant 1e30) a été lu, ou des lignes "
    "ont été écrites au mauvais endroit. La ligne i de A commence en a + i * lda, pas en "
    "a + i * k ; passez lda, ldb et ldc à cuBLAS tels quels, et copiez les matrices remplies en "
    "entier (m * lda floats pour A)."};
const Message kSwappedHint{
    "A and B are swapped: the result is B A. cuBLAS reads our row-major matrices as their "
    "transposes, and C = A B is C^T = B^T A^T: pass B (with ldb) first, then A (with lda), and "
    "the sizes n, m, k.",
    "A et B sont inversées : le résultat est B A. cuBLAS lit nos matrices rangées par lignes "
    "comme leurs transposées, et C = A B s'écrit C^T = B^T A^T : passez d'abord B (avec ldb), "
    "puis A (avec lda), et les tailles n, m, k."};
const Message kTransposedHint{
    "the result is transposed: transposing both operands (CUBLAS_OP_T) gives A B in column-major "
    "order, which row-major code reads as (A B)^T. Swap the operands instead: CUBLAS_OP_N twice, "
    "B first, then A, sizes n, m, k.",
    "le résultat est transposé : transposer les deux opérandes (CUBLAS_OP_T) donne A B rangée "
    "par colonnes, qu'un code rangé par lignes lit comme (A B)^T. Échangez plutôt les "
    "opérandes : CUBLAS_OP_N deux fois, B d'abord, puis A, tailles n, m, k."};
const Message kBetaHint{
    "beta C is missing: the result is alpha A B alone. Pass beta through (by address to "
    "cublasSgemm), and copy C to the device before the call: beta C reads it.",
    "beta C manque : le résultat est alpha A B seul. Transmettez beta (par adresse à "
    "cublasSgemm), et copiez C sur le GPU avant l'appel : beta C la lit."};
const Message kUninitialisedHint{
    "the result is NaN: the multiply read device memory that was never written. With beta != 0, "
    "C must be copied to the device before the call.",
    "le résultat est NaN : le produit a lu de la mémoire du GPU jamais écrite. Avec beta != 0, "
    "C doit être copiée sur le GPU avant l'appel."};
const Message kUnchangedHint{
    "C came back unchanged: nothing was computed, or the result was not copied back to c. "
    "(cblas_sgemm with CblasColMajor rejects these leading dimensions, prints an error and "
    "returns without computing.)",
    "C est revenue inchangée : rien n'a été calculé, ou le résultat n'a pas été recopié dans c. "
    "(cblas_sgemm avec CblasColMajor refuse ces dimensions principales, affiche une erreur et "
    "rend la main sans calculer.)"};
const Message kInvalidValueHint{
    "cuBLAS rejected the arguments (CUBLAS_STATUS_INVALID_VALUE): in its column-major terms "
    "each leading dimension must be at least the number of rows of its matrix. Row-major "
    "C = A B is column-major C^T = B^T A^T: cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, "
    "k, &alpha, b, ldb, a, lda, &beta, c, ldc).",
    "cuBLAS a refusé les arguments (CUBLAS_STATUS_INVALID_VALUE) : dans ses termes, rangés par "
    "colonnes, chaque dimension principale doit valoir au moins le nombre de lignes de sa "
    "matrice. C = A B rangée par lignes s'écrit C^T = B^T A^T rangée par colonnes : "
    "cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, ldb, a, lda, &beta, c, "
    "ldc)."};
const Message kOverrunHint{
    "cuBLAS wrote past the end of C: the sizes and leading dimension it was given describe a "
    "larger C than the m * ldc floats allocated (column-major: ldc rows per column, m columns "
    "of C^T).",
    "cuBLAS a écrit au-delà de la fin de C : les tailles et la dimension principale qu'il a "
    "reçues décrivent une C plus grande que les m * ldc floats alloués (rangée par colonnes : "
    "ldc lignes par colonne, m colonnes de C^T)."};
const Message kPaddingHint{
    "the padding of C changed: elements n .. ldc - 1 of each row are not part of C. Pass ldc to "
    "cuBLAS, and copy C back as it went in (the whole m * ldc block, or only its n columns with "
    "cudaMemcpy2D).",
    "le remplissage de C a changé : les éléments n .. ldc - 1 de chaque ligne ne font pas partie "
    "de C. Passez ldc à cuBLAS, et recopiez C comme elle est partie (tout le bloc m * ldc, ou "
    "seulement ses n colonnes avec cudaMemcpy2D)."};
const Message kNoSgemmHint{
    "sgemm_on_gpu must compute C on the GPU with cublasSgemm (through sgemm_on_device), inside a "
    "cuBLAS handle of its own (cublasCreate).",
    "sgemm_on_gpu doit calculer C sur le GPU avec cublasSgemm (par sgemm_on_device), dans un "
    "handle cuBLAS à lui (cublasCreate)."};
const Message kHandleHint{
    "every cublasCreate needs its cublasDestroy: a handle holds device memory and other "
    "resources until it is destroyed.",
    "chaque cublasCreate demande son cublasDestroy : un handle garde de la mémoire du GPU et "
    "d'autres ressources jusqu'à sa destruction."};
const Message kTimingHint{
    "cublasSgemm returns before the multiply ends, like a kernel launch: a host clock read "
    "right after it measures the call, not the multiply. Record CUDA events around it "
    "(course::EventTimer) and read elapsed_ms(), which waits for the stop event.",
    "cublasSgemm rend la main avant la fin du produit, comme un lancement de kernel : une "
    "horloge de l'hôte lue juste après mesure l'appel, pas le produit. Enregistrez des "
    "événements CUDA autour (course::EventTimer) et lisez elapsed_ms(), qui attend l'événement "
    "de fin."};

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
    c.hint({"each element must be alpha sum_p A(i, p) B(p, j) + beta C(i, j) in float32 "
            "arithmetic (cuBLAS's default math mode, not TF32): mind the operand order and the "
            "leading dimensions.",
            "chaque élément doit valoir alpha sum_p A(i, p) B(p, j) + beta C(i, j) en arithmétique "
            "float32 (le mode de calcul par défaut de cuBLAS, pas TF32) : attention à l'ordre des "
            "opérandes et aux dimensions principales."});
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
                                     {"C holds m * ldc floats: write no element after them.",
                                      "C contient m * ldc floats : n'écrivez aucun élément "
                                      "après eux."})) {
    return false;
  }
  std::vector<float> got;
  if (!CaseContext::reported(run, result::c) || !c.read_array(run, result::c, got) ||
      got.size() != s.c_elements()) {
    c.fail(Message{"the program reported no output 'c' of {} floats",
                   "le programme n'a rendu aucune sortie « c » de {} floats"}
               .with(s.c_elements()));
    return false;
  }

  std::size_t wrong = 0, unwritten = 0, huge = 0, nan = 0;
  Message first;
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
          Message{"    C({}, {}): expected {} +- {}, got {}\n",
                  "    C({}, {}) : attendu {} +- {}, obtenu {}\n"}
              .with(i, j, e.value, e.bound,
                    course::is_poison(value) ? Message{"<not written>", "<non écrit>"}
                                             : Message::verbatim(course::format_number(value)));
    }
  }
  bool ok = true;
  if (wrong > 0) {
    ok = false;
    Message summary = Message{"{}, {}, alpha = {}, beta = {}: {} of {} elements of C wrong",
                              "{}, {}, alpha = {}, beta = {} : {} éléments de C faux sur {}"}
                          .with(function, s.text(), pr.alpha, pr.beta, wrong, positions.size());
    if (unwritten > 0) {
      summary += Message{" ({} never written)", " ({} jamais écrits)"}.with(unwritten);
    }
    c.fail(summary +
           Message{"; each may differ from the float64 reference by at most\n",
                   " ; chacun peut s'écarter de la référence en float64 d'au plus\n"} +
           Message::verbatim(
               "    2 (k + 2) 2^-24 (|alpha| sum_p |A(i, p) B(p, j)| + |beta C(i, j)|)\n") +
           first +
           (wrong > kShownMismatches
                ? Message{"    ... and {} more\n", "    ... et {} de plus\n"}.with(wrong -
                                                                                   kShownMismatches)
                : Message()));
    if (unwritten == positions.size()) {
      c.hint({"no element of C was written: is the function implemented, and is C copied back "
              "to the host?",
              "aucun élément de C n'a été écrit : la fonction est-elle écrite, et C est-elle "
              "recopiée vers l'hôte ?"});
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
    c.fail(Message{"{} changed {} of the {} padding elements of C (ldc = {}, n = {})",
                   "{} a changé {} des {} éléments de remplissage de C (ldc = {}, n = {})"}
               .with(function, padding_changed, static_cast<std::size_t>(s.m) * (s.ldc - s.n),
                     s.ldc, s.n));
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
    c.fail({"sgemm_on_gpu called cublasSgemm 0 times", "sgemm_on_gpu a appelé cublasSgemm 0 fois"});
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
// Under compute-sanitizer the time is not judged, and the tool's instrumentation of every
// access makes 3072^3 take seconds: a smaller multiply checks the same calls and accesses.
constexpr int kSanitizerTimingSize = 512;
// The C of this size is checked at these many positions drawn from the seed (a float64
// reference of every element would take a minute); the other cases check every element.
constexpr int kTimingSamples = 64;
constexpr std::uint64_t kTimingSampleSalt = 6;
// The runner also times the same multiply on the same inputs with events, its fastest of
// several calls (course/check/reported_time.hpp says how the time is judged).

void check_sgemm_time(CaseContext& c) {
  const int size = c.under_sanitizer() ? kSanitizerTimingSize : kTimingSize;
  const Request r{Shape::dense(size, size, size), 1.0f, 0.0f};
  const Run run = c.run(request::gpu_timing, params(r));
  if (!finished(c, run) || !expect_sgemm_called(c, run)) return;
  course::check::ReportedTime t{"sgemm_on_gpu",
                                {"the multiply", "le produit"},
                                Message::verbatim(std::to_string(size) + " x " +
                                                  std::to_string(size) + " x " +
                                                  std::to_string(size))};
  if (!c.read_value(run, result::sgemm_ms, t.reported_ms) ||
      !c.read_value(run, result::call_ms, t.call_ms) ||
      !c.read_value(run, result::reference_sgemm_ms, t.fastest_ms) ||
      !course::check::read_watched_call(c, run, t)) {
    return;
  }
  course::Rng rng(course::derive_seed(c.seed(), kTimingSampleSalt));
  Positions samples;
  for (int s = 0; s < kTimingSamples; ++s) {
    samples.emplace_back(static_cast<int>(rng.uniform_int(0, size - 1)),
                         static_cast<int>(rng.uniform_int(0, size - 1)));
  }
  samples.emplace_back(size - 1, size - 1);  // the last element too
  // The values of the other cases are graded there; here the time must be that of a
  // multiply that computed C.
  if (!expect_c(c, run, problem_of(c, r), samples, "sgemm_on_gpu")) return;

  course::check::expect_plausible_time(
      c, t,
      {{"time the multiply with a course::EventTimer: start() before sgemm_on_device, stop() "
        "after it, and return elapsed_ms().",
        "mesurez le produit avec un course::EventTimer : start() avant sgemm_on_device, stop() "
        "après, et rendez elapsed_ms()."},
       {"return the multiply's own time in milliseconds (elapsed_ms() of one call), not "
        "microseconds nor a total over several calls.",
        "rendez le temps du produit lui-même en millisecondes (elapsed_ms() d'un appel), ni en "
        "microsecondes ni en total de plusieurs appels."},
       {"time the multiply alone: start() right before sgemm_on_device and stop() right after "
        "it, with the copies, cudaMalloc/cudaFree and the handle's creation outside.",
        "mesurez le produit seul : start() juste avant sgemm_on_device et stop() juste après, "
        "les copies, cudaMalloc/cudaFree et la création du handle en dehors."},
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
    c.fail({"sgemm_on_gpu created no cuBLAS handle", "sgemm_on_gpu n'a créé aucun handle cuBLAS"});
    c.hint(kNoSgemmHint);
  } else if (destroyed != created) {
    c.fail(Message{"sgemm_on_gpu created {} cuBLAS handle(s) and destroyed {}",
                   "sgemm_on_gpu a créé {} handle(s) cuBLAS et en a détruit {}"}
               .with(created, destroyed));
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
