// Whether code that needs a newer GPU architecture can run here: exercise 26's step 3
// (mma.sync, ldmatrix, cp.async) needs sm_80. Two things must reach it: the GPU (its
// compute capability) and the program's code (the architecture its kernels were compiled
// for, as the device runs them: a build for sm_75 with PTX runs compute_75 code on an sm_90
// GPU, where `#if __CUDA_ARCH__ >= 800` compiled nothing).
//
// Some instructions belong to one architecture alone, in its "a" target: sm_90a's wgmma and
// setmaxnreg (exercise 26's step 4) run on sm_90 GPUs only, and only from code compiled for
// sm_90a (`#if defined(__CUDA_ARCH_FEAT_SM90_ALL)`); a build for sm_90 runs on the same GPU
// without them, and no newer GPU has them. Such code needs the very architecture, on both
// sides: specific_architecture_gap.
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
  // The architecture whose specific features that code carries: 90 for code compiled for
  // sm_90a, 0 for code of a plain target (sm_90, compute_90 PTX, ...).
  int specific = 0;
};

enum class ArchitectureGap {
  none,               // it runs
  device_too_old,     // no build helps: the GPU lacks the instructions
  code_too_old,       // the GPU has them, this program's code was compiled without them
  device_other,       // no build helps: the instructions are another architecture's alone
  code_not_specific,  // the GPU has them, this program's code was not built for its "a" target
};

// The GPU first: on an older GPU, no build helps.
inline ArchitectureGap architecture_gap(int needed, const Architectures& found) {
  if (found.device < needed) return ArchitectureGap::device_too_old;
  if (found.code < needed) return ArchitectureGap::code_too_old;
  return ArchitectureGap::none;
}

// For code that uses the specific features of architecture `needed` (90: sm_90a): the GPU
// must be that very architecture (an older one and a newer one both lack them), and the code
// must be built for its "a" target.
inline ArchitectureGap specific_architecture_gap(int needed, const Architectures& found) {
  if (found.device != needed) return ArchitectureGap::device_other;
  if (found.specific != needed) return ArchitectureGap::code_not_specific;
  return ArchitectureGap::none;
}

}  // namespace course
