// A cuBLAS handle owned by one object: cublasCreate when it is made, cublasDestroy when it
// goes, so that no early return leaks the handle's device memory.
//
//   course::CublasHandle handle;
//   CUBLAS_CHECK(cublasSgemm(handle.get(), ...));
#pragma once

#include <cublas_v2.h>

#include "course/errors_cublas.hpp"

namespace course {

class CublasHandle {
 public:
  CublasHandle() { CUBLAS_CHECK(cublasCreate(&handle_)); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace course
