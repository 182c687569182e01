// Exercise 25 - the course's kernel that each GPU runs on its half of the samples
// (launch_partial_density, declared in two_gpus_nccl.hpp).
#include <cuda_runtime.h>

#include "course/errors.hpp"
#include "two_gpus_nccl.hpp"
#include "workload.hpp"

namespace {

constexpr int kBinsPerBlock = 256;

// Block (bx, by): bins bx * 256 ... + 255, samples of chunk by. Each thread sums its
// bin's terms over the chunk (every thread of a warp reads the same sample: one
// broadcast load), then adds the chunk's sum into the bin.
__global__ void partial_density_kernel(const float* samples, int count, float* density, int bins) {
  const int bin = blockIdx.x * blockDim.x + threadIdx.x;
  if (bin >= bins) return;
  const float centre = two_gpus_nccl::bin_centre(bin, bins);
  const long long first = static_cast<long long>(blockIdx.y) * two_gpus_nccl::kChunkSamples;
  const long long end = min(first + two_gpus_nccl::kChunkSamples, static_cast<long long>(count));
  float sum = 0.0f;
  for (long long i = first; i < end; ++i) {
    const float t = (samples[i] - centre) * two_gpus_nccl::kInverseBandwidth;
    sum += expf(-0.5f * t * t);
  }
  atomicAdd(&density[bin], sum);
}

}  // namespace

void launch_partial_density(const float* samples, int count, float* density, int bins,
                            cudaStream_t stream) {
  if (bins <= 0) return;
  CUDA_CHECK(cudaMemsetAsync(density, 0, static_cast<std::size_t>(bins) * sizeof(float), stream));
  if (count <= 0) return;
  const dim3 grid((bins + kBinsPerBlock - 1) / kBinsPerBlock,
                  (count + two_gpus_nccl::kChunkSamples - 1) / two_gpus_nccl::kChunkSamples);
  partial_density_kernel<<<grid, kBinsPerBlock, 0, stream>>>(samples, count, density, bins);
  CUDA_CHECK_LAUNCH();
}
