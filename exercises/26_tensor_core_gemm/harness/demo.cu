// Exercise 26 - the demo (`make run-26`): a million values scaled on the GPU
// and compared with the CPU.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "workload.hpp"

// The functions under test.
#include "tensor_core_gemm.hpp"

namespace {

constexpr int kDemoSize = 1 << 20;
constexpr float kDemoFactor = 1.5f;
constexpr std::uint64_t kDemoSeed = 42;

}  // namespace

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  const std::vector<float> x = tensor_core_gemm::make_input(kDemoSize, kDemoSeed);
  std::vector<float> y(x.size());
  course::poison(y.data(), y.size());
  scale_on_gpu(x.data(), y.data(), kDemoSize, kDemoFactor);
  const std::vector<double> expected = tensor_core_gemm::reference(x, kDemoFactor);
  const course::Tolerance tolerance = tensor_core_gemm::kTolerance;
  // Judged before anything is shown (course/demo_results.hpp): a skeleton that writes
  // nothing prints "not implemented yet: scale_on_gpu", a wrong one its first mismatch.
  // TODO(maintainer): time the functions here, only where the result was right.
  course::StudentFunction scale("scale_on_gpu");
  const course::Comparison comparison =
      course::compare(y.data(), expected.data(), expected.size(), tolerance);
  const course::Judgement result = scale.judge(comparison, "y = 1.5 x, n = 2^20");
  if (result.right) std::printf("y = 1.5 x on 2^20 values: every value right\n");
  std::printf("(this compares with the CPU; `make check-26` grades every case)\n");
  return course::demo_status({&scale});
}
