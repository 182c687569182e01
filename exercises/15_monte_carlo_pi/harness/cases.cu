// Exercise 15 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "monte_carlo_pi.hpp"
#include "reference_gpu.cuh"
#include "workload.hpp"

namespace {

namespace asked = monte_carlo_pi::request;
namespace result = monte_carlo_pi::result;

constexpr int kWarp = 32;
constexpr int kMaxThreadsPerBlock = 1024;

bool valid_launch(long long blocks, long long threads_per_block) {
  return blocks >= 1 && threads_per_block >= kWarp && threads_per_block <= kMaxThreadsPerBlock &&
         threads_per_block % kWarp == 0;
}

std::int64_t as_record(unsigned long long count) { return static_cast<std::int64_t>(count); }

// A launch the check asks for, as count_hits_gpu takes it.
struct Grid {
  unsigned long long n;
  int blocks;
  int threads_per_block;
};

Grid grid_of(const asked::Launch& launch) {
  if (!valid_launch(launch.blocks, launch.threads_per_block)) {
    std::fprintf(stderr, "check protocol: invalid launch %lld x %lld\n",
                 static_cast<long long>(launch.blocks),
                 static_cast<long long>(launch.threads_per_block));
    std::exit(2);
  }
  return {launch.n, static_cast<int>(launch.blocks), static_cast<int>(launch.threads_per_block)};
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  const std::uint64_t seed = request.seed;
  if (request.is(asked::predicate)) {
    std::vector<std::int32_t> inside;
    for (const monte_carlo_pi::TestPoint& point : monte_carlo_pi::kTestPoints) {
      inside.push_back(in_quarter_disc(point.x, point.y) ? 1 : 0);
    }
    results.put(result::inside, inside);
  } else if (const auto p = request.as(asked::cpu)) {
    results.put(result::hits, as_record(count_hits_cpu(p->n, seed)));
  } else if (const auto p = request.as(asked::cpu_openmp)) {
    results.put(result::hits, as_record(count_hits_cpu_openmp(p->n, seed, p->threads)));
  } else if (const auto p = request.as(asked::reference)) {
    const Grid g = grid_of(*p);
    results.put(result::hits, as_record(monte_carlo_pi::device_reference::reference_count_hits(
                                  g.n, seed, g.blocks, g.threads_per_block)));
  } else if (const auto p = request.as(asked::gpu)) {
    const Grid g = grid_of(*p);
    results.put(result::hits, as_record(count_hits_gpu(g.n, seed, g.blocks, g.threads_per_block)));
  } else if (const auto p = request.as(asked::gpu_seeds)) {
    // The same seed twice, then another one: a reproducible generator that the seed
    // actually drives.
    const Grid g = grid_of(p->launch);
    results.put(result::hits, as_record(count_hits_gpu(g.n, seed, g.blocks, g.threads_per_block)));
    results.put(result::hits_again,
                as_record(count_hits_gpu(g.n, seed, g.blocks, g.threads_per_block)));
    results.put(result::hits_other_seed,
                as_record(count_hits_gpu(g.n, p->other_seed, g.blocks, g.threads_per_block)));
  } else {
    course::check::unknown_case(request);
  }
}
