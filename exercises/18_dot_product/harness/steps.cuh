// Exercise 18: what the check's cases (harness/cases.cu) and the demo (harness/demo.cu)
// share on the device side: the student's steps by the names the check uses, inputs on
// the device followed by NaNs no kernel may read, and the library yardsticks (CUB's
// transform-reduce, cuBLAS's dot).
#pragma once

#include <cublas_v2.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "course/cublas_handle.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "dot_product.hpp"
#include "workload.hpp"

namespace dot_product {

using Kernel = void (*)(const float*, const float*, int, float*);
using Launcher = void (*)(const float*, const float*, int, float*, float*);

// ---------------------------------------------------------------------------
// The steps, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;        // the check's name
  const char* label;       // the demo's
  Kernel kernel;           // the first pass
  int elements_per_block;  // of the first pass, on its own grid; 0: any grid
  Launcher launcher;
};

inline const Step kSteps[] = {
    {"tree", "1 tree in shared memory", dot_tree, kThreadsPerBlock, dot_tree_on_device},
    {"first_add", "2 first add in the load", dot_first_add, 2 * kThreadsPerBlock,
     dot_first_add_on_device},
    {"warp_shuffle", "3 last warp: shuffles", dot_warp_shuffle, 2 * kThreadsPerBlock,
     dot_warp_shuffle_on_device},
    {"grid_stride", "4 grid-stride + 2nd pass", dot_grid_stride, 0, dot_on_device},
};

// ---------------------------------------------------------------------------
// Inputs on the device: n values, then kPadding NaNs that no kernel may read.
// ---------------------------------------------------------------------------
inline std::vector<float> padded(std::vector<float> values) {
  values.resize(values.size() + kPadding, NAN);
  return values;
}

struct DeviceInputs {
  DeviceInputs(std::int64_t n, std::uint64_t seed, Values kind, Special special = Special::none)
      : x(padded(make_input(n, 0, seed, kind, special))),
        y(padded(make_input(n, 1, seed, kind, special))),
        partials(static_cast<std::size_t>(std::max<std::int64_t>(1, partials_capacity(n)))),
        result(1) {}
  course::DeviceBuffer<float> x, y, partials, result;
};

// ---------------------------------------------------------------------------
// The yardsticks: CUB's transform-reduce of the products and cuBLAS's dot.
// ---------------------------------------------------------------------------

// The product of element i, for CUB's transform.
struct ProductAt {
  const float* x;
  const float* y;
  __device__ float operator()(int i) const { return x[i] * y[i]; }
};

// CUB's dot product of the same inputs, with its temporary storage allocated once.
class CubDot {
 public:
  CubDot(const float* x, const float* y, int n, float* result)
      : product_{x, y}, n_(n), result_(result) {
    CUDA_CHECK(enqueue(nullptr));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
  }
  ~CubDot() { cudaFree(temp_); }
  CubDot(const CubDot&) = delete;
  CubDot& operator=(const CubDot&) = delete;
  void run() { CUDA_CHECK(enqueue(temp_)); }

 private:
  cudaError_t enqueue(void* temp) {
    return cub::DeviceReduce::TransformReduce(temp, temp_bytes_, thrust::counting_iterator<int>(0),
                                              result_, n_, cuda::std::plus<float>{}, product_,
                                              0.0f);
  }
  ProductAt product_;
  int n_;
  float* result_;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

// cublasSdot with the result left on the device, so that it does not wait.
class CublasDot {
 public:
  CublasDot() { CUBLAS_CHECK(cublasSetPointerMode(handle_.get(), CUBLAS_POINTER_MODE_DEVICE)); }
  void run(const float* x, const float* y, int n, float* result) {
    CUBLAS_CHECK(cublasSdot(handle_.get(), n, x, 1, y, 1, result));
  }

 private:
  course::CublasHandle handle_;
};

}  // namespace dot_product
