// The check's structured report (--report-json), read by the grading command: every
// case with its points, its verdict and the text a person would read under it.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace course::check {

struct CaseReport {
  std::string name;
  int points = 0;  // what the case is worth; it earns them when it passed
  bool passed = false;
  bool hidden = false;
  bool run = true;  // false when the case was not run (--stop-after-timeouts, or not graded here)
  double seconds = 0.0;
  std::string text;  // messages and hints, as printed under the case
};

inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);  // UTF-8 passes through
        }
    }
  }
  return out + "\"";
}

// Writes the report; `skip_reason` non-empty means the check did not run at all.
inline bool write_report_json(const std::string& path, const std::string& number,
                              const std::string& name, const std::string& variant,
                              unsigned long long seed, const std::vector<CaseReport>& cases,
                              const std::string& skip_reason) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return false;
  int score = 0, max_score = 0;
  bool passed = skip_reason.empty();
  for (const CaseReport& c : cases) {
    score += c.passed ? c.points : 0;
    max_score += c.points;
    passed = passed && c.passed;
  }
  std::fprintf(file, "{\n  \"exercise\": %s,\n  \"name\": %s,\n  \"variant\": %s,\n  \"seed\": %llu,\n",
               json_string(number).c_str(), json_string(name).c_str(),
               json_string(variant).c_str(), seed);
  std::fprintf(file, "  \"skipped\": %s,\n  \"skip_reason\": %s,\n",
               skip_reason.empty() ? "false" : "true", json_string(skip_reason).c_str());
  std::fprintf(file, "  \"score\": %d,\n  \"max_score\": %d,\n  \"passed\": %s,\n  \"cases\": [",
               score, max_score, passed ? "true" : "false");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseReport& c = cases[i];
    std::fprintf(file,
                 "%s\n    {\"name\": %s, \"points\": %d, \"max_points\": %d, \"passed\": %s, "
                 "\"hidden\": %s, \"run\": %s, \"seconds\": %.3f, \"text\": %s}",
                 i == 0 ? "" : ",", json_string(c.name).c_str(), c.passed ? c.points : 0,
                 c.points, c.passed ? "true" : "false", c.hidden ? "true" : "false",
                 c.run ? "true" : "false", c.seconds, json_string(c.text).c_str());
  }
  std::fprintf(file, "\n  ]\n}\n");
  return std::fclose(file) == 0;
}

}  // namespace course::check
