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
  //   1. Fill a cudaDeviceProp with cudaGetDeviceProperties, inside CUDA_CHECK.
  //   2. Print the four lines above from its fields name, major and minor,
  //      multiProcessorCount and totalGlobalMem. Memory is totalGlobalMem / kBytesPerGiB,
  //      printed with %.2f: a division in floating point keeps the fraction.
  (void)device;
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// The program
// ---------------------------------------------------------------------------
// [slide:main]
int main() {
  // TODO(student): greet from the host.
  //   Print exactly this line: Hello, world from the host!
  // END TODO(student)

  // TODO(student): find the devices and describe each one.
  // [slide:find-devices]
  //   1. Ask cudaGetDeviceCount how many devices there are. Keep its status instead of
  //      wrapping it in CUDA_CHECK: on a machine without a usable GPU it fails, and
  //      that failure is an answer to report, not a bug.
  //   2. If it failed, or counted 0 devices, print this line on stderr and return
  //      EXIT_FAILURE. The name and text come from cudaGetErrorName and
  //      cudaGetErrorString, of the status (of cudaErrorNoDevice for a count of 0).
  //        No CUDA device found (<error name>: <error text>)
  //   3. Otherwise print "Found <count> CUDA device(s)." and call print_device for every
  //      device, numbered 0 to count - 1.
  // [/slide]
  // END TODO(student)
  return EXIT_SUCCESS;
}
// [/slide]
