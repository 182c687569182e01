// The fake exercise's check: two cases of five points, judged like any exercise,
// except that it needs no GPU. Built with FAKE_CHECK_TOOL_CASE, its second case runs
// under compute-sanitizer racecheck (under_tool), as exercise 24's cases run under theirs:
// CTest gives it a fake compute-sanitizer (fake_sanitizer.sh), or none. Built with
// FAKE_CHECK_TIMED_CASE, its second case is timed: the GPU lock's log shows it go alone
// once its program starts to measure (goes_alone_test.sh).
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "fake_exercise.hpp"

namespace {

void check_sum(course::check::CaseContext& c, int n) {
  const course::check::Run run = c.run(fake_exercise::request::sum, {n});
  if (!c.finished(run)) return;
  std::int64_t got = 0;
  if (!c.read_value(run, "sum", got)) return;
  std::int64_t expected = 0;
  for (int v : fake_exercise::make_input(n, c.seed())) expected += v;
  if (got != expected) {
    c.fail(course::check::Message{"sum: expected {}, got {}", "sum : attendu {}, obtenu {}"}.with(
        expected, got));
    c.hint({"every value must be added once.", "chaque valeur doit être ajoutée une fois."});
  }
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "00",
      "harness",
      {
          {"small_sum", 5, [](course::check::CaseContext& c) { check_sum(c, 10); }},
#if defined(FAKE_CHECK_TIMED_CASE)
          course::check::timed(
              {"large_sum_timed", 5, [](course::check::CaseContext& c) { check_sum(c, 100000); }}),
#elif defined(FAKE_CHECK_TOOL_CASE)
          course::check::under_tool("racecheck",
                                    {"large_sum_under_racecheck", 5,
                                     [](course::check::CaseContext& c) { check_sum(c, 100000); }}),
#else
          {"large_sum", 5, [](course::check::CaseContext& c) { check_sum(c, 100000); }},
#endif
      }};
  exercise.needs_gpu = false;
  return course::check::judge_main(argc, argv, exercise);
}
