// Seeded input data, identical on every machine and compiler.
//
// std::uniform_real_distribution may give different numbers with different standard
// libraries, so the course draws its own: SplitMix64 bits, turned into floats and
// ints here. The same seed gives the same inputs to the program that runs student
// code and to the check that judges it.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace course {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1), 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  float uniform(float lo, float hi) {
    return static_cast<float>(lo + (static_cast<double>(hi) - lo) * uniform01());
  }

  // Uniform integer in [lo, hi], both included.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(span == 0 ? next_u64() : next_u64() % span);
  }

  // Standard normal (Box-Muller); one value per call keeps the stream simple.
  double normal() {
    const double u1 = 1.0 - uniform01();  // in (0, 1], so log() is finite
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
  }

 private:
  std::uint64_t state_;
};

inline std::vector<float> random_floats(std::size_t n, float lo, float hi, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> values(n);
  for (auto& v : values) v = rng.uniform(lo, hi);
  return values;
}

inline std::vector<int> random_ints(std::size_t n, int lo, int hi, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<int> values(n);
  for (auto& v : values) v = static_cast<int>(rng.uniform_int(lo, hi));
  return values;
}

inline std::vector<float> random_normal_floats(std::size_t n, double mean, double stddev,
                                               std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> values(n);
  for (auto& v : values) v = static_cast<float>(mean + stddev * rng.normal());
  return values;
}

// Derives an independent seed for one use (one case, one input) from a base seed,
// so that cases do not share streams.
inline std::uint64_t derive_seed(std::uint64_t base, std::uint64_t salt) {
  Rng mixer(base ^ (salt * 0xD1B54A32D192ED03ull));
  return mixer.next_u64();
}

}  // namespace course
