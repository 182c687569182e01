// Exercise 16 - the kernels that the build compiles to PTX (nvcc -ptx), not into the
// program: the program loads the PTX at run time with the driver API
// (cuModuleLoadData), as a plug-in or a kernel produced elsewhere would be loaded. The
// file lands beside the program as <program>.kernels.ptx; open it: it is text.
//
// It holds the course's saxpy and empty_kernel (given_kernels.cuh) and the student's own
// kernel, sawtooth.
//
// Build and run:  make 16 && make run-16
// Check:          make check-16   (statement: exercises/16_driver_api/README.md)
#include <cstddef>

#include "given_kernels.cuh"

// out[k] = amplitude * ((first + k) % period) for 0 <= k < n (driver_api.hpp); the
// launch gives at most kMaxBlocks blocks, so the kernel must loop over the rest.
// [slide:sawtooth-kernel]
// TODO(student): write the kernel `sawtooth` with exactly these parameters, in this
// order: (float* out, std::size_t first, int period, float amplitude, std::size_t n),
// declared extern "C" so that its PTX name is "sawtooth". Use a grid-stride loop with a
// std::size_t index k; the sample number first + k exceeds 2^32, so compute in 64 bits.
extern "C" __global__ void sawtooth(float* out, std::size_t first, int period, float amplitude,
                                    std::size_t n) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < n; k += stride) {
    out[k] = amplitude * static_cast<float>((first + k) % static_cast<std::size_t>(period));
  }
}
// END TODO(student)
// [/slide]
