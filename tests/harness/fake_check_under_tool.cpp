// A check whose second case runs the fake exercise's program under a compute-sanitizer
// tool of its own (judge.hpp's under_tool), as exercise 24's cases do: CTest runs it with
// fake_sanitizer.sh in the place of compute-sanitizer, and without any.
#include <cstdint>
#include <string>

#include "course/check/judge.hpp"
#include "fake_exercise.hpp"

namespace {

void check_sum(course::check::CaseContext& c) {
  const int n = 100;
  const course::check::Run run = c.run_case("sum", {{"n", std::to_string(n)}});
  if (!c.finished(run)) return;
  std::int64_t got = 0;
  if (!c.read_value(run, "sum", got)) return;
  std::int64_t expected = 0;
  for (int v : fake_exercise::make_input(n, c.seed())) expected += v;
  if (got != expected) c.fail("sum: expected " + std::to_string(expected));
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "00",
      "harness_tools",
      {
          {"sum_without_tool", 3, check_sum},
          course::check::under_tool("racecheck", {"sum_under_racecheck", 4, check_sum}),
      }};
  exercise.needs_gpu = false;
  return course::check::judge_main(argc, argv, exercise);
}
