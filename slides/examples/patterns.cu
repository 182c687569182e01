// Small examples of the patterns the exercises teach, each on a problem of its own, for the
// students' decks: where an instructor's slide shows an exercise's solution, the students'
// deck shows the exercise's skeleton and, on some slides, one of these (tools/course slides, the
// `<!-- student: slides/examples/patterns.cu#REGION -->` lines of slides/*.md). None of them
// is an exercise's answer; each is the same idea on other data.
//
// The program runs every example once and compares it with a loop on the CPU: exit status 0
// when all agree, 1 when one does not, 77 when there is no CUDA device (CTest:
// slides.examples). Build and run:
//   cmake --build build/default --target slides_examples
//   build/default/slides/examples/slides_examples
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "course/errors.hpp"

namespace {

constexpr int kThreadsPerBlock = 256;
constexpr int kWarpSize = 32;
constexpr unsigned kFullWarpMask = 0xffffffffu;

// ---------------------------------------------------------------------------
// One thread per element, and a launch that covers any n
// ---------------------------------------------------------------------------

// Writes `value` into every element: thread i of the grid writes element i. The grid is
// rounded up to whole blocks, so the last block's extra threads must not write.
// [slide:fill-kernel]
__global__ void fill_kernel(float* out, int n, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
// [/slide]

void fill_on_device(float* device_out, int n, float value) {
  // [slide:fill-launch]
  if (n == 0) return;  // a grid of zero blocks is an error
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;  // rounded up
  fill_kernel<<<blocks, kThreadsPerBlock>>>(device_out, n, value);
  CUDA_CHECK_LAUNCH();
  // [/slide]
}

// ---------------------------------------------------------------------------
// A grid-stride loop: any grid covers any n
// ---------------------------------------------------------------------------

// Clamps every element into [lo, hi]. Thread t takes elements t, t + T, t + 2 T, ... where
// T is the number of threads of the grid: at each step the grid reads consecutive elements.
// [slide:clamp-stride]
__global__ void clamp_kernel(float* values, std::size_t n, float lo, float hi) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;  // element t
       i < n; i += stride) {
    values[i] = fminf(fmaxf(values[i], lo), hi);
  }
}
// [/slide]

// ---------------------------------------------------------------------------
// A warp that cooperates: shuffles, then shared memory and one atomic per block
// ---------------------------------------------------------------------------

// The largest `value` of the warp's 32 lanes, in lane 0 (the other lanes hold partial
// maxima). At each step lane l takes lane l + offset's value, register to register. Every
// lane of the warp must call it: the mask names all 32.
// [slide:warp-max]
__device__ float warp_max(float value) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value = fmaxf(value, __shfl_down_sync(kFullWarpMask, value, offset));
  }
  return value;
}
// [/slide]

__global__ void warp_max_kernel(const float* values, float* maximum) {
  const float found = warp_max(values[threadIdx.x]);
  if (threadIdx.x == 0) *maximum = found;
}

__device__ unsigned warp_count(unsigned count) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    count += __shfl_down_sync(kFullWarpMask, count, offset);
  }
  return count;
}

// Counts the elements above `threshold` into *total. Each thread counts its share (a
// grid-stride loop), each warp adds its lanes' counts with shuffles, warp 0 adds the warps'
// counts from shared memory, and the block does one atomicAdd: not one per element.
// [slide:count-above]
__global__ void count_above_kernel(const float* x, std::size_t n, float threshold,
                                   unsigned long long* total) {
  __shared__ unsigned warp_counts[kThreadsPerBlock / kWarpSize];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned count = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    count += x[i] > threshold ? 1u : 0u;
  }
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  count = warp_count(count);  // every thread is here: no early return above
  if (lane == 0) warp_counts[warp] = count;
  __syncthreads();  // every warp's count stored before warp 0 reads them
  if (warp == 0) {
    count = warp_count(lane < kThreadsPerBlock / kWarpSize ? warp_counts[lane] : 0u);
    if (lane == 0) atomicAdd(total, static_cast<unsigned long long>(count));
  }
}
// [/slide]

// ---------------------------------------------------------------------------
// Host driver: each example against the CPU
// ---------------------------------------------------------------------------

bool report(const char* example, bool agrees) {
  std::printf("%-12s %s\n", example, agrees ? "agrees with the CPU" : "WRONG");
  return agrees;
}

float test_value(std::size_t i) { return static_cast<float>((i * 37u) % 1000u) / 1000.0f - 0.25f; }

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("slides_examples: no CUDA device: skipped\n");
    return 77;
  }
  const int n = 1000;  // not a multiple of the block size
  const std::size_t big = (std::size_t{1} << 20) + 3;
  std::vector<float> host(big);
  for (std::size_t i = 0; i < big; ++i) host[i] = test_value(i);
  float* device = nullptr;
  CUDA_CHECK(cudaMalloc(&device, big * sizeof(float)));
  bool all = true;

  fill_on_device(device, n, 2.5f);
  std::vector<float> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool agrees = true;
  for (int i = 0; i < n; ++i) agrees = agrees && out[i] == 2.5f;
  all = report("fill", agrees) && all;

  CUDA_CHECK(cudaMemcpy(device, host.data(), big * sizeof(float), cudaMemcpyHostToDevice));
  clamp_kernel<<<4, kThreadsPerBlock>>>(device, big, 0.0f, 0.5f);  // far fewer threads than n
  CUDA_CHECK_LAUNCH();
  std::vector<float> clamped(big);
  CUDA_CHECK(cudaMemcpy(clamped.data(), device, big * sizeof(float), cudaMemcpyDeviceToHost));
  agrees = true;
  for (std::size_t i = 0; i < big; ++i)
    agrees = agrees && clamped[i] == fminf(fmaxf(host[i], 0.0f), 0.5f);
  all = report("clamp", agrees) && all;

  CUDA_CHECK(cudaMemcpy(device, host.data(), big * sizeof(float), cudaMemcpyHostToDevice));
  float* device_max = nullptr;
  CUDA_CHECK(cudaMalloc(&device_max, sizeof(float)));
  warp_max_kernel<<<1, kWarpSize>>>(device + 100, device_max);
  CUDA_CHECK_LAUNCH();
  float maximum = 0.0f, expected_max = host[100];
  CUDA_CHECK(cudaMemcpy(&maximum, device_max, sizeof(float), cudaMemcpyDeviceToHost));
  for (int lane = 1; lane < kWarpSize; ++lane) expected_max = fmaxf(expected_max, host[100 + lane]);
  all = report("warp max", maximum == expected_max) && all;

  unsigned long long* device_total = nullptr;
  CUDA_CHECK(cudaMalloc(&device_total, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(device_total, 0, sizeof(unsigned long long)));
  count_above_kernel<<<64, kThreadsPerBlock>>>(device, big, 0.5f, device_total);
  CUDA_CHECK_LAUNCH();
  unsigned long long total = 0, expected_total = 0;
  CUDA_CHECK(cudaMemcpy(&total, device_total, sizeof(total), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < big; ++i) expected_total += host[i] > 0.5f ? 1 : 0;
  all = report("count above", total == expected_total) && all;

  CUDA_CHECK(cudaFree(device_total));
  CUDA_CHECK(cudaFree(device_max));
  CUDA_CHECK(cudaFree(device));
  return all ? EXIT_SUCCESS : EXIT_FAILURE;
}
