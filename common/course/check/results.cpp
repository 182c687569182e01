// The check harness, reading the result file a program under test wrote (declared in results.hpp).
// Compiled once into course_check, which every check links (CMakeLists.txt,
// tools/course_tools/student/nvcc.py): a check.cpp compiles its cases alone.
#include "course/check/results.hpp"

namespace course::check {

Results parse_results(const std::string& data) {
  Results results;
  std::size_t at = 0;
  const std::string record_tag = std::string(kRecordTag) + " ";
  const std::string end_line = std::string(kEndTag) + "\n";
  while (at < data.size()) {
    if (data.compare(at, end_line.size(), end_line) == 0) {
      results.finished = true;
      at += end_line.size();
      continue;
    }
    if (data.compare(at, record_tag.size(), record_tag) != 0) {
      results.format_error = "unexpected bytes at offset " + std::to_string(at);
      return results;
    }
    const std::size_t line_end = data.find('\n', at);
    if (line_end == std::string::npos) {
      results.format_error = "truncated record header";
      return results;
    }
    char name[256] = {0};
    char type_text[16] = {0};
    unsigned long long count = 0;
    const std::string header = data.substr(at, line_end - at);
    Record record;
    if (std::sscanf(header.c_str(), "@course-record %255s %15s %llu", name, type_text, &count) !=
            3 ||
        !parse_type(type_text, record.type)) {
      results.format_error = "malformed record header '" + header + "'";
      return results;
    }
    record.count = count;
    const std::size_t payload = record.count * type_size(record.type);
    const std::size_t begin = line_end + 1;
    if (record.count > data.size() || begin + payload + 1 > data.size() ||
        data[begin + payload] != '\n') {
      results.format_error = "record '" + std::string(name) + "' is truncated";
      return results;
    }
    record.bytes.assign(data.begin() + static_cast<std::ptrdiff_t>(begin),
                        data.begin() + static_cast<std::ptrdiff_t>(begin + payload));
    results.records[name] = std::move(record);
    at = begin + payload + 1;
  }
  return results;
}

bool read_file(const std::string& path, std::string& contents) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return false;
  }
  contents.clear();
  char buffer[1 << 16];
  ssize_t got = 0;
  while ((got = read(fd, buffer, sizeof buffer)) > 0)
    contents.append(buffer, static_cast<std::size_t>(got));
  close(fd);
  return true;
}

}  // namespace course::check
