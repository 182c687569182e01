// Exercise 19: what the program and its check must agree on - the kernels the cases
// generate, their inputs drawn from a seed, the CPU references, the format of a cache
// file on disk, and the results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// generated_kernels.hpp includes it for the student's code.
//
// Used by:  make 19 && make run-19 (the program), make check-19 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"

namespace generated_kernels {

// ---- The kernels of the cases ------------------------------------------------------

// The statement's kernel: z = a x + y, on float arrays.
inline constexpr const char* kLinCombArguments =
    "float a, const float* x, const float* y, float* z";
inline constexpr const char* kLinCombOperation = "z[i] = a * x[i] + y[i]";
inline constexpr const char* kLinCombName = "lin_comb";
// Another body under the same name: z = a x - y. Its cache entry must not be lin_comb's.
inline constexpr const char* kLinDiffOperation = "z[i] = a * x[i] - y[i]";
inline constexpr const char* kSharedName = "combo";
// A body with an error: `offset` is declared nowhere.
inline constexpr const char* kUndeclared = "undeclared_offset";
inline const std::string kBrokenOperation = std::string("z[i] = a * x[i] + ") + kUndeclared;

// The architectures the cases compile for without a GPU (NVRTC only compiles): Turing
// and Ampere, the oldest two families CUDA 13 supports.
inline constexpr int kFirstArchitecture = 75;
inline constexpr int kSecondArchitecture = 80;

// ---- The autotuner ----------------------------------------------------------------

// The candidates it times: every block size with every number of elements per thread,
// each candidate launched once to warm up, then kTuningRepetitions times between events.
inline constexpr unsigned kCandidateBlocks[] = {128, 256, 512, 1024};
inline constexpr unsigned kCandidateElementsPerThread[] = {1, 2, 4, 8};
inline constexpr std::size_t kCandidates =
    std::size(kCandidateBlocks) * std::size(kCandidateElementsPerThread);
inline constexpr int kTuningRepetitions = 10;

// ---- Inputs and references ---------------------------------------------------------

// x and y uniform in [-8, 8), a = 1.75: a x +- y never overflows, and its rounding is
// where a second rounding (no FMA) would show.
inline constexpr float kInputLimit = 8.0f;
inline constexpr float kDefaultFactor = 1.75f;
inline constexpr std::uint64_t kXSalt = 1;
inline constexpr std::uint64_t kYSalt = 2;

inline std::vector<float> make_x(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kXSalt));
}
inline std::vector<float> make_y(std::size_t n, std::uint64_t seed) {
  return course::random_floats(n, -kInputLimit, kInputLimit, course::derive_seed(seed, kYSalt));
}

// z = a x + sign y as the GPU computes it with FMA contraction on (NVRTC's and nvcc's
// default): one fused multiply-add, rounded once, like std::fma.
inline std::vector<float> lin_comb_reference(float a, const std::vector<float>& x,
                                             const std::vector<float>& y, float sign = 1.0f) {
  std::vector<float> z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) z[i] = std::fma(a, x[i], sign * y[i]);
  return z;
}

// ---- The cache file ----------------------------------------------------------------

// A cache file is this header, then the payload (a CUBIN, or an autotuner's choice).
// A file cut short by a crash or a full disk, or changed by anything, must not be
// loaded: its length and checksum no longer match what the header says.
inline constexpr char kCacheMagic[8] = {'C', 'U', 'K', 'C', 'A', 'C', 'H', '1'};
struct CacheFileHeader {
  char magic[8];
  std::uint64_t payload_bytes;
  std::uint64_t checksum;  // fnv1a64 of the payload
};
inline constexpr const char* kCacheFileSuffix = ".bin";

// 64-bit FNV-1a: a fast hash, good enough to tell files and sources apart (not a
// defence against someone forging a file).
inline constexpr std::uint64_t kFnvOffsetBasis = 14695981039346656037ull;
inline constexpr std::uint64_t kFnvPrime = 1099511628211ull;
inline std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = kFnvOffsetBasis) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return hash;
}
inline std::uint64_t fnv1a64(const std::vector<char>& bytes, std::uint64_t hash = kFnvOffsetBasis) {
  return fnv1a64(std::string_view(bytes.data(), bytes.size()), hash);
}

// Sixteen hexadecimal digits.
inline std::string hex64(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int digit = 15; digit >= 0; --digit, value >>= 4) text[digit] = kDigits[value & 0xf];
  return text;
}

// The whole file for a payload: the header, then the payload.
inline std::vector<char> encode_entry(const std::vector<char>& payload) {
  CacheFileHeader header{};
  std::memcpy(header.magic, kCacheMagic, sizeof header.magic);
  header.payload_bytes = payload.size();
  header.checksum = fnv1a64(payload);
  std::vector<char> file(sizeof header);
  std::memcpy(file.data(), &header, sizeof header);
  file.insert(file.end(), payload.begin(), payload.end());
  return file;
}

// ---------------------------------------------------------------------------
// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu).
// A case with a cache gets its folder, emptied first when `fresh` (the second process of
// a reuse case keeps what the first left).
// ---------------------------------------------------------------------------
namespace request {
// generate_source on these parts, then one build for `architecture` in a memory-only cache.
struct Source {
  std::string arguments;
  std::string operation;
  std::string name;
  std::int64_t architecture = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("arguments", arguments), visit("operation", operation), visit("name", name),
        visit("architecture", architecture);
  }
};
inline const course::check::Request<Source> source{"source"};
// A cache in `folder` and builds of lin_comb for `architecture`: a broken body built twice,
// a folder that cannot be written, one process of two that share the folder.
struct CacheBuilds {
  std::string folder;
  bool fresh = true;
  std::int64_t architecture = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("folder", folder), visit("fresh", fresh), visit("architecture", architecture);
  }
};
inline const course::check::Request<CacheBuilds> compile_error{"compile_error"};
inline const course::check::Request<CacheBuilds> read_only{"read_only"};
inline const course::check::Request<CacheBuilds> reuse{"reuse"};
// cache_key on parts that differ from a first set in one field each.
struct KeyFields {
  std::int64_t architecture = 0;
  std::int64_t second_architecture = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("architecture", architecture), visit("second_architecture", second_architecture);
  }
};
inline const course::check::Request<KeyFields> key_fields{"key_fields"};
// Two builds in one cache: the same name with another body, or lin_comb for
// second_architecture after architecture.
enum class Vary { body, architecture };
inline std::vector<std::pair<Vary, std::string>> choices(Vary) {
  return {{Vary::body, "body"}, {Vary::architecture, "architecture"}};
}
struct TwoBuilds {
  std::string folder;
  bool fresh = true;
  Vary vary = Vary::body;
  std::int64_t architecture = 0;
  std::int64_t second_architecture = 0;  // read only when vary is architecture
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("folder", folder), visit("fresh", fresh), visit("vary", vary),
        visit("architecture", architecture), visit("second_architecture", second_architecture);
  }
};
inline const course::check::Request<TwoBuilds> two_builds{"two_builds"};
// lin_comb built, its file damaged as a crash (cut short) or a disk error (a byte
// changed) would, then built by a cache with nothing in memory.
enum class Damage { truncate, flip };
inline std::vector<std::pair<Damage, std::string>> choices(Damage) {
  return {{Damage::truncate, "truncate"}, {Damage::flip, "flip"}};
}
struct Corrupt {
  std::string folder;
  bool fresh = true;
  Damage damage = Damage::truncate;
  std::int64_t architecture = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("folder", folder), visit("fresh", fresh), visit("damage", damage),
        visit("architecture", architecture);
  }
};
inline const course::check::Request<Corrupt> corrupt{"corrupt"};
// lin_comb on n elements with this factor and launch configuration.
struct LinComb {
  std::uint64_t n = 0;
  double a = 0.0;
  std::int64_t block = 0;
  std::int64_t elements_per_thread = 0;
  std::string folder;
  bool fresh = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("a", a), visit("block", block),
        visit("elements_per_thread", elements_per_thread), visit("folder", folder),
        visit("fresh", fresh);
  }
};
inline const course::check::Request<LinComb> lin_comb{"lin_comb"};
// n elements: the two kernels named alike, or two tunings of lin_comb in one process.
struct Sized {
  std::uint64_t n = 0;
  std::string folder;
  bool fresh = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("folder", folder), visit("fresh", fresh);
  }
};
inline const course::check::Request<Sized> two_kernels{"two_kernels"};
inline const course::check::Request<Sized> tune{"tune"};
// lin_comb tuned, then timed against the copy and nvcc's kernel: the best of `rounds`
// rounds, each the median of `repetitions` runs.
struct Speed {
  std::uint64_t n = 0;
  std::int64_t repetitions = 0;
  std::int64_t rounds = 0;
  std::string folder;
  bool fresh = true;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("repetitions", repetitions), visit("rounds", rounds),
        visit("folder", folder), visit("fresh", fresh);
  }
};
inline const course::check::Request<Speed> speed{"speed"};
}  // namespace request

// ---------------------------------------------------------------------------
// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
// ---------------------------------------------------------------------------

// The tunings a case reports, each under its prefix: the tune case tunes twice in one
// process, the speed case once.
inline constexpr const char* kFirstTuning = "first_";
inline constexpr const char* kSecondTuning = "second_";
inline constexpr const char* kOnlyTuning = "";

namespace result {
using course::check::Array;
using course::check::Family;
using course::check::Text;
using course::check::Value;
// Flags (0 or 1) and counts are std::int64_t.

// The source case: the generated text, its pointer arguments, its build in a memory cache.
inline const Text source{"source"};
inline const Value<std::int64_t> pointers{"pointers"};
inline const Value<std::int64_t> succeeded{"succeeded"};  // also the reuse case's one build
inline const Text log{"log"};
inline const Value<std::int64_t> kernel_symbol{
    "kernel_symbol"};  // the CUBIN defines NAME unmangled

// Two builds in one cache (compile error, two builds, corrupt file, read-only folder).
inline const Value<std::int64_t> first_succeeded{"first_succeeded"};
inline const Value<std::int64_t> second_succeeded{"second_succeeded"};
inline const Value<std::int64_t> both_succeeded{"both_succeeded"};
inline const Value<std::int64_t> second_from_cache{"second_from_cache"};
inline const Text first_log{"first_log"};
inline const Text second_log{"second_log"};
inline const Value<std::int64_t> compilations{"compilations"};  // NVRTC's, during the case's builds
inline const Value<std::int64_t> entries_in_memory{"entries_in_memory"};
inline const Value<std::int64_t> files{"files"};  // regular files in the case's cache folder
inline const Value<std::int64_t> cubins_differ{"cubins_differ"};
inline const Value<std::int64_t> written{"written"};  // the first build's file is intact
inline const Value<std::int64_t> intact_after{
    "intact_after"};  // and again after the damaged one's rebuild
inline const Value<std::int64_t> rejected_files{"rejected_files"};
inline const Value<std::int64_t> failed_writes{"failed_writes"};
inline const Value<std::int64_t> memory_hits{"memory_hits"};
inline const Text warnings{"warnings"};  // the cache's warnings, one a line

// cache_key of the first parts, of the same parts again, and of parts that differ from
// the first in one field each (the two-builds case reports the first two keys too).
inline const Text first_key{"first_key"};
inline const Text second_key{"second_key"};
inline const Text same_key{"same_key"};
inline const Text source_key{"source_key"};
inline const Text options_key{"options_key"};
inline const Text architecture_key{"architecture_key"};
inline const Text nvrtc_version_key{"nvrtc_version_key"};

// One process's build of lin_comb (the reuse case runs two in turn).
inline const Value<double> build_ms{"build_ms"};
inline const Value<std::int64_t> from_cache{"from_cache"};
inline const Value<std::int64_t> disk_hits{"disk_hits"};

// On the GPU: whether the kernels were built (else the exception's words), their outputs.
inline const Value<std::int64_t> built{"built"};
inline const Text error{"error"};
inline const Array<float> z{"z"};
inline const Array<float> plus{"plus"};    // the two kernels of one name: + y
inline const Array<float> minus{"minus"};  // and - y
inline const Array<float> by_hand{"by_hand"};

// The autotuner: its repetitions, and per tuning (kFirstTuning, ...) every candidate
// timed, whether the choice came from the cache, and the choice.
inline const Value<std::int64_t> repetitions{"repetitions"};
inline const Family<Array<std::int64_t>> tuning_blocks{"", "blocks"};
inline const Family<Array<std::int64_t>> tuning_elements{"", "elements"};
inline const Family<Array<std::int64_t>> tuning_launches{"", "launches"};
inline const Family<Array<double>> tuning_ms{"", "ms"};
inline const Family<Value<std::int64_t>> tuning_from_cache{"", "from_cache"};
inline const Family<Value<std::int64_t>> chosen_block{"", "chosen_block"};
inline const Family<Value<std::int64_t>> chosen_elements{"", "chosen_elements"};

// The speed case: the best median of each, in the same process.
inline const Value<double> copy_ms{"copy_ms"};
inline const Value<double> generated_ms{"generated_ms"};
inline const Value<double> hand_ms{"hand_ms"};
}  // namespace result

}  // namespace generated_kernels
