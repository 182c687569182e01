// Exercise 19 - generated elementwise kernels: from an argument list and one line of
// code ("z[i] = a * x[i] + y[i]"), the CUDA source of a kernel that applies the line to
// every element; its CUBIN, compiled by NVRTC for this GPU, kept in a cache in memory
// and on disk, so that a second call, or a second process, compiles nothing; and the
// timing loop with which an autotuner picks the kernel's block size.
//
// Generating code at run time gives a library one kernel per expression, fused and
// specialised, without writing them all in advance; the compiler then runs inside the
// program, and its tens of milliseconds per kernel are what the cache saves. A cache is
// only as good as its key: it must name everything the CUBIN depends on, or a program
// runs another kernel than the one it asked for.
//
// Build and run:  make 19 && make run-19
// Check:          make check-19   (statement: exercises/19_generated_kernels/README.md)
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "course/errors_driver.hpp"
#include "generated_kernels.hpp"

using generated_kernels::CacheFileHeader;
using generated_kernels::fnv1a64;
using generated_kernels::hex64;

// ---------------------------------------------------------------------------
// Part 1: the source
// ---------------------------------------------------------------------------
// [slide:generate_source]
std::string generate_source(const std::vector<Argument>& arguments, const std::string& operation,
                            const std::string& name) {
  std::string source;
  // TODO(student): the kernel's text, piece by piece.
  // [slide:generate-steps]
  //   1. extern "C" __global__ void NAME(
  //   2. Each argument as "TYPE NAME, ", with __restrict__ after the type of a pointer
  //      ("const float* __restrict__ x, ").
  //   3. "size_t n) {"
  //   4. A grid-stride loop over i, in size_t: start at the thread's global index, step
  //      by blockDim.x * gridDim.x.
  //   5. OPERATION followed by ';' as the loop's body, then the closing braces.
  // [/slide]
  // END TODO(student)
  return source;
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 2: the cache
// ---------------------------------------------------------------------------
// [slide:cache_key]
std::string cache_key(const KeyParts& parts) {
  std::string key;
  // TODO(student): one hash of every field, behind the name.
  //   1. Hash the source, the options, the architecture and NVRTC's version (as text)
  //      with fnv1a64, each field preceded by its length, so that no two lists of
  //      fields hash the same text.
  //   2. key = NAME + "-" + hex64(hash).
  // END TODO(student)
  return key;
}
// [/slide]

// [slide:decode_entry]
std::optional<std::vector<char>> decode_entry(const std::vector<char>& file) {
  // TODO(student): the payload of an intact file, or nothing.
  //   1. When the file is long enough, copy the header out of its first bytes
  //      (std::memcpy).
  //   2. Return nothing unless the magic is kCacheMagic, payload_bytes is the number of
  //      bytes after the header and checksum is fnv1a64 of those bytes.
  //   3. Otherwise return those bytes.
  // END TODO(student)
  return std::nullopt;
}
// [/slide]

std::optional<std::vector<char>> KernelCache::lookup(const std::string& key) {
  // TODO(student): memory first, then the file.
  //   1. An entry in memory_ counts a memory hit.
  //   2. Otherwise, with a folder, read the file path_of(key) (read_whole_file). When
  //      decode_entry accepts it, keep its payload in memory_, count a disk hit and
  //      return it. A file it refuses counts in rejected_files, with a warning (warn)
  //      naming the file.
  //   3. Anything else is a miss.
  // END TODO(student)
  ++counters_.misses;
  return std::nullopt;
}

void KernelCache::store(const std::string& key, const std::vector<char>& payload) {
  // TODO(student): memory, then the file.
  //   1. Keep the payload in memory_.
  //   2. With a folder, write encode_entry(payload) to path_of(key) with
  //      write_file_atomically. When that fails, count a failed write and warn: the
  //      program goes on with the entry in memory.
  // END TODO(student)
}

// [slide:build_kernel]
Build build_kernel(KernelCache& cache, const std::string& name, const std::string& source,
                   int architecture) {
  Build build;
  // TODO(student): the cache's entry, or a compilation.
  //   1. The key of (name, source, joined(nvrtc_options(architecture)), architecture,
  //      nvrtc_version()).
  //   2. The cache's entry when it has one (from_cache).
  //   3. Otherwise compile_with_nvrtc and keep its log. Store the CUBIN only when the
  //      compilation succeeded.
  // END TODO(student)
  return build;
}
// [/slide]

// ---------------------------------------------------------------------------
// Part 3: the autotuner's timing loop
// ---------------------------------------------------------------------------
// [slide:time_launches_ms]
double time_launches_ms(const std::function<void()>& launch, int repetitions, CUstream stream) {
  double mean_ms = 0.0;
  // TODO(student): a warm-up, then the repetitions between two events.
  // [slide:timing-steps]
  //   1. One warm-up call of launch().
  //   2. Create two events (cuEventCreate). Record the first on `stream`.
  //   3. Call launch() `repetitions` times, then record the second.
  //   4. Wait for it (cuEventSynchronize) before cuEventElapsedTime.
  //   5. Destroy both. mean_ms = the time divided by repetitions.
  // [/slide]
  // END TODO(student)
  return mean_ms;
}
// [/slide]
