// Exercise 19: the class a program uses, built on the student's functions (instructor-
// owned):
//
//   KernelCache cache(folder);
//   ElementwiseKernel lin_comb("float a, const float* x, const float* y, float* z",
//                              "z[i] = a * x[i] + y[i]", "lin_comb", cache);
//   lin_comb.tune(n, a, x, y, z);   // optional: picks the block size for this size of n
//   lin_comb(n, a, x, y, z);        // z = a x + y on n elements
//
// The constructor generates the source (generate_source), gets its CUBIN for the
// current device (build_kernel: the cache, else NVRTC) and loads it (cuModuleLoadData);
// a call checks its values against the argument list and launches (cuLaunchKernel). The
// autotuner times every candidate launch configuration with time_launches_ms and keeps
// the fastest per kernel, device and size class, in the cache beside the CUBINs.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "course/errors.hpp"
#include "course/errors_driver.hpp"
#include "course/launch.hpp"
#include "generated_kernels.hpp"

// The launch configuration: blocks of `block` threads, each thread looping over
// `elements_per_thread` elements (the generated grid-stride loop), so the grid has
// ceil(n / (block * elements_per_thread)) blocks.
struct LaunchConfig {
  unsigned block = 256;
  unsigned elements_per_thread = 4;
  // The elements a block covers.
  std::size_t per_block() const { return std::size_t{block} * elements_per_thread; }
  bool operator==(const LaunchConfig& other) const {
    return block == other.block && elements_per_thread == other.elements_per_thread;
  }
};
// Until a size is tuned: several elements per thread, which a kernel without its loop
// does not cover.
inline constexpr LaunchConfig kDefaultConfig{256, 4};
using generated_kernels::kCandidateBlocks;
using generated_kernels::kCandidateElementsPerThread;
using generated_kernels::kTuningRepetitions;

// Sizes within a factor of two share a tuning: the number of bits of n.
inline int size_class(std::size_t n) {
  int bits = 0;
  for (; n != 0; n >>= 1) ++bits;
  return bits;
}

// The current device of the runtime, with its primary context current, so that the
// driver API's launches and the runtime's buffers share one context.
inline CUdevice current_device() {
  CUDA_CHECK(cudaFree(nullptr));
  int ordinal = 0;
  CUDA_CHECK(cudaGetDevice(&ordinal));
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, ordinal));
  return device;
}

// 90 for an H100 (sm_90).
inline int architecture_of(CUdevice device) {
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  return major * 10 + minor;
}

// What a tuning depends on besides the kernel: the GPU's model and size.
inline std::string device_description(CUdevice device) {
  char name[256] = {};
  CU_CHECK(cuDeviceGetName(name, sizeof name, device));
  int multiprocessors = 0;
  CU_CHECK(
      cuDeviceGetAttribute(&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
  return std::string(name) + ", sm_" + std::to_string(architecture_of(device)) + ", " +
         std::to_string(multiprocessors) + " SMs";
}

// A source that did not compile; what() carries NVRTC's log.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& name, const std::string& log)
      : std::runtime_error("cannot compile the kernel " + name + ":\n" + log), log_(log) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

// One candidate the autotuner timed.
struct Trial {
  LaunchConfig config;
  double ms = 0.0;   // time_launches_ms's mean
  int launches = 0;  // calls time_launches_ms made of its launch: warm-up included
};

struct Tuning {
  LaunchConfig chosen = kDefaultConfig;
  bool from_cache = false;    // an earlier tuning (this process or another) was reused
  bool times_usable = false;  // every trial got a positive time (else nothing is stored)
  std::vector<Trial> trials;  // empty when from_cache
};

class ElementwiseKernel {
 public:
  ElementwiseKernel(const std::string& arguments, const std::string& operation,
                    const std::string& name, KernelCache& cache)
      : arguments_(parse_arguments(arguments)),
        name_(name),
        cache_(cache),
        device_(current_device()),
        source_(generate_source(arguments_, operation, name)),
        build_(build_kernel(cache, name, source_, architecture_of(device_))) {
    if (!build_.succeeded) throw CompileError(name, build_.log);
    const CUresult loaded = cuModuleLoadData(&module_, build_.cubin.data());
    if (loaded != CUDA_SUCCESS) {
      module_ = nullptr;
      throw std::runtime_error("cannot load the CUBIN of " + name + " (" +
                               course::driver_error_text(loaded) + ")");
    }
    if (cuModuleGetFunction(&function_, module_, name.c_str()) != CUDA_SUCCESS) {
      CU_CHECK(cuModuleUnload(module_));
      module_ = nullptr;
      throw std::runtime_error("the CUBIN has no kernel named " + name +
                               " (is it declared extern \"C\" __global__ void " + name + "?)");
    }
  }
  ~ElementwiseKernel() {
    if (module_ != nullptr) CU_CHECK(cuModuleUnload(module_));
  }
  ElementwiseKernel(const ElementwiseKernel&) = delete;
  ElementwiseKernel& operator=(const ElementwiseKernel&) = delete;

  const std::string& source() const { return source_; }
  const Build& build() const { return build_; }

  // The operation on elements 0 <= i < n, on the default stream, with the tuned
  // configuration of n's size class (else kDefaultConfig). Does not wait.
  template <typename... Values>
  void operator()(std::size_t n, Values... values) {
    launch(n, config_for(n), nullptr, values...);
  }

  // The same with a given configuration.
  template <typename... Values>
  void launch(std::size_t n, LaunchConfig config, CUstream stream, Values... values) const {
    check_values<Values...>();
    if (n == 0) return;  // a grid of no block is an error
    void* parameters[] = {static_cast<void*>(&values)..., static_cast<void*>(&n)};
    CU_CHECK(cuLaunchKernel(function_, course::blocks_for(n, config.per_block()), 1, 1,
                            config.block, 1, 1, 0, stream, parameters, nullptr));
  }

  // The configuration for n: tuned in this process, else stored by an earlier tuning.
  LaunchConfig config_for(std::size_t n) {
    LaunchConfig config = kDefaultConfig;
    if (const std::optional<std::vector<char>> stored = cache_.lookup(tuning_key(n))) {
      parse_choice(*stored, config);
    }
    return config;
  }

  // Times every candidate on these values (their outputs are overwritten) and keeps the
  // fastest for n's size class, unless the cache already holds a choice for it.
  template <typename... Values>
  Tuning tune(std::size_t n, Values... values) {
    Tuning tuning;
    const std::string key = tuning_key(n);
    if (const std::optional<std::vector<char>> stored = cache_.lookup(key)) {
      tuning.from_cache = parse_choice(*stored, tuning.chosen);
      if (tuning.from_cache) return tuning;
    }
    tuning.times_usable = true;
    double best_ms = 0.0;
    for (const unsigned block : kCandidateBlocks) {
      for (const unsigned elements : kCandidateElementsPerThread) {
        Trial trial;
        trial.config = {block, elements};
        trial.ms = time_launches_ms(
            [&] {
              ++trial.launches;
              launch(n, trial.config, nullptr, values...);
            },
            kTuningRepetitions, nullptr);
        tuning.trials.push_back(trial);
        if (!(trial.ms > 0.0) || !std::isfinite(trial.ms)) tuning.times_usable = false;
        if (tuning.trials.size() == 1 || trial.ms < best_ms) {
          best_ms = trial.ms;
          tuning.chosen = trial.config;
        }
      }
    }
    if (!tuning.times_usable) {
      tuning.chosen = kDefaultConfig;  // no choice made from times that mean nothing
      return tuning;
    }
    const std::string text = std::to_string(tuning.chosen.block) + " " +
                             std::to_string(tuning.chosen.elements_per_thread) + "\n";
    cache_.store(key, std::vector<char>(text.begin(), text.end()));
    return tuning;
  }

 private:
  // A tuning belongs to a kernel (its cache key names its source, options, architecture
  // and compiler), a device and a size class.
  std::string tuning_key(std::size_t n) const {
    const std::string what =
        build_.key + "\n" + device_description(device_) + "\n" + std::to_string(size_class(n));
    return "tuning-" + name_ + "-" + generated_kernels::hex64(generated_kernels::fnv1a64(what));
  }

  static bool parse_choice(const std::vector<char>& stored, LaunchConfig& config) {
    unsigned block = 0, elements = 0;
    const std::string text(stored.begin(), stored.end());
    if (std::sscanf(text.c_str(), "%u %u", &block, &elements) != 2 || block == 0 || block > 1024 ||
        elements == 0) {
      return false;
    }
    config = {block, elements};
    return true;
  }

  // The values must match the argument list: as many, a pointer for each pointer, a
  // scalar of the declared size for each scalar.
  template <typename... Values>
  void check_values() const {
    const bool pointers[] = {std::is_pointer_v<Values>..., false};
    const std::size_t sizes[] = {sizeof(Values)..., 0};
    if (sizeof...(Values) != arguments_.size()) {
      throw std::invalid_argument(name_ + " takes " + std::to_string(arguments_.size()) +
                                  " values, " + std::to_string(sizeof...(Values)) + " given");
    }
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
      const Argument& argument = arguments_[i];
      const std::size_t declared = scalar_bytes(argument.type);
      if (pointers[i] != argument.is_pointer ||
          (!argument.is_pointer && declared != 0 && declared != sizes[i])) {
        throw std::invalid_argument(name_ + ": the value given for '" + argument.type + " " +
                                    argument.name + "' is not of that type");
      }
    }
  }

  // The size of a scalar type the check knows; 0 for others (not checked).
  static std::size_t scalar_bytes(const std::string& type) {
    if (type == "float" || type == "int" || type == "unsigned" || type == "unsigned int") return 4;
    if (type == "double" || type == "long long" || type == "size_t") return 8;
    return 0;
  }

  std::vector<Argument> arguments_;
  std::string name_;
  KernelCache& cache_;
  CUdevice device_ = 0;
  std::string source_;
  Build build_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
};
