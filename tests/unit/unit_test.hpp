// A minimal test runner for the course library's CPU-side unit tests: no
// dependency beyond the standard library, so they build wherever the course does.
//
//   UNIT_TEST(median_of_odd_count) { EXPECT_EQ(course::median({3, 1, 2}), 2.0); }
//
// Every test runs; each failed expectation prints file:line and both values; the
// exit status is the number of failed tests (capped at 1), so CTest sees it.
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace unit_test {

struct Test {
  const char* name;
  std::function<void()> body;
};

inline std::vector<Test>& registry() {
  static std::vector<Test> tests;
  return tests;
}

inline int& failures_in_current_test() {
  static int failures = 0;
  return failures;
}

struct Registrar {
  Registrar(const char* name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

inline void report(bool ok, const char* expression, const std::string& detail, const char* file,
                   int line) {
  if (ok) return;
  ++failures_in_current_test();
  std::printf("    %s:%d: expected %s%s\n", file, line, expression, detail.c_str());
}

// Evaluates each side once (a side may have effects, like drawing a random number).
template <typename A, typename B>
void report_equal(const A& a, const B& b, const char* expression, const char* file, int line) {
  if (a == b) return;
  std::ostringstream text;
  text << " (left: " << a << ", right: " << b << ")";
  report(false, expression, text.str(), file, line);
}

inline int run_all() {
  int failed = 0;
  for (const Test& test : registry()) {
    failures_in_current_test() = 0;
    test.body();
    const bool ok = failures_in_current_test() == 0;
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", test.name);
    if (!ok) ++failed;
  }
  std::printf("%zu passed, %d failed\n", registry().size() - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace unit_test

#define UNIT_TEST(name)                                      \
  static void name();                                        \
  static unit_test::Registrar name##_registrar(#name, name); \
  static void name()

#define EXPECT_TRUE(condition) \
  unit_test::report(static_cast<bool>(condition), #condition, "", __FILE__, __LINE__)
#define EXPECT_EQ(a, b) unit_test::report_equal((a), (b), #a " == " #b, __FILE__, __LINE__)
#define EXPECT_CONTAINS(text, part)                                                           \
  unit_test::report(std::string(text).find(part) != std::string::npos,                        \
                    #text " contains \"" part "\"", "\n      text was: " + std::string(text), \
                    __FILE__, __LINE__)

#define UNIT_TEST_MAIN() \
  int main() { return unit_test::run_all(); }
