// Temporary probe (not committed): which barrier misuse does synccheck report on this GPU?
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void tree_divergent(float* out) {  // the exercise's form
  __shared__ float p[256];
  p[threadIdx.x] = 1.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) { p[threadIdx.x] += p[threadIdx.x + s]; __syncthreads(); }
  }
  if (threadIdx.x == 0) out[blockIdx.x] = p[0];
}
__global__ void half_warp_syncthreads(float* out) {
  if (threadIdx.x % 32 < 16) __syncthreads();
  out[threadIdx.x] = 1.0f;
}
__global__ void syncwarp_mask_excludes_caller(float* out) {
  __syncwarp(0x0000ffffu);
  out[threadIdx.x] = 1.0f;
}
__global__ void half_warp_syncwarp_full_mask(float* out) {
  if (threadIdx.x % 32 < 16) __syncwarp();
  out[threadIdx.x] = 1.0f;
}
__global__ void warp_tree_syncwarp(float* out) {  // a last-warp tree with __syncwarp inside the if
  __shared__ float p[64];
  p[threadIdx.x] = 1.0f;
  __syncthreads();
  for (int s = 32; s > 0; s /= 2) {
    if (threadIdx.x < s) { p[threadIdx.x] += p[threadIdx.x + s]; __syncwarp(); }
  }
  if (threadIdx.x == 0) out[0] = p[0];
}
int main(int argc, char** argv) {
  float* out; cudaMalloc(&out, 4096 * sizeof(float));
  const char* k = argv[1];
  if (!strcmp(k, "tree")) tree_divergent<<<4, 256>>>(out);
  if (!strcmp(k, "half_syncthreads")) half_warp_syncthreads<<<2, 64>>>(out);
  if (!strcmp(k, "syncwarp_mask")) syncwarp_mask_excludes_caller<<<1, 32>>>(out);
  if (!strcmp(k, "half_syncwarp")) half_warp_syncwarp_full_mask<<<1, 32>>>(out);
  if (!strcmp(k, "warp_tree")) warp_tree_syncwarp<<<1, 64>>>(out);
  printf("%s: %s\n", k, cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(out);
}
