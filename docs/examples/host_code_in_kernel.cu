// What C++ a kernel may not run: a host-only function, a std:: container, an exception.
// This file is meant NOT to compile. Exercise 02's statement quotes the first error nvcc
// prints for it, under the marker <!-- nvcc-message: docs/examples/host_code_in_kernel.cu -->,
// and the CTest course.kernel_cpp_limits checks that every page's quote is still what nvcc
// prints (CMake never builds this file).
//
//   nvcc -c -arch=sm_75 docs/examples/host_code_in_kernel.cu
//   nvcc -c -arch=sm_75 -DSHOW_EXCEPTION_ERROR docs/examples/host_code_in_kernel.cu
#include <cmath>
#include <stdexcept>
#include <vector>

// An ordinary C++ function: without __device__, nvcc compiles it for the CPU only.
float halve(float value) { return value / 2.0f; }

// What works: a __device__ function, a lambda written in the kernel, the float functions
// of <cmath> (CUDA has device versions of them).
__device__ float twice(float value) { return 2.0f * value; }

__global__ void scale(float* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto square = [](float value) { return value * value; };
  values[i] = twice(square(std::sqrt(values[i])));

  // What does not: each line below is a compile error.
  values[i] = halve(values[i]);                 // a host function called from device code
  std::vector<float> copy(values, values + n);  // std::vector allocates with host code
#ifdef SHOW_EXCEPTION_ERROR
  // nvcc rejects exceptions before it looks at the calls above: with this line, its error
  // is the only one printed.
  if (values[i] < 0.0f) throw std::runtime_error("negative");
#endif
}
