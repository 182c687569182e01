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
    c.fail(
        Message{"the program reported no value '{}'", "le programme n'a rendu aucune valeur « {} »"}
            .with(kTimedRegionWorkRecord));
    return false;
  }
  const std::vector<std::int64_t> inside = found->second.values<std::int64_t>();
  t.copies_inside = inside[0];
  t.allocations_inside = inside[1];
  return true;
}

bool expect_plausible_time(CaseContext& c, const ReportedTime& t, const ReportedTimeHints& hints) {
  const Message reported =
      Message{"{} returned {} ms", "{} a rendu {} ms"}.with(t.function, t.reported_ms);
  const Message for_size = t.size.empty() ? Message() : Message{" for {}", " pour {}"}.with(t.size);
  if (!std::isfinite(t.reported_ms) || t.reported_ms <= 0.0) {
    c.fail(Message{"{}{}: the time of {} must be a positive number of milliseconds",
                   "{}{} : le temps mesuré pour {} doit être un nombre positif de millisecondes"}
               .with(reported, for_size, t.work));
    c.hint(hints.not_positive);
    return false;
  }
  if (t.reported_ms > t.call_ms) {
    c.fail(Message{"{}, more than the {} ms the whole call took (measured by the check around it)",
                   "{}, plus que les {} ms de l'appel entier (mesuré par le correcteur autour "
                   "de l'appel)"}
               .with(reported, t.call_ms));
    c.hint(hints.longer_than_call);
    return false;
  }
  if (t.copies_inside > 0 || t.allocations_inside > 0) {
    c.fail(Message{"{}, timed between CUDA events that enclose {} copy(ies) and {} allocation(s) "
                   "or free(s): the time includes other work than {}",
                   "{}, mesuré entre des événements CUDA qui encadrent {} copie(s) et {} "
                   "allocation(s) ou libération(s) : le temps compte un autre travail que {}"}
               .with(reported, t.copies_inside, t.allocations_inside, t.work));
    c.hint(hints.longer_than_work);
    return false;
  }
  if (t.measured_ms > 0.0 &&
      t.reported_ms > kLongestHonestMultipleOfMeasured * t.measured_ms + kMeasurementSlackMs) {
    c.fail(Message{"{}, but {} it launched took {} ms (timed by the check with CUDA events around "
                   "it): the time includes other work",
                   "{}, mais {} lancé a pris {} ms (mesuré par le correcteur avec des événements "
                   "CUDA autour) : le temps compte un autre travail"}
               .with(reported, t.work, t.measured_ms));
    c.hint(hints.longer_than_work);
    return false;
  }
  if (t.fastest_ms > 0.0 && !c.expect_speed(kHonestTimeBar, t.reported_ms / t.fastest_ms)) {
    c.fail(Message{"{} for {} whose fastest run, timed by the check with CUDA events, took {} ms",
                   "{} pour {} dont l'exécution la plus rapide, mesurée par le correcteur avec "
                   "des événements CUDA, a pris {} ms"}
               .with(reported, t.work, t.fastest_ms));
    c.hint(hints.shorter_than_work);
    return false;
  }
  return true;
}

}  // namespace course::check
