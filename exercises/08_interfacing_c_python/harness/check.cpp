// Exercise 08 - the check. Runs the program (harness/cases.cu, which calls veclib
// through the C functions of c_caller.c) and the Python caller (veclib.py, which loads the
// library built from the same veclib.cu) case by case, and compares what they report
// with references computed here. Contains no student code.
//
//   make check-08                                         (students)
//   build/.../check_08 --program PROGRAM --library LIB.so --exercise-dir DIR   (instructors)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Run;
using namespace veclib_workload;

// veclib_status (veclib.h); the check does not include the header, it repeats the
// values the interface fixes.
enum Status : std::int32_t {
  kSuccess = 0,
  kNullPointer = 1,
  kInvalidValue = 2,
  kOutOfMemory = 3,
  kCudaError = 4
};

// a x + y with |a x| <= 5 and |y| <= 2: with a fused multiply-add one rounding of the
// result, without it one more of a x, so |got - exact| <= 2^-24 (|a x| + |a x + y|)
// <= 6e-7 even where a x + y nearly cancels. atol = 1e-6 covers that bound; rtol = 1e-6
// (about 8 ulp) is there for the large results. Any real mistake (a or x or y missing,
// a wrong element) is off by 1e-3 or more.
constexpr course::Tolerance kSaxpyTolerance{1e-6, 1e-6};
// clamp returns one of x, lo or hi: exactly.
constexpr course::Tolerance kClampTolerance = course::kExact;

const std::string kExitHint =
    "the library ended the program: a library must return a status to its caller, never "
    "call exit() or abort() - the course's CUDA_CHECK exits, so veclib uses its own "
    "VECLIB_RETURN_IF_FAILED.";

std::string status_name(std::int64_t status) {
  static const char* const names[] = {"VECLIB_SUCCESS", "VECLIB_ERROR_NULL_POINTER",
                                      "VECLIB_ERROR_INVALID_VALUE", "VECLIB_ERROR_OUT_OF_MEMORY",
                                      "VECLIB_ERROR_CUDA"};
  if (status >= 0 && status < static_cast<std::int64_t>(std::size(names))) return names[status];
  return "the unknown status " + std::to_string(status);
}

// ---------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------

std::vector<double> saxpy_reference(std::size_t n, std::uint64_t seed) {
  const std::vector<float> x = saxpy_x(n, seed), y = saxpy_y(n, seed);
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = double{kSaxpyA} * x[i] + y[i];
  return out;
}

std::vector<double> clamp_reference(std::size_t n, std::uint64_t seed) {
  const std::vector<float> x = clamp_x(n, seed);
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::fmin(std::fmax(x[i], kClampLo), kClampHi);
  return out;
}

template <typename T>
std::vector<double> as_doubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// ---------------------------------------------------------------------------
// Shared expectations
// ---------------------------------------------------------------------------

// The run reached the end of its case; a library that exited gets its own hint.
bool finished(CaseContext& c, const Run& run) {
  if (!run.results.finished && run.child.exited && !run.sanitizer_errors &&
      run.results.format_error.empty()) {
    c.hint(kExitHint);
  }
  return c.finished(run);
}

// The status `name` is `expected`; `call` says which call, `hint` what to change.
bool expect_status(CaseContext& c, const Run& run, const course::check::Value<std::int32_t>& key,
                   Status expected, const std::string& call, const std::string& hint) {
  std::int32_t got = 0;
  if (!c.read_value(run, key, got)) return false;
  if (got == expected) return true;
  c.fail(call + " returned " + status_name(got) + ", expected " + status_name(expected));
  c.hint(hint);
  return false;
}

bool expect_guard(CaseContext& c, const Run& run, const course::check::Array<float>& key,
                  const std::string& function) {
  return c.expect_host_guard_untouched(run, key, function,
                                       "copy exactly n * sizeof(float) bytes back, no more.");
}

// result::status is success and result::y is saxpy's result for n elements.
// `guarded`: the array came from the C program, which guards it (Python's does not).
bool expect_saxpy_result(CaseContext& c, const Run& run, std::size_t n,
                         const std::string& after = "", bool guarded = true) {
  const std::string call = "vec_saxpy with n = " + std::to_string(n) + after;
  return expect_status(c, run, result::status, kSuccess, call,
                       after.empty() ? "a valid call must return VECLIB_SUCCESS."
                                     : "a failure must leave the library usable: clear the "
                                       "runtime's last error (cudaGetLastError) when you report "
                                       "one, and free what the failed call allocated.") &&
         (!guarded || expect_guard(c, run, result::y, "vec_saxpy")) &&
         c.expect_array(run, result::y, saxpy_reference(n, c.seed()), kSaxpyTolerance,
                        "each element must be a * x[i] + y[i], with y copied in before "
                        "the kernel and out after it.");
}

// An array a failing call must have left as it was.
bool expect_unchanged(CaseContext& c, const Run& run, const course::check::Array<float>& key,
                      const std::vector<float>& before, const std::string& what) {
  std::vector<float> after;
  if (CaseContext::reported(run, key) && c.read_array(run, key, after) && after == before) {
    return true;
  }
  c.fail(what + " changed the array although it failed");
  c.hint("check the arguments before touching anything: a failing call leaves its arrays as "
         "they were.");
  return false;
}

// ---------------------------------------------------------------------------
// The C caller's cases
// ---------------------------------------------------------------------------

void check_saxpy(CaseContext& c, std::size_t n) {
  const Run run = c.run(request::saxpy, {n});
  // The values first: a wrong status says more than "no kernel was launched".
  if (finished(c, run) && expect_saxpy_result(c, run, n)) c.expect_kernel_launched(run);
}

void check_saxpy_after_empty(CaseContext& c) {
  const std::size_t n = 1000;
  const Run run = c.run(request::saxpy_after_empty, {n});
  if (!finished(c, run)) return;
  if (!expect_status(c, run, result::empty_status, kSuccess, "vec_saxpy with n = 0",
                     "n = 0 is valid and there is nothing to do: return VECLIB_SUCCESS before "
                     "allocating or launching (a grid of zero blocks is a CUDA error).") ||
      !expect_guard(c, run, result::empty_y, "vec_saxpy with n = 0")) {
    return;
  }
  expect_saxpy_result(c, run, n, " after a call with n = 0");
}

void check_clamp(CaseContext& c, std::size_t n) {
  const Run run = c.run(request::clamp, {n});
  if (finished(c, run) &&
      expect_status(c, run, result::status, kSuccess, "vec_clamp with n = " + std::to_string(n),
                    "a valid call must return VECLIB_SUCCESS.") &&
      expect_guard(c, run, result::x, "vec_clamp") &&
      c.expect_array(run, result::x, clamp_reference(n, c.seed()), kClampTolerance,
                     "each element must be fminf(fmaxf(x[i], lo), hi).")) {
    c.expect_kernel_launched(run);
  }
}

void check_null_pointers(CaseContext& c) {
  const std::size_t n = 1000;
  const Run run = c.run(request::null_pointers, {n});
  if (!finished(c, run)) return;
  const std::string hint = "test every array argument against NULL first, before n = 0 and "
                           "before any CUDA call, and return VECLIB_ERROR_NULL_POINTER.";
  const bool ok = expect_status(c, run, result::null_x_status, kNullPointer,
                                "vec_saxpy(a, NULL, y, n)", hint) &&
                  expect_status(c, run, result::null_y_status, kNullPointer,
                                "vec_saxpy(a, x, NULL, n)", hint) &&
                  expect_status(c, run, result::null_y_empty_status, kNullPointer,
                                "vec_saxpy(a, x, NULL, 0)", hint) &&
                  expect_status(c, run, result::null_clamp_status, kNullPointer,
                                "vec_clamp(NULL, n, lo, hi)", hint) &&
                  expect_unchanged(c, run, result::y_after_errors, saxpy_y(n, c.seed()),
                                   "vec_saxpy with NULL x");
  if (ok) expect_saxpy_result(c, run, n, " after the NULL pointer errors");
}

void check_invalid_values(CaseContext& c) {
  const std::size_t n = 1000;
  const Run run = c.run(request::invalid_values, {n});
  if (!finished(c, run)) return;
  const bool ok =
      expect_status(c, run, result::reversed_status, kInvalidValue, "vec_clamp(x, n, 2, 1)",
                    "lo > hi is an invalid range: return VECLIB_ERROR_INVALID_VALUE.") &&
      expect_status(c, run, result::nan_status, kInvalidValue, "vec_clamp(x, n, NaN, 1)",
                    "a NaN bound is invalid too: every comparison with NaN is false, so test "
                    "!(lo <= hi), not lo > hi.") &&
      expect_status(c, run, result::overflow_status, kInvalidValue,
                    "vec_clamp with n = SIZE_MAX / 2",
                    "n * sizeof(float) must not overflow: n > SIZE_MAX / sizeof(float) is "
                    "VECLIB_ERROR_INVALID_VALUE.") &&
      expect_unchanged(c, run, result::x_after_errors, clamp_x(n, c.seed()),
                       "vec_clamp with lo > hi");
  if (!ok) return;
  if (expect_status(c, run, result::status, kSuccess, "vec_clamp after the invalid calls",
                    "a failure must leave the library usable.")) {
    c.expect_array(run, result::x, clamp_reference(n, c.seed()), kClampTolerance,
                   "each element must be fminf(fmaxf(x[i], lo), hi).");
  }
}

void check_out_of_memory(CaseContext& c) {
  const std::size_t n = 1000;
  const Run run = c.run(request::out_of_memory, {n});
  if (!finished(c, run)) return;
  if (!expect_status(c, run, result::oom_status, kOutOfMemory, "vec_saxpy with n = 2^40 (4 TiB)",
                     "a failed cudaMalloc (cudaErrorMemoryAllocation) must become "
                     "VECLIB_ERROR_OUT_OF_MEMORY, and be returned, not replaced by "
                     "VECLIB_SUCCESS.")) {
    return;
  }
  std::int64_t message_length = 0, text_length = 0;
  if (!c.read_value(run, result::oom_message_length, message_length) ||
      !c.read_value(run, result::oom_text_length, text_length)) {
    return;
  }
  if (message_length == 0 || text_length == 0) {
    c.fail(std::string("after the failure, ") +
           (message_length == 0 ? "veclib_last_error_message()" : "veclib_status_string()") +
           " returned an empty text");
    c.hint("record the failed call and its CUDA error (cudaGetErrorName) in the message.");
    return;
  }
  if (expect_unchanged(c, run, result::y_after_errors, saxpy_y(n, c.seed()),
                       "vec_saxpy with n = 2^40")) {
    expect_saxpy_result(c, run, n, " after the out-of-memory error");
  }
}

// The runner makes the library's second cudaMalloc fail: the first must be freed.
constexpr std::size_t kErrorPathElements = std::size_t{1} << 24;

void check_error_path_frees(CaseContext& c) {
  const Run run = c.run(request::error_path_frees, {kErrorPathElements});
  if (!finished(c, run)) return;
  if (expect_status(c, run, result::status, kOutOfMemory,
                    "vec_saxpy when its second cudaMalloc fails (the device is full)",
                    "a failed cudaMalloc (cudaErrorMemoryAllocation) must become "
                    "VECLIB_ERROR_OUT_OF_MEMORY.") &&
      expect_unchanged(c, run, result::y_after_errors, saxpy_y(kErrorPathElements, c.seed()),
                       "vec_saxpy without device memory") &&
      !c.expect_no_leak(run)) {
    c.hint("the error path leaks: when the second cudaMalloc fails, free what was allocated "
           "before returning the error.");
  }
}

void check_frees(CaseContext& c) {
  const std::size_t n = 1 << 20;
  const Run run = c.run(request::saxpy, {n});
  if (finished(c, run) && expect_saxpy_result(c, run, n)) c.expect_no_leak(run);
}

// A size the student has not seen: drawn from the seed, so graders change it with --seed.
constexpr std::int64_t kHiddenMaxElements = 2000000;
constexpr std::uint64_t kHiddenShapeSalt = 8;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  check_saxpy(c, static_cast<std::size_t>(rng.uniform_int(1, kHiddenMaxElements)));
}

// ---------------------------------------------------------------------------
// The Python caller's cases (veclib.py, with the library built as a .so)
// ---------------------------------------------------------------------------

// `name` itself when it holds a '/', else the first executable `name` on PATH.
std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= folders.size()) {
    std::size_t end = folders.find(':', at);
    if (end == std::string::npos) end = folders.size();
    const std::string candidate = folders.substr(at, end - at) + "/" + name;
    if (end > at && access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return "";
}

// The first of $COURSE_PYTHON, python3 on PATH, /usr/bin/python3 that imports NumPy;
// "" and `tried` filled when none does. Probed once per check run.
const std::string& python_with_numpy(std::string& tried) {
  static bool probed = false;
  static std::string found, tried_text;
  if (!probed) {
    probed = true;
    std::vector<std::string> candidates;
    if (const char* chosen = std::getenv("COURSE_PYTHON")) candidates.push_back(chosen);
    candidates.push_back("python3");
    candidates.push_back("/usr/bin/python3");
    candidates.push_back("/usr/local/bin/python3");
    for (const std::string& name : candidates) {
      const std::string path = on_path(name);
      tried_text += (tried_text.empty() ? "" : ", ") + name;
      if (path.empty()) continue;
      const course::check::ChildResult probe =
          course::check::run_child({path, "-c", "import numpy"}, {}, {});
      if (probe.exited && probe.exit_code == 0) {
        found = path;
        break;
      }
    }
  }
  tried = tried_text;
  return found;
}

// The command the Python cases are appended to, or empty after marking the case as
// not graded (with the reason) when this machine cannot run them.
std::vector<std::string> python_launcher(CaseContext& c) {
  const course::check::Options& options = c.options();
  if (options.library.empty() || options.exercise_dir.empty()) {
    c.not_graded("the check was not given --library and --exercise-dir (the student's "
                 "veclib.cu built as a shared library, and the folder of veclib.py)");
    return {};
  }
  std::string tried;
  const std::string& python = python_with_numpy(tried);
  if (python.empty()) {
    c.not_graded("no Python 3 with NumPy found (tried " + tried +
                 "); install NumPy or set "
                 "COURSE_PYTHON to such an interpreter");
    return {};
  }
  return {python, options.exercise_dir + "/veclib.py", options.library};
}

// Writes `values` as raw float32 into the scratch folder; returns the path.
std::string write_input(CaseContext& c, const std::string& tag, const std::vector<float>& values) {
  const std::string path = c.scratch_dir() + "/" + c.name() + "-" + tag + ".f32";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  const bool ok = file != nullptr &&
                  std::fwrite(values.data(), sizeof(float), values.size(), file) == values.size();
  if (file != nullptr) std::fclose(file);
  if (!ok) c.fail("the check could not write its input file " + path);
  return ok ? path : "";
}

const std::string kPythonHint =
    "the Python caller loads the same veclib.cu as a shared library: fix the C cases first; "
    "then run `python3 exercises/08_interfacing_c_python/veclib.py LIBRARY.so` to see it work.";

void check_python_saxpy(CaseContext& c) {
  const std::vector<std::string> launcher = python_launcher(c);
  if (launcher.empty()) return;
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000003}}) {
    const std::string x_file = write_input(c, "x", saxpy_x(n, c.seed()));
    const std::string y_file = write_input(c, "y", saxpy_y(n, c.seed()));
    if (x_file.empty() || y_file.empty()) return;
    const Run run = c.run_with(launcher, request::python::saxpy, {kSaxpyA, x_file, y_file});
    if (!finished(c, run)) return;
    if (!expect_status(c, run, result::status, kSuccess,
                       "VecLib.saxpy with n = " + std::to_string(n), kPythonHint) ||
        !c.expect_array(run, result::y, saxpy_reference(n, c.seed()), kSaxpyTolerance,
                        kPythonHint)) {
      c.note("(from Python: veclib.py's VecLib.saxpy, n = " + std::to_string(n) + ")");
      return;
    }
  }
}

void check_python_clamp(CaseContext& c) {
  const std::vector<std::string> launcher = python_launcher(c);
  if (launcher.empty()) return;
  const std::size_t n = 100003;
  const std::string x_file = write_input(c, "x", clamp_x(n, c.seed()));
  if (x_file.empty()) return;
  const Run run = c.run_with(launcher, request::python::clamp, {kClampLo, kClampHi, x_file});
  if (finished(c, run) &&
      expect_status(c, run, result::status, kSuccess, "VecLib.clamp with n = " + std::to_string(n),
                    kPythonHint)) {
    c.expect_array(run, result::x, clamp_reference(n, c.seed()), kClampTolerance, kPythonHint);
  }
}

void check_python_errors(CaseContext& c) {
  const std::vector<std::string> launcher = python_launcher(c);
  if (launcher.empty()) return;
  const std::size_t n = 1000;
  const std::string x_file = write_input(c, "x", saxpy_x(n, c.seed()));
  const std::string y_file = write_input(c, "y", saxpy_y(n, c.seed()));
  if (x_file.empty() || y_file.empty()) return;
  const Run run = c.run_with(launcher, request::python::errors, {kSaxpyA, x_file, y_file});
  if (!finished(c, run)) return;
  std::int32_t refused = 0;
  std::int64_t message_length = 0;
  const bool ok =
      expect_status(c, run, result::reversed_status, kInvalidValue,
                    "VecLib.clamp(x, 2, 1) (the VecLibError's status)",
                    "lo > hi is an invalid range: return VECLIB_ERROR_INVALID_VALUE.") &&
      expect_status(c, run, result::oom_status, kOutOfMemory,
                    "VecLib.saxpy with n = 2^40 (the VecLibError's status)",
                    "a failed cudaMalloc must become VECLIB_ERROR_OUT_OF_MEMORY.") &&
      c.read_value(run, result::oom_message_length, message_length) &&
      c.read_value(run, result::float64_refused, refused);
  if (!ok) return;
  if (refused != 1) {
    c.fail("a float64 array reached the library: ctypes did not refuse it");
    c.hint("veclib.py's argtypes must say float32 (ndpointer(dtype=np.float32, ...)).");
    return;
  }
  if (expect_unchanged(c, run, result::y_after_errors, saxpy_y(n, c.seed()), "the failing calls")) {
    expect_saxpy_result(c, run, n, " from Python after the errors", false);
  }
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "08",
      "interfacing_c_python",
      {
          {"c_saxpy_n_is_one", 1, [](CaseContext& c) { check_saxpy(c, 1); }},
          {"c_saxpy_n_zero_then_1000", 2, check_saxpy_after_empty},
          {"c_saxpy_n_257_one_past_a_block", 1, [](CaseContext& c) { check_saxpy(c, 257); }},
          {"c_saxpy_three_million_and_17", 2, [](CaseContext& c) { check_saxpy(c, 3000017); }},
          {"c_clamp_100003", 2, [](CaseContext& c) { check_clamp(c, 100003); }},
          {"c_null_pointers_are_reported", 2, check_null_pointers},
          {"c_invalid_values_are_reported", 2, check_invalid_values},
          {"c_out_of_memory_then_recovers", 3, check_out_of_memory},
          {"c_error_path_frees_device_memory", 2, check_error_path_frees},
          {"c_frees_its_device_memory", 1, check_frees},
          {"c_hidden_size_from_seed", 2, check_hidden, course::check::kHiddenCase},
          {"python_saxpy_matches_numpy", 2, check_python_saxpy},
          {"python_clamp_matches_numpy", 1, check_python_clamp},
          {"python_errors_raise_veclib_error", 2, check_python_errors},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
