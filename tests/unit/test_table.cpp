// Unit tests of course/table.hpp: the printed layout the demos show, and the JSON side
// that the benchmark report reads (tools/course report-render).
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "course/bench.hpp"
#include "course/table.hpp"
#include "unit_test.hpp"

namespace {

course::Table sample_table() {
  return course::Table("sample", "a \"quoted\" title",
                       {course::Column::text("name", "name", 8),
                        course::Column::integer("n", "n", 6),
                        course::Column::number("ms", "ms", 8, 2),
                        course::Column::number("share", "share", 7, 1, "%"),
                        course::Column::scientific("rate", "rate", 10, 2)});
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh folder under /tmp, removed with its files at the end of the test.
struct TemporaryFolder {
  std::string path;
  TemporaryFolder() {
    char pattern[] = "/tmp/course_table_XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TemporaryFolder() {
    std::remove((path + "/sample.json").c_str());
    std::remove((path + "/bandwidth.json").c_str());
    rmdir(path.c_str());
  }
};

}  // namespace

UNIT_TEST(cells_align_under_their_headings) {
  const course::Table table = sample_table();
  const std::string row = table.format_row({"abc", 42, 1.239, 91.25, 1.5e9});
  EXPECT_EQ(row, std::string("abc          42     1.24   91.2%   1.50e+09"));
  // A cell wider than its column pushes the rest to the right rather than being cut.
  EXPECT_EQ(table.format_row({"a-long-name", 1, 0.0, 0.0, 0.0}).substr(0, 18),
            std::string("a-long-name      1"));
}

UNIT_TEST(a_cell_without_value_prints_a_dash_and_is_null) {
  course::Table table = sample_table();
  EXPECT_EQ(table.format_row(
                {"x", course::Cell(), course::Cell::number_if(false, 3.0), std::nan(""), 1.0}),
            std::string("x             -        -     nan   1.00e+00"));
  table.record_row(
      {"x", course::Cell(), course::Cell::number_if(false, 3.0), std::nan(""), INFINITY});
  EXPECT_CONTAINS(table.json(), "[\"x\", null, null, null, null]");
}

UNIT_TEST(headings_come_with_the_first_printed_row) {
  course::Table table = sample_table();
  std::FILE* out = std::tmpfile();
  table.record_row({"quiet", 1, 1.0, 1.0, 1.0}, "not implemented yet: f");  // recorded only
  table.add_row({"shown", 2, 2.0, 2.0, 2.0}, "", out);
  table.add_row({"next", 3, 3.0, 3.0, 3.0}, "", out);
  std::rewind(out);
  char line[256];
  std::string printed;
  while (std::fgets(line, sizeof line, out) != nullptr) printed += line;
  std::fclose(out);
  EXPECT_EQ(printed, std::string("name          n       ms   share       rate\n") +
                         "shown         2     2.00    2.0%   2.00e+00\n" +
                         "next          3     3.00    3.0%   3.00e+00\n");
  EXPECT_EQ(table.rows().size(), std::size_t{3});
  EXPECT_CONTAINS(table.json(), "\"notes\": [\"not implemented yet: f\", null, null]");
}

UNIT_TEST(a_noted_row_keeps_its_labels_and_loses_every_number) {
  course::Table table = sample_table();
  std::FILE* out = std::tmpfile();
  table.add_row({"shown", 2, 2.0, 2.0, 2.0}, "wrong result: f", out);
  table.record_row({"quiet", 1, 1.0, 1.0, 1.0}, "not implemented yet: f");
  std::rewind(out);
  char line[256];
  std::string printed;
  while (std::fgets(line, sizeof line, out) != nullptr) printed += line;
  std::fclose(out);
  EXPECT_CONTAINS(printed, "shown         2        -       -          -\n");
  EXPECT_CONTAINS(table.json(), "[\"shown\", 2, null, null, null]");
  EXPECT_CONTAINS(table.json(), "[\"quiet\", 1, null, null, null]");
}

UNIT_TEST(json_holds_keys_headings_units_and_escaped_text) {
  course::Table table = sample_table();
  table.record_row({"a\"b", 7, 0.5, 12.5, 2.0});
  const std::string json = table.json();
  EXPECT_CONTAINS(json, "\"table\": \"sample\"");
  EXPECT_CONTAINS(json, "\"title\": \"a \\\"quoted\\\" title\"");
  EXPECT_CONTAINS(json, "{\"key\": \"share\", \"heading\": \"share\", \"unit\": \"%\", "
                        "\"kind\": \"number\", \"precision\": 1}");
  EXPECT_CONTAINS(json, "[\"a\\\"b\", 7, 0.5, 12.5, 2.0]");
}

UNIT_TEST(rows_are_written_only_where_the_report_folder_is_set) {
  TemporaryFolder folder;
  unsetenv(course::kReportDirVariable);
  course::Table table = sample_table();
  table.record_row({"first", 1, 1.0, 1.0, 1.0});
  EXPECT_TRUE(read_file(folder.path + "/sample.json").empty());

  setenv(course::kReportDirVariable, folder.path.c_str(), 1);
  table.record_row({"second", 2, 2.0, 2.0, 2.0});
  const std::string written = read_file(folder.path + "/sample.json");
  // The whole table so far, both rows, rewritten after each one.
  EXPECT_CONTAINS(written, "[\"first\", 1, 1.0, 1.0, 1.0]");
  EXPECT_CONTAINS(written, "[\"second\", 2, 2.0, 2.0, 2.0]");
  EXPECT_TRUE(read_file(folder.path + "/sample.json.partial").empty());
  unsetenv(course::kReportDirVariable);
}

UNIT_TEST(a_bandwidth_line_records_its_figures) {
  TemporaryFolder folder;
  setenv(course::kReportDirVariable, folder.path.c_str(), 1);
  course::Table table = course::bandwidth_table("bandwidth", "kernels");
  // 1 GB read + 1 GB written in 1 ms: 2000 GB/s, half of a 4000 GB/s ceiling.
  course::add_bandwidth_line(table, "copy kernel   ", 1e9, 1e9, 1.0, 4000.0);
  course::add_bandwidth_line(table, "not timed", 1e9, 1e9, 0.0, 4000.0);
  unsetenv(course::kReportDirVariable);
  const std::string written = read_file(folder.path + "/bandwidth.json");
  EXPECT_CONTAINS(written,
                  "[\"copy kernel\", 1.0, 1000000000.0, 1000000000.0, 2000.0, 50.0, 4000.0]");
  // A time that is not positive is no time: no figure at all.
  EXPECT_CONTAINS(written, "[\"not timed\", null, 1000000000.0, 1000000000.0, null, null, 4000.0]");
}

UNIT_TEST_MAIN()
