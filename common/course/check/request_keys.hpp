// The requests a check sends to its program, declared once per exercise, as its
// results are (result_keys.hpp).
//
// A case's request is a name and a struct of parameters. Each exercise declares them in
// its harness/workload.hpp, which both sides include; the struct lists its members once,
// with the words they travel under:
//
//   namespace device_memory::request {
//   struct Affine {
//     std::int64_t n = 0;
//     double scale = 1.0;
//     double offset = 0.0;
//     template <typename Visit>
//     void fields(Visit&& visit) {
//       visit("n", n), visit("scale", scale), visit("offset", offset);
//     }
//   };
//   inline const course::check::Request<Affine> affine{"affine"};
//   }
//
//   const Run run = c.run(request::affine, {n, scale, offset});       // harness/check.cpp
//   if (const auto p = request.as(request::affine)) { ... p->n ... }  // harness/cases.cu
//
// A misspelt request or parameter is a compile error on either side (tests/unit's
// typed_request_misspelt proves it), a parameter can no longer be left out or read with
// the wrong type, and the words on the wire (protocol.hpp) are written in one place.
//
// A parameter is an integer, a floating-point number, a bool, a std::string, or an enum
// whose names the exercise lists in a function found beside the enum:
//
//   enum class Method { fused, three_kernels };
//   inline std::vector<std::pair<Method, std::string>> choices(Method) {
//     return {{Method::fused, "fused"}, {Method::three_kernels, "three_kernels"}};
//   }
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace course::check {

// One kind of case a program serves, with the parameters it takes.
template <typename Params>
struct Request {
  std::string name;
};

// The parameters as the protocol's words: name=value pairs, in the struct's order.
using Words = std::vector<std::pair<std::string, std::string>>;

namespace request_detail {

// Floating-point values travel with 17 significant digits: the program gets exactly the
// double the check computed its reference from.
inline std::string word_of(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

template <typename T>
std::string word_of(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "1" : "0";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else if constexpr (std::is_enum_v<T>) {
    for (const auto& [choice, name] : choices(value)) {
      if (choice == value) return name;
    }
    std::fprintf(stderr, "check protocol: an enum value has no name in its choices()\n");
    std::exit(2);
  } else if constexpr (std::is_floating_point_v<T>) {
    return word_of(static_cast<double>(value));
  } else {
    static_assert(std::is_integral_v<T>, "a request parameter is a number, bool, string or enum");
    return std::to_string(value);
  }
}

// Reads `word` into `value`; false when it is not one.
template <typename T>
bool read_word(const std::string& word, T& value) {
  try {
    std::size_t used = 0;
    if constexpr (std::is_same_v<T, bool>) {
      if (word != "0" && word != "1") return false;
      value = word == "1";
      return true;
    } else if constexpr (std::is_same_v<T, std::string>) {
      value = word;
      return true;
    } else if constexpr (std::is_enum_v<T>) {
      for (const auto& [choice, name] : choices(value)) {
        if (name == word) {
          value = choice;
          return true;
        }
      }
      return false;
    } else if constexpr (std::is_floating_point_v<T>) {
      value = static_cast<T>(std::stod(word, &used));
    } else if constexpr (std::is_signed_v<T>) {
      const long long read = std::stoll(word, &used);
      value = static_cast<T>(read);
      if (static_cast<long long>(value) != read) return false;
    } else {
      const unsigned long long read = std::stoull(word, &used);
      value = static_cast<T>(read);
      if (static_cast<unsigned long long>(value) != read) return false;
    }
    return used == word.size();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace request_detail

// The words of a request's parameters (the check's side).
template <typename Params>
Words words_of(Params params) {
  Words words;
  params.fields([&](const char* name, const auto& value) {
    words.emplace_back(name, request_detail::word_of(value));
  });
  return words;
}

// The parameters these words carry (the program's side). A missing or unreadable word
// is the check and the program disagreeing on the protocol: the program stops with 2.
template <typename Params>
Params params_of(const std::string& request_name, const std::map<std::string, std::string>& words) {
  Params params{};
  params.fields([&](const char* name, auto& value) {
    const auto found = words.find(name);
    if (found == words.end() || !request_detail::read_word(found->second, value)) {
      std::fprintf(stderr, "check protocol: case '%s' needs a valid parameter '%s'%s\n",
                   request_name.c_str(), name,
                   found == words.end() ? "" : (" (got '" + found->second + "')").c_str());
      std::exit(2);
    }
  });
  return params;
}

// A request that takes no parameters.
struct NoParams {
  template <typename Visit>
  void fields(Visit&&) {}
};

}  // namespace course::check
