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
  // [slide:generate-source]
  std::string parameters;
  for (const Argument& argument : arguments) {
    parameters += argument.type + (argument.is_pointer ? " __restrict__ " : " ") + argument.name;
    parameters += ", ";
  }
  source = "extern \"C\" __global__ void " + name + "(" + parameters + "size_t n) {\n";
  source += "  const size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;\n";
  source += "  const size_t stride = (size_t)gridDim.x * blockDim.x;\n";
  source += "  for (size_t i = first; i < n; i += stride) {\n";
  source += "    " + operation + ";\n";
  source += "  }\n}\n";
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
  // [slide:cache-key]
  std::uint64_t hash = generated_kernels::kFnvOffsetBasis;
  for (const std::string& field : {parts.source, parts.options, std::to_string(parts.architecture),
                                   std::to_string(parts.nvrtc_version)}) {
    hash = fnv1a64(std::to_string(field.size()) + ":" + field, hash);
  }
  key = parts.name + "-" + hex64(hash);
  // [/slide]
  // END TODO(student)
  return key;
}
// [/slide]

// [slide:decode_entry]
std::optional<std::vector<char>> decode_entry(const std::vector<char>& file) {
  // TODO(student): the payload of an intact file, or nothing.
  // [slide:decode-entry]
  CacheFileHeader header{};
  if (file.size() < sizeof header) return std::nullopt;
  std::memcpy(&header, file.data(), sizeof header);
  if (std::memcmp(header.magic, generated_kernels::kCacheMagic, sizeof header.magic) != 0) {
    return std::nullopt;
  }
  std::vector<char> payload(file.begin() + sizeof header, file.end());
  if (header.payload_bytes != payload.size()) return std::nullopt;
  if (header.checksum != fnv1a64(payload)) return std::nullopt;
  return payload;
  // [/slide]
  // END TODO(student)
  return std::nullopt;
}
// [/slide]

std::optional<std::vector<char>> KernelCache::lookup(const std::string& key) {
  // TODO(student): memory first, then the file.
  const auto found = memory_.find(key);
  if (found != memory_.end()) {
    ++counters_.memory_hits;
    return found->second;
  }
  std::vector<char> file;
  if (!folder_.empty() && read_whole_file(path_of(key), file)) {
    if (std::optional<std::vector<char>> payload = decode_entry(file)) {
      ++counters_.disk_hits;
      memory_[key] = *payload;
      return payload;
    }
    ++counters_.rejected_files;
    warn(path_of(key) + " is not an intact entry (cut short or changed): compiled again");
  }
  // END TODO(student)
  ++counters_.misses;
  return std::nullopt;
}

void KernelCache::store(const std::string& key, const std::vector<char>& payload) {
  // TODO(student): memory, then the file.
  memory_[key] = payload;
  if (!folder_.empty() &&
      !write_file_atomically(path_of(key), generated_kernels::encode_entry(payload))) {
    ++counters_.failed_writes;
    warn("cannot write " + path_of(key) + ": the entry is kept in memory only");
  }
  // END TODO(student)
}

// [slide:build_kernel]
Build build_kernel(KernelCache& cache, const std::string& name, const std::string& source,
                   int architecture) {
  Build build;
  // TODO(student): the cache's entry, or a compilation.
  const std::vector<std::string> options = nvrtc_options(architecture);
  build.key = cache_key({name, source, joined(options), architecture, nvrtc_version()});
  if (std::optional<std::vector<char>> cached = cache.lookup(build.key)) {
    build.succeeded = true;
    build.from_cache = true;
    build.cubin = std::move(*cached);
    return build;
  }
  // [slide:build-kernel]
  NvrtcOutput compiled = compile_with_nvrtc(source, options);
  build.log = compiled.log;
  if (!compiled.succeeded) return build;  // never cached: the next attempt shows the log again
  cache.store(build.key, compiled.cubin);
  // [/slide]
  build.succeeded = true;
  build.cubin = std::move(compiled.cubin);
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
  // [slide:timing-loop]
  launch();  // warm-up, untimed
  CUevent start = nullptr, stop = nullptr;
  CU_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventRecord(start, stream));
  for (int repetition = 0; repetition < repetitions; ++repetition) launch();
  CU_CHECK(cuEventRecord(stop, stream));
  CU_CHECK(cuEventSynchronize(stop));  // the kernels are only enqueued until then
  float elapsed_ms = 0.0f;
  CU_CHECK(cuEventElapsedTime(&elapsed_ms, start, stop));
  CU_CHECK(cuEventDestroy(start));
  CU_CHECK(cuEventDestroy(stop));
  mean_ms = elapsed_ms / repetitions;
  // [/slide]
  // END TODO(student)
  return mean_ms;
}
// [/slide]
