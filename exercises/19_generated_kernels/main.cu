// Exercise 19 - the program around the student's functions (instructor-owned).
//
// `make run-19` runs the demo: lin_comb (z = a x + y) generated, its source shown, built
// three times - compiled by NVRTC, found in memory, found on disk by a second cache -
// with the time of each; an expression with an error and the log NVRTC gives for it;
// the kernel checked against the CPU; the autotuner's trials; and lin_comb at 64M
// elements beside the copy ceiling and the same expression written by hand and compiled
// by nvcc. The cache lives in a temporary folder removed at the end. Every result is
// compared with its reference before it is shown or timed (course/demo_results.hpp).
// The check runs this same program with --course-case to compute its cases
// (common/course/check/runner.hpp).
//
// Build and run:  make 19 && make run-19
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "course/bench.hpp"
#include "course/check/driver_accounting.hpp"
#include "course/check/runner.hpp"
#include "course/demo_results.hpp"
#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "course/timers.hpp"
#include "elementwise_kernel.hpp"
#include "generated_kernels.hpp"
#include "workload.hpp"

namespace {

namespace gk = generated_kernels;

// ---------------------------------------------------------------------------
// Helpers of the runner and the demo
// ---------------------------------------------------------------------------

// The same expression written by hand and compiled by nvcc: the speed the generated
// kernel must match. One thread per element, the classic way.
constexpr unsigned kHandBlock = 256;

__global__ void lin_comb_by_hand(float a, const float* __restrict__ x, const float* __restrict__ y,
                                 float* __restrict__ z, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) z[i] = a * x[i] + y[i];
}

void launch_by_hand(float a, const float* x, const float* y, float* z, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kHandBlock - 1) / kHandBlock);
  lin_comb_by_hand<<<blocks, kHandBlock>>>(a, x, y, z, n);
  CUDA_CHECK_LAUNCH();
}

// The source of a kernel of the statement's argument list.
std::string lin_comb_source(const std::string& operation, const std::string& name) {
  return generate_source(parse_arguments(gk::kLinCombArguments), operation, name);
}

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
std::string case_folder(const course::check::CaseRequest& request) {
  const std::string folder = request.param("folder");
  if (request.params.count("fresh") != 0 && request.param("fresh") == "1") {
    std::error_code ignored;
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(folder, ignored);
  }
  return folder;
}

// ---------------------------------------------------------------------------
// Check cases without a GPU: generation, keys and the cache (NVRTC only compiles)
// ---------------------------------------------------------------------------

void run_source_case(const course::check::CaseRequest& request,
                     course::check::ResultWriter& results) {
  const std::vector<Argument> arguments = parse_arguments(request.param("arguments"));
  const std::string source =
      generate_source(arguments, request.param("operation"), request.param("name"));
  std::int64_t pointers = 0;
  for (const Argument& argument : arguments) pointers += argument.is_pointer;
  results.put_text("source", source);
  results.put_value("pointers", pointers);
  KernelCache memory_only;
  const Build build = build_kernel(memory_only, request.param("name"), source,
                                   static_cast<int>(request.param_int("architecture")));
  results.put_value("succeeded", static_cast<std::int64_t>(build.succeeded));
  results.put_text("log", build.log);
  // Whether the CUBIN defines a symbol spelt exactly NAME (its string table holds each
  // name between two '\0'): a C++ name would be mangled, and cuModuleGetFunction(NAME)
  // would not find it. What the source looks like does not matter.
  const std::string symbol = std::string(1, '\0') + request.param("name") + '\0';
  const std::string cubin(build.cubin.begin(), build.cubin.end());
  const bool defined = cubin.find(symbol) != std::string::npos;
  results.put_value("kernel_symbol", static_cast<std::int64_t>(defined));
}

void run_compile_error_case(const course::check::CaseRequest& request,
                            course::check::ResultWriter& results) {
  KernelCache cache(case_folder(request));
  const int architecture = static_cast<int>(request.param_int("architecture"));
  const std::string source = lin_comb_source(gk::kBrokenOperation, gk::kLinCombName);
  const int before = nvrtc_compilations();
  const Build first = build_kernel(cache, gk::kLinCombName, source, architecture);
  const Build second = build_kernel(cache, gk::kLinCombName, source, architecture);
  results.put_value("first_succeeded", static_cast<std::int64_t>(first.succeeded));
  results.put_text("first_log", first.log);
  results.put_value("second_succeeded", static_cast<std::int64_t>(second.succeeded));
  results.put_text("second_log", second.log);
  results.put_value("second_from_cache", static_cast<std::int64_t>(second.from_cache));
  results.put_value("compilations", static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put_value("entries_in_memory", static_cast<std::int64_t>(cache.entries_in_memory()));
  results.put_value("files", files_in(cache.folder()));
}

// Two builds in one cache: (the same name, + and -) or (lin_comb for two architectures).
void run_two_builds_case(const course::check::CaseRequest& request,
                         course::check::ResultWriter& results) {
  KernelCache cache(case_folder(request));
  const bool same_name = request.param("vary") == "body";
  const int first_architecture = static_cast<int>(request.param_int("architecture"));
  const int second_architecture =
      same_name ? first_architecture : static_cast<int>(request.param_int("second_architecture"));
  const std::string name = same_name ? gk::kSharedName : gk::kLinCombName;
  const int before = nvrtc_compilations();
  const Build first =
      build_kernel(cache, name, lin_comb_source(gk::kLinCombOperation, name), first_architecture);
  const Build second =
      build_kernel(cache, name,
                   lin_comb_source(same_name ? gk::kLinDiffOperation : gk::kLinCombOperation, name),
                   second_architecture);
  results.put_value("both_succeeded",
                    static_cast<std::int64_t>(first.succeeded && second.succeeded));
  results.put_value("compilations", static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put_value("cubins_differ", differ(first.cubin, second.cubin));
  results.put_text("first_key", first.key);
  results.put_text("second_key", second.key);
  results.put_value("files", files_in(cache.folder()));
}

// cache_key on parts that differ in one field each from a first set: the source (another
// operation), the options (--fmad=false), the architecture (the options unchanged, so
// that only the field itself can change the key), NVRTC's version (the next minor one);
// and on the first set again.
void run_key_fields_case(const course::check::CaseRequest& request,
                         course::check::ResultWriter& results) {
  const int architecture = static_cast<int>(request.param_int("architecture"));
  const KeyParts first{gk::kLinCombName, lin_comb_source(gk::kLinCombOperation, gk::kLinCombName),
                       joined(nvrtc_options(architecture)), architecture, nvrtc_version()};
  results.put_text("first_key", cache_key(first));
  results.put_text("same_key", cache_key(first));
  KeyParts other = first;
  other.source = lin_comb_source(gk::kLinDiffOperation, gk::kLinCombName);
  results.put_text("source_key", cache_key(other));
  other = first;
  std::vector<std::string> options = nvrtc_options(architecture);
  std::replace(options.begin(), options.end(), std::string("--fmad=true"),
               std::string("--fmad=false"));
  other.options = joined(options);
  results.put_text("options_key", cache_key(other));
  other = first;
  other.architecture = static_cast<int>(request.param_int("second_architecture"));
  results.put_text("architecture_key", cache_key(other));
  other = first;
  other.nvrtc_version = first.nvrtc_version + 10;
  results.put_text("nvrtc_version_key", cache_key(other));
}

// Damages a cache file the way a crash (cut short) or a disk error (one byte changed) would.
void damage(const std::string& path, const std::string& how) {
  std::vector<char> file;
  if (!read_whole_file(path, file)) return;
  if (how == "truncate") {
    file.resize(sizeof(gk::CacheFileHeader) + (file.size() - sizeof(gk::CacheFileHeader)) / 2);
  } else {
    file[sizeof(gk::CacheFileHeader) + (file.size() - sizeof(gk::CacheFileHeader)) / 2] ^= 0x5a;
  }
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return;
  std::fwrite(file.data(), 1, file.size(), out);
  std::fclose(out);
}

void run_corrupt_case(const course::check::CaseRequest& request,
                      course::check::ResultWriter& results) {
  const std::string folder = case_folder(request);
  const int architecture = static_cast<int>(request.param_int("architecture"));
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  Build first;
  std::string path;
  {
    KernelCache cache(folder);
    first = build_kernel(cache, gk::kLinCombName, source, architecture);
    path = cache.path_of(first.key);
  }
  results.put_value("first_succeeded", static_cast<std::int64_t>(first.succeeded));
  results.put_value("written", static_cast<std::int64_t>(intact_on_disk(path)));
  damage(path, request.param("damage"));
  KernelCache fresh(folder);  // another process's view: nothing in memory
  const int before = nvrtc_compilations();
  const Build second = build_kernel(fresh, gk::kLinCombName, source, architecture);
  results.put_value("second_succeeded", static_cast<std::int64_t>(second.succeeded));
  results.put_value("second_from_cache", static_cast<std::int64_t>(second.from_cache));
  results.put_value("compilations", static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put_value("second_is_first", static_cast<std::int64_t>(second.cubin == first.cubin));
  results.put_value("rejected_files", static_cast<std::int64_t>(fresh.counters().rejected_files));
  results.put_text("warnings", joined_warnings(fresh));
  results.put_value("intact_after", static_cast<std::int64_t>(intact_on_disk(path)));
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

void run_read_only_case(const course::check::CaseRequest& request,
                        course::check::ResultWriter& results) {
  const std::string folder = unwritable_folder(case_folder(request));
  const int architecture = static_cast<int>(request.param_int("architecture"));
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  KernelCache cache(folder);
  const int before = nvrtc_compilations();
  const Build first = build_kernel(cache, gk::kLinCombName, source, architecture);
  const Build second = build_kernel(cache, gk::kLinCombName, source, architecture);
  results.put_value("both_succeeded",
                    static_cast<std::int64_t>(first.succeeded && second.succeeded));
  results.put_value("compilations", static_cast<std::int64_t>(nvrtc_compilations() - before));
  results.put_value("failed_writes", static_cast<std::int64_t>(cache.counters().failed_writes));
  results.put_value("memory_hits", static_cast<std::int64_t>(cache.counters().memory_hits));
  results.put_text("warnings", joined_warnings(cache));
  results.put_value("files", files_in(folder));
  std::error_code ignored;  // writable again, so that the scratch folder can be removed
  std::filesystem::permissions(request.param("folder"), std::filesystem::perms::owner_all, ignored);
}

// One process's build of lin_comb: the check runs it in two fresh processes in turn.
void run_reuse_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  KernelCache cache(case_folder(request));
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  course::WallTimer timer;
  const Build build = build_kernel(cache, gk::kLinCombName, source,
                                   static_cast<int>(request.param_int("architecture")));
  results.put_value("build_ms", timer.elapsed_ms());
  results.put_value("succeeded", static_cast<std::int64_t>(build.succeeded));
  results.put_value("from_cache", static_cast<std::int64_t>(build.from_cache));
  results.put_value("compilations", static_cast<std::int64_t>(nvrtc_compilations()));
  results.put_value("disk_hits", static_cast<std::int64_t>(cache.counters().disk_hits));
}

// ---------------------------------------------------------------------------
// Check cases on the GPU
// ---------------------------------------------------------------------------

// Inputs of lin_comb on the device, and an output poisoned before each call.
struct LinCombBuffers {
  LinCombBuffers(std::size_t n, std::uint64_t seed)
      : x(gk::make_x(n, seed)), y(gk::make_y(n, seed)), z(n) {
    z.poison();
  }
  course::DeviceBuffer<float> x, y, z;
};

// A kernel of the statement's argument list built in `cache`; nullptr when it cannot be
// built or loaded, with why (the exception's words) reported as "error".
std::unique_ptr<ElementwiseKernel> make_kernel(KernelCache& cache,
                                               course::check::ResultWriter& results,
                                               const std::string& operation,
                                               const std::string& name = gk::kLinCombName) {
  try {
    return std::make_unique<ElementwiseKernel>(gk::kLinCombArguments, operation, name, cache);
  } catch (const std::exception& error) {
    results.put_text("error", error.what());
    return nullptr;
  }
}

bool put_built(course::check::ResultWriter& results, bool built) {
  results.put_value("built", static_cast<std::int64_t>(built));
  return built;
}

void run_lin_comb_case(const course::check::CaseRequest& request,
                       course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const float a = static_cast<float>(request.param_double("a"));
  const LaunchConfig config{static_cast<unsigned>(request.param_int("block")),
                            static_cast<unsigned>(request.param_int("elements_per_thread"))};
  KernelCache cache(case_folder(request));
  LinCombBuffers buffers(n, request.seed);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  lin_comb->launch(n, config, nullptr, a, buffers.x.data(), buffers.y.data(), buffers.z.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put("z", buffers.z.download());
}

void run_two_kernels_case(const course::check::CaseRequest& request,
                          course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(request));
  LinCombBuffers sum(n, request.seed), difference(n, request.seed);
  const auto plus = make_kernel(cache, results, gk::kLinCombOperation, gk::kSharedName);
  const auto minus = make_kernel(cache, results, gk::kLinDiffOperation, gk::kSharedName);
  if (!put_built(results, plus != nullptr && minus != nullptr)) return;
  (*plus)(n, a, sum.x.data(), sum.y.data(), sum.z.data());
  (*minus)(n, a, difference.x.data(), difference.y.data(), difference.z.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  results.put("plus", sum.z.download());
  results.put("minus", difference.z.download());
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
  results.put(prefix + "blocks", blocks);
  results.put(prefix + "elements", elements);
  results.put(prefix + "launches", launches);
  results.put(prefix + "ms", times);
  results.put_value(prefix + "from_cache", static_cast<std::int64_t>(tuning.from_cache));
  results.put_value(prefix + "chosen_block", static_cast<std::int64_t>(tuning.chosen.block));
  results.put_value(prefix + "chosen_elements",
                    static_cast<std::int64_t>(tuning.chosen.elements_per_thread));
}

// Tunes lin_comb twice in this process; the check runs the case in two fresh processes
// on one folder.
void run_tune_case(const course::check::CaseRequest& request,
                   course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(request));
  LinCombBuffers buffers(n, request.seed);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  results.put_value("repetitions", static_cast<std::int64_t>(kTuningRepetitions));
  put_tuning(results, "first_",
             lin_comb->tune(n, a, buffers.x.data(), buffers.y.data(), buffers.z.data()));
  put_tuning(results, "second_",
             lin_comb->tune(n, a, buffers.x.data(), buffers.y.data(), buffers.z.data()));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The speed case: rounds of (copy, generated, by hand), each the median of `repetitions`
// timed runs after a warm-up; the best round of each counts, so that a clock still
// rising or a neighbour's burst cannot decide.
constexpr int kWarmup = 3;
constexpr std::size_t kSampledElements = 1 << 16;

void run_speed_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::size_t n = static_cast<std::size_t>(request.param_int("n"));
  const int repetitions = static_cast<int>(request.param_int("repetitions"));
  const int rounds = static_cast<int>(request.param_int("rounds"));
  const float a = gk::kDefaultFactor;
  KernelCache cache(case_folder(request));
  LinCombBuffers buffers(n, request.seed);
  course::DeviceBuffer<float> by_hand(n);
  const auto lin_comb = make_kernel(cache, results, gk::kLinCombOperation);
  if (!put_built(results, lin_comb != nullptr)) return;
  const float* x = buffers.x.data();
  const float* y = buffers.y.data();
  float* z = buffers.z.data();
  const Tuning tuning = lin_comb->tune(n, a, x, y, z);
  const LaunchConfig config = tuning.chosen;
  results.put_value("chosen_block", static_cast<std::int64_t>(config.block));
  results.put_value("chosen_elements", static_cast<std::int64_t>(config.elements_per_thread));
  const auto generated = [&] { lin_comb->launch(n, config, nullptr, a, x, y, z); };
  const auto hand = [&] { launch_by_hand(a, x, y, by_hand.data(), n); };
  const auto copy = [&] {
    CUDA_CHECK(cudaMemcpyAsync(by_hand.data(), x, n * sizeof(float), cudaMemcpyDeviceToDevice));
  };
  buffers.z.poison();
  generated();
  hand();
  results.put("z", buffers.z.download_spread(kSampledElements));
  results.put("by_hand", by_hand.download_spread(kSampledElements));
  double generated_ms = 0.0, hand_ms = 0.0, copy_ms = 0.0;
  for (int round = 0; round < rounds; ++round) {
    const double c = course::time_device(copy, kWarmup, repetitions).median_ms;
    const double g = course::time_device(generated, kWarmup, repetitions).median_ms;
    const double h = course::time_device(hand, kWarmup, repetitions).median_ms;
    copy_ms = round == 0 ? c : std::min(copy_ms, c);
    generated_ms = round == 0 ? g : std::min(generated_ms, g);
    hand_ms = round == 0 ? h : std::min(hand_ms, h);
  }
  results.put_value("copy_ms", copy_ms);
  results.put_value("generated_ms", generated_ms);
  results.put_value("hand_ms", hand_ms);
}

void run_check_case(const course::check::CaseRequest& request,
                    course::check::ResultWriter& results) {
  const std::string& kind = request.name;
  if (kind == "source") {
    run_source_case(request, results);
  } else if (kind == "compile_error") {
    run_compile_error_case(request, results);
  } else if (kind == "key_fields") {
    run_key_fields_case(request, results);
  } else if (kind == "two_builds") {
    run_two_builds_case(request, results);
  } else if (kind == "corrupt") {
    run_corrupt_case(request, results);
  } else if (kind == "read_only") {
    run_read_only_case(request, results);
  } else if (kind == "reuse") {
    run_reuse_case(request, results);
  } else if (kind == "lin_comb") {
    run_lin_comb_case(request, results);
  } else if (kind == "two_kernels") {
    run_two_kernels_case(request, results);
  } else if (kind == "tune") {
    run_tune_case(request, results);
  } else if (kind == "speed") {
    run_speed_case(request, results);
  } else {
    course::check::unknown_case(request);
  }
}

// ---------------------------------------------------------------------------
// Demo
// ---------------------------------------------------------------------------

constexpr std::uint64_t kDemoSeed = 19;
constexpr std::size_t kDemoCheckedElements = (1 << 20) + 3;       // not a multiple of a block
constexpr std::size_t kDemoSpeedElements = std::size_t{1} << 26;  // 3 x 256 MiB
constexpr int kDemoRepetitions = 20;

struct DemoFunctions {
  course::StudentFunction generate{"generate_source"};
  course::StudentFunction build{"build_kernel"};
  course::StudentFunction cache{"KernelCache::lookup/store"};
  course::StudentFunction timing{"time_launches_ms"};
};

// Builds lin_comb three ways and shows what each cost; true when all three gave it.
bool demo_cache(DemoFunctions& functions, const std::string& folder, int architecture) {
  const std::string source = lin_comb_source(gk::kLinCombOperation, gk::kLinCombName);
  if (!functions.generate
           .judge_value(!source.empty(), source.find(gk::kLinCombName) != std::string::npos,
                        "lin_comb", "the source does not name the kernel")
           .right) {
    return false;
  }
  std::printf("The source generated for lin_comb (%s; %s):\n", gk::kLinCombArguments,
              gk::kLinCombOperation);
  course::print_indented(source);
  KernelCache cache(folder);
  course::WallTimer compile_timer;
  const Build compiled = build_kernel(cache, gk::kLinCombName, source, architecture);
  const double compile_ms = compile_timer.elapsed_ms();
  if (!functions.build
           .judge_value(compiled.succeeded || !compiled.log.empty(), compiled.succeeded, "lin_comb",
                        "it did not compile:\n" + compiled.log)
           .right) {
    return false;
  }
  course::WallTimer memory_timer;
  const Build from_memory = build_kernel(cache, gk::kLinCombName, source, architecture);
  const double memory_ms = memory_timer.elapsed_ms();
  KernelCache second_cache(folder);  // what another process finds
  course::WallTimer disk_timer;
  const Build from_disk = build_kernel(second_cache, gk::kLinCombName, source, architecture);
  const double disk_ms = disk_timer.elapsed_ms();
  const bool cached = from_memory.from_cache && from_disk.from_cache &&
                      from_memory.cubin == compiled.cubin && from_disk.cubin == compiled.cubin;
  if (!functions.cache
           .judge_value(from_memory.from_cache || from_disk.from_cache, cached, "lin_comb",
                        "the second and third builds did not come from the cache with the "
                        "first one's CUBIN")
           .right) {
    return false;
  }
  std::printf("\nkey %s, in %s\n", compiled.key.c_str(), folder.c_str());
  std::printf("  compiled by NVRTC:        %8.3f ms (a CUBIN of %zu bytes for sm_%d)\n", compile_ms,
              compiled.cubin.size(), architecture);
  std::printf("  found in memory:          %8.3f ms\n", memory_ms);
  std::printf("  found on disk, new cache: %8.3f ms (what a second process pays)\n", disk_ms);
  std::printf("  NVRTC compilations so far: %d\n", nvrtc_compilations());
  const std::string broken = lin_comb_source(gk::kBrokenOperation, gk::kLinCombName);
  const Build failed = build_kernel(cache, gk::kLinCombName, broken, architecture);
  if (functions.build
          .judge_value(true, !failed.succeeded && !failed.log.empty(), "a broken expression",
                       failed.succeeded ? "it reported success" : "it returned no log")
          .right) {
    std::printf("\nThe expression '%s' does not compile; the log reaches the caller:\n",
                gk::kBrokenOperation.c_str());
    course::print_indented(failed.log);
  }
  return true;
}

bool demo_results(DemoFunctions& functions, ElementwiseKernel& lin_comb) {
  const std::size_t n = kDemoCheckedElements;
  LinCombBuffers buffers(n, kDemoSeed);
  lin_comb(n, gk::kDefaultFactor, buffers.x.data(), buffers.y.data(), buffers.z.data());
  const std::vector<float> got = buffers.z.download();
  const std::vector<float> want = gk::lin_comb_reference(
      gk::kDefaultFactor, gk::make_x(n, kDemoSeed), gk::make_y(n, kDemoSeed));
  const course::Judgement result =
      functions.generate.judge(course::compare(got.data(), want.data(), n, course::kExact),
                               "lin_comb, n = " + std::to_string(n));
  if (result.right) {
    std::printf("\nlin_comb on %zu elements (blocks of %u threads, %u elements per thread): "
                "equal to the CPU's fma, bit for bit\n",
                n, kDefaultConfig.block, kDefaultConfig.elements_per_thread);
  }
  return result.right;
}

void demo_speed(DemoFunctions& functions, ElementwiseKernel& lin_comb) {
  const std::size_t n = kDemoSpeedElements;
  const float a = gk::kDefaultFactor;
  LinCombBuffers buffers(n, kDemoSeed);
  course::DeviceBuffer<float> by_hand(n);
  const float* x = buffers.x.data();
  const float* y = buffers.y.data();
  float* z = buffers.z.data();
  const Tuning tuning = lin_comb.tune(n, a, x, y, z);
  double fastest = 0.0;
  for (const Trial& trial : tuning.trials)
    fastest = fastest == 0.0 ? trial.ms : std::min(fastest, trial.ms);
  if (!functions.timing.judge_time(tuning.from_cache ? 1.0 : fastest, "mean time").right) return;
  std::printf("\nThe autotuner on %zu elements (mean ms of %d launches after a warm-up):\n", n,
              kTuningRepetitions);
  std::printf("  %-6s", "block");
  for (const unsigned elements : kCandidateElementsPerThread) std::printf("  %u/thread", elements);
  std::printf("\n");
  for (std::size_t t = 0; t < tuning.trials.size(); ++t) {
    const Trial& trial = tuning.trials[t];
    if (trial.config.elements_per_thread == kCandidateElementsPerThread[0]) {
      std::printf("  %-6u", trial.config.block);
    }
    std::printf("  %8.4f", trial.ms);
    if (t + 1 == tuning.trials.size() || tuning.trials[t + 1].config.block != trial.config.block) {
      std::printf("\n");
    }
  }
  std::printf("  chosen: %u threads, %u elements per thread%s\n", tuning.chosen.block,
              tuning.chosen.elements_per_thread, tuning.from_cache ? " (from the cache)" : "");
  const double ceiling_gbps = course::measure_copy_ceiling_gbps();
  const double bytes_read = 2.0 * sizeof(float) * static_cast<double>(n);
  const double bytes_written = sizeof(float) * static_cast<double>(n);
  const double generated_ms =
      course::time_device([&] { lin_comb.launch(n, tuning.chosen, nullptr, a, x, y, z); }, kWarmup,
                          kDemoRepetitions)
          .median_ms;
  const double hand_ms = course::time_device([&] { launch_by_hand(a, x, y, by_hand.data(), n); },
                                             kWarmup, kDemoRepetitions)
                             .median_ms;
  std::printf("\nlin_comb on %zu elements, GB/s = (2 x 4 B read + 4 B written) x n / time:\n", n);
  std::printf("  %s\n", course::bandwidth_report("generated (NVRTC)", bytes_read, bytes_written,
                                                 generated_ms, ceiling_gbps)
                            .c_str());
  std::printf("  %s\n", course::bandwidth_report("by hand (nvcc)   ", bytes_read, bytes_written,
                                                 hand_ms, ceiling_gbps)
                            .c_str());
  std::printf("  generated / by hand: %.3f\n", generated_ms / hand_ms);
}

int demo() {
  course::print_device_banner();
  const CUdevice device = current_device();
  const int architecture = architecture_of(device);
  // A fresh folder of this run: a demo never leaves a cache in the user's home.
  std::string folder_template =
      (std::filesystem::temp_directory_path() / "course-19-cache-XXXXXX").string();
  const char* made = mkdtemp(folder_template.data());
  if (made == nullptr) {
    std::perror("mkdtemp");
    return EXIT_FAILURE;
  }
  const std::string folder = made;
  DemoFunctions functions;
  if (demo_cache(functions, folder, architecture)) {
    KernelCache cache(folder);
    try {
      ElementwiseKernel lin_comb(gk::kLinCombArguments, gk::kLinCombOperation, gk::kLinCombName,
                                 cache);
      if (demo_results(functions, lin_comb)) demo_speed(functions, lin_comb);
    } catch (const std::exception& error) {
      functions.generate.judge_value(true, false, "lin_comb", error.what());
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  std::printf("\n(`make check-19` grades every case)\n");
  return course::demo_status(
      {&functions.generate, &functions.build, &functions.cache, &functions.timing});
}

}  // namespace

int main(int argc, char** argv) {
  return course::check::case_or_demo(argc, argv, run_check_case, demo);
}
