// Exercise 19: what the program and its check must agree on - the kernels the cases
// generate, their inputs drawn from a seed, the CPU references, and the format of a
// cache file on disk.
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
#include <vector>

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

}  // namespace generated_kernels
