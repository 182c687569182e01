// The check harness, messages in two languages (declared in message.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/message.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace course::check {

namespace {

// Where French puts a space before a sign, and which: a no-break space before a colon
// and inside guillemets, a narrow one before ; ! and ? (Lexique des règles typographiques).
constexpr const char* kNoBreakSpace = "\u00a0";
constexpr const char* kNarrowNoBreakSpace = "\u202f";

Language current = Language::english;

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

// The units a message puts after a number, which French keeps on the number's line (the
// course's french-typography tool has the full list, for pages).
constexpr const char* kUnits[] = {"%", "ms", "s", "Mio", "Gio", "MiB", "GiB", "GB/s", "octets"};

// True when the text at `at` is a space between a number (or a `{}` that will hold one)
// and one of kUnits, which ends there.
bool before_unit(const std::string& text, std::size_t at) {
  if (at == 0 || text[at] != ' ') return false;
  const char before = text[at - 1];
  if (!(before == '}' || (before >= '0' && before <= '9'))) return false;
  for (const char* unit : kUnits) {
    const std::size_t length = std::strlen(unit);
    if (text.compare(at + 1, length, unit) != 0) continue;
    const char after = at + 1 + length < text.size() ? text[at + 1 + length] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(after)) && after != '/') return true;
  }
  return false;
}

}  // namespace

Language language_from_environment() {
  const char* chosen = std::getenv("COURSE_LANG");
  if (chosen != nullptr && *chosen != '\0') {
    return starts_with(chosen, "fr") ? Language::french : Language::english;
  }
  // POSIX's order: LC_ALL overrides LC_MESSAGES, which overrides LANG.
  for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* locale = std::getenv(variable);
    if (locale != nullptr && *locale != '\0') {
      return starts_with(locale, "fr") ? Language::french : Language::english;
    }
  }
  return Language::english;
}

Language chosen_language() { return current; }

void choose_language(Language language) { current = language; }

const char* language_code(Language language) { return language == Language::french ? "fr" : "en"; }

std::string french_typography(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char next = at + 1 < text.size() ? text[at + 1] : '\0';
    if (text[at] == ' ' && (next == ';' || next == '!' || next == '?')) {
      out += kNarrowNoBreakSpace;
    } else if ((text[at] == ' ' && next == ':') || before_unit(text, at)) {
      out += kNoBreakSpace;
    } else if (text[at] == ' ' && text.compare(at + 1, 2, "»") == 0) {
      out += kNoBreakSpace;
    } else if (text.compare(at, 3, "« ") == 0) {  // « is two bytes in UTF-8
      out += "«";
      out += kNoBreakSpace;
      at += 2;
    } else {
      out += text[at];
    }
  }
  return out;
}

Message Message::filled(const std::vector<Piece>& pieces) const {
  Message out;
  for (const bool french : {false, true}) {
    const std::string& format = french ? french_ : english_;
    std::string& text = french ? out.french_ : out.english_;
    std::size_t next_piece = 0, at = 0;
    while (at < format.size()) {
      const std::size_t hole = format.find("{}", at);
      if (hole == std::string::npos || next_piece == pieces.size()) {
        text += format.substr(at);
        break;
      }
      text += format.substr(at, hole - at);
      text += french ? pieces[next_piece].french : pieces[next_piece].english;
      ++next_piece;
      at = hole + 2;
    }
  }
  return out;
}

}  // namespace course::check
