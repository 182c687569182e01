// Unit tests of the host timer, the seeded data and the benchmark arithmetic.
// (The event timer needs a GPU; the exercises' GPU tests use it.)
#include <chrono>
#include <thread>
#include <vector>

#include "course/bench.hpp"
#include "course/data.hpp"
#include "course/timers.hpp"
#include "unit_test.hpp"

UNIT_TEST(wall_timer_is_monotonic_and_measures_a_sleep) {
  course::WallTimer timer;
  double previous = timer.elapsed_ms();
  EXPECT_TRUE(previous >= 0.0);
  for (int i = 0; i < 1000; ++i) {
    const double now = timer.elapsed_ms();
    EXPECT_TRUE(now >= previous);
    previous = now;
  }
  timer.restart();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double slept = timer.elapsed_ms();
  EXPECT_TRUE(slept >= 20.0);
  EXPECT_TRUE(slept < 2000.0);
}

UNIT_TEST(same_seed_same_numbers_other_seed_other_numbers) {
  EXPECT_TRUE(course::random_floats(1000, -1, 1, 7) == course::random_floats(1000, -1, 1, 7));
  EXPECT_TRUE(course::random_floats(1000, -1, 1, 7) != course::random_floats(1000, -1, 1, 8));
  EXPECT_TRUE(course::derive_seed(1, 2) != course::derive_seed(1, 3));
}

UNIT_TEST(generator_is_pinned_across_platforms) {
  // SplitMix64's first output for seed 0; if this changes, every check's inputs do.
  course::Rng rng(0);
  EXPECT_EQ(rng.next_u64(), 0xE220A8397B1DCDAFull);
}

UNIT_TEST(uniform_values_stay_in_range_and_are_not_constant) {
  const std::vector<float> values = course::random_floats(10000, -10.0f, 10.0f, 3);
  float lo = values[0], hi = values[0];
  for (float v : values) {
    EXPECT_TRUE(v >= -10.0f && v < 10.0f);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_TRUE(lo < -9.0f && hi > 9.0f);
  const std::vector<int> ints = course::random_ints(10000, 3, 5, 4);
  int seen[3] = {0, 0, 0};
  for (int v : ints) {
    EXPECT_TRUE(v >= 3 && v <= 5);
    if (v >= 3 && v <= 5) ++seen[v - 3];
  }
  EXPECT_TRUE(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
}

UNIT_TEST(normal_values_have_the_asked_mean_and_spread) {
  const std::vector<float> values = course::random_normal_floats(100000, 5.0, 2.0, 11);
  double sum = 0.0, squares = 0.0;
  for (float v : values) {
    sum += v;
    squares += double(v) * v;
  }
  const double mean = sum / values.size();
  const double stddev = std::sqrt(squares / values.size() - mean * mean);
  EXPECT_TRUE(std::fabs(mean - 5.0) < 0.05);
  EXPECT_TRUE(std::fabs(stddev - 2.0) < 0.05);
}

UNIT_TEST(median_of_odd_and_even_counts) {
  EXPECT_EQ(course::median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(course::median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(course::median({}), 0.0);
  const course::TimingStats stats = course::summarize({5.0, 1.0, 9.0});
  EXPECT_EQ(stats.median_ms, 5.0);
  EXPECT_EQ(stats.min_ms, 1.0);
  EXPECT_EQ(stats.max_ms, 9.0);
  EXPECT_EQ(stats.repetitions, 3);
}

UNIT_TEST(bandwidth_and_flop_rates_follow_their_formulas) {
  // 2 GB moved in 1 ms is 2000 GB/s; 1e9 FLOP in 10 ms is 100 GFLOP/s.
  EXPECT_EQ(course::gigabytes_per_second(2e9, 1.0), 2000.0);
  EXPECT_EQ(course::gigaflops_per_second(1e9, 10.0), 100.0);
  EXPECT_EQ(course::gigabytes_per_second(1e9, 0.0), 0.0);
  const std::string line = course::bandwidth_report("copy", 1e9, 1e9, 1.0, 4000.0);
  EXPECT_CONTAINS(line, "copy: 1.0000 ms, 2000.0 GB/s = (1e+09 B read + 1e+09 B written) / time");
  EXPECT_CONTAINS(line, "50.0% of the copy ceiling (4000.0 GB/s)");
}

UNIT_TEST(host_timing_repeats_and_takes_the_median) {
  int calls = 0;
  const course::TimingStats stats = course::time_host([&] { ++calls; }, 2, 7);
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(stats.repetitions, 7);
  EXPECT_TRUE(stats.min_ms <= stats.median_ms && stats.median_ms <= stats.max_ms);
}

// The timing hook (course/timing_hook.hpp): in a check's served program it asks for the
// GPU alone, so every host measurement must call it before its clock starts, warm-up
// calls included.
namespace {
int hook_calls = 0;
int work_calls_at_first_hook = -1;
int work_calls = 0;
void count_hook() {
  if (hook_calls++ == 0) work_calls_at_first_hook = work_calls;
}
}  // namespace

UNIT_TEST(host_timers_call_the_timing_hook_before_they_measure) {
  course::timing_hook() = count_hook;
  { const course::WallTimer timer; }
  EXPECT_EQ(hook_calls, 1);
  course::WallTimer timer;
  timer.restart();
  EXPECT_EQ(hook_calls, 3);
  hook_calls = 0;
  course::time_host([&] { ++work_calls; }, 2, 3);
  EXPECT_TRUE(hook_calls >= 1);
  EXPECT_EQ(work_calls_at_first_hook, 0);  // before the first warm-up call
  course::timing_hook() = nullptr;
  hook_calls = 0;
  { const course::WallTimer untimed; }
  EXPECT_EQ(hook_calls, 0);
}

UNIT_TEST_MAIN()
