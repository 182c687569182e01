// Unit tests of course/demo_results.hpp: how a demo judges a result before it shows a
// figure (never written, NaN, wrong, a time of zero), the one line it prints, and the
// rows without figures it records.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/demo_results.hpp"
#include "unit_test.hpp"

namespace {

// What a StudentFunction printed, read back from its temporary file.
std::string printed(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, file) != nullptr) text += buffer;
  return text;
}

course::Comparison compared(const std::vector<float>& got, const std::vector<double>& expected) {
  return course::compare(got.data(), expected.data(), expected.size(),
                         course::Tolerance{0.0, 1e-6});
}

const std::vector<double> kExpected = {1.0, 2.0, 3.0, 4.0};

}  // namespace

UNIT_TEST(nothing_written_is_not_implemented_yet) {
  std::FILE* out = std::tmpfile();
  course::StudentFunction f("heavy_on_gpu", out);
  std::vector<float> got(4);
  course::poison(got.data(), got.size());
  const course::Judgement j = f.judge(compared(got, kExpected), "n = 4");
  EXPECT_TRUE(!j.right);
  EXPECT_EQ(j.problem, std::string("not implemented yet: heavy_on_gpu"));
  EXPECT_EQ(printed(out), std::string("not implemented yet: heavy_on_gpu\n"));
  EXPECT_TRUE(!f.ready());
  EXPECT_TRUE(f.not_implemented());
  EXPECT_TRUE(j.figure(12.5).empty());
  // A call the demo skips from now on has the same verdict, and prints nothing more.
  EXPECT_EQ(f.skipped().problem, j.problem);
  EXPECT_TRUE(!f.skipped().right);
  EXPECT_EQ(printed(out), std::string("not implemented yet: heavy_on_gpu\n"));
  std::fclose(out);
}

UNIT_TEST(a_result_partly_written_or_nan_is_wrong) {
  std::FILE* out = std::tmpfile();
  course::StudentFunction f("affine_on_gpu", out);
  std::vector<float> got = {1.0f, 2.0f, 3.0f, 4.0f};
  got[3] = course::poison_value(0.0f);
  const course::Judgement partial = f.judge(compared(got, kExpected), "n = 4");
  EXPECT_EQ(partial.problem, std::string("wrong result: affine_on_gpu (n = 4): 1 of 4 values wrong "
                                         "(1 never written); index 3: expected 4, got nothing"));
  got[3] = std::nanf("");
  const course::Judgement nan = f.judge(compared(got, kExpected));
  EXPECT_TRUE(!nan.right);
  EXPECT_CONTAINS(nan.problem, "got nan");
  // Only the first problem is printed: one line per function.
  EXPECT_EQ(printed(out), partial.problem + "\n");
  EXPECT_EQ(f.first_problem(), partial.problem);
  EXPECT_TRUE(!f.not_implemented());  // wrong, not missing: the demo keeps calling it
  std::fclose(out);
}

UNIT_TEST(a_right_result_shows_its_figures_and_prints_nothing) {
  std::FILE* out = std::tmpfile();
  course::StudentFunction f("affine_on_gpu", out);
  const std::vector<float> got = {1.0f, 2.0f, 3.0f, 4.0f};
  const course::Judgement j = f.judge(compared(got, kExpected));
  EXPECT_TRUE(j.right);
  EXPECT_TRUE(j.problem.empty());
  EXPECT_TRUE(!j.figure(12.5).empty());
  EXPECT_TRUE(j.figure(std::nan("")).empty());  // a figure that is no number is none
  EXPECT_TRUE(f.ready());
  EXPECT_EQ(course::demo_status({&f}), EXIT_SUCCESS);
  EXPECT_TRUE(printed(out).empty());
  std::fclose(out);
}

UNIT_TEST(a_time_of_zero_is_not_implemented_yet) {
  std::FILE* out = std::tmpfile();
  course::StudentFunction f("stencil_on_gpu", out);
  EXPECT_TRUE(f.judge_time(0.25).right);
  const course::Judgement zero = f.judge_time(0.0, "kernel time");
  EXPECT_EQ(zero.problem,
            std::string("not implemented yet: stencil_on_gpu (it returned a kernel time of 0 ms)"));
  EXPECT_TRUE(!f.judge_time(std::nan("")).right);
  EXPECT_EQ(course::demo_status({&f}), EXIT_FAILURE);
  std::fclose(out);
}

UNIT_TEST(values_are_judged_on_what_the_demo_knows) {
  std::FILE* out = std::tmpfile();
  course::StudentFunction f("count_hits_gpu", out);
  EXPECT_TRUE(f.judge_value(true, true, "n = 10", "").right);
  EXPECT_EQ(f.judge_value(false, false, "n = 10", "0 hits").problem,
            std::string("not implemented yet: count_hits_gpu"));
  EXPECT_EQ(f.judge_value(true, false, "n = 10", "3 hits, the reference 7").problem,
            std::string("wrong result: count_hits_gpu (n = 10): 3 hits, the reference 7"));
  std::fclose(out);
}

UNIT_TEST(a_figure_of_two_results_needs_both) {
  const course::Judgement right;
  const course::Judgement cpu{false, "not implemented yet: heavy_on_cpu"};
  const course::Judgement gpu{false, "not implemented yet: heavy_on_gpu"};
  EXPECT_TRUE(course::all_of({right, right}).right);
  const course::Judgement both = course::all_of({cpu, right, gpu});
  EXPECT_TRUE(!both.right);
  EXPECT_EQ(both.problem,
            std::string("not implemented yet: heavy_on_cpu; not implemented yet: heavy_on_gpu"));
}

UNIT_TEST(a_wrong_kernel_gets_a_bandwidth_row_without_figures_and_its_note) {
  course::Table table = course::bandwidth_table("bandwidth", "kernels");
  const course::Judgement right;
  const course::Judgement missing{false, "not implemented yet: launch_fused"};
  course::add_bandwidth_line(table, right, "three kernels", 1e9, 1e9, 1.0, 4000.0);
  course::add_bandwidth_line(table, missing, "fused kernel ", 1e9, 1e9, 0.001, 4000.0);
  const std::string json = table.json();
  EXPECT_CONTAINS(json,
                  "[\"three kernels\", 1.0, 1000000000.0, 1000000000.0, 2000.0, 50.0, 4000.0]");
  EXPECT_CONTAINS(json, "[\"fused kernel\", null, null, null, null, null, null]");
  EXPECT_CONTAINS(json, "\"notes\": [null, \"not implemented yet: launch_fused\"]");
}

UNIT_TEST(a_table_without_notes_writes_none) {
  course::Table table = course::bandwidth_table("bandwidth", "kernels");
  table.record_row({"copy", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
  EXPECT_TRUE(table.json().find("notes") == std::string::npos);
}

UNIT_TEST_MAIN()

UNIT_TEST(a_text_is_shown_indented_line_by_line) {
  std::FILE* out = std::tmpfile();
  course::print_indented("generated.cu(3): error: identifier \"offset\" is undefined\n\n1 error",
                         out);
  EXPECT_EQ(printed(out), std::string("  | generated.cu(3): error: identifier \"offset\" is "
                                      "undefined\n  | \n  | 1 error\n"));
  std::fclose(out);
}
