// Exercise 05 - the check. Runs the student's program case by case and compares the
// grids it reports with a double-precision reference computed here; when a grid is
// wrong, works out from where the wrong points lie which mistake it looks like.
// Contains no student code.
//
//   make check-05                          (students)
//   build/.../check_05 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/reported_time.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Request;
using course::check::Run;
using three_d_blocks::linear_index;
using three_d_blocks::point_count;
namespace request = three_d_blocks::request;
namespace result = three_d_blocks::result;

struct Grid {
  int nx, ny, nz;
  std::size_t points() const { return point_count(nx, ny, nz); }
  std::string text() const {
    return std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
  }
};

struct Block {
  int x, y, z;
  std::string text() const {
    return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z);
  }
};

// The shapes the demo sweeps; the cases that do not test the block shape use the first.
constexpr Block kBlock32x4x2{32, 4, 2};
constexpr Block kBlock1x32x32{1, 32, 32};
// The odd grid of most cases: no size is a multiple of any block's, and nx != nz, so
// that a kernel that swaps x and z leaves points out.
constexpr Grid kOddGrid{37, 61, 19};

// ---------------------------------------------------------------------------
// Hints: the likely mistake behind each kind of failure
// ---------------------------------------------------------------------------
using course::check::Message;

const Message kFormulaHint{
    "each point must be kCenterWeight * in[x, y, z] + kNeighbourWeight * (the sum of its 6 "
    "neighbours), in float (the formula is in three_d_blocks.hpp).",
    "chaque point doit valoir kCenterWeight * in[x, y, z] + kNeighbourWeight * (la somme de "
    "ses 6 voisins), en float (la formule est dans three_d_blocks.hpp)."};
const Message kBorderHint{
    "a neighbour outside the grid counts as 0: test each coordinate against its own size "
    "(x > 0, x + 1 < nx, y > 0, y + 1 < ny, z > 0, z + 1 < nz), never the linear index, "
    "which runs on from the end of one row to the start of the next.",
    "un voisin hors de la grille compte pour 0 : comparez chaque coordonnée à sa propre "
    "taille (x > 0, x + 1 < nx, y > 0, y + 1 < ny, z > 0, z + 1 < nz), jamais l'indice "
    "linéaire, qui continue de la fin d'une ligne au début de la suivante."};
const Message kLayoutHint{
    "the points are written as if z were the fastest index: x is the fastest, point (x, y, z) "
    "is element (z * ny + y) * nx + x.",
    "les points sont écrits comme si z était l'indice le plus rapide : c'est x, et le point "
    "(x, y, z) est l'élément (z * ny + y) * nx + x."};
const Message kSwapHint{
    "x and z are swapped in the kernel: x must come from the .x components (blockIdx.x * "
    "blockDim.x + threadIdx.x) and z from the .z ones (dim3's leftmost index is the fastest).",
    "x et z sont inversés dans le kernel : x doit venir des composantes .x (blockIdx.x * "
    "blockDim.x + threadIdx.x) et z des composantes .z (l'indice le plus à gauche de dim3 est "
    "le plus rapide)."};
const Message kCoverageHint{
    "some points were never written: the grid must cover the whole box, ceil(nx / block.x) x "
    "ceil(ny / block.y) x ceil(nz / block.z) blocks, and each thread must take x, y and z from "
    "the .x, .y and .z components.",
    "certains points n'ont jamais été écrits : la grille doit couvrir toute la boîte, "
    "ceil(nx / block.x) x ceil(ny / block.y) x ceil(nz / block.z) blocs, et chaque thread doit "
    "prendre x, y et z dans les composantes .x, .y et .z."};
const Message kBoundsHint{
    "the last block sticks out of the grid in every dimension: a thread may write only when "
    "x < nx, y < ny and z < nz, all three.",
    "le dernier bloc dépasse de la grille dans chaque dimension : un thread ne peut écrire que "
    "si x < nx, y < ny et z < nz, les trois à la fois."};
const Message kBlockShapeHint{
    "stencil_on_gpu must launch stencil_kernel on blocks of exactly the shape it is given (its "
    "dim3 block argument), and compute the grid from that shape.",
    "stencil_on_gpu doit lancer stencil_kernel sur des blocs exactement de la forme reçue (son "
    "argument dim3 block), et calculer la grille d'après cette forme."};
const Message kRaceHint{
    "points wrong or never written with several threads: a variable that the threads share "
    "is a data race. "
    "Declare every variable an iteration writes inside the loop, and compute each point's "
    "index from x, y and z, never with a counter carried from one iteration to the next.",
    "des points faux ou jamais écrits avec plusieurs threads : une variable que les threads "
    "partagent est une situation de compétition. Déclarez chaque variable qu'une itération "
    "écrit dans la boucle, et calculez l'indice de chaque point à partir de x, y et z, jamais "
    "avec un compteur reporté d'une itération à la suivante."};

// The record `name` of a run when it has this type and count, else nullptr.
const course::check::Record* find_record(const Run& run, const std::string& name,
                                         course::check::ValueType type, std::size_t count) {
  const auto found = run.results.records.find(name);
  if (found == run.results.records.end() || found->second.type != type ||
      found->second.count != count) {
    return nullptr;
  }
  return &found->second;
}

// ---------------------------------------------------------------------------
// The reference, in double precision (workload.hpp)
// ---------------------------------------------------------------------------
std::vector<double> reference(const Grid& g, std::uint64_t seed) {
  return three_d_blocks::reference_stencil(three_d_blocks::make_input(g.nx, g.ny, g.nz, seed), g.nx,
                                           g.ny, g.nz);
}

// ---------------------------------------------------------------------------
// Diagnosis: where the wrong points lie says which mistake it is
// ---------------------------------------------------------------------------

// The coordinates of element i.
struct Point {
  int x, y, z;
};
Point point_of(std::size_t i, const Grid& g) {
  const std::size_t row = i / static_cast<std::size_t>(g.nx);
  return {static_cast<int>(i % static_cast<std::size_t>(g.nx)),
          static_cast<int>(row % static_cast<std::size_t>(g.ny)),
          static_cast<int>(row / static_cast<std::size_t>(g.ny))};
}

int coordinate(const Point& p, int dimension) {
  return dimension == 0 ? p.x : (dimension == 1 ? p.y : p.z);
}
int size_of(const Grid& g, int dimension) {
  return dimension == 0 ? g.nx : (dimension == 1 ? g.ny : g.nz);
}
int size_of(const Block& b, int dimension) {
  return dimension == 0 ? b.x : (dimension == 1 ? b.y : b.z);
}
constexpr const char* kAxis[3] = {"x", "y", "z"};

Message describe_point(std::size_t i, const Grid& g) {
  const Point p = point_of(i, g);
  return Message{"index {} is (x, y, z) = ({}, {}, {})", "l'indice {} est (x, y, z) = ({}, {}, {})"}
      .with(i, p.x, p.y, p.z);
}

// True when the points that `predicate` selects are exactly the unwritten ones.
template <typename Predicate>
bool unwritten_are_exactly(const std::vector<bool>& unwritten, const Grid& g, Predicate predicate) {
  for (std::size_t i = 0; i < unwritten.size(); ++i) {
    if (unwritten[i] != predicate(point_of(i, g))) return false;
  }
  return true;
}

// The smallest box holding every point of `selected`, as text.
Message bounding_box(const std::vector<bool>& selected, const Grid& g) {
  int low[3] = {size_of(g, 0), size_of(g, 1), size_of(g, 2)};
  int high[3] = {-1, -1, -1};
  for (std::size_t i = 0; i < selected.size(); ++i) {
    if (!selected[i]) continue;
    const Point p = point_of(i, g);
    for (int d = 0; d < 3; ++d) {
      low[d] = std::min(low[d], coordinate(p, d));
      high[d] = std::max(high[d], coordinate(p, d));
    }
  }
  Message text;
  for (int d = 0; d < 3; ++d) {
    if (d > 0) text += Message::verbatim(", ");
    text += Message{"{} from {} to {}", "{} de {} à {}"}.with(kAxis[d], low[d], high[d]);
  }
  return text;
}

// Points never written, on the GPU: the grid (or the kernel's indexing) leaves them out.
void diagnose_unwritten_on_gpu(CaseContext& c, const std::vector<bool>& unwritten, const Grid& g,
                               const Block& b) {
  for (int d = 0; d < 3; ++d) {
    const int whole_blocks_end = size_of(g, d) / size_of(b, d) * size_of(b, d);
    if (whole_blocks_end == size_of(g, d)) continue;
    if (unwritten_are_exactly(unwritten, g, [&](const Point& p) {
          return coordinate(p, d) >= whole_blocks_end;
        })) {
      const std::string axis = kAxis[d];
      c.note(Message{"exactly the points with {} >= {} are missing: the blocks stop at the last "
                     "whole block in {}",
                     "il manque exactement les points où {} >= {} : les blocs s'arrêtent au "
                     "dernier bloc entier en {}"}
                 .with(axis, whole_blocks_end, axis));
      c.hint(Message{"the grid stops at the last whole block in {}: round it up in each "
                     "dimension, grid.{} = (n{} + block.{} - 1) / block.{}.",
                     "la grille s'arrête au dernier bloc entier en {} : arrondissez à "
                     "l'entier supérieur dans chaque dimension, grid.{} = (n{} + block.{} - 1) "
                     "/ block.{}."}
                 .with(axis, axis, axis, axis, axis));
      return;
    }
  }
  // A kernel with x and z swapped covers x up to the grid's reach in z, and z up to
  // its reach in x.
  const int reach_x = (g.nx + b.x - 1) / b.x * b.x;
  const int reach_z = (g.nz + b.z - 1) / b.z * b.z;
  if (unwritten_are_exactly(unwritten, g,
                            [&](const Point& p) { return p.x >= reach_z || p.z >= reach_x; })) {
    c.note(Message{"the points written are those with x < {} and z < {}: what the grid reaches in "
                   "z and in x, swapped",
                   "les points écrits sont ceux où x < {} et z < {} : ce que la grille atteint en "
                   "z et en x, inversés"}
               .with(reach_z, reach_x));
    c.hint(kSwapHint);
    return;
  }
  c.note(Message{"never written: ", "jamais écrits : "} + bounding_box(unwritten, g));
  c.hint(kCoverageHint);
}

// Which of the six faces hold most of the wrong points, e.g. "x = 0, x = nx - 1".
std::string faces_with_errors(const std::vector<bool>& wrong, const Grid& g) {
  std::string faces;
  for (int d = 0; d < 3; ++d) {
    for (const bool far_side : {false, true}) {
      const int at = far_side ? size_of(g, d) - 1 : 0;
      std::size_t on_face = 0, wrong_on_face = 0;
      for (std::size_t i = 0; i < wrong.size(); ++i) {
        if (coordinate(point_of(i, g), d) != at) continue;
        ++on_face;
        if (wrong[i]) ++wrong_on_face;
      }
      if (2 * wrong_on_face > on_face) {
        faces += std::string(faces.empty() ? "" : ", ") + kAxis[d] + " = " +
                 (far_side ? "n" + std::string(kAxis[d]) + " - 1" : "0");
      }
    }
  }
  return faces;
}

// True when `got` holds the right values, each written where a z-fastest layout puts it.
bool matches_z_fastest_layout(const std::vector<float>& got, const std::vector<double>& ref,
                              const Grid& g) {
  for (int z = 0; z < g.nz; ++z) {
    for (int y = 0; y < g.ny; ++y) {
      for (int x = 0; x < g.nx; ++x) {
        const std::size_t z_fastest = (static_cast<std::size_t>(x) * g.ny + y) * g.nz + z;
        if (!course::within_tolerance(got[z_fastest], ref[linear_index(x, y, z, g.nx, g.ny)],
                                      three_d_blocks::kTolerance)) {
          return false;
        }
      }
    }
  }
  return true;
}

// Every point written, some wrong: the border or the layout. Returns false when the
// wrong points follow neither pattern.
bool diagnose_wrong_values(CaseContext& c, const std::vector<float>& got,
                           const std::vector<double>& ref, const std::vector<bool>& wrong,
                           const Grid& g) {
  // Only a grid with interior points can tell a border mistake from any other.
  bool all_on_border = g.nx > 2 && g.ny > 2 && g.nz > 2;
  for (std::size_t i = 0; i < wrong.size() && all_on_border; ++i) {
    if (!wrong[i]) continue;
    const Point p = point_of(i, g);
    all_on_border =
        p.x == 0 || p.x == g.nx - 1 || p.y == 0 || p.y == g.ny - 1 || p.z == 0 || p.z == g.nz - 1;
  }
  if (all_on_border) {
    const std::string faces = faces_with_errors(wrong, g);
    c.note(Message{"every wrong point lies on the border of the grid",
                   "chaque point faux est sur le bord de la grille"} +
           (faces.empty()
                ? Message()
                : Message{" (mostly on the faces {})", " (surtout sur les faces {})"}.with(faces)));
    c.hint(kBorderHint);
    return true;
  }
  if (matches_z_fastest_layout(got, ref, g)) {
    c.note({"the values are right but each sits where a z-fastest layout would put it",
            "les valeurs sont justes mais chacune est là où la mettrait un rangement avec z le "
            "plus rapide"});
    c.hint(kLayoutHint);
    return true;
  }
  return false;
}

enum class Side { serial, openmp_one_thread, openmp_threads, gpu };

// Compares the record result::out with the reference; on a mismatch says what and where, and
// which mistake it looks like. `block` is the GPU's block shape (for Side::gpu).
bool expect_grid(CaseContext& c, const Run& run, const Grid& g, Side side,
                 const Block& block = kBlock32x4x2) {
  std::vector<float> got;
  if (!CaseContext::reported(run, result::out) || !c.read_array(run, result::out, got) ||
      got.size() != g.points()) {
    c.fail(Message{"the program reported no output 'out' of {} floats",
                   "le programme n'a rendu aucune sortie « out » de {} floats"}
               .with(g.points()));
    return false;
  }
  const std::vector<double> ref = reference(g, c.seed());
  const course::Comparison comparison =
      course::compare(got.data(), ref.data(), ref.size(), three_d_blocks::kTolerance);
  if (comparison.ok()) return true;
  c.fail(course::check::describe_mismatch(
      comparison, three_d_blocks::kTolerance,
      Message{"out (grid {})", "out (grille {})"}.with(g.text()).text()));
  c.note(Message{"first wrong point: ", "premier point faux : "} +
         describe_point(comparison.first.front().index, g));

  if (comparison.unwritten == comparison.count) {
    c.hint(side == Side::gpu
               ? Message{"no point of out was written: does stencil_on_gpu launch the kernel and "
                         "copy the result back into host_out?",
                         "aucun point de out n'a été écrit : stencil_on_gpu lance-t-il le kernel "
                         "et recopie-t-il le résultat dans host_out ?"}
               : Message{"no point of out was written: is the loop written?",
                         "aucun point de out n'a été écrit : la boucle est-elle écrite ?"});
    return false;
  }
  std::vector<bool> unwritten(got.size()), wrong(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    unwritten[i] = course::is_poison(got[i]);
    wrong[i] =
        unwritten[i] || !course::within_tolerance(got[i], ref[i], three_d_blocks::kTolerance);
  }
  if (side == Side::gpu && comparison.unwritten > 0) {
    diagnose_unwritten_on_gpu(c, unwritten, g, block);
    return false;
  }
  if (comparison.unwritten > 0) {
    c.note(Message{"never written: ", "jamais écrits : "} + bounding_box(unwritten, g));
  } else if (diagnose_wrong_values(c, got, ref, wrong, g)) {
    return false;
  }
  // No pattern: with several threads, points written at random places or not at all
  // are the mark of a race.
  if (side == Side::openmp_threads) {
    c.hint(kRaceHint);
  } else if (comparison.unwritten > 0) {
    c.hint({"the loops must visit every point: 0 <= z < nz, 0 <= y < ny, 0 <= x < nx.",
            "les boucles doivent parcourir chaque point : 0 <= z < nz, 0 <= y < ny, 0 <= x < nx."});
  } else {
    c.hint(kFormulaHint);
  }
  return false;
}

// ---------------------------------------------------------------------------
// The CPU cases
// ---------------------------------------------------------------------------
bool check_serial(CaseContext& c, const Grid& g) {
  const Run run = c.run(request::serial, {g.nx, g.ny, g.nz});
  const bool ok =
      c.finished(run) &&
      c.expect_host_guard_untouched(
          run, result::out, "stencil_serial",
          {"the loops must stop before z = nz, y = ny and x = nx, and write element (z * ny + y) "
           "* nx + x.",
           "les boucles doivent s'arrêter avant z = nz, y = ny et x = nx, et écrire l'élément "
           "(z * ny + y) * nx + x."}) &&
      expect_grid(c, run, g, Side::serial);
  if (!ok) {
    c.note(Message{"(stencil_serial on a {} grid)", "(stencil_serial sur une grille {})"}.with(
        g.text()));
  }
  return ok;
}

bool check_openmp(CaseContext& c, const Grid& g, int threads) {
  const Run run = c.run(request::openmp, {g.nx, g.ny, g.nz, threads});
  const bool ok =
      c.finished(run) &&
      c.expect_host_guard_untouched(run, result::out, "stencil_openmp",
                                    {"the loops must stop before z = nz, y = ny and x = nx.",
                                     "les boucles doivent s'arrêter avant z = nz, y = ny et "
                                     "x = nx."}) &&
      expect_grid(c, run, g, threads > 1 ? Side::openmp_threads : Side::openmp_one_thread);
  if (!ok) {
    c.note(Message{"(stencil_openmp on a {} grid with {} thread(s))",
                   "(stencil_openmp sur une grille {} avec {} thread(s))"}
               .with(g.text(), threads));
  }
  return ok;
}

// ---------------------------------------------------------------------------
// The GPU cases
// ---------------------------------------------------------------------------

// The block shape of the student's launch (the runner records the last one).
bool expect_block_shape(CaseContext& c, const Run& run, const Block& block) {
  const course::check::Record* record =
      find_record(run, course::check::kLastLaunchRecord, course::check::ValueType::i64, 6);
  if (record == nullptr) {
    c.fail({"the program reported no launch configuration",
            "le programme n'a rendu aucune configuration de lancement"});
    return false;
  }
  const std::vector<std::int64_t> launch = record->values<std::int64_t>();
  if (launch[3] == block.x && launch[4] == block.y && launch[5] == block.z) return true;
  c.fail(Message{"stencil_kernel was launched on blocks of {}x{}x{} threads, but stencil_on_gpu "
                 "was asked for {}",
                 "stencil_kernel a été lancé sur des blocs de {}x{}x{} threads, mais "
                 "stencil_on_gpu avait reçu {}"}
             .with(launch[3], launch[4], launch[5], block.text()));
  c.hint(kBlockShapeHint);
  return false;
}

request::Gpu gpu_params(const Grid& g, const Block& b) { return {g.nx, g.ny, g.nz, b.x, b.y, b.z}; }

bool had_overrun(const Run& run) {
  const course::check::Record* record =
      find_record(run, course::check::kOverrunRecord, course::check::ValueType::i64, 1);
  return record != nullptr && record->values<std::int64_t>()[0] > 0;
}

// One stencil_on_gpu call (after an empty one for kind request::gpu_after_empty), graded
// whole.
bool check_gpu_run(CaseContext& c, const Run& run, const Grid& g, const Block& b,
                   const Request<request::Gpu>& kind) {
  if (!c.finished(run)) {
    if (had_overrun(run)) c.hint(kBoundsHint);
    return false;
  }
  if (!c.expect_kernel_launched(run) || !expect_block_shape(c, run, b)) return false;
  if (kind.name == request::gpu_after_empty.name &&
      !c.expect_host_guard_untouched(run, result::empty_out, "stencil_on_gpu (nx = 0)",
                                     {"a grid without points has nothing to copy: return at "
                                      "once.",
                                      "une grille sans points n'a rien à copier : rendez la main "
                                      "aussitôt."})) {
    return false;
  }
  return c.expect_host_guard_untouched(run, result::out, "stencil_on_gpu",
                                       {"copy back nx * ny * nz * sizeof(float) bytes into "
                                        "host_out, no more.",
                                        "recopiez nx * ny * nz * sizeof(float) octets dans "
                                        "host_out, pas plus."}) &&
         expect_grid(c, run, g, Side::gpu, b);
}

bool check_gpu(CaseContext& c, const Grid& g, const Block& b,
               const Request<request::Gpu>& kind = request::gpu) {
  const Run run = c.run(kind, gpu_params(g, b));
  const bool ok = check_gpu_run(c, run, g, b, kind);
  if (!ok) {
    c.note(Message{"(stencil_on_gpu on a {} grid, blocks of {})",
                   "(stencil_on_gpu sur une grille {}, blocs de {})"}
               .with(g.text(), b.text()));
  }
  return ok;
}

// The time stencil_on_gpu returns: a positive number of milliseconds, at most the time
// of the whole call around it, and not much longer than the kernel the check timed
// around the student's launch. The grid is large enough (32 MiB per array) that copying
// it takes several times longer than the kernel on any GPU the course runs on.
constexpr Grid kTimingGrid{256, 256, 128};

void check_kernel_time(CaseContext& c) {
  const Run run = c.run(request::gpu, gpu_params(kTimingGrid, kBlock32x4x2));
  if (!check_gpu_run(c, run, kTimingGrid, kBlock32x4x2, request::gpu)) return;
  course::check::ReportedTime t{"stencil_on_gpu",
                                {"the kernel", "le kernel"},
                                Message{"{} points", "{} points"}.with(kTimingGrid.text())};
  if (!c.read_value(run, result::kernel_ms, t.reported_ms) ||
      !c.read_value(run, result::call_ms, t.call_ms) ||
      !course::check::read_watched_call(c, run, t)) {
    return;
  }
  course::check::expect_plausible_time(
      c, t,
      {{"time the kernel with a course::EventTimer: start() before the launch, stop() after "
        "it, and return elapsed_ms().",
        "mesurez le kernel avec un course::EventTimer : start() avant le lancement, stop() "
        "après, et rendez elapsed_ms()."},
       {"return the kernel's own time in milliseconds (elapsed_ms() of one launch).",
        "rendez le temps du kernel lui-même en millisecondes (elapsed_ms() d'un lancement)."},
       {"time the kernel alone: start() right before the launch and stop() right after it, "
        "with the copies and cudaMalloc/cudaFree outside the timed region.",
        "mesurez le kernel seul : start() juste avant le lancement et stop() juste après, "
        "les copies et cudaMalloc/cudaFree hors de la zone mesurée."},
       {}});
}

// A grid and a block shape the student has not seen: drawn from the seed, so graders
// change them with --seed. Sizes up to 70, shapes from the demo's and odd ones.
constexpr int kHiddenMaxSize = 70;
constexpr Block kHiddenBlocks[] = {{32, 4, 2},  {16, 8, 4},  {8, 8, 8}, {4, 8, 32},  {1, 32, 32},
                                   {128, 2, 1}, {256, 1, 1}, {3, 5, 7}, {64, 1, 16}, {2, 16, 16}};
constexpr std::uint64_t kHiddenShapeSalt = 5;

void check_hidden(CaseContext& c) {
  // A stream of its own, apart from the one that draws the inputs from the same seed.
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  Grid g{};
  // nx != nz, so that no mistake that swaps x and z can pass.
  do {
    g = {static_cast<int>(rng.uniform_int(1, kHiddenMaxSize)),
         static_cast<int>(rng.uniform_int(1, kHiddenMaxSize)),
         static_cast<int>(rng.uniform_int(1, kHiddenMaxSize))};
  } while (g.nx == g.nz);
  const int block_count = static_cast<int>(std::size(kHiddenBlocks));
  check_gpu(c, g, kHiddenBlocks[rng.uniform_int(0, block_count - 1)]);
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::host_only;
  course::check::Exercise exercise{
      "05",
      "three_d_blocks",
      {
          // The CPU side: no GPU needed.
          host_only({"serial_37x61x19", 2, [](CaseContext& c) { check_serial(c, kOddGrid); }}),
          host_only({"serial_one_point_and_flat_grids", 2,
                     [](CaseContext& c) {
                       for (const Grid& g :
                            {Grid{1, 1, 1}, Grid{1000, 1, 1}, Grid{1, 1, 1000}, Grid{2, 3, 1}}) {
                         if (!check_serial(c, g)) return;
                       }
                     }}),
          host_only({"openmp_1_thread", 1, [](CaseContext& c) { check_openmp(c, kOddGrid, 1); }}),
          host_only({"openmp_3_threads", 2, [](CaseContext& c) { check_openmp(c, kOddGrid, 3); }}),
          host_only({"openmp_4_threads_96x80x72", 2,
                     [](CaseContext& c) {
                       check_openmp(c, Grid{96, 80, 72}, 4);
                     }}),
          host_only({"openmp_7_threads_flat_grids", 1,
                     [](CaseContext& c) {
                       for (const Grid& g : {Grid{1, 1, 1000}, Grid{1000, 1, 1}, Grid{1, 1, 1}}) {
                         if (!check_openmp(c, g, 7)) return;
                       }
                     }}),
          // The GPU side.
          {"gpu_one_point_1x1x1", 1,
           [](CaseContext& c) {
             check_gpu(c, Grid{1, 1, 1}, kBlock32x4x2);
           }},
          {"gpu_empty_grid_then_5x6x7", 1,
           [](CaseContext& c) {
             check_gpu(c, Grid{5, 6, 7}, Block{8, 8, 8}, request::gpu_after_empty);
           }},
          {"blocks_32x4x2_on_37x61x19", 2,
           [](CaseContext& c) { check_gpu(c, kOddGrid, kBlock32x4x2); }},
          {"blocks_1x32x32_on_37x61x19", 2,
           [](CaseContext& c) { check_gpu(c, kOddGrid, kBlock1x32x32); }},
          {"blocks_3x5x7_odd_shape", 1,
           [](CaseContext& c) {
             check_gpu(c, kOddGrid, Block{3, 5, 7});
           }},
          {"blocks_256x1x1_on_300x20x10", 1,
           [](CaseContext& c) {
             check_gpu(c, Grid{300, 20, 10}, Block{256, 1, 1});
           }},
          {"gpu_flat_1000x1x1", 1,
           [](CaseContext& c) {
             check_gpu(c, Grid{1000, 1, 1}, kBlock32x4x2);
           }},
          {"gpu_flat_1x1x1000", 1,
           [](CaseContext& c) {
             check_gpu(c, Grid{1, 1, 1000}, kBlock1x32x32);
           }},
          {"hidden_shape_from_seed", 2, check_hidden, course::check::kHiddenCase},
          course::check::timed({"returns_the_kernel_time", 1, check_kernel_time}),
          {"frees_its_device_memory", 2,
           [](CaseContext& c) {
             const Grid g{128, 96, 40};
             const Run run = c.run(request::gpu, gpu_params(g, kBlock32x4x2));
             if (check_gpu_run(c, run, g, kBlock32x4x2, request::gpu)) c.expect_no_leak(run);
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
