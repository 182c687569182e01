// The runner side of a check: the program that contains student code.
//
// An API exercise's program is the student's files, the exercise's harness/cases.cu and
// harness/demo.cu, and the course's main() (common/course/program_main.cu), which runs
// the case a check asks for or else the demo a student sees with `make run-NN`:
//
//   void course::program::run_check_case(const CaseRequest& request, ResultWriter& results)
//
// computes what the case asks for with the student's functions and puts the outputs
// into `results`, under the keys the exercise declares once (result_keys.hpp). It
// decides nothing: judge.hpp compares, in a process without student code (protocol.hpp
// says why).
//
// Any translation unit may include this header. Compiled by nvcc it brings the
// device-memory accounting (device_accounting.hpp) with it. The course's own tests also
// compile it with a plain C++ compiler, for host-only runners that prove the harness on
// machines without a GPU.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "course/check/protocol.hpp"
#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/timing_hook.hpp"
#include "course/verify.hpp"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "course/check/device_accounting.hpp"
#include "course/check/handicap.hpp"
#include "course/check/timed_call.hpp"
#endif

namespace course::check {

struct CaseRequest {
  std::string name;
  std::uint64_t seed = 0;
  std::map<std::string, std::string> params;
  // Started by the check to serve its cases in turn (protocol.hpp), not to run one.
  bool serve = false;

  // This request's parameters when it is a `key` request (request_keys.hpp), else nothing:
  //   if (const auto p = request.as(request::affine)) affine_on_gpu(..., p->n, ...);
  template <typename Params>
  std::optional<Params> as(const Request<Params>& key) const {
    if (name != key.name) return std::nullopt;
    return params_of<Params>(name, params);
  }
  template <typename Params>
  bool is(const Request<Params>& key) const {
    return name == key.name;
  }
};

// The case that these words ask for (--course-case NAME --course-seed N
// --course-param KEY=VALUE ...), or nothing when they ask for none.
inline std::optional<CaseRequest> parse_case_words(const std::vector<std::string>& words) {
  if (words.empty() || words[0] != kCaseFlag) return std::nullopt;
  CaseRequest request;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
    const std::string& flag = words[i];
    const std::string& value = words[i + 1];
    if (flag == kCaseFlag) {
      request.name = value;
    } else if (flag == kSeedFlag) {
      request.seed = std::stoull(value);
    } else if (flag == kParamFlag) {
      const auto equals = value.find('=');
      if (equals == std::string::npos) continue;
      request.params[value.substr(0, equals)] = value.substr(equals + 1);
    }
  }
  return request;
}

// Returns the case this invocation asks for (or a request to serve cases), or nothing
// for an ordinary run.
inline std::optional<CaseRequest> parse_case_request(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == kServeFlag) {
    CaseRequest request;
    request.serve = true;
    return request;
  }
  return parse_case_words(std::vector<std::string>(argv + 1, argv + argc));
}

// Writes records to the result file (protocol.hpp).
class ResultWriter {
 public:
  ResultWriter() {
    const char* path = std::getenv(kResultFileVariable);
    if (path == nullptr || path[0] == '\0') {
      std::fprintf(stderr, "%s is not set: check cases are run by the check program\n",
                   kResultFileVariable);
      std::exit(2);
    }
    file_ = std::fopen(path, "wb");
    if (file_ == nullptr) {
      std::perror(path);
      std::exit(2);
    }
  }
  ~ResultWriter() {
    if (file_ != nullptr) std::fclose(file_);
  }
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  template <typename T>
  void put(const std::string& name, const T* values, std::size_t count) {
    std::fprintf(file_, "%s %s %s %zu\n", kRecordTag, name.c_str(), type_name(TypeOf<T>::value),
                 count);
    if (count > 0) std::fwrite(values, sizeof(T), count, file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }
  template <typename T>
  void put(const std::string& name, const std::vector<T>& values) {
    put(name, values.data(), values.size());
  }
  template <typename T>
  void put_value(const std::string& name, T value) {
    put(name, &value, 1);
  }
  // A line of text (a message the code under test produced), one i32 per byte; the
  // check reads it back with CaseContext::read_text.
  void put_text(const std::string& name, const std::string& text) {
    put(name, std::vector<std::int32_t>(text.begin(), text.end()));
  }

  // The same, by the keys an exercise declares once (result_keys.hpp): what the cases
  // of an exercise use, so that a misspelt name does not compile.
  template <typename T>
  void put(const Value<T>& key, Keyed<T> value) {
    put_value(key.name, value);
  }
  template <typename T>
  void put(const Array<T>& key, const std::vector<T>& values) {
    put(key.name, values.data(), values.size());
  }
  template <typename T>
  void put(const Array<T>& key, const Keyed<T>* values, std::size_t count) {
    put(key.name, values, count);
  }
  void put(const Text& key, const std::string& text) { put_text(key.name, text); }

  void finish() {
    std::fprintf(file_, "%s\n", kEndTag);
    std::fflush(file_);
  }

 private:
  std::FILE* file_ = nullptr;
};

// A host output with a guard zone: poisoned elements after the n a call may write,
// so that a loop that runs one step too far (i <= n), or a copy back of too many
// bytes, is reported instead of quietly corrupting the heap. Device buffers get their
// guard from device_accounting.hpp; host outputs get it here.
inline constexpr std::size_t kHostGuardElements = 64;

template <typename T>
class GuardedOutput {
 public:
  explicit GuardedOutput(std::size_t n) : n_(n), storage_(n + kHostGuardElements) {
    poison(storage_.data(), storage_.size());
  }
  T* data() { return storage_.data(); }
  std::size_t size() const { return n_; }

  // Puts the n outputs as record `key`, and as `key`.guard_writes the number of
  // guard elements the call overwrote (judge.hpp: expect_host_guard_untouched).
  void report(ResultWriter& results, const Array<T>& key) const {
    const std::string& name = key.name;
    results.put(name, storage_.data(), n_);
    const auto guard_writes =
        std::count_if(storage_.begin() + static_cast<std::ptrdiff_t>(n_), storage_.end(),
                      [](T value) { return !is_poison(value); });
    results.put_value(name + ".guard_writes", static_cast<std::int64_t>(guard_writes));
  }

 private:
  std::size_t n_;
  std::vector<T> storage_;
};

#ifdef __CUDACC__
inline void put_device_memory_report(ResultWriter& results) {
  const DeviceMemoryReport report = finish_device_memory_accounting();
  results.put_value(kLeakedBytesRecord, static_cast<std::int64_t>(report.leaked_bytes));
  results.put_value(kLeakedAllocationsRecord, static_cast<std::int64_t>(report.leaked_allocations));
  results.put_value(kOverrunRecord, static_cast<std::int64_t>(report.overruns.size()));
  if (!report.overruns.empty()) {
    const std::int64_t detail[2] = {static_cast<std::int64_t>(report.overruns[0].buffer_bytes),
                                    static_cast<std::int64_t>(report.overruns[0].first_offset)};
    results.put(kOverrunDetailRecord, detail, 2);
  }
  results.put_value(kKernelLaunchesRecord, static_cast<std::int64_t>(report.kernel_launches));
  results.put_value(kHostToDeviceBytesRecord,
                    static_cast<std::int64_t>(report.host_to_device_bytes));
  results.put_value(kDeviceToHostBytesRecord,
                    static_cast<std::int64_t>(report.device_to_host_bytes));
  results.put_value(kHostToDeviceCopiesRecord,
                    static_cast<std::int64_t>(report.host_to_device_copies));
  results.put_value(kDeviceToHostCopiesRecord,
                    static_cast<std::int64_t>(report.device_to_host_copies));
  const std::int64_t last_launch[6] = {report.last_grid.x,  report.last_grid.y,
                                       report.last_grid.z,  report.last_block.x,
                                       report.last_block.y, report.last_block.z};
  results.put(kLastLaunchRecord, last_launch, 6);
  const TimedCallRecord& timed = timed_call_record();
  const std::int64_t timed_calls[6] = {timed.calls,           timed.calls_without_launch,
                                       timed.checked_calls,   timed.unwritten_calls,
                                       timed.unwritten_words, timed.other_stream_calls};
  results.put(kTimedCallsRecord, timed_calls, 6);
}
#endif

using CaseFunction = void (*)(const CaseRequest&, ResultWriter&);

// Runs one case, adds the device-memory report, marks the end.
inline void compute_case(const CaseRequest& request, CaseFunction run_check_case) {
  ResultWriter results;
#ifdef __CUDACC__
  cudaGetLastError();  // an error an earlier case left pending is not this case's
  start_device_memory_accounting();
  reset_timed_call_record();
#endif
  run_check_case(request, results);
#ifdef __CUDACC__
  put_device_memory_report(results);
#endif
  results.finish();
}

namespace detail {

inline void reply(const std::string& text) {
  const std::string line = text + "\n";
  std::size_t sent = 0;
  while (sent < line.size()) {
    const ssize_t wrote = write(kServeDescriptor, line.data() + sent, line.size() - sent);
    if (wrote <= 0) std::exit(0);  // the check is gone: nobody to serve
    sent += static_cast<std::size_t>(wrote);
  }
}

// The next request line, without its newline; false at the end of the requests.
inline bool next_request(std::string& line) {
  line.clear();
  char c = 0;
  while (true) {
    const ssize_t got = read(kServeDescriptor, &c, 1);
    if (got <= 0) return false;
    if (c == '\n') return true;
    line += c;
  }
}

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (true) {
    const std::size_t tab = line.find('\t', at);
    words.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
    if (tab == std::string::npos) return words;
    at = tab + 1;
  }
}

// Whether this case has already asked for the GPU alone (see ask_for_the_gpu_alone).
inline bool& asked_alone_in_this_case() {
  static bool asked = false;
  return asked;
}

#ifdef __CUDACC__
// How this program's thread waits for the GPU (cudaDeviceScheduleSpin or ...BlockingSync).
// With one context and many cores CUDA spins: a whole core per waiting program. A check's
// programs share the GPU with a machine's worth of others (a grading's exercises, their
// compute-sanitizer runs), so while nothing is measured they wait blocked and leave the
// cores to the builds and the checks; a measured part spins, as the bars were set with.
// It changes only when it must (a timed case, then the next one): a failure leaves it as
// it was, and clears the error that a student's next cudaGetLastError() would report.
inline void wait_for_the_gpu_by(unsigned schedule) {
  static unsigned current = cudaDeviceScheduleAuto;
  if (schedule == current) return;
  unsigned flags = 0;
  if (cudaGetDeviceFlags(&flags) != cudaSuccess ||
      cudaSetDeviceFlags((flags & ~cudaDeviceScheduleMask) | schedule) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  current = schedule;
}
#endif

// The served program's timing hook (course/timers.hpp): the first time a case starts to
// measure a time, it tells the check and waits for its "go". The check gives it once the
// GPU is this case's alone when the case is timed, at once when it is not. A check that is
// gone ends the program, as a failed reply does.
inline void ask_for_the_gpu_alone() {
  if (asked_alone_in_this_case()) return;
  asked_alone_in_this_case() = true;
#ifdef __CUDACC__
  wait_for_the_gpu_by(cudaDeviceScheduleSpin);
#endif
  reply(kAloneRequest);
  std::string line;
  do {
    if (!next_request(line)) std::exit(0);
  } while (line != kGoReply);
}

}  // namespace detail

// Serves the check's cases one after the other in this process (protocol.hpp), so
// that the CUDA context is created once, not once per case.
inline int serve_cases(CaseFunction run_check_case) {
#ifdef __CUDACC__
  cudaFree(nullptr);  // creates the context now, before the first case's clock starts
  cudaGetLastError();
#endif
  detail::reply(kReadyReply);
  course::timing_hook() = detail::ask_for_the_gpu_alone;
  std::string line;
  while (detail::next_request(line)) {
    std::vector<std::string> words = detail::split_tabs(line);
    if (words.empty() || words[0] != kRequestWord) {
      std::fprintf(stderr, "check protocol: unexpected request '%s'\n", line.c_str());
      return 2;
    }
    words.erase(words.begin());
    const std::optional<CaseRequest> request = parse_case_words(words);
    if (!request) {
      std::fprintf(stderr, "check protocol: malformed request '%s'\n", line.c_str());
      return 2;
    }
    detail::asked_alone_in_this_case() = false;
#ifdef __CUDACC__
    detail::wait_for_the_gpu_by(cudaDeviceScheduleBlockingSync);
#endif
    compute_case(*request, run_check_case);
    // What the case printed reaches the check before the reply that ends its part.
    std::fflush(stdout);
    std::fflush(stderr);
    detail::reply(kWrittenReply);
#ifdef __CUDACC__
    // The next case may start when nothing of this one still runs on the GPU; a context
    // that a fault broke cannot serve it at all.
    const cudaError_t status = cudaDeviceSynchronize();
    if (status != cudaSuccess) {
      detail::reply(std::string(kBrokenReply) + " " + cudaGetErrorName(status));
      return 0;
    }
#endif
    detail::reply(kIdleReply);
  }
#ifdef __CUDACC__
  // Destroying the context lets compute-sanitizer's leak check see what is left.
  cudaDeviceReset();
#endif
  return 0;
}

// Runs the case this invocation asks for, or serves the check's cases. The exit status
// carries no verdict; 2 means a request itself was malformed.
inline int run_case(const CaseRequest& request, CaseFunction run_check_case) {
#ifdef __CUDACC__
  apply_handicap_from_environment();  // an experiment's smaller GPU (handicap.hpp), if asked
#endif
  if (request.serve) return serve_cases(run_check_case);
  compute_case(request, run_check_case);
#ifdef __CUDACC__
  // Destroying the context lets compute-sanitizer's leak check see what is left.
  cudaDeviceReset();
#endif
  return 0;
}

// For a case function that does not know the name it was given.
[[noreturn]] inline void unknown_case(const CaseRequest& request) {
  std::fprintf(stderr, "check protocol: unknown case '%s'\n", request.name.c_str());
  std::exit(2);
}

}  // namespace course::check
