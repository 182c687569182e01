// The names of the values a check case reports, declared once per exercise.
//
// A case's program writes records (runner.hpp's ResultWriter) that its check reads back
// by name (judge.hpp's CaseContext). Each exercise declares those names once, in its
// harness/workload.hpp, which both sides include:
//
//   namespace device_memory::result {
//   inline const course::check::Array<float> y{"y"};              // y, element by element
//   inline const course::check::Value<double> kernel_ms{"kernel_ms"};
//   inline const course::check::Family<course::check::Value<double>> step_ms{"", "_ms"};
//   }
//
//   results.put(result::y, y);                                     // harness/cases.cu
//   c.expect_array(run, result::y, expected, kTolerance);          // harness/check.cpp
//
// A misspelt name no longer compiles, the key's type fixes the record's type on both
// sides, and tests/tools/test_result_keys.py proves that every key an exercise declares
// is both written and read.
#pragma once

#include <string>

namespace course::check {

// One value of type T.
template <typename T>
struct Value {
  std::string name;
};

// Any number of values of type T (an output array).
template <typename T>
struct Array {
  std::string name;
};

// A line of text the code under test produced (an error message, a log).
struct Text {
  std::string name;
};

// A key per member of a set known to both sides (a step, a kernel, a stream): the
// record's name is prefix + member + suffix.
template <typename Key>
struct Family {
  std::string prefix;
  std::string suffix;
  Key operator()(const std::string& member) const { return Key{prefix + member + suffix}; }
};

// Keeps a parameter out of template deduction, so that a key alone fixes the type:
// put(result::count, 3) stores an i64 when the key says std::int64_t.
template <typename T>
struct KeyedType {
  using type = T;
};
template <typename T>
using Keyed = typename KeyedType<T>::type;

}  // namespace course::check
