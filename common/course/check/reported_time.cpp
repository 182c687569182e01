// The check harness, judging a time that the student's code measured itself (declared in
// reported_time.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/reported_time.hpp"

namespace course::check {

bool read_watched_call(CaseContext& c, const Run& run, ReportedTime& t) {
  if (!c.read_value(run, kMeasuredKernelRecord, t.measured_ms)) return false;
  const auto found = run.results.records.find(kTimedRegionWorkRecord);
  if (found == run.results.records.end() || found->second.type != ValueType::i64 ||
      found->second.count != 2) {
    c.fail(std::string("the program reported no value '") + kTimedRegionWorkRecord + "'");
    return false;
  }
  const std::vector<std::int64_t> inside = found->second.values<std::int64_t>();
  t.copies_inside = inside[0];
  t.allocations_inside = inside[1];
  return true;
}

bool expect_plausible_time(CaseContext& c, const ReportedTime& t, const ReportedTimeHints& hints) {
  const std::string reported =
      t.function + " returned " + course::format_number(t.reported_ms) + " ms";
  const std::string for_size = t.size.empty() ? "" : " for " + t.size;
  if (!std::isfinite(t.reported_ms) || t.reported_ms <= 0.0) {
    c.fail(reported + for_size + ": a " + t.work +
           " time must be a positive number of milliseconds");
    c.hint(hints.not_positive);
    return false;
  }
  if (t.reported_ms > t.call_ms) {
    c.fail(reported + ", more than the " + course::format_number(t.call_ms) +
           " ms the whole call took (measured by the check around it)");
    c.hint(hints.longer_than_call);
    return false;
  }
  if (t.copies_inside > 0 || t.allocations_inside > 0) {
    c.fail(reported + ", timed between CUDA events that enclose " +
           std::to_string(t.copies_inside) + " copy(ies) and " +
           std::to_string(t.allocations_inside) +
           " allocation(s) or free(s): the time includes "
           "other work than the " +
           t.work);
    c.hint(hints.longer_than_work);
    return false;
  }
  if (t.measured_ms > 0.0 &&
      t.reported_ms > kLongestHonestMultipleOfMeasured * t.measured_ms + kMeasurementSlackMs) {
    c.fail(reported + ", but the " + t.work + " it launched took " +
           course::format_number(t.measured_ms) +
           " ms (timed by the check with CUDA events "
           "around it): the time includes other work");
    c.hint(hints.longer_than_work);
    return false;
  }
  if (t.fastest_ms > 0.0 && !c.expect_speed(kHonestTimeBar, t.reported_ms / t.fastest_ms)) {
    c.fail(reported + " for a " + t.work + " whose fastest run, timed by the check with CUDA " +
           "events, took " + course::format_number(t.fastest_ms) + " ms");
    c.hint(hints.shorter_than_work);
    return false;
  }
  return true;
}

}  // namespace course::check
