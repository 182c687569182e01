// Exercise 07 - the check. Runs the student's program case by case, compares what it
// reports with a double-precision reference computed here, and grades the coalescing
// of the student's kernel: with Nsight Compute's counters when ncu can read them
// (sectors per load request), otherwise with the kernel's speed next to the given
// strided kernel's, both measured in one run. Contains no student code; the profiler
// is run by this check, never trusted from the student's process.
//
//   make check-07                          (students)
//   build/.../check_07 --program PROGRAM   (instructors; --help lists the options)
//   COURSE_NCU=/path/to/ncu or COURSE_NCU=none picks or turns off the profiler.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/nsight_compute.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Request;
using course::check::Run;
namespace request = coalescing::request;

// Each element is one float product, gain * sample, rounded once: within half an ulp,
// 2^-24 ~ 6e-8 relative, of the exact product (which the double reference holds
// exactly: 24 + 24 significant bits fit in 53). rtol = 1.2e-7 allows one ulp; a gain
// from the wrong row differs by a factor between 1/4 and 4, a million times more.
constexpr course::Tolerance kTolerance{0.0, 1.2e-7};

const Message kIndexHint{
    "x must run along the columns and y along the rows: col from blockIdx.x * blockDim.x + "
    "threadIdx.x, row from the y dimension, gridDim.x covering cols and gridDim.y covering rows, "
    "and out[row * cols + col] = gain[row] * in[row * cols + col].",
    "x doit parcourir les colonnes et y les lignes : col vient de blockIdx.x * blockDim.x + "
    "threadIdx.x, row de la dimension y, gridDim.x couvre cols et gridDim.y couvre rows, et "
    "out[row * cols + col] = gain[row] * in[row * cols + col]."};
const Message kCoalescingHint{
    "adjacent threads must read adjacent addresses: take the column from threadIdx.x, so that "
    "the 32 threads of a warp read 32 consecutive floats of one row, and launch one thread per "
    "element (a 2D grid), not one per row.",
    "des threads voisins doivent lire des adresses voisines : prenez la colonne dans "
    "threadIdx.x, pour que les 32 threads d'un warp lisent 32 floats consécutifs d'une ligne, "
    "et lancez un thread par élément (une grille 2D), pas un par ligne."};

std::string shape_text(int rows, int cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// gain[row] * in[row * cols + col] in double precision, for every element.
std::vector<double> reference(int rows, int cols, std::uint64_t seed) {
  const std::vector<float> samples = coalescing::make_samples(rows, cols, seed);
  const std::vector<float> gains = coalescing::make_gains(rows, seed);
  std::vector<double> out(samples.size());
  for (int row = 0; row < rows; ++row) {
    const std::size_t start = static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
    for (int col = 0; col < cols; ++col) {
      out[start + col] = static_cast<double>(gains[row]) * samples[start + col];
    }
  }
  return out;
}

// True when the output holds the right values at transposed places: out[col * rows + row].
bool looks_transposed(CaseContext& c, const Run& run, int rows, int cols,
                      const std::vector<double>& expected) {
  std::vector<float> got;
  if (rows == 1 || cols == 1 || !CaseContext::reported(run, coalescing::result::out) ||
      !c.read_array(run, coalescing::result::out, got) || got.size() != expected.size()) {
    return false;
  }
  std::size_t matches = 0;
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      const std::size_t transposed = static_cast<std::size_t>(col) * rows + row;
      const std::size_t at = static_cast<std::size_t>(row) * cols + col;
      if (course::within_tolerance(got[transposed], expected[at], kTolerance)) ++matches;
    }
  }
  return matches * 10 >= expected.size() * 9;  // nine elements in ten or more
}

// The host guard and the values of one output of the student's kernel.
bool expect_output(CaseContext& c, const Run& run, int rows, int cols) {
  if (!c.expect_host_guard_untouched(run, coalescing::result::out, "cudaMemcpy (runner)",
                                     {"the output must hold rows * cols floats.",
                                      "la sortie doit contenir rows * cols floats."})) {
    return false;
  }
  const std::vector<double> expected = reference(rows, cols, c.seed());
  if (c.expect_array(run, coalescing::result::out, expected, kTolerance, kIndexHint)) return true;
  if (looks_transposed(c, run, rows, cols, expected)) {
    c.hint({"the result is written transposed, at out[col * rows + row]: a row-major "
            "rows x cols matrix keeps element (row, col) at row * cols + col.",
            "le résultat est écrit transposé, en out[col * rows + row] : une matrice rows x cols "
            "rangée par lignes garde l'élément (row, col) en row * cols + col."});
  }
  return false;
}

// One call of the launcher on a rows x cols matrix (after two empty ones for kind
// request::gpu_after_empty).
bool check_shape(CaseContext& c, int rows, int cols,
                 const Request<request::Shape>& kind = request::gpu) {
  const Run run = c.run(kind, {rows, cols});
  const bool ok =
      c.finished(run) && c.expect_kernel_launched(run) && expect_output(c, run, rows, cols);
  if (!ok) {
    c.note(Message{"(launch_scale_rows_coalesced on a {} matrix)",
                   "(launch_scale_rows_coalesced sur une matrice {})"}
               .with(shape_text(rows, cols)));
  }
  return ok;
}

// ---------------------------------------------------------------------------
// Coalescing: Nsight Compute's counters, or the speed ratio without them
// ---------------------------------------------------------------------------

const char* const kStudentKernel = "scale_rows_coalesced";
const std::vector<std::string> kLoadMetrics = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",   // 32-byte sectors the loads touched
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",  // load requests: one per warp load
};

// The profiled shape: rows of 1001 floats start at addresses that are not multiples of
// 32 bytes, as real matrices' rows often do; small enough that ncu's replay is quick.
constexpr int kProfileRows = 1024;
constexpr int kProfileCols = 1001;

// A warp loading 32 consecutive floats (128 bytes) touches 4 sectors, 5 when its row is
// not 32-byte aligned; the row's gain, one float for the whole warp, touches 1: the
// reference kernel measures 2.9 on an H200. A warp whose threads walk 32 different rows
// touches 32 sectors per load of the matrix; the strided kernel measures 32 when it
// loads each row's gain once, 18 when the compiler reloads it at every step (4 sectors
// for 32 gains, every other request). 8 sits well between: a kernel above it fetches at
// least twice the sectors a coalesced one needs.
constexpr double kMaxSectorsPerRequest = 8.0;

// ncu starts slowly (several seconds) and replays the kernel once per pass.
constexpr double kProfilerTimeoutSeconds = 180.0;
constexpr double kTimingTimeoutSeconds = 60.0;

// The given strided kernel runs one thread per row: 8192 threads, a few warps per
// multiprocessor, each of whose loads waits for 32 sectors from 32 rows. It is
// latency-bound and runs 8 to 32 times slower than a coalesced kernel with a thread
// per element, which reaches most of the copy ceiling. A kernel at least 3 times
// faster than the strided one has fixed its access pattern; one that is not, has not
// (a copy of the strided kernel measures 1x).
constexpr course::check::SpeedBar kStridedBar{
    "speed-up of the coalesced kernel over the strided one",
    course::check::BarKind::at_least,
    3.0,
    "8 to 32 (graded by Nsight Compute on the H100 and the H200)",
    "accélération du kernel coalescent par rapport au kernel à pas",
    "8 à 32 (noté par Nsight Compute sur H100 et H200)"};

// Graded with the counters; false when ncu could not measure (the caller falls back).
bool grade_with_profiler(CaseContext& c, const std::string& ncu) {
  Run run;
  course::check::NcuReading reading;
  if (!course::check::profile_case(c, ncu, kLoadMetrics, kStudentKernel, request::gpu,
                                   {kProfileRows, kProfileCols}, kProfilerTimeoutSeconds, run,
                                   reading)) {
    return false;
  }
  c.note(Message{"graded by Nsight Compute ({}): global loads of {} on a {} matrix",
                 "noté par Nsight Compute ({}) : lectures globales de {} sur une matrice {}"}
             .with(ncu, kStudentKernel, shape_text(kProfileRows, kProfileCols)));
  if (!c.finished(run) || !c.expect_kernel_launched(run) ||
      !expect_output(c, run, kProfileRows, kProfileCols)) {
    return true;
  }
  const double sectors = reading.values.at(kLoadMetrics[0]);
  const double requests = reading.values.at(kLoadMetrics[1]);
  if (!(requests > 0.0)) {
    c.fail(Message{"{} made no global load request: it does not read its input from global memory",
                   "{} n'a fait aucune requête de lecture globale : il ne lit pas son entrée en "
                   "mémoire globale"}
               .with(kStudentKernel));
    c.hint(kIndexHint);
    return true;
  }
  const double per_request = sectors / requests;
  c.note(Message{"{} sectors / {} requests = {} sectors per request (about 3 for a coalesced "
                 "kernel, counting the 1-sector loads of the gain; 18 to 32 for one whose warps "
                 "read 32 rows at a time; at most {} passes)",
                 "{} secteurs / {} requêtes = {} secteurs par requête (environ 3 pour un kernel "
                 "coalescent, en comptant les lectures d'un secteur du gain ; 18 à 32 pour un "
                 "kernel dont les warps lisent 32 lignes à la fois ; au plus {} passe)"}
             .with(sectors, requests, per_request, kMaxSectorsPerRequest));
  if (per_request > kMaxSectorsPerRequest) {
    c.fail(
        Message{"the loads of {} are not coalesced: {} sectors of 32 bytes per warp load request",
                "les lectures de {} ne sont pas coalescées : {} secteurs de 32 octets par "
                "requête de lecture d'un warp"}
            .with(kStudentKernel, per_request));
    c.hint(kCoalescingHint);
  }
  return true;
}

void grade_with_timing(CaseContext& c) {
  const int rows = coalescing::kTimingRows, cols = coalescing::kTimingCols;
  c.note(Message{"graded by timing: {} against the given scale_rows_strided on a {} matrix, "
                 "same run",
                 "noté d'après les temps : {} contre le scale_rows_strided fourni sur une "
                 "matrice {}, dans la même exécution"}
             .with(kStudentKernel, shape_text(rows, cols)));
  const Run run = c.run(request::timing, {rows, cols}, 0, kTimingTimeoutSeconds);
  // (The runner launches the strided kernel too: the sample below, not the launch count,
  // proves that the student's kernel ran.)
  if (!c.finished(run)) return;
  double student_ms = 0.0, strided_ms = 0.0, copy_ms = 0.0;
  if (!c.read_value(run, coalescing::result::student_ms, student_ms) ||
      !c.read_value(run, coalescing::result::strided_ms, strided_ms) ||
      !c.read_value(run, coalescing::result::copy_ms, copy_ms)) {
    return;
  }
  // Fast only counts if everything was computed: a sample of the output is verified.
  const std::vector<double> all = reference(rows, cols, c.seed());
  std::vector<double> expected_sample;
  for (std::size_t i = 0; i < all.size(); i += coalescing::kSampleStride) {
    expected_sample.push_back(all[i]);
  }
  if (!c.expect_array(run, coalescing::result::sample, expected_sample, kTolerance, kIndexHint)) {
    c.note(Message{"(a sample of every {}th element of the timed output)",
                   "(un échantillon d'un élément sur {} de la sortie mesurée)"}
               .with(coalescing::kSampleStride));
    return;
  }
  // Bytes moved: every element read and written once, plus one gain per row.
  const double bytes = (2.0 * cols + 1.0) * rows * sizeof(float);
  const double copy_bytes = 2.0 * rows * static_cast<double>(cols) * sizeof(float);
  auto gigabytes_per_second = [](double moved, double ms) {
    return ms > 0.0 ? moved / (ms * 1e-3) / 1e9 : 0.0;
  };
  const double copy_gbps = gigabytes_per_second(copy_bytes, copy_ms);
  auto figure = [&](const char* name, double ms) {
    const double gbps = gigabytes_per_second(bytes, ms);
    return Message{"{} {} ms, {} GB/s ({}% of the copy ceiling, {} GB/s)",
                   "{} {} ms, {} GB/s ({} % du plafond de la copie, {} GB/s)"}
        .with(name, ms, gbps, copy_gbps > 0.0 ? 100.0 * gbps / copy_gbps : 0.0, copy_gbps);
  };
  c.note(figure(kStudentKernel, student_ms) + Message::verbatim("; ") +
         figure("scale_rows_strided", strided_ms));
  if (!(student_ms > 0.0) || !(strided_ms > 0.0)) {
    c.fail({"the kernels' times could not be measured",
            "les temps des kernels n'ont pas pu être mesurés"});
    return;
  }
  if (!c.expect_speed(kStridedBar, strided_ms / student_ms)) {
    c.fail(Message{"{} is not much faster than the strided kernel: its reads are not coalesced",
                   "{} n'est pas beaucoup plus rapide que le kernel à pas : ses lectures ne sont "
                   "pas coalescées"}
               .with(kStudentKernel));
    c.hint(kCoalescingHint);
  }
}

void check_coalescing(CaseContext& c) {
  if (c.under_sanitizer()) {
    // Under compute-sanitizer neither counters nor times mean anything: the values only.
    c.note({"performance is not graded under compute-sanitizer",
            "les performances ne sont pas notées sous compute-sanitizer"});
    check_shape(c, kProfileRows, kProfileCols);
    return;
  }
  const std::string ncu = course::check::nsight_compute_for(c);
  if (!ncu.empty() && grade_with_profiler(c, ncu)) return;
  grade_with_timing(c);
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

// A shape the student has not seen: drawn from the seed, so graders change it with --seed.
constexpr int kHiddenMaxExtent = 3000;
constexpr std::uint64_t kHiddenShapeSalt = 7;

void check_hidden(CaseContext& c) {
  // A stream of its own, apart from the ones that draw the inputs from the same seed.
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int rows = static_cast<int>(rng.uniform_int(1, kHiddenMaxExtent));
  const int cols = static_cast<int>(rng.uniform_int(1, kHiddenMaxExtent));
  check_shape(c, rows, cols);
}

void check_no_leak(CaseContext& c) {
  const int rows = 512, cols = 300;
  const Run run = c.run(request::gpu, {rows, cols});
  if (c.finished(run) && c.expect_kernel_launched(run) && expect_output(c, run, rows, cols)) {
    c.expect_no_leak(run);
  }
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "07",
      "profiling_coalescing",
      {
          {"square_256x256", 1, [](CaseContext& c) { check_shape(c, 256, 256); }},
          {"rows_1000_cols_999", 2, [](CaseContext& c) { check_shape(c, 1000, 999); }},
          {"wide_37x3001", 2, [](CaseContext& c) { check_shape(c, 37, 3001); }},
          {"one_row_1x100003", 2, [](CaseContext& c) { check_shape(c, 1, 100003); }},
          {"one_column_100003x1", 2, [](CaseContext& c) { check_shape(c, 100003, 1); }},
          {"smaller_than_a_block_3x5", 1, [](CaseContext& c) { check_shape(c, 3, 5); }},
          {"empty_then_5x40", 1,
           [](CaseContext& c) { check_shape(c, 5, 40, request::gpu_after_empty); }},
          {"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase},
          {"allocates_nothing_it_keeps", 1, check_no_leak},
          course::check::timed({"reads_are_coalesced", 6, check_coalescing}, {kStridedBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
