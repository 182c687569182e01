// Unit tests of the error-checking headers: the message format, the names they
// print, and that a failed check stops the program with status 1. None needs a GPU:
// error names and texts are tables inside the libraries.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "course/check/child_process.hpp"
#include "course/errors.hpp"
#include "course/errors_cublas.hpp"
#include "course/errors_curand.hpp"
#include "course/errors_cusparse.hpp"
#include "course/errors_nvrtc.hpp"
#include "unit_test.hpp"

UNIT_TEST(message_names_family_call_place_error_and_text) {
  const std::string text =
      course::format_api_error("CUDA runtime", "cudaMalloc(&p, bytes)", "saxpy.cu", 42,
                               "cudaErrorMemoryAllocation", "out of memory");
  EXPECT_EQ(text, std::string("CUDA runtime error at saxpy.cu:42\n"
                              "  call:  cudaMalloc(&p, bytes)\n"
                              "  error: cudaErrorMemoryAllocation (out of memory)\n"));
}

UNIT_TEST(message_omits_an_empty_or_repeated_text) {
  EXPECT_EQ(course::format_api_error("NVRTC", "nvrtcCompileProgram(p, 0, nullptr)", "a.cu", 7,
                                     "NVRTC_ERROR_COMPILATION", ""),
            std::string("NVRTC error at a.cu:7\n  call:  nvrtcCompileProgram(p, 0, nullptr)\n"
                        "  error: NVRTC_ERROR_COMPILATION\n"));
  EXPECT_CONTAINS(course::format_api_error("X", "f()", "b.cu", 1, "SAME", "SAME"), "error: SAME\n");
}

UNIT_TEST(runtime_error_names_come_from_the_runtime) {
  EXPECT_EQ(std::string(cudaGetErrorName(cudaErrorInvalidValue)), "cudaErrorInvalidValue");
  EXPECT_EQ(std::string(cublasGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED)),
            "CUBLAS_STATUS_NOT_INITIALIZED");
}

// Runs `body` in a child process and returns its exit status and what it printed.
template <typename Body>
course::check::ChildResult in_child(Body body) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::fflush(stdout);  // or the child would print the parent's buffered lines again
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    body();
    std::fflush(stdout);
    _exit(0);
  }
  close(fds[1]);
  course::check::ChildResult result;
  char buffer[4096];
  ssize_t got;
  while ((got = read(fds[0], buffer, sizeof buffer)) > 0) result.output.append(buffer, got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exited = WIFEXITED(status);
  result.exit_code = WEXITSTATUS(status);
  return result;
}

UNIT_TEST(failed_runtime_check_exits_with_status_1_and_names_the_call) {
  const auto result = in_child([] { CUDA_CHECK(cudaErrorInvalidDevicePointer); });
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_CONTAINS(result.output, "CUDA runtime error at ");
  EXPECT_CONTAINS(result.output, "test_errors.cpp:");
  EXPECT_CONTAINS(result.output, "call:  cudaErrorInvalidDevicePointer");
  EXPECT_CONTAINS(result.output, "error: cudaErrorInvalidDevicePointer (invalid device pointer)");
}

UNIT_TEST(successful_check_does_nothing) {
  const auto result = in_child([] {
    CUDA_CHECK(cudaSuccess);
    std::printf("still here\n");
  });
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, std::string("still here\n"));
}

UNIT_TEST(failed_cublas_check_names_the_status) {
  const auto result = in_child([] { CUBLAS_CHECK(CUBLAS_STATUS_INVALID_VALUE); });
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_CONTAINS(result.output, "cuBLAS error at ");
  EXPECT_CONTAINS(result.output, "error: CUBLAS_STATUS_INVALID_VALUE");
}

UNIT_TEST(every_library_family_prints_its_own_status_name) {
  const auto nvrtc = in_child([] { NVRTC_CHECK(NVRTC_ERROR_COMPILATION); });
  EXPECT_CONTAINS(nvrtc.output, "NVRTC error at ");
  EXPECT_CONTAINS(nvrtc.output, "error: NVRTC_ERROR_COMPILATION\n");
  const auto curand = in_child([] { CURAND_CHECK(CURAND_STATUS_LAUNCH_FAILURE); });
  EXPECT_CONTAINS(curand.output, "cuRAND error at ");
  EXPECT_CONTAINS(curand.output, "error: CURAND_STATUS_LAUNCH_FAILURE");
  const auto cusparse = in_child([] { CUSPARSE_CHECK(CUSPARSE_STATUS_INVALID_VALUE); });
  EXPECT_CONTAINS(cusparse.output, "cuSPARSE error at ");
  EXPECT_CONTAINS(cusparse.output, "error: CUSPARSE_STATUS_INVALID_VALUE");
  EXPECT_EQ(nvrtc.exit_code + curand.exit_code + cusparse.exit_code, 3);
}

UNIT_TEST(debug_sync_switch_reads_the_environment) {
  unsetenv("COURSE_DEBUG_SYNC");
  EXPECT_TRUE(!course::debug_sync_enabled());
  setenv("COURSE_DEBUG_SYNC", "1", 1);
  EXPECT_TRUE(course::debug_sync_enabled());
  setenv("COURSE_DEBUG_SYNC", "0", 1);
  EXPECT_TRUE(!course::debug_sync_enabled());
  unsetenv("COURSE_DEBUG_SYNC");
}

UNIT_TEST_MAIN()
