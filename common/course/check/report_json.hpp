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

// The length of the UTF-8 sequence that starts at text[at], or 0 when the bytes there
// are not valid UTF-8 (a program's output may hold anything).
inline std::size_t utf8_sequence_length(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned int code = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07u;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(at + i) & 0x3Fu);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
  const unsigned int smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
  return length;
}

// A JSON string of `text`: control characters escaped, bytes that are not UTF-8 replaced
// by U+FFFD, so that the report is valid JSON whatever the program printed.
inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence_length(text, at);
    if (length == 0) {
      out += "\\ufffd";
      ++at;
      continue;
    }
    if (length > 1) {
      out.append(text, at, length);
      at += length;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(text[at++]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
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
  std::fprintf(file,
               "{\n  \"exercise\": %s,\n  \"name\": %s,\n  \"variant\": %s,\n  \"seed\": %llu,\n",
               json_string(number).c_str(), json_string(name).c_str(), json_string(variant).c_str(),
               seed);
  std::fprintf(file, "  \"skipped\": %s,\n  \"skip_reason\": %s,\n",
               skip_reason.empty() ? "false" : "true", json_string(skip_reason).c_str());
  std::fprintf(file, "  \"score\": %d,\n  \"max_score\": %d,\n  \"passed\": %s,\n  \"cases\": [",
               score, max_score, passed ? "true" : "false");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseReport& c = cases[i];
    std::fprintf(file,
                 "%s\n    {\"name\": %s, \"points\": %d, \"max_points\": %d, \"passed\": %s, "
                 "\"hidden\": %s, \"run\": %s, \"seconds\": %.3f, \"text\": %s}",
                 i == 0 ? "" : ",", json_string(c.name).c_str(), c.passed ? c.points : 0, c.points,
                 c.passed ? "true" : "false", c.hidden ? "true" : "false", c.run ? "true" : "false",
                 c.seconds, json_string(c.text).c_str());
  }
  std::fprintf(file, "\n  ]\n}\n");
  return std::fclose(file) == 0;
}

}  // namespace course::check
