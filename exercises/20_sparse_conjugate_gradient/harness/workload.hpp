// Exercise 20: what the student's program and its check must agree on - the sparse
// matrices (CSR), drawn from a seed, the vectors they multiply, the right-hand sides of
// the solves, and the double-precision references: the product, its error bound, and
// conjugate gradient; and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// sparse_conjugate_gradient.hpp includes it for the student's code.
//
// Used by:  make 20 && make run-20 (the program), make check-20 (the check)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

namespace sparse_conjugate_gradient {

// ---------------------------------------------------------------------------
// CSR storage
// ---------------------------------------------------------------------------

// A square rows x rows matrix in compressed sparse row form: the entries of row i are
// values[k] at column columns[k] for row_offsets[i] <= k < row_offsets[i + 1]. Columns
// are sorted within a row. Indices are int: 2^31 nonzeros is far beyond these matrices.
struct CsrMatrix {
  int rows = 0;
  std::vector<int> row_offsets{0};
  std::vector<int> columns;
  std::vector<float> values;

  int nonzeros() const { return static_cast<int>(values.size()); }
  int row_length(int row) const { return row_offsets[row + 1] - row_offsets[row]; }
  void end_row() { row_offsets.push_back(static_cast<int>(values.size())); }
};

enum class MatrixKind {
  poisson,           // 2D Poisson, 5 points, on a size x size grid: 4 on the diagonal, -1
                     // for each neighbour (symmetric positive definite)
  negative_poisson,  // the same with -4 on the diagonal: every eigenvalue negative
  banded,            // size rows, symmetric, entries within kHalfBandwidth of the diagonal,
                     // diagonally dominant (symmetric positive definite)
  power_law,         // size rows of very uneven length (Pareto), empty rows among them
  long_row,          // size rows: the middle one full (size entries), the others 0 to
                     // kShortRowMaxLength entries, empty ones among them
  empty,             // size rows, every one empty: no nonzeros
  one_by_one,        // [[kOneByOneValue]]
};

inline const char* kind_name(MatrixKind kind) {
  switch (kind) {
    case MatrixKind::poisson: return "poisson";
    case MatrixKind::negative_poisson: return "negative_poisson";
    case MatrixKind::banded: return "banded";
    case MatrixKind::power_law: return "power_law";
    case MatrixKind::long_row: return "long_row";
    case MatrixKind::empty: return "empty";
    case MatrixKind::one_by_one: return "one_by_one";
  }
  return "?";
}

// The kinds by name, as a request carries them (request_keys.hpp).
inline std::vector<std::pair<MatrixKind, std::string>> choices(MatrixKind) {
  std::vector<std::pair<MatrixKind, std::string>> named;
  for (MatrixKind kind :
       {MatrixKind::poisson, MatrixKind::negative_poisson, MatrixKind::banded,
        MatrixKind::power_law, MatrixKind::long_row, MatrixKind::empty, MatrixKind::one_by_one}) {
    named.emplace_back(kind, kind_name(kind));
  }
  return named;
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

inline constexpr float kPoissonDiagonal = 4.0f;
// 33 entries a row: more than 16, so that a warp's sum must fold all 32 lanes.
inline constexpr int kHalfBandwidth = 16;
// The banded matrix's diagonal exceeds the sum of its row's other magnitudes by this
// fraction: SPD with a condition number in the hundreds, a few dozen CG iterations.
inline constexpr double kBandedDominance = 0.02;
// Power-law rows: lengths x_m * U^(-1/alpha) (Pareto, mean alpha x_m / (alpha - 1) = 12,
// infinite variance: a few rows thousands of entries long), kEmptyRowChance of them empty,
// and the first and last rows always empty.
inline constexpr double kParetoScale = 2.0;
inline constexpr double kParetoExponent = 1.2;
inline constexpr double kEmptyRowChance = 0.02;
// The long_row matrix's short rows: 0 to 3 entries each (a quarter of them empty, and the
// first and last rows always), so that the threads and warps around the full row hold
// several rows each.
inline constexpr int kShortRowMaxLength = 3;
inline constexpr float kOneByOneValue = 3.0f;

// A 2D Poisson matrix, row i * n + j for grid point (i, j); one pass, no sorting: 4M rows
// and 20M entries (n = 2048) in a fraction of a second.
inline CsrMatrix poisson_2d(int n, float diagonal) {
  CsrMatrix a;
  const std::size_t rows = static_cast<std::size_t>(n) * n;
  a.rows = static_cast<int>(rows);
  a.row_offsets.reserve(rows + 1);
  a.columns.reserve(5 * rows);
  a.values.reserve(5 * rows);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int row = i * n + j;
      auto put = [&](int column, float value) {
        a.columns.push_back(column);
        a.values.push_back(value);
      };
      if (i > 0) put(row - n, -1.0f);
      if (j > 0) put(row - 1, -1.0f);
      put(row, diagonal);
      if (j < n - 1) put(row + 1, -1.0f);
      if (i < n - 1) put(row + n, -1.0f);
      a.end_row();
    }
  }
  return a;
}

// The same value for entry (i, j) and (j, i), from the seed alone: a symmetric matrix
// generated row by row.
inline float symmetric_entry(std::uint64_t seed, int i, int j) {
  const std::uint64_t pair = (static_cast<std::uint64_t>(std::min(i, j)) << 32) |
                             static_cast<std::uint32_t>(std::max(i, j));
  course::Rng rng(course::derive_seed(seed, pair));
  return rng.uniform(-1.0f, 1.0f);
}

inline CsrMatrix banded_spd(int rows, std::uint64_t seed) {
  CsrMatrix a;
  a.rows = rows;
  for (int i = 0; i < rows; ++i) {
    const int first = std::max(0, i - kHalfBandwidth);
    const int last = std::min(rows - 1, i + kHalfBandwidth);
    double magnitudes = 0.0;
    for (int j = first; j <= last; ++j) {
      if (j != i) magnitudes += std::fabs(symmetric_entry(seed, i, j));
    }
    for (int j = first; j <= last; ++j) {
      a.columns.push_back(j);
      a.values.push_back(j == i ? static_cast<float>((1.0 + kBandedDominance) * magnitudes + 1.0)
                                : symmetric_entry(seed, i, j));
    }
    a.end_row();
  }
  return a;
}

// `entries` columns drawn uniformly in [0, rows) into `row`, sorted, repeats dropped.
inline void draw_columns(course::Rng& rng, int entries, int rows, std::vector<int>& row) {
  for (int k = 0; k < entries; ++k) row.push_back(static_cast<int>(rng.uniform_int(0, rows - 1)));
  std::sort(row.begin(), row.end());
  row.erase(std::unique(row.begin(), row.end()), row.end());
}

// Ends a row of `a` with the columns of `row`, each with a value uniform in [-1, 1).
inline void append_row_with_random_values(CsrMatrix& a, const std::vector<int>& row,
                                          course::Rng& rng) {
  for (const int column : row) {
    a.columns.push_back(column);
    a.values.push_back(rng.uniform(-1.0f, 1.0f));
  }
  a.end_row();
}

inline CsrMatrix power_law_rows(int rows, std::uint64_t seed) {
  CsrMatrix a;
  a.rows = rows;
  course::Rng rng(seed);
  std::vector<int> row;
  for (int i = 0; i < rows; ++i) {
    row.clear();
    const bool empty = i == 0 || i == rows - 1 || rng.uniform01() < kEmptyRowChance;
    if (!empty) {
      const double length = kParetoScale * std::pow(1.0 - rng.uniform01(), -1.0 / kParetoExponent);
      draw_columns(rng, static_cast<int>(std::min<double>(length, rows)), rows, row);
    }
    append_row_with_random_values(a, row, rng);
  }
  return a;
}

// Row rows / 2 holds every column: a row far longer than a warp's or a block's share of
// the nonzeros when the nonzeros are split evenly among threads.
inline CsrMatrix long_row_amid_short_ones(int rows, std::uint64_t seed) {
  CsrMatrix a;
  a.rows = rows;
  course::Rng rng(seed);
  std::vector<int> row;
  for (int i = 0; i < rows; ++i) {
    row.clear();
    if (i == rows / 2) {
      for (int column = 0; column < rows; ++column) row.push_back(column);
    } else if (i != 0 && i != rows - 1) {
      draw_columns(rng, static_cast<int>(rng.uniform_int(0, kShortRowMaxLength)), rows, row);
    }
    append_row_with_random_values(a, row, rng);
  }
  return a;
}

// `size` is the grid's side for the Poisson kinds, the number of rows otherwise.
inline CsrMatrix make_matrix(MatrixKind kind, int size, std::uint64_t seed) {
  switch (kind) {
    case MatrixKind::poisson: return poisson_2d(size, kPoissonDiagonal);
    case MatrixKind::negative_poisson: return poisson_2d(size, -kPoissonDiagonal);
    case MatrixKind::banded: return banded_spd(size, seed);
    case MatrixKind::power_law: return power_law_rows(size, seed);
    case MatrixKind::long_row: return long_row_amid_short_ones(size, seed);
    case MatrixKind::empty: {
      CsrMatrix a;
      a.rows = size;
      a.row_offsets.assign(static_cast<std::size_t>(size) + 1, 0);
      return a;
    }
    case MatrixKind::one_by_one: break;
  }
  CsrMatrix a;
  a.rows = 1;
  a.columns.push_back(0);
  a.values.push_back(kOneByOneValue);
  a.end_row();
  return a;
}

// ---------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------

inline constexpr std::uint64_t kMatrixSalt = 1;
inline constexpr std::uint64_t kVectorSalt = 2;
inline constexpr std::uint64_t kSolutionSalt = 3;

// The x of a product: uniform in [-1, 1), both signs, never all zero.
inline std::vector<float> make_x(int rows, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(rows), -1.0f, 1.0f,
                               course::derive_seed(seed, kVectorSalt));
}

// The vector of the dot-product cases, dotted with itself: "squares" uniform in [1, 2)
// (a sum of n positive terms, as r . r is), "huge" the same times kHugeScale (squares of
// about 1e44, beyond float's 3.4e38; the right-hand side of a CG case is scaled alike).
inline constexpr double kHugeScale = 1e22;
inline std::vector<float> make_dot_input(int n, std::uint64_t seed, const std::string& data) {
  std::vector<float> x = course::random_floats(static_cast<std::size_t>(n), 1.0f, 2.0f,
                                               course::derive_seed(seed, kVectorSalt));
  const double scale = data == "huge" ? kHugeScale : 1.0;
  for (float& value : x) value = static_cast<float>(scale * value);
  return x;
}

// y = A x in double, from the float entries.
inline std::vector<double> multiply(const CsrMatrix& a, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(a.rows));
  for (int i = 0; i < a.rows; ++i) {
    double sum = 0.0;
    for (int k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      sum += static_cast<double>(a.values[k]) * x[a.columns[k]];
    }
    y[i] = sum;
  }
  return y;
}

// The bytes a product moves at least (the GB/s formula): a 4-byte value and a 4-byte
// column index per nonzero, rows + 1 4-byte row offsets, x read once (a perfect cache
// for its gathers) and y written once, 4 bytes a row each.
inline double product_bytes(const CsrMatrix& a) {
  return 8.0 * a.nonzeros() + 4.0 * (a.rows + 1.0) + 8.0 * a.rows;
}

inline std::vector<double> to_double(const std::vector<float>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// How far a float product may be from the double one, row by row: a float sum of L
// products of magnitude total sum_j |a_ij x_j| is within L roundings of 2^-24 of that
// total, whatever the order (Higham, Accuracy and Stability, 3.1); twice that is left
// for the products' own roundings. The bound holds for any grouping, not only a loop's:
// each product goes through at most L - 1 additions, each rounding by at most 2^-24,
// wherever they happen (a thread's partial sums, a warp's fold, atomicAdds into a zeroed
// y in whatever order they land; adding 0 is exact). So spmv_balanced, whose result
// changes in its last bits from run to run, is judged by the same bound as the others.
// An empty row must be exactly 0.
inline constexpr double kFloatRounding = 0x1.0p-24;
inline std::vector<double> product_error_bounds(const CsrMatrix& a, const std::vector<float>& x) {
  std::vector<double> bounds(static_cast<std::size_t>(a.rows));
  for (int i = 0; i < a.rows; ++i) {
    double magnitude = 0.0;
    for (int k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      magnitude += std::fabs(static_cast<double>(a.values[k]) * x[a.columns[k]]);
    }
    bounds[i] = 2.0 * a.row_length(i) * kFloatRounding * magnitude;
  }
  return bounds;
}

inline constexpr std::size_t kMismatchesShown = 5;

// spmv_balanced's split (sparse_conjugate_gradient.hpp): each thread takes this many
// consecutive nonzeros.
inline constexpr int kEntriesPerThread = 8;

// A float product y compared with the double one at the rows `indices`, each row within
// its own bound (product_error_bounds): the course's Comparison, unwritten rows (poison)
// and NaN included.
inline course::Comparison compare_product(const CsrMatrix& a, const std::vector<float>& x,
                                          const float* y, const std::vector<std::size_t>& indices) {
  const std::vector<double> expected = multiply(a, to_double(x));
  const std::vector<double> bounds = product_error_bounds(a, x);
  course::Comparison result;
  result.count = indices.size();
  for (const std::size_t i : indices) {
    const bool unwritten = course::is_poison(y[i]);
    const double error = std::fabs(y[i] - expected[i]);
    if (!unwritten && std::isfinite(error) && error > result.max_abs_error) {
      result.max_abs_error = error;
      result.max_error_index = i;
    }
    if (!unwritten && course::within_tolerance(y[i], expected[i], {bounds[i], 0.0})) continue;
    ++result.wrong;
    if (unwritten) ++result.unwritten;
    if (result.first.size() < kMismatchesShown) {
      result.first.push_back({i, expected[i], static_cast<double>(y[i]), unwritten});
    }
  }
  return result;
}

// The right-hand side of a solve: b = scale * A x_true with x_true uniform in [-1, 1)
// (a b whose solution is known to be of moderate size), rounded to float.
inline std::vector<float> make_rhs(const CsrMatrix& a, std::uint64_t seed, double scale) {
  const std::vector<float> truth = course::random_floats(
      static_cast<std::size_t>(a.rows), -1.0f, 1.0f, course::derive_seed(seed, kSolutionSalt));
  const std::vector<double> b = multiply(a, to_double(truth));
  std::vector<float> rhs(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) rhs[i] = static_cast<float>(scale * b[i]);
  return rhs;
}

inline double dot_double(const std::vector<double>& u, const std::vector<double>& v) {
  double sum = 0.0;
  for (std::size_t i = 0; i < u.size(); ++i) sum += u[i] * v[i];
  return sum;
}

// ||b - A x|| / ||b|| in double (0 when b = 0 and x = 0).
inline double true_relative_residual(const CsrMatrix& a, const std::vector<float>& b,
                                     const std::vector<float>& x) {
  const std::vector<double> ax = multiply(a, to_double(x));
  double residual = 0.0, norm_b = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    residual += (b[i] - ax[i]) * (b[i] - ax[i]);
    norm_b += static_cast<double>(b[i]) * b[i];
  }
  if (norm_b == 0.0) return std::sqrt(residual);
  return std::sqrt(residual / norm_b);
}

// ---------------------------------------------------------------------------
// Conjugate gradient, the reference: double precision, the algorithm of the statement
// ---------------------------------------------------------------------------

// The codes conjugate_gradient returns (sparse_conjugate_gradient.hpp).
enum class CgStatus : int { converged = 0, breakdown = 1, not_converged = 2 };

inline const char* status_name(CgStatus status) {
  switch (status) {
    case CgStatus::converged: return "converged";
    case CgStatus::breakdown: return "breakdown (p^T A p <= 0)";
    case CgStatus::not_converged: return "not converged";
  }
  return "?";
}

struct CgOutcome {
  CgStatus status = CgStatus::not_converged;
  int iterations = 0;  // products A p computed
  std::vector<double> x;
};

// From x = 0: stops when ||r|| <= tolerance ||b|| (converged), when p^T A p <= 0
// (breakdown: A is not positive definite), or after max_iterations.
inline CgOutcome reference_cg(const CsrMatrix& a, const std::vector<float>& b, double tolerance,
                              int max_iterations) {
  CgOutcome out;
  const std::size_t n = b.size();
  out.x.assign(n, 0.0);
  std::vector<double> r = to_double(b), p = r;
  double rr = dot_double(r, r);
  const double limit = tolerance * tolerance * rr;
  for (int k = 0;; ++k) {
    if (rr <= limit) {
      out.status = CgStatus::converged;
      out.iterations = k;
      return out;
    }
    if (k == max_iterations) break;
    const std::vector<double> q = multiply(a, p);
    const double pq = dot_double(p, q);
    if (!(pq > 0.0)) {
      out.status = CgStatus::breakdown;
      out.iterations = k;
      return out;
    }
    const double alpha = rr / pq;
    for (std::size_t i = 0; i < n; ++i) {
      out.x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rr_next = dot_double(r, r);
    const double beta = rr_next / rr;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    rr = rr_next;
  }
  out.status = CgStatus::not_converged;
  out.iterations = max_iterations;
  return out;
}

// ---------------------------------------------------------------------------
// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu)
// ---------------------------------------------------------------------------

namespace request {
// y = A x by the student's `kernel` ("scalar", "vector", "balanced", or "warp": the vector
// kernel with a whole warp per row) on the matrix of this kind and size.
struct Spmv {
  std::string kernel;
  MatrixKind kind = MatrixKind::poisson;
  std::int64_t size = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("kernel", kernel), visit("kind", kind), visit("size", size);
  }
};
inline const course::check::Request<Spmv> spmv{"spmv"};
// The same product timed against cuSPARSE, each time the median of `repetitions`.
struct SpmvSpeed {
  std::string kernel;
  MatrixKind kind = MatrixKind::poisson;
  std::int64_t size = 0;
  std::int64_t repetitions = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("kernel", kernel), visit("kind", kind), visit("size", size),
        visit("repetitions", repetitions);
  }
};
inline const course::check::Request<SpmvSpeed> spmv_speed{"spmv_speed"};
// dot(x, x) on n values of make_dot_input's `data` ("squares" or "huge").
struct Dot {
  std::int64_t n = 0;
  std::string data;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("data", data);
  }
};
inline const course::check::Request<Dot> dot{"dot"};
// conjugate_gradient on the matrix of this kind and size, b = scale A x_true.
struct Cg {
  MatrixKind kind = MatrixKind::poisson;
  std::int64_t size = 0;
  double scale = 1.0;
  double tolerance = 0.0;
  std::int64_t max_iterations = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("kind", kind), visit("size", size), visit("scale", scale), visit("tolerance", tolerance),
        visit("max_iterations", max_iterations);
  }
};
inline const course::check::Request<Cg> cg{"cg"};
}  // namespace request

// ---------------------------------------------------------------------------
// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp)
// ---------------------------------------------------------------------------

namespace result {
// The product y = A x (spmv and spmv_speed cases), the solution x (cg cases).
inline const course::check::Array<float> y{"y"};
inline const course::check::Array<float> x{"x"};
// The speed case: the best round's median time of the student's product and cuSPARSE's.
inline const course::check::Value<double> student_ms{"student_ms"};
inline const course::check::Value<double> cusparse_ms{"cusparse_ms"};
// dot(x, x), as dot returned it.
inline const course::check::Value<double> dot{"dot"};
// conjugate_gradient's CgStatus (as its int) and its iteration count.
inline const course::check::Value<std::int64_t> status{"status"};
inline const course::check::Value<std::int64_t> iterations{"iterations"};
}  // namespace result

}  // namespace sparse_conjugate_gradient
