// Sixteen bytes per access: what the memory-bound kernels of 09, 11, 13 and 14 need to
// know before they read or write floats four at a time, as one float4.
//
// Why: a warp's 4-byte loads ask memory for 128 bytes; the same instructions on float4
// ask for 512. A multiprocessor keeps a limited number of loads in flight, so with
// float4 it keeps four times the bytes on their way, and by Little's law (bytes in
// flight = bandwidth x latency) it gets closer to the bandwidth of the memory. The
// H200, whose memory delivers more bytes per second than the H100's, needs more bytes
// in flight to reach it (the statements of 09, 11, 13 and 14 give the measurements).
//
// A float4 access must be 16-byte aligned, or the kernel stops with
// cudaErrorMisalignedAddress. cudaMalloc's pointers are (256 bytes at least); a pointer
// into the middle of an array, such as x + 1, is not. So a kernel tests every pointer
// first, and falls back to one float per access when one of them is not aligned.
//
// Compiled by nvcc only (device code).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace course {

// The floats of one float4.
inline constexpr int kFloatsPerFloat4 = 4;

// True when `pointer` sits on a 16-byte boundary, so that a float4 load or store there is
// legal. A template, so that it takes a pointer of any type (const or not).
template <class T>
__host__ __device__ inline bool is_float4_aligned(const T* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % alignof(float4) == 0;
}

}  // namespace course
