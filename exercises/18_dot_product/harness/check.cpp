// Exercise 18 - the check. Runs the student's program case by case and compares what it
// reports with exact sums computed here, on the CPU, within the rounding a float
// reduction earns (harness/workload.hpp); times the steps against CUB's dot product and the copy
// ceiling in the same run. Contains no student code.
//
//   make check-18                          (students)
//   build/.../check_18 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
using dot_product::Special;
using dot_product::Values;
namespace request = dot_product::request;
namespace result = dot_product::result;

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------
const Message kSyncHint{
    "shared memory: __syncthreads() after the load (every value in place before the tree reads "
    "it) and after each level of the tree, outside any `if` so that every thread reaches it.",
    "mémoire partagée : __syncthreads() après le chargement (chaque valeur en place avant que "
    "l'arbre la lise) et après chaque niveau de l'arbre, hors de tout `if` pour que chaque "
    "thread l'atteigne."};
const Message kTreeHint{
    "the tree: for s = blockDim.x / 2 down to 1, threads t < s add cache[t + s] into cache[t]; "
    "the block's partial is cache[0], written by thread 0.",
    "l'arbre : pour s de blockDim.x / 2 jusqu'à 1, les threads t < s ajoutent cache[t + s] à "
    "cache[t] ; la somme partielle du bloc est cache[0], écrite par le thread 0."};
const Message kBoundsHint{
    "an element at or past n must count as 0: check i < n for the first product and "
    "i + blockDim.x < n for the second (reading past n reads what is not x or y).",
    "un élément d'indice n ou plus doit compter pour 0 : testez i < n pour le premier produit "
    "et i + blockDim.x < n pour le second (lire au-delà de n lit ce qui n'est ni x ni y)."};
const Message kShuffleHint{
    "warp shuffles: v += __shfl_down_sync(0xffffffff, v, offset) for offset = 16, 8, 4, 2, 1, "
    "called by all 32 lanes; lane 0 then holds the warp's sum.",
    "échanges dans le warp : v += __shfl_down_sync(0xffffffff, v, offset) pour offset = 16, 8, "
    "4, 2, 1, appelé par les 32 lanes ; la lane 0 tient alors la somme du warp."};
const Message kOneWriterHint{
    "only thread 0 holds the block's total after the reduction: write partials[blockIdx.x] "
    "from thread 0 alone (other threads hold pieces of it).",
    "seul le thread 0 tient le total du bloc après la réduction : écrivez partials[blockIdx.x] "
    "depuis le thread 0 seul (les autres threads n'en tiennent que des morceaux)."};
const Message kStrideHint{
    "the grid-stride loop: i from blockIdx.x * blockDim.x + threadIdx.x, while i < n, "
    "i += gridDim.x * blockDim.x.",
    "la boucle à pas de grille : i part de blockIdx.x * blockDim.x + threadIdx.x, tant que "
    "i < n, i += gridDim.x * blockDim.x."};
const Message kSecondPassHint{
    "the second pass: after the first pass, launch sum_partials<<<1, kThreadsPerBlock>>> on the "
    "first pass's partials (as many as its blocks) to write *result; with n = 0 it alone "
    "writes 0.",
    "la seconde passe : après la première passe, lancez sum_partials<<<1, kThreadsPerBlock>>> "
    "sur les sommes partielles de la première passe (autant que de blocs) pour écrire "
    "*result ; avec n = 0, c'est elle seule qui écrit 0."};
const Message kSpecialHint{
    "NaN and infinity must come through: no test may drop a product because it is not finite.",
    "NaN et l'infini doivent passer : aucun test ne doit écarter un produit parce qu'il n'est "
    "pas fini."};
const Message kAccuracyHint{
    "accuracy: one float accumulator (one thread, or one atomicAdd per element on one float) "
    "stops growing near 2^24; sum in a tree: per-thread sums, then per block, then the partials.",
    "précision : un seul accumulateur float (un seul thread, ou un atomicAdd par élément sur un "
    "même float) cesse de croître vers 2^24 ; sommez en arbre : sommes par thread, puis par "
    "bloc, puis les sommes partielles."};
const Message kInterleavedHint{
    "slow tree: interleaved addressing (`if (t % (2 * s) == 0)`, s doubling) keeps every warp "
    "busy with one active lane in 2s, and % is costly; use sequential addressing (t < s, s "
    "halving).",
    "arbre lent : l'adressage alterné (`if (t % (2 * s) == 0)`, s doublant) occupe chaque "
    "warp avec une lane active sur 2s, et % coûte cher ; utilisez l'adressage séquentiel "
    "(t < s, s divisé par deux)."};

// ---------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------
struct StepShape {
  const char* name;
  int elements_per_block;  // of the first pass; 0 for the grid-stride kernel
};
constexpr StepShape kTree{"tree", kThreadsPerBlock};
constexpr StepShape kFirstAdd{"first_add", 2 * kThreadsPerBlock};
constexpr StepShape kWarpShuffle{"warp_shuffle", 2 * kThreadsPerBlock};
constexpr StepShape kGridStride{"grid_stride", 0};  // the kernel, and dot_on_device
constexpr StepShape kLaunchers[] = {kTree, kFirstAdd, kWarpShuffle, kGridStride};

std::int64_t blocks_covering(std::int64_t n, int per_block) {
  return (n + per_block - 1) / per_block;
}

// The rounding depth of a launcher's result (workload.hpp): steps 1-3 on their own grid,
// the final one on at least kMinGridStrideThreads threads.
double launcher_depth(const StepShape& step, std::int64_t n) {
  if (step.elements_per_block == 0) {
    return dot_product::rounding_depth(blocks_covering(n, dot_product::kMinGridStrideThreads),
                                       partials_capacity(n));
  }
  return dot_product::rounding_depth(step.elements_per_block / kThreadsPerBlock,
                                     blocks_covering(n, step.elements_per_block));
}

// A float result against the exact sums: |got - dot| <= gamma_depth * sum |x y|.
bool expect_sum(CaseContext& c, const Run& run, const course::check::Array<float>& record,
                const dot_product::Sums& exact, double depth, const Message& what) {
  const std::vector<double> expected = {exact.dot};
  const course::Tolerance tolerance{dot_product::gamma_bound(depth) * exact.abs, 0.0};
  if (c.expect_array(run, record, expected, tolerance)) return true;
  c.note(Message{"({}; the tolerance is gamma_k * sum |x[i] y[i]| with k = {} roundings)",
                 "({} ; la tolérance est gamma_k * sum |x[i] y[i]| avec k = {} arrondis)"}
             .with(what, depth));
  return false;
}

// "NAME on n = N", the words of the messages that name a call and its size.
Message on_n(const std::string& call, std::int64_t n) {
  return Message{"{} on n = {}", "{} sur n = {}"}.with(call, n);
}

dot_product::Sums exact_sums(std::int64_t n, std::uint64_t seed, Values kind) {
  return dot_product::streamed_sums(n, seed, kind).exact;
}

std::string launcher_name(const StepShape& step) {
  return step.elements_per_block == 0 ? "dot_on_device"
                                      : std::string("dot_") + step.name + "_on_device";
}

// ---------------------------------------------------------------------------
// The first passes, on grids the check chooses
// ---------------------------------------------------------------------------

// Steps 1 to 3: partials[b] must be the sum of block b's elements; the grid-stride kernel:
// the partials must add up to the whole sum.
void check_kernel(CaseContext& c, const StepShape& step, int n, int blocks = 0) {
  if (step.elements_per_block > 0) {
    blocks = static_cast<int>(blocks_covering(n, step.elements_per_block));
  }
  const Run run = c.run(request::kernel, {step.name, n, blocks});
  const Message what = on_n(std::string("dot_") + step.name + "<<<" + std::to_string(blocks) +
                                ", " + std::to_string(kThreadsPerBlock) + ">>>",
                            n);
  if (!c.finished(run)) return;
  const std::vector<float> x = dot_product::make_input(n, 0, c.seed(), Values::signed_unit);
  const std::vector<float> y = dot_product::make_input(n, 1, c.seed(), Values::signed_unit);
  if (step.elements_per_block == 0) {
    std::vector<float> partials;
    if (!CaseContext::reported(run, result::partials) ||
        !c.read_array(run, result::partials, partials) ||
        partials.size() != static_cast<std::size_t>(blocks)) {
      c.fail(Message{"the program reported no {} partials ({})",
                     "le programme n'a pas rendu {} sommes partielles ({})"}
                 .with(blocks, what));
      return;
    }
    double total = 0.0;
    for (const float p : partials) {
      if (course::is_poison(p)) {
        c.fail(Message{"a block wrote no partial ({})",
                       "un bloc n'a écrit aucune somme partielle ({})"}
                   .with(what));
        c.hint(kOneWriterHint);
        return;
      }
      total += p;
    }
    const dot_product::Sums exact = dot_product::reference_sums(x, y, 0, n);
    const std::int64_t per_thread =
        blocks_covering(n, static_cast<std::int64_t>(blocks) * kThreadsPerBlock);
    const double bound =
        dot_product::gamma_bound(dot_product::rounding_depth(per_thread, blocks)) * exact.abs;
    if (!(std::fabs(total - exact.dot) <= bound)) {
      c.fail(Message{"the partials add up to {}, expected {} within {} ({})",
                     "les sommes partielles totalisent {} au lieu de {} à {} près ({})"}
                 .with(total, exact.dot, bound, what));
      c.hint(kStrideHint);
      c.hint(kOneWriterHint);
      c.hint(kShuffleHint);
    }
    return;
  }
  std::vector<double> expected;
  double largest_abs = 0.0;
  for (int b = 0; b < blocks; ++b) {
    const std::int64_t begin = static_cast<std::int64_t>(b) * step.elements_per_block;
    const std::int64_t end = std::min<std::int64_t>(n, begin + step.elements_per_block);
    const dot_product::Sums block = dot_product::reference_sums(x, y, begin, end);
    expected.push_back(block.dot);
    largest_abs = std::max(largest_abs, block.abs);
  }
  // One product rounded, at most one first add, log2 B levels of the tree.
  const double depth =
      1.0 + step.elements_per_block / kThreadsPerBlock + dot_product::kLog2ThreadsPerBlock;
  const course::Tolerance tolerance{dot_product::gamma_bound(depth) * largest_abs, 0.0};
  if (!c.expect_array(run, result::partials, expected, tolerance)) {
    c.note(Message{"({}: partials[b] = the sum of x[i] y[i] over block b's {} elements)",
                   "({} : partials[b] = la somme des x[i] y[i] sur les {} éléments du bloc b)"}
               .with(what, step.elements_per_block));
    c.hint(kSyncHint);
    c.hint(kTreeHint);
    if (step.elements_per_block > kThreadsPerBlock) c.hint(kBoundsHint);
    if (std::string(step.name) == "warp_shuffle") c.hint(kShuffleHint);
  }
}

// One kernel on several sizes, stopping at the first failure.
void check_kernel_sizes(CaseContext& c, const StepShape& step, const std::vector<int>& sizes) {
  for (const int n : sizes) {
    check_kernel(c, step, n);
    if (!c.passed()) return;
  }
}

// The sizes around a block and a warp: 1 element, less than a warp, a warp, one more, a
// block less one, a block and one.
const std::vector<int> kTreeSizes = {1, 31, 32, 33, 255, 256, 257, 1023, 1025};
const std::vector<int> kFirstAddSizes = {1, 31, 32, 33, 511, 512, 513, 1023, 1025};
// Thousands of blocks: a missing barrier is caught by one of them.
constexpr int kManyBlocksElements = (1 << 22) + 3;

// ---------------------------------------------------------------------------
// The second pass and the launchers
// ---------------------------------------------------------------------------
void check_sum_partials(CaseContext& c) {
  for (const int count : {0, 1, 33, 1025, 100003}) {
    const Run run = c.run(request::sum_partials, {count});
    if (!c.finished(run)) return;
    // The partials are the seed's x; the sum is x . 1.
    const std::vector<float> p = dot_product::make_input(count, 0, c.seed(), Values::signed_unit);
    const std::vector<float> ones(p.size(), 1.0f);
    const dot_product::Sums exact = dot_product::reference_sums(p, ones, 0, count);
    const double depth = dot_product::rounding_depth(blocks_covering(count, kThreadsPerBlock), 0);
    if (!expect_sum(c, run, result::total, exact, depth,
                    Message{"sum_partials<<<1, {}>>> on {} partials",
                            "sum_partials<<<1, {}>>> sur {} sommes partielles"}
                        .with(kThreadsPerBlock, count))) {
      c.hint({"sum_partials: each thread sums partials[t], partials[t + blockDim.x], ... below "
              "count; then the block's sum, written by thread 0 (0 when count is 0).",
              "sum_partials : chaque thread somme partials[t], partials[t + blockDim.x]... "
              "d'indice inférieur à count ; puis la somme du bloc, écrite par le thread 0 (0 quand "
              "count vaut 0)."});
      c.hint(kShuffleHint);
      return;
    }
  }
}

// The word a special value travels under (workload.hpp), for the messages.
std::string special_name(Special special) {
  for (const auto& [choice, name] : choices(special)) {
    if (choice == special) return name;
  }
  return "?";
}

void check_dot(CaseContext& c, const StepShape& step, int n, Special special = Special::none) {
  const Run run = c.run(request::dot, {step.name, n, Values::signed_unit, special});
  if (!c.finished(run)) return;
  const Message what = on_n(launcher_name(step), n);
  if (n > 0 && !c.expect_kernel_launched(run)) return;
  if (special == Special::none) {
    if (!expect_sum(c, run, result::total, exact_sums(n, c.seed(), Values::signed_unit),
                    launcher_depth(step, n), what)) {
      c.hint(kSecondPassHint);
      if (step.elements_per_block == 0) c.hint(kStrideHint);
    }
    return;
  }
  // A NaN product makes the sum NaN; +infinity makes it +infinity; +infinity and
  // -infinity make it NaN.
  std::vector<float> total;
  if (!CaseContext::reported(run, result::total) || !c.read_array(run, result::total, total) ||
      total.size() != 1) {
    c.fail(Message{"the program reported no result ({})", "le programme n'a rendu aucun "
                                                          "résultat ({})"}
               .with(what));
    return;
  }
  const float got = total[0];
  const bool infinity = special == Special::infinity;
  const bool right =
      !course::is_poison(got) && (infinity ? std::isinf(got) && got > 0.0f : std::isnan(got));
  if (!right) {
    c.fail(Message{"{} with {} among the values: expected {}, got {}",
                   "{} avec {} parmi les valeurs : attendu {}, reçu {}"}
               .with(what, special_name(special),
                     infinity ? Message{"+infinity", "+infini"} : Message::verbatim("NaN"),
                     course::is_poison(got) ? Message{"<not written>", "<non écrit>"}
                                            : Message::verbatim(course::format_number(got))));
    c.hint(course::is_poison(got) ? kSecondPassHint : kSpecialHint);
  }
}

// Every launcher on one size; stops at the first failure.
void check_launchers(CaseContext& c, std::initializer_list<int> sizes,
                     Special special = Special::none) {
  for (const StepShape& step : kLaunchers) {
    for (const int n : sizes) {
      check_dot(c, step, n, special);
      if (!c.passed()) return;
    }
  }
}

// A size drawn from the seed, for every launcher.
constexpr int kHiddenMaxElements = 4000000;
constexpr std::uint64_t kHiddenShapeSalt = 18;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  check_launchers(c, {static_cast<int>(rng.uniform_int(1, kHiddenMaxElements))});
}

// ---------------------------------------------------------------------------
// Accuracy: 10^8 positive values, where one float accumulator fails
// ---------------------------------------------------------------------------
constexpr int kAccuracyElements = 100000000;
constexpr int kSanitizerAccuracyElements = 1 << 20;

void check_accuracy(CaseContext& c) {
  const int n = c.under_sanitizer() ? kSanitizerAccuracyElements : kAccuracyElements;
  const Run run = c.run(request::accuracy, {n});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  const dot_product::StreamedSums sums =
      dot_product::streamed_sums(n, c.seed(), Values::positive_unit);
  bool all = true;
  for (const StepShape& step : kLaunchers) {
    all = expect_sum(c, run, result::step_result(step.name), sums.exact, launcher_depth(step, n),
                     on_n(launcher_name(step), n)) &&
          all;
  }
  const double naive_error = std::fabs(sums.naive - sums.exact.dot);
  const double bound = dot_product::gamma_bound(launcher_depth(kGridStride, n)) * sums.exact.abs;
  c.note(Message{"(one float accumulator, in index order, gives {}: off by {}, {} the bound {} "
                 "that the tree meets)",
                 "(un seul accumulateur float, dans l'ordre des indices, donne {} : un écart de "
                 "{}, {} la borne {} que l'arbre respecte)"}
             .with(sums.naive, naive_error,
                   naive_error > bound ? Message{"outside", "hors de"} : Message{"within", "dans"},
                   bound));
  if (!all) {
    c.hint(kAccuracyHint);
    c.hint(kSecondPassHint);
  }
}

// ---------------------------------------------------------------------------
// Speed
// ---------------------------------------------------------------------------
// 64M floats: 512 MiB read, far more than any L2.
constexpr int kSpeedElements = 64 << 20;
constexpr int kSanitizerSpeedElements = 1 << 16;
constexpr int kSpeedRepetitions = 10;
constexpr int kSanitizerSpeedRepetitions = 1;
// The bars (tests/speed_bars.md), each a ratio measured in the same run.
// Step 1, the tree: its first pass against the course's tree with interleaved addressing
// (harness/cases.cu), which is 2.0 times slower on the H100 and on the H200, since both trees wait on
// barriers and shared memory rather than on the memory bus; interleaved addressing with
// `%` itself measures 1.0. (Against CUB, whose speed follows the memory's, the same tree
// measured 0.56 on the H100 and 0.41 on the H200.)
constexpr course::check::SpeedBar kTreeBar{
    "speed-up of dot_tree's first pass over the interleaved tree",
    course::check::BarKind::at_least,
    1.4,
    "2.0 on H100 and H200",
    "accélération de la première passe de dot_tree par rapport à l'arbre alterné",
    "2.0 sur H100 et H200"};
// Steps 2 and 3 load two elements per thread and reach the memory's speed: against CUB's
// whole dot product.
constexpr course::check::SpeedBar kFirstAddBar{
    "dot_first_add's first pass, share of CUB's throughput",
    course::check::BarKind::at_least,
    0.4,
    "0.97 on H100, 0.72-0.74 on H200",
    "première passe de dot_first_add, part du débit de CUB",
    "0.97 sur H100, 0.72-0.74 sur H200"};
constexpr course::check::SpeedBar kWarpShuffleBar{
    "dot_warp_shuffle's first pass, share of CUB's throughput",
    course::check::BarKind::at_least,
    0.4,
    "1.04 on H100, 0.93-0.95 on H200",
    "première passe de dot_warp_shuffle, part du débit de CUB",
    "1.04 sur H100, 0.93-0.95 sur H200"};
// The final dot product against CUB and against the copy ceiling (GB/s = 2 * 4 * n bytes
// read / time).
constexpr course::check::SpeedBar kFinalCubBar{"dot_on_device, share of CUB's throughput",
                                               course::check::BarKind::at_least,
                                               0.8,
                                               "0.99 on H100, 1.02 on H200",
                                               "dot_on_device, part du débit de CUB",
                                               "0.99 sur H100, 1.02 sur H200"};
constexpr course::check::SpeedBar kFinalCopyBar{"dot_on_device, share of the copy ceiling",
                                                course::check::BarKind::at_least,
                                                0.8,
                                                "0.98 on H100, 1.01-1.03 on H200",
                                                "dot_on_device, part du plafond de copie",
                                                "0.98 sur H100, 1.01-1.03 sur H200"};

// A speed case's run: 64M elements, or a small size that proves the launches clean under
// compute-sanitizer (where times mean nothing).
int speed_elements(const CaseContext& c) {
  return c.under_sanitizer() ? kSanitizerSpeedElements : kSpeedElements;
}

Run run_speed_case(CaseContext& c, const course::check::Request<request::Speed>& kind) {
  return c.run(kind, {speed_elements(c),
                      c.under_sanitizer() ? kSanitizerSpeedRepetitions : kSpeedRepetitions,
                      !c.under_sanitizer()});
}

void check_steps_speed(CaseContext& c) {
  const int n = speed_elements(c);
  const Run run = run_speed_case(c, request::steps_speed);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  // Each timed first pass must have computed its partials: their sum is the dot product.
  const dot_product::Sums exact = exact_sums(n, c.seed(), Values::signed_unit);
  for (const StepShape& step : {kTree, kFirstAdd, kWarpShuffle}) {
    double sum = 0.0;
    if (!c.read_value(run, result::step_sum(step.name), sum)) return;
    const std::int64_t blocks = blocks_covering(n, step.elements_per_block);
    const double bound = dot_product::gamma_bound(dot_product::rounding_depth(
                             step.elements_per_block / kThreadsPerBlock, blocks)) *
                         exact.abs;
    if (!(std::fabs(sum - exact.dot) <= bound)) {
      c.fail(Message{"the partials of dot_{} on n = {} add up to {}, expected {} within {}",
                     "les sommes partielles de dot_{} sur n = {} totalisent {} au lieu de {} à "
                     "{} près"}
                 .with(step.name, n, sum, exact.dot, bound));
      c.hint(kTreeHint);
      return;
    }
  }
  if (!c.times_judged()) return;
  double cub_ms = 0.0, interleaved_ms = 0.0, tree_ms = 0.0, first_add_ms = 0.0, shuffle_ms = 0.0;
  if (!c.read_times(run, {{result::cub_ms, cub_ms},
                          {result::interleaved_ms, interleaved_ms},
                          {result::step_ms(kTree.name), tree_ms},
                          {result::step_ms(kFirstAdd.name), first_add_ms},
                          {result::step_ms(kWarpShuffle.name), shuffle_ms}})) {
    return;
  }
  const Message on_elements = Message{" on {} elements", " sur {} éléments"}.with(n);
  c.judge_speed(kTreeBar, interleaved_ms / tree_ms,
                Message{"dot_tree's first pass {} ms, the interleaved tree's {} ms{}",
                        "première passe de dot_tree {} ms, arbre alterné {} ms{}"}
                    .with(tree_ms, interleaved_ms, on_elements),
                {kInterleavedHint});
  const Message cub =
      Message{", CUB's whole dot product {} ms{}", ", produit scalaire complet de CUB {} ms{}"}
          .with(cub_ms, on_elements);
  c.judge_speed(
      kFirstAddBar, cub_ms / first_add_ms,
      Message{"dot_first_add's first pass {} ms{}", "première passe de dot_first_add {} ms{}"}.with(
          first_add_ms, cub));
  c.judge_speed(kWarpShuffleBar, cub_ms / shuffle_ms,
                Message{"dot_warp_shuffle's first pass {} ms{}",
                        "première passe de dot_warp_shuffle {} ms{}"}
                    .with(shuffle_ms, cub));
}

void check_final_speed(CaseContext& c) {
  const int n = speed_elements(c);
  const Run run = run_speed_case(c, request::final_speed);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!expect_sum(c, run, result::total, exact_sums(n, c.seed(), Values::signed_unit),
                  launcher_depth(kGridStride, n), on_n("dot_on_device", n))) {
    c.hint(kSecondPassHint);
    return;
  }
  if (!c.times_judged()) return;
  double final_ms = 0.0, cub_ms = 0.0, cublas_ms = 0.0, copy_gbps = 0.0;
  if (!c.read_times(run, {{result::final_ms, final_ms},
                          {result::cub_ms, cub_ms},
                          {result::cublas_ms, cublas_ms}}) ||
      !c.read_value(run, result::copy_gbps, copy_gbps)) {
    return;
  }
  const double bytes = 2.0 * sizeof(float) * n;
  const double gbps = bytes / (final_ms * 1e6);
  const Message figures =
      Message{"dot_on_device: {} ms, {} GB/s (2 * 4 * n bytes / time); CUB {} ms; cublasSdot {} "
              "ms; copy ceiling {} GB/s",
              "dot_on_device : {} ms, {} GB/s (2 * 4 * n octets / temps) ; CUB {} ms ; "
              "cublasSdot {} ms ; plafond de copie {} GB/s"}
          .with(final_ms, gbps, cub_ms, cublas_ms, copy_gbps);
  const bool fast = c.judge_speed(kFinalCubBar, cub_ms / final_ms, figures) &
                    c.judge_speed(kFinalCopyBar, gbps / copy_gbps);
  if (!fast) {
    c.hint({"speed: a grid that just fills the GPU (occupancy x multiprocessors), each thread "
            "summing many products in a register before one block reduction; no atomics on "
            "one address, no tree level per element.",
            "vitesse : une grille qui remplit juste le GPU (occupation x multiprocesseurs), "
            "chaque thread sommant de nombreux produits dans un registre avant une seule "
            "réduction par bloc ; pas d'atomiques sur une même adresse, pas de niveau d'arbre "
            "par élément."});
  }
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  course::check::Exercise exercise{
      "18",
      "dot_product",
      {
          {"tree_around_a_warp_and_a_block", 2,
           [](CaseContext& c) { check_kernel_sizes(c, kTree, kTreeSizes); }},
          {"tree_many_blocks", 2,
           [](CaseContext& c) { check_kernel(c, kTree, kManyBlocksElements); }},
          {"first_add_around_a_block", 2,
           [](CaseContext& c) { check_kernel_sizes(c, kFirstAdd, kFirstAddSizes); }},
          {"first_add_many_blocks", 1,
           [](CaseContext& c) { check_kernel(c, kFirstAdd, kManyBlocksElements); }},
          {"warp_shuffle_around_a_block", 2,
           [](CaseContext& c) { check_kernel_sizes(c, kWarpShuffle, kFirstAddSizes); }},
          {"warp_shuffle_many_blocks", 1,
           [](CaseContext& c) { check_kernel(c, kWarpShuffle, kManyBlocksElements); }},
          {"grid_stride_more_elements_than_threads", 2,
           [](CaseContext& c) {
             check_kernel(c, kGridStride, 1025, 1);
             if (c.passed()) check_kernel(c, kGridStride, 100003, 3);
           }},
          {"grid_stride_not_a_multiple_of_the_grid", 1,
           [](CaseContext& c) { check_kernel(c, kGridStride, 7 * 5 * kThreadsPerBlock + 77, 7); }},
          {"sum_partials_0_to_100003", 2, check_sum_partials},
          {"launchers_n_0_1_31_32_33", 2,
           [](CaseContext& c) {
             check_launchers(c, {0, 1, 31, 32, 33});
           }},
          {"launchers_n_1023_1025_1000003", 2,
           [](CaseContext& c) {
             check_launchers(c, {1023, 1025, 1000003});
           }},
          {"launchers_nan_and_infinity", 2,
           [](CaseContext& c) {
             for (const Special special :
                  {Special::nan, Special::infinity, Special::opposite_infinities}) {
               check_launchers(c, {1025}, special);
               if (!c.passed()) return;
             }
           }},
          {"hidden_seeded", 2, check_hidden, course::check::kHiddenCase},
          {"accuracy_100_million", 3, check_accuracy},
          timed({"steps_first_pass_speed", 2, check_steps_speed},
                {kTreeBar, kFirstAddBar, kWarpShuffleBar}),
          timed({"final_80_percent_of_cub_and_copy", 4, check_final_speed},
                {kFinalCubBar, kFinalCopyBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
