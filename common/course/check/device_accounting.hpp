// What the code under test does on the device: poison, guard zones and leak
// accounting for the device memory it allocates, a count of the kernels it
// launches, and the bytes it copies between host and device.
//
// The programs that run student code are linked with
//   --wrap=cudaMalloc,--wrap=cudaFree,--wrap=__cudaLaunchKernel,--wrap=cudaLaunchKernel,
//   --wrap=cudaMemcpy,--wrap=cudaMemcpyAsync,--wrap=cudaEventRecord,--wrap=cudaStreamCreate,
//   --wrap=cudaStreamCreateWithFlags,--wrap=cudaStreamCreateWithPriority,--wrap=cudaStreamDestroy
// so that the student's calls land here first (<<<...>>> compiles to a call of
// __cudaLaunchKernel). A result computed without any launch was computed on the
// host. Streams created and destroyed are counted (live_streams()). Each allocation is
// filled with the poison word (verify.hpp), so that an element no thread wrote
// comes back to the host recognisably unwritten instead of as a plausible 0. It
// gets a guard zone after it, filled with a known byte; cudaFree (or the end of the
// case) reads the zone back. A kernel that writes past the end of its buffer - the
// missing `if (i < n)` - changes the zone and is caught even without
// compute-sanitizer, and an allocation still live at the end of a case is a leak.
//
// Any translation unit of a program may include it (runner.hpp does); the wrapper
// functions the linker looks for are defined in one alone, the course's main()
// (common/course/program_main.cu), which defines COURSE_PROGRAM_MAIN first. The
// wrapper flags live in
// one place for each build path: cmake/CourseExercise.cmake and tools/course_tools/student/nvcc.py.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "course/check/protocol.hpp"
#include "course/timing_hook.hpp"
#include "course/verify.hpp"

#ifndef __CUDACC__
#error "device_accounting.hpp is compiled by nvcc, in the program's .cu driver"
#endif

extern "C" cudaError_t __real_cudaEventRecord(cudaEvent_t, cudaStream_t);

namespace course::check {

inline constexpr std::size_t kGuardBytes = 64 * 1024;  // > 1024 threads x 16-byte stores
// The guard zone holds this word, repeated from the buffer's start: a NaN as a float and,
// two words together, as a double. A kernel that reads past the end of its input (an
// edge tile without its bounds test) carries a NaN into its result even where it
// multiplies the value by 0, and no plausible result (nor the poison) is this pattern:
// a write into the zone is seen.
inline constexpr std::uint32_t kGuardWord = 0x7FF5A5A5u;

// The guard's byte at byte offset `offset` from the buffer's start (little-endian words).
__host__ __device__ inline constexpr unsigned char guard_byte_at(std::size_t offset) {
  return static_cast<unsigned char>(kGuardWord >> (8 * (offset % sizeof(std::uint32_t))));
}

// Set while the accounting itself launches its fill kernel, which must not count.
inline thread_local bool accounting_launch = false;
// Set while the accounting itself reads a guard zone back, a copy that must not count.
inline thread_local bool accounting_copy = false;

// Kernels, unlike inline functions, cannot be defined in several translation units of
// one program: each unit that includes this header gets its own copy (static).
static __global__ void fill_guard_kernel(unsigned char* zone, std::size_t count,
                                         std::size_t start) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    zone[i] = guard_byte_at(start + i);
  }
}

static __global__ void fill_words_kernel(std::uint32_t* words, std::size_t count,
                                         std::uint32_t value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    words[i] = value;
  }
}

// The grid of the accounting's own fill and count kernels over `words` 32-bit words: one
// thread per word, at most 4096 blocks of 256 (grid-stride loops do the rest).
inline unsigned accounting_blocks(std::size_t words) {
  return static_cast<unsigned>(std::min<std::size_t>((words + 255) / 256, 4096));
}

// Fills a new allocation with the poison word (its last bytes, if the size is not a
// multiple of 4, with the poison's first byte) and its guard zone with kGuardWord,
// and waits, so that no stream of the code under test can overtake the fill.
inline void poison_and_guard(void* buffer, std::size_t bytes) {
  const std::size_t words = bytes / sizeof(std::uint32_t);
  if (words > 0) {
    accounting_launch = true;
    fill_words_kernel<<<accounting_blocks(words), 256>>>(static_cast<std::uint32_t*>(buffer), words,
                                                         kPoisonWord);
    accounting_launch = false;
  }
  char* bytes_begin = static_cast<char*>(buffer);
  if (bytes % sizeof(std::uint32_t) != 0) {
    cudaMemset(bytes_begin + words * sizeof(std::uint32_t), kPoisonWord & 0xFF,
               bytes % sizeof(std::uint32_t));
  }
  accounting_launch = true;
  fill_guard_kernel<<<static_cast<unsigned>(kGuardBytes / 256 / 4), 256>>>(
      reinterpret_cast<unsigned char*>(bytes_begin + bytes), kGuardBytes, bytes);
  accounting_launch = false;
  cudaDeviceSynchronize();  // an error here is the code under test's to report
}

struct Overrun {
  std::size_t buffer_bytes = 0;  // the size the code asked for
  std::size_t first_offset = 0;  // first changed byte, counted from the buffer's start
};

struct DeviceMemoryLedger {
  std::mutex lock;
  // Off in ordinary runs (the demo's timings stay free of the fills and read-backs);
  // run_case turns it on before it calls the code under test.
  std::atomic<bool> tracking{false};
  std::unordered_map<void*, std::size_t> live;  // pointer -> requested bytes
  std::size_t allocations = 0;
  // Error paths: the failing_allocation-th cudaMalloc of the case (counting from 1)
  // fails as if the device were full; 0 for none. attempted_allocations counts them.
  std::size_t failing_allocation = 0;
  std::size_t attempted_allocations = 0;
  std::atomic<long long> kernel_launches{0};
  // cudaMemcpy / cudaMemcpyAsync between host and device: bytes and calls each way.
  std::atomic<long long> host_to_device_bytes{0}, device_to_host_bytes{0};
  std::atomic<long long> host_to_device_copies{0}, device_to_host_copies{0};
  std::vector<Overrun> overruns;
  // The configuration of the last counted launch (under `lock`), so that a check can
  // tell whether a launcher used the block shape it was given.
  dim3 last_grid{0, 0, 0};
  dim3 last_block{0, 0, 0};
  // While a timed call is audited (timed_call.hpp), under `lock`: the streams the code
  // under test launched kernels or queued copies on, so that the timer can wait for each.
  bool timed_call_open = false;
  std::vector<cudaStream_t> timed_call_streams;
};

// The ledger lives in a function-local static so that it exists before any static
// constructor of the code under test can allocate.
inline DeviceMemoryLedger& device_memory_ledger() {
  static DeviceMemoryLedger ledger;
  return ledger;
}

// The check's own measure of the work the code under test queued on the GPU, for the
// exercises where that code also reports a time (reported_time.hpp): while a
// StudentKernelTimer lives, every kernel it launches - and every call a driver passes
// through time_student_work(), such as a cuBLAS multiply - is bracketed by CUDA events
// recorded on the same stream. It also keeps the order of what the code does: the
// events it records itself (cudaEventRecord, which an EventTimer calls), its copies and
// its allocations. A copy or an allocation between the first and the last of its own
// events is inside the region it timed: its time includes that work.
class StudentKernelTimer {
 public:
  // What the code under test did while the timer lived, in order.
  enum class Step { own_event, copy, allocation };

  StudentKernelTimer() {
    course::timing_begins();  // the GPU alone from here in a timed case (course/timers.hpp)
    active() = this;
  }
  ~StudentKernelTimer() {
    if (active() == this) active() = nullptr;
    for (auto& [start, stop] : events_) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
  }
  StudentKernelTimer(const StudentKernelTimer&) = delete;
  StudentKernelTimer& operator=(const StudentKernelTimer&) = delete;

  static StudentKernelTimer*& active() {
    static StudentKernelTimer* timer = nullptr;
    return timer;
  }

  // Brackets `work` (a launch or a library call on `stream`) with events.
  template <typename Work>
  auto bracket(cudaStream_t stream, Work&& work) {
    cudaEvent_t start = nullptr, stop = nullptr;
    const bool timed = cudaEventCreate(&start) == cudaSuccess &&
                       cudaEventCreate(&stop) == cudaSuccess &&
                       __real_cudaEventRecord(start, stream) == cudaSuccess;
    auto status = work();
    if (timed && __real_cudaEventRecord(stop, stream) == cudaSuccess) {
      events_.emplace_back(start, stop);
    } else {
      if (start != nullptr) cudaEventDestroy(start);
      if (stop != nullptr) cudaEventDestroy(stop);
      failed_ = true;
    }
    return status;
  }

  // The total of the bracketed work in milliseconds (waits for it); -1 when some of it
  // could not be timed, 0 when there was none.
  double total_ms() {
    if (failed_) return -1.0;
    double total = 0.0;
    for (auto& [start, stop] : events_) {
      float ms = 0.0f;
      if (cudaEventSynchronize(stop) != cudaSuccess ||
          cudaEventElapsedTime(&ms, start, stop) != cudaSuccess) {
        cudaGetLastError();
        return -1.0;
      }
      total += ms;
    }
    return total;
  }

  void note(Step step) {
    std::lock_guard<std::mutex> hold(steps_lock_);
    steps_.push_back(step);
  }

  // {copies, allocations and frees} between the first and the last event the code under
  // test recorded itself (none when it recorded fewer than two).
  std::array<std::int64_t, 2> work_inside_own_events() {
    std::lock_guard<std::mutex> hold(steps_lock_);
    std::array<std::int64_t, 2> inside{0, 0};
    const auto first = std::find(steps_.begin(), steps_.end(), Step::own_event);
    const auto last = std::find(steps_.rbegin(), steps_.rend(), Step::own_event);
    if (first == steps_.end()) return inside;
    for (auto it = first; it != last.base(); ++it) {
      if (*it == Step::copy) ++inside[0];
      if (*it == Step::allocation) ++inside[1];
    }
    return inside;
  }

 private:
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> events_;
  bool failed_ = false;
  std::mutex steps_lock_;
  std::vector<Step> steps_;
};

// Runs `call` (the student's function) with a StudentKernelTimer watching and returns
// what it returned; puts what the timer saw as the records reported_time.hpp reads.
template <typename Results, typename Call>
auto watch_student_call(Results& results, Call&& call) {
  StudentKernelTimer timer;
  auto returned = call();
  results.put_value(kMeasuredKernelRecord, timer.total_ms());
  const std::array<std::int64_t, 2> inside = timer.work_inside_own_events();
  results.put(kTimedRegionWorkRecord, inside.data(), inside.size());
  return returned;
}

// Tells the active StudentKernelTimer, if any, what the code under test just did.
inline void note_student_step(StudentKernelTimer::Step step) {
  if (StudentKernelTimer* timer = StudentKernelTimer::active()) timer->note(step);
}

// Starts a case's accounting afresh. A program serves many cases (protocol.hpp): what
// an earlier case left allocated was that case's leak, and is not this one's.
inline void start_device_memory_accounting() {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  std::lock_guard<std::mutex> hold(ledger.lock);
  ledger.live.clear();
  ledger.allocations = 0;
  ledger.failing_allocation = 0;
  ledger.attempted_allocations = 0;
  ledger.kernel_launches = 0;
  ledger.host_to_device_bytes = 0;
  ledger.device_to_host_bytes = 0;
  ledger.host_to_device_copies = 0;
  ledger.device_to_host_copies = 0;
  ledger.overruns.clear();
  ledger.last_grid = dim3(0, 0, 0);
  ledger.last_block = dim3(0, 0, 0);
  ledger.tracking = true;
}

// Reads a guard zone back; returns false (and the first changed offset) if touched.
// Errors are ignored on purpose: after a faulting kernel the copy fails, and the
// fault itself is what the student's own error checks report.
inline bool guard_intact(void* buffer, std::size_t bytes, std::size_t& first_changed) {
  std::vector<unsigned char> zone(kGuardBytes);
  accounting_copy = true;
  const cudaError_t status = cudaMemcpy(zone.data(), static_cast<char*>(buffer) + bytes,
                                        kGuardBytes, cudaMemcpyDeviceToHost);
  accounting_copy = false;
  if (status != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  for (std::size_t i = 0; i < kGuardBytes; ++i) {
    if (zone[i] != guard_byte_at(bytes + i)) {
      first_changed = bytes + i;
      return false;
    }
  }
  return true;
}

inline void check_guard_locked(DeviceMemoryLedger& ledger, void* buffer, std::size_t bytes) {
  std::size_t offset = 0;
  if (!guard_intact(buffer, bytes, offset)) ledger.overruns.push_back({bytes, offset});
}

struct DeviceMemoryReport {
  std::size_t leaked_bytes = 0;
  std::size_t leaked_allocations = 0;
  std::vector<Overrun> overruns;
  long long kernel_launches = 0;
  long long host_to_device_bytes = 0, device_to_host_bytes = 0;
  long long host_to_device_copies = 0, device_to_host_copies = 0;
  dim3 last_grid{0, 0, 0};  // of the last counted launch; zeros when there was none
  dim3 last_block{0, 0, 0};
};

// Makes the number-th cudaMalloc of the code under test in this case (counting from 1)
// fail with cudaErrorMemoryAllocation, as on a full device: an error path is tested
// without filling a GPU that other tests may share.
inline void fail_device_allocation(std::size_t number) {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  std::lock_guard<std::mutex> hold(ledger.lock);
  ledger.failing_allocation = number;
}

// For the rest of this case, cudaMalloc is the plain one: no poison, no guard zone, no
// leak or launch accounting. A case run under compute-sanitizer to prove what the tool
// reports needs memory as the program left it: to initcheck a poisoned buffer is written
// memory, and to memcheck a write into a guard zone is inside an allocation.
inline void stop_device_memory_accounting() { device_memory_ledger().tracking = false; }

// Checks the guards of allocations still live and returns the case's totals.
inline DeviceMemoryReport finish_device_memory_accounting() {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  std::lock_guard<std::mutex> hold(ledger.lock);
  DeviceMemoryReport report;
  for (const auto& [pointer, bytes] : ledger.live) {
    check_guard_locked(ledger, pointer, bytes);
    report.leaked_bytes += bytes;
    ++report.leaked_allocations;
  }
  report.overruns = ledger.overruns;
  report.kernel_launches = ledger.kernel_launches.load();
  report.host_to_device_bytes = ledger.host_to_device_bytes.load();
  report.device_to_host_bytes = ledger.device_to_host_bytes.load();
  report.host_to_device_copies = ledger.host_to_device_copies.load();
  report.device_to_host_copies = ledger.device_to_host_copies.load();
  report.last_grid = ledger.last_grid;
  report.last_block = ledger.last_block;
  return report;
}

}  // namespace course::check

extern "C" cudaError_t __real_cudaMalloc(void** pointer, std::size_t bytes);
extern "C" cudaError_t __real_cudaFree(void* pointer);

#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaMalloc(void** pointer, std::size_t bytes) {
  using namespace course::check;
  if (pointer == nullptr || bytes == 0 || !device_memory_ledger().tracking) {
    return __real_cudaMalloc(pointer, bytes);
  }
  {
    DeviceMemoryLedger& ledger = device_memory_ledger();
    std::lock_guard<std::mutex> hold(ledger.lock);
    if (++ledger.attempted_allocations == ledger.failing_allocation) {
      *pointer = nullptr;
      return cudaErrorMemoryAllocation;
    }
  }
  const cudaError_t status = __real_cudaMalloc(pointer, bytes + kGuardBytes);
  if (status != cudaSuccess) return status;
  note_student_step(StudentKernelTimer::Step::allocation);
  poison_and_guard(*pointer, bytes);
  DeviceMemoryLedger& ledger = device_memory_ledger();
  std::lock_guard<std::mutex> hold(ledger.lock);
  ledger.live[*pointer] = bytes;
  ++ledger.allocations;
  return cudaSuccess;
}
#endif

#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaFree(void* pointer) {
  using namespace course::check;
  if (pointer != nullptr && device_memory_ledger().tracking) {
    note_student_step(StudentKernelTimer::Step::allocation);
  }
  if (pointer != nullptr) {
    DeviceMemoryLedger& ledger = device_memory_ledger();
    std::lock_guard<std::mutex> hold(ledger.lock);
    auto found = ledger.live.find(pointer);
    if (found != ledger.live.end()) {
      check_guard_locked(ledger, pointer, found->second);
      ledger.live.erase(found);
    }
  }
  return __real_cudaFree(pointer);
}
#endif

namespace course::check {

// Notes `stream` among the streams of an audited timed call (under the ledger's lock).
inline void note_timed_call_stream_locked(DeviceMemoryLedger& ledger, cudaStream_t stream) {
  if (!ledger.timed_call_open) return;
  auto& streams = ledger.timed_call_streams;
  if (std::find(streams.begin(), streams.end(), stream) == streams.end()) streams.push_back(stream);
}

// Kernel launches: counted (with the configuration of the last one and, during an audited
// timed call, the stream) while a case runs, then passed on unchanged. The driver API's
// cuLaunchKernel lands here too (driver_accounting.hpp).
inline void count_launch(const dim3& grid, const dim3& block, cudaStream_t stream) {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  if (accounting_launch || !ledger.tracking) return;
  ++ledger.kernel_launches;
  std::lock_guard<std::mutex> hold(ledger.lock);
  ledger.last_grid = grid;
  ledger.last_block = block;
  note_timed_call_stream_locked(ledger, stream);
}

// Runs `work` on `stream`, timed when a StudentKernelTimer is active (the accounting's
// own launches never are).
template <typename Work>
auto time_student_work(cudaStream_t stream, Work&& work) {
  StudentKernelTimer* timer = StudentKernelTimer::active();
  if (timer == nullptr || accounting_launch) return work();
  StudentKernelTimer::active() = nullptr;  // a launch inside the work is not timed twice
  auto status = timer->bracket(stream, work);
  StudentKernelTimer::active() = timer;
  return status;
}

}  // namespace course::check

extern "C" cudaError_t __real___cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**, std::size_t,
                                                 cudaStream_t);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                 void** args, std::size_t shared_bytes,
                                                 cudaStream_t stream) {
  course::check::count_launch(grid, block, stream);
  return course::check::time_student_work(stream, [&] {
    return __real___cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream);
  });
}
#endif

extern "C" cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, std::size_t,
                                               cudaStream_t);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaLaunchKernel(const void* function, dim3 grid, dim3 block,
                                               void** args, std::size_t shared_bytes,
                                               cudaStream_t stream) {
  course::check::count_launch(grid, block, stream);
  return course::check::time_student_work(stream, [&] {
    return __real_cudaLaunchKernel(function, grid, block, args, shared_bytes, stream);
  });
}
#endif

namespace course::check {

// Where a pointer lives (unified addressing decides): the device that holds it (device or
// managed memory), or -1 for host memory, pageable or pinned.
inline int device_holding(const void* pointer) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    cudaGetLastError();  // an unregistered host pointer on old drivers: host memory
    return -1;
  }
  const bool on_device =
      attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  return on_device ? attributes.device : -1;
}

// For cudaMemcpyDefault copies: which side of the bus a pointer is on.
inline bool is_device_memory(const void* pointer) { return device_holding(pointer) >= 0; }

// Copies between host and device: counted while a case runs (bytes and calls each
// way), then passed on unchanged. Device-to-device and host-to-host copies move
// nothing across the bus and are not counted.
inline void count_copy(const void* destination, const void* source, std::size_t bytes,
                       cudaMemcpyKind kind) {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  if (accounting_copy || !ledger.tracking || bytes == 0) return;
  note_student_step(StudentKernelTimer::Step::copy);
  if (kind == cudaMemcpyDefault) {
    const bool to_device = is_device_memory(destination);
    const bool from_device = is_device_memory(source);
    if (to_device == from_device) return;
    kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  }
  if (kind == cudaMemcpyHostToDevice) {
    ledger.host_to_device_bytes += static_cast<long long>(bytes);
    ++ledger.host_to_device_copies;
  } else if (kind == cudaMemcpyDeviceToHost) {
    ledger.device_to_host_bytes += static_cast<long long>(bytes);
    ++ledger.device_to_host_copies;
  }
}

// An asynchronous copy of the code under test: its stream is one an audited timed call's
// timer must wait for, as a launch's is.
inline void note_async_copy_stream(cudaStream_t stream) {
  DeviceMemoryLedger& ledger = device_memory_ledger();
  if (accounting_copy || !ledger.tracking) return;
  std::lock_guard<std::mutex> hold(ledger.lock);
  note_timed_call_stream_locked(ledger, stream);
}

}  // namespace course::check

extern "C" cudaError_t __real_cudaMemcpy(void*, const void*, std::size_t, cudaMemcpyKind);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaMemcpy(void* destination, const void* source, std::size_t bytes,
                                         cudaMemcpyKind kind) {
  course::check::count_copy(destination, source, bytes, kind);
  return __real_cudaMemcpy(destination, source, bytes, kind);
}
#endif

extern "C" cudaError_t __real_cudaMemcpyAsync(void*, const void*, std::size_t, cudaMemcpyKind,
                                              cudaStream_t);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaMemcpyAsync(void* destination, const void* source,
                                              std::size_t bytes, cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  course::check::count_copy(destination, source, bytes, kind);
  course::check::note_async_copy_stream(stream);
  return __real_cudaMemcpyAsync(destination, source, bytes, kind, stream);
}
#endif

// The events the code under test records (an EventTimer's start() and stop()): noted in
// order among its copies and allocations while a StudentKernelTimer lives.
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  // Events the code records itself may time it: the GPU alone from here in a timed case.
  course::timing_begins();
  course::check::note_student_step(course::check::StudentKernelTimer::Step::own_event);
  return __real_cudaEventRecord(event, stream);
}
#endif

namespace course::check {

// Streams: how many the program has created and not destroyed, so that a runner can
// tell whether code under test destroyed every stream it created (a stream is not
// memory: compute-sanitizer's leak check does not see it).
inline std::atomic<long long>& live_streams() {
  static std::atomic<long long> count{0};
  return count;
}

inline cudaError_t count_stream_created(cudaError_t status) {
  if (status == cudaSuccess) ++live_streams();
  return status;
}

}  // namespace course::check

extern "C" cudaError_t __real_cudaStreamCreate(cudaStream_t*);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaStreamCreate(cudaStream_t* stream) {
  return course::check::count_stream_created(__real_cudaStreamCreate(stream));
}
#endif

extern "C" cudaError_t __real_cudaStreamCreateWithFlags(cudaStream_t*, unsigned);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  return course::check::count_stream_created(__real_cudaStreamCreateWithFlags(stream, flags));
}
#endif

extern "C" cudaError_t __real_cudaStreamCreateWithPriority(cudaStream_t*, unsigned, int);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags,
                                                           int priority) {
  return course::check::count_stream_created(
      __real_cudaStreamCreateWithPriority(stream, flags, priority));
}
#endif

extern "C" cudaError_t __real_cudaStreamDestroy(cudaStream_t);
#ifdef COURSE_PROGRAM_MAIN
extern "C" cudaError_t __wrap_cudaStreamDestroy(cudaStream_t stream) {
  const cudaError_t status = __real_cudaStreamDestroy(stream);
  if (status == cudaSuccess) --course::check::live_streams();
  return status;
}
#endif
