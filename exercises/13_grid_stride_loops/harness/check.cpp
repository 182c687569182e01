// Exercise 13 - the check. Runs the student's program case by case and compares what
// it reports with references computed here: exact sums, double-precision squares and
// hypotenuses, the occupancy grid the program's driver computes, and the speed of the
// occupancy-sized launch against a one-thread-per-element kernel of the driver's own.
// Contains no student code.
//
//   make check-13                          (students)
//   build/.../check_13 --program PROGRAM   (instructors; --help lists the options)
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
using course::check::Request;
using course::check::Run;
namespace request = grid_stride::request;
namespace result = grid_stride::result;

// ---------------------------------------------------------------------------
// References and tolerances
// ---------------------------------------------------------------------------

// x[i] + y[i] of ints below 2^20: exact.
// a[i] * a[i] in float is the exact square rounded once: within 2^-24 ~ 6e-8 of it,
// relative. rtol = 1.2e-7 is two such roundings; any other formula is off by far more.
constexpr course::Tolerance kSquareTolerance{0.0, 1.2e-7};
// CUDA's hypotf is within 3 ulp (CUDA Math API, accuracy tables), and an ulp of a float
// is at most 2^-23 ~ 1.2e-7 of its value: 3.6e-7. sqrtf(a * a + b * b) does better
// (three roundings, the last halved by the square root). The inputs are within
// [-12, 12), so nothing overflows or underflows. A wrong element (a[i] + b[i], a
// neighbour's value) is off by percents.
constexpr course::Tolerance kHypotTolerance{0.0, 4e-7};

std::vector<std::int32_t> add_reference(int n, std::uint64_t seed) {
  const std::vector<int> x = grid_stride::make_add_x(n, seed);
  const std::vector<int> y = grid_stride::make_add_y(n, seed);
  std::vector<std::int32_t> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] + y[i];
  return out;
}

std::vector<double> square_reference(int n, std::uint64_t seed) {
  const std::vector<float> a = grid_stride::make_square_input(n, seed);
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<double>(a[i]) * a[i];
  return out;
}

std::vector<double> hypot_reference(int n, std::uint64_t seed) {
  const std::vector<float> a = grid_stride::make_hypot_a(n, seed);
  const std::vector<float> b = grid_stride::make_hypot_b(n, seed);
  std::vector<double> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    c[i] = std::hypot(static_cast<double>(a[i]), static_cast<double>(b[i]));
  }
  return c;
}

// ---------------------------------------------------------------------------
// Part 1: one thread per element
// ---------------------------------------------------------------------------

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kAddHint{
    "out[i] = x[i] + y[i] at the thread's global index i = blockIdx.x * blockDim.x + "
    "threadIdx.x.",
    "out[i] = x[i] + y[i] à l'indice global du thread, i = blockIdx.x * blockDim.x + "
    "threadIdx.x."};
const Message kCoverHint{
    "round the block count up: blocks_to_cover(n, t) = (n + t - 1) / t, and launch with the "
    "block size it was computed for.",
    "arrondissez le nombre de blocs à l'entier supérieur : blocks_to_cover(n, t) = "
    "(n + t - 1) / t, et lancez avec la taille de bloc pour laquelle il a été calculé."};

void check_blocks_to_cover(CaseContext& c) {
  struct Example {
    int n, threads;
  };
  constexpr Example kExamples[] = {{0, 128}, {1, 128}, {4096, 128}, {4097, 128}, {100003, 256}};
  for (const Example& example : kExamples) {
    const Run run = c.run(request::blocks_to_cover, {example.n, example.threads});
    std::int64_t blocks = 0;
    if (!c.finished(run) || !c.read_value(run, result::blocks, blocks)) return;
    const std::int64_t expected = (example.n + example.threads - 1) / example.threads;
    if (blocks != expected) {
      c.fail(Message{"blocks_to_cover({}, {}) returned {}, expected {}",
                     "blocks_to_cover({}, {}) a rendu {} au lieu de {}"}
                 .with(example.n, example.threads, blocks, expected));
      c.hint(kCoverHint);
      return;
    }
  }
}

// One add_on_device call (after an empty one for request::add_after_empty).
void check_add(CaseContext& c, int n, const Request<request::Elements>& kind = request::add) {
  const Run run = c.run(kind, {n});
  if (!c.finished(run) || (n > 0 && !c.expect_kernel_launched(run))) return;
  if (!c.expect_array(run, result::add_out, add_reference(n, c.seed()), course::kExact, kAddHint)) {
    c.note(Message{"(add_on_device with n = {}, blocks of {})",
                   "(add_on_device avec n = {}, blocs de {})"}
               .with(n, kElementwiseThreadsPerBlock));
    c.hint(kCoverHint);
  }
}

// The lab's "too many threads": the runner launches add_kernel itself on more threads
// than elements; the extra threads must write nothing (the guard zone after the output
// buffer catches a write past its end).
void check_add_too_many_threads(CaseContext& c) {
  const int n = 4000;
  const int blocks = 2 * kLabAddBlocks, threads = kLabThreadsPerBlock;
  const Run run = c.run(request::add_launch, {n, blocks, threads});
  if (!c.finished(run) ||
      !c.expect_array(run, result::add_out, add_reference(n, c.seed()), course::kExact, kAddHint)) {
    c.note(Message{"(add_kernel<<<{}, {}>>> for n = {}: {} threads too many)",
                   "(add_kernel<<<{}, {}>>> pour n = {} : {} threads de trop)"}
               .with(blocks, threads, n, blocks * threads - n));
  }
}

void check_square(CaseContext& c, int n) {
  const Run run = c.run(request::square, {n});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!c.expect_array(run, result::square_out, square_reference(n, c.seed()), kSquareTolerance,
                      Message{"out[i] = a[i] * a[i] at the thread's global index.",
                              "out[i] = a[i] * a[i] à l'indice global du thread."})) {
    c.note(Message{"(square_on_device with n = {})", "(square_on_device avec n = {})"}.with(n));
    c.hint(kCoverHint);
  }
}

// ---------------------------------------------------------------------------
// Part 2: the grid-stride loop, launched by the runner on grids it chooses
// ---------------------------------------------------------------------------

const Message kStrideHint{
    "the loop must start at the global index blockIdx.x * blockDim.x + threadIdx.x and "
    "step by the whole grid, gridDim.x * blockDim.x, while i < n.",
    "la boucle doit partir de l'indice global blockIdx.x * blockDim.x + threadIdx.x et "
    "avancer de toute la grille, gridDim.x * blockDim.x, tant que i < n."};

const Message kTailHint{
    "the last n % 4 elements are wrong: after the float4 loop over the n / 4 vectors, the "
    "scalar loop must do elements 4 * (n / 4) + global index, stepping by the whole grid, "
    "while i < n.",
    "les n % 4 derniers éléments sont faux : après la boucle float4 sur les n / 4 vecteurs, "
    "la boucle scalaire doit traiter les éléments 4 * (n / 4) + indice global, en avançant de "
    "toute la grille, tant que i < n."};

Message launch_text(int blocks, int threads, int n) {
  return Message{"(hypot_stride<<<{}, {}>>> for n = {})", "(hypot_stride<<<{}, {}>>> pour n = {})"}
      .with(blocks, threads, n);
}

// The c of the runner's launch of hypot_stride on `blocks` x `threads` threads.
void expect_hypot_grid(CaseContext& c, const Run& run, int n, int blocks, int threads) {
  if (!c.finished(run)) {
    c.note(launch_text(blocks, threads, n));
    return;
  }
  const std::vector<double> expected = hypot_reference(n, c.seed());
  if (!c.expect_array(run, result::c, expected, kHypotTolerance, kStrideHint)) {
    c.note(launch_text(blocks, threads, n));
    c.hint_if_only_float4_tail_wrong(run, result::c, expected, kHypotTolerance, kTailHint);
  }
}

void check_hypot_grid(CaseContext& c, int n, int blocks, int threads) {
  expect_hypot_grid(c, c.run(request::hypot_grid, {n, blocks, threads}), n, blocks, threads);
}

// Sizes of each remainder modulo 4, on a grid smaller than the float4 vectors: the loop
// over the last n % 4 elements, after the loop over the vectors.
void check_tails(CaseContext& c) {
  for (const int n : {4093, 4094, 4095}) {
    check_hypot_grid(c, n, 2, kLabStrideThreadsPerBlock);
    if (!c.passed()) return;
  }
}

// a, b and c moved off their 16-byte boundaries, in two runs: b and c (a aligned), then a
// alone. A kernel that reads float4 must test all three pointers and fall back to one
// float per access; one that tests only some of them stops on a misaligned access in one
// of the runs.
void check_unaligned(CaseContext& c) {
  const int n = 100003;
  const int blocks = kLabStrideBlocks, threads = kLabStrideThreadsPerBlock;
  for (const request::HypotOffsets& offsets :
       {request::HypotOffsets{n, blocks, threads, 0, 1, 2},
        request::HypotOffsets{n, blocks, threads, 3, 0, 0}}) {
    expect_hypot_grid(c, c.run(request::hypot_offsets, offsets), n, blocks, threads);
    if (!c.passed()) {
      c.note(Message{"(a, b and c started {}, {} and {} floats into their buffers: not 16-byte "
                     "aligned unless 0)",
                     "(a, b et c commençaient à {}, {} et {} floats du début de leurs tampons : "
                     "non alignés sur 16 octets, sauf à 0)"}
                 .with(offsets.a_offset, offsets.b_offset, offsets.c_offset));
      return;
    }
  }
}

// A size and a grid the student has not seen: drawn from the seed, so graders change
// them with --seed.
constexpr int kHiddenMaxElements = 4000000;
constexpr int kHiddenMaxBlocks = 600;
constexpr int kHiddenBlockSizes[] = {32, 64, 128, 256, 512, 1024};
constexpr std::uint64_t kHiddenShapeSalt = 13;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  const int blocks = static_cast<int>(rng.uniform_int(1, kHiddenMaxBlocks));
  const int size_count = static_cast<int>(std::size(kHiddenBlockSizes));
  const int threads = kHiddenBlockSizes[rng.uniform_int(0, size_count - 1)];
  check_hypot_grid(c, n, blocks, threads);
}

// ---------------------------------------------------------------------------
// Part 3: the occupancy-sized grid
// ---------------------------------------------------------------------------

const Message kNoOccupancySizes{"the program reported no occupancy grid sizes",
                                "le programme n'a rendu aucune taille de grille d'occupation"};

void check_occupancy_grid(CaseContext& c) {
  const Run run = c.run(request::occupancy, {});
  if (!c.finished(run)) return;
  std::vector<std::int64_t> got, want;
  if (!CaseContext::reported(run, result::student_blocks) ||
      !CaseContext::reported(run, result::expected_blocks)) {
    c.fail(kNoOccupancySizes);
    return;
  }
  if (!c.read_array(run, result::student_blocks, got) ||
      !c.read_array(run, result::expected_blocks, want)) {
    return;
  }
  if (got.size() != want.size()) {
    c.fail(kNoOccupancySizes);
    return;
  }
  const auto& kBlockSizes = grid_stride::kOccupancyBlockSizes;
  for (std::size_t k = 0; k < got.size() && k < std::size(kBlockSizes); ++k) {
    if (got[k] != want[k]) {
      c.fail(Message{"occupancy_grid_blocks({}) returned {}, expected {} (blocks per "
                     "multiprocessor for hypot_stride x multiprocessors)",
                     "occupancy_grid_blocks({}) a rendu {} au lieu de {} (blocs par "
                     "multiprocesseur pour hypot_stride x nombre de multiprocesseurs)"}
                 .with(kBlockSizes[k], got[k], want[k]));
      c.hint({"ask cudaOccupancyMaxActiveBlocksPerMultiprocessor about hypot_stride with the "
              "threads_per_block you were given (not a fixed block size), 0 bytes of dynamic "
              "shared memory, and multiply by cudaDevAttrMultiProcessorCount.",
              "interrogez cudaOccupancyMaxActiveBlocksPerMultiprocessor sur hypot_stride avec le "
              "threads_per_block reçu (pas une taille de bloc fixe), 0 octet de mémoire partagée "
              "dynamique, et multipliez par cudaDevAttrMultiProcessorCount."});
      return;
    }
  }
}

void check_occupancy_launch(CaseContext& c, int n) {
  const Run run = c.run(request::hypot_occupancy, {n});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!c.expect_array(run, result::c, hypot_reference(n, c.seed()), kHypotTolerance, kStrideHint)) {
    c.note(Message{"(hypot_on_device with n = {})", "(hypot_on_device avec n = {})"}.with(n));
    c.hint({"hypot_on_device launches hypot_stride on occupancy_grid_blocks(kHypotThreadsPerBlock) "
            "blocks of kHypotThreadsPerBlock threads.",
            "hypot_on_device lance hypot_stride sur occupancy_grid_blocks(kHypotThreadsPerBlock) "
            "blocs de kHypotThreadsPerBlock threads."});
  }
}

// 4M elements (48 MiB for a, b and c), not a multiple of any block size: a kernel of
// tens of microseconds, long next to the time of a launch. Not larger: a stride that
// forgets gridDim.x does work growing as n squared (its launches on 16M elements take
// seconds each on an H200), and this case must catch it by its time, within its
// time limit. Both launches compared see the same caches.
constexpr int kSpeedElements = (1 << 22) + 7;
// Under compute-sanitizer times mean nothing: a small run proves the launch is clean.
constexpr int kSanitizerSpeedElements = (1 << 18) + 7;
constexpr int kSpeedRepetitions = 20;
constexpr int kSanitizerSpeedRepetitions = 1;
// A grid that just fills the GPU, each thread looping over a dozen elements or more,
// moves the same bytes as one thread per element; measured in the same run, on the
// same buffers, it is as fast or faster (0.87-0.89 of its time on an H100, 0.72 on an
// H200). 25% leaves room for the noise and the cache sizes of other GPUs (4M
// elements may half fit in an L2); the mistakes this case is for are far beyond it: a
// stride that forgets gridDim.x is hundreds of times slower, the lab's fixed 128 x 64
// grid more than ten times.
constexpr course::check::SpeedBar kOccupancyBar{
    "hypot_on_device's time over the one-thread-per-element kernel's",
    course::check::BarKind::at_most,
    1.25,
    "0.87-0.89 on H100, 0.72 on H200",
    "temps de hypot_on_device divisé par celui du kernel à un thread par élément",
    "0.87-0.89 sur H100, 0.72 sur H200"};
// A stride that forgets gridDim.x makes one launch take seconds: room for it to be
// caught by its time rather than by the time limit.
constexpr double kSpeedTimeoutSeconds = 60.0;

void check_occupancy_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const int n = sanitized ? kSanitizerSpeedElements : kSpeedElements;
  const int repetitions = sanitized ? kSanitizerSpeedRepetitions : kSpeedRepetitions;
  const Run run =
      c.run(request::hypot_speed, {n, repetitions, !sanitized}, 0, kSpeedTimeoutSeconds);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  std::int64_t timed = 0;
  if (!c.read_value(run, result::timed_elements, timed)) return;
  // Only the runner's probe on the first elements ran: the launch was hopelessly slow
  // there, and the values of the whole array were never computed.
  const bool probe_only = timed != n;
  if (!probe_only &&
      !c.expect_array(run, result::c, hypot_reference(n, c.seed()), kHypotTolerance, kStrideHint)) {
    return;
  }
  if (!c.times_judged()) return;
  double student_ms = 0.0, reference_ms = 0.0;
  if (!c.read_times(run, {{result::student_ms, student_ms},
                          {result::one_per_element_ms, reference_ms}})) {
    return;
  }
  const Message figures =
      Message{"hypot_on_device took {} ms for n = {}; the check's own hypot kernel, one thread "
              "per element, took {} ms",
              "hypot_on_device a pris {} ms pour n = {} ; le kernel hypot du correcteur, à un "
              "thread par élément, a pris {} ms"}
          .with(student_ms, static_cast<int>(timed), reference_ms);
  c.judge_speed(kOccupancyBar, student_ms / reference_ms, figures,
                {Message{"the stride must be the whole grid, gridDim.x * blockDim.x: with "
                         "blockDim.x alone every block redoes the elements of the blocks before "
                         "it.",
                         "le pas doit être toute la grille, gridDim.x * blockDim.x : avec "
                         "blockDim.x seul, chaque bloc refait les éléments des blocs qui le "
                         "précèdent."},
                 Message{"the grid must be occupancy_grid_blocks(kHypotThreadsPerBlock) blocks of "
                         "kHypotThreadsPerBlock threads: enough to fill every multiprocessor.",
                         "la grille doit compter occupancy_grid_blocks(kHypotThreadsPerBlock) "
                         "blocs de kHypotThreadsPerBlock threads : assez pour remplir chaque "
                         "multiprocesseur."}});
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "13",
      "grid_stride_loops",
      {
          {"blocks_to_cover_rounds_up", 1, check_blocks_to_cover},
          {"add_lab_4096", 1, [](CaseContext& c) { check_add(c, kLabAddElements); }},
          {"add_n_is_one", 1, [](CaseContext& c) { check_add(c, 1); }},
          {"add_n_zero_then_1000", 1,
           [](CaseContext& c) { check_add(c, 1000, request::add_after_empty); }},
          {"add_4097_one_past_the_lab", 2,
           [](CaseContext& c) { check_add(c, kLabAddElements + 1); }},
          {"add_kernel_too_many_threads", 2, check_add_too_many_threads},
          {"square_lab_4096", 1, [](CaseContext& c) { check_square(c, kLabAddElements); }},
          {"square_100003", 1, [](CaseContext& c) { check_square(c, 100003); }},
          {"hypot_lab_grid_1M", 2,
           [](CaseContext& c) {
             check_hypot_grid(c, 1000000, kLabStrideBlocks, kLabStrideThreadsPerBlock);
           }},
          {"hypot_lab_grid_16M_odd", 2,
           [](CaseContext& c) {
             check_hypot_grid(c, (1 << 24) + 43, kLabStrideBlocks, kLabStrideThreadsPerBlock);
           }},
          {"hypot_one_warp_grid", 2, [](CaseContext& c) { check_hypot_grid(c, 100003, 1, 32); }},
          {"hypot_grid_larger_than_n", 1,
           [](CaseContext& c) {
             check_hypot_grid(c, 1000, kLabStrideBlocks, kLabStrideThreadsPerBlock);
           }},
          {"hypot_n_zero_and_one", 1,
           [](CaseContext& c) {
             check_hypot_grid(c, 0, kLabStrideBlocks, kLabStrideThreadsPerBlock);
             if (c.passed()) check_hypot_grid(c, 1, kLabStrideBlocks, kLabStrideThreadsPerBlock);
           }},
          {"hypot_float4_tails_4093_to_4095", 2, check_tails},
          {"hypot_unaligned_pointers", 2, check_unaligned},
          {"hypot_hidden_grid_and_size", 2, check_hidden, course::check::kHiddenCase},
          {"occupancy_grid_size", 2, check_occupancy_grid},
          {"occupancy_launch_3000017", 1,
           [](CaseContext& c) { check_occupancy_launch(c, 3000017); }},
          course::check::timed({"occupancy_launch_speed", 2, check_occupancy_speed},
                               {kOccupancyBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
