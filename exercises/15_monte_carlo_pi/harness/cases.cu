// Exercise 15 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "course/check/runner.hpp"
#include "course/program.hpp"
#include "monte_carlo_pi.hpp"
#include "reference_gpu.cuh"
#include "workload.hpp"

namespace {

namespace result = monte_carlo_pi::result;

constexpr int kWarp = 32;
constexpr int kMaxThreadsPerBlock = 1024;

bool valid_launch(long long blocks, long long threads_per_block) {
  return blocks >= 1 && threads_per_block >= kWarp && threads_per_block <= kMaxThreadsPerBlock &&
         threads_per_block % kWarp == 0;
}

std::int64_t as_record(unsigned long long count) { return static_cast<std::int64_t>(count); }

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (request.name == "predicate") {
    std::vector<std::int32_t> inside;
    for (const monte_carlo_pi::TestPoint& point : monte_carlo_pi::kTestPoints) {
      inside.push_back(in_quarter_disc(point.x, point.y) ? 1 : 0);
    }
    results.put(result::inside, inside);
    return;
  }

  const unsigned long long n = static_cast<unsigned long long>(request.param_int("n"));
  if (request.name == "cpu") {
    results.put(result::hits, as_record(count_hits_cpu(n, request.seed)));
    return;
  }
  if (request.name == "cpu_openmp") {
    const int threads = static_cast<int>(request.param_int("threads"));
    results.put(result::hits, as_record(count_hits_cpu_openmp(n, request.seed, threads)));
    return;
  }

  const long long blocks = request.param_int("blocks");
  const long long threads_per_block = request.param_int("threads_per_block");
  if (!valid_launch(blocks, threads_per_block)) {
    std::fprintf(stderr, "check protocol: invalid launch %lld x %lld\n", blocks, threads_per_block);
    std::exit(2);
  }
  const int grid = static_cast<int>(blocks);
  const int block = static_cast<int>(threads_per_block);
  if (request.name == "reference") {
    results.put(result::hits, as_record(monte_carlo_pi::device_reference::reference_count_hits(
                                  n, request.seed, grid, block)));
  } else if (request.name == "gpu") {
    results.put(result::hits, as_record(count_hits_gpu(n, request.seed, grid, block)));
  } else if (request.name == "gpu_seeds") {
    // The same seed twice, then another one: a reproducible generator that the seed
    // actually drives.
    const unsigned long long other_seed = std::stoull(request.param("other_seed"));
    results.put(result::hits, as_record(count_hits_gpu(n, request.seed, grid, block)));
    results.put(result::hits_again, as_record(count_hits_gpu(n, request.seed, grid, block)));
    results.put(result::hits_other_seed, as_record(count_hits_gpu(n, other_seed, grid, block)));
  } else {
    course::check::unknown_case(request);
  }
}
