// The fake exercise of the harness tests: sum n seeded integers.
#pragma once

#include <cstdint>
#include <vector>

#include "course/data.hpp"

long long sum_of(const int* values, int n);

namespace fake_exercise {

inline std::vector<int> make_input(int n, std::uint64_t seed) {
  return course::random_ints(static_cast<std::size_t>(n), -1000, 1000, seed);
}

}  // namespace fake_exercise
