// Exercise 22 - the check. Runs the student's program case by case and compares every
// element of each transpose with the CPU's (exactly: a transpose only moves values);
// times the padded kernel against a copy kernel of the same shape in the same run; and
// grades the shared-memory bank conflicts of the padded kernel with Nsight Compute's
// counters when ncu can read them, otherwise by the time the padding saves over the
// unpadded tile, measured in one run. Contains no student code; the profiler is run by
// this check, never trusted from the student's process.
//
//   make check-22                          (students)
//   build/.../check_22 --program PROGRAM   (instructors; --help lists the options)
//   COURSE_NCU=/path/to/ncu or COURSE_NCU=none picks or turns off the profiler.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/nsight_compute.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = transpose::request;

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------
const Message kGridHint{
    "tile_grid: grid.x counts the tiles across the columns, (cols + kTileDim - 1) / kTileDim, "
    "and grid.y the tiles down the rows, (rows + kTileDim - 1) / kTileDim.",
    "tile_grid : grid.x compte les tuiles dans le sens des colonnes, (cols + kTileDim - 1) / "
    "kTileDim, et grid.y les tuiles dans le sens des lignes, (rows + kTileDim - 1) / kTileDim."};
const Message kRowLoopHint{
    "each thread handles kTileDim / kBlockRows elements of its tile's column: rows "
    "threadIdx.y + j for j = 0 while j < kTileDim, j += kBlockRows (the block has kBlockRows "
    "rows of threads, not kTileDim).",
    "chaque thread traite kTileDim / kBlockRows éléments de sa colonne de la tuile : les "
    "lignes threadIdx.y + j pour j = 0 tant que j < kTileDim, j += kBlockRows (le bloc a "
    "kBlockRows lignes de threads, pas kTileDim)."};
const Message kNaiveIndexHint{
    "transpose_naive: col = blockIdx.x * kTileDim + threadIdx.x, row = blockIdx.y * kTileDim + "
    "threadIdx.y + j, and out[col * rows + row] = in[row * cols + col] where row < rows and "
    "col < cols.",
    "transpose_naive : col = blockIdx.x * kTileDim + threadIdx.x, row = blockIdx.y * kTileDim "
    "+ threadIdx.y + j, et out[col * rows + row] = in[row * cols + col] là où row < rows et "
    "col < cols."};
const Message kSyncHint{
    "__syncthreads() between the tile's write and its read: a warp reads a column of the "
    "tile, which the other warps of the block wrote.",
    "__syncthreads() entre l'écriture de la tuile et sa lecture : un warp lit une colonne de "
    "la tuile, que les autres warps du bloc ont écrite."};
const Message kBlockSwapHint{
    "on the way out the tile lands at the mirrored place: blockIdx.x and blockIdx.y swap roles "
    "(out's row blockIdx.x * kTileDim + threadIdx.y + j, its column blockIdx.y * kTileDim + "
    "threadIdx.x).",
    "à l'écriture, la tuile arrive à la place symétrique : blockIdx.x et blockIdx.y échangent "
    "leurs rôles (ligne de out blockIdx.x * kTileDim + threadIdx.y + j, colonne "
    "blockIdx.y * kTileDim + threadIdx.x)."};
const Message kTileIndexHint{
    "on the way out a warp reads a column of the tile: out's element gets "
    "tile[threadIdx.x][threadIdx.y + j] (written as tile[threadIdx.y + j][threadIdx.x]).",
    "à l'écriture, un warp lit une colonne de la tuile : l'élément de out reçoit "
    "tile[threadIdx.x][threadIdx.y + j] (écrit en tile[threadIdx.y + j][threadIdx.x])."};
const Message kCopyHint{
    "the output is a copy of the input, not its transpose: out is cols x rows, element (c, r) "
    "at c * rows + r.",
    "la sortie est une copie de l'entrée, pas sa transposée : out est cols x rows, l'élément "
    "(c, r) à c * rows + r."};
const Message kPaddingHint{
    "pad the tile's rows, not its columns: each row one float longer, __shared__ float "
    "tile[kTileDim][kTileDim + 1] (one column of padding: a column of the tile then falls in 32 "
    "different banks); [kTileDim + 1][kTileDim] adds a row and leaves every column in one bank.",
    "ajoutez le remplissage aux lignes de la tuile, pas à ses colonnes : chaque ligne plus "
    "longue d'un float, __shared__ float tile[kTileDim][kTileDim + 1] (une colonne de "
    "remplissage : une colonne de la tuile tombe alors dans 32 bancs différents) ; "
    "[kTileDim + 1][kTileDim] ajoute une ligne et laisse chaque colonne dans un seul banc."};

std::string shape_text(int rows, int cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// ---------------------------------------------------------------------------
// The grid
// ---------------------------------------------------------------------------
void check_grid(CaseContext& c) {
  const Run run = c.run(request::grid, {});
  if (!c.finished(run)) return;
  std::vector<std::int32_t> expected;
  for (const transpose::Shape& shape : transpose::kGridShapes) {
    expected.insert(expected.end(),
                    {transpose::tiles_across(shape.cols), transpose::tiles_across(shape.rows), 1});
  }
  if (!c.expect_array(run, transpose::result::grids, expected, course::kExact, kGridHint)) {
    std::string shapes;
    for (const transpose::Shape& shape : transpose::kGridShapes) {
      shapes += (shapes.empty() ? "" : ", ") + shape_text(shape.rows, shape.cols);
    }
    c.note(Message{"(grids: x, y, z of tile_grid(rows, cols) for {}, in turn)",
                   "(grilles : x, y, z de tile_grid(rows, cols) pour {}, dans l'ordre)"}
               .with(shapes));
  }
}

// ---------------------------------------------------------------------------
// The transposes, every element
// ---------------------------------------------------------------------------

// True when most of the output holds the input at the same index: a copy.
bool looks_copied(const std::vector<float>& got, int rows, int cols, std::uint64_t seed) {
  if (rows == 1 || cols == 1) return false;  // there a copy is the transpose
  std::size_t same = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k] == transpose::input_value(seed, static_cast<std::int64_t>(k))) ++same;
  }
  return same * 10 >= got.size() * 9;  // nine elements in ten or more
}

// The two classic index mistakes of a tile kernel, by the input element that element
// (R, C) of out (row R < cols, column C < rows) then receives: the block's tile written
// back where it was read (the block indices not swapped), or each tile landing in its
// place but copied, not transposed (the tile indices not swapped).
enum class TileMistake { blocks_not_swapped, tile_not_transposed };

bool source_under(TileMistake mistake, int rows, int cols, std::int64_t R, std::int64_t C,
                  std::int64_t& source) {
  const std::int64_t R0 = R - R % kTileDim, C0 = C - C % kTileDim;
  const std::int64_t r =
      mistake == TileMistake::blocks_not_swapped ? R0 + C % kTileDim : C0 + R % kTileDim;
  const std::int64_t c =
      mistake == TileMistake::blocks_not_swapped ? C0 + R % kTileDim : R0 + C % kTileDim;
  source = r * cols + c;
  return r < rows && c < cols;
}

// True when nine wrong elements in ten or more (written, not in their place) are what
// `mistake` puts there. (Right elements say nothing: on small matrices many of them are
// also what a mistake would put there.)
bool looks_like(TileMistake mistake, const std::vector<float>& got, int rows, int cols,
                std::uint64_t seed) {
  std::size_t compared = 0, matching = 0;
  for (std::int64_t R = 0; R < cols; ++R) {
    for (std::int64_t C = 0; C < rows; ++C) {
      const std::int64_t k = R * rows + C;
      const float value = got[static_cast<std::size_t>(k)];
      std::int64_t source = 0;
      if (course::is_poison(value) || !source_under(mistake, rows, cols, R, C, source) ||
          value == transpose::input_value(seed, transpose::source_index(k, rows, cols))) {
        continue;
      }
      ++compared;
      if (value == transpose::input_value(seed, source)) ++matching;
    }
  }
  return compared > 0 && matching * 10 >= compared * 9;
}

// Hints for a wrong output of `kernel`, from what kind of wrong it is.
void hint_wrong_output(CaseContext& c, const Run& run, const std::string& kernel, int rows,
                       int cols) {
  std::vector<float> got;
  if (!CaseContext::reported(run, transpose::result::out)) return;  // expect_array said so
  c.read_array(run, transpose::result::out, got);
  std::size_t unwritten = 0;
  for (const float v : got) unwritten += course::is_poison(v) ? 1 : 0;
  if (looks_copied(got, rows, cols, c.seed())) c.hint(kCopyHint);
  if (unwritten > 0) {
    c.hint(kGridHint);
    c.hint(kRowLoopHint);
  }
  if (kernel == "naive") {
    c.hint(kNaiveIndexHint);
  } else if (looks_like(TileMistake::blocks_not_swapped, got, rows, cols, c.seed())) {
    c.hint(kBlockSwapHint);
  } else if (looks_like(TileMistake::tile_not_transposed, got, rows, cols, c.seed())) {
    c.hint(kTileIndexHint);
  } else if (unwritten < got.size()) {
    // Some elements right, others from nowhere: often a race on the tile.
    c.hint(kSyncHint);
    c.hint(kBlockSwapHint);
    c.hint(kTileIndexHint);
  }
}

// One kernel on one matrix; true when every element is in its place.
bool check_shape(CaseContext& c, const std::string& kernel, int rows, int cols) {
  const Run run = c.run(request::transpose, {kernel, rows, cols});
  const Message what =
      Message{"transpose_{} on a {} matrix", "transpose_{} sur une matrice {}"}.with(
          kernel, shape_text(rows, cols));
  if (!c.finished(run) || !c.expect_kernel_launched(run)) {
    c.note(Message::verbatim("({})").with(what));
    return false;
  }
  if (c.expect_array(run, transpose::result::out, transpose::reference(rows, cols, c.seed()),
                     course::kExact)) {
    return true;
  }
  c.note(Message{"({}: out[c * rows + r] = in[r * cols + c])",
                 "({} : out[c * rows + r] = in[r * cols + c])"}
             .with(what));
  hint_wrong_output(c, run, kernel, rows, cols);
  return false;
}

// One kernel on several shapes, stopping at the first failure.
void check_shapes(CaseContext& c, const std::string& kernel,
                  const std::vector<transpose::Shape>& shapes) {
  for (const transpose::Shape& shape : shapes) {
    if (!check_shape(c, kernel, shape.rows, shape.cols)) return;
  }
}

// Square, then sides that are not multiples of the tile: a small one first (its edge
// tiles' stray writes stay within the output's guard zone), then non-square ones whose
// tiles across and down differ (a grid with x and y swapped leaves some uncovered).
const std::vector<transpose::Shape> kSquareAndRagged = {
    {256, 256}, {33, 65}, {1000, 999}, {37, 3001}};
const std::vector<transpose::Shape> kOneRowOneColumn = {{1, 100003}, {100003, 1}, {1, 1}};

// Thousands of tiles, none a multiple of the tile: a missing barrier shows in some of them.
constexpr transpose::Shape kManyTiles{2000, 3000};
constexpr transpose::Shape kSanitizerManyTiles{200, 300};

void check_many_tiles(CaseContext& c, const std::string& kernel) {
  const transpose::Shape shape = c.under_sanitizer() ? kSanitizerManyTiles : kManyTiles;
  check_shape(c, kernel, shape.rows, shape.cols);
}

// A shape the student has not seen: drawn from the seed, so graders change it with --seed.
// Under compute-sanitizer (racecheck slows shared-memory kernels most), a smaller one.
constexpr int kHiddenMaxExtent = 3000;
constexpr int kSanitizerHiddenMaxExtent = 300;
constexpr std::uint64_t kHiddenShapeSalt = 22;

void check_hidden(CaseContext& c) {
  // A stream of its own, apart from the input drawn from the same seed.
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int most = c.under_sanitizer() ? kSanitizerHiddenMaxExtent : kHiddenMaxExtent;
  const int rows = static_cast<int>(rng.uniform_int(1, most));
  const int cols = static_cast<int>(rng.uniform_int(1, most));
  for (const char* kernel : {"naive", "tiled", "padded"}) {
    if (!check_shape(c, kernel, rows, cols)) return;
  }
}

// ---------------------------------------------------------------------------
// Speed: the speed case's run, its samples and its times
// ---------------------------------------------------------------------------

// Under compute-sanitizer a small matrix proves the launches clean; its times mean nothing.
constexpr int kSanitizerSpeedRows = 256;
constexpr int kSanitizerSpeedCols = 320;
constexpr int kSpeedRepetitions = 20;
constexpr double kSpeedTimeoutSeconds = 120.0;

struct SpeedRun {
  Run run;
  int rows = 0, cols = 0;
  double copy_ms = 0.0, naive_ms = 0.0, tiled_ms = 0.0, padded_ms = 0.0, memcpy_gbps = 0.0;
  bool sample_right[3] = {false, false, false};  // naive, tiled, padded
};

const char* const kKernels[] = {"naive", "tiled", "padded"};

// Runs the speed case and compares each kernel's sample; false (the case failed) when the
// program did not finish it. A wrong sample does not fail here: the caller decides.
bool run_speed(CaseContext& c, SpeedRun& s) {
  const bool sanitized = c.under_sanitizer();
  s.rows = sanitized ? kSanitizerSpeedRows : transpose::kSpeedExtent;
  s.cols = sanitized ? kSanitizerSpeedCols : transpose::kSpeedExtent;
  s.run = c.run(request::speed, {s.rows, s.cols, sanitized ? 1 : kSpeedRepetitions, !sanitized}, 0,
                kSpeedTimeoutSeconds);
  const Run& run = s.run;
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return false;
  // What every timed kernel computed: every kSampleStride-th element of its output.
  std::vector<float> expected;
  const std::int64_t count = static_cast<std::int64_t>(s.rows) * s.cols;
  for (std::int64_t k = 0; k < count; k += transpose::kSampleStride) {
    expected.push_back(
        transpose::input_value(c.seed(), transpose::source_index(k, s.rows, s.cols)));
  }
  for (int k = 0; k < 3; ++k) {
    // The key fixes the type: a sample reported is read, then its size checked.
    std::vector<float> got;
    if (!CaseContext::reported(run, transpose::result::sample(kKernels[k])) ||
        !c.read_array(run, transpose::result::sample(kKernels[k]), got) ||
        got.size() != expected.size()) {
      continue;
    }
    s.sample_right[k] =
        course::compare(got.data(), expected.data(), expected.size(), course::kExact).ok();
  }
  return true;
}

// The times of the speed run, then the device-to-device copy's GB/s; false (the case
// failed) when a timed call did not do its work or a time is missing or not positive.
bool read_speed_times(CaseContext& c, SpeedRun& s) {
  return c.read_times(s.run, {{transpose::result::copy_ms, s.copy_ms},
                              {transpose::result::kernel_ms(kKernels[0]), s.naive_ms},
                              {transpose::result::kernel_ms(kKernels[1]), s.tiled_ms},
                              {transpose::result::kernel_ms(kKernels[2]), s.padded_ms}}) &&
         c.read_value(s.run, transpose::result::copy_gbps, s.memcpy_gbps);
}

// A kernel's figures for a person: ms, GB/s = 2 * 4 B * rows * cols / time, % of the copy.
Message figures(const SpeedRun& s, const std::string& name, double ms) {
  const double bytes = transpose::bytes_moved(s.rows, s.cols);
  const double gbps = ms > 0.0 ? bytes / (ms * 1e6) : 0.0;
  const double copy_gbps = s.copy_ms > 0.0 ? bytes / (s.copy_ms * 1e6) : 0.0;
  return Message{"{} {} ms, {} GB/s ({}% of the copy)", "{} {} ms, {} GB/s ({} % de la copie)"}
      .with(name, ms, gbps, copy_gbps > 0.0 ? 100.0 * gbps / copy_gbps : 0.0);
}

// The sample of `kernel` (0 naive, 1 tiled, 2 padded) must be right before its time counts.
bool expect_sample(CaseContext& c, const SpeedRun& s, int kernel) {
  if (s.sample_right[kernel]) return true;
  c.fail(Message{"transpose_{} on {}: a sample of every {}th element of its output is wrong (see "
                 "its own cases)",
                 "transpose_{} sur {} : un échantillon de sa sortie (un élément sur {}) est faux "
                 "(voir ses propres cas)"}
             .with(kKernels[kernel], shape_text(s.rows, s.cols), transpose::kSampleStride));
  return false;
}

// The padded transpose against the copy kernel of the same shape (GB/s = 2 * 4 B * rows
// * cols / time for both; tests/speed_bars.md). Padded, its reads and writes are whole rows
// and its tile conflict-free: it moves the same bytes as the copy, plus a barrier per
// tile. The unpadded tile measured 0.64 on an H100 (its 32-way conflicts cap an H100 near
// 1850 GB/s, 132 SMs x 1.75 GHz x 8 B), the padding on the wrong dimension 0.54-0.65.
constexpr course::check::SpeedBar kCopyBar{
    "transpose_padded's share of the copy kernel's GB/s",
    course::check::BarKind::at_least,
    0.85,
    "1.10-1.11 on H100, 1.17 on H200",
    "part du débit du kernel de copie atteinte par transpose_padded",
    "1.10-1.11 sur H100, 1.17 sur H200"};

void check_speed(CaseContext& c) {
  SpeedRun s;
  if (!run_speed(c, s) || !expect_sample(c, s, 2)) return;
  if (!c.times_judged() || !read_speed_times(c, s)) return;
  const double share = s.copy_ms / s.padded_ms;
  Message line = Message{"on {} floats: {}; {}", "sur {} floats : {} ; {}"}.with(
      shape_text(s.rows, s.cols), figures(s, "copy_tile_shaped", s.copy_ms),
      figures(s, "transpose_padded", s.padded_ms));
  for (int k = 0; k < 2; ++k) {
    const std::string name = std::string("transpose_") + kKernels[k];
    line += Message{"; {}", " ; {}"}.with(
        s.sample_right[k] ? figures(s, name, k == 0 ? s.naive_ms : s.tiled_ms)
                          : Message{"{} (wrong result: no figure)", "{} (résultat faux : pas de "
                                                                    "chiffre)"}
                                .with(name));
  }
  c.note(line + Message{"; a device-to-device cudaMemcpy: {} GB/s",
                        " ; un cudaMemcpy device vers device : {} GB/s"}
                    .with(s.memcpy_gbps));
  c.judge_speed(
      kCopyBar, share, {},
      {kPaddingHint,
       Message{"both global accesses must be rows: the tile is read with threadIdx.x along the "
               "input's columns, and written with threadIdx.x along out's columns.",
               "les deux accès à la mémoire globale doivent se faire par lignes : la tuile est "
               "lue avec threadIdx.x le long des colonnes de l'entrée, et écrite avec "
               "threadIdx.x le long des colonnes de out."}});
}

// ---------------------------------------------------------------------------
// Bank conflicts: Nsight Compute's counters, or the time the padding saves without them
// ---------------------------------------------------------------------------
const char* const kPaddedKernel = "transpose_padded";
const std::vector<std::string> kSharedMetrics = {
    // Excess wavefronts: beyond the fewest that the warp's access could take.
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    // Every wavefront (one cycle of the 32 banks) that shared loads and stores took.
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
};

// Small enough that ncu's replay is quick, a whole number of tiles, many blocks.
constexpr int kProfileRows = 1024;
constexpr int kProfileCols = 1024;
constexpr int kSanitizerProfileRows = 96;
constexpr int kSanitizerProfileCols = 64;

// A warp's 32 stores of a tile row go to 32 banks: 1 wavefront, no conflict. Its 32 loads
// of a tile column fall kPitch floats apart, in bank (lane * kPitch + column) % 32: with
// kPitch = 33, 32 banks, 1 wavefront; with kPitch = 32 (no padding, or the padding on the
// rows), one bank, 32 wavefronts of which 31 are conflicts. Each warp stores 4 tile rows
// and loads 4 tile columns: 8 wavefronts padded; 4 + 4 x 32 = 132 unpadded, 124 of them
// conflicts, a share of 0.94.
// Graded as zero: at most 1 conflict in 100 wavefronts (counter noise, never a pattern).
constexpr double kMaxConflictShare = 0.01;

// ncu starts slowly (several seconds) and replays the kernel once per pass.
constexpr double kProfilerTimeoutSeconds = 180.0;

// Graded with the counters; false when ncu could not measure (the caller falls back).
bool grade_with_profiler(CaseContext& c, const std::string& ncu) {
  Run run;
  course::check::NcuReading reading;
  if (!course::check::profile_case(c, ncu, kSharedMetrics, kPaddedKernel, request::transpose,
                                   {"padded", kProfileRows, kProfileCols}, kProfilerTimeoutSeconds,
                                   run, reading)) {
    return false;
  }
  c.note(Message{"graded by Nsight Compute ({}): shared-memory accesses of {} on a {} matrix",
                 "noté par Nsight Compute ({}) : accès à la mémoire partagée de {} sur une "
                 "matrice {}"}
             .with(ncu, kPaddedKernel, shape_text(kProfileRows, kProfileCols)));
  if (!c.finished(run) || !c.expect_kernel_launched(run) ||
      !c.expect_array(run, transpose::result::out,
                      transpose::reference(kProfileRows, kProfileCols, c.seed()), course::kExact)) {
    return true;
  }
  const double conflicts =
      reading.values.at(kSharedMetrics[0]) + reading.values.at(kSharedMetrics[1]);
  const double wavefronts =
      reading.values.at(kSharedMetrics[2]) + reading.values.at(kSharedMetrics[3]);
  if (!(wavefronts > 0.0)) {
    c.fail(Message{"{} made no shared-memory access: it does not go through a tile in shared "
                   "memory",
                   "{} n'a fait aucun accès à la mémoire partagée : il ne passe pas par une "
                   "tuile en mémoire partagée"}
               .with(kPaddedKernel));
    c.hint(kPaddingHint);
    return true;
  }
  const double share = conflicts / wavefronts;
  c.note(Message{"{} bank conflicts (loads {}, stores {}) in {} shared-memory wavefronts: a "
                 "share of {} (0 for a padded tile, 0.94 for an unpadded one; the case accepts "
                 "at most {})",
                 "{} conflits de banc (lectures {}, écritures {}) en {} wavefronts de mémoire "
                 "partagée : une part de {} (0 pour une tuile avec remplissage, 0,94 sans ; "
                 "le cas accepte au plus {})"}
             .with(conflicts, reading.values.at(kSharedMetrics[0]),
                   reading.values.at(kSharedMetrics[1]), wavefronts, share, kMaxConflictShare));
  if (share > kMaxConflictShare) {
    c.fail(Message{"{} has shared-memory bank conflicts: {} of its {} wavefronts wait for a bank",
                   "{} a des conflits de banc en mémoire partagée : {} de ses {} wavefronts "
                   "attendent un banc"}
               .with(kPaddedKernel, conflicts, wavefronts));
    c.hint(kPaddingHint);
  }
  return true;
}

// Without the counters: the padded kernel against the unpadded tiled one, timed in the
// same run. The tile's column reads cost 32 wavefronts each unpadded, one padded; where
// shared memory is the bottleneck (H100: about 1850 GB/s of transpose at one wavefront per
// element, against a copy near 2900) the padding saves a third of the time or more; padded
// on the wrong dimension, nothing. Measured on an H100: tiled_ms / padded_ms of the
// solution 1.71 (0.334 against 0.195 ms at 8192^2); where ncu runs (it does on the course's
// H100) the counters grade instead, and caught the wrong padding there.
constexpr course::check::SpeedBar kGainBar{
    "transpose_tiled's time over transpose_padded's",
    course::check::BarKind::at_least,
    1.2,
    "1.71 on H100",
    "temps de transpose_tiled divisé par celui de transpose_padded",
    "1.71 sur H100"};
// Where the unpadded tile already reaches this share of the copy, conflicts cost no time
// that could be measured (a GPU whose memory is slow next to its shared memory): the case
// is then not graded by timing.
constexpr double kConflictsHiddenShare = 0.8;

void grade_with_timing(CaseContext& c) {
  SpeedRun s;
  if (!run_speed(c, s) || !expect_sample(c, s, 1) || !expect_sample(c, s, 2)) return;
  if (!c.times_judged() || !read_speed_times(c, s)) return;
  c.note(Message{"graded by timing: {}; {}; on {} floats, same run",
                 "noté au chronomètre : {} ; {} ; sur {} floats, même exécution"}
             .with(figures(s, "transpose_tiled", s.tiled_ms),
                   figures(s, "transpose_padded", s.padded_ms), shape_text(s.rows, s.cols)));
  const double tiled_share = s.copy_ms / s.tiled_ms;
  if (tiled_share >= kConflictsHiddenShare) {
    c.not_graded(Message{"the unpadded transpose_tiled already reaches {}% of the copy on this "
                         "GPU, so bank conflicts cost no time that can be measured; Nsight "
                         "Compute's counters would grade them (set COURSE_NCU)",
                         "sans remplissage, transpose_tiled atteint déjà {} % de la copie sur ce "
                         "GPU : les conflits de banc n'y coûtent aucun temps mesurable ; les "
                         "compteurs de Nsight Compute les noteraient (définir COURSE_NCU)"}
                     .with(100.0 * tiled_share));
    return;
  }
  c.judge_speed(
      kGainBar, s.tiled_ms / s.padded_ms, {},
      {kPaddingHint,
       Message{"transpose_tiled must keep the unpadded tile, [kTileDim][kTileDim]: it is what "
               "the padding is measured against.",
               "transpose_tiled doit garder la tuile sans remplissage, [kTileDim][kTileDim] : "
               "c'est la référence à laquelle on mesure le remplissage."}});
}

void check_bank_conflicts(CaseContext& c) {
  if (c.under_sanitizer()) {
    // Under compute-sanitizer neither counters nor times mean anything: the values only.
    c.note({"bank conflicts are not graded under compute-sanitizer",
            "les conflits de banc ne sont pas notés sous compute-sanitizer"});
    check_shape(c, "padded", kSanitizerProfileRows, kSanitizerProfileCols);
    return;
  }
  const std::string ncu = course::check::nsight_compute_for(c);
  if (!ncu.empty() && grade_with_profiler(c, ncu)) return;
  grade_with_timing(c);
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------
course::check::Case shapes_case(const std::string& kernel, const std::string& what, int points,
                                const std::vector<transpose::Shape>& shapes) {
  return {kernel + "_" + what, points,
          [kernel, shapes](CaseContext& c) { check_shapes(c, kernel, shapes); }};
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  std::vector<course::check::Case> cases = {{"grid_covers_the_matrix", 1, check_grid}};
  for (const char* kernel : kKernels) {
    cases.push_back(shapes_case(kernel, "square_and_ragged", 2, kSquareAndRagged));
    cases.push_back(shapes_case(kernel, "1xn_nx1_1x1", 2, kOneRowOneColumn));
    if (std::string(kernel) != "naive") {
      cases.push_back({std::string(kernel) + "_many_tiles", 1,
                       [kernel](CaseContext& c) { check_many_tiles(c, kernel); }});
    }
  }
  cases.push_back({"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase});
  cases.push_back(timed({"padded_85_percent_of_copy", 4, check_speed}, {kCopyBar}));
  cases.push_back(timed({"padded_free_of_bank_conflicts", 3, check_bank_conflicts}, {kGainBar}));
  course::check::Exercise exercise{"22", "transpose", cases};
  return course::check::judge_main(argc, argv, exercise);
}
