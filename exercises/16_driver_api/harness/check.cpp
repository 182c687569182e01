// Exercise 16 - the check. Runs the student's program case by case and compares what
// it reports with references computed here: saxpy and the sawtooth in double
// precision, the block counts, the state of the primary context before and after the
// student's calls, and the messages of the load failures. Contains no student code.
//
//   make check-16                          (students)
//   build/.../check_16 --program PROGRAM   (instructors; --help lists the options)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "driver_api.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Run;
namespace request = driver_api::request;
namespace result = driver_api::result;

// ---------------------------------------------------------------------------
// What a failed run says, in words
// ---------------------------------------------------------------------------

const std::string kArgumentsHint =
    "cuLaunchKernel's kernelParams is an array of pointers to the arguments, {&a, &x, &y, &n}, "
    "in the kernel's order; the driver reads each argument through its pointer, so an array "
    "of the arguments' values makes it read host memory at a device address.";
const std::string kUnloadedHint =
    "a CUfunction lives only as long as its module: a module unloaded before the launch (or "
    "a context released) leaves a handle that no launch may use. Unload in the clean-up, "
    "after the last launch has finished.";
const std::string kReverseOrderHint =
    "clean up in the reverse order of creation: free the buffers and destroy the stream, "
    "unload the module, and release the context last; once the last holder releases the "
    "primary context, everything in it is gone and every call on it fails.";

bool output_has(const Run& run, const std::string& text) {
  return run.child.output.find(text) != std::string::npos;
}

// A run that stopped before the end of its case (finished() already said how): the
// likely mistake, from the driver error it printed or the crash.
void explain_stop(CaseContext& c, const Run& run) {
  if (run.results.finished) return;
  const bool in_launch = output_has(run, "call:  cuLaunchKernel");
  if (output_has(run, "CUDA_ERROR_ILLEGAL_ADDRESS")) {
    c.hint("a kernel accessed memory it does not own. " + kArgumentsHint);
  } else if (in_launch) {
    // The error's name alone does not tell these apart on every driver: all three.
    c.hint("cuLaunchKernel failed. A grid of zero blocks? Round the block count up, and "
           "launch nothing when n = 0. " +
           kArgumentsHint + " " + kUnloadedHint);
  } else if (output_has(run, "call:  cuModuleUnload")) {
    c.hint(kUnloadedHint);
  } else if (run.child.signal != 0) {
    c.hint("a crash on the host, most likely inside a driver call. " + kArgumentsHint + " " +
           kUnloadedHint);
  } else if (output_has(run, "CUDA driver error")) {
    c.hint("a driver call failed: the output above names it and its error.");
  }
}

// The kernels must load for any launch case; says why they did not.
bool expect_loaded(CaseContext& c, const Run& run) {
  std::int64_t loaded = 0;
  std::string error;
  if (!c.read_value(run, result::loaded, loaded) || !c.read_text(run, result::load_error, error))
    return false;
  if (loaded == 1) return true;
  c.fail("load_kernels failed" +
         (error.empty() ? std::string(" without a message") : ": " + error));
  if (error.find(kSawtoothName) != std::string::npos ||
      error.find(kSaxpyName) != std::string::npos) {
    c.hint("is the kernel declared extern \"C\" in kernels.cu? Without it its PTX name is "
           "C++-mangled (_Z8sawtooth...) and cuModuleGetFunction does not find \"sawtooth\".");
  } else {
    c.hint("load_kernels: load_module, then find_kernel for \"saxpy\" and \"sawtooth\"; each "
           "returns true when it succeeds.");
  }
  return false;
}

// A run that must have finished its case and loaded the kernels.
bool ran_with_kernels(CaseContext& c, const Run& run) {
  if (!c.finished(run)) {
    explain_stop(c, run);
    return false;
  }
  return expect_loaded(c, run);
}

// ---------------------------------------------------------------------------
// Part 1: the primary context, in a process where nothing else holds it
// ---------------------------------------------------------------------------

// A value the run reported, if it did: the context case reads what the run got to
// report before a later call stopped it.
bool reported(const Run& run, const course::check::Value<std::int64_t>& key, std::int64_t& value) {
  const auto found = run.results.records.find(key.name);
  if (found == run.results.records.end() || found->second.count != 1 ||
      found->second.type != course::check::ValueType::i64) {
    return false;
  }
  value = found->second.values<std::int64_t>()[0];
  return true;
}

void check_context(CaseContext& c) {
  const Run run = c.run_with({c.options().program}, request::context, {});
  std::int64_t before = 0, after_open = 0, primary = 0, current = 0, device = 0, after_close = 0;
  const bool opened = reported(run, result::active_before, before) &&
                      reported(run, result::active_after_open, after_open) &&
                      reported(run, result::returned_primary, primary) &&
                      reported(run, result::primary_current, current) &&
                      reported(run, result::device_right, device);
  if (opened && before != 0) {
    c.fail("the primary context was already active before open_primary_context (the check's "
           "runner should not hold it: tell your instructor)");
  } else if (opened && (after_open != 1 || primary != 1)) {
    c.fail("after open_primary_context the device's primary context is " +
           std::string(after_open == 1 ? "active" : "not active") + ", and the context returned " +
           (primary == 1 ? "is" : "is not") + " the primary context");
    c.hint("retain the primary context with cuDevicePrimaryCtxRetain (not cuCtxCreate, which "
           "makes a new context that the runtime does not use), and keep it until "
           "close_primary_context.");
  } else if (opened && (current != 1 || device != 1)) {
    c.fail("after open_primary_context, " +
           std::string(current != 1 ? "the primary context is not current on the thread"
                                    : "the device returned is not device 0"));
    c.hint("cuCtxSetCurrent(context) makes it the context of this thread's driver calls.");
  } else if (!c.finished(run)) {
    explain_stop(c, run);
  } else if (!c.read_value(run, result::active_after_close, after_close)) {
    return;
  } else if (after_close != 0) {
    c.fail("the primary context is still active after close_primary_context: nothing else "
           "holds it in this run");
    c.hint("close_primary_context must give back the reference: cuDevicePrimaryCtxRelease.");
  }
}

// ---------------------------------------------------------------------------
// Part 2: loading fails with a message, never with a crash or an exit
// ---------------------------------------------------------------------------

constexpr const char* kWrongName = "saxpy_v2";

Run run_load_failures(CaseContext& c) {
  return c.run(request::load_failures, {c.scratch_dir() + "/no_such_kernels.ptx", kWrongName});
}

void check_missing_file(CaseContext& c) {
  const Run run = run_load_failures(c);
  if (!c.finished(run)) {
    explain_stop(c, run);
    c.hint("load_module must return false on a missing file, not exit (no CU_CHECK there).");
    return;
  }
  std::int64_t loaded = 0;
  std::string error;
  if (!c.read_value(run, result::missing_loaded, loaded) ||
      !c.read_text(run, result::missing_error, error)) {
    return;
  }
  const std::string path = c.scratch_dir() + "/no_such_kernels.ptx";
  if (loaded != 0) {
    c.fail("load_module returned true for a file that does not exist");
  } else if (error.find(path) == std::string::npos) {
    c.fail("load_module returned false, but its error does not name the file: '" + error + "'");
    c.hint("the message must name the file: \"cannot read \" + ptx_path.");
  }
}

void check_wrong_name(CaseContext& c) {
  const Run run = run_load_failures(c);
  if (!c.finished(run)) {
    explain_stop(c, run);
    c.hint("find_kernel must return false on a missing kernel, not exit (no CU_CHECK there).");
    return;
  }
  std::int64_t loaded = 0, found = 0, saxpy_found = 0;
  std::string load_error, error;
  if (!c.read_value(run, result::loaded, loaded) ||
      !c.read_text(run, result::load_error, load_error))
    return;
  if (loaded != 1) {
    c.fail("load_module could not load the PTX that the build made: " + load_error);
    return;
  }
  if (!c.read_value(run, result::wrong_name_found, found) ||
      !c.read_text(run, result::wrong_name_error, error) ||
      !c.read_value(run, result::saxpy_found, saxpy_found)) {
    return;
  }
  // The driver's error may be named by its name (CUDA_ERROR_NOT_FOUND, cuGetErrorName) or
  // by its description (cuGetErrorString): either spelling names it.
  const auto has = [&error](const std::string& words) {
    return !words.empty() && error.find(words) != std::string::npos;
  };
  const bool names_the_error = has("CUDA_ERROR_NOT_FOUND") ||
                               has(CaseContext::text_or_empty(run, result::not_found_name)) ||
                               has(CaseContext::text_or_empty(run, result::not_found_text));
  if (found != 0) {
    c.fail(std::string("find_kernel returned true for \"") + kWrongName + "\", which is not there");
  } else if (error.find(kWrongName) == std::string::npos || !names_the_error) {
    c.fail("find_kernel returned false, but its error does not name the kernel and the "
           "driver's error: '" +
           error + "'");
    c.hint("build the message from the name and course::driver_error_text(status).");
  } else if (saxpy_found != 1) {
    c.fail("find_kernel did not find \"saxpy\", which the module holds");
  }
}

// ---------------------------------------------------------------------------
// Part 3: launches on the runner's buffers (runtime allocations, same context)
// ---------------------------------------------------------------------------

const std::string kRoundUpHint = "round the block count up: (n + kThreadsPerBlock - 1) / "
                                 "kThreadsPerBlock, then at most kMaxBlocks.";

void check_blocks_for(CaseContext& c) {
  const Run run = c.run(request::blocks_for, {});
  if (!c.finished(run)) return;
  std::vector<std::int64_t> expected;
  for (const std::size_t n : driver_api::kBlocksForSizes) {
    expected.push_back(static_cast<std::int64_t>(
        std::min<std::size_t>((n + kThreadsPerBlock - 1) / kThreadsPerBlock, kMaxBlocks)));
  }
  std::vector<std::int64_t> got;
  if (!CaseContext::reported(run, result::blocks) || !c.read_array(run, result::blocks, got) ||
      got.size() != expected.size()) {
    c.fail("the program reported no block counts");
    return;
  }
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (got[k] != expected[k]) {
      c.fail("blocks_for(" + std::to_string(driver_api::kBlocksForSizes[k]) + ") returned " +
             std::to_string(got[k]) + ", expected " + std::to_string(expected[k]));
      c.hint(kRoundUpHint);
      return;
    }
  }
}

void check_saxpy(CaseContext& c, std::size_t n) {
  const Run run = c.run(request::saxpy, {n});
  if (!ran_with_kernels(c, run)) return;
  const float a = driver_api::make_a(c.seed());
  if (!c.expect_array(run, result::y,
                      driver_api::saxpy_reference(a, driver_api::make_x(n, c.seed()),
                                                  driver_api::make_y(n, c.seed())),
                      driver_api::kSaxpyTolerance, kArgumentsHint)) {
    c.note("(launch_saxpy with n = " + std::to_string(n) + ")");
  }
}

// A size the student has not seen: drawn from the seed, so graders change it with --seed.
constexpr std::int64_t kHiddenMaxElements = 3000000;
constexpr std::uint64_t kHiddenSalt = 16;

void check_saxpy_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenSalt));
  check_saxpy(c, static_cast<std::size_t>(rng.uniform_int(1, kHiddenMaxElements)));
}

// ---------------------------------------------------------------------------
// Part 3: the student's sawtooth, whose arguments mix float, int and size_t
// ---------------------------------------------------------------------------

const std::string kSizesHint =
    "each argument must have exactly the type of the kernel's parameter: cuLaunchKernel copies "
    "sizeof(parameter) bytes from each pointer, so a 32-bit int passed for a size_t parameter "
    "brings 4 bytes of whatever lies beside it (and a kernel that declares int where "
    "driver_api.hpp says size_t keeps only the low 32 bits of the sample number).";

struct Sawtooth {
  std::uint64_t first = 0;
  int period = 0;
  float amplitude = 0.0f;
};

// A sample number above 2^32 whose high half no int can carry, and an odd period that
// does not divide it: keeping 32 bits of `first`, or reading 4 bytes of something else
// instead of its high half, moves every sample of the ramp.
constexpr std::uint64_t kSawtoothSalt = 17;
Sawtooth sawtooth_from_seed(std::uint64_t seed) {
  course::Rng rng(course::derive_seed(seed, kSawtoothSalt));
  Sawtooth wave;
  wave.period = static_cast<int>(2 * rng.uniform_int(50000, 500000) + 1);
  std::uint64_t high = static_cast<std::uint64_t>(rng.uniform_int(1 << 24, (1 << 25) - 1));
  if (high % static_cast<std::uint64_t>(wave.period) == 0) ++high;
  wave.first = (high << 32) + static_cast<std::uint64_t>(rng.uniform_int(0, 0x7fffffff));
  wave.amplitude = rng.uniform(0.5f, 2.0f);
  return wave;
}

void check_sawtooth(CaseContext& c, std::size_t n, const Sawtooth& wave) {
  const Run run = c.run(request::sawtooth, {n, wave.first, wave.period, wave.amplitude});
  if (!ran_with_kernels(c, run)) return;
  if (!c.expect_array(run, result::out,
                      driver_api::sawtooth_reference(wave.first, wave.period, wave.amplitude, n),
                      driver_api::kSawtoothTolerance, kSizesHint)) {
    c.note("(sawtooth with first = " + std::to_string(wave.first) +
           ", period = " + std::to_string(wave.period) + ", n = " + std::to_string(n) + ")");
  }
}

// ---------------------------------------------------------------------------
// Part 4: driver memory, async copies, a stream
// ---------------------------------------------------------------------------

void check_round_trip(CaseContext& c, std::size_t n) {
  const Run run = c.run(request::round_trip, {n});
  if (!ran_with_kernels(c, run)) return;
  std::int64_t allocated = 0, left = 0;
  if (!c.read_value(run, result::buffers_allocated, allocated) ||
      !c.read_value(run, result::buffers_left, left)) {
    return;
  }
  if (allocated != (n > 0 ? 2 : 0)) {
    c.fail(n > 0 ? "allocate_saxpy_buffers did not give two device buffers of n floats each"
                 : "allocate_saxpy_buffers allocated something for n = 0");
    c.hint("cuMemAlloc(&buffers.x, n * sizeof(float)), the same for y; nothing when n = 0.");
    return;
  }
  const float a = driver_api::make_a(c.seed());
  const std::vector<float> y = driver_api::make_y(n, c.seed());
  const std::vector<double> expected =
      driver_api::saxpy_reference(a, driver_api::make_x(n, c.seed()), y);
  if (!c.expect_array(run, result::y, expected, driver_api::kSaxpyTolerance)) {
    // Which values came back tells a copy that had not finished from a wrong computation.
    std::vector<float> got;
    std::size_t still_input = 0;
    if (CaseContext::reported(run, result::y) && c.read_array(run, result::y, got) &&
        got.size() == n) {
      for (std::size_t i = 0; i < n; ++i) still_input += got[i] == y[i] ? 1 : 0;
    }
    if (still_input > n / 100) {
      c.hint("y still held its input when saxpy_round_trip returned: the copy back had not "
             "finished. cuMemcpyDtoHAsync into pinned memory returns at once: "
             "cuStreamSynchronize(stream) before returning.");
    }
    return;
  }
  if (left != 0) {
    c.fail(std::to_string(left) + " of the 2 device buffers still allocated after "
                                  "free_saxpy_buffers");
    c.hint("every cuMemAlloc needs its cuMemFree.");
  }
}

// ---------------------------------------------------------------------------
// Part 5: the whole program, alone with the context
// ---------------------------------------------------------------------------

void check_whole_program(CaseContext& c, std::size_t n, const std::string& path) {
  const Run run = c.run_with({c.options().program}, request::whole_program, {n, path});
  if (!c.finished(run)) {
    explain_stop(c, run);
    if (output_has(run, "call:  cuMemFree") || output_has(run, "call:  cuStreamDestroy") ||
        output_has(run, "call:  cuModuleUnload")) {
      c.hint(kReverseOrderHint);
    }
    return;
  }
  std::int64_t ran = 0, active_after = 0;
  std::string error;
  if (!c.read_value(run, result::ran, ran) || !c.read_text(run, result::error, error) ||
      !c.read_value(run, result::active_after, active_after)) {
    return;
  }
  if (!path.empty()) {
    if (ran != 0 || error.find(path) == std::string::npos) {
      c.fail("saxpy_from_ptx with a missing file must return false with an error that names "
             "it; it returned " +
             std::string(ran != 0 ? "true" : "false") + " with '" + error + "'");
    }
  } else if (ran != 1) {
    c.fail("saxpy_from_ptx returned false: " + error);
    return;
  } else {
    const float a = driver_api::make_a(c.seed());
    if (!c.expect_array(run, result::y,
                        driver_api::saxpy_reference(a, driver_api::make_x(n, c.seed()),
                                                    driver_api::make_y(n, c.seed())),
                        driver_api::kSaxpyTolerance)) {
      return;
    }
  }
  if (active_after != 0) {
    c.fail("the primary context was still held after saxpy_from_ptx returned");
    c.hint("every path out of saxpy_from_ptx, the failed load too, releases the context it "
           "retained.");
  }
}

// ---------------------------------------------------------------------------
// Part 5: the clean-up gives back every module and every reference to the context
// ---------------------------------------------------------------------------

const std::string kModuleUnloadHint =
    "every module loaded needs its cuModuleUnload: unload_kernels must unload kernels.module. "
    "A module left loaded keeps its code and data on the device until the context ends.";
const std::string kContextReleaseHint =
    "every cuDevicePrimaryCtxRetain needs its cuDevicePrimaryCtxRelease: "
    "close_primary_context must release the device's primary context, on every path out "
    "of saxpy_from_ptx.";

// One round of the clean_up case: what the program counted (its --wrap accounting of
// cuModuleLoad*, cuModuleUnload, cuDevicePrimaryCtxRetain and cuDevicePrimaryCtxRelease).
bool expect_given_back(CaseContext& c, const Run& run, const std::string& prefix,
                       const std::string& what) {
  std::int64_t loaded = 0, unloaded = 0, retained = 0, released = 0;
  if (!c.read_value(run, result::modules_loaded(prefix), loaded) ||
      !c.read_value(run, result::modules_unloaded(prefix), unloaded) ||
      !c.read_value(run, result::primary_retained(prefix), retained) ||
      !c.read_value(run, result::primary_released(prefix), released)) {
    return false;
  }
  if (unloaded < loaded) {
    c.fail(what + " loaded " + std::to_string(loaded) + " module(s) and unloaded " +
           std::to_string(unloaded));
    c.hint(kModuleUnloadHint);
    return false;
  }
  if (released < retained) {
    c.fail(what + " retained the primary context " + std::to_string(retained) +
           " time(s) and released it " + std::to_string(released) + " time(s)");
    c.hint(kContextReleaseHint);
    return false;
  }
  return true;
}

void check_clean_up(CaseContext& c) {
  const Run run = c.run(request::clean_up, {c.scratch_dir() + "/no_such_kernels.ptx"});
  if (!c.finished(run)) {
    explain_stop(c, run);
    return;
  }
  if (!expect_loaded(c, run) ||
      !expect_given_back(c, run, "by_hand",
                         "open_primary_context, load_kernels, unload_kernels and "
                         "close_primary_context")) {
    return;
  }
  std::int64_t ran = 0;
  if (!c.read_value(run, result::whole_ran, ran)) return;
  if (ran != 1) {
    c.fail("saxpy_from_ptx returned false on the PTX that the build made");
    return;
  }
  if (expect_given_back(c, run, "whole", "saxpy_from_ptx")) {
    expect_given_back(c, run, "missing", "saxpy_from_ptx on a missing file");
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Sizes around one block (kThreadsPerBlock) and one grid (kMaxBlocks blocks).
  constexpr std::size_t kGrid = std::size_t{kMaxBlocks} * kThreadsPerBlock;
  course::check::Exercise exercise{
      "16",
      "driver_api",
      {
          {"primary_context_retained_and_released", 2, check_context},
          {"missing_ptx_file_reported", 1, check_missing_file},
          {"wrong_kernel_name_reported", 1, check_wrong_name},
          {"blocks_for_rounds_up_and_caps", 1, check_blocks_for},
          {"saxpy_n_zero_and_one", 1,
           [](CaseContext& c) {
             check_saxpy(c, 0);
             if (c.passed()) check_saxpy(c, 1);
           }},
          {"saxpy_1000_partial_block", 1, [](CaseContext& c) { check_saxpy(c, 1000); }},
          {"saxpy_more_than_one_grid", 2, [=](CaseContext& c) { check_saxpy(c, 3 * kGrid + 77); }},
          {"saxpy_hidden_size", 1, check_saxpy_hidden, course::check::kHiddenCase},
          {"sawtooth_one_sample", 1,
           [](CaseContext& c) { check_sawtooth(c, 1, sawtooth_from_seed(c.seed())); }},
          {"sawtooth_first_above_2_32", 2,
           [](CaseContext& c) { check_sawtooth(c, 100003, sawtooth_from_seed(c.seed())); }},
          {"sawtooth_more_than_one_grid", 1,
           [=](CaseContext& c) { check_sawtooth(c, 2 * kGrid + 5, sawtooth_from_seed(c.seed())); }},
          {"round_trip_result_ready", 2,
           [](CaseContext& c) {
             check_round_trip(c, c.under_sanitizer() ? std::size_t{1} << 18 : std::size_t{1} << 22);
           }},
          {"round_trip_n_zero", 1, [](CaseContext& c) { check_round_trip(c, 0); }},
          {"whole_program_alone", 2, [](CaseContext& c) { check_whole_program(c, 100003, ""); }},
          {"clean_up_unloads_and_releases", 2, check_clean_up},
          {"whole_program_missing_file", 1,
           [](CaseContext& c) {
             check_whole_program(c, 1000, c.scratch_dir() + "/no_such_kernels.ptx");
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
