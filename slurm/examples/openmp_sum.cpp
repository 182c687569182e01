// A CPU-only OpenMP program for the Slurm OpenMP example (slurm/jobs/openmp.sbatch):
// it sums 1/i^2 for i = 1..N (which tends to pi^2/6) with a loop shared among the
// threads, once with one thread and once with every thread OpenMP was given, and
// prints how many threads it got, how the loop was split, and the speed-up.
//
// Why: on a cluster, a job gets the cores it asked for (--cpus-per-task) and the
// program must use exactly those (OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK), no more (the
// cores belong to someone else) and no fewer (they would sit idle).
//
// Build and run it through Slurm, never with ./ on a shared server:
//   slurm/submit openmp --cpus 4
// The job compiles it with: g++ -O2 -fopenmp slurm/examples/openmp_sum.cpp -o openmp_sum
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr long kTerms = 200000000;  // about 0.2 s per core: long enough to time
const double kPiSquaredOverSix = M_PI * M_PI / 6.0;

// ---------------------------------------------------------------------------
// The loop: each thread gets a contiguous block of i (schedule(static)).
// ---------------------------------------------------------------------------
double sum_inverse_squares(long terms, int threads, std::vector<long>* first_index) {
  double sum = 0.0;
  first_index->assign(threads, -1);
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
  for (long i = 1; i <= terms; ++i) {
    long& first = (*first_index)[omp_get_thread_num()];
    if (first < 0) first = i;
    sum += 1.0 / (static_cast<double>(i) * static_cast<double>(i));
  }
  return sum;
}

}  // namespace

int main() {
  const char* requested = std::getenv("OMP_NUM_THREADS");
  const char* slurm_cpus = std::getenv("SLURM_CPUS_PER_TASK");
  const int threads = omp_get_max_threads();
  std::printf("running with %d OpenMP threads (OMP_NUM_THREADS=%s, SLURM_CPUS_PER_TASK=%s, %d "
              "processors visible)\n",
              threads, requested ? requested : "unset", slurm_cpus ? slurm_cpus : "unset",
              omp_get_num_procs());

  std::vector<long> first_index;
  double start = omp_get_wtime();
  const double serial = sum_inverse_squares(kTerms, 1, &first_index);
  const double serial_seconds = omp_get_wtime() - start;

  start = omp_get_wtime();
  const double parallel = sum_inverse_squares(kTerms, threads, &first_index);
  const double parallel_seconds = omp_get_wtime() - start;

  for (int t = 0; t < threads; ++t) {
    const long last = t + 1 < threads ? first_index[t + 1] - 1 : kTerms;
    std::printf("  thread %d summed i = %ld .. %ld\n", t, first_index[t], last);
  }
  std::printf("sum of 1/i^2 for i = 1..%ld: %.12f with 1 thread, %.12f with %d (pi^2/6 = %.12f)\n",
              kTerms, serial, parallel, threads, kPiSquaredOverSix);
  std::printf("time: %.3f s with 1 thread, %.3f s with %d threads: speed-up %.2f (ideal %d)\n",
              serial_seconds, parallel_seconds, threads, serial_seconds / parallel_seconds,
              threads);
  // The two sums add the same terms in different orders: equal up to rounding (about N ulp).
  if (std::fabs(serial - parallel) > 1e-7 || std::fabs(parallel - kPiSquaredOverSix) > 1e-7) {
    std::printf("error: the sums disagree\n");
    return 1;
  }
  return 0;
}
