// Exercise 26: what the demo (harness/demo.cu) and the check's cases (harness/cases.cu)
// both run: the student's steps by name, the architectures steps 3 and 4 need, cuBLAS (the
// yardstick: cublasGemmEx on the same FP16 inputs with FP32 compute, and FP32 SGEMM for
// scale), and a problem on the device.
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <limits>
#include <vector>

#include "course/architecture.hpp"
#include "course/cublas_handle.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "tensor_core_gemm.hpp"
#include "workload.hpp"

namespace tensor_core_gemm {

using Launcher = void (*)(int, int, int, const __half*, const __half*, float*);

// ---------------------------------------------------------------------------
// The steps, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;      // the check's
  const char* function;  // the student's launcher, as the demo names it
  const char* label;     // the demo's
  Launcher launcher;
  int needs_arch;  // the oldest architecture its code runs on (10 major + minor)
  // Its code uses needs_arch's specific features (sm_90a): it runs on that architecture
  // alone, from code built for its "a" target (course::specific_architecture_gap).
  bool specific = false;
};

inline constexpr int kWmmaArch = 70;  // WMMA on FP16: every GPU of the course (sm_75 on)

inline const Step kSteps[] = {
    {"one_warp", "hgemm_wmma_one_warp_on_device", "1 WMMA, one warp per 16 x 16 tile",
     hgemm_wmma_one_warp_on_device, kWmmaArch},
    {"shared_tiles", "hgemm_wmma_shared_tiles_on_device",
     "2 WMMA, 128 x 128 block tiles in shared memory", hgemm_wmma_shared_tiles_on_device,
     kWmmaArch},
    {"mma_pipeline", "hgemm_mma_pipeline_on_device",
     "3 mma.sync + ldmatrix + cp.async, swizzled stages", hgemm_mma_pipeline_on_device,
     kMmaPipelineArch},
    {"wgmma_tma", "hgemm_wgmma_tma_on_device", "4 wgmma + TMA, 4 stages (optional, sm_90a)",
     hgemm_wgmma_tma_on_device, kWgmmaTmaArch, true},
};
// Steps 1 to 3 are graded for everyone; step 4 is optional.
inline constexpr int kGradedStepCount = 3;

// Probes compiled with the student's kernels, in the same program and with the same
// flags: the architecture of their code, and its specific features, are theirs.
static __global__ void code_architecture_probe() {}
// 90 in the code the GPU runs when it was compiled for sm_90a (wgmma, setmaxnreg), else 0:
// sm_90a's code and sm_90's share their virtual architecture (ptxVersion 90), not this.
static __device__ int code_specific_architecture_probe =
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    90;
#else
    0;
#endif

// The device's compute capability, the virtual architecture of this program's code as the
// device runs it (cudaFuncAttributes::ptxVersion: 75 for a build for sm_75 with PTX, even on
// an sm_90 GPU, which compiles that PTX when the program loads), and the architecture whose
// specific features that code carries (read from the device: no kernel is launched).
inline course::Architectures architectures() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  cudaFuncAttributes code{};
  CUDA_CHECK(cudaFuncGetAttributes(&code, code_architecture_probe));
  int specific = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&specific, code_specific_architecture_probe, sizeof specific));
  return {properties.major * 10 + properties.minor, code.ptxVersion, specific};
}

// Whether `step` can run on this GPU with this program's code.
inline bool runs_here(const Step& step, const course::Architectures& found) {
  const course::ArchitectureGap gap =
      step.specific ? course::specific_architecture_gap(step.needs_arch, found)
                    : course::architecture_gap(step.needs_arch, found);
  return gap == course::ArchitectureGap::none;
}

// ---------------------------------------------------------------------------
// The yardsticks
// ---------------------------------------------------------------------------
// cuBLAS on the same row-major matrices, with exercise 06's operand swap (C = A B is
// column-major C^T = B^T A^T): cublasGemmEx with FP16 inputs and FP32 compute, the
// tensor cores' own GEMM; and FP32 SGEMM (exercise 21's call, TF32 off) for scale.
class Cublas {
 public:
  Cublas() { CUBLAS_CHECK(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH)); }

  void hgemm(int m, int n, int k, const __half* a, const __half* b, float* c) {
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16F,
                              n, a, CUDA_R_16F, k, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
  }
  void sgemm(int m, int n, int k, const float* a, const float* b, float* c) {
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k,
                             &zero, c, n));
  }

 private:
  course::CublasHandle handle_;
};

// ---------------------------------------------------------------------------
// A problem on the device
// ---------------------------------------------------------------------------
// A and B in FP16 on the device, each followed by the rows that the largest tile could
// reach past its end, holding NaN: a kernel that reads past a matrix (an edge tile without
// its bounds tests) carries a NaN into its sums, even where the other operand's guarded
// tile holds 0 (NaN x 0 is NaN).
inline constexpr int kRowsReadPastTheEnd = kBlockTileM;
static_assert(kRowsReadPastTheEnd >= kPipelineTileM && kRowsReadPastTheEnd >= kWgmmaTileM,
              "the tallest tile of A");

inline std::vector<__half> in_fp16_followed_by_nan(const std::vector<float>& matrix, int width) {
  std::vector<__half> halves(matrix.size() + static_cast<std::size_t>(kRowsReadPastTheEnd) * width,
                             __float2half(std::numeric_limits<float>::quiet_NaN()));
  for (std::size_t e = 0; e < matrix.size(); ++e) halves[e] = __float2half(matrix[e]);
  return halves;
}

struct DeviceProblem {
  explicit DeviceProblem(const Problem& problem)
      : p(problem),
        a(in_fp16_followed_by_nan(problem.a, problem.shape.k)),
        b(in_fp16_followed_by_nan(problem.b, problem.shape.n)),
        c(problem.c) {}
  void run(const Launcher launcher) {
    launcher(p.shape.m, p.shape.n, p.shape.k, a.data(), b.data(), c.data());
  }
  const Problem& p;
  course::DeviceBuffer<__half> a, b;
  course::DeviceBuffer<float> c;
};

}  // namespace tensor_core_gemm
