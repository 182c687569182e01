// Whether code that needs a newer GPU architecture can run here: exercise 26's step 3
// (mma.sync, ldmatrix, cp.async) needs sm_80. Two things must reach it: the GPU (its
// compute capability) and the program's code (the architecture its kernels were compiled
// for, as the device runs them: a build for sm_75 with PTX runs compute_75 code on an sm_90
// GPU, where `#if __CUDA_ARCH__ >= 800` compiled nothing).
//
// Plain C++, for the programs and the checks alike; course/check/architecture.hpp says it
// for a person, and tests/unit/test_architecture.cpp proves the decision without a GPU.
#pragma once

namespace course {

// Compute capabilities written 10 major + minor, as cudaDeviceProp's major and minor and
// cudaFuncAttributes::ptxVersion give them: 75 for sm_75, 90 for sm_90.
struct Architectures {
  int device = 0;  // the GPU's
  int code = 0;    // the virtual architecture of the code that runs on it
};

enum class ArchitectureGap {
  none,            // it runs
  device_too_old,  // no build helps: the GPU lacks the instructions
  code_too_old,    // the GPU has them, this program's code was compiled without them
};

// The GPU first: on an older GPU, no build helps.
inline ArchitectureGap architecture_gap(int needed, const Architectures& found) {
  if (found.device < needed) return ArchitectureGap::device_too_old;
  if (found.code < needed) return ArchitectureGap::code_too_old;
  return ArchitectureGap::none;
}

}  // namespace course
