// Exercise 12 - the check. Runs the student's program case by case and compares the row
// norms it reports with a double-precision reference computed here. Contains no student
// code.
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
using course::check::Run;

// Rows up to this long go to the warp-per-row kernel (kBlockPerRowMinCols - 1 in
// row_norms.hpp, which the check does not include: it is compiled without nvcc).
constexpr int kLongestWarpRow = 2047;
constexpr int kShortestBlockRow = 2048;

const std::string kNormHint =
    "norms[r] = sqrtf(sum of the squares of row r): every lane accumulates its columns' "
    "squares, the warp adds them with __shfl_down_sync(0xffffffff, v, offset) for offset = "
    "16, 8, 4, 2, 1, and the square root is taken once, of the total.";
const std::string kShortRowHint =
    "a lane whose column is past the end of the row (c >= cols) must add nothing: the "
    "elements after the row belong to the next row.";
const std::string kLongRowHint =
    "long rows (cols >= 2048) go to the block-per-row kernel: every warp's sum goes to "
    "shared memory, __syncthreads(), then warp 0 adds all the warps' sums.";

std::vector<double> reference(int rows, int cols, std::uint64_t seed, row_norms::MatrixKind kind) {
  return row_norms::norms_in_double(row_norms::make_matrix(rows, cols, seed, kind), rows, cols);
}

Run run_norms(CaseContext& c, int rows, int cols, row_norms::MatrixKind kind) {
  const bool circle = kind == row_norms::MatrixKind::unit_circle;
  return c.run_case("gpu", {{"rows", std::to_string(rows)},
                            {"cols", std::to_string(cols)},
                            {"matrix", circle ? "unit_circle" : "uniform"}});
}

bool check_norms(CaseContext& c, int rows, int cols,
                 row_norms::MatrixKind kind = row_norms::MatrixKind::uniform) {
  const bool circle = kind == row_norms::MatrixKind::unit_circle;
  const Run run = run_norms(c, rows, cols, kind);
  bool ok = c.finished(run) && (rows == 0 || c.expect_kernel_launched(run)) &&
            c.expect_host_guard_untouched(run, row_norms::result::norms, "row_norms_gpu",
                                          "copy back rows * sizeof(float) bytes, no more.");
  std::string hint = kNormHint;
  if (cols % 32 != 0) hint += " " + kShortRowHint;
  if (cols >= kShortestBlockRow) hint += " " + kLongRowHint;
  ok = ok && c.expect_array(run, row_norms::result::norms, reference(rows, cols, c.seed(), kind),
                            row_norms::tolerance_for(cols), hint);
  if (!ok) {
    c.note("(row_norms_gpu on a " + std::to_string(rows) + " x " + std::to_string(cols) +
           (circle ? " matrix of points on the unit circle)" : " matrix)"));
  }
  return ok;
}

// A shape the student has not seen: drawn from the seed, so graders change it with --seed.
// Either many rows of a warp's width or so, or a few long rows.
constexpr int kHiddenMaxShortRows = 200000;
constexpr int kHiddenMaxLongRows = 40;
constexpr int kHiddenMaxLongCols = 60000;
constexpr std::uint64_t kHiddenShapeSalt = 12;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  if (rng.uniform_int(0, 1) == 0) {
    const int rows = static_cast<int>(rng.uniform_int(1, kHiddenMaxShortRows));
    check_norms(c, rows, static_cast<int>(rng.uniform_int(1, kLongestWarpRow / 16)));
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
          {"rows_not_a_multiple_of_the_warps", 1, [](CaseContext& c) { check_norms(c, 1001, 32); }},
          {"cols_33_one_past_a_warp", 2, [](CaseContext& c) { check_norms(c, 777, 33); }},
          {"cols_1000_several_per_lane", 2, [](CaseContext& c) { check_norms(c, 5003, 1000); }},
          {"longest_warp_rows_2047", 1,
           [](CaseContext& c) { check_norms(c, 300, kLongestWarpRow); }},
          {"long_rows_7_x_100000", 3, [](CaseContext& c) { check_norms(c, 7, 100000); }},
          {"block_rows_2048_and_odd", 2,
           [](CaseContext& c) {
             if (check_norms(c, 65, kShortestBlockRow)) check_norms(c, 3, 33333);
           }},
          {"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase},
          {"frees_its_device_memory", 1,
           [](CaseContext& c) {
             for (const auto& [rows, cols] : {std::pair{4096, 100}, std::pair{5, 5000}}) {
               const Run run = run_norms(c, rows, cols, row_norms::MatrixKind::uniform);
               if (!c.finished(run) || !c.expect_kernel_launched(run) ||
                   !c.expect_array(run, row_norms::result::norms,
                                   reference(rows, cols, c.seed(), row_norms::MatrixKind::uniform),
                                   row_norms::tolerance_for(cols), kNormHint) ||
                   !c.expect_no_leak(run)) {
                 return;
               }
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
