// What a matrix-multiply comparison found (course/sgemm_elements.hpp's Verdict), for a
// person, in the check's language: exercises 21 and 26 print it under a wrong C.
#pragma once

#include <string>

#include "course/check/judge.hpp"
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

// The hints for elements of C left unwritten by `launcher`: none written (then nothing
// else is worth saying: false), or some, with `partial` (how the exercise's kernels cover C).
inline bool hint_unwritten(CaseContext& c, const std::string& launcher, const sgemm::Verdict& v,
                           const Message& partial) {
  if (v.unwritten == v.count) {
    c.hint(Message{"{} wrote no element of C: is it written, and does it launch its kernel on a "
                   "grid that covers C?",
                   "{} n'a écrit aucun élément de C : la fonction est-elle écrite, et lance-t-elle "
                   "son kernel sur une grille qui couvre C ?"}
               .with(launcher));
    return false;
  }
  if (v.unwritten > 0) {
    c.hint(Message{"some elements of C were never written: the grid must cover all of C (round "
                   "the block counts up), and {}",
                   "certains éléments de C n'ont jamais été écrits : la grille doit couvrir tout "
                   "C (arrondir les nombres de blocs au-dessus), et {}"}
               .with(partial));
  }
  return true;
}

}  // namespace course::check
