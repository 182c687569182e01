// Exercise 21: what the demo (harness/demo.cu) and the check's cases (harness/cases.cu)
// both run: the student's steps by name, the yardsticks they are timed against (the
// course's coalesced naive kernel and cuBLAS), and a problem on the device.
#pragma once

#include <cublas_v2.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "course/cublas_handle.hpp"
#include "course/device_buffer.hpp"
#include "course/errors_cublas.hpp"
#include "tiled_sgemm.hpp"
#include "workload.hpp"

namespace tiled_sgemm {

using Launcher = void (*)(int, int, int, float, const float*, const float*, float, float*);

// ---------------------------------------------------------------------------
// The steps, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;      // the check's
  const char* function;  // the student's launcher, as the demo names it
  const char* label;     // the demo's
  Launcher launcher;
};

inline const Step kSteps[] = {
    {"naive", "sgemm_naive_on_device", "1 naive", sgemm_naive_on_device},
    {"shared_tiles", "sgemm_shared_tiles_on_device", "2 shared-memory tiles 32 x 32",
     sgemm_shared_tiles_on_device},
    {"blocking_1d", "sgemm_blocking_1d_on_device", "3 1D blocking, 8 per thread",
     sgemm_blocking_1d_on_device},
    {"blocking_2d", "sgemm_blocking_2d_on_device", "4 2D blocking, 8 x 8 per thread",
     sgemm_blocking_2d_on_device},
    {"vectorized", "sgemm_vectorized_on_device", "5 float4, A transposed",
     sgemm_vectorized_on_device},
    {"warp_tiles", "sgemm_warp_tiles_on_device", "6 warp tiles, double-buffered (optional)",
     sgemm_warp_tiles_on_device},
};
inline constexpr int kStepCount = sizeof(kSteps) / sizeof(kSteps[0]);
// Steps 1 to 5 are everyone's; the last, "going further", is optional: a student who skips
// it loses its own cases' points only.
inline constexpr int kGradedStepCount = kStepCount - 1;
inline const Step& kNaiveStep = kSteps[0];
// The final step, timed against cuBLAS: the last of the graded ones.
inline const Step& kFinalStep = kSteps[kGradedStepCount - 1];
inline const Step& kOptionalStep = kSteps[kGradedStepCount];

// ---------------------------------------------------------------------------
// The yardsticks
// ---------------------------------------------------------------------------

// The naive kernel done right, to time the student's against (harness/yardstick.cu):
// C = A B, one thread per element of C in blocks of 32 x 8, threadIdx.x on the columns.
void launch_yardstick(int m, int n, int k, const float* a, const float* b, float* c);

// cuBLAS SGEMM on the same row-major matrices, with exercise 06's operand swap (C = A B
// is column-major C^T = B^T A^T). CUBLAS_DEFAULT_MATH computes with at least the
// precision asked for: FP32, never TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH would
// allow them).
class Cublas {
 public:
  Cublas() { CUBLAS_CHECK(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH)); }

  void sgemm(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
             float* c) {
    CUBLAS_CHECK(cublasSgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k,
                             &beta, c, n));
  }

 private:
  course::CublasHandle handle_;
};

// ---------------------------------------------------------------------------
// A problem on the device
// ---------------------------------------------------------------------------
// A and B on the device are followed by the rows that the largest tile could reach past
// their ends, holding NaN: a kernel that reads past a matrix (an edge tile without its
// bounds tests) carries a NaN into its sums, even where the other operand's guarded tile
// holds 0 (A's last row read past k meets B's zero rows: 1e30 x 0 would vanish, NaN x 0
// does not).
inline constexpr int kRowsReadPastTheEnd = std::max({kTile, kBlocking2dM, kWarpTilesM});
inline constexpr float kReadPastTheEndValue = std::numeric_limits<float>::quiet_NaN();

inline std::vector<float> followed_by_padding(const std::vector<float>& matrix, int width) {
  std::vector<float> padded(matrix);
  padded.resize(matrix.size() + static_cast<std::size_t>(kRowsReadPastTheEnd) * width,
                kReadPastTheEndValue);
  return padded;
}

struct DeviceProblem {
  explicit DeviceProblem(const Problem& problem)
      : p(problem),
        a(followed_by_padding(problem.a, problem.shape.k)),
        b(followed_by_padding(problem.b, problem.shape.n)),
        c(problem.c) {}
  void run(const Launcher launcher) {
    launcher(p.shape.m, p.shape.n, p.shape.k, p.alpha, a.data(), b.data(), p.beta, c.data());
  }
  const Problem& p;
  course::DeviceBuffer<float> a, b, c;
};

}  // namespace tiled_sgemm
