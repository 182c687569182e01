// The elements of C that the matrix-multiply checks compare (exercises 21 and 26), and
// what the comparison found: every element of a small product, or a sample of a large one
// (the float64 reference of all 16M elements of 4096^3 would take minutes), each judged
// against its float64 reference within a bound the exercise derives from its arithmetic.
//
// This header is plain C++ so that the checks (compiled without nvcc) can include it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/data.hpp"
#include "course/sgemm_problem.hpp"
#include "course/verify.hpp"

namespace sgemm {

// An element of C, by row and column.
struct Element {
  int i = 0, j = 0;
};

inline std::vector<Element> every_element(const Shape& s) {
  std::vector<Element> all;
  all.reserve(static_cast<std::size_t>(s.m) * s.n);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) all.push_back({i, j});
  }
  return all;
}

// The elements compared on a large product: the four corners, then elements drawn from
// the seed (and the exercise's salt).
inline constexpr int kSampledElements = 1024;

inline std::vector<Element> sampled_elements(const Shape& s, std::uint64_t seed,
                                             std::uint64_t salt) {
  std::vector<Element> at = {{0, 0}, {0, s.n - 1}, {s.m - 1, 0}, {s.m - 1, s.n - 1}};
  course::Rng rng(course::derive_seed(seed, salt));
  while (at.size() < static_cast<std::size_t>(kSampledElements)) {
    at.push_back({static_cast<int>(rng.uniform_int(0, s.m - 1)),
                  static_cast<int>(rng.uniform_int(0, s.n - 1))});
  }
  return at;
}

// The values of a row-major m x n matrix at `at`, in order.
inline std::vector<float> values_at(const std::vector<float>& c, const Shape& s,
                                    const std::vector<Element>& at) {
  std::vector<float> values;
  values.reserve(at.size());
  for (const Element& e : at) values.push_back(c[static_cast<std::size_t>(e.i) * s.n + e.j]);
  return values;
}

// What a comparison found (course/check/sgemm_verdict.hpp says it for a person).
struct Verdict {
  std::size_t count = 0;
  std::size_t wrong = 0;      // outside the bound, NaN included
  std::size_t nan = 0;        // NaN or infinite, among the wrong
  std::size_t unwritten = 0;  // still the poison C held (beta = 0), among the wrong
  // The first wrong element.
  Element first;
  double expected = 0.0, got = 0.0, bound = 0.0;

  bool right() const { return count > 0 && wrong == 0; }
  std::string text() const {
    if (wrong == 0) return "every element right";
    std::string line = std::to_string(wrong) + " of " + std::to_string(count) + " elements wrong";
    if (nan > 0) line += " (" + std::to_string(nan) + " NaN or infinite)";
    if (unwritten > 0) line += " (" + std::to_string(unwritten) + " never written)";
    return line + "; C(" + std::to_string(first.i) + ", " + std::to_string(first.j) +
           "): expected " + course::format_number(expected) + ", got " +
           (unwritten > 0 && course::is_poison(static_cast<float>(got))
                ? std::string("nothing (the NaN C held)")
                : course::format_number(got)) +
           ", allowed error " + course::format_number(bound);
  }
};

// got[q] is C's element at[q] after the call; `bound(problem, dot, i, j)` is the error
// the element may have.
template <typename Bound>
Verdict compare_elements(const Problem& pr, const std::vector<Element>& at,
                         const std::vector<float>& got, Bound&& bound) {
  Verdict v;
  v.count = at.size();
  for (std::size_t q = 0; q < at.size() && q < got.size(); ++q) {
    const Element& e = at[q];
    const Dot dot = reference_dot(pr, e.i, e.j);
    const double expected = combine(pr, dot, e.i, e.j);
    const double allowed = bound(pr, dot, e.i, e.j);
    const float value = got[q];
    if (std::isfinite(value) && std::fabs(static_cast<double>(value) - expected) <= allowed) {
      continue;
    }
    if (v.wrong == 0) {
      v.first = e;
      v.expected = expected;
      v.got = value;
      v.bound = allowed;
    }
    ++v.wrong;
    if (course::is_poison(value)) {
      ++v.unwritten;
    } else if (!std::isfinite(value)) {
      ++v.nan;
    }
  }
  if (got.size() < at.size()) v.wrong += at.size() - got.size();
  return v;
}

}  // namespace sgemm
