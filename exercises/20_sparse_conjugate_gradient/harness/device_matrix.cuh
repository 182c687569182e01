// Exercise 20: what the check's cases (harness/cases.cu) and the demo (harness/demo.cu)
// share on the device side: a matrix uploaded to the device, and cuSPARSE's product as
// the yardstick.
#pragma once

#include <algorithm>
#include <cstddef>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/errors_cusparse.hpp"
#include "sparse_conjugate_gradient.hpp"
#include "workload.hpp"

namespace sparse_conjugate_gradient {

// A matrix on the device: the buffers own the arrays, `csr` points into them.
struct DeviceMatrix {
  course::DeviceBuffer<int> row_offsets, columns;
  course::DeviceBuffer<float> values;
  DeviceCsr csr;

  explicit DeviceMatrix(const CsrMatrix& a)
      : row_offsets(a.row_offsets), columns(a.columns), values(a.values) {
    csr = {a.rows, a.nonzeros(), row_offsets.data(), columns.data(), values.data()};
  }
};

// y = A x by cusparseSpMV (CSR, float, the default algorithm), its buffer sized once.
// [slide:cusparse-spmv]
class CusparseProduct {
 public:
  CusparseProduct(const DeviceCsr& a, const float* x, float* y) {
    CUSPARSE_CHECK(cusparseCreate(&handle_));
    CUSPARSE_CHECK(cusparseCreateConstCsr(
        &matrix_, a.rows, a.rows, a.nonzeros, a.row_offsets, a.columns, a.values,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateConstDnVec(&x_, a.rows, x, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&y_, a.rows, y, CUDA_R_32F));
    std::size_t bytes = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &kOne,
                                           matrix_, x_, &kZero, y_, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    CUDA_CHECK(cudaMalloc(&buffer_, std::max<std::size_t>(bytes, 1)));
  }
  ~CusparseProduct() {
    cudaFree(buffer_);
    cusparseDestroyDnVec(y_);
    cusparseDestroyDnVec(x_);
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }
  CusparseProduct(const CusparseProduct&) = delete;
  CusparseProduct& operator=(const CusparseProduct&) = delete;

  void run() {
    CUSPARSE_CHECK(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &kOne, matrix_, x_,
                                &kZero, y_, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer_));
  }

 private:
  static constexpr float kOne = 1.0f, kZero = 0.0f;
  cusparseHandle_t handle_ = nullptr;
  cusparseConstSpMatDescr_t matrix_ = nullptr;
  cusparseConstDnVecDescr_t x_ = nullptr;
  cusparseDnVecDescr_t y_ = nullptr;
  void* buffer_ = nullptr;
};
// [/slide]

}  // namespace sparse_conjugate_gradient
