// What a student reads from a check, in English and in French (issue 41): every message,
// hint and note a case prints is a Message, which holds both texts. There is no way to
// make a Message from one text (a plain string does not convert), so a hint with no
// French does not compile:
//
//   c.hint({"does the grid cover every element?",
//           "la grille couvre-t-elle chaque élément ?"});
//
// A message with numbers or names in it is a pair of format strings, each `{}` taking the
// next piece in order (a number, a name, program output, or another Message):
//
//   c.fail(Message{"{} element(s) differ from the reference",
//                  "{} élément(s) diffèrent de la référence"}.with(wrong));
//
// Text that reads the same in both languages (program output, code, a file name) is
// Message::verbatim(text), so that it is visibly not an untranslated sentence.
//
// French typography is the type's, not the author's: write the French with an ordinary
// space where French puts one before : ; ! ? and inside « », and the French text gets the
// no-break space (before :, inside « », between a number or a `{}` and its unit: ms, s, %,
// Mio, GB/s, octets...) or the narrow no-break space (before ; ! ?) instead. course.check_messages (tests/tools/test_check_messages.py) holds the texts of
// common/course/check and of every check to a French that is no copy of the English.
//
// The language is chosen once, when the check starts (judge_main): COURSE_LANG=fr or en,
// else the first locale variable set (LC_ALL, LC_MESSAGES, LANG) starting with "fr" for
// French, else English. `make check-NN LANG=fr` passes LANG=fr on as COURSE_LANG (Makefile).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "course/verify.hpp"

namespace course::check {

enum class Language { english, french };

// The language the environment asks for (see above).
Language language_from_environment();
// The language every Message prints in; English until choose_language is called.
Language chosen_language();
void choose_language(Language language);
// "en" or "fr": the value of COURSE_LANG that means `language`.
const char* language_code(Language language);

// The French text with French typography's no-break spaces where the author wrote an
// ordinary space (before : ; ! ?, inside « », between a number and its unit).
std::string french_typography(const std::string& text);

class Message {
 public:
  // No message: an optional hint left out.
  Message() = default;
  Message(const std::string& english, const std::string& french)
      : english_(english), french_(french_typography(french)) {}

  // The same text in both languages: program output, code, names, numbers.
  static Message verbatim(const std::string& text) {
    Message same;
    same.english_ = text;
    same.french_ = text;
    return same;
  }

  // One piece that fills a `{}`: the same in both languages, except a Message's.
  struct Piece {
    std::string english, french;
    Piece(const Message& m) : english(m.english_), french(m.french_) {}  // NOLINT
    Piece(const std::string& text) : english(text), french(text) {}      // NOLINT
    Piece(const char* text) : english(text), french(text) {}             // NOLINT
    template <typename Number, typename = std::enable_if_t<std::is_arithmetic_v<Number>>>
    Piece(Number value)  // NOLINT: numbers as the programs print them
        : english(std::is_integral_v<Number> ? std::to_string(value)
                                             : course::format_number(double(value))),
          french(english) {}
  };

  // Each `{}` of both texts replaced by the next piece, in order.
  template <typename... Pieces>
  Message with(const Pieces&... pieces) const {
    return filled({Piece(pieces)...});
  }

  const std::string& english() const { return english_; }
  const std::string& french() const { return french_; }
  const std::string& in(Language language) const {
    return language == Language::french ? french_ : english_;
  }
  // The text in the chosen language.
  const std::string& text() const { return in(chosen_language()); }
  bool empty() const { return english_.empty() && french_.empty(); }

  Message& operator+=(const Message& more) {
    english_ += more.english_;
    french_ += more.french_;
    return *this;
  }
  friend Message operator+(Message first, const Message& second) { return first += second; }
  friend bool operator==(const Message& a, const Message& b) {
    return a.english_ == b.english_ && a.french_ == b.french_;
  }

 private:
  Message filled(const std::vector<Piece>& pieces) const;

  std::string english_;
  std::string french_;
};

}  // namespace course::check
