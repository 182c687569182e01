// Exercise 03 - the demo (`make run-03`): the seed course's example (64 values doubled
// on the GPU and printed), then a larger run compared with the CPU.
#include <cstdio>
#include <vector>

#include "course/demo_results.hpp"
#include "course/device_info.hpp"
#include "course/program.hpp"
#include "course/verify.hpp"
#include "device_memory.hpp"
#include "workload.hpp"

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  course::StudentFunction affine("affine_on_gpu");

  // The seed course's example: 0, 1, ..., 63, doubled on the GPU.
  const int small_n = 64;
  std::vector<float> x(small_n), y(small_n);
  std::vector<double> doubled(small_n);
  for (int i = 0; i < small_n; ++i) {
    x[i] = static_cast<float>(i);
    doubled[i] = 2.0 * i;
  }
  course::poison(y.data(), y.size());
  affine_on_gpu(x.data(), y.data(), small_n, 2.0f, 0.0f);
  if (affine.judge(course::compare(y.data(), doubled.data(), y.size(), course::kExact), "y = 2 x")
          .right) {
    std::printf("y = 2 * x for x = 0..%d:\n", small_n - 1);
    for (int i = 0; i < small_n; ++i) std::printf("%5g%s", y[i], (i % 16 == 15) ? "\n" : " ");
  }

  // A million random values, compared with the CPU.
  const int large_n = 1 << 20;
  const float scale = 1.5f, offset = -0.25f;
  const std::vector<float> big_x = device_memory::make_input(large_n, 42);
  std::vector<float> big_y(big_x.size());
  course::poison(big_y.data(), big_y.size());
  affine_on_gpu(big_x.data(), big_y.data(), large_n, scale, offset);
  const std::vector<double> expected = device_memory::reference(big_x, scale, offset);
  const course::Tolerance tolerance{1e-5, 1e-6};
  const course::Comparison comparison =
      course::compare(big_y.data(), expected.data(), expected.size(), tolerance);
  const char* what = "y = 1.5 x - 0.25, n = 2^20";
  if (affine.judge(comparison, what).right) {
    std::printf("\n%s", course::describe(comparison, tolerance, what).c_str());
  }
  std::printf("(this compares with the CPU; `make check-03` grades every case)\n");
  return course::demo_status({&affine});
}
