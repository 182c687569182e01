// Exercise 03 - the check. Runs the student's program case by case and compares
// what it reports with references computed here. Contains no student code.
//
//   make check-03                          (students)
//   build/.../check_03 --program PROGRAM   (instructors; --help lists the options)
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::kCaseSeed;
using course::check::Message;
using course::check::Request;
using course::check::Run;
namespace request = device_memory::request;

// y = scale * x + offset in float32: one multiply and one add (or one fused
// multiply-add), so the error is within an ulp or two of |scale * x|, which is at
// most 4 * 10 here; 1e-5 covers two ulps of 40 with room to spare.
constexpr course::Tolerance kTolerance{1e-5, 1e-6};

// Each case's time limit. The largest case moves 5 million floats each way: milliseconds
// on any GPU the course supports, so 5 s keeps a margin of a thousand (the course's
// default, 20 s, is for heavier work). A program that hangs is stopped after 5 s, and
// holds the GPU that long, not 20 s, while the other checks of the machine wait for it.
constexpr double kCaseSeconds = 5.0;

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kFormulaHint{
    "each element must be y[i] = scale * x[i] + offset, with i the global index "
    "blockIdx.x * blockDim.x + threadIdx.x.",
    "chaque élément doit valoir y[i] = scale * x[i] + offset, où i est l'indice global "
    "blockIdx.x * blockDim.x + threadIdx.x."};

// Runs one affine case and compares every element.
bool check_affine(CaseContext& c, int n, double scale, double offset,
                  const Request<request::Affine>& kind = request::affine) {
  const Run run = c.run(kind, {n, scale, offset}, kCaseSeed, kCaseSeconds);
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return false;
  const std::vector<float> x = device_memory::make_input(n, c.seed());
  const std::vector<double> expected = device_memory::reference(x, float(scale), float(offset));
  return c.expect_array(run, device_memory::result::y, expected, kTolerance, kFormulaHint);
}

// A size the student has not seen: drawn from the seed, so graders change it with --seed.
int hidden_size(std::uint64_t seed) {
  course::Rng rng(seed);
  return static_cast<int>(rng.uniform_int(1, 3000000));
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "03",
      "device_memory",
      {
          {"n_is_one", 2, [](CaseContext& c) { check_affine(c, 1, 2.0, 0.5); }},
          {"seed_example_64_doubled", 2, [](CaseContext& c) { check_affine(c, 64, 2.0, 0.0); }},
          {"n_zero_then_five", 2,
           [](CaseContext& c) { check_affine(c, 5, -1.5, 3.0, request::affine_after_empty); }},
          {"n_smaller_than_a_block", 2, [](CaseContext& c) { check_affine(c, 100, 0.5, 1.0); }},
          {"n_not_a_multiple_of_256", 3, [](CaseContext& c) { check_affine(c, 1000, 3.0, -2.0); }},
          {"n_exact_multiple_of_256", 2, [](CaseContext& c) { check_affine(c, 4096, 1.25, 0.0); }},
          {"five_million_and_three", 3,
           [](CaseContext& c) { check_affine(c, 5000003, -4.0, 7.5); }},
          {"hidden_size_from_seed", 2,
           [](CaseContext& c) { check_affine(c, hidden_size(c.seed()), 2.5, -1.0); },
           course::check::kHiddenCase},
          {"frees_its_device_memory", 2,
           [](CaseContext& c) {
             const int n = 1 << 20;
             const Run run = c.run(request::affine, {n, 1.0, 1.0}, kCaseSeed, kCaseSeconds);
             if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
             const std::vector<double> expected =
                 device_memory::reference(device_memory::make_input(n, c.seed()), 1.0, 1.0);
             if (c.expect_array(run, device_memory::result::y, expected, kTolerance,
                                kFormulaHint)) {
               c.expect_no_leak(run);
             }
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
