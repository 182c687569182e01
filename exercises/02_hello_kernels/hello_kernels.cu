// Exercise 02 - hello from kernels: every GPU thread says who it is.
//
// A kernel is one function run by many threads at once. Each thread finds out which
// one it is from the built-in variables blockIdx.x, blockDim.x and threadIdx.x, and
// combines them into a global index: the number that, in every later exercise, picks
// the array element the thread works on. Here each thread only prints those numbers,
// which makes the launch shape <<<blocks, threads_per_block>>> visible.
//
// Build and run:  make 02 && make run-02          (the seed's 4 blocks of 16 threads)
// Other shapes:   make run-02 ARGS="3 100"        (3 blocks of 100 threads)
// Check:          make check-02   (statement: exercises/02_hello_kernels/README.md)
// On the course cluster, run it through Slurm, never with ./ on a shared node.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "course/errors.hpp"

namespace {

// The seed course's launch: 4 blocks of 16 threads.
constexpr int kDefaultBlocks = 4;
constexpr int kDefaultThreadsPerBlock = 16;
// Exit status for a command line the program cannot use (EXIT_FAILURE, 1, is for
// CUDA errors: the check tells the two apart).
constexpr int kExitUsage = 2;

struct LaunchShape {
  int blocks = kDefaultBlocks;
  int threads_per_block = kDefaultThreadsPerBlock;
};

// ---------------------------------------------------------------------------
// Command line (given): hello_kernels [blocks threads_per_block]
// ---------------------------------------------------------------------------
void print_usage(std::FILE* stream, const char* program) {
  std::fprintf(stream,
               "usage: %s [blocks threads_per_block]\n"
               "  launches hello_kernel on `blocks` blocks of `threads_per_block` threads\n"
               "  (default %d blocks of %d threads); each thread prints one line.\n"
               "  Zero, or more than 1024 threads per block, are accepted here on purpose:\n"
               "  the launch then fails, and the program must say so and exit with status 1.\n",
               program, kDefaultBlocks, kDefaultThreadsPerBlock);
}

[[noreturn]] void exit_with_usage(const char* program, const char* problem) {
  std::fprintf(stderr, "%s: %s\n", program, problem);
  print_usage(stderr, program);
  std::exit(kExitUsage);
}

// A count written in decimal digits only: no sign, no spaces, no suffix, fits in an int.
bool parse_count(const char* text, int& count) {
  const char* end = text + std::strlen(text);
  const auto [stop, status] = std::from_chars(text, end, count);
  return status == std::errc() && stop == end && count >= 0;
}

LaunchShape parse_command_line(int argc, char** argv) {
  LaunchShape shape;
  if (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    print_usage(stdout, argv[0]);
    std::exit(EXIT_SUCCESS);
  }
  if (argc == 1) return shape;
  if (argc != 3) exit_with_usage(argv[0], "expected two numbers, or none");
  if (!parse_count(argv[1], shape.blocks)) {
    exit_with_usage(argv[0], "the number of blocks must be an integer from 0 to 2^31 - 1");
  }
  if (!parse_count(argv[2], shape.threads_per_block)) {
    exit_with_usage(argv[0],
                    "the number of threads per block must be an integer from 0 to 2^31 - 1");
  }
  return shape;
}

}  // namespace

// ---------------------------------------------------------------------------
// Kernel: runs once per thread of the grid
// ---------------------------------------------------------------------------
// [slide:hello-kernel]
__global__ void hello_kernel() {
  // TODO(student): one line per thread, in two steps.
  //   1. Compute this thread's global index G from blockIdx.x, blockDim.x and threadIdx.x.
  //   2. Print exactly one line, ending with a newline, with B = blockIdx.x and
  //      T = threadIdx.x. printf works in device code as on the host. Its %d takes an
  //      int, and the built-in variables are unsigned int: convert them to int.
  //        Hello from block B, thread T, global index G
  // END TODO(student)
}
// [/slide]

// ---------------------------------------------------------------------------
// Host program
// ---------------------------------------------------------------------------
// [slide:main]
int main(int argc, char** argv) {
  const LaunchShape shape = parse_command_line(argc, argv);
  const long long total_threads =
      static_cast<long long>(shape.blocks) * static_cast<long long>(shape.threads_per_block);
  std::printf("Launching hello_kernel: %d block(s) of %d thread(s), %lld thread(s) in all\n",
              shape.blocks, shape.threads_per_block, total_threads);
  // Our own line must leave its buffer before the kernel's lines are written.
  std::fflush(stdout);

  // TODO(student): the launch, in three steps.
  //   1. Launch hello_kernel on shape.blocks blocks of shape.threads_per_block threads.
  //      The first number between <<< >>> is the block count, the second the block size.
  //   2. Check the launch with CUDA_CHECK_LAUNCH(). An invalid shape is reported only
  //      through cudaGetLastError, which that macro reads (it then exits with status 1).
  //   3. Wait for the kernel with CUDA_CHECK(cudaDeviceSynchronize()). A launch returns
  //      at once, and the kernel's printf lines reach the screen only when the host
  //      waits for it.
  // END TODO(student)
  return EXIT_SUCCESS;
}
// [/slide]
