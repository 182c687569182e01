// The check harness, writing the speed records that the margin test reads (declared in
// speed_bar.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/speed_bar.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

namespace course::check {

namespace {

std::unique_ptr<SiteBars>& site_bars_slot() {
  static std::unique_ptr<SiteBars> bars;
  return bars;
}

std::vector<std::string> tab_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, '\t')) fields.push_back(field);
  return fields;
}

bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(value) && value > 0.0;
}

}  // namespace

bool read_site_bars(const std::string& path, const std::string& number, SiteBars& bars,
                    std::string& error) {
  std::ifstream file(path);
  if (!file) {
    error = "cannot read the site bars " + path;
    return false;
  }
  bars = SiteBars{};
  bars.path = path;
  std::string line;
  int line_number = 0;
  while (std::getline(file, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = tab_fields(line);
    const std::string where = path + ":" + std::to_string(line_number) + ": ";
    if (f[0] == "gpu" && f.size() == 2 && !f[1].empty()) {
      bars.gpu = f[1];
    } else if (f[0] == "bar" && f.size() == 8) {
      SiteBar bar{f[2], f[3]};
      double course_bar = 0.0;
      if ((f[4] != "at_least" && f[4] != "at_most") || !parse_number(f[5], course_bar) ||
          !parse_number(f[6], bar.bar) || !parse_number(f[7], bar.reference_worst)) {
        error = where + "a bar line is: bar, exercise, case, figure, at_least or at_most, the "
                        "course's bar, the site bar, the reference's worst figure";
        return false;
      }
      // Never stricter than the course's bar: a file that says otherwise was not written by
      // the calibration, or was edited by hand.
      const bool stricter = f[4] == "at_least" ? bar.bar > course_bar : bar.bar < course_bar;
      if (stricter) {
        error = where + "a site bar stricter than the course's (" + f[6] + " for " + f[5] + ")";
        return false;
      }
      if (f[1] == number) bars.bars.push_back(bar);
    } else {
      error = where + "not a 'gpu' or 'bar' line";
      return false;
    }
  }
  if (bars.gpu.empty()) {
    error = path + ": no 'gpu' line (the GPU the bars were measured on)";
    return false;
  }
  return true;
}

void use_site_bars(SiteBars bars) {
  site_bars_slot() = std::make_unique<SiteBars>(std::move(bars));
}

const SiteBars* site_bars_in_use() { return site_bars_slot().get(); }

SpeedBar bar_on_this_gpu(const SpeedBar& bar, const std::string& case_name, Message& why) {
  const SiteBars* site = site_bars_in_use();
  if (site == nullptr) {
    why = {"(the course's bar; a grading calibrated on its own GPU may relax it, never tighten it)",
           "(seuil du cours ; une correction étalonnée sur son propre GPU peut l'assouplir, jamais "
           "le durcir)"};
    return bar;
  }
  if (!site->applies) {
    why = Message{"(the site bars of {} were measured on {}; this GPU is {}: the course's bar "
                  "applies)",
                  "(les seuils du site de {} ont été mesurés sur {} ; ce GPU est un {} : le seuil "
                  "du cours s'applique)"}
              .with(site->path, site->gpu, site->current_gpu);
    return bar;
  }
  for (const SiteBar& own : site->bars) {
    if (own.case_name != case_name || own.figure != bar.figure) continue;
    if (own.bar == bar.bar) break;
    SpeedBar relaxed = bar;
    relaxed.bar = own.bar;
    why = Message{"(bar on this {}: {}, the course's {} relaxed because the reference solution "
                  "measured {} here)",
                  "(seuil sur ce {} : {}, le {} du cours assoupli parce que la solution de "
                  "référence a mesuré {} ici)"}
              .with(site->gpu, own.bar, bar.bar, own.reference_worst);
    return relaxed;
  }
  why = Message{"(the course's bar holds on this {}: calibrated)",
                "(le seuil du cours tient sur ce {} : étalonné)"}
            .with(site->gpu);
  return bar;
}

bool write_speed_records(const std::string& path, const std::string& gpu,
                         const std::vector<std::string>& timed_cases,
                         const std::vector<SpeedRecord>& records) {
  std::error_code ignored;  // a folder that cannot be made shows as the open's failure
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return false;
  std::fprintf(file, "gpu\t%s\n", gpu.c_str());
  for (const std::string& name : timed_cases) std::fprintf(file, "timed\t%s\n", name.c_str());
  for (const SpeedRecord& r : records) {
    std::fprintf(file, "speed\t%s\t%s\t%s\t%.6g\t%.6g\t%.4f\n", r.case_name.c_str(), r.bar.figure,
                 r.bar.kind == BarKind::at_least ? "at_least" : "at_most", r.bar.bar, r.measured,
                 margin_over(r.bar, r.measured));
  }
  return std::fclose(file) == 0;
}

}  // namespace course::check
