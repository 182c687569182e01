// Compiles every header of the course library with the host compiler, each check
// macro included, so that a header that stops compiling fails the build even before
// an exercise uses it. Nothing here runs: the driver API needs a driver to link and
// load, which machines without a GPU lack.
//
// It also proves the CCCL workaround of CMakeLists.txt: with CUDA 13, Thrust and CUB
// live in include/cccl, which host-compiler targets see only through it (CMake < 3.31).
#include <cub/version.cuh>
#include <thrust/version.h>

#include "course/bench.hpp"
#include "course/check/case_server.hpp"
#include "course/check/child_process.hpp"
#include "course/check/gpu_lock.hpp"
#include "course/check/handicap.hpp"
#include "course/check/judge.hpp"
#include "course/check/message.hpp"
#include "course/check/protocol.hpp"
#include "course/check/results.hpp"
#include "course/check/runner.hpp"
#include "course/check/session.hpp"
#include "course/check/speed_bar.hpp"
#include "course/cublas_handle.hpp"
#include "course/data.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "course/errors_curand.hpp"
#include "course/errors_cusparse.hpp"
#include "course/errors_driver.hpp"
#include "course/errors_nvrtc.hpp"
#include "course/float4.hpp"
#include "course/sgemm_problem.hpp"
#include "course/stream_probes.hpp"
#include "course/table.hpp"
#include "course/timers.hpp"
#include "course/verify.hpp"

static_assert(THRUST_VERSION >= 200000, "CUDA 13 ships Thrust 2.x or newer");
static_assert(CUB_VERSION >= 200000, "CUDA 13 ships CUB 2.x or newer");

void every_check_macro_compiles() {
  CUDA_CHECK(cudaSuccess);
  CUDA_CHECK_LAUNCH();
  CU_CHECK(CUDA_SUCCESS);
  CUBLAS_CHECK(CUBLAS_STATUS_SUCCESS);
  NVRTC_CHECK(NVRTC_SUCCESS);
  CURAND_CHECK(CURAND_STATUS_SUCCESS);
  CUSPARSE_CHECK(CUSPARSE_STATUS_SUCCESS);
}
