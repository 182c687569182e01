// Exercise 24 - the check. Each case runs one step of the student's program under the
// compute-sanitizer tool that reports that step's bug, reads the tool's report (any
// error fails the case, and is shown), then compares the step's output with a reference
// computed here: a bug hidden rather than fixed still fails. Contains no student code.
//
//   make check-24                          (students; compute-sanitizer found beside nvcc)
//   build/.../check_24 --program PROGRAM --compute-sanitizer PATH   (instructors)
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "sanitizer_debugging.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace workload = sanitizer_debugging;
namespace request = sanitizer_debugging::request;

// Not a multiple of the block size: the last block is partial, and its idle threads
// must neither write nor skip a barrier the others wait at.
constexpr int kElements = 3000;
constexpr int kFrames = 5;
// A step takes milliseconds; under a tool, seconds (the tool's start): this limit,
// scaled for the tool (session.hpp), still ends a step that hangs in minutes, not hours.
constexpr double kStepSeconds = 8.0;

// One step of the program, as a case judges it.
struct Step {
  course::check::Request<request::Step> kind;  // the case the program computes (harness/cases.cu)
  std::string function;                        // the student's function it calls
  course::check::Array<float> output;          // the record it reports
  course::Tolerance tolerance;
  Message wrong_hint;  // under wrong values
  // The reference, from the case's seed.
  std::function<std::vector<double>(std::uint64_t seed)> reference;
};

const Step kReverse{request::reverse,
                    "reverse_on_device",
                    workload::result::out,
                    workload::kMoveTolerance,
                    Message{"x[i] belongs at out[n - 1 - i]: the first value at the last place. "
                            "An index clamped into the array hides the overrun from memcheck but "
                            "still puts values in the wrong places.",
                            "x[i] va en out[n - 1 - i] : la première valeur à la dernière place. "
                            "Un indice ramené de force dans le tableau cache le débordement à "
                            "memcheck, mais place toujours des valeurs au mauvais endroit."},
                    [](std::uint64_t seed) {
                      return workload::reverse_reference(workload::make_input(kElements, seed));
                    }};
const Step kSmooth{request::smooth,
                   "smooth_on_device",
                   workload::result::out,
                   workload::kMeanTolerance,
                   Message{"out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3, with 0 outside the array: "
                           "every thread reads what its neighbours loaded.",
                           "out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3, avec 0 hors du tableau : "
                           "chaque thread lit ce que ses voisins ont chargé."},
                   [](std::uint64_t seed) {
                     return workload::smooth_reference(workload::make_input(kElements, seed));
                   }};
const Step kBlockSums{request::block_sums,
                      "block_sums_on_device",
                      workload::result::sums,
                      workload::kBlockSumTolerance,
                      Message{"sums[b] is the sum of block b's elements: every level of the tree "
                              "must see the whole level before it.",
                              "sums[b] est la somme des éléments du bloc b : chaque niveau de "
                              "l'arbre doit voir en entier le niveau qui le précède."},
                      [](std::uint64_t seed) {
                        return workload::block_sums_reference(workload::make_input(kElements, seed),
                                                              kThreadsPerBlock);
                      }};
const Step kAverage{request::average,
                    "average_frames_on_device",
                    workload::result::mean,
                    workload::kMeanTolerance,
                    Message{"the mean of the frames: a sum that starts from zeros, divided by the "
                            "number of frames.",
                            "la moyenne des trames : une somme qui part de zéros, divisée par le "
                            "nombre de trames."},
                    [](std::uint64_t seed) {
                      return workload::mean_reference(
                          workload::make_frames(kFrames, kElements, seed), kFrames, kElements);
                    }};

// Runs the step under the case's tool (a report fails the case in run), then
// judges its output.
void check_step(CaseContext& c, const Step& step) {
  const Run run = c.run(step.kind, {kElements, kFrames}, 0, kStepSeconds);
  if (!c.finished(run)) return;
  if (!c.expect_array(run, step.output, step.reference(c.seed()), step.tolerance,
                      step.wrong_hint)) {
    c.note(Message::verbatim("({}, n = {})").with(step.function, kElements));
  }
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::under_tool;
  course::check::Exercise exercise{
      "24",
      "sanitizer_debugging",
      {
          under_tool("memcheck", {"step1_reverse_memcheck", 5,
                                  [](CaseContext& c) { check_step(c, kReverse); }}),
          under_tool("racecheck",
                     {"step2_smooth_racecheck", 5, [](CaseContext& c) { check_step(c, kSmooth); }}),
          under_tool("synccheck", {"step3_block_sums_synccheck", 5,
                                   [](CaseContext& c) { check_step(c, kBlockSums); }}),
          under_tool("initcheck", {"step4_average_initcheck", 5,
                                   [](CaseContext& c) { check_step(c, kAverage); }}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
