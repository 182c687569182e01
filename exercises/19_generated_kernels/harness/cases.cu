// Exercise 19 - the cases the check asks for, computed with the student's functions.
// They report what they found and decide nothing: harness/check.cpp judges.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/check/timed_call.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/program.hpp"
#include "course/timers.hpp"
#include "elementwise_kernel.hpp"
#include "generated_kernels.hpp"
#include "lin_comb.cuh"
#include "workload.hpp"

namespace {

namespace gk = generated_kernels;
namespace asked = generated_kernels::request;
namespace result = generated_kernels::result;
using gk::kWarmup;
using gk::launch_by_hand;
using gk::lin_comb_source;
using gk::LinCombBuffers;

// ---------------------------------------------------------------------------
// Helpers of the cases
// ---------------------------------------------------------------------------

// The regular files of a folder (0 when it does not exist).
std::int64_t files_in(const std::string& folder) {
  std::error_code failed;
  std::int64_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder, failed)) {
    if (entry.is_regular_file()) ++count;
  }
  return count;
}

// An intact cache file is exactly the encoding of the bytes after its header.
bool intact_on_disk(const std::string& path) {
  std::vector<char> file;
  if (!read_whole_file(path, file) || file.size() < sizeof(gk::CacheFileHeader)) return false;
  const std::vector<char> payload(file.begin() + sizeof(gk::CacheFileHeader), file.end());
  return gk::encode_entry(payload) == file;
}

std::int64_t differ(const std::vector<char>& first, const std::vector<char>& second) {
  return static_cast<std::int64_t>(first != second);
}

std::string joined_warnings(const KernelCache& cache) {
  std::string text;
  for (const std::string& warning : cache.warnings()) text += warning + "\n";
  return text;
}

// The case's cache folder, emptied first when the case asks for a fresh one (the
// second process of a reuse case keeps what the first left).
std::string case_folder(const std::string& folder, bool fresh) {
  if (fresh) {
    std::error_code ignored;
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(folder, ignored);
  }
  return folder;
}

// ---------------------------------------------------------------------------
// Check cases without a GPU: generation, keys and the cache (NVRTC only compiles)
// ---------------------------------------------------------------------------

void run_source_case(const asked::Source& p, course::check::ResultWriter& results) {
  const std::vector<Argument> arguments = parse_arguments(p.arguments);
  const std::string source = generate_source(arguments, p.operation, p.name);
  std::int64_t pointers = 0;
  for (const Argument& argument : arguments) pointers += argument.is_pointer;
  results.put(result::source, source);
  results.put(result::pointers, pointers);
  KernelCache memory_only;
  const Build build = build_kernel(memory_only, p.name, source, static_cast<int>(p.architecture));
  results.put(result::succeeded, static_cast<std::int64_t>(build.succeeded));
  results.put(result::log, build.log);
  // Whether the CUBIN defines a symbol spelt exactly NAME (its string table holds each
  // name between two '\0'): a C++ name would be mangled, and cuModuleGetFunction(NAME)
  // would not find it. What the source looks like does not matter.
  const std::string symbol = std::string(1, '\0') + p.name + '\0';
  const std::string cubin(build.cubin.begin(), build.cubin.end());
  const bool defined = cubin.find(symbol) != std::string::npos;
  results.put(result::kernel_symbol, static_cast<std::int64_t>(defined));
}

void run_compile_error_case(const asked::CacheBuilds& p, course::check::ResultWriter& results) {
  KernelCache cache(case_folder(p.folder, p.fresh));
  const int architecture = static_cast<int>(p.architecture);
  const std::string source = lin_comb_source(gk::kBrokenOperation, gk::kLinCombName);
  const int before = nvrtc_compilations();
  const Build first = build_kernel(cache, gk::kLinCombName, source, architecture);
  const Build second = build_kernel(cache, gk::kLinCombName, source, architecture);
  results.put(result::first_succeeded, static_cast<std::int64_t>(first.succeeded));
  results.put(result::first_log, first.log);
  results.put(result::second_succeeded, static_cast<std::int64_t>(second.succeeded));
  results.put(result::second_log, second.log);
  results.put(result::second_from_cache, static_cast<std::int64_t>(second.from_cache));
  results.put(result::compilations, static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put(result::entries_in_memory, static_cast<std::int64_t>(cache.entries_in_memory()));
  results.put(result::files, files_in(cache.folder()));
}

// Two builds in one cache: (the same name, + and -) or (lin_comb for two architectures).
void run_two_builds_case(const asked::TwoBuilds& p, course::check::ResultWriter& results) {
  KernelCache cache(case_folder(p.folder, p.fresh));
  const bool same_name = p.vary == asked::Vary::body;
  const int first_architecture = static_cast<int>(p.architecture);
  const int second_architecture =
      same_name ? first_architecture : static_cast<int>(p.second_architecture);
  const std::string name = same_name ? gk::kSharedName : gk::kLinCombName;
  const int before = nvrtc_compilations();
  const Build first =
      build_kernel(cache, name, lin_comb_source(gk::kLinCombOperation, name), first_architecture);
  const Build second =
      build_kernel(cache, name,
                   lin_comb_source(same_name ? gk::kLinDiffOperation : gk::kLinCombOperation, name),
                   second_architecture);
  results.put(result::both_succeeded,
              static_cast<std::int64_t>(first.succeeded && second.succeeded));
  results.put(result::compilations, static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put(result::cubins_differ, differ(first.cubin, second.cubin));
  results.put(result::first_key, first.key);
  results.put(result::second_key, second.key);
  results.put(result::files, files_in(cache.folder()));
}

// cache_key on parts that differ in one field each from a first set: the source (another
// operation), the options (--fmad=false), the architecture (the options unchanged, so
// that only the field itself can change the key), NVRTC's version (the next minor one);
// and on the first set again.
void run_key_fields_case(const asked::KeyFields& p, course::check::ResultWriter& results) {
  const int architecture = static_cast<int>(p.architecture);
  const KeyParts first{gk::kLinCombName, lin_comb_source(gk::kLinCombOperation, gk::kLinCombName),
                       joined(nvrtc_options(architecture)), architecture, nvrtc_version()};
  results.put(result::first_key, cache_key(first));
  results.put(result::same_key, cache_key(first));
  KeyParts other = first;
  other.source = lin_comb_source(gk::kLinDiffOperation, gk::kLinCombName);
  results.put(result::source_key, cache_key(other));
  other = first;
  std::vector<std::string> options = nvrtc_options(architecture);
  std::replace(options.begin(), options.end(), std::string("--fmad=true"),
               std::string("--fmad=false"));
  other.options = joined(options);
  results.put(result::options_key, cache_key(other));
  other = first;
  other.architecture = static_cast<int>(p.second_architecture);
  results.put(result::architecture_key, cache_key(other));
  other = first;
  other.nvrtc_version = first.nvrtc_version + 10;
  results.put(result::nvrtc_version_key, cache_key(other));
}

// Damages a cache file the way a crash (cut short) or a disk error (one byte changed) would.
void damage(const std::string& path, asked::Damage how) {
  std::vector<char> file;
  if (!read_whole_file(path, file)) return;
  if (how == asked::Damage::truncate) {
    file.resize(sizeof(gk::CacheFileHeader) + (file.size() - sizeof(gk::CacheFileHeader)) / 2);
  } else {
    file[sizeof(gk::CacheFileHeader) + (file.size() - sizeof(gk::CacheFileHeader)) / 2] ^= 0x5a;
  }
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return;
  std::fwrite(file.data(), 1, file.size(), out);
  std::fclose(out);
}

void run_corrupt_case(const asked::Corrupt& p, course::check::ResultWriter& results) {
  const std::string folder = case_folder(p.folder, p.fresh);
  const int architecture = static_cast<int>(p.architecture);
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  Build first;
  std::string path;
  {
    KernelCache cache(folder);
    first = build_kernel(cache, gk::kLinCombName, source, architecture);
    path = cache.path_of(first.key);
  }
  results.put(result::first_succeeded, static_cast<std::int64_t>(first.succeeded));
  results.put(result::written, static_cast<std::int64_t>(intact_on_disk(path)));
  damage(path, p.damage);
  KernelCache fresh(folder);  // another process's view: nothing in memory
  const int before = nvrtc_compilations();
  const Build second = build_kernel(fresh, gk::kLinCombName, source, architecture);
  results.put(result::second_succeeded, static_cast<std::int64_t>(second.succeeded));
  results.put(result::second_from_cache, static_cast<std::int64_t>(second.from_cache));
  results.put(result::compilations, static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put(result::rejected_files, static_cast<std::int64_t>(fresh.counters().rejected_files));
  results.put(result::warnings, joined_warnings(fresh));
  results.put(result::intact_after, static_cast<std::int64_t>(intact_on_disk(path)));
}

// A cache folder this process cannot write: made read-only; a process that permissions
// do not stop (root) could still write there, so it gets a folder below a regular file
// instead, which nobody can create or write.
std::string unwritable_folder(const std::string& folder) {
  std::filesystem::create_directories(folder);
  std::filesystem::permissions(
      folder, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                  std::filesystem::perms::group_read | std::filesystem::perms::group_exec);
  const std::string probe = folder + "/probe";
  if (std::FILE* file = std::fopen(probe.c_str(), "wb")) {
    std::fclose(file);
    std::remove(probe.c_str());
    const std::string blocker = folder + ".file";
    if (std::FILE* regular = std::fopen(blocker.c_str(), "wb")) std::fclose(regular);
    return blocker + "/cache";
  }
  return folder;
}

void run_read_only_case(const asked::CacheBuilds& p, course::check::ResultWriter& results) {
  const std::string folder = unwritable_folder(case_folder(p.folder, p.fresh));
  const int architecture = static_cast<int>(p.architecture);
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  KernelCache cache(folder);
  const int before = nvrtc_compilations();
  const Build first = build_kernel(cache, gk::kLinCombName, source, architecture);
  const Build second = build_kernel(cache, gk::kLinCombName, source, architecture);
  results.put(result::both_succeeded,
              static_cast<std::int64_t>(first.succeeded && second.succeeded));
  results.put(result::compilations, static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put(result::failed_writes, static_cast<std::int64_t>(cache.counters().failed_writes));
  results.put(result::memory_hits, static_cast<std::int64_t>(cache.counters().memory_hits));
  results.put(result::warnings, joined_warnings(cache));
  results.put(result::files, files_in(folder));
  std::error_code ignored;  // writable again, so that the scratch folder can be removed
  std::filesystem::permissions(p.folder, std::filesystem::perms::owner_all, ignored);
}

// One process's build of lin_comb: the check runs it in two fresh processes in turn.
void run_reuse_case(const asked::CacheBuilds& p, course::check::ResultWriter& results) {
  KernelCache cache(case_folder(p.folder, p.fresh));
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  course::WallTimer timer;
  const Build build =
      build_kernel(cache, gk::kLinCombName, source, static_cast<int>(p.architecture));
  results.put(result::build_ms, timer.elapsed_ms());
  results.put(result::succeeded, static_cast<std::int64_t>(build.succeeded));
  results.put(result::from_cache, static_cast<std::int64_t>(build.from_cache));
  results.put(result::compilations, static_cast<std::int64_t>(nvrtc_compilations()));
  results.put(result::disk_hits, static_cast<std::int64_t>(cache.counters().disk_hits));
}

// ---------------------------------------------------------------------------
// Check cases on the GPU
// ---------------------------------------------------------------------------

// A kernel of the statement's argument list built in `cache`; nullptr when it cannot be
// built or loaded, with why (the exception's words) reported as "error".
std::unique_ptr<ElementwiseKernel> make_kernel(KernelCache& cache,
                                               course::check::ResultWriter& results,
                                               const std::string& operation,
                                               const std::string& name = gk::kLinCombName) {
  try {
    return std::make_unique<ElementwiseKernel>(gk::kLinCombArguments, operation, name, cache);
  } catch (const std::exception& error) {
    results.put(result::error, error.what());
    return nullptr;
  }
}

bool put_built(course::check::ResultWriter& results, bool built) {
  results.put(result::built, static_cast<std::int64_t>(built));
  return built;
}

void run_lin_comb_case(const asked::LinComb& p, std::uint64_t seed,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const float a = static_cast<float>(p.a);
  const LaunchConfig config{static_cast<unsigned>(p.block),
                            static_cast<unsigned>(p.elements_per_thread)};
  KernelCache cache(case_folder(p.folder, p.fresh));
  LinCombBuffers buffers(n, seed);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  lin_comb->launch(n, config, nullptr, a, buffers.x.data(), buffers.y.data(), buffers.z.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put(result::z, buffers.z.download());
}

void run_two_kernels_case(const asked::Sized& p, std::uint64_t seed,
                          course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(p.folder, p.fresh));
  LinCombBuffers sum(n, seed), difference(n, seed);
  const auto plus = make_kernel(cache, results, gk::kLinCombOperation, gk::kSharedName);
  const auto minus = make_kernel(cache, results, gk::kLinDiffOperation, gk::kSharedName);
  if (!put_built(results, plus != nullptr && minus != nullptr)) return;
  (*plus)(n, a, sum.x.data(), sum.y.data(), sum.z.data());
  (*minus)(n, a, difference.x.data(), difference.y.data(), difference.z.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put(result::plus, sum.z.download());
  results.put(result::minus, difference.z.download());
}

void put_tuning(course::check::ResultWriter& results, const std::string& prefix,
                const Tuning& tuning) {
  std::vector<std::int64_t> blocks, elements, launches;
  std::vector<double> times;
  for (const Trial& trial : tuning.trials) {
    blocks.push_back(trial.config.block);
    elements.push_back(trial.config.elements_per_thread);
    launches.push_back(trial.launches);
    times.push_back(trial.ms);
  }
  results.put(result::tuning_blocks(prefix), blocks);
  results.put(result::tuning_elements(prefix), elements);
  results.put(result::tuning_launches(prefix), launches);
  results.put(result::tuning_ms(prefix), times);
  results.put(result::tuning_from_cache(prefix), static_cast<std::int64_t>(tuning.from_cache));
  results.put(result::chosen_block(prefix), static_cast<std::int64_t>(tuning.chosen.block));
  results.put(result::chosen_elements(prefix),
              static_cast<std::int64_t>(tuning.chosen.elements_per_thread));
}

// Tunes lin_comb twice in this process; the check runs the case in two fresh processes
// on one folder.
void run_tune_case(const asked::Sized& p, std::uint64_t seed,
                   course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(p.folder, p.fresh));
  LinCombBuffers buffers(n, seed);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  results.put(result::repetitions, static_cast<std::int64_t>(kTuningRepetitions));
  put_tuning(results, gk::kFirstTuning,
             lin_comb->tune(n, a, buffers.x.data(), buffers.y.data(), buffers.z.data()));
  put_tuning(results, gk::kSecondTuning,
             lin_comb->tune(n, a, buffers.x.data(), buffers.y.data(), buffers.z.data()));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The speed case: rounds of (copy, generated, by hand), each the median of `repetitions`
// timed runs after a warm-up; the best round of each counts, so that a clock still
// rising or a neighbour's burst cannot decide.
constexpr std::size_t kSampledElements = 1 << 16;

void run_speed_case(const asked::Speed& p, std::uint64_t seed,
                    course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(p.n);
  const int repetitions = static_cast<int>(p.repetitions);
  const int rounds = static_cast<int>(p.rounds);
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(p.folder, p.fresh));
  LinCombBuffers buffers(n, seed);
  course::DeviceBuffer<float> by_hand(n);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  const float* x = buffers.x.data();
  const float* y = buffers.y.data();
  float* z = buffers.z.data();
  const Tuning tuning = lin_comb->tune(n, a, x, y, z);
  const LaunchConfig config = tuning.chosen;
  results.put(result::chosen_block(gk::kOnlyTuning), static_cast<std::int64_t>(config.block));
  results.put(result::chosen_elements(gk::kOnlyTuning),
              static_cast<std::int64_t>(config.elements_per_thread));
  // The kernel the student's code generated and built, on the configuration its tuning
  // chose: audited (timed_call.hpp), it must write the whole of z at every timed call.
  auto generated = course::check::student_call({course::check::timed_output(z, n)}, [&] {
    lin_comb->launch(n, config, nullptr, a, x, y, z);
  });
  const auto hand = [&] { launch_by_hand(a, x, y, by_hand.data(), n); };
  const auto copy = [&] {
    CUDA_CHECK(cudaMemcpyAsync(by_hand.data(), x, n * sizeof(float), cudaMemcpyDeviceToDevice));
  };
  buffers.z.poison();
  generated();
  hand();
  results.put(result::z, buffers.z.download_spread(kSampledElements));
  results.put(result::by_hand, by_hand.download_spread(kSampledElements));
  double generated_ms = 0.0, hand_ms = 0.0, copy_ms = 0.0;
  for (int round = 0; round < rounds; ++round) {
    const double c = course::time_device(copy, kWarmup, repetitions).median_ms;
    const double g = course::time_device(generated, kWarmup, repetitions).median_ms;
    const double h = course::time_device(hand, kWarmup, repetitions).median_ms;
    copy_ms = round == 0 ? c : std::min(copy_ms, c);
    generated_ms = round == 0 ? g : std::min(generated_ms, g);
    hand_ms = round == 0 ? h : std::min(hand_ms, h);
  }
  results.put(result::copy_ms, copy_ms);
  results.put(result::generated_ms, generated_ms);
  results.put(result::hand_ms, hand_ms);
}

}  // namespace

void course::program::run_check_case(const course::check::CaseRequest& request,
                                     course::check::ResultWriter& results) {
  if (const auto p = request.as(asked::source)) {
    run_source_case(*p, results);
  } else if (const auto p = request.as(asked::compile_error)) {
    run_compile_error_case(*p, results);
  } else if (const auto p = request.as(asked::key_fields)) {
    run_key_fields_case(*p, results);
  } else if (const auto p = request.as(asked::two_builds)) {
    run_two_builds_case(*p, results);
  } else if (const auto p = request.as(asked::corrupt)) {
    run_corrupt_case(*p, results);
  } else if (const auto p = request.as(asked::read_only)) {
    run_read_only_case(*p, results);
  } else if (const auto p = request.as(asked::reuse)) {
    run_reuse_case(*p, results);
  } else if (const auto p = request.as(asked::lin_comb)) {
    run_lin_comb_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::two_kernels)) {
    run_two_kernels_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::tune)) {
    run_tune_case(*p, request.seed, results);
  } else if (const auto p = request.as(asked::speed)) {
    run_speed_case(*p, request.seed, results);
  } else {
    course::check::unknown_case(request);
  }
}
