// What a matrix-multiply comparison found (course/sgemm_elements.hpp's Verdict), for a
// person, in the check's language: exercises 21 and 26 print it under a wrong C.
#pragma once

#include "course/check/message.hpp"
#include "course/sgemm_elements.hpp"
#include "course/verify.hpp"

namespace course::check {

inline Message describe(const sgemm::Verdict& v) {
  if (v.wrong == 0) return {"every element right", "chaque élément est juste"};
  Message line =
      Message{"{} of {} elements wrong", "{} éléments faux sur {}"}.with(v.wrong, v.count);
  if (v.nan > 0) line += Message{" ({} NaN or infinite)", " ({} NaN ou infinis)"}.with(v.nan);
  if (v.unwritten > 0) {
    line += Message{" ({} never written)", " ({} jamais écrits)"}.with(v.unwritten);
  }
  const bool poison = v.unwritten > 0 && course::is_poison(static_cast<float>(v.got));
  return line + Message{"; C({}, {}): expected {}, got {}, allowed error {}",
                        " ; C({}, {}) : attendu {}, reçu {}, erreur permise {}"}
                    .with(v.first.i, v.first.j, v.expected,
                          poison
                              ? Message{"nothing (the NaN C held)", "rien (le NaN que C contenait)"}
                              : Message::verbatim(course::format_number(v.got)),
                          v.bound);
}

}  // namespace course::check
