// Exercise 24 - debugging with compute-sanitizer: four small steps of a signal pipeline,
// each with one bug of its own kind. Every step compiles, runs, and often prints the
// right numbers: the bugs are the kind that hide in ordinary runs. Each one is reported
// by one tool of compute-sanitizer, with the kernel, the thread, the address and, since
// the course compiles with -lineinfo, the file and line:
//
//   step 1  reverse an array          memcheck   an out-of-bounds global write
//   step 2  smooth with neighbours    racecheck  a shared-memory race
//   step 3  sums of blocks            synccheck  a barrier that not every thread reaches
//   step 4  average of frames         initcheck  device memory read before it is written
//
// Build and run:  make 24 && make run-24   (the demo prints the four tools' commands)
// Check:          make check-24   (statement: exercises/24_sanitizer_debugging/README.md)
#include <cstddef>

#include "course/errors.hpp"
#include "sanitizer_debugging.hpp"

// ---------------------------------------------------------------------------
// Step 1: reverse an array (compute-sanitizer --tool memcheck)
// ---------------------------------------------------------------------------
// TODO(student): step 1, reverse an array (memcheck).
//   1. Run the program under compute-sanitizer --tool memcheck. Its report names the
//      kernel, the thread, the address and the line of a bad write in this step.
//   2. Work out the index that thread writes, and how far past which allocation it lands.
//   3. Fix the line the report names, so that out[n - 1 - i] = x[i]. An index clamped into
//      the array silences memcheck but still writes the wrong places.
// [slide:reverse]
__global__ void reverse_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[n - i] = x[i];
}
// [/slide]

void reverse_on_device(const float* x, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is a launch error
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  reverse_kernel<<<blocks, kThreadsPerBlock>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
// END TODO(student)

// ---------------------------------------------------------------------------
// Step 2: smooth with the two neighbours (compute-sanitizer --tool racecheck)
// ---------------------------------------------------------------------------
// TODO(student): step 2, smooth with the neighbours (racecheck).
//   1. Run the program under compute-sanitizer --tool racecheck. Its report names a write
//      and a read of the same shared-memory location by different threads, with nothing
//      ordering them.
//   2. Make the reads wait for every write of the block.
// [slide:smooth]
__global__ void smooth_kernel(const float* x, float* out, int n) {
  // The block's elements, and one neighbour on each side (0 outside the array).
  __shared__ float tile[kThreadsPerBlock + 2];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x + 1;
  tile[t] = i < n ? x[i] : 0.0f;
  if (threadIdx.x == 0) tile[0] = i > 0 && i - 1 < n ? x[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) tile[t + 1] = i + 1 < n ? x[i + 1] : 0.0f;
  if (i < n) out[i] = (tile[t - 1] + tile[t] + tile[t + 1]) / 3.0f;
}
// [/slide]

void smooth_on_device(const float* x, float* out, int n) {
  if (n == 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  smooth_kernel<<<blocks, kThreadsPerBlock>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
// END TODO(student)

// ---------------------------------------------------------------------------
// Step 3: the sum of each block (compute-sanitizer --tool synccheck)
// ---------------------------------------------------------------------------
// TODO(student): step 3, the sum of each block (synccheck).
//   1. Run the program under compute-sanitizer --tool synccheck. Its report names a
//      barrier that some threads of a block (or of a warp) reach and others do not.
//   2. Work out why those threads skip it.
//   3. Move the barrier where every thread of the block passes, and keep the work that
//      depends on the bounds inside its if.
// [slide:block-sums]
__global__ void block_sums_kernel(const float* x, float* sums, int n) {
  __shared__ float partial[kThreadsPerBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // [slide:block-sums-barriers]
  partial[threadIdx.x] = 0.0f;
  if (i < n) {
    partial[threadIdx.x] = x[i];
    __syncthreads();
  }
  // Each level adds the upper half of what is left onto its lower half.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
  // [/slide]
}
// [/slide]

void block_sums_on_device(const float* x, float* sums, int n) {
  if (n == 0) return;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  block_sums_kernel<<<blocks, kThreadsPerBlock>>>(x, sums, n);
  CUDA_CHECK_LAUNCH();
}
// END TODO(student)

// ---------------------------------------------------------------------------
// Step 4: the average of frames (compute-sanitizer --tool initcheck)
// ---------------------------------------------------------------------------
// TODO(student): step 4, the average of frames (initcheck).
//   1. Run the program under compute-sanitizer --tool initcheck. Its report names a read
//      of device memory that nothing wrote before.
//   2. Fix the host code, so that the sum starts from values written on purpose.
__global__ void accumulate_kernel(const float* frame, float* total, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) total[i] += frame[i];
}

// [slide:average-frames]
void average_frames_on_device(const float* frames, int frame_count, int n, float* host_mean) {
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  // [slide:average-frames-loop]
  float* total = nullptr;
  CUDA_CHECK(cudaMalloc(&total, bytes));
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  for (int f = 0; f < frame_count; ++f) {
    const float* frame = frames + static_cast<std::size_t>(f) * n;
    accumulate_kernel<<<blocks, kThreadsPerBlock>>>(frame, total, n);
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaMemcpy(host_mean, total, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(total));
  // [/slide]
  for (int i = 0; i < n; ++i) host_mean[i] /= static_cast<float>(frame_count);
}
// [/slide]
// END TODO(student)
