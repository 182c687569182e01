// A misspelt request or parameter does not compile (request_keys.hpp's promise).
// tests/unit/must_not_compile.sh compiles this file as it is, which must work, and
// once with each MISSPELT_* switch, which must fail, naming the misspelt word.
#include "course/check/judge.hpp"
#include "course/check/runner.hpp"
#include "fake_exercise.hpp"

namespace asked = fake_exercise::request;

// The check's side: a case asks for a sum of 10 values.
course::check::Run ask(course::check::CaseContext& c) {
#if defined(MISSPELT_REQUEST)
  return c.run(asked::smu, {10});
#elif defined(EXTRA_PARAMETER)
  return c.run(asked::sum, {10, 3});
#else
  return c.run(asked::sum, {10});
#endif
}

// The program's side: the case reads its parameter.
int answer(const course::check::CaseRequest& request) {
  const auto sum = request.as(asked::sum);
#if defined(MISSPELT_PARAMETER)
  return sum ? sum->count : 0;
#else
  return sum ? sum->n : 0;
#endif
}
