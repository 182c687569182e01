// The fake exercise's program driver: the same runner protocol as an exercise's
// harness/cases.cu with the course's main(), on the host only.
#include <cstdint>
#include <vector>

#include "course/check/runner.hpp"
#include "course/timing_hook.hpp"
#include "fake_exercise.hpp"

namespace {

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const auto sum = request.as(fake_exercise::request::sum);
  if (!sum) course::check::unknown_case(request);
  const int n = sum->n;
  const std::vector<int> values = fake_exercise::make_input(n, request.seed);
  // Where an exercise's case starts to measure a time (course/timers.hpp): a timed case
  // has the GPU alone from here (goes_alone_test.sh), any other goes on at once.
  course::timing_begins();
  results.put_value("sum", static_cast<std::int64_t>(sum_of(values.data(), n)));
}

}  // namespace

int main(int argc, char** argv) {
  if (auto request = course::check::parse_case_request(argc, argv)) {
    return course::check::run_case(*request, run_check_case);
  }
  return 2;
}
