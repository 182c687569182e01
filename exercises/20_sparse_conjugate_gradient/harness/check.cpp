// Exercise 20 - the check. Runs the student's program case by case and compares what
// it reports with references computed here, in double precision on the CPU: the products
// row by row within a bound from the arithmetic (whatever the order of the additions),
// the dot products, and conjugate gradient (the reference CG runs here, and the true
// residual of every solution is recomputed here). The speed of the vector and balanced
// products is compared with cuSPARSE's, measured in the same run.
// Contains no student code.
//
//   make check-20                          (students)
//   build/.../check_20 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

namespace scg = sparse_conjugate_gradient;
namespace request = sparse_conjugate_gradient::request;
namespace result = sparse_conjugate_gradient::result;
using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
using scg::CgStatus;
using scg::MatrixKind;

// A status for a person, in the chosen language (status_name is the English).
Message status_words(CgStatus status) {
  switch (status) {
    case CgStatus::converged: return {"converged", "convergé"};
    case CgStatus::breakdown: return Message::verbatim(scg::status_name(status));
    case CgStatus::not_converged: return {"not converged", "non convergé"};
  }
  return Message::verbatim("?");
}

// bench.hpp's formula; that header needs the CUDA runtime, the check does not.
double gigabytes_per_second(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

// ---------------------------------------------------------------------------
// Part 1: the products
// ---------------------------------------------------------------------------

const Message kScalarHint{
    "y[row] = the sum of values[k] * x[columns[k]] for row_offsets[row] <= k < "
    "row_offsets[row + 1] (row_offsets[row + 1] excluded).",
    "y[row] = la somme des values[k] * x[columns[k]] pour row_offsets[row] <= k < "
    "row_offsets[row + 1] (row_offsets[row + 1] exclu)."};
const Message kVectorHint{
    "every partial sum of a row's group must be folded: __shfl_down_sync with offsets "
    "kLanesPerRow / 2, ..., 2, 1, then lane 0 of the group writes y[row].",
    "chaque somme partielle du groupe d'une ligne doit être repliée : __shfl_down_sync avec "
    "les décalages kLanesPerRow / 2, ..., 2, 1, puis la lane 0 du groupe écrit y[row]."};
const Message kEmptyRowHint{
    "an empty row must be written too: its y is 0 (the output is not zeroed before the call).",
    "une ligne vide doit aussi être écrite : son y vaut 0 (la sortie n'est pas mise à zéro "
    "avant l'appel)."};

const Message kBalancedZeroHint{
    "y must be zeroed before the kernel adds into it: cudaMemsetAsync(y, 0, a.rows * "
    "sizeof(float)) in spmv_balanced (the check fills y with NaN before the call).",
    "y doit être mis à zéro avant que le kernel y ajoute : cudaMemsetAsync(y, 0, a.rows * "
    "sizeof(float)) dans spmv_balanced (le correcteur remplit y de NaN avant l'appel)."};
const Message kBalancedSearchHint{
    "the binary search must find the last row whose offset is <= the thread's first entry "
    "(row_offsets[row] <= first < row_offsets[row + 1], so row < a.rows), not the first row "
    "past it.",
    "la recherche dichotomique doit trouver la dernière ligne dont le décalage est inférieur ou "
    "égal à l'indice du premier coefficient du thread "
    "(row_offsets[row] <= first < row_offsets[row + 1], donc row < a.rows), pas la première "
    "ligne au-delà."};
const Message kBalancedAtomicHint{
    "a row shared by several threads gets a partial sum from each: add them with "
    "atomicAdd(&y[row], sum), never y[row] = sum (only the last store stays).",
    "une ligne partagée par plusieurs threads reçoit une somme partielle de chacun : "
    "ajoutez-les avec atomicAdd(&y[row], sum), jamais y[row] = sum (seule la dernière "
    "écriture reste)."};
const Message kBalancedFoldHint{
    "a warp may fold its 32 sums into one only when every lane holds the same row: "
    "__match_any_sync(kFullWarpMask, row) == kFullWarpMask (the mask it returns always holds "
    "the lane's own bit, so it is never 0); otherwise each lane adds its own sum to its row.",
    "un warp ne peut replier ses 32 sommes en une seule que si chaque lane tient la même "
    "ligne : __match_any_sync(kFullWarpMask, row) == kFullWarpMask (le masque rendu contient "
    "toujours le bit de la lane elle-même, il n'est donc jamais nul) ; sinon chaque lane "
    "ajoute sa propre somme à sa ligne."};
const Message kBalancedBoundsHint{
    "read a thread's entries as int4 and float4 only when all kEntriesPerThread of them lie "
    "below a.nonzeros; the walk must stop at the row of the thread's last entry.",
    "ne lisez les coefficients d'un thread en int4 et float4 que si tous ses "
    "kEntriesPerThread coefficients sont sous a.nonzeros ; le parcours doit s'arrêter à la "
    "ligne du dernier coefficient du thread."};

void report_product_mismatch(CaseContext& c, const scg::CsrMatrix& a,
                             const course::Comparison& comparison) {
  Message text = Message{"y: {} of {} rows wrong", "y : {} lignes fausses sur {}"}.with(
      comparison.wrong, comparison.count);
  if (comparison.unwritten > 0) {
    text += Message{" ({} never written)", " ({} jamais écrites)"}.with(comparison.unwritten);
  }
  text += Message{"; each row within 2 L 2^-24 sum_j |a_ij x_j| of the double product (L its "
                  "length)",
                  " ; chaque ligne à 2 L 2^-24 sum_j |a_ij x_j| près du produit en double (L sa "
                  "longueur)"};
  for (const course::Mismatch& m : comparison.first) {
    text += Message{"\n    row {} ({} entries): expected {}, got {}",
                    "\n    ligne {} ({} coefficients) : attendu {}, reçu {}"}
                .with(m.index, a.row_length(static_cast<int>(m.index)), m.expected,
                      m.unwritten ? Message{"<not written>", "<non écrit>"}
                                  : Message::verbatim(course::format_number(m.got)));
  }
  c.fail(text);
}

// A warp's share of the nonzeros in spmv_balanced: its 32 lanes' groups.
constexpr int kEntriesPerWarp = 32 * scg::kEntriesPerThread;

// Whether `got` is, within `tolerance`, the sum of the row's entries in one thread's
// group of kEntriesPerThread or in one warp's share: all that a row shared by threads
// keeps when they store their partial sums instead of adding them (the last store stays).
bool holds_one_part(const scg::CsrMatrix& a, const std::vector<float>& x, int row, double got,
                    double tolerance) {
  for (const int group : {scg::kEntriesPerThread, kEntriesPerWarp}) {
    double part = 0.0;
    for (int k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      part += static_cast<double>(a.values[k]) * x[a.columns[k]];
      if (k + 1 == a.row_offsets[row + 1] || (k + 1) % group == 0) {
        if (std::fabs(got - part) <= tolerance) return true;
        part = 0.0;
      }
    }
  }
  return false;
}

// Where a balanced product went wrong tells which step did: NaN left in y (the poison:
// y not zeroed), a value in an empty row (entries added to the row after theirs: the
// search), every wrong row holding one thread's or one warp's part of it (partial sums
// stored, not added), or else sums moved between rows (a warp fold over lanes of
// different rows; or the search, where no empty row could show it).
void hint_balanced_mistake(CaseContext& c, const scg::CsrMatrix& a, const std::vector<float>& x,
                           const std::vector<float>& y) {
  const std::vector<double> expected = scg::multiply(a, scg::to_double(x));
  const std::vector<double> bounds = scg::product_error_bounds(a, x);
  bool not_a_number = false, has_empty_row = false, empty_row_written = false;
  bool wrong_rows_hold_one_part = true;
  for (int i = 0; i < a.rows; ++i) {
    const bool empty = a.row_length(i) == 0;
    not_a_number = not_a_number || std::isnan(y[i]);
    has_empty_row = has_empty_row || empty;
    empty_row_written = empty_row_written || (empty && y[i] != 0.0f);
    if (!course::within_tolerance(y[i], expected[i], {bounds[i], 0.0})) {
      wrong_rows_hold_one_part =
          wrong_rows_hold_one_part && holds_one_part(a, x, i, y[i], bounds[i]);
    }
  }
  if (not_a_number) {
    c.hint(kBalancedZeroHint);
  } else if (empty_row_written) {
    c.hint(kBalancedSearchHint);
  } else if (wrong_rows_hold_one_part) {
    c.hint(kBalancedAtomicHint);
  } else {
    c.hint(kBalancedFoldHint);
    if (!has_empty_row) c.hint(kBalancedSearchHint);
  }
}

// The hint under a wrong product of `kernel`.
void hint_product_mistake(CaseContext& c, const std::string& kernel, const scg::CsrMatrix& a,
                          const std::vector<float>& x, const std::vector<float>& y,
                          const course::Comparison& comparison) {
  if (kernel == "balanced") {
    hint_balanced_mistake(c, a, x, y);
    return;
  }
  bool only_empty_rows_unwritten = comparison.unwritten > 0;
  for (const course::Mismatch& m : comparison.first) {
    only_empty_rows_unwritten =
        only_empty_rows_unwritten && m.unwritten && a.row_length(static_cast<int>(m.index)) == 0;
  }
  if (only_empty_rows_unwritten) c.hint(kEmptyRowHint);
  c.hint(kernel == "scalar" ? kScalarHint : kVectorHint);
}

// Whether the program reported a product y of `rows` floats (into y).
bool product_reported(CaseContext& c, const Run& run, int rows, std::vector<float>& y) {
  return CaseContext::reported(run, result::y) && c.read_array(run, result::y, y) &&
         y.size() == static_cast<std::size_t>(rows);
}

// One product y = A x by the student's `kernel` ("scalar", "vector", "balanced", or
// "warp": the vector kernel with a whole warp per row, launched by the runner); every row
// must be within its bound, and written.
bool check_product(CaseContext& c, const std::string& kernel, MatrixKind kind, int size) {
  const Run run = c.run(request::spmv, {kernel, kind, size});
  const scg::CsrMatrix a =
      scg::make_matrix(kind, size, course::derive_seed(c.seed(), scg::kMatrixSalt));
  if (!c.finished(run)) {
    // A product that stops the program has most likely read past its row: the last
    // row's entries end at the end of values and columns (and a balanced thread's row
    // at row_offsets' end).
    if (kernel == "balanced") {
      c.hint(kBalancedSearchHint);
      c.hint(kBalancedBoundsHint);
    } else {
      c.hint(kScalarHint);
    }
    return false;
  }
  // The balanced product of a matrix without nonzeros only zeroes y: no kernel.
  const bool launches = a.rows > 0 && (kernel != "balanced" || a.nonzeros() > 0);
  if (launches && !c.expect_kernel_launched(run)) return false;
  std::vector<float> y;
  if (!product_reported(c, run, a.rows, y)) {
    c.fail(Message{"the program reported no product y of {} floats",
                   "le programme n'a rendu aucun produit y de {} floats"}
               .with(a.rows));
    return false;
  }
  const std::vector<float> x = scg::make_x(a.rows, c.seed());
  const course::Comparison comparison = scg::compare_product(
      a, x, y.data(),
      course::spread_indices(static_cast<std::size_t>(a.rows), static_cast<std::size_t>(a.rows)));
  if (comparison.ok()) return true;
  report_product_mismatch(c, a, comparison);
  const Message called = kernel == "warp"
                             ? Message{"spmv_vector_kernel<32>, launched by the runner,",
                                       "spmv_vector_kernel<32>, lancé par le runner,"}
                             : Message::verbatim("spmv_" + kernel);
  c.note(Message{"({} on the {} matrix, {} rows, {} nonzeros)",
                 "({} sur la matrice {}, {} lignes, {} coefficients non nuls)"}
             .with(called, scg::kind_name(kind), a.rows, a.nonzeros()));
  hint_product_mistake(c, kernel, a, x, y, comparison);
  return false;
}

// Rows 0 and 1: a product of nothing must launch nothing (and not fail), then [[3]] x.
void check_tiny_products(CaseContext& c, const std::string& kernel) {
  if (check_product(c, kernel, MatrixKind::power_law, 0)) {
    check_product(c, kernel, MatrixKind::one_by_one, 1);
  }
}

// Power-law rows of a count drawn from the seed.
constexpr int kHiddenMinRows = 1000;
constexpr int kHiddenMaxRows = 200000;
constexpr std::uint64_t kHiddenShapeSalt = 20;

int hidden_rows(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  return static_cast<int>(rng.uniform_int(kHiddenMinRows, kHiddenMaxRows));
}

// ---------------------------------------------------------------------------
// Part 2: the dot product
// ---------------------------------------------------------------------------

const Message kDoubleDotHint{
    "accumulate the dot products in double: a float sum of millions of terms loses digits, "
    "and the squares of float values beyond 1.8e19 overflow float.",
    "accumulez les produits scalaires en double : une somme en float de millions de termes "
    "perd des chiffres, et les carrés de valeurs float au-delà de 1.8e19 dépassent la plage "
    "des float."};
// Products of two floats are exact in double; a double tree sum of n positive terms is
// within log2(n) + (terms per thread) roundings of 2^-53: far below 1e-12 relative. A
// float sum is off by 1e-8 to 1e-6 relative.
constexpr double kDotRelativeTolerance = 1e-12;

double dot_reference(int n, std::uint64_t seed, const std::string& data) {
  double sum = 0.0;
  for (const float value : scg::make_dot_input(n, seed, data))
    sum += static_cast<double>(value) * value;
  return sum;
}

bool check_dot(CaseContext& c, int n, const std::string& data) {
  const Run run = c.run(request::dot, {n, data});
  double got = 0.0;
  if (!c.finished(run) || (n > 0 && !c.expect_kernel_launched(run)) ||
      !c.read_value(run, result::dot, got)) {
    return false;
  }
  const double expected = dot_reference(n, c.seed(), data);
  if (course::within_tolerance(got, expected, {0.0, kDotRelativeTolerance})) return true;
  c.fail(Message{"dot(x, x) of {} values {} returned {}, expected {} (relative tolerance {})",
                 "dot(x, x) de {} valeurs {} a rendu {} au lieu de {} (tolérance relative {})"}
             .with(n,
                   data == "huge" ? Message{"of about 1e22", "d'environ 1e22"}
                                  : Message{"in [1, 2)", "dans [1 ; 2["},
                   got, expected, kDotRelativeTolerance));
  if (n > 0 && got == 0.0) {
    c.hint({"dot must return the value it copies back from the device.",
            "dot doit rendre la valeur qu'il recopie depuis le GPU."});
  }
  c.hint(kDoubleDotHint);
  return false;
}

// ---------------------------------------------------------------------------
// Part 3: conjugate gradient
// ---------------------------------------------------------------------------

constexpr double kCgTolerance = 1e-6;
// The student's CG, in float with double dot products, may take 10% more iterations than
// the reference in double (2 more for a handful); on the CPU, a float CG of the same
// algorithm took exactly the reference's count on every matrix of these cases.
constexpr double kIterationSlack = 1.10;
constexpr int kIterationSlackMin = 2;
// ||b - A x|| / ||b|| in double once the recursive residual met 1e-6: the float x drifts
// from it by a few percent (1.07e-6 on the CPU for Poisson 256); twice is the limit.
constexpr double kTrueResidualLimit = 2e-6;
// A solver that never converges runs this many times the reference's iterations.
constexpr int kMaxIterationFactor = 10;
constexpr int kMaxIterationsMin = 20;

const Message kResidualHint{
    "update the residual every iteration: r -= alpha q (q = A p), then rr_next = r . r.",
    "mettez le résidu à jour à chaque itération : r -= alpha q (q = A p), puis "
    "rr_next = r . r."};
const Message kBetaHint{"beta = rr_next / rr: the new r . r over the previous r . r.",
                        "beta = rr_next / rr : le nouveau r . r divisé par le précédent."};
const Message kAlphaHint{
    "x += alpha p with alpha = (r . r) / (p . A p) > 0: check the sign of alpha in the "
    "update of x (the residual r was right, so the solver believed it converged).",
    "x += alpha p avec alpha = (r . r) / (p . A p) > 0 : vérifiez le signe de alpha dans la "
    "mise à jour de x (le résidu r était juste, donc le solveur s'est cru convergé)."};
const Message kBreakdownHint{
    "test p . A p before dividing by it: when it is <= 0, A is not positive definite, "
    "return breakdown (with x the last iterate).",
    "testez p . A p avant de diviser par lui : s'il est <= 0, A n'est pas définie positive, "
    "rendez breakdown (avec pour x le dernier itéré)."};
const Message kZeroRhsHint{
    "with b = 0 the answer is x = 0: test the stopping rule rr <= tolerance^2 (b . b) "
    "before the first iteration (0 <= 0), and divide by nothing.",
    "avec b = 0 la réponse est x = 0 : testez le critère d'arrêt rr <= tolerance^2 (b . b) "
    "avant la première itération (0 <= 0), et ne divisez par rien."};

struct CgRun {
  CgStatus status = CgStatus::not_converged;
  int iterations = 0;
  std::vector<float> x;
};

// Runs the student's CG on the matrix, b = scale A x_true; false (the case failed) when
// it did not finish or reported no status, iteration count and finite x.
bool run_cg(CaseContext& c, MatrixKind kind, int size, double scale, int max_iterations,
            CgRun& out) {
  const Run run = c.run(request::cg, {kind, size, scale, kCgTolerance, max_iterations});
  std::int64_t status = 0, iterations = 0;
  if (!c.finished(run) || !c.expect_kernel_launched(run) || !c.expect_no_leak(run) ||
      !c.read_value(run, result::status, status) ||
      !c.read_value(run, result::iterations, iterations)) {
    return false;
  }
  if (!CaseContext::reported(run, result::x) || !c.read_array(run, result::x, out.x)) {
    c.fail({"the program reported no solution x", "le programme n'a rendu aucune solution x"});
    return false;
  }
  out.status = static_cast<CgStatus>(status);
  out.iterations = static_cast<int>(iterations);
  std::size_t unwritten = 0, not_finite = 0;
  for (const float value : out.x) {
    if (course::is_poison(value)) {
      ++unwritten;
    } else if (!std::isfinite(value)) {
      ++not_finite;
    }
  }
  if (unwritten > 0 || not_finite > 0) {
    c.fail(
        Message{"x: {} entries never written, {} not finite (NaN or infinite), of {}; "
                "conjugate_gradient returned {} after {} iterations",
                "x : {} coefficients jamais écrits, {} non finis (NaN ou infinis), sur {} ; "
                "conjugate_gradient a rendu le statut {} après {} itérations"}
            .with(unwritten, not_finite, out.x.size(), status_words(out.status), out.iterations));
    c.hint(unwritten > 0
               ? Message{"x starts at 0 (cudaMemset) and is updated in place: every entry is "
                         "written, whatever the outcome.",
                         "x part de 0 (cudaMemset) et est mis à jour sur place : chaque "
                         "coefficient est écrit, quelle que soit l'issue."}
               : Message{"a NaN is never a result: stop before dividing by a p . A p <= 0 or "
                         "by an r . r of 0.",
                         "un NaN n'est jamais un résultat : arrêtez-vous avant de diviser par un "
                         "p . A p <= 0 ou par un r . r nul."});
    return false;
  }
  if (status < 0 || status > static_cast<std::int64_t>(CgStatus::not_converged)) {
    c.fail(Message{"conjugate_gradient returned an unknown status {}",
                   "conjugate_gradient a rendu un statut inconnu, {}"}
               .with(status));
    return false;
  }
  return true;
}

// A solve that must converge: in no more iterations than the reference CG (+10%), to a
// true residual within kTrueResidualLimit.
void check_cg_converges(CaseContext& c, MatrixKind kind, int size, double scale = 1.0) {
  const scg::CsrMatrix a =
      scg::make_matrix(kind, size, course::derive_seed(c.seed(), scg::kMatrixSalt));
  const std::vector<float> b = scg::make_rhs(a, c.seed(), scale);
  const scg::CgOutcome reference = scg::reference_cg(a, b, kCgTolerance, 1 << 20);
  const int allowed = std::max(static_cast<int>(std::ceil(kIterationSlack * reference.iterations)),
                               reference.iterations + kIterationSlackMin);
  CgRun got;
  if (!run_cg(c, kind, size, scale,
              std::max(kMaxIterationsMin, kMaxIterationFactor * reference.iterations), got)) {
    if (scale == 0.0) c.hint(kZeroRhsHint);
    if (scale == scg::kHugeScale) c.hint(kDoubleDotHint);
    return;
  }
  const double residual = scg::true_relative_residual(a, b, got.x);
  const Message what =
      Message{"{} matrix, {} rows: conjugate_gradient returned {} after {} iterations, true "
              "residual ||b - Ax|| / ||b|| = {}; the reference CG (double, on the CPU) "
              "converged in {}",
              "matrice {}, {} lignes : conjugate_gradient a rendu le statut {} après {} "
              "itérations, vrai résidu ||b - Ax|| / ||b|| = {} ; le CG de référence (en double, "
              "sur le CPU) a convergé en {}"}
          .with(scg::kind_name(kind), a.rows, status_words(got.status), got.iterations, residual,
                reference.iterations);
  if (got.status != CgStatus::converged) {
    c.fail(what);
    c.hint(got.status == CgStatus::breakdown
               ? Message{"this matrix is positive definite: p . A p > 0 unless p . A p is "
                         "computed wrong.",
                         "cette matrice est définie positive : p . A p > 0, à moins que p . A p "
                         "soit mal calculé."}
               : kResidualHint);
    c.hint(kBetaHint);
    if (scale == scg::kHugeScale) c.hint(kDoubleDotHint);
    return;
  }
  if (residual > kTrueResidualLimit) {
    c.fail(what + Message{"; the true residual must be at most {}",
                          " ; le vrai résidu doit valoir au plus {}"}
                      .with(kTrueResidualLimit));
    c.hint(scale == 0.0 ? kZeroRhsHint : scale == scg::kHugeScale ? kDoubleDotHint : kAlphaHint);
    return;
  }
  if (got.iterations > allowed) {
    c.fail(what +
           Message{"; at most {} iterations are allowed", " ; au plus {} itérations sont permises"}
               .with(allowed));
    c.hint(kBetaHint);
    return;
  }
  c.note(what);
}

// A matrix with every eigenvalue negative: p . A p < 0 at the first iteration.
void check_cg_breakdown(CaseContext& c) {
  constexpr int kGrid = 32;
  CgRun got;
  if (!run_cg(c, MatrixKind::negative_poisson, kGrid, 1.0, 10 * kGrid * kGrid, got)) return;
  if (got.status != CgStatus::breakdown) {
    c.fail(Message{"the negative definite matrix (2D Poisson with -4 on the diagonal): "
                   "conjugate_gradient returned {} after {} iterations, expected breakdown at "
                   "iteration 0",
                   "la matrice définie négative (Poisson 2D avec -4 sur la diagonale) : "
                   "conjugate_gradient a rendu le statut {} après {} itérations, au lieu de "
                   "breakdown à l'itération 0"}
               .with(status_words(got.status), got.iterations));
    c.hint(kBreakdownHint);
  }
}

// ---------------------------------------------------------------------------
// Performance: the vector product against cuSPARSE on the 2D Poisson matrix, the balanced
// one on power-law rows
// ---------------------------------------------------------------------------

struct SpeedCase {
  const char* kernel;  // "vector" or "balanced"
  MatrixKind kind;
  int size;
  int sanitizer_size;  // under compute-sanitizer: a small matrix, its times not judged
  // GB/s of the student's product over cuSPARSE's, same bytes, same run
  // (tests/speed_bars.md).
  course::check::SpeedBar bar;
  Message hint;  // under a figure below the bar
};

constexpr int kSpeedRepetitions = 20;
constexpr double kSpeedTimeoutSeconds = 120.0;

// 4M rows, 21M nonzeros: 218 MB moved per product.
const SpeedCase kVectorSpeed{
    "vector",
    MatrixKind::poisson,
    2048,
    64,
    {"spmv_vector's GB/s over cuSPARSE's", course::check::BarKind::at_least, 0.8,
     "1.19 on H100, 1.17-1.19 on H200", "débit (GB/s) de spmv_vector divisé par celui de cuSPARSE",
     "1.19 sur H100, 1.17-1.19 sur H200"},
    Message{"a group of lanes per row must read the row's entries side by side (lane l takes "
            "entries start + l, start + l + kLanesPerRow, ...), with the lanes per row of "
            "vector_lanes_per_row: a whole warp on 5-entry rows leaves 27 lanes idle.",
            "un groupe de lanes par ligne doit lire les coefficients de la ligne côte à côte (la "
            "lane l prend les coefficients start + l, start + l + kLanesPerRow...), avec le "
            "nombre de lanes par ligne de vector_lanes_per_row : un warp entier sur des lignes "
            "de 5 coefficients laisse 27 lanes inactives."}};
// 1M rows, about 11M nonzeros, the longest row some 200,000 entries: there a thread or a
// group per row takes 88 to 133 times cuSPARSE's time (H200); within 3 times is the bar.
const SpeedCase kBalancedSpeed{
    "balanced",
    MatrixKind::power_law,
    1 << 20,
    1 << 12,
    {"spmv_balanced's GB/s over cuSPARSE's", course::check::BarKind::at_least, 0.33,
     "0.90 on H100, 0.89-0.91 on H200",
     "débit (GB/s) de spmv_balanced divisé par celui de cuSPARSE",
     "0.90 sur H100, 0.89-0.91 sur H200"},
    Message{"every thread takes 8 consecutive entries, read as two int4 and two float4, "
            "whatever the rows; a warp whose 32 lanes hold one row folds with shuffles and adds "
            "once (a row of 200,000 entries is otherwise 25,000 atomicAdds to one address).",
            "chaque thread prend 8 coefficients consécutifs, lus en deux int4 et deux float4, "
            "quelles que soient les lignes ; un warp dont les 32 lanes tiennent une même ligne "
            "la replie par des shuffles et n'ajoute qu'une fois (sinon, une ligne de 200 000 "
            "coefficients fait 25 000 atomicAdd sur une même adresse)."}};

void check_speed(CaseContext& c, const SpeedCase& speed) {
  const bool sanitized = c.under_sanitizer();
  const int size = sanitized ? speed.sanitizer_size : speed.size;
  const Run run = c.run(request::spmv_speed,
                        {speed.kernel, speed.kind, size, sanitized ? 1 : kSpeedRepetitions}, 0,
                        kSpeedTimeoutSeconds);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  const scg::CsrMatrix a =
      scg::make_matrix(speed.kind, size, course::derive_seed(c.seed(), scg::kMatrixSalt));
  std::vector<float> y;
  if (!product_reported(c, run, a.rows, y)) {
    c.fail({"the program reported no product y", "le programme n'a rendu aucun produit y"});
    return;
  }
  const std::vector<float> x = scg::make_x(a.rows, c.seed());
  const course::Comparison comparison = scg::compare_product(
      a, x, y.data(),
      course::spread_indices(static_cast<std::size_t>(a.rows), static_cast<std::size_t>(a.rows)));
  if (!comparison.ok()) {
    report_product_mismatch(c, a, comparison);
    hint_product_mistake(c, speed.kernel, a, x, y, comparison);
    return;
  }
  if (!c.times_judged()) return;
  double student_ms = 0.0, library_ms = 0.0;
  if (!c.read_times(run, {{result::student_ms, student_ms}, {result::cusparse_ms, library_ms}})) {
    return;
  }
  const double bytes = scg::product_bytes(a);
  const double student_gbps = gigabytes_per_second(bytes, student_ms);
  const double library_gbps = gigabytes_per_second(bytes, library_ms);
  const Message figures =
      Message{"spmv_{} on the {} matrix ({} rows, {} nonzeros): {} ms, {} GB/s; cusparseSpMV: {} "
              "ms, {} GB/s (bytes = 8 nnz + 4 (rows + 1) + 8 rows = {})",
              "spmv_{} sur la matrice {} ({} lignes, {} coefficients non nuls) : {} ms, {} GB/s ; "
              "cusparseSpMV : {} ms, {} GB/s (octets = 8 nnz + 4 (rows + 1) + 8 rows = {})"}
          .with(speed.kernel, scg::kind_name(speed.kind), a.rows, a.nonzeros(), student_ms,
                student_gbps, library_ms, library_gbps, bytes);
  c.judge_speed(speed.bar, student_gbps / library_gbps, figures, {speed.hint});
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  course::check::Exercise exercise{
      "20",
      "sparse_conjugate_gradient",
      {
          {"spmv_scalar_poisson_64", 1,
           [](CaseContext& c) { check_product(c, "scalar", MatrixKind::poisson, 64); }},
          {"spmv_scalar_banded_10007", 2,
           [](CaseContext& c) { check_product(c, "scalar", MatrixKind::banded, 10007); }},
          {"spmv_scalar_power_law_empty_rows", 2,
           [](CaseContext& c) { check_product(c, "scalar", MatrixKind::power_law, 50021); }},
          {"spmv_scalar_0_and_1_rows", 1, [](CaseContext& c) { check_tiny_products(c, "scalar"); }},
          {"spmv_vector_poisson_64", 1,
           [](CaseContext& c) { check_product(c, "vector", MatrixKind::poisson, 64); }},
          {"spmv_vector_banded_10007", 2,
           [](CaseContext& c) { check_product(c, "vector", MatrixKind::banded, 10007); }},
          {"spmv_warp_per_row_power_law", 2,
           [](CaseContext& c) { check_product(c, "warp", MatrixKind::power_law, 50021); }},
          {"spmv_vector_0_and_1_rows", 1, [](CaseContext& c) { check_tiny_products(c, "vector"); }},
          {"spmv_vector_poisson_2048", 2,
           [](CaseContext& c) {
             check_product(c, "vector", MatrixKind::poisson, c.under_sanitizer() ? 64 : 2048);
           }},
          {"spmv_hidden_power_law", 2,
           [](CaseContext& c) {
             const int rows = hidden_rows(c);
             if (check_product(c, "scalar", MatrixKind::power_law, rows)) {
               check_product(c, "vector", MatrixKind::power_law, rows);
             }
           },
           course::check::kHiddenCase},
          {"spmv_balanced_banded_10007", 2,
           [](CaseContext& c) { check_product(c, "balanced", MatrixKind::banded, 10007); }},
          {"spmv_balanced_long_row", 2,
           [](CaseContext& c) { check_product(c, "balanced", MatrixKind::long_row, 10007); }},
          {"spmv_balanced_power_law_empty_rows", 2,
           [](CaseContext& c) { check_product(c, "balanced", MatrixKind::power_law, 50021); }},
          {"spmv_balanced_all_rows_empty", 1,
           [](CaseContext& c) { check_product(c, "balanced", MatrixKind::empty, 1000); }},
          {"spmv_balanced_0_and_1_rows", 1,
           [](CaseContext& c) { check_tiny_products(c, "balanced"); }},
          {"spmv_balanced_hidden_power_law", 2,
           [](CaseContext& c) {
             check_product(c, "balanced", MatrixKind::power_law, hidden_rows(c));
           },
           course::check::kHiddenCase},
          {"dot_n_0_and_1", 1,
           [](CaseContext& c) {
             if (check_dot(c, 0, "squares")) check_dot(c, 1, "squares");
           }},
          {"dot_sum_of_squares_3000017", 2,
           [](CaseContext& c) { check_dot(c, c.under_sanitizer() ? 30011 : 3000017, "squares"); }},
          {"dot_squares_beyond_float_range", 2, [](CaseContext& c) { check_dot(c, 1000, "huge"); }},
          {"cg_one_by_one", 1,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::one_by_one, 1); }},
          {"cg_zero_rhs", 1,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::poisson, 32, 0.0); }},
          {"cg_poisson_64", 3,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::poisson, 64); }},
          {"cg_poisson_256", 3,
           [](CaseContext& c) {
             check_cg_converges(c, MatrixKind::poisson, c.under_sanitizer() ? 32 : 256);
           }},
          {"cg_banded_10007", 2,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::banded, 10007); }},
          {"cg_rhs_squares_beyond_float", 2,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::poisson, 32, scg::kHugeScale); }},
          {"cg_detects_breakdown", 2, check_cg_breakdown},
          {"cg_hidden_banded", 2,
           [](CaseContext& c) { check_cg_converges(c, MatrixKind::banded, hidden_rows(c)); },
           course::check::kHiddenCase},
          timed({"spmv_vector_speed_vs_cusparse", 3,
                 [](CaseContext& c) { check_speed(c, kVectorSpeed); }},
                {kVectorSpeed.bar}),
          timed({"spmv_balanced_speed_vs_cusparse", 3,
                 [](CaseContext& c) { check_speed(c, kBalancedSpeed); }},
                {kBalancedSpeed.bar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
