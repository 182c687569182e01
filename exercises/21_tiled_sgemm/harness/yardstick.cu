// Exercise 21 - the course's coalesced naive kernel, the yardstick that the student's
// naive step is timed against (harness/steps.cuh declares its launcher).
#include <cstddef>

#include "course/errors.hpp"
#include "course/launch.hpp"
#include "steps.cuh"

namespace {

// One thread per element of C in blocks of 32 x 8 (the shape the statement suggests, so
// that both reuse what L1 holds alike), threadIdx.x on the columns: coalesced reads of B
// and writes of C, one broadcast A(i, p) per warp.
constexpr unsigned kYardstickColumns = 32;
constexpr unsigned kYardstickRows = 8;

__global__ void coalesced_naive_yardstick(int m, int n, int k, const float* a, const float* b,
                                          float* c) {
  const unsigned column = blockIdx.x * kYardstickColumns + threadIdx.x;
  const unsigned row = blockIdx.y * kYardstickRows + threadIdx.y;
  if (row >= static_cast<unsigned>(m) || column >= static_cast<unsigned>(n)) return;
  const float* a_row = a + static_cast<std::size_t>(row) * k;
  const float* b_column = b + column;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p, b_column += n) sum += a_row[p] * *b_column;
  c[static_cast<std::size_t>(row) * n + column] = sum;  // alpha = 1, beta = 0: the speed runs'
}

}  // namespace

void tiled_sgemm::launch_yardstick(int m, int n, int k, const float* a, const float* b, float* c) {
  const dim3 threads(kYardstickColumns, kYardstickRows);
  const dim3 blocks(course::blocks_for(n, kYardstickColumns),
                    course::blocks_for(m, kYardstickRows));
  coalesced_naive_yardstick<<<blocks, threads>>>(m, n, k, a, b, c);
  CUDA_CHECK_LAUNCH();
}
