// The channel between a program under test and the check that judges it.
//
// The check never trusts the program's exit status or what it prints: a student's
// code runs inside that program and can exit(0), print "PASS" or forge anything.
// The program only reports what it computed, as typed records in a result file
// whose path the check passes in COURSE_RESULT_FILE; the check, which contains no
// student code, compares the records with its own references and decides.
//
// A record is a text header line, the raw values, and a newline:
//   @course-record <name> <f32|f64|i32|i64> <count>\n<count values>\n
// The last line of a case that ran to its end is "@course-end\n"; without it the
// program stopped early (crash, exit, time limit) and the check says so.
//
// One program process serves the cases of a check in turn (a CUDA context costs about
// 0.3 s to create, far more than most cases): started with kServeFlag, it reads one
// request line per case on descriptor kServeDescriptor - "case", then the same words
// a one-shot run takes on its command line, separated by tabs - and answers there:
//   ready            once, when it can take cases (its CUDA context exists)
//   written          the case's result file is complete (it ends with @course-end)
//   idle             the GPU has finished everything the case queued: the next may come
//   broken <error>   the CUDA context can serve no other case; the program ends
// and, in the middle of a case, it may ask:
//   alone            a time is about to be measured (course/timers.hpp, timing_begins):
//                    it waits for the check's "go", given once the GPU is the case's
//                    alone if the case is timed, at once otherwise
// The check starts it again after a crash, a time-out, or a program that stays busy
// after its result (a kernel still running).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace course::check {

inline constexpr const char* kResultFileVariable = "COURSE_RESULT_FILE";
inline constexpr const char* kCaseFlag = "--course-case";
inline constexpr const char* kSeedFlag = "--course-seed";
inline constexpr const char* kParamFlag = "--course-param";
inline constexpr const char* kRecordTag = "@course-record";
inline constexpr const char* kEndTag = "@course-end";
inline constexpr const char* kServeFlag = "--course-serve";
inline constexpr int kServeDescriptor = 3;
inline constexpr const char* kRequestWord = "case";
inline constexpr const char* kReadyReply = "ready";
inline constexpr const char* kWrittenReply = "written";
inline constexpr const char* kIdleReply = "idle";
inline constexpr const char* kBrokenReply = "broken";
inline constexpr const char* kAloneRequest = "alone";
inline constexpr const char* kGoReply = "go";

// Names of the records every API exercise's runner adds after a case (see
// device_accounting.hpp): what the code under test left allocated, whether it wrote
// past the end of a device buffer it allocated, and how many kernels it launched.
inline constexpr const char* kLeakedBytesRecord = "memory.leaked_bytes";
inline constexpr const char* kLeakedAllocationsRecord = "memory.leaked_allocations";
inline constexpr const char* kOverrunRecord = "memory.overruns";
inline constexpr const char* kOverrunDetailRecord = "memory.first_overrun";  // size, offset
inline constexpr const char* kKernelLaunchesRecord = "device.kernel_launches";
// Bytes and calls of cudaMemcpy / cudaMemcpyAsync between host and device memory.
inline constexpr const char* kHostToDeviceBytesRecord = "transfers.host_to_device_bytes";
inline constexpr const char* kDeviceToHostBytesRecord = "transfers.device_to_host_bytes";
inline constexpr const char* kHostToDeviceCopiesRecord = "transfers.host_to_device_copies";
inline constexpr const char* kDeviceToHostCopiesRecord = "transfers.device_to_host_copies";
// grid.x, grid.y, grid.z, block.x, block.y, block.z of the last kernel launched.
inline constexpr const char* kLastLaunchRecord = "device.last_launch";
// The milliseconds of the kernels the code under test launched while a driver timed
// them (StudentKernelTimer in device_accounting.hpp), measured with CUDA events.
inline constexpr const char* kMeasuredKernelRecord = "device.measured_kernel_ms";
// {copies, allocations and frees} the code under test made between the first and the last
// CUDA event it recorded itself while a driver timed it: work inside its timed region.
inline constexpr const char* kTimedRegionWorkRecord = "device.timed_region_work";

// What the audited timed calls of a speed case did (timed_call.hpp): {calls, calls that
// launched no kernel, calls whose outputs were poisoned and read back, of those the calls
// that left a word unwritten, the most words one call left unwritten, calls that launched
// or copied on a stream other than the timer's}.
inline constexpr const char* kTimedCallsRecord = "timing.audited_calls";

enum class ValueType { f32, f64, i32, i64 };

inline const char* type_name(ValueType type) {
  switch (type) {
    case ValueType::f32: return "f32";
    case ValueType::f64: return "f64";
    case ValueType::i32: return "i32";
    case ValueType::i64: return "i64";
  }
  return "?";
}

inline std::size_t type_size(ValueType type) {
  return (type == ValueType::f32 || type == ValueType::i32) ? 4 : 8;
}

inline bool parse_type(const std::string& text, ValueType& type) {
  for (ValueType candidate : {ValueType::f32, ValueType::f64, ValueType::i32, ValueType::i64}) {
    if (text == type_name(candidate)) {
      type = candidate;
      return true;
    }
  }
  return false;
}

template <typename T>
struct TypeOf;
template <>
struct TypeOf<float> {
  static constexpr ValueType value = ValueType::f32;
};
template <>
struct TypeOf<double> {
  static constexpr ValueType value = ValueType::f64;
};
template <>
struct TypeOf<std::int32_t> {
  static constexpr ValueType value = ValueType::i32;
};
template <>
struct TypeOf<std::int64_t> {
  static constexpr ValueType value = ValueType::i64;
};

}  // namespace course::check
