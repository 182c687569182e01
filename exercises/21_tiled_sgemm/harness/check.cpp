// Exercise 21 - the check. Runs the student's program case by case and compares every
// element of C it reports with a float64 reference computed here, within a bound that
// grows with k (harness/workload.hpp); grades each step on its own; times the naive step
// against the course's coalesced naive kernel, and the final step (5) and the optional one
// (6) against cuBLAS, in the same run. Contains no student code.
//
//   make check-21                          (students)
//   build/.../check_21 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/sgemm_verdict.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::describe;
using course::check::Message;
using course::check::Run;
using tiled_sgemm::Problem;
using tiled_sgemm::Shape;
namespace request = tiled_sgemm::request;

// ---------------------------------------------------------------------------
// Hints: each names one classic mistake (the known-wrong variants look for them)
// ---------------------------------------------------------------------------
const Message kEdgeHint{
    "sizes not multiples of the tile: load 0 for every element of a tile that lies past m or k "
    "(A) or past k or n (B), and write only elements with i < m and j < n; every thread still "
    "takes part in the loads and the barriers.",
    "tailles non multiples de la tuile : chargez 0 pour chaque élément d'une tuile qui tombe "
    "au-delà de m ou de k (A) ou au-delà de k ou de n (B), et n'écrivez que les éléments où "
    "i < m et j < n ; chaque thread prend quand même part aux chargements et aux barrières."};
const Message kBarrierHint{
    "shared memory: __syncthreads() between loading a tile and using it (every element in "
    "place), and again after using it, before the next tile's load overwrites it (nobody still "
    "reading); both outside any `if`.",
    "mémoire partagée : __syncthreads() entre le chargement d'une tuile et son usage (chaque "
    "élément en place), puis de nouveau après l'usage, avant que le chargement de la tuile "
    "suivante ne l'écrase (plus personne ne lit) ; les deux hors de tout `if`."};
const Message kTileIndexHint{
    "tile indices: A's tile holds A(i, t + x) for the block's rows i, B's tile holds B(t + y, j) "
    "for its columns j; the product adds a row of A's tile times a column of B's, "
    "a_tile[y][p] * b_tile[p][x].",
    "indices des tuiles : la tuile de A contient A(i, t + x) pour les lignes i du bloc, celle "
    "de B contient B(t + y, j) pour ses colonnes j ; le produit ajoute une ligne de la tuile "
    "de A fois une colonne de celle de B, a_tile[y][p] * b_tile[p][x]."};
const Message kAccumulatorHint{
    "register tiles: zero each thread's sums once, before the loop over the slices of k, keep "
    "adding across slices, and write them after the loop.",
    "tuiles en registres : mettez les sommes de chaque thread à zéro une seule fois, avant la "
    "boucle sur les tranches de k, continuez d'ajouter d'une tranche à l'autre, et écrivez-les "
    "après la boucle."};
const Message kBetaZeroHint{
    "beta = 0: C is not read (here it holds NaN, and 0 * NaN is NaN): write alpha * dot alone "
    "when beta == 0, as BLAS does.",
    "beta = 0 : C n'est pas lu (ici il contient des NaN, et 0 * NaN donne NaN) : écrivez "
    "alpha * dot seul quand beta == 0, comme le fait BLAS."};
const Message kVectorHint{
    "float4 loads and stores need 16-byte aligned addresses: use them only where a row's length "
    "is a multiple of 4 (k for A, n for B and C), and load element by element elsewhere.",
    "les lectures et écritures en float4 demandent des adresses alignées sur 16 octets : ne "
    "les utilisez que là où la longueur d'une ligne est un multiple de 4 (k pour A, n pour B "
    "et C), et chargez élément par élément ailleurs."};
const Message kCoalescingHint{
    "coalescing: threadIdx.x must walk the columns j, contiguous in a row of B and of C; with "
    "threadIdx.x along the rows i, the 32 threads of a warp read A k floats apart and write C "
    "n floats apart, one memory transaction each.",
    "coalescence : threadIdx.x doit parcourir les colonnes j, contiguës dans une ligne de B et "
    "de C ; avec threadIdx.x le long des lignes i, les 32 threads d'un warp lisent A à k floats "
    "d'écart et écrivent C à n floats d'écart, une transaction mémoire chacun."};
const Message kFinalSpeedHint{
    "speed: a 128 x 128 tile of C per block, slices of 8 values of k, 8 x 8 sums per thread in "
    "registers, float4 loads from global and shared memory, A's tile transposed so that a "
    "thread's rows are one float4; no bounds test inside the product loop.",
    "vitesse : une tuile de C de 128 x 128 par bloc, des tranches de 8 valeurs de k, 8 x 8 "
    "sommes par thread en registres, des lectures en float4 depuis la mémoire globale et la "
    "mémoire partagée, la tuile de A transposée pour que les lignes d'un thread forment un "
    "float4 ; aucun test de bornes dans la boucle du produit."};
const Message kDoubleBufferHint{
    "double buffering: fetch the next slice into registers before the product, stash it into "
    "the other buffer (buffer ^ 1) after the product, then one __syncthreads() and swap the "
    "buffers; the first slice is fetched, stashed into buffer 0 and followed by a barrier "
    "before the loop.",
    "double tampon : lisez la tranche suivante dans des registres avant le produit, rangez-la "
    "dans l'autre tampon (buffer ^ 1) après le produit, puis un seul __syncthreads() et "
    "échangez les tampons ; avant la boucle, la première tranche est lue, rangée dans le "
    "tampon 0 et suivie d'une barrière."};
const Message kWarpTilesSpeedHint{
    "speed of step 6: each warp a 64 x 32 tile of C, each thread 2 x 2 groups of 4 x 4 read as "
    "float4 from the tiles, the next slice's loads issued before the product and stashed after "
    "it, one barrier per slice, and at most 128 registers per thread with a stack frame of 0 "
    "bytes (__launch_bounds__(256, 2)).",
    "vitesse de l'étape 6 : pour chaque warp une tuile de C de 64 x 32, pour chaque thread "
    "2 x 2 groupes de 4 x 4 lus en float4 dans les tuiles, les lectures de la tranche suivante "
    "lancées avant le produit et rangées après lui, une barrière par tranche, et au plus 128 "
    "registres par thread avec un cadre de pile de 0 octet (__launch_bounds__(256, 2))."};

// ---------------------------------------------------------------------------
// The steps
// ---------------------------------------------------------------------------
struct StepInfo {
  const char* name;  // the program's
  const char* launcher;
  bool shared_memory;    // steps 2 to 6
  bool registers;        // steps 3 to 6: sums of several elements per thread
  bool vectors;          // steps 5 and 6
  bool double_buffered;  // step 6
};
constexpr StepInfo kNaive{"naive", "sgemm_naive_on_device", false, false, false, false};
constexpr StepInfo kSharedTiles{"shared_tiles", "sgemm_shared_tiles_on_device", true, false, false,
                                false};
constexpr StepInfo kBlocking1d{"blocking_1d", "sgemm_blocking_1d_on_device", true, true, false,
                               false};
constexpr StepInfo kBlocking2d{"blocking_2d", "sgemm_blocking_2d_on_device", true, true, false,
                               false};
constexpr StepInfo kVectorized{"vectorized", "sgemm_vectorized_on_device", true, true, true, false};
// Steps 1 to 5, graded for everyone (the hidden shape runs them all).
constexpr StepInfo kSteps[] = {kNaive, kSharedTiles, kBlocking1d, kBlocking2d, kVectorized};
// Step 6, "going further": optional, graded by its own cases alone.
constexpr StepInfo kWarpTiles{"warp_tiles", "sgemm_warp_tiles_on_device", true, true, true, true};

// ---------------------------------------------------------------------------
// One product, every element compared
// ---------------------------------------------------------------------------
struct Product {
  int m, n, k;
  float alpha, beta;
};

Message describe(const StepInfo& step, const Product& p) {
  return Message{"{} on {} x {} x {} (m x n x k), alpha = {}, beta = {}",
                 "{} sur {} x {} x {} (m x n x k), alpha = {}, beta = {}"}
      .with(step.launcher, p.m, p.n, p.k, p.alpha, p.beta);
}

// The largest tiles of C are 128 x 128 (steps 4 to 6), the largest slice of k 32 (step 2).
constexpr int kLargestTile = 128;
constexpr int kLargestSlice = 32;

// True when no step's tiles reach past the edges of A, B or C.
bool multiples_of_every_tile(const Product& p) {
  return p.m % kLargestTile == 0 && p.n % kLargestTile == 0 && p.k % kLargestSlice == 0;
}

// The hints for a wrong C of `step`, from what the wrong elements look like.
void diagnose(CaseContext& c, const StepInfo& step, const Product& p,
              const tiled_sgemm::Verdict& v) {
  // With beta = 0, C held NaN: 0 * NaN gives NaN back, on some hardware with the very bits
  // C held, which then reads as an element never written.
  if (p.beta == 0.0f && (v.nan > 0 || v.unwritten > 0)) c.hint(kBetaZeroHint);
  if (!course::check::hint_unwritten(
          c, step.launcher, v,
          {"every thread writes each element it owns inside C.",
           "chaque thread écrit chaque élément dont il a la charge à l'intérieur de C."})) {
    return;
  }
  if (!multiples_of_every_tile(p)) c.hint(kEdgeHint);
  if (step.shared_memory) {
    c.hint(kBarrierHint);
    c.hint(kTileIndexHint);
  }
  if (step.registers) c.hint(kAccumulatorHint);
  if (step.double_buffered) c.hint(kDoubleBufferHint);
}

bool check_product(CaseContext& c, const StepInfo& step, const Product& p) {
  const Run run = c.run(request::sgemm, {step.name, p.m, p.n, p.k, p.alpha, p.beta});
  const Message what = describe(step, p);
  if (!c.finished(run)) {
    c.note(Message::verbatim("({})").with(what));
    if (step.vectors) c.hint(kVectorHint);
    c.hint(kEdgeHint);
    return false;
  }
  if (!c.expect_kernel_launched(run)) return false;
  const Problem problem =
      sgemm::make_problem(Shape::dense(p.m, p.n, p.k), p.alpha, p.beta, c.seed());
  // The key fixes the record's type: once reported, only its size can be wrong.
  const std::size_t elements = static_cast<std::size_t>(p.m) * p.n;
  std::vector<float> got;
  if (!CaseContext::reported(run, tiled_sgemm::result::c) ||
      !c.read_array(run, tiled_sgemm::result::c, got) || got.size() != elements) {
    c.fail(Message{"the program reported no C of {} floats ({})",
                   "le programme n'a rendu aucun C de {} floats ({})"}
               .with(elements, what));
    return false;
  }
  const tiled_sgemm::Verdict v =
      tiled_sgemm::compare_elements(problem, tiled_sgemm::every_element(problem.shape), got);
  if (v.right()) return true;
  c.fail(Message{"{}: {}", "{} : {}"}.with(what, describe(v)));
  c.note({"(each element must be within 2 (k + 2) 2^-24 (|alpha| sum_p |A(i, p) B(p, j)| + "
          "|beta C(i, j)|) of the float64 result)",
          "(chaque élément doit être à 2 (k + 2) 2^-24 (|alpha| sum_p |A(i, p) B(p, j)| + "
          "|beta C(i, j)|) près du résultat en float64)"});
  diagnose(c, step, p, v);
  return false;
}

// Several products, stopping at the first failure.
void check_products(CaseContext& c, const StepInfo& step, const std::vector<Product>& products) {
  for (const Product& p : products) {
    if (!check_product(c, step, p)) return;
  }
}

// ---------------------------------------------------------------------------
// The shapes
// ---------------------------------------------------------------------------
constexpr float kAlpha = 1.5f;
constexpr float kBeta = -0.75f;

// Multiples of every tile (32, 64, 128, 8 and 16): square, and non-square with m, n, k
// apart. The square one has a long k: 32 tiles of 32 per block of step 2, 128 slices of 8
// per block of steps 3 to 5, 64 of 16 in step 6, so that a missing barrier has thousands
// of chances to show (a small k under compute-sanitizer, whose racecheck finds it every
// time: 4 tiles, 16 slices, 8 in step 6, so several barriers a block).
constexpr int kLongK = 1024;
constexpr int kSanitizerLongK = 128;

std::vector<Product> tile_multiples(const CaseContext& c) {
  return {{256, 256, c.under_sanitizer() ? kSanitizerLongK : kLongK, kAlpha, kBeta},
          {128, 384, 64, kAlpha, kBeta}};
}
// Sizes that leave partial tiles in every direction, k below one slice, thin shapes.
const std::vector<Product> kEdges = {{37, 53, 61, kAlpha, kBeta},
                                     {129, 131, 7, kAlpha, kBeta},
                                     {200, 3, 300, kAlpha, kBeta},
                                     {130, 257, 33, kAlpha, kBeta}};
// The smallest product, and k = 1: C = alpha a b^T + beta C, one slice, one product.
const std::vector<Product> kTiny = {
    {1, 1, 1, kAlpha, kBeta}, {3, 200, 1, kAlpha, kBeta}, {150, 130, 1, kAlpha, kBeta}};
// beta = 0 with C full of NaN: a partial size, and one whose rows allow float4 stores.
const std::vector<Product> kBetaZero = {{131, 67, 45, -2.0f, 0.0f}, {128, 128, 64, 1.0f, 0.0f}};

// A shape drawn from the seed, the same for every step.
constexpr int kHiddenMaxSize = 300;
constexpr std::uint64_t kHiddenShapeSalt = 2121;

Product hidden_product(std::uint64_t seed) {
  course::Rng rng(course::derive_seed(seed, kHiddenShapeSalt));
  const sgemm::Shape shape = sgemm::draw_shape(rng, kHiddenMaxSize);
  Product p{shape.m, shape.n, shape.k, 0.0f, 0.0f};
  p.alpha = rng.uniform(-2.0f, 2.0f);
  // Half the seeds give beta = 0 (C full of NaN).
  p.beta = rng.uniform_int(0, 1) == 0 ? 0.0f : rng.uniform(-1.0f, 1.0f);
  return p;
}

void check_hidden(CaseContext& c) {
  const Product p = hidden_product(c.seed());
  for (const StepInfo& step : kSteps) {
    if (!check_product(c, step, p)) return;
  }
}

// ---------------------------------------------------------------------------
// Speed
// ---------------------------------------------------------------------------
// The bars (tests/speed_bars.md). The naive step against the course's coalesced naive
// kernel (harness/yardstick.cu) in the same run. Reading A down a column and writing C
// down a column (threadIdx.x along i) was 6.4 times slower than the coalesced kernel on an
// A6000 (S. Boehm, "How to optimize a CUDA matmul kernel", kernels 1 and 2: 309 and 1987
// GFLOP/s); the student's block shape may differ from the yardstick's.
constexpr course::check::SpeedBar kNaiveBar{
    "sgemm_naive_on_device's share of the course's coalesced naive kernel's throughput",
    course::check::BarKind::at_least,
    0.5,
    "0.96-0.98 on H100, 0.97 on H200",
    "part du débit du kernel naïf coalescé du cours atteinte par sgemm_naive_on_device",
    "0.96-0.98 sur H100, 0.97 sur H200"};
// The final step against cuBLAS at 4096^3 (FP32 both): compute-bound, so the ratio is the
// same on the H100 and the H200 (same multiprocessors and clocks). Published: 2D
// blocktiling with vectorised loads reached 78% of cuBLAS on an A6000 (same source,
// kernel 6).
constexpr course::check::SpeedBar kFinalBar{
    "sgemm_vectorized_on_device's share of cuBLAS",
    course::check::BarKind::at_least,
    0.45,
    "0.53-0.56 on H100 and H200",
    "part des GFLOP/s de cuBLAS atteinte par sgemm_vectorized_on_device",
    "0.53-0.56 sur H100 et H200"};
// The optional step against cuBLAS, the same way: 0.885 on an H200 (the probe of issue 28,
// 3.049 ms against cuBLAS's 2.698 ms at 4096^3; 0.906-0.927 at 2048^3).
constexpr course::check::SpeedBar kWarpTilesBar{
    "sgemm_warp_tiles_on_device's share of cuBLAS",
    course::check::BarKind::at_least,
    0.60,
    "0.84-0.85 on H100, 0.85 on H200",
    "part des GFLOP/s de cuBLAS atteinte par sgemm_warp_tiles_on_device",
    "0.84-0.85 sur H100, 0.85 sur H200"};
constexpr int kSpeedRepetitions = 10;
constexpr int kSanitizerSpeedRepetitions = 1;

// Runs a speed case on size^3 (alpha 1, beta 0); false, with the case failed, when the
// timed step's sampled elements are wrong or its times are missing.
bool run_speed(CaseContext& c, const course::check::Request<request::Speed>& kind,
               const StepInfo& step, int size, double& step_ms, double& yardstick_ms) {
  const Run run =
      c.run(kind, {size, c.under_sanitizer() ? kSanitizerSpeedRepetitions : kSpeedRepetitions, 1.0,
                   0.0, !c.under_sanitizer()});
  const Product p{size, size, size, 1.0f, 0.0f};
  if (!c.finished(run)) {
    if (step.vectors) c.hint(kVectorHint);
    return false;
  }
  if (!c.expect_kernel_launched(run)) return false;
  const Problem problem = sgemm::make_problem(Shape::dense(size, size, size), 1.0f, 0.0f, c.seed());
  std::vector<float> sampled;
  if (!CaseContext::reported(run, tiled_sgemm::result::c_sampled) ||
      !c.read_array(run, tiled_sgemm::result::c_sampled, sampled)) {
    c.fail({"the program reported no sampled elements of C",
            "le programme n'a rendu aucun élément échantillonné de C"});
    return false;
  }
  const tiled_sgemm::Verdict v = tiled_sgemm::compare_elements(
      problem, tiled_sgemm::sampled_elements(problem.shape, c.seed()), sampled);
  if (!v.right()) {
    c.fail(Message{"{}, {} elements sampled: {}", "{}, {} éléments échantillonnés : {}"}.with(
        describe(step, p), v.count, describe(v)));
    diagnose(c, step, p, v);
    return false;
  }
  if (c.under_sanitizer()) return true;  // no times: the launch alone is checked
  return c.read_times(run, {{tiled_sgemm::result::step_ms, step_ms},
                            {tiled_sgemm::result::yardstick_ms, yardstick_ms}});
}

double gflops(int size, double ms) {
  return 2.0 * size * size * static_cast<double>(size) / (ms * 1e6);
}

void check_naive_speed(CaseContext& c) {
  const int size =
      c.under_sanitizer() ? tiled_sgemm::kSanitizerSpeedSize : tiled_sgemm::kNaiveSpeedSize;
  double naive_ms = 0.0, yardstick_ms = 0.0;
  if (!run_speed(c, request::naive_speed, kNaive, size, naive_ms, yardstick_ms)) return;
  if (!c.times_judged()) return;
  const Message figures =
      Message{"sgemm_naive_on_device: {} ms at {}^3 ({} GFLOP/s = 2 m n k / time); the course's "
              "coalesced naive kernel: {} ms",
              "sgemm_naive_on_device : {} ms en {}^3 ({} GFLOP/s = 2 m n k / temps) ; le kernel "
              "naïf coalescé du cours : {} ms"}
          .with(naive_ms, size, gflops(size, naive_ms), yardstick_ms);
  c.judge_speed(kNaiveBar, yardstick_ms / naive_ms, figures, {kCoalescingHint});
}

// `step` against cuBLAS at 4096^3 (the speed case `kind` of harness/cases.cu), judged
// against `bar`; `hint` when it is too slow.
void check_cublas_speed(CaseContext& c, const course::check::Request<request::Speed>& kind,
                        const StepInfo& step, const course::check::SpeedBar& bar,
                        const Message& hint) {
  const int size =
      c.under_sanitizer() ? tiled_sgemm::kSanitizerSpeedSize : tiled_sgemm::kFinalSpeedSize;
  double step_ms = 0.0, cublas_ms = 0.0;
  if (!run_speed(c, kind, step, size, step_ms, cublas_ms)) return;
  if (!c.times_judged()) return;
  const Message figures =
      Message{"{}: {} ms at {}^3, {} GFLOP/s (2 m n k / time); cuBLAS SGEMM (FP32, "
              "CUBLAS_DEFAULT_MATH): {} ms, {} GFLOP/s",
              "{} : {} ms en {}^3, {} GFLOP/s (2 m n k / temps) ; SGEMM de cuBLAS (FP32, "
              "CUBLAS_DEFAULT_MATH) : {} ms, {} GFLOP/s"}
          .with(step.launcher, step_ms, size, gflops(size, step_ms), cublas_ms,
                gflops(size, cublas_ms));
  c.judge_speed(bar, cublas_ms / step_ms, figures, {hint});
}

void check_final_speed(CaseContext& c) {
  check_cublas_speed(c, request::final_speed, kVectorized, kFinalBar, kFinalSpeedHint);
}

// Under compute-sanitizer the optional step's launches are proved by its own correctness
// cases, on the same sizes: its speed run would add a sanitized program run and nothing new.
void check_warp_tiles_speed(CaseContext& c) {
  if (c.under_sanitizer()) {
    c.note({"(not run under compute-sanitizer: the warp_tiles cases above check its launches)",
            "(non exécuté sous compute-sanitizer : les cas warp_tiles ci-dessus vérifient ses "
            "lancements)"});
    return;
  }
  check_cublas_speed(c, request::optional_speed, kWarpTiles, kWarpTilesBar, kWarpTilesSpeedHint);
}

// ---------------------------------------------------------------------------
// The cases: four per step, graded separately, then the hidden shape and the speed; last,
// the optional step's four and its speed, worth their own points only
// ---------------------------------------------------------------------------
constexpr int kTileMultiplesPoints = 2;
constexpr int kEdgesPoints = 2;
constexpr int kTinyPoints = 1;
constexpr int kBetaZeroPoints = 1;

void add_step_cases(std::vector<course::check::Case>& cases, const StepInfo& step) {
  const std::string name = step.name;
  cases.push_back({name + "_multiples_of_the_tile", kTileMultiplesPoints,
                   [step](CaseContext& c) { check_products(c, step, tile_multiples(c)); }});
  cases.push_back({name + "_edges_not_multiples_of_the_tile", kEdgesPoints,
                   [step](CaseContext& c) { check_products(c, step, kEdges); }});
  cases.push_back({name + "_1x1x1_and_k_1", kTinyPoints,
                   [step](CaseContext& c) { check_products(c, step, kTiny); }});
  cases.push_back({name + "_beta_0_c_full_of_nan", kBetaZeroPoints,
                   [step](CaseContext& c) { check_products(c, step, kBetaZero); }});
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  std::vector<course::check::Case> cases;
  for (const StepInfo& step : kSteps) add_step_cases(cases, step);
  cases.push_back({"hidden_shape_from_seed", 3, check_hidden, course::check::kHiddenCase});
  cases.push_back(timed({"naive_coalesced_vs_course_naive", 2, check_naive_speed}, {kNaiveBar}));
  cases.push_back(timed({"final_45_percent_of_cublas_4096", 5, check_final_speed}, {kFinalBar}));
  add_step_cases(cases, kWarpTiles);
  cases.push_back(
      timed({"warp_tiles_60_percent_of_cublas_4096", 4, check_warp_tiles_speed}, {kWarpTilesBar}));
  course::check::Exercise exercise{"21", "tiled_sgemm", cases};
  return course::check::judge_main(argc, argv, exercise);
}
