// Exercise 15 - the check. Runs the student's program case by case and compares the
// hit counts it reports with exact counts: the CPU's are replayed here from the same
// SplitMix64 chunks; the GPU's come from the course's reference kernel (reference_gpu.cuh), run
// in a separate process on the same samples. Contains no student code.
//
//   make check-15                          (students)
//   build/.../check_15 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = monte_carlo_pi::request;
namespace result = monte_carlo_pi::result;

// Counts are compared exactly: the samples are fixed by the seed and the convention
// (monte_carlo_pi.hpp), and whether a point is inside is decided in double, where the
// squares of floats are exact and their sum is rounded once, so fused multiply-adds,
// the order of the terms and the processor cannot change a single answer.
//
// The estimate is also judged on its own, against pi: with the true p = pi / 4 the
// count is binomial, its estimate's standard error is sigma = 4 sqrt(p (1 - p) / n),
// and a correct count lands more than 5 sigma from pi with probability 6e-7.
constexpr double kSigmas = 5.0;

// The demo's launch and the one most cases use.
constexpr int kBlocks = 1024;
constexpr int kThreadsPerBlock = 256;

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kConventionHint{
    "the estimate is plausible but these are not the convention's samples: "
    "curand_init(seed, global thread id, 0, &state) on a Philox state, x then y from "
    "curand_uniform, the samples t, t + T, t + 2T, ... below n (exactly n in all), the points "
    "on the circle counted (<= 1), x^2 + y^2 in double.",
    "l'estimation est plausible, mais ce ne sont pas les échantillons de la convention : "
    "curand_init(seed, identifiant global du thread, 0, &state) sur un état Philox, x puis y "
    "tirés par curand_uniform, les échantillons t, t + T, t + 2T, ... inférieurs à n "
    "(exactement n en tout), les points du cercle comptés (<= 1), x^2 + y^2 en double."};

// "hits = 785, estimate 3.14, 0.52 standard errors from pi"
Message describe_count(std::uint64_t hits, std::uint64_t n) {
  const double estimate = monte_carlo_pi::pi_estimate(hits, n);
  const double sigma = monte_carlo_pi::expected_standard_error(n);
  return Message{"{} hits of {} samples, estimate {}, {} standard errors from pi",
                 "{} succès sur {} échantillons, estimation {}, à {} erreurs types de pi"}
      .with(hits, n, estimate, std::fabs(estimate - monte_carlo_pi::kPi) / sigma);
}

bool far_from_pi(std::uint64_t hits, std::uint64_t n) {
  const double estimate = monte_carlo_pi::pi_estimate(hits, n);
  return std::fabs(estimate - monte_carlo_pi::kPi) >
         kSigmas * monte_carlo_pi::expected_standard_error(n);
}

// Reads a count; negative numbers cannot be counts.
bool read_count(CaseContext& c, const Run& run, const course::check::Value<std::int64_t>& key,
                std::uint64_t& count) {
  std::int64_t value = 0;
  if (!c.read_value(run, key, value)) return false;
  count = static_cast<std::uint64_t>(value);
  return true;
}

// ---------------------------------------------------------------------------
// The predicate and the CPU counts, against the references of workload.hpp
// ---------------------------------------------------------------------------

// The indices in kTestPoints (workload.hpp) of the point on the circle and of the
// last of the two points just outside it.
constexpr std::size_t kOnTheCircle = 0;
constexpr std::size_t kLastJustOutside = 2;

void check_predicate(CaseContext& c) {
  const Run run = c.run(request::predicate, {});
  if (!c.finished(run)) return;
  std::vector<std::int32_t> expected;
  for (const monte_carlo_pi::TestPoint& point : monte_carlo_pi::kTestPoints) {
    expected.push_back(monte_carlo_pi::reference_in_quarter_disc(point.x, point.y) ? 1 : 0);
  }
  std::vector<std::int32_t> got;
  if (CaseContext::reported(run, result::inside) && !c.read_array(run, result::inside, got)) {
    return;
  }
  if (got.size() != expected.size()) {
    c.fail(Message{"the program reported no answer 'inside' for the {} test points",
                   "le programme n'a rendu aucune réponse « inside » pour les {} points de test"}
               .with(expected.size()));
    return;
  }
  // Which mistake the wrong answers point to: only the first point (exactly on the
  // circle once rounded), only the two just outside it, or anything else.
  bool boundary_wrong = false, rounding_wrong = false, others_wrong = false;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (got[i] == expected[i]) continue;
    const monte_carlo_pi::TestPoint& point = monte_carlo_pi::kTestPoints[i];
    c.fail(Message{"in_quarter_disc({}, {}) returned {}, expected {}",
                   "in_quarter_disc({}, {}) a rendu {} au lieu de {}"}
               .with(point.x, point.y, got[i] != 0 ? "true" : "false",
                     expected[i] != 0 ? "true" : "false"));
    (i == kOnTheCircle       ? boundary_wrong
     : i <= kLastJustOutside ? rounding_wrong
                             : others_wrong) = true;
  }
  if (others_wrong) {
    c.hint({"a point is inside when x * x + y * y <= 1.0, computed in double.",
            "un point est dedans quand x * x + y * y <= 1.0, calculé en double."});
  } else if (boundary_wrong) {
    c.hint({"the points on the circle count: x^2 + y^2 <= 1, not < 1. curand_uniform returns "
            "values in (0, 1], so x = 1 does occur, and x^2 + y^2 can be exactly 1.",
            "les points du cercle comptent : x^2 + y^2 <= 1, pas < 1. curand_uniform rend des "
            "valeurs dans ]0 ; 1], donc x = 1 se produit bel et bien, et x^2 + y^2 peut valoir "
            "exactement 1."});
  } else if (rounding_wrong) {
    c.hint({"compute x^2 + y^2 in double: in float these points just outside the circle round "
            "to exactly 1, and whether they do depends on the compiler's multiply-adds.",
            "calculez x^2 + y^2 en double : en float, ces points juste hors du cercle "
            "s'arrondissent à exactement 1, et cela dépend des multiplications-additions "
            "fusionnées du compilateur."});
  }
}

// count_hits_cpu, or count_hits_cpu_openmp with `threads` threads when not 0.
void expect_cpu_count(CaseContext& c, std::uint64_t n, int threads = 0) {
  const bool openmp = threads > 0;
  const Run run = openmp ? c.run(request::cpu_openmp, {n, threads}) : c.run(request::cpu, {n});
  std::uint64_t hits = 0;
  if (!c.finished(run) || !read_count(c, run, result::hits, hits)) return;
  const std::uint64_t expected = monte_carlo_pi::cpu_reference_hits(n, c.seed());
  if (hits == expected) return;
  const Message function = !openmp ? Message::verbatim("count_hits_cpu")
                                   : Message{"count_hits_cpu_openmp with {} threads",
                                             "count_hits_cpu_openmp avec {} threads"}
                                         .with(threads);
  c.fail(Message{"{} counted {} hits among n = {} samples; the same samples hold {}",
                 "{} a compté {} succès parmi n = {} échantillons ; les mêmes échantillons en "
                 "contiennent {}"}
             .with(function, hits, n, expected));
  if (openmp && hits > 0 && hits < expected) {
    c.hint({"lost updates: every OpenMP thread adds to one shared counter without protection. "
            "Add reduction(+ : hits) to the parallel for: each thread sums privately, and "
            "OpenMP adds the sums once at the end.",
            "des mises à jour perdues : chaque thread OpenMP ajoute à un même compteur partagé "
            "sans protection. Ajoutez reduction(+ : hits) au parallel for : chaque thread fait "
            "sa somme en privé, et OpenMP additionne les sommes une seule fois à la fin."});
  }
  c.hint({"the CPU samples: chunks of kCpuChunkSamples, chunk c drawn from chunk_generator(seed, "
          "c), x then y with rng.uniform(0.0f, 1.0f), the last chunk stopping at n.",
          "les échantillons du CPU : des morceaux de kCpuChunkSamples, le morceau c tiré de "
          "chunk_generator(seed, c), x puis y avec rng.uniform(0.0f, 1.0f), le dernier morceau "
          "s'arrêtant à n."});
}

// ---------------------------------------------------------------------------
// The GPU: compared with the reference kernel
// ---------------------------------------------------------------------------

// The reference kernel's count for the same samples, from a run of its own, so that
// it does not mix with the launches the check counts for the student's code.
bool reference_hits(CaseContext& c, std::uint64_t n, std::uint64_t seed, int blocks,
                    int threads_per_block, std::uint64_t& hits) {
  const Run run = c.run(request::reference, {n, blocks, threads_per_block}, seed);
  if (!c.finished(run)) {
    c.note({"(the course's reference kernel could not run)",
            "(le kernel de référence du cours n'a pas pu s'exécuter)"});
    return false;
  }
  return read_count(c, run, result::hits, hits);
}

Message launch_text(std::uint64_t n, int blocks, int threads_per_block) {
  return Message{"count_hits_gpu(n = {}, {} blocks of {} threads)",
                 "count_hits_gpu(n = {}, {} blocs de {} threads)"}
      .with(n, blocks, threads_per_block);
}

// A count of the student's against the reference's, with what a difference suggests.
const Message kCounted{"{} counted {}", "{} a compté {}"};

bool expect_same_count(CaseContext& c, std::uint64_t n, int blocks, int threads_per_block,
                       std::uint64_t hits, std::uint64_t expected) {
  if (hits == expected) {
    if (n > 0 && far_from_pi(hits, n)) {
      // Cannot happen to a correct reference but once in a million seeds.
      c.fail(Message{"the reference's own estimate is more than 5 standard errors from pi: {} "
                     "(report this seed to the course)",
                     "l'estimation de la référence elle-même est à plus de 5 erreurs types de "
                     "pi : {} (signalez cette graine aux auteurs du cours)"}
                 .with(describe_count(hits, n)));
      return false;
    }
    return true;
  }
  c.fail(kCounted.with(launch_text(n, blocks, threads_per_block), describe_count(hits, n)));
  c.note(Message{"the same samples hold {} hits (the course's reference kernel)",
                 "les mêmes échantillons contiennent {} succès (le kernel de référence du cours)"}
             .with(expected));
  constexpr std::uint64_t kLow32 = 0xffffffffull;
  if (hits > n) {
    c.hint({"more hits than samples: the device counter must start at 0. cudaMalloc does not "
            "clear memory: cudaMemset it before the launch.",
            "plus de succès que d'échantillons : le compteur du GPU doit partir de 0. cudaMalloc "
            "ne met pas la mémoire à zéro : mettez-le à zéro avec cudaMemset avant le lancement."});
  } else if (expected > kLow32 && (hits & kLow32) == (expected & kLow32)) {
    c.hint({"the count wrapped around at 2^32: every counter must be an unsigned long long "
            "(atomicAdd has an unsigned long long overload).",
            "le compte a débordé à 2^32 : chaque compteur doit être un unsigned long long "
            "(atomicAdd a une surcharge pour unsigned long long)."});
  } else if (far_from_pi(hits, n)) {
    c.hint({"the estimate is far from pi. Do all threads draw the same points? curand_init's "
            "subsequence must be the global thread id, so that the threads share no stream. "
            "Is every thread's count added exactly once? A plain += on shared memory loses "
            "updates: sum with warp_sum, __syncthreads, then one atomicAdd per block. Are all n "
            "samples drawn, with a 64-bit index?",
            "l'estimation est loin de pi. Tous les threads tirent-ils les mêmes points ? La "
            "sous-suite de curand_init doit être l'identifiant global du thread, pour que les "
            "threads ne partagent aucune suite aléatoire. Le compte de chaque thread est-il "
            "ajouté exactement une fois ? Un simple += en mémoire partagée perd des mises à "
            "jour : faites la somme avec warp_sum, __syncthreads, puis un atomicAdd par bloc. "
            "Les n échantillons sont-ils tous tirés, avec un indice sur 64 bits ?"});
  } else {
    c.hint(kConventionHint);
  }
  return false;
}

// One count_hits_gpu call against the reference.
bool check_gpu(CaseContext& c, std::uint64_t n, int blocks, int threads_per_block,
               double timeout_seconds = course::check::kDefaultTimeoutSeconds) {
  const Run run = c.run(request::gpu, {n, blocks, threads_per_block}, 0, timeout_seconds);
  if (!c.finished(run)) {
    if (run.child.timed_out && n > 0xffffffffull) {
      c.hint({"with n > 2^32 a 32-bit sample index never reaches n: it wraps around to 0. "
              "The index i and the stride must be unsigned long long.",
              "avec n > 2^32, un indice d'échantillon sur 32 bits n'atteint jamais n : il "
              "repasse à 0. L'indice i et le pas doivent être des unsigned long long."});
    }
    return false;
  }
  if (n > 0 && !c.expect_kernel_launched(run)) return false;
  std::uint64_t hits = 0;
  if (!read_count(c, run, result::hits, hits)) return false;
  if (n == 0) {
    if (hits == 0) return true;
    c.fail(Message{"{} returned {} hits: with no sample there is no hit",
                   "{} a rendu {} succès : sans échantillon, il n'y a pas de succès"}
               .with(launch_text(n, blocks, threads_per_block), hits));
    c.hint({"when n = 0, return 0 at once.", "quand n = 0, rendez 0 aussitôt."});
    return false;
  }
  std::uint64_t expected = 0;
  if (!reference_hits(c, n, c.seed(), blocks, threads_per_block, expected)) return false;
  return expect_same_count(c, n, blocks, threads_per_block, hits, expected);
}

// With 4 samples per thread, threads that share one stream repeat each other's 4 points:
// the estimate then has the spread of 4 samples, not of a million.
void check_distinct_streams(CaseContext& c) {
  constexpr int kSamplesPerThread = 4;
  const std::uint64_t n = std::uint64_t{kBlocks} * kThreadsPerBlock * kSamplesPerThread;
  const Run run = c.run(request::gpu, {n, kBlocks, kThreadsPerBlock});
  std::uint64_t hits = 0;
  if (!c.finished(run) || !c.expect_kernel_launched(run) ||
      !read_count(c, run, result::hits, hits)) {
    return;
  }
  if (hits <= n && far_from_pi(hits, n)) {
    c.fail(kCounted.with(launch_text(n, kBlocks, kThreadsPerBlock), describe_count(hits, n)));
    c.hint({"threads that share one random stream draw the same points: curand_init's "
            "subsequence must be the global thread id (blockIdx.x * blockDim.x + threadIdx.x). "
            "If it is, the block's sum loses or repeats counts: the other cases say more.",
            "des threads qui partagent une même suite aléatoire tirent les mêmes points : la "
            "sous-suite de curand_init doit être l'identifiant global du thread (blockIdx.x * "
            "blockDim.x + threadIdx.x). Si c'est le cas, la somme du bloc perd ou répète des "
            "comptes : les autres cas en disent plus."});
    return;
  }
  std::uint64_t expected = 0;
  if (!reference_hits(c, n, c.seed(), kBlocks, kThreadsPerBlock, expected)) return;
  expect_same_count(c, n, kBlocks, kThreadsPerBlock, hits, expected);
}

// The same seed twice gives the same count; another seed gives the count of its own
// samples (which differs from the first, unless the reference finds the same count too).
constexpr std::uint64_t kOtherSeedSalt = 15;

void check_seeds(CaseContext& c) {
  const std::uint64_t n = 1000003;
  const std::uint64_t other_seed = course::derive_seed(c.seed(), kOtherSeedSalt);
  const Run run = c.run(request::gpu_seeds, {{n, kBlocks, kThreadsPerBlock}, other_seed});
  std::uint64_t hits = 0, again = 0, other = 0;
  if (!c.finished(run) || !c.expect_kernel_launched(run) ||
      !read_count(c, run, result::hits, hits) || !read_count(c, run, result::hits_again, again) ||
      !read_count(c, run, result::hits_other_seed, other)) {
    return;
  }
  if (hits != again) {
    c.fail(Message{"two calls with the same seed counted {} and {} hits: the draw must be "
                   "reproducible",
                   "deux appels avec la même graine ont compté {} et {} succès : le tirage doit "
                   "être reproductible"}
               .with(hits, again));
    c.hint({"the draw must depend on the seed and the thread id alone: initialise each state "
            "with curand_init(seed, thread id, 0, &state), and start the counter at 0 every call.",
            "le tirage ne doit dépendre que de la graine et de l'identifiant du thread : "
            "initialisez chaque état avec curand_init(seed, thread id, 0, &state), et remettez "
            "le compteur à 0 à chaque appel."});
    return;
  }
  std::uint64_t expected = 0, expected_other = 0;
  if (!reference_hits(c, n, c.seed(), kBlocks, kThreadsPerBlock, expected) ||
      !reference_hits(c, n, other_seed, kBlocks, kThreadsPerBlock, expected_other)) {
    return;
  }
  if (hits == other && expected != expected_other) {
    c.fail(Message{"seeds {} and {} both gave {} hits; their samples hold {} and {}",
                   "les graines {} et {} ont toutes deux donné {} succès ; leurs échantillons en "
                   "contiennent {} et {}"}
               .with(c.seed(), other_seed, hits, expected, expected_other));
    c.hint({"the seed is ignored: the seed must reach curand_init(seed, thread id, 0, &state).",
            "la graine est ignorée : elle doit arriver jusqu'à curand_init(seed, thread id, 0, "
            "&state)."});
    return;
  }
  if (expect_same_count(c, n, kBlocks, kThreadsPerBlock, hits, expected)) {
    if (!expect_same_count(c, n, kBlocks, kThreadsPerBlock, other, expected_other)) {
      c.note(
          Message{"(with the second seed, {})", "(avec la seconde graine, {})"}.with(other_seed));
    }
  }
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

// Past 2^32 samples and 2^32 hits (p n ~ 4.7e9): a 32-bit counter or index fails.
// About 20 ms on an H100 for each of the two runs (student, reference).
constexpr std::uint64_t kLargeSamples = 6000000007ull;
// Generous for ~50 ms of GPU work even on the smallest GPUs, and scaled up under
// compute-sanitizer; a 32-bit index never ends.
constexpr double kLargeTimeoutSeconds = 60.0;

// Sizes and launches the student has not seen, drawn from the seed.
constexpr std::int64_t kHiddenMaxSamples = 30000000;
constexpr int kHiddenMaxBlocks = 2048;
constexpr int kHiddenBlockSizes[] = {32, 64, 96, 128, 256, 512, 1024};
constexpr std::uint64_t kHiddenShapeSalt = 4;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const std::uint64_t n = static_cast<std::uint64_t>(rng.uniform_int(1, kHiddenMaxSamples));
  const int blocks = static_cast<int>(rng.uniform_int(1, kHiddenMaxBlocks));
  const int size_count = static_cast<int>(std::size(kHiddenBlockSizes));
  const int threads_per_block = kHiddenBlockSizes[rng.uniform_int(0, size_count - 1)];
  check_gpu(c, n, blocks, threads_per_block);
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::host_only;
  course::check::Exercise exercise{
      "15",
      "monte_carlo_pi",
      {
          host_only({"quarter_disc_test_points", 2, check_predicate}),
          host_only(
              {"cpu_serial_exact_count", 2, [](CaseContext& c) { expect_cpu_count(c, 1000003); }}),
          host_only({"cpu_n_zero_and_one", 1,
                     [](CaseContext& c) {
                       expect_cpu_count(c, 0);
                       expect_cpu_count(c, 1);
                       expect_cpu_count(c, 0, 4);
                       expect_cpu_count(c, 1, 4);
                     }}),
          host_only({"cpu_openmp_same_count_as_serial", 3,
                     [](CaseContext& c) {
                       expect_cpu_count(c, 4000037, 4);
                       expect_cpu_count(c, 1000003, 3);
                     }}),
          {"gpu_n_one", 1, [](CaseContext& c) { check_gpu(c, 1, kBlocks, kThreadsPerBlock); }},
          // n = 0 alone would pass an empty function.
          {"gpu_n_zero_and_1000", 2,
           [](CaseContext& c) {
             check_gpu(c, 0, kBlocks, kThreadsPerBlock) &&
                 check_gpu(c, 1000, kBlocks, kThreadsPerBlock);
           }},
          {"gpu_1000003_not_a_multiple", 2,
           [](CaseContext& c) { check_gpu(c, 1000003, kBlocks, kThreadsPerBlock); }},
          {"gpu_threads_draw_distinct_points", 2, check_distinct_streams},
          {"gpu_reproducible_and_seeded", 2, check_seeds},
          {"gpu_other_block_sizes", 2,
           [](CaseContext& c) {
             check_gpu(c, 1000003, 37, 1024) && check_gpu(c, 300007, 5, 96) &&
                 check_gpu(c, 100000, 1, 32);
           }},
          {"gpu_more_than_2_to_the_32", 3,
           [](CaseContext& c) {
             check_gpu(c, kLargeSamples, kBlocks, kThreadsPerBlock, kLargeTimeoutSeconds);
           }},
          {"hidden_size_and_launch_from_seed", 2, check_hidden, course::check::kHiddenCase},
          {"frees_its_device_memory", 1,
           [](CaseContext& c) {
             const std::uint64_t n = 1000;
             const Run run = c.run(request::gpu, {n, kBlocks, kThreadsPerBlock});
             std::uint64_t hits = 0;
             if (c.finished(run) && c.expect_kernel_launched(run) &&
                 read_count(c, run, result::hits, hits)) {
               c.expect_no_leak(run);
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
