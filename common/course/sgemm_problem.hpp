// One SGEMM problem as exercises 06 (cuBLAS) and 21 (tiled kernels) grade it: its shape,
// its inputs drawn from a seed, and the float64 reference with the error bound a float32
// result must meet.
//
// This header is plain C++ so that the checks (compiled without nvcc) can include it.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/data.hpp"
#include "course/verify.hpp"

namespace sgemm {

// C (m x n) = alpha A (m x k) B (k x n) + beta C, every matrix row-major with a
// leading dimension: the distance, in elements, from one row to the next.
struct Shape {
  int m = 1, n = 1, k = 1;
  int lda = 1, ldb = 1, ldc = 1;

  static Shape dense(int m, int n, int k) { return {m, n, k, k, n, n}; }
  // Each row followed by extra unused elements (padding).
  static Shape padded(int m, int n, int k, int pad_a, int pad_b, int pad_c) {
    return {m, n, k, k + pad_a, n + pad_b, n + pad_c};
  }
  std::size_t a_elements() const { return static_cast<std::size_t>(m) * lda; }
  std::size_t b_elements() const { return static_cast<std::size_t>(k) * ldb; }
  std::size_t c_elements() const { return static_cast<std::size_t>(m) * ldc; }
  // Multiply-adds count two operations: the formula of every GFLOP/s figure.
  double flops() const { return 2.0 * m * n * static_cast<double>(k); }
  std::string text() const {
    return std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k) +
           " (m x n x k), lda = " + std::to_string(lda) + ", ldb = " + std::to_string(ldb) +
           ", ldc = " + std::to_string(ldc);
  }
};

// Elements of A, B and C are uniform in [kInputMin, kInputMax): both signs, so that
// sums cancel as they do in real products, and never all zero.
inline constexpr float kInputMin = -1.0f;
inline constexpr float kInputMax = 1.0f;
// What the padding holds, in A, B and C: a value no product of inputs comes near, so
// that a leading dimension that reads the padding makes results of order 1e30 (or
// infinite), and a write into C's padding is seen.
inline constexpr float kPaddingValue = 1.0e30f;

struct Problem {
  Shape shape;
  float alpha = 1.0f;
  float beta = 0.0f;
  std::vector<float> a, b, c;  // row-major with their leading dimensions, padding included

  float a_at(int i, int p) const { return a[static_cast<std::size_t>(i) * shape.lda + p]; }
  float b_at(int p, int j) const { return b[static_cast<std::size_t>(p) * shape.ldb + j]; }
  float c_at(int i, int j) const { return c[static_cast<std::size_t>(i) * shape.ldc + j]; }
};

// A shape for the hidden cases: m, n and k each drawn in [1, max_size] from `rng` (seeded by
// the grading's seed and a salt of the exercise's own: the same for every step checked).
inline Shape draw_shape(course::Rng& rng, int max_size) {
  const int m = static_cast<int>(rng.uniform_int(1, max_size));
  const int n = static_cast<int>(rng.uniform_int(1, max_size));
  const int k = static_cast<int>(rng.uniform_int(1, max_size));
  return Shape::dense(m, n, k);
}

// Fills rows x width elements of a matrix with leading dimension ld from the seed; the
// rest, the padding, holds kPaddingValue.
inline std::vector<float> make_matrix(int rows, int width, int ld, std::uint64_t seed) {
  std::vector<float> values(static_cast<std::size_t>(rows) * ld, kPaddingValue);
  course::Rng rng(seed);
  for (int r = 0; r < rows; ++r) {
    for (int col = 0; col < width; ++col) {
      values[static_cast<std::size_t>(r) * ld + col] = rng.uniform(kInputMin, kInputMax);
    }
  }
  return values;
}

// The inputs of one problem. When beta is 0, C is not read (BLAS's rule): its elements
// then hold the poison (verify.hpp), so that an element the call does not write is seen.
inline Problem make_problem(const Shape& shape, float alpha, float beta, std::uint64_t seed) {
  Problem p;
  p.shape = shape;
  p.alpha = alpha;
  p.beta = beta;
  p.a = make_matrix(shape.m, shape.k, shape.lda, course::derive_seed(seed, 1));
  p.b = make_matrix(shape.k, shape.n, shape.ldb, course::derive_seed(seed, 2));
  p.c = make_matrix(shape.m, shape.n, shape.ldc, course::derive_seed(seed, 3));
  if (beta == 0.0f) {
    for (int i = 0; i < shape.m; ++i) {
      course::poison(p.c.data() + static_cast<std::size_t>(i) * shape.ldc, shape.n);
    }
  }
  return p;
}

// ---------------------------------------------------------------------------
// The reference and the error a float32 result may have
// ---------------------------------------------------------------------------

// One element of a product in float64: the sum of x(p) y(p) over p, and the sum of
// the absolute values of the same products, which bounds the rounding error.
struct Dot {
  double value = 0.0;
  double abs_sum = 0.0;
};

template <typename X, typename Y>
Dot dot_in_double(int k, X x, Y y) {
  Dot d;
  for (int p = 0; p < k; ++p) {
    const double product = static_cast<double>(x(p)) * static_cast<double>(y(p));
    d.value += product;
    d.abs_sum += std::fabs(product);
  }
  return d;
}

inline Dot reference_dot(const Problem& pr, int i, int j) {
  return dot_in_double(
      pr.shape.k, [&](int p) { return pr.a_at(i, p); }, [&](int p) { return pr.b_at(p, j); });
}

// An element of the exact result from its dot product: alpha dot + beta c0 (no c0 when
// beta is 0: C is not read then).
inline double combine(const Problem& pr, const Dot& d, int i, int j) {
  const double scaled = static_cast<double>(pr.alpha) * d.value;
  return pr.beta == 0.0f ? scaled : scaled + static_cast<double>(pr.beta) * pr.c_at(i, j);
}

// Why this bound. A float32 sum of k products, in any order (one loop, blocks, a tree,
// split over several threads and added at the end), with or without fused multiply-adds,
// is within gamma_k = k u / (1 - k u) of the exact sum, relative to the sum of the
// absolute products, u = 2^-24 (Higham, Accuracy and Stability of Numerical
// Algorithms, section 3.1). Scaling by alpha, by beta and the final addition add at
// most two roundings: the error of one element is at most
//   (k + 2) u (|alpha| sum_p |a_ip b_pj| + |beta c_ij|)
// up to terms in u^2. It is a worst case, not a typical one: random signs give errors
// nearer sqrt(k) u. kBoundSafety = 2 covers the u^2 terms and the rounding of the
// reference itself (float64, 2^-53). TF32 arithmetic (tensor cores, 10-bit mantissas)
// errs by about 2^-11 per product, far above this bound even for k = 1: a result
// computed with it fails, as the README says. A wrong formula (an operand swapped, a
// transpose, beta ignored) is wrong by about the size of the result, sqrt(k) / 3 and
// more, a thousand times this bound at the sizes of the check.
inline constexpr double kUnitRoundoff = 0x1.0p-24;
inline constexpr double kBoundSafety = 2.0;

inline double error_bound(const Problem& pr, const Dot& d, int i, int j) {
  const double c_term =
      pr.beta == 0.0f ? 0.0 : std::fabs(static_cast<double>(pr.beta) * pr.c_at(i, j));
  return kBoundSafety * (pr.shape.k + 2) * kUnitRoundoff *
         (std::fabs(static_cast<double>(pr.alpha)) * d.abs_sum + c_term);
}

}  // namespace sgemm
