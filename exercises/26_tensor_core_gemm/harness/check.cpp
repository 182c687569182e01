// Exercise 26 - the check. Runs the student's program case by case and compares what
// it reports with references computed here. Contains no student code.
//
//   make check-26                          (students)
//   build/.../check_26 --program PROGRAM   (instructors; --help lists the options)
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace result = tensor_core_gemm::result;

// TODO(maintainer): the cases this exercise must not miss (n = 0 and 1, less than one
// block, a partial last block, more elements than one grid covers, a size drawn from the
// seed...), each with its points; their sum is POINTS in CMakeLists.txt.

// Three full blocks of 256 threads and a partial one: a grid rounded down leaves the
// last 232 elements unwritten, and a kernel without its bounds check writes past y.
constexpr int kPartialBlockSize = 1000;
constexpr double kFactor = -2.5;

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kFormulaHint{
    "each element must be y[i] = factor * x[i], with i the global index "
    "blockIdx.x * blockDim.x + threadIdx.x.",
    "chaque élément doit valoir y[i] = factor * x[i], où i est l'indice global "
    "blockIdx.x * blockDim.x + threadIdx.x."};

// Runs one scaling of n elements; every element must be right, and nothing may leak.
void check_scale(CaseContext& c, int n, double factor) {
  const Run run = c.run(tensor_core_gemm::request::scale, {n, factor});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  const std::vector<float> x = tensor_core_gemm::make_input(n, c.seed());
  const std::vector<double> expected = tensor_core_gemm::reference(x, factor);
  const course::Tolerance tolerance = tensor_core_gemm::kTolerance;
  if (c.expect_array(run, result::y, expected, tolerance, kFormulaHint)) {
    c.expect_no_leak(run);
  }
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "26",
      "tensor_core_gemm",
      {
          {"n_not_a_multiple_of_256", 10,
           [](CaseContext& c) { check_scale(c, kPartialBlockSize, kFactor); }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
