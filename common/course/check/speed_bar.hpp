// Speed bars: how a check judges a time. Every speed case compares a ratio measured in
// the same run (the student's kernel against a yardstick: the course's own kernel of the
// same step, a library, the copy ceiling) with a bar, through CaseContext::expect_speed.
// Each judgement is printed for the student with the bar and what the reference solution
// measured on the course's GPUs, and written for the course (--speed-record): the GPU
// suite's margin test (tools/course speed-margins, which holds the margin required: 10%) fails
// when a reference solution clears a bar by less, so that a bar too close to one GPU's
// figure is found by the suite, not by students on another GPU. tests/speed_bars.md lists
// every bar.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "course/check/message.hpp"
#include "course/verify.hpp"

namespace course::check {

enum class BarKind { at_least, at_most };

struct SpeedBar {
  const char* figure;  // what is measured, e.g. "share of cuBLAS's GFLOP/s"
  BarKind kind;        // at_least: higher is better; at_most: lower is better
  double bar;
  const char* reference;  // the reference solution's figures, e.g. "0.55-0.56 on H100 and H200"
  // The same two texts in French, for the check's report (message.hpp); a bar without them
  // shows its English there. --list-json, the statements' tables and tests/speed_bars.md
  // hold the English.
  const char* french_figure = nullptr;
  const char* french_reference = nullptr;
};

// How a speed case's program times each version: the best of `rounds` rounds, each the
// median of `repetitions` runs after `warmup` untimed ones.
struct Timing {
  int rounds = 3;
  int warmup = 3;
  int repetitions = 15;
};

// Two bars are one when every field agrees (a case declares the bars it judges).
inline bool same_bar(const SpeedBar& a, const SpeedBar& b) {
  return std::string(a.figure) == b.figure && a.kind == b.kind && a.bar == b.bar &&
         std::string(a.reference) == b.reference;
}

// One judgement, as written with --speed-record.
struct SpeedRecord {
  std::string case_name;
  SpeedBar bar;
  double measured = 0.0;
};

inline bool clears(const SpeedBar& bar, double measured) {
  return bar.kind == BarKind::at_least ? measured >= bar.bar : measured <= bar.bar;
}

// How far the figure lies on the good side of its bar, relative: 0.1 is 10% above an
// at_least bar (or 10% below an at_most one); negative below it.
inline double margin_over(const SpeedBar& bar, double measured) {
  if (!(measured > 0.0) || !(bar.bar > 0.0)) return -1.0;
  return bar.kind == BarKind::at_least ? measured / bar.bar - 1.0 : bar.bar / measured - 1.0;
}

// "share of cuBLAS's GFLOP/s 0.553 (bar: at least 0.45; the reference solution: 0.55-0.56 on
// H100 and H200)": the line a student reads under a speed case.
inline Message describe_speed(const SpeedBar& bar, double measured) {
  const Message figure{bar.figure, bar.french_figure ? bar.french_figure : bar.figure};
  const Message reference{bar.reference,
                          bar.french_reference ? bar.french_reference : bar.reference};
  return Message{"{} {} (bar: {} {}; the reference solution: {})",
                 "{} {} (seuil : {} {} ; la solution de référence : {})"}
      .with(figure, measured,
            bar.kind == BarKind::at_least ? Message{"at least", "au moins"}
                                          : Message{"at most", "au plus"},
            bar.bar, reference);
}

// Site bars (make calibrate: tools/course calibrate): the bars of one GPU kind, for a course
// graded on a GPU the course's own bars were not measured on. A site bar is the course's bar
// relaxed where the reference solution, graded several times on that GPU, would clear it by
// less than the course's margin; never stricter than the course's bar, which the statements
// quote. The file (calibration/site-bars.tsv) says which GPU it was measured on; a check run on
// another GPU keeps the course's bars and says so.
struct SiteBar {
  std::string case_name;
  std::string figure;
  double bar = 0.0;
  double reference_worst = 0.0;  // the reference solution's worst figure on that GPU
};

struct SiteBars {
  std::string path;
  std::string gpu;            // the GPU they were measured on (cudaDeviceProp::name)
  bool applies = false;       // this check runs on that GPU
  std::string current_gpu;    // the GPU this check runs on
  std::vector<SiteBar> bars;  // this exercise's
};

// Reads the site bars of exercise `number` from `path` ("gpu<TAB>name" and "bar<TAB>number<TAB>
// case<TAB>figure<TAB>kind<TAB>course bar<TAB>site bar<TAB>reference worst" lines, '#'
// comments); false with `error` when the file cannot be read or a line is malformed.
bool read_site_bars(const std::string& path, const std::string& number, SiteBars& bars,
                    std::string& error);

// The site bars this check uses (set once by the check's main before any case), or none.
void use_site_bars(SiteBars bars);
const SiteBars* site_bars_in_use();

// The bar a case judges against on this GPU: `bar` itself, or its site bar where one
// applies (then `why` says so). `case_name` is the judging case's.
SpeedBar bar_on_this_gpu(const SpeedBar& bar, const std::string& case_name, Message& why);

// The records of one check run, one tab-separated line each: case, figure, kind, bar (the
// one judged against: a site bar where one applied), measured, margin. The GPU comes first
// ("gpu<TAB>name", as the site bars name it), then `timed_cases` ("timed<TAB>case"), so that
// a reader can tell a timed case that judged nothing from one that did not run.
bool write_speed_records(const std::string& path, const std::string& gpu,
                         const std::vector<std::string>& timed_cases,
                         const std::vector<SpeedRecord>& records);

}  // namespace course::check
