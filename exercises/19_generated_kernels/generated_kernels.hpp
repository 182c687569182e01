// Exercise 19: the functions the student implements, with their fixed signatures, and
// what is given around them: an elementwise kernel is generated as C++ text from an
// argument list and one line of code, compiled by NVRTC into a CUBIN for the device's
// architecture, kept in a cache (in memory and on disk) under a key that names
// everything the CUBIN depends on, and launched with the block size an autotuner chose.
// The check calls these functions exactly as declared here; do not change this file.
//
// Build and run:  make 19 && make run-19   (statement: exercises/19_generated_kernels/README.md)
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "given_tools.hpp"
#include "workload.hpp"

// ---------------------------------------------------------------------------
// Part 1: the source (student)
// ---------------------------------------------------------------------------

// The CUDA source of the elementwise kernel `name`:
//
//   extern "C" __global__ void NAME(ARGUMENTS, size_t n) {
//     for (each i of this thread, from its global index, by steps of the whole grid, i < n) {
//       OPERATION;
//     }
//   }
//
// extern "C" keeps NAME unmangled, so that cuModuleGetFunction finds it by NAME; each
// pointer argument is declared `__restrict__` (the compiler may then assume the arrays
// do not overlap). The loop covers every element whatever the grid: the grid is sized
// for several elements per thread.
std::string generate_source(const std::vector<Argument>& arguments, const std::string& operation,
                            const std::string& name);

// ---------------------------------------------------------------------------
// Part 2: the cache (student)
// ---------------------------------------------------------------------------

// Everything a CUBIN depends on.
struct KeyParts {
  std::string name;     // the kernel's name: starts the key, for a person reading the folder
  std::string source;   // the whole generated source
  std::string options;  // joined(nvrtc_options(architecture))
  int architecture = 0;
  int nvrtc_version = 0;
};

// The cache key: "NAME-" followed by the 16 hexadecimal digits (hex64) of a hash
// (fnv1a64) of the source, the options, the architecture and NVRTC's version: two
// kernels that differ in any of them must get different keys. A key is also a file name.
std::string cache_key(const KeyParts& parts);

// The payload of a cache file (harness/workload.hpp: CacheFileHeader, then the payload), or
// nothing when the file is not an intact entry: too short for a header, another magic,
// payload_bytes not the number of bytes that follow the header, or a checksum that is
// not fnv1a64 of those bytes.
std::optional<std::vector<char>> decode_entry(const std::vector<char>& file);

// Counts of what the cache did, for the cases and the demo.
struct CacheCounters {
  int memory_hits = 0;
  int disk_hits = 0;
  int misses = 0;
  int rejected_files = 0;  // files found but not intact: never loaded
  int failed_writes = 0;   // entries kept in memory only
};

class KernelCache {
 public:
  // `folder`: where entries live on disk, one file per key; "" keeps them in memory
  // only. The folder is created when missing; when it cannot be, a warning says so.
  explicit KernelCache(std::string folder = "") : folder_(std::move(folder)) {
    std::error_code failed;
    if (!folder_.empty()) std::filesystem::create_directories(folder_, failed);
    if (failed) warn("cannot create " + folder_ + " (" + failed.message() + ")");
  }

  // The entry of `key`: from memory, else from its file when that file is intact (kept
  // in memory then), else nothing. A file that is not intact is never returned: it is
  // counted in rejected_files, with a warning, and a later store overwrites it.
  std::optional<std::vector<char>> lookup(const std::string& key);
  // Keeps `payload` under `key` in memory and, with a folder, in its file (written
  // atomically). A file that cannot be written is no error: a warning, failed_writes,
  // and the entry stays in memory.
  void store(const std::string& key, const std::vector<char>& payload);

  // Given.
  const std::string& folder() const { return folder_; }
  std::string path_of(const std::string& key) const {
    return folder_ + "/" + key + generated_kernels::kCacheFileSuffix;
  }
  std::size_t entries_in_memory() const { return memory_.size(); }
  const CacheCounters& counters() const { return counters_; }
  // Every warning so far; each was printed on stderr too, "warning: kernel cache: ...".
  const std::vector<std::string>& warnings() const { return warnings_; }
  void warn(const std::string& message) {
    std::fprintf(stderr, "warning: kernel cache: %s\n", message.c_str());
    warnings_.push_back(message);
  }

 private:
  std::string folder_;
  std::map<std::string, std::vector<char>> memory_;
  CacheCounters counters_;
  std::vector<std::string> warnings_;
};

// What building a kernel gave.
struct Build {
  bool succeeded = false;
  std::vector<char> cubin;  // when it succeeded
  std::string log;          // NVRTC's log when it compiled; the errors when it failed
  std::string key;          // the cache key of the source
  bool from_cache = false;  // true when no compilation was needed
};

// The CUBIN of `source` (which defines the kernel `name`) for sm_<architecture>, with
// nvrtc_options(architecture): the cache's entry under its key when there is one,
// otherwise compiled by compile_with_nvrtc and, only when that succeeded, stored in the
// cache. A failed compilation returns NVRTC's log and leaves the cache unchanged, so that
// the next attempt compiles again and shows the errors again.
Build build_kernel(KernelCache& cache, const std::string& name, const std::string& source,
                   int architecture);

// ---------------------------------------------------------------------------
// Part 3: the autotuner's timing loop (student)
// ---------------------------------------------------------------------------

// The mean time, in milliseconds, of one call of `launch` (which enqueues one kernel on
// `stream`, asynchronously): one untimed warm-up call first (its kernel may pay for the
// module's first use), then `repetitions` calls between two CUDA events recorded on
// `stream` (cuEventRecord), the stop event waited for (cuEventSynchronize) before the
// time between them is read (cuEventElapsedTime). Destroys its events.
double time_launches_ms(const std::function<void()>& launch, int repetitions, CUstream stream);
