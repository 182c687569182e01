// Unit tests of the check harness's pieces that need no GPU: the result-file
// parser and the limits on child processes (time, output, crashes, exit codes).
#include <unistd.h>

#include <string>

#include "course/check/child_process.hpp"
#include "course/check/message.hpp"
#include "course/check/report_json.hpp"
#include "course/check/results.hpp"
#include "course/timers.hpp"
#include "unit_test.hpp"

using course::check::ChildLimits;
using course::check::Language;
using course::check::Message;
using course::check::parse_results;
using course::check::run_child;

namespace {
std::string record(const std::string& header, const std::string& payload) {
  return header + "\n" + payload + "\n";
}
}  // namespace

// A Message (message.hpp): both texts filled in order, joined, shown in the chosen language,
// and French spacing put in where the author wrote an ordinary space.
UNIT_TEST(message_fills_both_texts_and_spaces_the_french) {
  const Message wrong = Message{"{} of {} elements wrong: {} ms; why?",
                                "{} éléments faux sur {} : {} ms ; pourquoi ?"}
                            .with(3, 1000, 2.5);
  EXPECT_EQ(wrong.english(), std::string("3 of 1000 elements wrong: 2.5 ms; why?"));
  EXPECT_EQ(wrong.french(), std::string("3 éléments faux sur 1000\u00a0: 2.5\u00a0ms\u202f; "
                                        "pourquoi\u202f?"));
  const Message quoted = Message{"output '{}'", "sortie « {} »"}.with("y");
  EXPECT_EQ(quoted.french(), std::string("sortie «\u00a0y\u00a0»"));
  // A Message piece brings its own two texts; code (a bracket, no space) is left alone.
  const Message joined =
      Message{"{}: {}", "{} : {}"}.with(Message{"hint", "piste"}, Message::verbatim("a[i]?b:c"));
  EXPECT_EQ(joined.english(), std::string("hint: a[i]?b:c"));
  EXPECT_EQ(joined.french(), std::string("piste\u00a0: a[i]?b:c"));
  const Message both = Message{"a", "b"} + Message{"c", "d"};
  EXPECT_EQ(both.french(), std::string("bd"));
  // No unit after a word: "3 secteurs" keeps its space.
  const Message sectors{"3 sectors", "3 secteurs"};
  EXPECT_EQ(sectors.french(), std::string("3 secteurs"));
  course::check::choose_language(Language::french);
  EXPECT_EQ(wrong.text(), wrong.french());
  course::check::choose_language(Language::english);
  EXPECT_EQ(wrong.text(), wrong.english());
}

// COURSE_LANG first, then LC_ALL, LC_MESSAGES and LANG, the first one set.
UNIT_TEST(message_language_from_the_environment) {
  const auto with = [](const char* course, const char* all, const char* messages,
                       const char* lang) {
    const std::pair<const char*, const char*> variables[] = {
        {"COURSE_LANG", course}, {"LC_ALL", all}, {"LC_MESSAGES", messages}, {"LANG", lang}};
    for (const auto& [name, value] : variables) {
      if (value == nullptr) {
        unsetenv(name);
      } else {
        setenv(name, value, 1);
      }
    }
    return course::check::language_from_environment();
  };
  EXPECT_TRUE(with(nullptr, nullptr, nullptr, nullptr) == Language::english);
  EXPECT_TRUE(with("fr", nullptr, nullptr, nullptr) == Language::french);
  EXPECT_TRUE(with(nullptr, nullptr, nullptr, "fr_FR.UTF-8") == Language::french);
  EXPECT_TRUE(with("en", nullptr, nullptr, "fr_FR.UTF-8") == Language::english);
  EXPECT_TRUE(with(nullptr, "C.UTF-8", nullptr, "fr_FR.UTF-8") == Language::english);
  EXPECT_TRUE(with(nullptr, nullptr, "fr_BE.UTF-8", "C.UTF-8") == Language::french);
  with(nullptr, nullptr, nullptr, nullptr);
}

UNIT_TEST(results_parse_records_and_the_end_marker) {
  const std::int32_t values[2] = {7, -3};
  const std::string data =
      record("@course-record counts i32 2", std::string(reinterpret_cast<const char*>(values), 8)) +
      record("@course-record empty f32 0", "") + "@course-end\n";
  const auto results = parse_results(data);
  EXPECT_TRUE(results.format_error.empty());
  EXPECT_TRUE(results.finished);
  EXPECT_EQ(results.records.size(), std::size_t{2});
  const auto counts = results.records.at("counts").values<std::int32_t>();
  EXPECT_EQ(counts[1], -3);
  EXPECT_EQ(results.records.at("empty").count, std::size_t{0});
}

UNIT_TEST(results_without_end_marker_are_unfinished) {
  const auto results = parse_results(record("@course-record x f64 0", ""));
  EXPECT_TRUE(results.format_error.empty());
  EXPECT_TRUE(!results.finished);
}

UNIT_TEST(results_reject_garbage_truncation_and_lies_about_size) {
  EXPECT_CONTAINS(parse_results("PASS\n@course-end\n").format_error,
                  "unexpected bytes at offset 0");
  EXPECT_CONTAINS(parse_results("@course-record y f32 4\nab").format_error, "truncated");
  EXPECT_CONTAINS(parse_results("@course-record y f32 99999999999999\n").format_error, "truncated");
  EXPECT_CONTAINS(parse_results("@course-record y q16 1\nabcd\n").format_error, "malformed");
  EXPECT_CONTAINS(parse_results("@course-record y f32 1").format_error, "truncated record header");
}

UNIT_TEST(child_exit_status_and_output_are_collected) {
  const auto result =
      run_child({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {}, ChildLimits{});
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_CONTAINS(result.output, "out\n");
  EXPECT_CONTAINS(result.output, "err\n");
  EXPECT_CONTAINS(result.describe_end(), "exited with status 3");
}

UNIT_TEST(child_gets_the_extra_environment) {
  const auto result =
      run_child({"/bin/sh", "-c", "echo \"[$COURSE_X]\""}, {"COURSE_X=42"}, ChildLimits{});
  EXPECT_EQ(result.output, std::string("[42]\n"));
}

UNIT_TEST(child_killed_by_a_signal_is_reported) {
  const auto result = run_child({"/bin/sh", "-c", "kill -SEGV $$"}, {}, ChildLimits{});
  EXPECT_TRUE(!result.exited);
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_CONTAINS(result.describe_end(), "killed by signal 11");
}

UNIT_TEST(child_over_its_time_limit_is_stopped_with_its_children) {
  ChildLimits limits;
  limits.timeout_seconds = 0.5;
  course::WallTimer timer;
  // The grandchild holds the output pipe: the check must not wait for it either.
  const auto result = run_child({"/bin/sh", "-c", "sleep 30 & sleep 30"}, {}, limits);
  EXPECT_TRUE(result.timed_out);
  EXPECT_TRUE(timer.elapsed_ms() < 5000.0);
  EXPECT_CONTAINS(result.describe_end(), "time limit exceeded");
}

UNIT_TEST(child_that_exits_while_a_grandchild_runs_on_is_not_waited_for) {
  ChildLimits limits;
  limits.timeout_seconds = 10.0;
  course::WallTimer timer;
  const auto result = run_child({"/bin/sh", "-c", "sleep 30 & echo done"}, {}, limits);
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_TRUE(timer.elapsed_ms() < 5000.0);
}

UNIT_TEST(child_flooding_its_output_is_stopped) {
  ChildLimits limits;
  limits.output_kept_bytes = 1000;
  limits.output_limit_bytes = 1 << 20;
  const auto result = run_child({"/usr/bin/yes", "flood"}, {}, limits);
  EXPECT_TRUE(result.output_limit_hit);
  EXPECT_EQ(result.output.size(), std::size_t{1000});
  EXPECT_TRUE(result.output_bytes > (1u << 20));
  EXPECT_CONTAINS(result.describe_end(), "output limit exceeded");
}

UNIT_TEST(missing_program_cannot_start) {
  const auto result = run_child({"/nonexistent/program"}, {}, ChildLimits{});
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_CONTAINS(result.output, "cannot execute /nonexistent/program");
}

UNIT_TEST(child_cannot_write_huge_files) {
  ChildLimits limits;
  limits.file_size_limit_bytes = 1 << 20;
  const auto result =
      run_child({"/bin/sh", "-c",
                 "f=$(mktemp); head -c 5000000 /dev/zero > \"$f\"; s=$?; rm -f \"$f\"; echo $s"},
                {}, limits);
  EXPECT_TRUE(result.exited);
  EXPECT_TRUE(result.output != "0\n");  // head was stopped by SIGXFSZ
}

UNIT_TEST(child_leaving_a_detached_process_is_ended_with_it) {
  // A double fork and setsid: the grandchild leaves the group and the session, yet it
  // is a descendant of this process (the subreaper), and ends with the run.
  const auto result =
      run_child({"/bin/sh", "-c", "setsid sh -c 'sleep 30' & echo started"}, {}, ChildLimits{});
  EXPECT_TRUE(result.exited);
  EXPECT_CONTAINS(result.output, "started");
  EXPECT_TRUE(result.seconds < 10.0);
  EXPECT_TRUE(course::check::live_descendants_of(getpid()).empty());
}

UNIT_TEST(report_json_strings_are_valid_whatever_was_printed) {
  using course::check::json_string;
  EXPECT_EQ(json_string("caf\xc3\xa9"), std::string("\"caf\xc3\xa9\""));
  EXPECT_EQ(json_string("\x1b[31m"), std::string("\"\\u001b[31m\""));
  EXPECT_EQ(json_string("a\xff\xfe b"), std::string("\"a\\ufffd\\ufffd b\""));
  EXPECT_EQ(json_string("\xc3\x28"), std::string("\"\\ufffd(\""));  // a lead byte alone
  EXPECT_EQ(json_string("\xe0\x80\xaf"), std::string("\"\\ufffd\\ufffd\\ufffd\""));  // overlong
  EXPECT_EQ(json_string("\xf0\x9f\x98"), std::string("\"\\ufffd\\ufffd\\ufffd\""));  // truncated
}

UNIT_TEST_MAIN()
