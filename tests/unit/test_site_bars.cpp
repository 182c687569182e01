// Site bars (course/check/speed_bar.hpp, written by make calibrate): the file is read for
// one exercise, a malformed or hand-tightened file is refused with the line that is wrong,
// and a check judges against a site bar only on the GPU the file was measured on.
#include <cstdio>
#include <fstream>
#include <string>

#include "course/check/speed_bar.hpp"
#include "unit_test.hpp"

namespace {

using course::check::BarKind;
using course::check::SiteBars;
using course::check::SpeedBar;

const SpeedBar kShareOfCopy{"share of the copy ceiling", BarKind::at_least, 0.6,
                            "0.85 on H100 and H200"};
const SpeedBar kSlowdown{"time over the reference's", BarKind::at_most, 1.25, "1.00"};

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/unit_site_bars_" + name + ".tsv";
  std::ofstream(path) << text;
  return path;
}

const std::string kGood =
    "# written by tools/course calibrate\n"
    "gpu\tNVIDIA T4\n"
    "bar\t11\tfused_near_copy_ceiling\tshare of the copy ceiling\tat_least\t0.6\t0.5\t0.55\n"
    "bar\t11\tthree_kernels\ttime over the reference's\tat_most\t1.25\t1.4\t1.27\n"
    "bar\t12\tspeed\tshare of the copy ceiling\tat_least\t0.6\t0.45\t0.5\n";

bool read(const std::string& text, const std::string& number, SiteBars& bars, std::string& error) {
  return course::check::read_site_bars(write_file("case", text), number, bars, error);
}

}  // namespace

UNIT_TEST(a_calibration_file_is_read_for_its_exercise_alone) {
  SiteBars bars;
  std::string error;
  EXPECT_TRUE(read(kGood, "11", bars, error));
  EXPECT_EQ(bars.gpu, std::string("NVIDIA T4"));
  EXPECT_EQ(bars.bars.size(), std::size_t{2});
}

UNIT_TEST(a_bar_stricter_than_the_course_is_refused_with_its_line) {
  SiteBars bars;
  std::string error;
  EXPECT_TRUE(!read("gpu\tNVIDIA T4\n"
                    "bar\t11\tcase\tshare of the copy ceiling\tat_least\t0.6\t0.7\t0.8\n",
                    "11", bars, error));
  EXPECT_TRUE(error.find(":2: a site bar stricter than the course's") != std::string::npos);
  EXPECT_TRUE(!read("gpu\tNVIDIA T4\nbar\t11\tcase\tslowdown\tat_most\t1.25\t1.1\t1.0\n", "11",
                    bars, error));
}

UNIT_TEST(a_malformed_or_incomplete_file_is_refused) {
  SiteBars bars;
  std::string error;
  EXPECT_TRUE(
      !read("gpu\tNVIDIA T4\nbar\t11\tcase\tfigure\tabove\t0.6\t0.5\t0.55\n", "11", bars, error));
  EXPECT_TRUE(!read("gpu\tNVIDIA T4\nbar\t11\tcase\tfigure\tat_least\t0.6\tnan\t0.55\n", "11", bars,
                    error));
  EXPECT_TRUE(!read("bar\t11\tcase\tfigure\tat_least\t0.6\t0.5\t0.55\n", "11", bars, error));
  EXPECT_TRUE(error.find("no 'gpu' line") != std::string::npos);
  EXPECT_TRUE(!read("gpu\tNVIDIA T4\nbars and more\n", "11", bars, error));
  EXPECT_TRUE(!course::check::read_site_bars("/nonexistent/site-bars.tsv", "11", bars, error));
  EXPECT_TRUE(error.find("cannot read") != std::string::npos);
}

UNIT_TEST(a_site_bar_applies_on_its_gpu_only) {
  SiteBars bars;
  std::string error;
  EXPECT_TRUE(read(kGood, "11", bars, error));
  course::check::Message why;

  // No file: the course's bar, and the check says a calibrated grading may relax it.
  EXPECT_EQ(course::check::bar_on_this_gpu(kShareOfCopy, "fused_near_copy_ceiling", why).bar, 0.6);
  EXPECT_TRUE(why.text().find("never tighten") != std::string::npos);

  bars.current_gpu = "NVIDIA H200";
  bars.applies = false;
  course::check::use_site_bars(bars);
  EXPECT_EQ(course::check::bar_on_this_gpu(kShareOfCopy, "fused_near_copy_ceiling", why).bar, 0.6);
  EXPECT_TRUE(why.text().find("this GPU is NVIDIA H200") != std::string::npos);

  bars.current_gpu = "NVIDIA T4";
  bars.applies = true;
  course::check::use_site_bars(bars);
  EXPECT_EQ(course::check::bar_on_this_gpu(kShareOfCopy, "fused_near_copy_ceiling", why).bar, 0.5);
  EXPECT_TRUE(why.text().find("relaxed") != std::string::npos);
  EXPECT_EQ(course::check::bar_on_this_gpu(kSlowdown, "three_kernels", why).bar, 1.4);
  // Another case's bar of the same figure is not this one's.
  EXPECT_EQ(course::check::bar_on_this_gpu(kShareOfCopy, "another_case", why).bar, 0.6);
}

UNIT_TEST_MAIN()
