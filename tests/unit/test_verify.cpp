// Unit tests of course/verify.hpp: the tolerance rule, poison, mismatch reports.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "course/verify.hpp"
#include "unit_test.hpp"

using course::Tolerance;
using course::within_tolerance;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

UNIT_TEST(exact_tolerance_accepts_only_equal_values) {
  EXPECT_TRUE(within_tolerance(1.5, 1.5, course::kExact));
  EXPECT_TRUE(!within_tolerance(1.5, std::nextafter(1.5, 2.0), course::kExact));
  EXPECT_TRUE(within_tolerance(0.0, -0.0, course::kExact));
}

UNIT_TEST(absolute_tolerance_boundary_is_inclusive) {
  const Tolerance tol{0.25, 0.0};  // exactly representable, so the boundary is exact
  EXPECT_TRUE(within_tolerance(1.25, 1.0, tol));
  EXPECT_TRUE(within_tolerance(0.75, 1.0, tol));
  EXPECT_TRUE(!within_tolerance(1.2500001, 1.0, tol));
}

UNIT_TEST(relative_tolerance_scales_with_the_reference) {
  const Tolerance tol{0.0, 1e-3};
  EXPECT_TRUE(within_tolerance(1000.9, 1000.0, tol));
  EXPECT_TRUE(!within_tolerance(1001.1, 1000.0, tol));
  EXPECT_TRUE(!within_tolerance(1e-3, 0.0, tol));  // rtol alone demands exact zeros
  EXPECT_TRUE(within_tolerance(-1000.9, -1000.0, tol));
}

UNIT_TEST(nan_never_passes) {
  const Tolerance loose{1e30, 1e30};
  EXPECT_TRUE(!within_tolerance(kNaN, 1.0, loose));
  EXPECT_TRUE(!within_tolerance(1.0, kNaN, loose));
  EXPECT_TRUE(!within_tolerance(kNaN, kNaN, loose));
}

UNIT_TEST(infinity_passes_only_against_the_same_infinity) {
  const Tolerance loose{1e30, 1e30};
  EXPECT_TRUE(within_tolerance(kInf, kInf, loose));
  EXPECT_TRUE(!within_tolerance(-kInf, kInf, loose));
  EXPECT_TRUE(!within_tolerance(kInf, 1e300, loose));
  EXPECT_TRUE(!within_tolerance(1e300, kInf, loose));
}

UNIT_TEST(poison_is_recognised_for_every_type) {
  std::vector<float> floats(3);
  std::vector<double> doubles(3);
  std::vector<std::int32_t> ints(3);
  course::poison(floats.data(), floats.size());
  course::poison(doubles.data(), doubles.size());
  course::poison(ints.data(), ints.size());
  EXPECT_TRUE(course::is_poison(floats[2]) && std::isnan(floats[2]));
  EXPECT_TRUE(course::is_poison(doubles[1]));
  EXPECT_TRUE(course::is_poison(ints[0]));
  // Other NaNs, zeros and ordinary values are not poison.
  EXPECT_TRUE(!course::is_poison(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_TRUE(!course::is_poison(0.0f));
  EXPECT_TRUE(!course::is_poison(std::int32_t{-1}));
}

UNIT_TEST(poison_word_reads_as_poison_through_every_type) {
  // Device memory is filled word by word; a double made of two words is poison too.
  const std::uint64_t two_words = (std::uint64_t{course::kPoisonWord} << 32) | course::kPoisonWord;
  double as_double;
  std::memcpy(&as_double, &two_words, sizeof as_double);
  EXPECT_TRUE(course::is_poison(as_double));
}

UNIT_TEST(unwritten_elements_fail_and_are_counted) {
  const std::vector<double> expected = {1.0, 2.0, 3.0, 4.0};
  std::vector<float> got = {1.0f, 2.0f, 3.0f, 4.0f};
  got[2] = course::poison_value(0.0f);
  const course::Comparison c = course::compare(got.data(), expected.data(), 4, Tolerance{1, 1});
  EXPECT_TRUE(!c.ok());
  EXPECT_EQ(c.wrong, std::size_t{1});
  EXPECT_EQ(c.unwritten, std::size_t{1});
  EXPECT_EQ(c.first.size(), std::size_t{1});
  EXPECT_EQ(c.first[0].index, std::size_t{2});
  EXPECT_TRUE(c.first[0].unwritten);
}

UNIT_TEST(nan_output_fails_even_with_a_huge_tolerance) {
  const std::vector<double> expected = {1.0, 2.0};
  const std::vector<float> got = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  const course::Comparison c = course::compare(got.data(), expected.data(), 2, Tolerance{1e9, 1e9});
  EXPECT_EQ(c.wrong, std::size_t{1});
  EXPECT_EQ(c.unwritten, std::size_t{0});
}

UNIT_TEST(comparison_keeps_the_first_mismatches_and_the_largest_error) {
  std::vector<double> expected(100, 1.0);
  std::vector<float> got(100, 1.0f);
  for (int i = 10; i < 20; ++i) got[i] = 2.0f;
  got[50] = 11.0f;
  const course::Comparison c = course::compare(got.data(), expected.data(), 100, course::kExact, 3);
  EXPECT_EQ(c.wrong, std::size_t{11});
  EXPECT_EQ(c.first.size(), std::size_t{3});
  EXPECT_EQ(c.first[0].index, std::size_t{10});
  EXPECT_EQ(c.max_error_index, std::size_t{50});
  EXPECT_EQ(c.max_abs_error, 10.0);
}

UNIT_TEST(mismatch_report_names_index_expected_got_and_tolerance) {
  const std::vector<double> expected = {1.0, 2.0, 3.0};
  std::vector<float> got = {1.0f, 2.5f, 3.0f};
  got[0] = course::poison_value(0.0f);
  const Tolerance tol{1e-5, 1e-6};
  const course::Comparison c = course::compare(got.data(), expected.data(), 3, tol);
  const std::string text = course::describe(c, tol, "y");
  EXPECT_CONTAINS(text, "y: 2 of 3 elements wrong (1 never written)");
  EXPECT_CONTAINS(text, "tolerance |got - ref| <= 1e-05 + 1e-06 * |ref|");
  EXPECT_CONTAINS(text, "index 0: expected 1, got <not written>");
  EXPECT_CONTAINS(text, "index 1: expected 2, got 2.5");
  EXPECT_CONTAINS(text, "max abs error 0.5 at index 1");
}

UNIT_TEST(report_of_a_match_says_so) {
  const std::vector<int> expected = {7, 8};
  const std::vector<std::int32_t> got = {7, 8};
  const course::Comparison c = course::compare(got.data(), expected.data(), 2, course::kExact);
  EXPECT_TRUE(c.ok());
  EXPECT_CONTAINS(course::describe(c, course::kExact, "counts"),
                  "counts: all 2 elements match (exact match required");
}

UNIT_TEST(long_mismatch_lists_are_cut) {
  const std::vector<double> expected(50, 0.0);
  const std::vector<float> got(50, 1.0f);
  const course::Comparison c = course::compare(got.data(), expected.data(), 50, course::kExact);
  EXPECT_CONTAINS(course::describe(c, course::kExact, "v"), "... and 45 more");
}

UNIT_TEST(spread_indices_keep_the_first_and_the_last) {
  EXPECT_EQ(course::spread_indices(3, 10).size(), std::size_t{3});
  const std::vector<std::size_t> spread = course::spread_indices(1000001, 5);
  EXPECT_EQ(spread.size(), std::size_t{5});
  EXPECT_EQ(spread.front(), std::size_t{0});
  EXPECT_EQ(spread[2], std::size_t{500000});
  EXPECT_EQ(spread.back(), std::size_t{1000000});
  EXPECT_EQ(course::spread_indices(7, 1).size(), std::size_t{1});
  EXPECT_TRUE(course::spread_indices(0, 5).empty());
}

UNIT_TEST(compare_at_reports_the_outputs_own_indices) {
  std::vector<float> got(100);
  for (std::size_t i = 0; i < got.size(); ++i) got[i] = static_cast<float>(2 * i);
  got[99] = 0.0f;                        // wrong, and sampled
  got[50] = course::poison_value(0.0f);  // unwritten, and not sampled
  const std::vector<std::size_t> indices = {0, 33, 66, 99};
  const course::Comparison c = course::compare_at(
      got.data(), indices, [](std::size_t i) { return 2.0 * i; }, course::kExact);
  EXPECT_EQ(c.count, std::size_t{4});
  EXPECT_EQ(c.wrong, std::size_t{1});
  EXPECT_EQ(c.unwritten, std::size_t{0});
  EXPECT_EQ(c.first.front().index, std::size_t{99});
  EXPECT_EQ(c.max_error_index, std::size_t{99});
}

UNIT_TEST(a_16_bit_output_has_its_own_poison) {
  std::vector<std::int16_t> waveform(3, 7);
  course::poison(waveform.data(), 2);
  EXPECT_TRUE(course::is_poison(waveform[0]));
  EXPECT_TRUE(!course::is_poison(waveform[2]));
  EXPECT_EQ(static_cast<int>(waveform[1]), -21182);
}

UNIT_TEST_MAIN()
