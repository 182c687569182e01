// Exercise 01 - hello world: a first CUDA program, which greets from the host and then
// asks the CUDA runtime which GPUs it can see and what they are.
//
// Everything here runs on the CPU (the host): no kernel yet. What the program proves is
// that the toolchain works (nvcc built it), that the driver finds the GPU (the runtime
// answers), and what the GPU offers; later exercises size their work from these very
// figures: compute capability, number of multiprocessors, memory.
//
// Build and run:  make 01 && make run-01
//   or by hand, from the repository root:
//                 nvcc -O3 -I common exercises/01_hello_world/hello_world.cu -o hello_world
//                 ./hello_world        (on a cluster: through Slurm, see the main README)
// Check:          make check-01   (statement: exercises/01_hello_world/README.md)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "course/errors.hpp"

// Memory is reported in GiB, 2^30 bytes: powers of two are how memory is built and
// how the driver reports it. A GB (10^9 bytes) is 7% smaller.
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

// ---------------------------------------------------------------------------
// One device
// ---------------------------------------------------------------------------
// Prints one device's block, for example:
//   Device 0: NVIDIA H100 80GB HBM3
//     compute capability: 9.0
//     multiprocessors: 132
//     global memory: 79.19 GiB
// [slide:print-device]
void print_device(int device) {
  // TODO(student): one device's block, in two steps.
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  std::printf("Device %d: %s\n", device, properties.name);
  std::printf("  compute capability: %d.%d\n", properties.major, properties.minor);
  std::printf("  multiprocessors: %d\n", properties.multiProcessorCount);
  std::printf("  global memory: %.2f GiB\n", properties.totalGlobalMem / kBytesPerGiB);
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The program
// ---------------------------------------------------------------------------
// [slide:main]
int main() {
  // TODO(student): greet from the host.
  std::printf("Hello, world from the host!\n");
  // END TODO(student)

  // TODO(student): find the devices and describe each one.
  // [slide:count-devices]
  int device_count = 0;
  cudaError_t status = cudaGetDeviceCount(&device_count);
  // The runtime reports a missing GPU as an error (cudaErrorNoDevice); a success with
  // a count of 0 would mean the same, so it is reported the same way.
  if (status == cudaSuccess && device_count == 0) status = cudaErrorNoDevice;
  if (status != cudaSuccess) {
    std::fflush(stdout);  // the greeting first, even when stdout is a buffered pipe
    std::fprintf(stderr, "No CUDA device found (%s: %s)\n", cudaGetErrorName(status),
                 cudaGetErrorString(status));
    return EXIT_FAILURE;
  }
  std::printf("Found %d CUDA device(s).\n", device_count);
  for (int device = 0; device < device_count; ++device) print_device(device);
  // [/slide]
  // END TODO(student)
  return EXIT_SUCCESS;
}
// [/slide]
