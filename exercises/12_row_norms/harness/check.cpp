// Exercise 12 - the check. Runs the student's program case by case and compares the row
// norms it reports with a double-precision reference computed here: through row_norms_gpu,
// through the group kernel at each width, through launch_row_norms on many short rows,
// whose speed is judged against the copy ceiling, and the weighted norm whose weights sit
// in constant memory. Contains no student code.
//
//   make check-12                          (students)
//   build/.../check_12 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = row_norms::request;
namespace result = row_norms::result;

// row_norms.hpp's constants, which the check does not include (it is compiled without
// nvcc): rows up to kLongestGroupRow columns go to the group kernel, longer ones to the
// block kernel's kRowBlockThreads threads; the group kernel runs blocks of
// kGroupBlockThreads threads.
constexpr int kLongestGroupRow = 2047;
constexpr int kShortestBlockRow = 2048;
constexpr int kRowBlockThreads = 256;
constexpr int kGroupBlockThreads = 256;

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kNormHint{
    "norms[r] = sqrtf(sum of the squares of row r): every lane accumulates its columns' "
    "squares, the group folds them, and the square root is taken once, of the total.",
    "norms[r] = sqrtf(somme des carrés de la ligne r) : chaque lane accumule les carrés de ses "
    "colonnes, le groupe les replie, et la racine carrée est prise une seule fois, sur le "
    "total."};
const Message kFoldHint{
    "a group of kLanesPerRow lanes folds with __shfl_down_sync(kFullWarpMask, v, offset) for "
    "offset = kLanesPerRow / 2, ..., 2, 1 (16, 8, 4, 2, 1 for a whole warp; none for 1 lane): "
    "from a smaller first offset the upper lanes' columns are lost, from a larger one a group "
    "adds its neighbours' rows. Its first lane, threadIdx.x % kLanesPerRow == 0, writes the "
    "row's norm.",
    "un groupe de kLanesPerRow lanes replie avec __shfl_down_sync(kFullWarpMask, v, offset) "
    "pour offset = kLanesPerRow / 2, ..., 2, 1 (16, 8, 4, 2, 1 pour un warp entier ; aucun "
    "pour 1 lane) : avec un premier décalage plus petit, les colonnes des lanes du haut sont "
    "perdues ; avec un plus grand, un groupe ajoute les lignes de ses voisins. Sa première "
    "lane, threadIdx.x % kLanesPerRow == 0, écrit la norme de la ligne."};
const Message kShortRowHint{
    "a lane whose column is past the end of the row (c >= cols) must add nothing: the "
    "elements after the row belong to the next row.",
    "une lane dont la colonne dépasse la fin de la ligne (c >= cols) ne doit rien ajouter : "
    "les éléments qui suivent la ligne appartiennent à la ligne suivante."};
const Message kLongRowHint{
    "long rows (cols >= 2048) go to the block-per-row kernel: every warp's sum goes to "
    "shared memory, __syncthreads(), then warp 0 adds all the warps' sums.",
    "les lignes longues (cols >= 2048) vont au kernel à un bloc par ligne : la somme de chaque "
    "warp va en mémoire partagée, __syncthreads(), puis le warp 0 additionne les sommes de "
    "tous les warps."};

std::vector<double> reference(int rows, int cols, std::uint64_t seed,
                              row_norms::MatrixKind kind = row_norms::MatrixKind::uniform) {
  return row_norms::norms_in_double(row_norms::make_matrix(rows, cols, seed, kind), rows, cols);
}

// The fewest threads that may share a row in launch_row_norms: the lanes per row it
// chooses are judged by its speed only (short_rows_speed_4m_x_3), so a short row may have
// gone to a single lane (as rows of up to 15 columns do) and carries that lane's
// tolerance; a long row has its block.
int fewest_threads_per_row(int cols) { return cols >= kShortestBlockRow ? kRowBlockThreads : 1; }

// The norms of a rows x cols matrix, whichever launch computed them.
bool expect_norms(CaseContext& c, const Run& run, int rows, int cols, int threads,
                  row_norms::MatrixKind kind = row_norms::MatrixKind::uniform) {
  const Message space = Message::verbatim(" ");
  Message hint = kNormHint + space + kFoldHint;
  if (cols % 32 != 0) hint += space + kShortRowHint;
  if (cols >= kShortestBlockRow) hint += space + kLongRowHint;
  return c.expect_array(run, result::norms, reference(rows, cols, c.seed(), kind),
                        row_norms::tolerance_for(cols, threads), hint);
}

Run run_norms(CaseContext& c, int rows, int cols, row_norms::MatrixKind kind) {
  return c.run(request::gpu, {rows, cols, kind});
}

bool check_norms(CaseContext& c, int rows, int cols,
                 row_norms::MatrixKind kind = row_norms::MatrixKind::uniform) {
  const bool circle = kind == row_norms::MatrixKind::unit_circle;
  const Run run = run_norms(c, rows, cols, kind);
  const bool ok =
      c.finished(run) && (rows == 0 || c.expect_kernel_launched(run)) &&
      c.expect_host_guard_untouched(run, result::norms, "row_norms_gpu",
                                    Message{"copy back rows * sizeof(float) bytes, no more.",
                                            "recopiez rows * sizeof(float) octets, pas plus."}) &&
      expect_norms(c, run, rows, cols, fewest_threads_per_row(cols), kind);
  if (!ok) {
    c.note((circle ? Message{"(row_norms_gpu on a {} x {} matrix of points on the unit circle)",
                             "(row_norms_gpu sur une matrice {} x {} de points du cercle unité)"}
                   : Message{"(row_norms_gpu on a {} x {} matrix)",
                             "(row_norms_gpu sur une matrice {} x {})"})
               .with(rows, cols));
  }
  return ok;
}

// ---------------------------------------------------------------------------
// The group kernel at each width, whatever lanes_per_row would choose
// ---------------------------------------------------------------------------

// The runner records the last launch's grid and block (device_accounting.hpp): the
// width asked for must be the one launched, on enough blocks for rows * lanes threads.
bool expect_group_launch(CaseContext& c, const Run& run, int rows, int lanes) {
  const auto found = run.results.records.find(course::check::kLastLaunchRecord);
  if (found == run.results.records.end() || found->second.type != course::check::ValueType::i64 ||
      found->second.count != 6) {
    c.fail({"the program reported no launch configuration",
            "le programme n'a rendu aucune configuration de lancement"});
    return false;
  }
  const std::vector<std::int64_t> launch = found->second.values<std::int64_t>();
  const std::int64_t threads = static_cast<std::int64_t>(rows) * lanes;
  const std::int64_t blocks = (threads + kGroupBlockThreads - 1) / kGroupBlockThreads;
  if (launch[0] == blocks && launch[1] == 1 && launch[2] == 1 && launch[3] == kGroupBlockThreads &&
      launch[4] == 1 && launch[5] == 1) {
    return true;
  }
  c.fail(Message{"launch_row_norms_group with {} lanes per row on {} rows launched {}x{}x{} "
                 "blocks of {}x{}x{} threads; expected {} blocks of {}",
                 "launch_row_norms_group avec {} lanes par ligne sur {} lignes a lancé {}x{}x{} "
                 "blocs de {}x{}x{} threads au lieu de {} blocs de {}"}
             .with(lanes, rows, launch[0], launch[1], launch[2], launch[3], launch[4], launch[5],
                   blocks, kGroupBlockThreads));
  c.hint({"launch_row_norms_group launches row_norms_group_kernel<lanes>, the width it is "
          "given, on course::blocks_for(rows * lanes, kGroupBlockThreads) blocks of "
          "kGroupBlockThreads threads.",
          "launch_row_norms_group lance row_norms_group_kernel<lanes>, à la largeur reçue, sur "
          "course::blocks_for(rows * lanes, kGroupBlockThreads) blocs de kGroupBlockThreads "
          "threads."});
  return false;
}

// Rows not a multiple of any block's rows (the last block's groups past the end must still
// fold), 37 columns (not a multiple of any width: some lanes add one column more than
// the others), then 3 columns (fewer than most groups' lanes: the others add nothing).
constexpr int kGroupRows = 1003;
constexpr int kGroupCols = 37;
constexpr int kGroupShortRows = 517;
constexpr int kGroupShortCols = 3;

void check_group(CaseContext& c, int lanes) {
  for (const auto& [rows, cols] :
       {std::pair{kGroupRows, kGroupCols}, std::pair{kGroupShortRows, kGroupShortCols}}) {
    const Run run = c.run(request::group, {rows, cols, lanes});
    if (!c.finished(run) || !c.expect_kernel_launched(run) ||
        !expect_group_launch(c, run, rows, lanes) || !expect_norms(c, run, rows, cols, lanes)) {
      c.note((lanes > 1 ? Message{"(launch_row_norms_group with {} lanes per row on a {} x {} "
                                  "matrix)",
                                  "(launch_row_norms_group avec {} lanes par ligne sur une "
                                  "matrice {} x {})"}
                        : Message{"(launch_row_norms_group with {} lane per row on a {} x {} "
                                  "matrix)",
                                  "(launch_row_norms_group avec {} lane par ligne sur une "
                                  "matrice {} x {})"})
                 .with(lanes, rows, cols));
      return;
    }
  }
}

// ---------------------------------------------------------------------------
// Weighted norms, the weights in constant memory
// ---------------------------------------------------------------------------

// row_norms.hpp's table size, which the check does not include.
constexpr int kMaxConstantColumns = 2048;

const Message kWeightedHint{
    "set_column_weights copies the weights with CUDA_CHECK(cudaMemcpyToSymbol(c_column_weights, "
    "host_weights, cols * sizeof(float))): the count is in bytes, and the table starts zeroed, "
    "so a weight never copied is 0. The kernel multiplies matrix[row][c] by the weight of "
    "column c, c_column_weights[c], whatever its row.",
    "set_column_weights copie les poids avec CUDA_CHECK(cudaMemcpyToSymbol(c_column_weights, "
    "host_weights, cols * sizeof(float))) : la taille est en octets, et la table est remplie "
    "de zéros au départ, si bien qu'un poids jamais copié vaut 0. Le kernel multiplie "
    "matrix[row][c] par le poids "
    "de la colonne c, c_column_weights[c], quelle que soit sa ligne."};
const Message kTooLargeRefusedHint{
    "set_column_weights returns false, copying nothing, when cols > kMaxConstantColumns.",
    "set_column_weights rend false, sans rien copier, quand cols > kMaxConstantColumns."};

// launch_weighted_row_norms on a rows x cols matrix after set_column_weights, and, when
// `too_large`, a table of kMaxConstantColumns + 1 floats refused in between.
bool check_weighted(CaseContext& c, int rows, int cols, bool too_large = false) {
  const Run run = c.run(request::weighted, {rows, cols, too_large});
  const Message weighted_call{
      "(set_column_weights then launch_weighted_row_norms on a {} x {} matrix{})",
      "(set_column_weights puis launch_weighted_row_norms sur une matrice {} x {}{})"};
  if (!c.finished(run)) {
    if (too_large) {
      c.hint({"set_column_weights returns false, copying nothing, when cols > "
              "kMaxConstantColumns: cudaMemcpyToSymbol past the end of the table is an error.",
              "set_column_weights rend false, sans rien copier, quand cols > "
              "kMaxConstantColumns : un cudaMemcpyToSymbol au-delà de la fin de la table est une "
              "erreur."});
    }
    c.note(weighted_call.with(rows, cols, ""));
    return false;
  }
  std::int64_t accepted = 0, too_large_accepted = 0;
  if (!c.read_value(run, result::weights_accepted, accepted) ||
      !c.read_value(run, result::too_large_accepted, too_large_accepted)) {
    return false;
  }
  if (accepted != 1) {
    c.fail(Message{"set_column_weights refused a table of {} weights",
                   "set_column_weights a refusé une table de {} poids"}
               .with(cols));
    c.hint({"set_column_weights copies and returns true for 1 to kMaxConstantColumns weights.",
            "set_column_weights copie et rend true pour 1 à kMaxConstantColumns poids."});
    return false;
  }
  if (too_large && too_large_accepted != 0) {
    c.fail(Message{"set_column_weights accepted a table of {} weights, one more than the "
                   "__constant__ table holds",
                   "set_column_weights a accepté une table de {} poids, un de plus que ce que "
                   "contient la table __constant__"}
               .with(kMaxConstantColumns + 1));
    c.hint(kTooLargeRefusedHint);
    return false;
  }
  const std::vector<double> expected =
      row_norms::weighted_norms_in_double(row_norms::make_matrix(rows, cols, c.seed()),
                                          row_norms::make_weights(cols, c.seed()), rows, cols);
  if (!c.expect_kernel_launched(run) ||
      !c.expect_array(run, result::norms, expected, row_norms::tolerance_for(cols, 1),
                      kWeightedHint + Message::verbatim(" ") + kNormHint)) {
    c.note(weighted_call.with(rows, cols,
                              too_large ? Message{", a table too large refused in between",
                                                  ", une table trop grande refusée entre les deux"}
                                        : Message{}));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Speed: launch_row_norms on many short rows, against the copy ceiling
// ---------------------------------------------------------------------------

// 4,000,000 rows of 3 columns (48 MB read, 16 MB written), the shape where a whole warp
// per row leaves 29 of its 32 lanes idle. Under compute-sanitizer every access is checked
// and times mean nothing: fewer rows, one repetition, and only the values are judged.
constexpr int kSpeedRows = 4000000;
constexpr int kSanitizerSpeedRows = 100003;
constexpr int kSpeedCols = 3;
constexpr int kSpeedRepetitions = 20;
// GB/s = (rows * cols + rows) * 4 B / time, over the copy ceiling measured in the same
// run (a device-to-device cudaMemcpy, bytes read + bytes written). Measured: the reference
// (1 lane per row) at the figures the bar quotes below; on an H200 a whole warp per row
// 2.2-3.5% (90-143 GB/s), CuPy's linalg.norm 15% (tests/speed_bars.md).
constexpr course::check::SpeedBar kShortRowsBar{
    "launch_row_norms's share of the copy ceiling on 4,000,000 x 3",
    course::check::BarKind::at_least,
    0.25,
    "0.73-0.78 on H100, 0.63-0.68 on H200",
    "part du plafond de copie atteinte par launch_row_norms sur 4 000 000 x 3",
    "0.73-0.78 sur H100, 0.63-0.68 sur H200"};

void check_short_rows_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const int rows = sanitized ? kSanitizerSpeedRows : kSpeedRows;
  const Run run =
      c.run(request::speed, {rows, kSpeedCols, sanitized ? 1 : kSpeedRepetitions, !sanitized});
  if (!c.finished(run) || !c.expect_kernel_launched(run) ||
      !expect_norms(c, run, rows, kSpeedCols, fewest_threads_per_row(kSpeedCols))) {
    c.note(Message{"(launch_row_norms on a {} x {} matrix)",
                   "(launch_row_norms sur une matrice {} x {})"}
               .with(rows, kSpeedCols));
    return;
  }
  if (!c.times_judged()) return;
  double launch_ms = 0.0, copy_gbps = 0.0;
  if (!c.read_times(run, {{result::launch_ms, launch_ms}}) ||
      !c.read_value(run, result::copy_gbps, copy_gbps)) {
    return;
  }
  const double bytes = (static_cast<double>(rows) * kSpeedCols + rows) * sizeof(float);
  const double gbps = bytes / (launch_ms * 1e-3) / 1e9;
  const Message figures =
      Message{"launch_row_norms on {} x {}: {} ms, {} GB/s = (rows * cols + rows) * 4 B / time; "
              "copy ceiling {} GB/s",
              "launch_row_norms sur {} x {} : {} ms, {} GB/s = (rows * cols + rows) * 4 B / "
              "temps ; plafond de copie {} GB/s"}
          .with(rows, kSpeedCols, launch_ms, gbps, copy_gbps);
  c.judge_speed(
      kShortRowsBar, gbps / copy_gbps, figures,
      {Message{
          "short rows need few lanes: launch_row_norms calls launch_row_norms_group with "
          "lanes_per_row(cols) lanes per row (1 for 3 columns). A whole warp on a row of 3 leaves "
          "29 of its 32 lanes idle and reads 3 floats per step where one lane per row reads 96.",
          "les lignes courtes demandent peu de lanes : launch_row_norms appelle "
          "launch_row_norms_group avec lanes_per_row(cols) lanes par ligne (1 pour 3 colonnes). Un "
          "warp entier sur une ligne de 3 laisse 29 de ses 32 lanes inactives et lit 3 floats par "
          "tour là où une lane par ligne en lit 96."}});
}

// A shape the student has not seen: drawn from the seed, so graders change it with --seed.
// Either many short rows (1 to 8 lanes per row), or a few long rows.
constexpr int kHiddenMaxShortRows = 200000;
constexpr int kHiddenMaxLongRows = 40;
constexpr int kHiddenMaxLongCols = 60000;
constexpr std::uint64_t kHiddenShapeSalt = 12;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  if (rng.uniform_int(0, 1) == 0) {
    const int rows = static_cast<int>(rng.uniform_int(1, kHiddenMaxShortRows));
    check_norms(c, rows, static_cast<int>(rng.uniform_int(1, kLongestGroupRow / 16)));
  } else {
    const int rows = static_cast<int>(rng.uniform_int(1, kHiddenMaxLongRows));
    check_norms(c, rows, static_cast<int>(rng.uniform_int(kShortestBlockRow, kHiddenMaxLongCols)));
  }
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "12",
      "row_norms",
      {
          {"one_by_one", 1, [](CaseContext& c) { check_norms(c, 1, 1); }},
          {"no_rows_then_some", 1,
           [](CaseContext& c) {
             if (check_norms(c, 0, 5)) check_norms(c, 9, 5);
           }},
          {"unit_circle_lab_points", 2,
           [](CaseContext& c) {
             if (check_norms(c, 10, 2, row_norms::MatrixKind::unit_circle)) {
               check_norms(c, 100003, 2, row_norms::MatrixKind::unit_circle);
             }
           }},
          {"short_rows_100000_x_3", 2, [](CaseContext& c) { check_norms(c, 100000, 3); }},
          {"rows_1001_not_a_multiple_of_a_block", 1,
           [](CaseContext& c) { check_norms(c, 1001, 32); }},
          {"cols_33_one_column_left_over", 2, [](CaseContext& c) { check_norms(c, 777, 33); }},
          {"cols_1000_several_per_lane", 2, [](CaseContext& c) { check_norms(c, 5003, 1000); }},
          {"longest_group_rows_2047", 1,
           [](CaseContext& c) { check_norms(c, 300, kLongestGroupRow); }},
          {"group_of_1_lane", 1, [](CaseContext& c) { check_group(c, 1); }},
          {"group_of_2_lanes", 1, [](CaseContext& c) { check_group(c, 2); }},
          {"group_of_4_lanes", 1, [](CaseContext& c) { check_group(c, 4); }},
          {"group_of_8_lanes", 1, [](CaseContext& c) { check_group(c, 8); }},
          {"group_of_16_lanes", 1, [](CaseContext& c) { check_group(c, 16); }},
          {"group_of_32_lanes", 1, [](CaseContext& c) { check_group(c, 32); }},
          {"long_rows_7_x_100000", 3, [](CaseContext& c) { check_norms(c, 7, 100000); }},
          {"block_rows_2048_and_odd", 2,
           [](CaseContext& c) {
             if (check_norms(c, 65, kShortestBlockRow)) check_norms(c, 3, 33333);
           }},
          {"weighted_rows_1000_x_37", 1,
           [](CaseContext& c) {
             if (check_weighted(c, 1000, 37)) check_weighted(c, 1, 1);
           }},
          {"weighted_widest_table_2048", 1,
           [](CaseContext& c) { check_weighted(c, 300, kMaxConstantColumns); }},
          {"weighted_table_too_large_refused", 1,
           [](CaseContext& c) { check_weighted(c, 64, 100, true); }},
          {"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"short_rows_speed_4m_x_3", 3, check_short_rows_speed},
                               {kShortRowsBar}),
          {"frees_its_device_memory", 1,
           [](CaseContext& c) {
             for (const auto& [rows, cols] : {std::pair{4096, 100}, std::pair{5, 5000}}) {
               const Run run = run_norms(c, rows, cols, row_norms::MatrixKind::uniform);
               if (!c.finished(run) || !c.expect_kernel_launched(run) ||
                   !expect_norms(c, run, rows, cols, fewest_threads_per_row(cols)) ||
                   !c.expect_no_leak(run)) {
                 return;
               }
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
