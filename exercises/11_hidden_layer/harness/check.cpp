// Exercise 11 - the check. Runs the student's program case by case and compares what it
// reports with a double-precision reference computed here, and judges the fused kernel's
// speed against a copy measured in the same run. Contains no student code.
//
//   make check-11                          (students)
//   build/.../check_11 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Request;
using course::check::Run;
namespace request = hidden_layer::request;
namespace result = hidden_layer::result;

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kFormulaHint{
    "each element must be tanh(greyscales[i] / 255 * weights[i]) in float: normalise (scale by "
    "1.0f / 255, not 1 / 256, not with an integer division), weigh, then activate with tanhf.",
    "chaque élément doit valoir tanh(greyscales[i] / 255 * weights[i]) en float : normalisez "
    "(multipliez par 1.0f / 255, pas par 1 / 256, ni avec une division entière), pondérez, puis "
    "activez avec tanhf."};
const Message kThreeKernelsHint{
    "launch_three_kernels must run normalize_kernel, then weigh_kernel, then activate_kernel, "
    "in this order, each on enough blocks to cover n.",
    "launch_three_kernels doit exécuter normalize_kernel, puis weigh_kernel, puis "
    "activate_kernel, dans cet ordre, chacun sur assez de blocs pour couvrir n."};
const Message kFusedHint{
    "the fused kernel's grid-stride loops must start at the global index blockIdx.x * "
    "blockDim.x + threadIdx.x and advance by blockDim.x * gridDim.x: over the float4 vectors "
    "while v < n / 4, then over the neurons while i < n.",
    "les boucles à pas de grille du kernel fusionné doivent partir de l'indice global "
    "blockIdx.x * blockDim.x + threadIdx.x et avancer de blockDim.x * gridDim.x : sur les "
    "vecteurs float4 tant que v < n / 4, puis sur les neurones tant que i < n."};
const Message kTailHint{
    "the last n % 4 neurons are wrong: after the float4 loop over the n / 4 vectors, the "
    "scalar loop must do neurons 4 * (n / 4) + global index, stepping by the whole grid, "
    "while i < n.",
    "les n % 4 derniers neurones sont faux : après la boucle float4 sur les n / 4 vecteurs, "
    "la boucle scalaire doit traiter les neurones 4 * (n / 4) + indice global, en avançant de "
    "toute la grille, tant que i < n."};
const Message kDimPixelsHint{
    "for dim pixels the argument of tanh is a few thousandths: (exp(v) - exp(-v)) / (exp(v) "
    "+ exp(-v)) loses most of its digits there to cancellation. Use tanhf.",
    "pour des pixels sombres, l'argument de tanh ne vaut que quelques millièmes : (exp(v) - "
    "exp(-v)) / (exp(v) + exp(-v)) y perd la plupart de ses chiffres par annulation. Utilisez "
    "tanhf."};

std::string method_name(bool fused) { return fused ? "fused" : "three_kernels"; }

std::vector<double> reference(int n, std::uint64_t seed,
                              float levels = hidden_layer::kGreyscaleLevels) {
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, seed, levels);
  std::vector<double> activated(inputs.greyscales.size());
  for (std::size_t i = 0; i < activated.size(); ++i) {
    activated[i] = hidden_layer::neuron_reference(inputs.greyscales[i], inputs.weights[i]);
  }
  return activated;
}

request::Gpu gpu_params(int n, bool fused, float levels = hidden_layer::kGreyscaleLevels) {
  return {n, fused ? request::Method::fused : request::Method::three_kernels, levels};
}

// One create_hidden_layer_gpu call (after two empty ones for request::gpu_after_empty).
bool check_gpu(CaseContext& c, int n, bool fused, const Request<request::Gpu>& kind = request::gpu,
               float levels = hidden_layer::kGreyscaleLevels) {
  const Run run = c.run(kind, gpu_params(n, fused, levels));
  bool ok = c.finished(run) && c.expect_kernel_launched(run);
  if (ok && kind.name == request::gpu_after_empty.name) {
    ok = c.expect_host_guard_untouched(
        run, result::empty_activated, "create_hidden_layer_gpu with n = 0",
        Message{"with n = 0 there is nothing to copy: return at once.",
                "avec n = 0, il n'y a rien à copier : rendez la main "
                "aussitôt."});
  }
  ok = ok && c.expect_host_guard_untouched(run, result::activated, "create_hidden_layer_gpu",
                                           Message{"copy back n * sizeof(float) bytes, no more.",
                                                   "recopiez n * sizeof(float) octets, pas plus."});
  const Message wrong_hint =
      levels == hidden_layer::kDimLevels
          ? kDimPixelsHint
          : kFormulaHint + Message::verbatim(" ") + (fused ? kFusedHint : kThreeKernelsHint);
  const std::vector<double> expected = reference(n, c.seed(), levels);
  if (ok &&
      !c.expect_array(run, result::activated, expected, hidden_layer::kTolerance, wrong_hint)) {
    ok = false;
    if (fused) {
      c.hint_if_only_float4_tail_wrong(run, result::activated, expected, hidden_layer::kTolerance,
                                       kTailHint);
    }
  }
  if (!ok) {
    c.note(Message{"(create_hidden_layer_gpu with n = {}, method {})",
                   "(create_hidden_layer_gpu avec n = {}, méthode {})"}
               .with(n, method_name(fused)));
  }
  return ok;
}

// Sizes of each remainder modulo 4: the fused kernel's loop over the last n % 4 neurons,
// after its loop over the float4 vectors.
void check_fused_tails(CaseContext& c) {
  for (const int n : {1001, 1002, 1003}) {
    if (!check_gpu(c, n, true)) return;
  }
}

// launch_fused on arrays moved off their 16-byte boundaries, in two runs: weights and
// activated (greyscales aligned), then greyscales alone. A kernel that reads float4 must
// test all three pointers and fall back to one float per access.
void check_fused_unaligned(CaseContext& c) {
  const int n = 100003;
  for (const request::FusedOffsets& offsets :
       {request::FusedOffsets{n, 0, 1, 2}, request::FusedOffsets{n, 3, 0, 0}}) {
    const Run run = c.run(request::fused_offsets, offsets);
    if (!c.finished(run) || !c.expect_kernel_launched(run) ||
        !c.expect_array(run, result::activated, reference(n, c.seed()), hidden_layer::kTolerance,
                        kFormulaHint + Message::verbatim(" ") + kFusedHint)) {
      c.note(Message{"(launch_fused with n = {}, greyscales, weights and activated starting {}, "
                     "{} and {} floats into their buffers: not 16-byte aligned unless 0)",
                     "(launch_fused avec n = {}, greyscales, weights et activated commençant à "
                     "{}, {} et {} floats du début de leurs tampons : non alignés sur 16 octets, "
                     "sauf à 0)"}
                 .with(n, offsets.greyscales_offset, offsets.weights_offset,
                       offsets.activated_offset));
      return;
    }
  }
}

// Both methods, for the cases that are about the data rather than the launch.
void check_both(CaseContext& c, int n, float levels = hidden_layer::kGreyscaleLevels) {
  if (check_gpu(c, n, false, request::gpu, levels)) check_gpu(c, n, true, request::gpu, levels);
}

// ---------------------------------------------------------------------------
// The fused kernel's speed
// ---------------------------------------------------------------------------

// 48 Mi + 5 neurons: 192 MiB per array, four times the L2 cache of an H100 or H200, so
// that every figure is one of memory bandwidth; not a multiple of the block size.
constexpr int kPerformanceElements = (48 << 20) + 5;
// Under compute-sanitizer every access is checked and times mean nothing: a small layer,
// one repetition, and only the values are judged.
constexpr int kSanitizerPerformanceElements = (1 << 20) + 5;
constexpr course::check::Timing kPerformanceTiming{3, 3, 15};
// The fused kernel reads 2 floats and writes 1 per neuron; the copy reads 1 and writes 1.
// Both are counted as bytes read + bytes written, so a kernel that streams memory as well
// as cudaMemcpy scores 100%. Measured (tests/speed_bars.md): the reference fused kernel,
// its grid capped at kFusedBlocksPerMultiprocessor blocks per multiprocessor, 93% on the
// H100 and the H200; a correct fused kernel with one thread per element (no cap) 72.6% on
// the H200; uncoalesced chunks (one per thread) 6%. The bar passes both correct grids
// with a margin on both GPUs, and fails the uncoalesced one by far.
constexpr double kFusedArraysMoved = 3.0;
constexpr double kCopyArraysMoved = 2.0;
constexpr course::check::SpeedBar kCopyCeilingBar{
    "the fused kernel's share of the copy ceiling",
    course::check::BarKind::at_least,
    0.6,
    "0.97-0.98 on H100, 0.97 on H200",
    "part du plafond de copie atteinte par le kernel fusionné",
    "0.97-0.98 sur H100, 0.97 sur H200"};
// The three kernels move 7 arrays where the fused one moves 3: a true fusion takes about
// 3/7 = 0.43 of their time (0.40 on the H100, 0.34 on the H200).
constexpr course::check::SpeedBar kThreeKernelsBar{
    "the fused kernel's time over the three kernels'",
    course::check::BarKind::at_most,
    0.75,
    "0.38 on H100, 0.32 on H200",
    "temps du kernel fusionné divisé par celui des trois kernels",
    "0.38 sur H100, 0.32 sur H200"};

void check_performance(CaseContext& c) {
  const bool timed = !c.under_sanitizer();
  const int n = timed ? kPerformanceElements : kSanitizerPerformanceElements;
  const course::check::Timing timing = c.timing(kPerformanceTiming);
  const Run run =
      c.run(request::performance, {n, timing.rounds, timing.warmup, timing.repetitions});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;

  // The values are graded by the other cases; here both versions must at least have
  // computed the whole layer (a sample of it), so that their times are those of the work.
  const hidden_layer::Inputs inputs = hidden_layer::make_inputs(n, c.seed());
  std::vector<double> expected;
  for (const std::size_t i : hidden_layer::sample_indices(inputs.greyscales.size())) {
    expected.push_back(hidden_layer::neuron_reference(inputs.greyscales[i], inputs.weights[i]));
  }
  const Message sampled = Message{"(every {}-th element of a layer of {} neurons)",
                                  "(un élément sur {} d'une couche de {} neurones)"}
                              .with(hidden_layer::kSampleStride, n);
  if (!c.expect_array(run, result::fused_sample, expected, hidden_layer::kTolerance, kFusedHint) ||
      !c.expect_array(run, result::three_sample, expected, hidden_layer::kTolerance,
                      kThreeKernelsHint)) {
    c.note(sampled);
    return;
  }
  if (!timed) return;

  double copy_ms = 0.0, fused_ms = 0.0, three_ms = 0.0;
  if (!c.read_times(run, {{result::copy_ms, copy_ms},
                          {result::fused_ms, fused_ms},
                          {result::three_ms, three_ms}})) {
    return;
  }
  const double array_bytes = static_cast<double>(n) * sizeof(float);
  const double copy_gbps = kCopyArraysMoved * array_bytes / (copy_ms * 1e-3) / 1e9;
  const double fused_gbps = kFusedArraysMoved * array_bytes / (fused_ms * 1e-3) / 1e9;
  const double share = fused_gbps / copy_gbps;
  c.note(Message{"copy ceiling: {} GB/s = 2 x {} B (read + written) / {} ms",
                 "plafond de copie : {} GB/s = 2 x {} B (lus + écrits) / {} ms"}
             .with(copy_gbps, array_bytes, copy_ms));
  c.note(Message{"fused kernel: {} GB/s = 3 x {} B (2 arrays read + 1 written) / {} ms = {}% of "
                 "the copy ceiling; three kernels: {} ms",
                 "kernel fusionné : {} GB/s = 3 x {} B (2 tableaux lus + 1 écrit) / {} ms = {} % "
                 "du plafond de copie ; trois kernels : {} ms"}
             .with(fused_gbps, array_bytes, fused_ms, 100.0 * share, three_ms));
  c.judge_speed(
      kCopyCeilingBar, share, {},
      {Message{
          "the fused kernel is slow: at each step of the loop, consecutive threads must touch "
          "consecutive elements (coalesced: i = global index, then i += blockDim.x * gridDim.x), "
          "and the grid must fill the GPU (kFusedBlocksPerMultiprocessor blocks per "
          "multiprocessor).",
          "le kernel fusionné est lent : à chaque tour de boucle, des threads consécutifs doivent "
          "toucher des éléments consécutifs (accès coalescés : i = indice global, puis i += "
          "blockDim.x * gridDim.x), et la grille doit remplir le GPU "
          "(kFusedBlocksPerMultiprocessor blocs par multiprocesseur)."}});
  c.judge_speed(
      kThreeKernelsBar, fused_ms / three_ms, {},
      {Message{"fusing means one pass: read greyscales[i] and weights[i] once, write "
               "activated[i] once, with no intermediate array.",
               "fusionner, c'est ne faire qu'un passage : lire greyscales[i] et weights[i] "
               "une fois, écrire activated[i] une fois, sans tableau intermédiaire."}});
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

// The lab's hidden layer, and one neuron more than a block-multiple of it.
constexpr int kLabNeurons = 1000000;
constexpr int kLabNeuronsOdd = 1000003;
// A size and a method the student has not seen: drawn from the seed.
constexpr int kHiddenMaxElements = 3000000;
constexpr std::uint64_t kHiddenShapeSalt = 11;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  check_both(c, n);
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "11",
      "hidden_layer",
      {
          {"three_kernels_n_257", 2, [](CaseContext& c) { check_gpu(c, 257, false); }},
          {"three_kernels_lab_size", 2, [](CaseContext& c) { check_gpu(c, kLabNeurons, false); }},
          {"fused_n_is_one", 1, [](CaseContext& c) { check_gpu(c, 1, true); }},
          {"fused_n_257", 1, [](CaseContext& c) { check_gpu(c, 257, true); }},
          {"fused_lab_size_plus_3", 2, [](CaseContext& c) { check_gpu(c, kLabNeuronsOdd, true); }},
          {"fused_float4_tails_1001_to_1003", 2, check_fused_tails},
          {"fused_unaligned_pointers", 2, check_fused_unaligned},
          {"n_zero_then_1000", 2,
           [](CaseContext& c) {
             if (check_gpu(c, 1000, false, request::gpu_after_empty)) {
               check_gpu(c, 1000, true, request::gpu_after_empty);
             }
           }},
          {"dim_pixels_precision", 2,
           [](CaseContext& c) { check_both(c, 100001, hidden_layer::kDimLevels); }},
          {"hidden_size_from_seed", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"fused_near_copy_ceiling", 4, check_performance},
                               {kCopyCeilingBar, kThreeKernelsBar}),
          {"frees_its_device_memory", 2,
           [](CaseContext& c) {
             const int n = 1 << 20;
             for (const bool fused : {false, true}) {
               const Run run = c.run(request::gpu, gpu_params(n, fused));
               if (!c.finished(run) ||
                   !c.expect_array(run, result::activated, reference(n, c.seed()),
                                   hidden_layer::kTolerance, kFormulaHint) ||
                   !c.expect_no_leak(run)) {
                 return;
               }
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
