// Exercise 26 - the check. Runs the student's program case by case and compares every
// element of C it reports with a float64 reference computed here, within the error an FP32
// accumulation of FP16 products may have (harness/workload.hpp); grades each step on its
// own; times each step against cuBLAS's cublasGemmEx in the same run. Step 3 needs sm_80:
// where the GPU or the build is older, its cases say so and are not graded
// (course/check/architecture.hpp). The optional step 4 needs an sm_90 GPU running code built
// for sm_90a: elsewhere its cases say so and are not graded either; it is graded by its own
// cases alone (the hidden shape runs steps 1 to 3). Contains no student code.
//
//   make check-26                          (students)
//   build/.../check_26 --program PROGRAM   (instructors; --help lists the options)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "course/check/architecture.hpp"
#include "course/check/judge.hpp"
#include "course/check/sgemm_verdict.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
using tensor_core_gemm::Problem;
namespace request = tensor_core_gemm::request;
namespace result = tensor_core_gemm::result;

// ---------------------------------------------------------------------------
// Hints: each names one classic mistake (the known-wrong variants look for them)
// ---------------------------------------------------------------------------
const Message kEdgeHint{
    "sizes not multiples of the tile: load 0 for every element of a tile that lies past m or k "
    "(A) or past k or n (B), and write only the elements of C with i < m and j < n.",
    "tailles non multiples de la tuile : chargez 0 pour chaque élément d'une tuile qui tombe "
    "au-delà de m ou de k (A) ou au-delà de k ou de n (B), et n'écrivez que les éléments de C "
    "où i < m et j < n."};
const Message kLayoutHint{
    "fragment layout: A and B are row-major in memory, so both fragments are declared "
    "wmma::row_major and loaded with ldm the distance between two rows of their tile in memory "
    "(padding included); a col_major fragment reads the tile transposed.",
    "disposition des fragments : A et B sont rangées ligne par ligne en mémoire, donc les deux "
    "fragments sont déclarés wmma::row_major et chargés avec comme ldm la distance entre deux "
    "lignes de leur tuile en mémoire (remplissage compris) ; un fragment col_major lit la tuile "
    "transposée."};
const Message kAccumulatorHint{
    "the accumulator: wmma::fill_fragment(sum, 0.0f) once, before the loop over k (a fragment "
    "is registers: uninitialised, it holds whatever they held).",
    "l'accumulateur : wmma::fill_fragment(sum, 0.0f) une seule fois, avant la boucle sur k (un "
    "fragment est fait de registres : non initialisé, il contient ce qu'ils contenaient)."};
const Message kBarrierHint{
    "shared memory: a barrier between storing a tile and loading fragments from it "
    "(__syncwarp() for a warp's own staging tile, __syncthreads() for the block's tiles), and "
    "another before the next tile overwrites it.",
    "mémoire partagée : une barrière entre l'écriture d'une tuile et le chargement des "
    "fragments qui la lisent (__syncwarp() pour la tuile de transit d'un warp, "
    "__syncthreads() pour les tuiles du bloc), et une autre avant que la tuile suivante ne "
    "l'écrase."};
const Message kPipelineHint{
    "the pipeline: cp.async.wait_group (kPipelineStages - 2) then __syncthreads() before "
    "loading fragments from a stage (for slice s + 1, in slice s's last k-step); the next copy "
    "goes into the stage of slice s - 1, after that barrier; one commit per slice, even an "
    "empty one.",
    "le pipeline : cp.async.wait_group (kPipelineStages - 2) puis __syncthreads() avant de "
    "charger des fragments depuis un étage (pour la tranche s + 1, au dernier pas de k de la "
    "tranche s) ; la copie suivante va dans l'étage de la tranche s - 1, après cette "
    "barrière ; un commit par tranche, même vide."};
const Message kDoubleBufferHint{
    "step 2's two buffers: slice s is read from buffer s % 2; slice s + 1, loaded into "
    "registers before the MMAs, is stored after them into the other buffer, (s + 1) % 2; one "
    "__syncthreads() after that store, in every slice.",
    "les deux tampons de l'étape 2 : la tranche s est lue dans le tampon s % 2 ; la tranche "
    "s + 1, chargée dans des registres avant les MMA, est écrite après eux dans l'autre tampon, "
    "(s + 1) % 2 ; un __syncthreads() après cette écriture, à chaque tranche."};
const Message kSwizzleHint{
    "step 3's swizzle: the copies and the ldmatrix addresses both go through "
    "swizzled_offset<width of the tile>(row, column), the same row and column of the tile; "
    "an address computed without it reads another chunk of the row.",
    "l'entrelacement de l'étape 3 : les copies et les adresses de ldmatrix passent toutes deux "
    "par swizzled_offset<largeur de la tuile>(ligne, colonne), avec la même ligne et la même "
    "colonne de la tuile ; une adresse calculée sans lui lit un autre morceau de la ligne."};
const Message kFp32AccumulationHint{
    "accumulate in FP32: the accumulator fragment (or the mma's C and D) is float; an FP16 "
    "accumulator rounds every partial sum to 11 significant bits, and on a long k its error "
    "grows far beyond the FP32 bound.",
    "accumulez en FP32 : le fragment accumulateur (ou le C et le D du mma) est float ; un "
    "accumulateur FP16 arrondit chaque somme partielle à 11 bits significatifs, et sur un k "
    "long son erreur dépasse de loin la borne du FP32."};
const Message kWgmmaEdgeHint{
    "step 4's edges: TMA writes zeros for the parts of a box outside A or B, so the one count "
    "to get right is that of B's boxes: every box of 64 columns that starts before n is "
    "copied (round up), and its bytes expected; then only the elements of C with i < m and "
    "j < n are written.",
    "les bords de l'étape 4 : TMA écrit des zéros pour les parties d'une boîte hors de A ou "
    "de B ; le seul nombre à calculer juste est donc celui des boîtes de B : chaque boîte de "
    "64 colonnes qui commence avant n est copiée (arrondi à l'entier supérieur), et ses "
    "octets attendus ; puis seuls les éléments de C où i < m et j < n sont écrits."};
const Message kWgmmaHint{
    "step 4: consumer w reads A's rows 64 w .. 64 w + 63 of the stage (w * 64 * 128 bytes in), "
    "each k step 32 bytes further along A's rows and 2048 bytes further in B; the consumers "
    "wait on the stage's full barrier (parity (t / kWgmmaStages) & 1) before their wgmmas, "
    "and free the previous stage only after wgmma_wait<1>(); d is set to 0 before the first "
    "slice.",
    "l'étape 4 : le consommateur w lit les lignes 64 w .. 64 w + 63 de A dans l'étage "
    "(w * 64 * 128 octets plus loin), chaque pas de k 32 octets plus loin le long des lignes "
    "de A et 2048 octets plus loin dans B ; les consommateurs attendent la barrière full de "
    "l'étage (parité (t / kWgmmaStages) & 1) avant leurs wgmma, et ne libèrent l'étage "
    "précédent qu'après wgmma_wait<1>() ; d est mis à 0 avant la première tranche."};
const Message kWgmmaUnfinishedHint{
    "step 4 that crashes or never ends: a wait on the wrong parity ((t / kWgmmaStages) & 1 for "
    "full, (t / kWgmmaStages - 1) & 1 for empty), an empty barrier initialised for another "
    "count than the kConsumerWarps arrivals it gets, bytes announced with expect_tx that no copy "
    "brings, or kWgmmaSharedBytes of dynamic shared memory not asked for.",
    "l'étape 4 plante ou ne finit jamais : une attente sur la mauvaise parité "
    "((t / kWgmmaStages) & 1 pour full, (t / kWgmmaStages - 1) & 1 pour empty), une barrière "
    "empty initialisée pour un autre nombre que les kConsumerWarps arrivées qu'elle reçoit, des "
    "octets annoncés par expect_tx qu'aucune copie n'apporte, ou les kWgmmaSharedBytes de "
    "mémoire partagée dynamique non demandés."};
const Message kWgmmaFallbackHint{
    "step 4 with n or k not a multiple of 8 (TMA cannot read rows that are not a multiple of "
    "16 bytes long): hgemm_wgmma_tma_on_device runs hgemm_mma_pipeline_on_device instead.",
    "l'étape 4 quand n ou k n'est pas multiple de 8 (TMA ne peut pas lire des lignes dont la "
    "longueur n'est pas multiple de 16 octets) : hgemm_wgmma_tma_on_device exécute "
    "hgemm_mma_pipeline_on_device à la place."};
const Message kBoundNote{
    "(each element must be within 2 (k + 1) 2^-23 sum_p |A(i, p) B(p, j)| of the float64 "
    "result: an FP32 accumulation of exact FP16 products)",
    "(chaque élément doit être à 2 (k + 1) 2^-23 sum_p |A(i, p) B(p, j)| près du résultat en "
    "float64 : une accumulation FP32 de produits FP16 exacts)"};

// ---------------------------------------------------------------------------
// The steps
// ---------------------------------------------------------------------------
struct StepInfo {
  const char* name;  // the program's
  const char* launcher;
  Message title;     // for a person
  int needs_arch;    // 10 major + minor
  bool wmma;         // steps 1 and 2
  bool block_tiles;  // steps 2, 3 and 4: tiles shared by a block
  // Step 4: it uses needs_arch's specific features (sm_90a), and runs on that very
  // architecture alone, from code built for its "a" target.
  bool specific = false;
};
// The oldest architecture the course supports: WMMA on FP16 runs on all of them.
constexpr int kOldestCourseArch = 75;
const StepInfo kOneWarp{"one_warp",
                        "hgemm_wmma_one_warp_on_device",
                        Message{"step 1", "l'étape 1"},
                        kOldestCourseArch,
                        true,
                        false};
const StepInfo kSharedTiles{"shared_tiles",
                            "hgemm_wmma_shared_tiles_on_device",
                            Message{"step 2", "l'étape 2"},
                            kOldestCourseArch,
                            true,
                            true};
const StepInfo kMmaPipeline{"mma_pipeline",
                            "hgemm_mma_pipeline_on_device",
                            Message{"step 3 (mma.sync, ldmatrix, cp.async)",
                                    "l'étape 3 (mma.sync, ldmatrix, cp.async)"},
                            80,
                            false,
                            true};
// Steps 1 to 3, graded for everyone (the hidden shape runs them all).
const StepInfo* const kSteps[] = {&kOneWarp, &kSharedTiles, &kMmaPipeline};
// Step 4, "going further": optional, graded by its own cases alone.
const StepInfo kWgmmaTma{"wgmma_tma",
                         "hgemm_wgmma_tma_on_device",
                         Message{"step 4 (wgmma and TMA, Hopper)",
                                 "l'étape 4 (wgmma et TMA, Hopper)"},
                         90,
                         false,
                         true,
                         true};

// Why `step` cannot run on this GPU with this program's code (the program reports both,
// course/check/architecture.hpp decides), or nothing when it can. A run that goes wrong
// fails the case (`failed`).
std::optional<Message> why_not_runnable(CaseContext& c, const StepInfo& step, bool& failed) {
  failed = false;
  if (step.needs_arch <= kOldestCourseArch) return std::nullopt;
  const Run run = c.run(request::architecture, {});
  std::int64_t device = 0, code = 0, specific = 0;
  if (!c.finished(run) || !c.read_value(run, result::device_cc.name, device) ||
      !c.read_value(run, result::code_arch.name, code) ||
      !c.read_value(run, result::code_specific.name, specific)) {
    failed = true;
    return std::nullopt;
  }
  const course::Architectures found{static_cast<int>(device), static_cast<int>(code),
                                    static_cast<int>(specific)};
  return step.specific
             ? course::check::why_not_runnable_specific(step.title, step.needs_arch, found)
             : course::check::why_not_runnable(step.title, step.needs_arch, found);
}

// True when `step` can run here; otherwise the case is not graded, with the reason.
bool runnable_here(CaseContext& c, const StepInfo& step) {
  bool failed = false;
  const std::optional<Message> reason = why_not_runnable(c, step, failed);
  if (failed) return false;
  if (!reason) return true;
  c.not_graded(*reason);
  return false;
}

// ---------------------------------------------------------------------------
// One product, every element compared
// ---------------------------------------------------------------------------
struct Product {
  int m, n, k;
  bool positive;  // inputs in [0, 1]: the long-k cases
};

Message describe(const StepInfo& step, const Product& p) {
  return Message{"{} on {} x {} x {} (m x n x k){}", "{} sur {} x {} x {} (m x n x k){}"}.with(
      step.launcher, p.m, p.n, p.k,
      p.positive ? Message{", inputs in [0, 1]", ", entrées dans [0 ; 1]"} : Message{});
}

// The largest tiles of C are 128 x 256 (step 3; step 2's are 128 x 128), the largest slice
// of k 32.
constexpr int kLargestTileM = 128;
constexpr int kLargestTileN = 256;
constexpr int kLargestSlice = 32;

// True when no step's tiles reach past the edges of A, B or C.
bool multiples_of_every_tile(const Product& p) {
  return p.m % kLargestTileM == 0 && p.n % kLargestTileN == 0 && p.k % kLargestSlice == 0;
}

// Step 4: its block tiles (128 x 256, slices of 64), and the shapes TMA can read (rows of a
// multiple of 16 bytes: n and k multiples of 8); the others go to step 3.
constexpr int kWgmmaTileM = 128;
constexpr int kWgmmaTileN = 256;
constexpr int kWgmmaSlice = 64;
constexpr int kTmaRowHalves = 8;
bool multiples_of_the_wgmma_tile(const Product& p) {
  return p.m % kWgmmaTileM == 0 && p.n % kWgmmaTileN == 0 && p.k % kWgmmaSlice == 0;
}
bool takes_tma(const Product& p) { return p.n % kTmaRowHalves == 0 && p.k % kTmaRowHalves == 0; }

// The hints for a wrong C of `step`, from what the wrong elements look like.
void diagnose(CaseContext& c, const StepInfo& step, const Product& p, const sgemm::Verdict& v) {
  if (!course::check::hint_unwritten(
          c, step.launcher, v,
          {"each warp writes every element of its tiles inside C.",
           "chaque warp écrit chaque élément de ses tuiles à l'intérieur de C."})) {
    return;
  }
  // Only too large an error, on inputs that cannot cancel: the precision of the sums.
  if (p.positive && v.nan == 0 && v.unwritten == 0) {
    c.hint(kFp32AccumulationHint);
    return;
  }
  if (&step == &kWgmmaTma) {
    if (!takes_tma(p)) {
      c.hint(kWgmmaFallbackHint);
      c.hint(kPipelineHint);
      return;
    }
    if (!multiples_of_the_wgmma_tile(p)) c.hint(kWgmmaEdgeHint);
    c.hint(kWgmmaHint);
    return;
  }
  if (!multiples_of_every_tile(p) || v.nan > 0) c.hint(kEdgeHint);
  if (step.wmma) c.hint(kLayoutHint);
  c.hint(kAccumulatorHint);
  c.hint(kBarrierHint);
  if (&step == &kSharedTiles) c.hint(kDoubleBufferHint);
  if (&step == &kMmaPipeline) {
    c.hint(kSwizzleHint);
    c.hint(kPipelineHint);
  }
}

bool check_product(CaseContext& c, const StepInfo& step, const Product& p) {
  const Run run = c.run(request::gemm, {step.name, p.m, p.n, p.k, p.positive});
  const Message what = describe(step, p);
  if (!c.finished(run)) {
    c.note(Message::verbatim("({})").with(what));
    c.hint(&step == &kWgmmaTma && takes_tma(p) ? kWgmmaUnfinishedHint : kEdgeHint);
    return false;
  }
  if (!c.expect_kernel_launched(run)) return false;
  const Problem problem = tensor_core_gemm::make_problem(p.m, p.n, p.k, p.positive, c.seed());
  const std::size_t elements = static_cast<std::size_t>(p.m) * p.n;
  std::vector<float> got;
  if (!CaseContext::reported(run, result::c) || !c.read_array(run, result::c, got) ||
      got.size() != elements) {
    c.fail(Message{"the program reported no C of {} floats ({})",
                   "le programme n'a rendu aucun C de {} floats ({})"}
               .with(elements, what));
    return false;
  }
  const sgemm::Verdict v =
      tensor_core_gemm::compare_elements(problem, sgemm::every_element(problem.shape), got);
  if (v.right()) return true;
  c.fail(Message{"{}: {}", "{} : {}"}.with(what, course::check::describe(v)));
  c.note(kBoundNote);
  diagnose(c, step, p, v);
  return false;
}

// Several products, stopping at the first failure; not graded where the step cannot run.
void check_products(CaseContext& c, const StepInfo& step, const std::vector<Product>& products) {
  if (!runnable_here(c, step)) return;
  for (const Product& p : products) {
    if (!check_product(c, step, p)) return;
  }
}

// ---------------------------------------------------------------------------
// The shapes
// ---------------------------------------------------------------------------
// Multiples of every tile (16 and 32, 128 x 128, 128 x 256): square with a long k (64 slices of 16 per
// warp in step 1, 32 of 32 per block in steps 2 and 3: a missing barrier has thousands of
// chances to show; 8 under compute-sanitizer, whose racecheck finds it every time), and
// non-square with m, n, k apart.
constexpr int kTileMultiplesK = 1024;
constexpr int kSanitizerTileMultiplesK = 128;

std::vector<Product> tile_multiples(const CaseContext& c) {
  return {{256, 256, c.under_sanitizer() ? kSanitizerTileMultiplesK : kTileMultiplesK, false},
          {128, 512, 64, false}};
}
// Sizes that leave partial tiles in every direction, k below one WMMA step, thin shapes,
// rows of an odd length (no 16-byte chunk is aligned), and the smallest product.
const std::vector<Product> kEdges = {{37, 53, 61, false},  {129, 131, 7, false},
                                     {200, 3, 300, false}, {130, 257, 33, false},
                                     {72, 136, 40, false}, {1, 1, 1, false}};
// Inputs in [0, 1] and k = 4096: the sums reach about 1024, where an FP16 accumulator
// rounds to whole numbers (harness/workload.hpp). Under compute-sanitizer a short k.
constexpr int kLongK = 4096;
constexpr int kSanitizerLongK = 256;
std::vector<Product> long_k(const CaseContext& c) {
  return {{128, 128, c.under_sanitizer() ? kSanitizerLongK : kLongK, true}};
}

// Step 4's own shapes, on its 128 x 256 tiles and slices of 64. Multiples of the tile: a
// long k (16 slices through 4 stages: every stage refilled 3 times), and one block of one
// slice. Edges: n and k multiples of 8 (what TMA reads), m, n and k off the tiles in every
// way: m % 128, n % 256 and n % 64 (a partial box of B, and boxes of B left out), k % 64 (a
// partial last slice), k below one slice, n below one box, the smallest product. Then n or k
// not a multiple of 8: step 3's launcher runs instead.
constexpr int kWgmmaTileMultiplesK = 1024;
constexpr int kSanitizerWgmmaTileMultiplesK = 128;
std::vector<Product> wgmma_tile_multiples(const CaseContext& c) {
  return {{256, 512, c.under_sanitizer() ? kSanitizerWgmmaTileMultiplesK : kWgmmaTileMultiplesK,
           false},
          {128, 256, 64, false}};
}
const std::vector<Product> kWgmmaEdges = {{37, 56, 64, false},  {129, 136, 8, false},
                                          {200, 8, 304, false}, {130, 264, 40, false},
                                          {72, 136, 40, false}, {300, 520, 200, false},
                                          {1, 8, 8, false}};
std::vector<Product> wgmma_long_k(const CaseContext& c) {
  return {{128, 256, c.under_sanitizer() ? kSanitizerLongK : kLongK, true}};
}
const std::vector<Product> kNotMultiplesOf8 = {{37, 53, 64, false}, {72, 136, 33, false}};

// A shape drawn from the seed, the same for every step.
constexpr int kHiddenMaxSize = 300;
constexpr std::uint64_t kHiddenShapeSalt = 2626;

Product hidden_product(std::uint64_t seed) {
  course::Rng rng(course::derive_seed(seed, kHiddenShapeSalt));
  const sgemm::Shape shape = sgemm::draw_shape(rng, kHiddenMaxSize);
  return Product{shape.m, shape.n, shape.k, false};
}

// Steps 1 to 3, those that can run here (step 3 is left out, with a note, where it cannot).
void check_hidden(CaseContext& c) {
  const Product p = hidden_product(c.seed());
  for (const StepInfo* step : kSteps) {
    bool failed = false;
    const std::optional<Message> reason = why_not_runnable(c, *step, failed);
    if (failed) return;
    if (reason) {
      c.note(Message{"(left out: {})", "(laissée de côté : {})"}.with(*reason));
      continue;
    }
    if (!check_product(c, *step, p)) return;
  }
}

// ---------------------------------------------------------------------------
// Speed: each step's share of cublasGemmEx's TFLOP/s at 4096^3, in the same run
// ---------------------------------------------------------------------------
// Bars measured on the H200 (the GPU suite, 2026-12-06) and the H100 (the suite and three
// calibration gradings, 2026-12-07; tests/speed_bars.md): at least 10% under the reference
// solution's lower figure. Steps 2 and 3 became faster on 2026-12-07 (a register prefetch
// into two buffers; 128 x 256 tiles with swizzled stages): their figures are the H100's,
// three gradings, and step 2's bar rose from 0.12 to 0.25 so that the prefetch is needed
// (the single-buffer loop measured 0.15), with a margin of 42% for the H200 (the old
// kernels measured the same share on both). Step 3's copy loops, unrolled, then measured
// 0.45 on the H100 (one grading, 2026-12-07, in a run where cuBLAS was slower than in the
// earlier ones: step 2 measured 0.375 there) and 0.44 in the GPU suite the same day (step
// 2: 0.359): its bar stays 0.3. With 4 stages instead of 3 it measured 0.461 in the GPU
// suite (H100, 2026-12-07, evening; step 2: 0.375).
// Step 1 reads every tile from global memory once per warp: a low bar, a proof that it
// uses the tensor cores at all.
constexpr course::check::SpeedBar kOneWarpBar{
    "hgemm_wmma_one_warp_on_device's share of cuBLAS (cublasGemmEx, FP16 in, FP32 compute)",
    course::check::BarKind::at_least,
    0.02,
    "0.030 on H100 and H200",
    "part des TFLOP/s de cuBLAS (cublasGemmEx, entrées FP16, calcul FP32) atteinte par "
    "hgemm_wmma_one_warp_on_device",
    "0,030 sur H100 et H200"};
constexpr course::check::SpeedBar kSharedTilesBar{
    "hgemm_wmma_shared_tiles_on_device's share of cuBLAS (cublasGemmEx, FP16 in, FP32 compute)",
    course::check::BarKind::at_least,
    0.25,
    "0.36-0.38 on H100",
    "part des TFLOP/s de cuBLAS (cublasGemmEx, entrées FP16, calcul FP32) atteinte par "
    "hgemm_wmma_shared_tiles_on_device",
    "0,36 à 0,38 sur H100"};
constexpr course::check::SpeedBar kMmaPipelineBar{
    "hgemm_mma_pipeline_on_device's share of cuBLAS (cublasGemmEx, FP16 in, FP32 compute)",
    course::check::BarKind::at_least,
    0.3,
    "0.56 on H100",
    "part des TFLOP/s de cuBLAS (cublasGemmEx, entrées FP16, calcul FP32) atteinte par "
    "hgemm_mma_pipeline_on_device",
    "0,56 sur H100"};
// Step 4 against cuBLAS: the reference solution measured 0.94-0.95 on the H100 (the GPU
// suite and six gradings, 2026-12-07). The bar, 0.7, keeps a margin of 34% for the
// H200, not measured yet, whose extra bandwidth helps cuBLAS and the kernel alike; step 4
// runs on sm_90 GPUs only.
constexpr course::check::SpeedBar kWgmmaTmaBar{
    "hgemm_wgmma_tma_on_device's share of cuBLAS (cublasGemmEx, FP16 in, FP32 compute)",
    course::check::BarKind::at_least,
    0.7,
    "0.94-0.95 on H100",
    "part des TFLOP/s de cuBLAS (cublasGemmEx, entrées FP16, calcul FP32) atteinte par "
    "hgemm_wgmma_tma_on_device",
    "0,94 à 0,95 sur H100"};
constexpr int kSpeedRepetitions = 10;
constexpr int kSanitizerSpeedRepetitions = 1;

const Message kOneWarpSpeedHint{
    "speed of step 1: one warp per 16 x 16 tile of C, a 16 x 16 x 16 mma_sync per slice of 16, "
    "fragments loaded from the warp's staging tile; the grid covers C with 2 x 2 warps a block.",
    "vitesse de l'étape 1 : un warp par tuile de C de 16 x 16, un mma_sync 16 x 16 x 16 par "
    "tranche de 16, des fragments chargés depuis la tuile de transit du warp ; la grille couvre "
    "C avec 2 x 2 warps par bloc."};
const Message kSharedTilesSpeedHint{
    "speed of step 2: a 128 x 128 tile of C per block of 8 warps, slices of 32 of k in padded "
    "shared memory copied 16 bytes at a time, two buffers: the next slice's loads into "
    "registers issued before this slice's MMAs, stored after them, one __syncthreads() per "
    "slice; 4 x 2 fragments of C per warp, each fragment of A used twice and each of B four "
    "times.",
    "vitesse de l'étape 2 : une tuile de C de 128 x 128 par bloc de 8 warps, des tranches de 32 "
    "de k en mémoire partagée avec remplissage, copiées 16 octets à la fois, deux tampons : les "
    "chargements de la tranche suivante dans des registres lancés avant les MMA de cette "
    "tranche, écrits après eux, un seul __syncthreads() par tranche ; 4 x 2 fragments de C par "
    "warp, chaque fragment de A servant deux fois et chaque fragment de B quatre fois."};
const Message kMmaPipelineSpeedHint{
    "speed of step 3: 128 x 256 tiles of C, kPipelineStages stages of cp.async copies (all but "
    "one in flight), one barrier per slice, fragments by ldmatrix (x4, and .trans for B) from "
    "swizzled tiles, loaded one k-step ahead into a second set of registers, 4 x 8 m16n8k16 "
    "MMAs per warp and k-step, no bounds test inside the product loop, every loop over the "
    "fragments unrolled (no local memory).",
    "vitesse de l'étape 3 : des tuiles de C de 128 x 256, kPipelineStages étages de copies "
    "cp.async (tous en vol sauf un), une barrière par tranche, des fragments chargés par "
    "ldmatrix (x4, et .trans pour B) depuis des tuiles entrelacées (swizzle), un pas de k à "
    "l'avance dans un second jeu de registres, 4 x 8 MMA m16n8k16 par warp et par pas de k, "
    "aucun test de bornes dans la boucle du produit, chaque boucle sur les fragments déroulée "
    "(pas de mémoire locale)."};

const Message kWgmmaTmaSpeedHint{
    "speed of step 4: 128 x 256 tiles of C, TMA copies through 4 stages that the producer "
    "refills as soon as the consumers free them, 4 wgmma m64n256k16 per slice and consumer "
    "with one commit, wgmma_wait<1>() (not 0) so that the next slice's wgmmas overlap, and the "
    "tensor maps made once per call.",
    "vitesse de l'étape 4 : des tuiles de C de 128 x 256, des copies TMA à travers 4 étages "
    "que le producteur remplit dès que les consommateurs les libèrent, 4 wgmma m64n256k16 par "
    "tranche et par consommateur avec un seul commit, wgmma_wait<1>() (pas 0) pour que les "
    "wgmma de la tranche suivante se superposent, et les tensor maps créées une fois par "
    "appel."};

double tflops(int size, double ms) {
  return 2.0 * size * size * static_cast<double>(size) / (ms * 1e9);
}

void check_speed(CaseContext& c, const StepInfo& step, const course::check::SpeedBar& bar,
                 const Message& hint) {
  if (!runnable_here(c, step)) return;
  const int size =
      c.under_sanitizer() ? tensor_core_gemm::kSanitizerSpeedSize : tensor_core_gemm::kSpeedSize;
  const Run run =
      c.run(request::speed,
            {step.name, size, c.under_sanitizer() ? kSanitizerSpeedRepetitions : kSpeedRepetitions,
             !c.under_sanitizer()});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  const Product p{size, size, size, false};
  const Problem problem = tensor_core_gemm::make_problem(size, size, size, false, c.seed());
  std::vector<float> sampled;
  if (!CaseContext::reported(run, result::c_sampled) ||
      !c.read_array(run, result::c_sampled, sampled)) {
    c.fail({"the program reported no sampled elements of C",
            "le programme n'a rendu aucun élément échantillonné de C"});
    return;
  }
  const sgemm::Verdict v = tensor_core_gemm::compare_elements(
      problem, tensor_core_gemm::sampled_elements(problem.shape, c.seed()), sampled);
  if (!v.right()) {
    c.fail(Message{"{}, {} elements sampled: {}", "{}, {} éléments échantillonnés : {}"}.with(
        describe(step, p), v.count, course::check::describe(v)));
    diagnose(c, step, p, v);
    return;
  }
  if (!c.times_judged()) return;
  double step_ms = 0.0, cublas_ms = 0.0;
  if (!c.read_times(run, {{result::step_ms, step_ms}, {result::cublas_ms, cublas_ms}})) return;
  const Message figures =
      Message{"{}: {} ms at {}^3, {} TFLOP/s (2 m n k / time); cuBLAS (cublasGemmEx, FP16 in, "
              "FP32 compute): {} ms, {} TFLOP/s",
              "{} : {} ms en {}^3, {} TFLOP/s (2 m n k / temps) ; cuBLAS (cublasGemmEx, entrées "
              "FP16, calcul FP32) : {} ms, {} TFLOP/s"}
          .with(step.launcher, step_ms, size, tflops(size, step_ms), cublas_ms,
                tflops(size, cublas_ms));
  c.judge_speed(bar, cublas_ms / step_ms, figures, {hint});
}

// ---------------------------------------------------------------------------
// The cases: three per step, graded separately, then the hidden shape and the speed
// ---------------------------------------------------------------------------
constexpr int kTileMultiplesPoints = 2;
constexpr int kEdgesPoints = 3;
constexpr int kLongKPoints = 2;
constexpr int kNotMultiplesOf8Points = 1;

void add_step_cases(std::vector<course::check::Case>& cases, const StepInfo& step) {
  const std::string name = step.name;
  cases.push_back({name + "_multiples_of_the_tile", kTileMultiplesPoints,
                   [&step](CaseContext& c) { check_products(c, step, tile_multiples(c)); }});
  cases.push_back({name + "_edges_not_multiples_of_16", kEdgesPoints,
                   [&step](CaseContext& c) { check_products(c, step, kEdges); }});
  cases.push_back({name + "_long_k_fp32_accumulation", kLongKPoints,
                   [&step](CaseContext& c) { check_products(c, step, long_k(c)); }});
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  std::vector<course::check::Case> cases;
  for (const StepInfo* step : kSteps) add_step_cases(cases, *step);
  cases.push_back({"hidden_shape_from_seed", 3, check_hidden, course::check::kHiddenCase});
  cases.push_back(
      timed({"one_warp_2_percent_of_cublas_4096", 2,
             [](CaseContext& c) { check_speed(c, kOneWarp, kOneWarpBar, kOneWarpSpeedHint); }},
            {kOneWarpBar}));
  cases.push_back(timed({"shared_tiles_25_percent_of_cublas_4096", 4,
                         [](CaseContext& c) {
                           check_speed(c, kSharedTiles, kSharedTilesBar, kSharedTilesSpeedHint);
                         }},
                        {kSharedTilesBar}));
  cases.push_back(timed({"mma_pipeline_30_percent_of_cublas_4096", 5,
                         [](CaseContext& c) {
                           check_speed(c, kMmaPipeline, kMmaPipelineBar, kMmaPipelineSpeedHint);
                         }},
                        {kMmaPipelineBar}));
  // Step 4, "going further": its cases, worth their own points only (10 of 45).
  cases.push_back({"wgmma_tma_multiples_of_the_tile", kTileMultiplesPoints,
                   [](CaseContext& c) { check_products(c, kWgmmaTma, wgmma_tile_multiples(c)); }});
  cases.push_back({"wgmma_tma_edges_n_and_k_multiples_of_8", kEdgesPoints,
                   [](CaseContext& c) { check_products(c, kWgmmaTma, kWgmmaEdges); }});
  cases.push_back({"wgmma_tma_long_k_fp32_accumulation", kLongKPoints,
                   [](CaseContext& c) { check_products(c, kWgmmaTma, wgmma_long_k(c)); }});
  cases.push_back({"wgmma_tma_n_or_k_not_multiples_of_8", kNotMultiplesOf8Points,
                   [](CaseContext& c) { check_products(c, kWgmmaTma, kNotMultiplesOf8); }});
  cases.push_back(
      timed({"wgmma_tma_70_percent_of_cublas_4096", 2,
             [](CaseContext& c) { check_speed(c, kWgmmaTma, kWgmmaTmaBar, kWgmmaTmaSpeedHint); }},
            {kWgmmaTmaBar}));
  course::check::Exercise exercise{"26", "tensor_core_gemm", cases};
  return course::check::judge_main(argc, argv, exercise);
}
