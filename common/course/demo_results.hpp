// Judging a demo's results before showing its figures.
//
// A time, a bandwidth or a speed-up means something only for a result that is right. A
// skeleton's launcher that launches nothing takes almost no time, and the figures made
// from that time ("2134146 GB/s", "50123753x the CPU") say nothing true. So a demo calls
// each student function once on outputs poisoned beforehand (verify.hpp), judges what
// came back against its reference, and times the function only when the result is right.
// Otherwise it shows no figure for it, and prints instead, once per function:
//
//   not implemented yet: heavy_on_gpu      nothing was written, or it returned a time of 0
//   wrong result: heavy_on_gpu (n = 100): 3 of 100 values wrong; index 7: expected 0.25, got 0
//
// The rows of its tables keep their labels, get empty cells for the figures, and carry
// that line as their note (table.hpp), so that the benchmark report of a half-done
// exercise says what is missing. A demo in which some function is not right ends with
// exit status 1 (EXIT_FAILURE), after every part it could show.
//
//   course::StudentFunction gpu("heavy_on_gpu");
//   course::poison(y.data(), y.size());
//   heavy_on_gpu(x.data(), y.data(), n, threads);              // the untimed first call
//   const course::Judgement result = gpu.judge(course::compare(...), "n = 100");
//   const double ms = result.right ? time_it() : 0.0;         // no timing of a wrong result
//   table.add_row({n, result.figure(ms)}, result.problem);
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/table.hpp"
#include "course/verify.hpp"

namespace course {

inline constexpr const char* kNotImplementedPrefix = "not implemented yet: ";
inline constexpr const char* kWrongResultPrefix = "wrong result: ";

// The verdict on one result of a student function.
struct Judgement {
  bool right = true;
  std::string problem;  // the line that says what is wrong; empty when right

  // `value` where the result is right (and the value a number), an empty cell otherwise.
  Cell figure(double value) const { return Cell::number_if(right && std::isfinite(value), value); }
};

// A figure made from several results (a speed-up of one over another) is right only if
// all of them are; its problems are theirs, joined.
inline Judgement all_of(std::initializer_list<Judgement> judgements) {
  Judgement joined;
  for (const Judgement& j : judgements) {
    if (j.right) continue;
    joined.right = false;
    joined.problem += (joined.problem.empty() ? "" : "; ") + j.problem;
  }
  return joined;
}

// One function the student writes, as a demo judges it: each result in turn, the first
// problem printed (one line, on `out`), the others only returned.
class StudentFunction {
 public:
  explicit StudentFunction(std::string name, std::FILE* out = stdout)
      : name_(std::move(name)), out_(out) {}

  const std::string& name() const { return name_; }
  // True while every result judged so far was right.
  bool ready() const { return first_problem_.empty(); }
  // The line printed for the first problem; empty while ready().
  const std::string& first_problem() const { return first_problem_; }
  // True when that problem was "not implemented yet": calling it again on other inputs
  // shows nothing new, and a demo may skip those calls.
  bool not_implemented() const { return first_problem_.rfind(kNotImplementedPrefix, 0) == 0; }
  // The verdict of a call the demo skipped for that reason: not right, for the same reason.
  Judgement skipped() const { return Judgement{false, first_problem_}; }

  // An output compared with its reference (every element poisoned before the call): not
  // implemented when no element was written, wrong when one is wrong or NaN.
  Judgement judge(const Comparison& c, const std::string& context = std::string()) {
    if (c.count > 0 && c.unwritten == c.count) return nothing_written();
    if (c.wrong == 0) return Judgement{};
    std::string what = std::to_string(c.wrong) + " of " + std::to_string(c.count) + " values wrong";
    if (c.unwritten > 0) what += " (" + std::to_string(c.unwritten) + " never written)";
    if (!c.first.empty()) {
      const Mismatch& m = c.first.front();
      what += "; index " + std::to_string(m.index) + ": expected " + format_number(m.expected) +
              ", got " + (m.unwritten ? std::string("nothing") : format_number(m.got));
    }
    return wrong(context, what);
  }

  // A result that is not an array (a count, an estimate): not implemented when nothing
  // was written (`written` false), wrong when `right` is false; `what` says how.
  Judgement judge_value(bool written, bool right, const std::string& context,
                        const std::string& what) {
    if (!written) return nothing_written();
    return right ? Judgement{} : wrong(context, what);
  }

  // A time the function measured and returned itself: one that is not positive means
  // that the timing is not written yet.
  Judgement judge_time(double ms, const std::string& what = "time") {
    if (ms > 0.0 && std::isfinite(ms)) return Judgement{};
    return fail(kNotImplementedPrefix + name_ + " (it returned a " + what + " of " +
                format_number(ms) + " ms)");
  }

 private:
  Judgement nothing_written() { return fail(kNotImplementedPrefix + name_); }

  Judgement wrong(const std::string& context, const std::string& what) {
    return fail(kWrongResultPrefix + name_ + (context.empty() ? "" : " (" + context + ")") + ": " +
                what);
  }

  Judgement fail(std::string line) {
    if (first_problem_.empty()) {
      first_problem_ = line;
      std::fprintf(out_, "%s\n", line.c_str());
      std::fflush(out_);
    }
    return Judgement{false, std::move(line)};
  }

  std::string name_;
  std::FILE* out_;
  std::string first_problem_;
};

// A text the code under test produced (a compiler's log, a generated source), each line
// shown behind "  | " under the line that introduces it.
inline void print_indented(const std::string& text, std::FILE* out = stdout) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::fprintf(out, "  | %s\n", text.substr(at, end - at).c_str());
    at = end + 1;
  }
}

// The demo's exit status: EXIT_SUCCESS when every function it judged was right.
inline int demo_status(const std::vector<const StudentFunction*>& functions) {
  for (const StudentFunction* f : functions) {
    if (!f->ready()) return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
inline int demo_status(std::initializer_list<const StudentFunction*> functions) {
  return demo_status(std::vector<const StudentFunction*>(functions));
}

// add_bandwidth_line for a judged result: the line with its figures when the result is
// right; otherwise nothing printed (the function's problem was, once) and a row without
// figures that carries the problem as its note.
inline void add_bandwidth_line(Table& table, const Judgement& result, const std::string& label,
                               double bytes_read, double bytes_written, double ms,
                               double ceiling_gbps, const char* indent = "  ") {
  if (result.right) {
    add_bandwidth_line(table, label, bytes_read, bytes_written, ms, ceiling_gbps, indent);
  } else {
    record_bandwidth_row(table, label, bytes_read, bytes_written, 0.0, ceiling_gbps,
                         result.problem);
  }
}

}  // namespace course
