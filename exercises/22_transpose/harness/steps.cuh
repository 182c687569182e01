// Exercise 22: what the demo (harness/demo.cu) and the check's cases (harness/cases.cu)
// both run: the student's kernels by name on the student's grid, the copy kernel of the
// same shape they are measured against, and the matrices of a run on the device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "transpose.hpp"
#include "workload.hpp"

namespace transpose {

using Kernel = void (*)(const float*, float*, int, int);

// Every launch of the exercise: blocks of kTileDim x kBlockRows threads.
inline const dim3 kBlock(kTileDim, kBlockRows);

// The ceiling, a copy of the same shape (harness/copy_kernel.cu), on the runner's own
// grid: one whose student version is wrong must not slow the yardstick down.
void launch_copy(const float* in, float* out, int rows, int cols);

// ---------------------------------------------------------------------------
// The student's kernels, by the names the check uses
// ---------------------------------------------------------------------------
struct Step {
  const char* name;   // the check's
  const char* label;  // the demo's
  Kernel kernel;
};

inline const Step kSteps[] = {
    {"naive", "1 transpose_naive", transpose_naive},
    {"tiled", "2 transpose_tiled", transpose_tiled},
    {"padded", "3 transpose_padded", transpose_padded},
};

// A student's kernel on the student's grid.
inline void launch(const Step& step, const float* in, float* out, int rows, int cols) {
  step.kernel<<<tile_grid(rows, cols), kBlock>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// The input of a run and its output, poisoned.
struct DeviceMatrices {
  DeviceMatrices(int rows, int cols, std::uint64_t seed)
      : in(make_input(rows, cols, seed)),
        out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
    out.poison();
  }
  course::DeviceBuffer<float> in, out;
};

}  // namespace transpose
