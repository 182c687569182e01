// Exercise 14 - the check. Runs the student's program case by case and compares the
// counts it reports with exact counts computed here, on the CPU, by the bin rule of
// histogram.hpp; times the privatised histogram against the global-atomic one on the
// same skewed input in the same run. Contains no student code.
//
//   make check-14                          (students)
//   build/.../check_14 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/float4.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Request;
using course::check::Run;
namespace request = histogram::request;
namespace result = histogram::result;
using Histogram = request::Histogram;

// The reference counts of a case (workload.hpp: histogram.hpp's rule).
std::vector<std::int32_t> reference_counts(const Histogram& h, std::uint64_t seed) {
  std::vector<float> x;
  histogram::make_input(h.input, h.n, h.lo, h.hi, h.bins, seed, x);
  return histogram::reference_counts(x, h.lo, h.hi, h.bins);
}

Message describe(const Histogram& h) {
  return Message{"{} bins over [{}, {}), {} input", "{} classes sur [{} ; {}[, entrée {}"}.with(
      h.bins, h.lo, h.hi, h.input);
}

// The lab's data and range.
Histogram lab_histogram() { return {"lab", kLabElements, kLabLo, kLabHi, kLabBins}; }
Histogram edge_histogram(int set) {
  const histogram::EdgeSet& e = histogram::kEdgeSets[set];
  return {set == 0 ? "edges0" : "edges1", 0, e.lo, e.hi, e.bins};
}
// The uniform and skewed cases' range: a power of two wide.
constexpr float kLo = -8.0f;
constexpr float kHi = 8.0f;

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------
// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kRaceHint{
    "counts too low: updates were lost. Several threads increment the same bin at once: use "
    "atomicAdd, never `counts[bin] += 1` (read, add and write are three steps).",
    "comptes trop bas : des mises à jour se sont perdues. Plusieurs threads incrémentent la "
    "même classe au même moment : utilisez atomicAdd, jamais `counts[bin] += 1` (lire, "
    "ajouter et écrire font trois étapes)."};
const Message kSyncHint{
    "shared memory: __syncthreads() after zeroing the block's bins (before any thread counts) "
    "and again after counting (before the block merges its bins into counts).",
    "mémoire partagée : __syncthreads() après la mise à zéro des classes du bloc (avant "
    "qu'aucun thread ne compte), puis de nouveau après le comptage (avant que le bloc ne "
    "fusionne ses classes dans counts)."};
const Message kZeroHint{
    "counts from garbage (too high, or so high that they wrapped around below zero): the "
    "block's shared bins must be set to 0 before counting (shared memory starts with "
    "whatever the last kernel left there).",
    "des comptes partis de valeurs résiduelles (trop hauts, ou si hauts qu'ils ont débordé "
    "sous zéro) : les classes du bloc en mémoire partagée doivent être mises à 0 avant de "
    "compter (la mémoire partagée contient au départ ce qu'y a laissé le dernier kernel)."};
const Message kRangeHint{
    "values outside [lo, hi), infinities and NaN must not be counted: test "
    "`v >= lo && v < hi` (false for NaN) before computing the bin.",
    "les valeurs hors de [lo ; hi[, les infinis et NaN ne doivent pas être comptés : testez "
    "`v >= lo && v < hi` (faux pour NaN) avant de calculer la classe."};
const Message kUpperEdgeHint{
    "the upper edge: hi itself is out of range, and a value just below hi is in the last bin "
    "(lower the bin to bins - 1 when (v - lo) * scale rounds up to bins).",
    "la borne supérieure : hi lui-même est hors plage, et une valeur juste sous hi tombe dans "
    "la dernière classe (ramenez la classe à bins - 1 quand (v - lo) * scale s'arrondit à "
    "bins)."};
const Message kStrideHint{
    "some values were not counted: with a grid smaller than n, each thread must loop, "
    "i += gridDim.x * blockDim.x, while i < n (a grid-stride loop).",
    "des valeurs n'ont pas été comptées : avec une grille plus petite que n, chaque thread "
    "doit boucler, i += gridDim.x * blockDim.x, tant que i < n (une boucle à pas de grille)."};
const Message kTailHint{
    "the last n % 4 values were not counted: after the float4 loop over the n / 4 vectors, "
    "the loop of one value per step must count values 4 * (n / 4) + global index, stepping "
    "by the whole grid, while i < n.",
    "les n % 4 dernières valeurs n'ont pas été comptées : après la boucle float4 sur les "
    "n / 4 vecteurs, la boucle d'une valeur par tour doit compter les valeurs 4 * (n / 4) + "
    "indice global, en avançant de toute la grille, tant que i < n."};
const Message kPastEndHint{
    "values after x[n - 1] were counted: the float4 loop runs while v < n / 4 (vectors, not "
    "values), the loop of one value per step while i < n.",
    "des valeurs après x[n - 1] ont été comptées : la boucle float4 tourne tant que "
    "v < n / 4 (des vecteurs, pas des valeurs), la boucle d'une valeur par tour tant que "
    "i < n."};

// The counts of a kernel that counted every value but the last n % 4 (its float4 loop
// right, its loop over the rest forgotten); none when there is no such value, or no
// float4 before them (then they are the counts of a kernel that counted nothing).
std::vector<std::int32_t> tail_missed_counts(const Histogram& h, std::uint64_t seed) {
  std::vector<float> x;
  histogram::make_input(h.input, h.n, h.lo, h.hi, h.bins, seed, x);
  const std::size_t in_vectors = x.size() / course::kFloatsPerFloat4 * course::kFloatsPerFloat4;
  if (in_vectors == 0 || in_vectors == x.size()) return {};
  x.resize(in_vectors);
  return histogram::reference_counts(x, h.lo, h.hi, h.bins);
}

// Says what kind of wrong the counts are: every hint that fits.
void hint_for_counts(CaseContext& c, const Histogram& h, const std::vector<std::int32_t>& got,
                     const std::vector<std::int32_t>& expected, bool is_shared) {
  std::int64_t total_got = 0, total_expected = 0;
  bool any_unwritten = false;
  for (std::size_t b = 0; b < got.size(); ++b) {
    if (course::is_poison(got[b])) {
      any_unwritten = true;
      continue;
    }
    total_got += got[b];
    total_expected += expected[b];
  }
  if (any_unwritten) {
    c.hint({"set counts to 0 (cudaMemset of bins * sizeof(int) bytes) before the launch: the "
            "kernels only add to it.",
            "mettez counts à 0 (cudaMemset de bins * sizeof(int) octets) avant le lancement : "
            "les kernels ne font qu'y ajouter."});
    return;
  }
  const bool edges = h.input == "edges0" || h.input == "edges1";
  if (edges) {
    const std::size_t last = got.size() - 1;
    if (got[last] != expected[last]) c.hint(kUpperEdgeHint);
    c.hint(kRangeHint);
  }
  // No count of values is negative: a bin that is came from garbage that overflowed.
  const bool wrapped = std::any_of(got.begin(), got.end(), [](std::int32_t count) {
    return count < 0 && !course::is_poison(count);
  });
  if (h.padding > 0 && total_got > total_expected) {
    // The padding after x[n - 1] is all in the first bin.
    c.hint(kPastEndHint);
  } else if (total_got > total_expected || wrapped) {
    // Extra counts: garbage in unzeroed shared bins, or values that have no bin.
    if (is_shared) c.hint(kZeroHint);
    c.hint(kRangeHint);
  } else if (is_shared && got == tail_missed_counts(h, c.seed())) {
    c.hint(kTailHint);
  } else if (total_got < total_expected) {
    c.hint(kRaceHint);
    if (is_shared) c.hint(kSyncHint);
    c.hint(kStrideHint);
  }
  if (h.input == "uniform" && total_got == total_expected) c.hint(kUpperEdgeHint);
}

bool expect_counts(CaseContext& c, const Run& run, const course::check::Array<std::int32_t>& record,
                   const Histogram& h, bool is_shared) {
  const std::vector<std::int32_t> expected = reference_counts(h, c.seed());
  if (c.expect_array(run, record, expected, course::kExact)) return true;
  std::vector<std::int32_t> got;
  if (CaseContext::reported(run, record) && c.read_array(run, record, got) &&
      got.size() == expected.size()) {
    hint_for_counts(c, h, got, expected, is_shared);
  }
  return false;
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------
// The lab's data, then both edge sets: the bin rule on its own, on the host.
void check_cpu(CaseContext& c) {
  for (const Histogram& h : {lab_histogram(), edge_histogram(0), edge_histogram(1)}) {
    const bool edges = h.input != "lab";
    const Run run = c.run(request::cpu, h);
    if (!c.finished(run)) {
      if (edges) {
        c.hint(kRangeHint);
        c.hint(kUpperEdgeHint);
      }
      return;
    }
    if (!c.expect_host_guard_untouched(
            run, result::counts, "histogram_cpu",
            edges ? kUpperEdgeHint
                  : Message{"counts has bins elements: indices 0 to bins - 1.",
                            "counts a bins éléments : indices 0 à bins - 1."})) {
      return;
    }
    if (!expect_counts(c, run, result::counts, h, false)) {
      c.note(Message::verbatim("(histogram_cpu, {})").with(describe(h)));
      c.hint({"histogram_cpu sets every count to 0 first, then adds 1 to counts[bin_of(x[i], "
              "lo, hi, bins)] for each value whose bin is not -1.",
              "histogram_cpu met d'abord chaque compte à 0, puis ajoute 1 à counts[bin_of(x[i], "
              "lo, hi, bins)] pour chaque valeur dont la classe n'est pas -1."});
      return;
    }
  }
}

void check_counter(CaseContext& c, int blocks, int threads) {
  const Run run = c.run(request::counter, {blocks, threads});
  if (!c.finished(run)) return;
  const std::vector<std::int32_t> expected = {blocks * threads};
  if (!c.expect_array(run, result::counter, expected, course::kExact)) {
    c.note(Message{"(count_threads_atomic<<<{}, {}>>> on a counter set to 0)",
                   "(count_threads_atomic<<<{}, {}>>> sur un compteur mis à 0)"}
               .with(blocks, threads));
    c.hint({"each thread must add 1 with atomicAdd(counter, 1): `*counter += 1` loses updates.",
            "chaque thread doit ajouter 1 avec atomicAdd(counter, 1) : `*counter += 1` perd des "
            "mises à jour."});
  }
}

// One launch of the student's global or shared histogram on the given grid.
void check_gpu(CaseContext& c, const Request<request::Launch>& kind, const Histogram& h, int blocks,
               int threads) {
  const std::string& method = kind.name;  // the launcher is histogram_<method>_on_device
  const Run run = c.run(kind, {h, blocks, threads});
  if (!c.finished(run)) {
    // An atomic out of bounds on these inputs comes from a value that has no bin.
    if (h.input == "edges0" || h.input == "edges1") {
      c.hint(kRangeHint);
      c.hint(kUpperEdgeHint);
    }
    return;
  }
  if (!c.expect_kernel_launched(run)) return;
  if (!expect_counts(c, run, result::counts, h, kind.name == request::shared.name)) {
    const Message offset =
        h.offset > 0 ? Message{", x starting {} floats into its buffer: not 16-byte aligned",
                               ", x commençant à {} floats du début de son tampon : non aligné "
                               "sur 16 octets"}
                           .with(h.offset)
                     : Message{};
    const Message padding = h.padding > 0 ? Message{", {} values after x[n - 1], each lo",
                                                    ", {} valeurs après x[n - 1], toutes égales "
                                                    "à lo"}
                                                .with(h.padding)
                                          : Message{};
    c.note(Message::verbatim("(histogram_{}_on_device, {}, n = {}, {} x {} threads{}{})")
               .with(method, describe(h), h.n, blocks, threads, offset, padding));
  }
}

void check_gpu_edges(CaseContext& c, const Request<request::Launch>& kind) {
  for (int set = 0; set < static_cast<int>(std::size(histogram::kEdgeSets)) && c.passed(); ++set) {
    check_gpu(c, kind, edge_histogram(set), kLabBlocks, kLabThreadsPerBlock);
  }
}

// Every value in one bin, n = 1001, 1002 and 1003, on a grid of 2 x 64 threads: the loop
// over the last n % 4 values, after the float4 loop. After x[n - 1] come 3 n + 4 more
// values (each lo, in the first bin), so that a float4 loop that runs over n vectors
// instead of n / 4, or a loop that runs while i <= n, counts them.
void check_shared_tails(CaseContext& c) {
  for (const int n : {1001, 1002, 1003}) {
    Histogram h{"skewed", n, kLo, kHi, 10};
    h.padding = 3 * n + 4;
    check_gpu(c, request::shared, h, 2, kLabThreadsPerBlock);
    if (!c.passed()) return;
  }
}

// A size, a bin count, a grid and an input drawn from the seed, for both kernels.
constexpr int kHiddenMaxElements = 3000000;
// Odd parts below 2^7 keep the uniform input's arithmetic exact (workload.hpp).
constexpr int kHiddenBins[] = {1, 2, 7, 10, 64, 100, 127, 1000, 4096};
constexpr int kHiddenBlockSizes[] = {32, 64, 128, 256, 512, 1024};
constexpr int kHiddenMaxBlocks = 1000;
constexpr std::uint64_t kHiddenShapeSalt = 14;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  Histogram h;
  h.input = rng.uniform_int(0, 3) == 0 ? "skewed" : "uniform";
  h.n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  h.lo = static_cast<float>(rng.uniform_int(-64, 64));
  h.hi = h.lo + static_cast<float>(1 << rng.uniform_int(0, 7));
  h.bins = kHiddenBins[rng.uniform_int(0, static_cast<int>(std::size(kHiddenBins)) - 1)];
  const int blocks = static_cast<int>(rng.uniform_int(1, kHiddenMaxBlocks));
  const int threads =
      kHiddenBlockSizes[rng.uniform_int(0, static_cast<int>(std::size(kHiddenBlockSizes)) - 1)];
  check_gpu(c, request::global, h, blocks, threads);
  if (c.passed()) check_gpu(c, request::shared, h, blocks, threads);
}

// The speed case: every value in one bin, the global kernel's worst case.
constexpr int kSpeedElements = 1 << 22;
constexpr int kSanitizerSpeedElements = 1 << 16;
constexpr int kSpeedBins = 256;
constexpr int kSpeedBlocks = 1024;
constexpr int kSpeedThreads = 256;
constexpr int kSpeedRepetitions = 10;
constexpr int kSanitizerSpeedRepetitions = 1;
// With every value in one bin, the global kernel's 4M atomics on one address are served
// one after the other by the L2 slice that holds it; the privatised kernel spreads them
// over the multiprocessors' shared memories and sends 1024 to global memory.
// Measured on an H100 and an H200 the ratio is in the hundreds; 10x is a wide margin.
constexpr course::check::SpeedBar kPrivatisedBar{
    "speed-up of the privatised histogram over the global-atomic one",
    course::check::BarKind::at_least,
    10.0,
    "241-283 on H100, 233 on H200",
    "accélération de l'histogramme privatisé par rapport à celui aux atomiques globales",
    "241-283 sur H100, 233 sur H200"};

void check_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const Histogram h{"skewed", sanitized ? kSanitizerSpeedElements : kSpeedElements, kLo, kHi,
                    kSpeedBins};
  const Run run =
      c.run(request::speed, {{h, kSpeedBlocks, kSpeedThreads},
                             sanitized ? kSanitizerSpeedRepetitions : kSpeedRepetitions});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!expect_counts(c, run, result::global_counts, h, false) ||
      !expect_counts(c, run, result::shared_counts, h, true)) {
    return;
  }
  if (!c.times_judged()) return;
  double global_ms = 0.0, shared_ms = 0.0;
  if (!c.read_times(run, {{result::global_ms, global_ms}, {result::shared_ms, shared_ms}})) {
    return;
  }
  const Message figures =
      Message{"on {} values all in one bin, the global-atomic histogram took {} ms and the "
              "privatised one {} ms",
              "sur {} valeurs toutes dans une même classe, l'histogramme à opérations atomiques "
              "globales a pris {} ms et l'histogramme privatisé {} ms"}
          .with(h.n, global_ms, shared_ms);
  c.judge_speed(kPrivatisedBar, global_ms / shared_ms, figures,
                {Message{"histogram_shared must count into the block's shared bins (atomicAdd on "
                         "block_counts[bin]) and touch global memory only in the merge, once per "
                         "non-zero bin.",
                         "histogram_shared doit compter dans les classes du bloc en mémoire "
                         "partagée (atomicAdd sur block_counts[bin]) et ne toucher la mémoire "
                         "globale que lors de la fusion, une fois par classe non nulle."}});
}

// ---------------------------------------------------------------------------
// The largest value: atomic_max_float, through the given max_global
// ---------------------------------------------------------------------------
const Message kNeverStoredHint{
    "the maximum was never stored: when value is larger, atomic_max_float must write it at "
    "address, with atomicCAS on the float's bits (reinterpret_cast<int*>(address), "
    "__float_as_int(value)).",
    "le maximum n'a jamais été écrit : quand value est plus grand, atomic_max_float doit "
    "l'écrire à address, avec atomicCAS sur les bits du float (reinterpret_cast<int*>(address), "
    "__float_as_int(value))."};
const Message kIntOrderHint{
    "negative floats: atomicMax on the float's bits read as ints is no float maximum. The "
    "sign bit makes every negative float a negative int, ordered backwards (the bits of -2.0 "
    "are a larger int than those of -1.0, and those of -infinity beat every negative float's): "
    "compare floats, in an atomicCAS loop.",
    "floats négatifs : atomicMax sur les bits du float lus comme des int n'est pas un maximum "
    "de floats. Le bit de signe fait de chaque float négatif un int négatif, rangé à l'envers "
    "(les bits de -2.0 forment un int plus grand que ceux de -1.0, et ceux de -infini "
    "l'emportent sur ceux de tout float négatif) : comparez des floats, dans une boucle "
    "atomicCAS."};
const Message kLostUpdateHint{
    "an update was lost: two calls replaced the same value, so both compared with it and both "
    "wrote (a read, a comparison and a write are three steps, like `*counter += 1`). The write "
    "must be an atomicCAS that swaps only if the value is still the one compared, retried when "
    "it is not.",
    "une mise à jour s'est perdue : deux appels ont remplacé la même valeur, donc tous deux "
    "l'ont comparée et tous deux ont écrit (une lecture, une comparaison et une écriture font "
    "trois étapes, comme `*counter += 1`). L'écriture doit être un atomicCAS qui n'échange que "
    "si la valeur est toujours celle qui a été comparée, et qui recommence sinon."};
const Message kCasResultHint{
    "a failed atomicCAS returns the value it found there: that is the new observed value, to "
    "compare with value and to swap from on the next try (observed = atomicCAS(...), loop "
    "while observed != assumed).",
    "un atomicCAS qui échoue renvoie la valeur qu'il a trouvée : c'est la nouvelle valeur "
    "observée, à comparer avec value et à partir de laquelle échanger au prochain essai "
    "(observed = atomicCAS(...), boucler tant que observed != assumed)."};
const Message kStaleCompareHint{
    "a value was written by a call that did not raise the maximum: after a failed atomicCAS, "
    "compare the value it returned with yours again before the next try, or a smaller value "
    "is written over a larger one. atomic_max_float returns what *address held before the "
    "call, as atomicMax does.",
    "une valeur a été écrite par un appel qui n'augmentait pas le maximum : après un atomicCAS "
    "qui échoue, comparez de nouveau la valeur qu'il a renvoyée avec la vôtre avant le "
    "prochain essai, sinon une valeur plus petite est écrite par-dessus une plus grande. "
    "atomic_max_float renvoie ce que contenait *address avant l'appel, comme atomicMax."};

// One maximum's case: its input, its grid, how many launches (each must be right).
// Every value larger than the one before: every call raises the maximum, and 131072
// threads contend for it.
constexpr int kMaxContendedElements = (1 << 18) + 3;
constexpr int kMaxContendedBlocks = 512;

using MaxCase = request::Max;

// Whether one launch's previous array is what an atomic maximum can return. The calls
// that raised the maximum (previous[i] < x[i]) each replaced a different value, since
// the stored value only grows; and every value a call returned is -infinity or one that
// a raising call stored. False, with the hint, otherwise.
bool expect_previous_consistent(CaseContext& c, const std::vector<float>& x, const float* previous,
                                int launch) {
  std::vector<float> replaced, stored;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(previous[i])) {
      c.fail(Message{"launch {}: previous[{}] was not written (NaN): atomic_max_float returned "
                     "no value there",
                     "lancement {} : previous[{}] n'a pas été écrit (NaN) : atomic_max_float n'y "
                     "a renvoyé aucune valeur"}
                 .with(launch, i));
      return false;
    }
    if (previous[i] < x[i]) {
      replaced.push_back(previous[i]);
      stored.push_back(x[i]);
    }
  }
  std::sort(replaced.begin(), replaced.end());
  const auto twice = std::adjacent_find(replaced.begin(), replaced.end());
  if (twice != replaced.end()) {
    c.fail(Message{"launch {}: two calls both replaced the value {} (each returned it and had a "
                   "larger value)",
                   "lancement {} : deux appels ont tous deux remplacé la valeur {} (chacun l'a "
                   "renvoyée et avait une valeur plus grande)"}
               .with(launch, *twice));
    c.hint(kLostUpdateHint);
    c.hint(kCasResultHint);
    return false;
  }
  std::sort(stored.begin(), stored.end());
  const float lowest = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (previous[i] != lowest && !std::binary_search(stored.begin(), stored.end(), previous[i])) {
      c.fail(Message{"launch {}: the call for x[{}] = {} returned {}, a value that no call "
                     "raising the maximum had written",
                     "lancement {} : l'appel pour x[{}] = {} a renvoyé {}, une valeur qu'aucun "
                     "appel augmentant le maximum n'avait écrite"}
                 .with(launch, i, x[i], previous[i]));
      c.hint(kStaleCompareHint);
      return false;
    }
  }
  return true;
}

void check_max(CaseContext& c, const MaxCase& m) {
  const Run run = c.run(request::max, m);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  std::vector<float> x, maxima, previous;
  histogram::make_max_input(m.input, m.n, c.seed(), x);
  if (!c.read_array(run, result::maxima, maxima) ||
      !c.read_array(run, result::previous, previous)) {
    return;
  }
  if (maxima.size() != static_cast<std::size_t>(m.launches) ||
      previous.size() != static_cast<std::size_t>(m.launches) * x.size()) {
    c.fail(Message{"the program reported {} maxima and {} previous values, expected {} and {}",
                   "le programme a rendu {} maxima et {} valeurs précédentes au lieu de {} et {}"}
               .with(maxima.size(), previous.size(), m.launches, m.launches * m.n));
    return;
  }
  const float expected = *std::max_element(x.begin(), x.end());
  const bool has_negative = std::any_of(x.begin(), x.end(), [](float v) { return v < 0.0f; });
  const Message context = Message{"(max_on_device, {} input, n = {}, {} x {} threads)",
                                  "(max_on_device, entrée {}, n = {}, {} x {} threads)"}
                              .with(m.input, m.n, m.blocks, m.threads);
  for (int launch = 0; launch < m.launches; ++launch) {
    const float got = maxima[static_cast<std::size_t>(launch)];
    if (got != expected) {
      c.fail(Message{"launch {}: the maximum is {}, expected {}",
                     "lancement {} : le maximum vaut {} au lieu de {}"}
                 .with(launch, got, expected));
      c.note(context);
      if (got == -std::numeric_limits<float>::infinity()) c.hint(kNeverStoredHint);
      if (has_negative && expected < 0.0f) c.hint(kIntOrderHint);
      if (got < expected) c.hint(kLostUpdateHint);
      return;
    }
    if (!expect_previous_consistent(c, x, previous.data() + launch * x.size(), launch)) {
      c.note(context);
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::alone_on_gpu;
  const Histogram lab = lab_histogram();
  course::check::Exercise exercise{
      "14",
      "atomics_histogram",
      {
          course::check::host_only({"cpu_histogram_lab_and_edges", 2, check_cpu}),
          {"counter_lab_64x64", 1,
           [](CaseContext& c) { check_counter(c, kLabCounterBlocks, kLabCounterThreads); }},
          {"counter_1000x1024", 1, [](CaseContext& c) { check_counter(c, 1000, 1024); }},
          {"global_lab_128x64", 2,
           [lab](CaseContext& c) {
             check_gpu(c, request::global, lab, kLabBlocks, kLabThreadsPerBlock);
           }},
          {"global_n_zero", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 0, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_n_one", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"skewed", 1, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_uniform_1000003", 2,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 1000003, kLo, kHi, 256}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_skewed_one_bin", 2,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"skewed", (1 << 20) + 5, kLo, kHi, kMaxBins},
                       kLabBlocks, kLabThreadsPerBlock);
           }},
          {"global_single_bin", 1,
           [](CaseContext& c) {
             check_gpu(c, request::global, {"uniform", 54321, kLo, kHi, 1}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"global_edges_and_out_of_range", 2,
           [](CaseContext& c) { check_gpu_edges(c, request::global); }},
          // The shared-memory cases rely on the driver's scribble over shared memory
          // (harness/cases.cu): another program's kernels in between could leave zeros there and
          // hide bins that were never zeroed.
          alone_on_gpu({"shared_lab_128x64", 2,
                        [lab](CaseContext& c) {
                          check_gpu(c, request::shared, lab, kLabBlocks, kLabThreadsPerBlock);
                        }}),
          {"shared_n_zero_and_one", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 0, kLo, kHi, 10}, kLabBlocks,
                       kLabThreadsPerBlock);
             if (c.passed()) {
               check_gpu(c, request::shared, {"skewed", 1, kLo, kHi, 10}, kLabBlocks,
                         kLabThreadsPerBlock);
             }
           }},
          alone_on_gpu({"shared_uniform_4096_bins", 2,
                        [](CaseContext& c) {
                          check_gpu(c, request::shared, {"uniform", 2000003, kLo, kHi, kMaxBins},
                                    kLabBlocks, 256);
                        }}),
          {"shared_skewed_one_bin", 2,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"skewed", (1 << 22) + 1, kLo, kHi, 256}, kLabBlocks,
                       256);
           }},
          {"shared_single_bin", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 54321, kLo, kHi, 1}, kLabBlocks,
                       kLabThreadsPerBlock);
           }},
          {"shared_edges_and_out_of_range", 2,
           [](CaseContext& c) { check_gpu_edges(c, request::shared); }},
          {"shared_one_warp_grid", 1,
           [](CaseContext& c) {
             check_gpu(c, request::shared, {"uniform", 100003, kLo, kHi, 100}, 1, 32);
           }},
          {"shared_float4_tails_and_end", 2, check_shared_tails},
          {"shared_unaligned_input", 2,
           [](CaseContext& c) {
             for (const int offset : {1, 2, 3}) {
               Histogram h{"skewed", 100003, kLo, kHi, 100};
               h.offset = offset;
               check_gpu(c, request::shared, h, kLabBlocks, kLabThreadsPerBlock);
               if (!c.passed()) return;
             }
           }},
          {"hidden_seeded", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"privatised_10x_faster_on_skewed", 2, check_speed},
                               {kPrivatisedBar}),
          {"max_random_with_negatives", 1,
           [](CaseContext& c) {
             check_max(c, {"random", 1000003, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_all_negative", 2,
           [](CaseContext& c) {
             check_max(c, {"negative", 100003, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_all_equal", 1,
           [](CaseContext& c) {
             check_max(c, {"equal", 1, 1, 32, 1});
             if (c.passed()) check_max(c, {"equal", 4099, kLabBlocks, kLabThreadsPerBlock, 3});
           }},
          {"max_increasing_largest_last", 2,
           [](CaseContext& c) {
             check_max(c, {"increasing", kMaxContendedElements, kMaxContendedBlocks, 256, 5});
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
