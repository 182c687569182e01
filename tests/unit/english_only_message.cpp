// A message a student reads has its French, or does not compile (message.hpp's promise).
// tests/unit/must_not_compile.sh compiles this file as it is, which must work, and once
// with each ENGLISH_ONLY_* switch, which must fail, naming the call that lacks its French.
#include "course/check/judge.hpp"

using course::check::CaseContext;
using course::check::Message;

void judge(CaseContext& c, int wrong) {
#if defined(ENGLISH_ONLY_HINT)
  c.hint("round the block count up");
#elif defined(ENGLISH_ONLY_FAIL)
  c.fail("the sum is wrong: " + std::to_string(wrong));
#elif defined(ENGLISH_ONLY_CONSTANT)
  const Message formula_hint = std::string("each element must be y[i] = 2 * x[i]");
  c.hint(formula_hint);
#else
  c.hint({"round the block count up", "arrondissez le nombre de blocs au-dessus"});
  c.fail(Message{"the sum is wrong: {}", "la somme est fausse : {}"}.with(wrong));
  const Message formula_hint{"each element must be y[i] = 2 * x[i]",
                             "chaque élément doit valoir y[i] = 2 * x[i]"};
  c.hint(formula_hint);
#endif
}
