// Exercise 19: what is given to the student's code - the argument list read into its
// parts, NVRTC called with the course's options (exercise 17 wrote that part), and the
// two file operations of the disk cache. Instructor-owned; do not change this file.
#pragma once

#include <nvrtc.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/errors_nvrtc.hpp"

// ---------------------------------------------------------------------------
// The argument list
// ---------------------------------------------------------------------------

// One argument of an argument list such as "float a, const float* x".
struct Argument {
  std::string type;  // as declared: "float", "const float*"
  std::string name;  // "a", "x"
  bool is_pointer = false;
};

namespace given_detail {

inline std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

inline bool is_identifier(const std::string& word) {
  if (word.empty() || std::isdigit(static_cast<unsigned char>(word[0]))) return false;
  for (const char c : word) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace given_detail

// The arguments of a comma-separated list; throws std::invalid_argument when one is not
// "<type> <name>" with a C identifier for a name.
inline std::vector<Argument> parse_arguments(const std::string& list) {
  std::vector<Argument> arguments;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    const std::string declaration = given_detail::trimmed(list.substr(at, comma - at));
    // The name is the last word; the type is everything before it ("const float*").
    std::size_t name_start = declaration.size();
    while (name_start > 0 &&
           (std::isalnum(static_cast<unsigned char>(declaration[name_start - 1])) ||
            declaration[name_start - 1] == '_')) {
      --name_start;
    }
    Argument argument;
    argument.name = declaration.substr(name_start);
    argument.type = given_detail::trimmed(declaration.substr(0, name_start));
    argument.is_pointer = !argument.type.empty() && argument.type.back() == '*';
    if (argument.type.empty() || !given_detail::is_identifier(argument.name)) {
      throw std::invalid_argument("malformed argument '" + declaration + "' in '" + list + "'");
    }
    arguments.push_back(argument);
    at = comma + 1;
  }
  return arguments;
}

// ---------------------------------------------------------------------------
// NVRTC
// ---------------------------------------------------------------------------

// What one NVRTC compilation gave.
struct NvrtcOutput {
  bool succeeded = false;
  std::string log;          // the program log (the errors when it failed)
  std::vector<char> cubin;  // the CUBIN when it succeeded
};

// The options every kernel is compiled with: a real architecture (sm_75 for 75, so that
// NVRTC gives a CUBIN), C++17, and FMA contraction as nvcc does by default.
inline std::vector<std::string> nvrtc_options(int architecture) {
  return {"--gpu-architecture=sm_" + std::to_string(architecture), "--std=c++17", "--fmad=true"};
}

// The options as one string, each followed by a space (what the cache key covers).
inline std::string joined(const std::vector<std::string>& options) {
  std::string text;
  for (const std::string& option : options) text += option + " ";
  return text;
}

// NVRTC's version, major * 1000 + minor * 10 (13000 for 13.0): another NVRTC may compile
// the same source into another CUBIN.
inline int nvrtc_version() {
  int major = 0, minor = 0;
  NVRTC_CHECK(nvrtcVersion(&major, &minor));
  return major * 1000 + minor * 10;
}

// How many times compile_with_nvrtc ran in this process: the cases prove with it that
// a kernel found in the cache is not compiled again.
inline int& nvrtc_compilation_count() {
  static int count = 0;
  return count;
}
inline int nvrtc_compilations() { return nvrtc_compilation_count(); }

// Compiles `source` with NVRTC; a source with errors returns succeeded = false and the
// log, it does not end the program.
inline NvrtcOutput compile_with_nvrtc(const std::string& source,
                                      const std::vector<std::string>& options) {
  ++nvrtc_compilation_count();
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, source.c_str(), "generated.cu", 0, nullptr, nullptr));
  std::vector<const char*> words;
  for (const std::string& option : options) words.push_back(option.c_str());
  const nvrtcResult status =
      nvrtcCompileProgram(program, static_cast<int>(words.size()), words.data());
  NvrtcOutput output;
  output.succeeded = status == NVRTC_SUCCESS;
  std::size_t log_bytes = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(program, &log_bytes));
  std::string log(log_bytes, '\0');
  NVRTC_CHECK(nvrtcGetProgramLog(program, log.data()));
  output.log = log.c_str();  // without the terminating '\0'
  if (output.succeeded) {
    std::size_t cubin_bytes = 0;
    NVRTC_CHECK(nvrtcGetCUBINSize(program, &cubin_bytes));
    output.cubin.resize(cubin_bytes);
    NVRTC_CHECK(nvrtcGetCUBIN(program, output.cubin.data()));
  } else if (status != NVRTC_ERROR_COMPILATION) {
    NVRTC_CHECK(status);  // not an error in the source: NVRTC itself failed
  }
  NVRTC_CHECK(nvrtcDestroyProgram(&program));
  return output;
}

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

// Reads a whole file; false when it cannot be opened or read.
inline bool read_whole_file(const std::string& path, std::vector<char>& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  bytes.clear();
  char block[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(block, 1, sizeof block, file)) > 0) {
    bytes.insert(bytes.end(), block, block + got);
  }
  const bool read_all = std::ferror(file) == 0;
  std::fclose(file);
  return read_all;
}

// Writes `bytes` to a temporary file beside `path`, then renames it to `path`: a rename
// within a folder replaces the file at once, so a reader (another process using the
// same cache) sees the old file or the new one, never half of one. False, and nothing
// left behind, when any step fails.
inline bool write_file_atomically(const std::string& path, const std::vector<char>& bytes) {
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const bool closed = std::fclose(file) == 0;
  if (written && closed && std::rename(temporary.c_str(), path.c_str()) == 0) return true;
  std::remove(temporary.c_str());
  return false;
}
