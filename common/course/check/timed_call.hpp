// Timed calls that show they did their work.
//
// A speed case times the student's code by calling it again and again (course::time_device,
// bench.hpp). Three tricks would make those calls cheaper than the work: a launcher that
// remembers its last arguments and returns at once (or launches an empty kernel), a kernel
// launched on a stream of the student's own that the timer does not wait for, and a kernel
// that does part of the work when it sees a timing-sized input. So a case times the
// student's code through student_call(outputs, work), and every timed call of it
//  - counts the kernels it launches (runtime and driver API): a timed call that launched
//    none did no work on the GPU;
//  - joins, before the timer's stop event, every other stream it launched or copied on: work
//    on a stream of the student's own is timed like work on the timer's stream;
//  - has its outputs poisoned before it, outside the timed span, and read back after it
//    (the last timed call of each series and one other drawn at random, so that poisoning
//    a large output does not slow most samples): a word still poisoned was not written.
// The warm-up calls are not audited: they may build what a correct launcher keeps (a plan,
// a compiled module). What was seen goes out with the case's device records (runner.hpp),
// and CaseContext::read_times, which every speed case calls, fails the case with what was
// seen; a speed case that timed no audited call fails there too, so a case cannot forget.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <utility>
#include <vector>

#include "course/bench.hpp"
#include "course/check/device_accounting.hpp"
#include "course/check/protocol.hpp"
#include "course/verify.hpp"

namespace course::check {

// Memory a timed call must write whole: device, managed or host memory (a host output is
// written by the call's own copies back).
struct TimedOutput {
  void* data = nullptr;
  std::size_t bytes = 0;
};

template <typename T>
TimedOutput timed_output(T* data, std::size_t count) {
  return {static_cast<void*>(data), count * sizeof(T)};
}

// What the audited timed calls of a case did; reset with the case's device accounting.
struct TimedCallRecord {
  long long calls = 0;                 // timed calls audited
  long long calls_without_launch = 0;  // of which launched no kernel
  long long checked_calls = 0;         // of which had their outputs poisoned and read back
  long long unwritten_calls = 0;       // of which left an output word poisoned
  long long unwritten_words = 0;       // the most words one call left poisoned
  long long other_stream_calls = 0;    // of which launched or copied on another stream
};

inline TimedCallRecord& timed_call_record() {
  static TimedCallRecord record;
  return record;
}

// Kernels of their own per translation unit (static), as device_accounting.hpp's are.
static __global__ void count_poison_words_kernel(const std::uint32_t* words, std::size_t count,
                                                 unsigned long long* found) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    mine += words[i] == kPoisonWord ? 1 : 0;
  }
  if (mine > 0) atomicAdd(found, mine);
}

static __device__ unsigned long long poison_words_found;

namespace timed_call_detail {

// Runs `work` with `device` current (the output may live on another GPU than the timer's).
template <typename Work>
void on_device(int device, Work&& work) {
  int current = 0;
  cudaGetDevice(&current);
  if (device != current) cudaSetDevice(device);
  work();
  if (device != current) cudaSetDevice(current);
}

inline void poison(const TimedOutput& output) {
  const std::size_t words = output.bytes / sizeof(std::uint32_t);
  if (words == 0) return;
  const int device = device_holding(output.data);
  if (device < 0) {
    auto* host = static_cast<std::uint32_t*>(output.data);
    for (std::size_t i = 0; i < words; ++i) host[i] = kPoisonWord;
    return;
  }
  on_device(device, [&] {
    accounting_launch = true;
    fill_words_kernel<<<accounting_blocks(words), 256>>>(static_cast<std::uint32_t*>(output.data),
                                                         words, kPoisonWord);
    accounting_launch = false;
    cudaDeviceSynchronize();
  });
}

// The words of `output` still holding the poison after the call (0 when the count itself
// failed: a broken device is the case's other checks' to report, not a trick).
inline long long poisoned_words(const TimedOutput& output) {
  const std::size_t words = output.bytes / sizeof(std::uint32_t);
  if (words == 0) return 0;
  const int device = device_holding(output.data);
  if (device < 0) {
    const auto* host = static_cast<const std::uint32_t*>(output.data);
    long long found = 0;
    for (std::size_t i = 0; i < words; ++i) found += host[i] == kPoisonWord ? 1 : 0;
    return found;
  }
  unsigned long long found = 0;
  on_device(device, [&] {
    unsigned long long* counter = nullptr;
    const unsigned long long zero = 0;
    if (cudaGetSymbolAddress(reinterpret_cast<void**>(&counter), poison_words_found) !=
            cudaSuccess ||
        cudaMemcpyToSymbol(poison_words_found, &zero, sizeof zero) != cudaSuccess) {
      return;
    }
    accounting_launch = true;
    count_poison_words_kernel<<<accounting_blocks(words), 256>>>(
        static_cast<const std::uint32_t*>(output.data), words, counter);
    accounting_launch = false;
    if (cudaMemcpyFromSymbol(&found, poison_words_found, sizeof found) != cudaSuccess) found = 0;
  });
  return static_cast<long long>(found);
}

// A call drawn at random from a series, so that a launcher cannot tell a checked call from
// the others by its place.
inline int random_call(int repetitions) {
  if (repetitions <= 1) return 0;
  const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
  return static_cast<int>(static_cast<unsigned long long>(ticks) %
                          static_cast<unsigned>(repetitions));
}

}  // namespace timed_call_detail

// The student's work in a speed case, with the outputs each call must write. course::
// time_device audits its timed calls (the hooks below); called outside a timing it is the
// work alone.
template <typename Work>
class StudentCall : public AuditedWork {
 public:
  StudentCall(std::vector<TimedOutput> outputs, Work work)
      : outputs_(std::move(outputs)), work_(std::move(work)) {}

  void operator()() { work_(); }

  // Before timed call `index` of `repetitions`, outside the timed span.
  void before_timed_call(int index, int repetitions) {
    // A demo times the same work outside any case: nothing to audit there.
    active_ = device_memory_ledger().tracking.load();
    if (!active_) return;
    if (index == 0) random_checked_ = timed_call_detail::random_call(repetitions);
    checked_ = index == repetitions - 1 || index == random_checked_;
    if (checked_) {
      for (const TimedOutput& output : outputs_) timed_call_detail::poison(output);
    }
    DeviceMemoryLedger& ledger = device_memory_ledger();
    launches_before_ = ledger.kernel_launches.load();
    std::lock_guard<std::mutex> hold(ledger.lock);
    ledger.timed_call_streams.clear();
    ledger.timed_call_open = true;
  }

  // After the work, before the timer's stop event on `timer_stream`: the timer waits for
  // every other stream the call used.
  void join_other_streams(cudaStream_t timer_stream) {
    if (!active_) return;
    DeviceMemoryLedger& ledger = device_memory_ledger();
    std::vector<cudaStream_t> streams;
    {
      std::lock_guard<std::mutex> hold(ledger.lock);
      ledger.timed_call_open = false;
      streams.swap(ledger.timed_call_streams);
    }
    other_stream_ = false;
    for (cudaStream_t stream : streams) {
      if (stream == timer_stream) continue;
      other_stream_ = true;
      int device = 0;
      if (cudaStreamGetDevice(stream, &device) != cudaSuccess) {
        cudaGetLastError();
        continue;
      }
      timed_call_detail::on_device(device, [&] {
        cudaEvent_t done = nullptr;
        if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess) return;
        if (__real_cudaEventRecord(done, stream) == cudaSuccess) {
          cudaStreamWaitEvent(timer_stream, done, 0);
        }
        cudaEventDestroy(done);
      });
    }
  }

  // After the timer's stop event was waited for: what the call did.
  void after_timed_call() {
    if (!active_) return;
    TimedCallRecord& record = timed_call_record();
    ++record.calls;
    if (device_memory_ledger().kernel_launches.load() == launches_before_) {
      ++record.calls_without_launch;
    }
    if (other_stream_) ++record.other_stream_calls;
    if (!checked_) return;
    cudaDeviceSynchronize();  // the call's copies back to a host output included
    ++record.checked_calls;
    long long unwritten = 0;
    for (const TimedOutput& output : outputs_)
      unwritten += timed_call_detail::poisoned_words(output);
    if (unwritten > 0) {
      ++record.unwritten_calls;
      record.unwritten_words = std::max(record.unwritten_words, unwritten);
    }
  }

 private:
  std::vector<TimedOutput> outputs_;
  Work work_;
  long long launches_before_ = 0;
  int random_checked_ = 0;
  bool active_ = false;
  bool checked_ = false;
  bool other_stream_ = false;
};

// student_call({timed_output(c, n)}, [&] { launch_add(a, b, c, n); }): the student's work,
// audited whenever time_device times it.
template <typename Work>
StudentCall<std::decay_t<Work>> student_call(std::vector<TimedOutput> outputs, Work&& work) {
  return StudentCall<std::decay_t<Work>>(std::move(outputs), std::forward<Work>(work));
}

inline void reset_timed_call_record() { timed_call_record() = TimedCallRecord{}; }

}  // namespace course::check
