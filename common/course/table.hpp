// Tables of measurements: printed for a person, and written as JSON for the benchmark
// report (tools/course report) when COURSE_REPORT_DIR names a folder.
//
// A demo declares its columns once (key for machines, heading and width for people),
// then adds rows; each row is printed at once, aligned under the headings, and the whole
// table is written again to COURSE_REPORT_DIR/<name>.json after every row, so that the
// report never has to read the printed text back and a demo that stops half-way still
// leaves the rows it measured. A cell that has no value (a time not measured, a speedup
// of a time that is zero) prints "-" and is written as null. A row may carry a note, why
// its figures are missing ("not implemented yet: heavy_on_gpu", demo_results.hpp): the
// demo prints that line once, the JSON keeps it with the row for the report.
//
//   course::Table table("block_shapes", "GPU kernel, by block shape",
//                       {course::Column::text("block", "block", 12),
//                        course::Column::integer("threads", "threads", 8),
//                        course::Column::number("kernel_ms", "kernel ms", 10, 4),
//                        course::Column::number("ceiling_percent", "ceiling", 8, 1, "%")});
//   table.print_header();
//   table.add_row({"32x4x2", 256, 1.2345, 91.2});
//
// The JSON file: {"table": name, "title": title, "columns": [{"key", "heading", "unit",
// "kind", "precision"}], "rows": [[cell, ...], ...]}; cells are strings, numbers or null.
// When a row has a note, "notes": [note or null, ...] follows, one entry per row.
// tools/course_tools/report/data.py reads it (and writes the seeds' tables the same way).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "course/check/report_json.hpp"

namespace course {

// The environment variable that turns the JSON side on: the folder for the tables.
inline constexpr const char* kReportDirVariable = "COURSE_REPORT_DIR";

struct Column {
  enum class Kind { text, right_text, integer, number, scientific };
  std::string key;      // machine name: lower case, digits and '_'
  std::string heading;  // what a person reads above the column
  int width = 0;        // printed width, the suffix included
  int precision = 0;    // decimals of a number
  std::string suffix;   // printed after a number ("%", "x"), and the JSON's unit
  Kind kind = Kind::number;

  // Left-aligned text.
  static Column text(std::string key, std::string heading, int width) {
    return {std::move(key), std::move(heading), width, 0, "", Kind::text};
  }
  // Right-aligned text, like the numbers around it.
  static Column right_text(std::string key, std::string heading, int width) {
    return {std::move(key), std::move(heading), width, 0, "", Kind::right_text};
  }
  static Column integer(std::string key, std::string heading, int width) {
    return {std::move(key), std::move(heading), width, 0, "", Kind::integer};
  }
  // A fixed-point number, e.g. number("ceiling_percent", "ceiling", 8, 1, "%") prints " 91.2%".
  static Column number(std::string key, std::string heading, int width, int precision,
                       std::string suffix = "") {
    return {std::move(key), std::move(heading), width, precision, std::move(suffix), Kind::number};
  }
  // A number in exponent form, e.g. 1.234e+09.
  static Column scientific(std::string key, std::string heading, int width, int precision) {
    return {std::move(key), std::move(heading), width, precision, "", Kind::scientific};
  }
};

// One cell: text, an integer, a number, or nothing (printed "-", written null).
class Cell {
 public:
  Cell() = default;  // nothing
  Cell(const char* text) : kind_(Kind::text), text_(text) {}
  Cell(std::string text) : kind_(Kind::text), text_(std::move(text)) {}
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Cell(T value) : kind_(Kind::integer), integer_(static_cast<long long>(value)) {}
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Cell(T value) : kind_(Kind::number), number_(static_cast<double>(value)) {}

  // A number only where `valid` holds (a speedup over a time that is not positive is none).
  static Cell number_if(bool valid, double value) { return valid ? Cell(value) : Cell(); }

  bool empty() const { return kind_ == Kind::none; }

  // The cell as the column prints it, padded to the column's width.
  std::string printed(const Column& column) const {
    std::string body;
    char buffer[64];
    if (kind_ == Kind::text) {
      body = text_;
    } else if (kind_ == Kind::integer) {
      std::snprintf(buffer, sizeof buffer, "%lld", integer_);
      body = buffer;
    } else if (kind_ == Kind::number && std::isfinite(number_)) {
      const char* format = column.kind == Column::Kind::scientific ? "%.*e" : "%.*f";
      std::snprintf(buffer, sizeof buffer, format, column.precision, number_);
      body = std::string(buffer) + column.suffix;
    } else {
      body = kind_ == Kind::number ? "nan" : "-";
    }
    return pad(body, column);
  }

  // The cell in JSON: a string, a number, or null (JSON has no NaN nor infinity).
  std::string json() const {
    char buffer[64];
    switch (kind_) {
      case Kind::text: return check::json_string(text_);
      case Kind::integer: std::snprintf(buffer, sizeof buffer, "%lld", integer_); return buffer;
      case Kind::number:
        if (!std::isfinite(number_)) return "null";
        std::snprintf(buffer, sizeof buffer, "%.17g", number_);
        // 2.0, not 2: a reader tells numbers from integers (a count) by the point.
        if (std::string(buffer).find_first_of(".e") == std::string::npos)
          return buffer + std::string(".0");
        return buffer;
      case Kind::none: break;
    }
    return "null";
  }

  static std::string pad(const std::string& body, const Column& column) {
    const std::size_t width = static_cast<std::size_t>(column.width);
    if (body.size() >= width) return body;
    const std::string spaces(width - body.size(), ' ');
    return column.kind == Column::Kind::text ? body + spaces : spaces + body;
  }

 private:
  enum class Kind { none, text, integer, number };
  Kind kind_ = Kind::none;
  std::string text_;
  long long integer_ = 0;
  double number_ = 0.0;
};

class Table {
 public:
  // name: the JSON file's name (lower case, digits, '_'); title: a line that says what
  // was measured; indent: spaces printed before the headings and each row.
  Table(std::string name, std::string title, std::vector<Column> columns, int indent = 0)
      : name_(std::move(name)),
        title_(std::move(title)),
        columns_(std::move(columns)),
        indent_(indent) {}

  const std::string& name() const { return name_; }
  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<Cell>>& rows() const { return rows_; }
  const std::vector<std::string>& notes() const { return notes_; }

  // The headings, aligned like the rows.
  void print_header(std::FILE* out = stdout) {
    std::string line(static_cast<std::size_t>(indent_), ' ');
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) line += ' ';
      line += Cell::pad(columns_[c].heading, columns_[c]);
    }
    std::fprintf(out, "%s\n", trimmed(line).c_str());
    header_printed_ = true;
  }

  // Prints the row under the headings (printed first if they were not yet: a demo may
  // record rows without figures silently and show the table from its first measured row)
  // and records it.
  void add_row(std::vector<Cell> cells, std::FILE* out = stdout) {
    add_row(std::move(cells), std::string(), out);
  }
  // The same with the row's note (recorded, not printed: the demo said it once already).
  void add_row(std::vector<Cell> cells, const std::string& note, std::FILE* out = stdout) {
    if (!note.empty()) cells = without_figures(std::move(cells));
    if (!header_printed_) print_header(out);
    std::fprintf(out, "%s\n", format_row(cells).c_str());
    std::fflush(out);
    record_row(std::move(cells), note);
  }

  // Records a row that the demo prints in its own words (a sentence rather than columns).
  void record_row(std::vector<Cell> cells, const std::string& note = std::string()) {
    if (cells.size() != columns_.size()) {
      std::fprintf(stderr, "course::Table %s: a row of %zu cells for %zu columns\n", name_.c_str(),
                   cells.size(), columns_.size());
      std::exit(2);
    }
    rows_.push_back(note.empty() ? std::move(cells) : without_figures(std::move(cells)));
    notes_.push_back(note);
    save();
  }

  // A row with a note stands for a result that is not right: it keeps its labels (text
  // and integer columns: names, grid shapes) and loses every number, the sizes and the
  // ceiling beside the missing figures included, so that no figure appears next to it.
  std::vector<Cell> without_figures(std::vector<Cell> cells) const {
    for (std::size_t c = 0; c < cells.size() && c < columns_.size(); ++c) {
      const Column::Kind kind = columns_[c].kind;
      if (kind == Column::Kind::number || kind == Column::Kind::scientific) cells[c] = Cell();
    }
    return cells;
  }

  // The row as add_row prints it.
  std::string format_row(const std::vector<Cell>& cells) const {
    std::string line(static_cast<std::size_t>(indent_), ' ');
    for (std::size_t c = 0; c < cells.size() && c < columns_.size(); ++c) {
      if (c > 0) line += ' ';
      line += cells[c].printed(columns_[c]);
    }
    return trimmed(line);
  }

  std::string json() const {
    std::string out = "{\"table\": " + check::json_string(name_) +
                      ", \"title\": " + check::json_string(title_) + ", \"columns\": [";
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const Column& column = columns_[c];
      out += std::string(c > 0 ? ", " : "") + "{\"key\": " + check::json_string(column.key) +
             ", \"heading\": " + check::json_string(column.heading) +
             ", \"unit\": " + check::json_string(column.suffix) +
             ", \"kind\": " + check::json_string(kind_name(column.kind)) +
             ", \"precision\": " + std::to_string(column.precision) + "}";
    }
    out += "], \"rows\": [";
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      out += r > 0 ? ",\n  [" : "\n  [";
      for (std::size_t c = 0; c < rows_[r].size(); ++c) {
        out += (c > 0 ? ", " : "") + rows_[r][c].json();
      }
      out += "]";
    }
    out += "]";
    if (has_notes()) {
      out += ",\n \"notes\": [";
      for (std::size_t r = 0; r < notes_.size(); ++r) {
        out += (r > 0 ? ", " : "") + (notes_[r].empty() ? "null" : check::json_string(notes_[r]));
      }
      out += "]";
    }
    return out + "}\n";
  }

  bool has_notes() const {
    for (const std::string& note : notes_) {
      if (!note.empty()) return true;
    }
    return false;
  }

  // Writes the table to COURSE_REPORT_DIR/<name>.json when the variable is set: to a
  // temporary file first, renamed over the old one, so that a reader never sees half.
  void save() const {
    const char* folder = std::getenv(kReportDirVariable);
    if (folder == nullptr || *folder == '\0') return;
    const std::string path = std::string(folder) + "/" + name_ + ".json";
    const std::string partial = path + ".partial";
    std::FILE* file = std::fopen(partial.c_str(), "w");
    if (file == nullptr) {
      std::fprintf(stderr, "course::Table: cannot write %s (%s=%s)\n", partial.c_str(),
                   kReportDirVariable, folder);
      std::exit(2);
    }
    const std::string text = json();
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    if (std::fclose(file) != 0 || !written || std::rename(partial.c_str(), path.c_str()) != 0) {
      std::fprintf(stderr, "course::Table: cannot write %s\n", path.c_str());
      std::exit(2);
    }
  }

 private:
  static const char* kind_name(Column::Kind kind) {
    switch (kind) {
      case Column::Kind::text: return "text";
      case Column::Kind::right_text: return "right_text";
      case Column::Kind::integer: return "integer";
      case Column::Kind::number: return "number";
      case Column::Kind::scientific: return "scientific";
    }
    return "text";
  }

  static std::string trimmed(std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
  }

  std::string name_;
  std::string title_;
  std::vector<Column> columns_;
  int indent_ = 0;
  bool header_printed_ = false;
  std::vector<std::vector<Cell>> rows_;
  std::vector<std::string> notes_;  // one per row, empty for none
};

}  // namespace course
