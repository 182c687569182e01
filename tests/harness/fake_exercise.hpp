// The fake exercise of the harness tests: sum n seeded integers.
#pragma once

#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/data.hpp"

long long sum_of(const int* values, int n);

namespace fake_exercise {

inline std::vector<int> make_input(int n, std::uint64_t seed) {
  return course::random_ints(static_cast<std::size_t>(n), -1000, 1000, seed);
}

// The one request the fake check sends: the sum of n seeded integers.
namespace request {
struct Sum {
  int n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
inline const course::check::Request<Sum> sum{"sum"};
}  // namespace request

}  // namespace fake_exercise
