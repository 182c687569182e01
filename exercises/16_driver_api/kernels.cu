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
// TODO(student): the kernel `sawtooth`, in three steps.
//   1. Declare it extern "C" __global__, so that its PTX name is "sawtooth", with exactly
//      these parameters, in this order: (float* out, std::size_t first, int period,
//      float amplitude, std::size_t n).
//   2. Loop over k with a grid-stride loop and a std::size_t index: the launch gives at
//      most kMaxBlocks blocks.
//   3. Write out[k] = amplitude * ((first + k) % period). The sample number first + k
//      exceeds 2^32: compute it in 64 bits.
// END TODO(student)
// [/slide]
