// Reading the result file a program under test wrote (the format is in protocol.hpp).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "course/check/protocol.hpp"

namespace course::check {

struct Record {
  ValueType type = ValueType::f32;
  std::size_t count = 0;
  std::vector<unsigned char> bytes;

  template <typename T>
  std::vector<T> values() const {
    std::vector<T> out(count);
    if (count > 0) std::memcpy(out.data(), bytes.data(), count * sizeof(T));
    return out;
  }
};

struct Results {
  std::map<std::string, Record> records;
  bool finished = false;     // the end marker was there
  std::string format_error;  // empty when the file parsed
};

Results parse_results(const std::string& data);

// Reads a result file. The program under test wrote it and may have replaced it by
// a link to a file it cannot read itself, hoping the check (perhaps root) would copy
// that file's text into the report: links and anything but a regular file are refused.
bool read_file(const std::string& path, std::string& contents);

}  // namespace course::check
