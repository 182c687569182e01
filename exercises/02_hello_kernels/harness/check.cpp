// Exercise 02 - the check. Runs the student's whole program for several launch shapes
// and reads what it prints: for a valid shape, every thread of the grid must print its
// one hello line and nothing else may claim to be one; for an invalid shape, the
// program must report the CUDA error and exit with status 1. Contains no student code.
//
//   make check-02                          (students)
//   build/.../check_02 --program PROGRAM   (instructors; --help lists the options)
// TEMPORARY (issue 41): this check still passes English-only messages; remove this line
// once every message is a Message{english, french} (course/check/message.hpp).
#define COURSE_CHECK_ENGLISH_ONLY_ALLOWED
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "course/check/judge.hpp"

namespace {

using course::check::CaseContext;
using course::check::Run;

// What the program must print, once per thread.
constexpr std::string_view kHelloFormat = "Hello from block B, thread T, global index G";
// A line that starts like this is a hello line and must follow the format exactly;
// every other line (a header, an error message) is the program's own business.
constexpr std::string_view kHelloStart = "Hello from";

constexpr int kExitSuccess = 0;
constexpr int kExitCudaError = 1;  // what CUDA_CHECK and CUDA_CHECK_LAUNCH exit with
constexpr int kExitUsage = 2;      // the given argument parsing's status for a bad command line
constexpr int kMaxThreadsPerBlock = 1024;  // on every GPU this course supports (sm_75 and newer)
constexpr std::size_t kExamplesShown = 5;
constexpr std::size_t kLongestLineShown = 120;

// The hidden shape stays small: each device printf takes room in a fixed-size buffer
// on the GPU (1 MiB by default), and a few thousand lines are plenty to judge.
constexpr int kHiddenMinBlocks = 2, kHiddenMaxBlocks = 16;
constexpr int kHiddenMinThreads = 33, kHiddenMaxThreads = 255;  // never equal to the block count

// Hints, shared by the cases; the known-wrong variants (tests/mutants) expect them.
constexpr const char* kNoLinesHint =
    "no hello line at all: does hello_kernel print its line, is it launched, and does the "
    "host wait for the kernel with CUDA_CHECK(cudaDeviceSynchronize()) before main returns? "
    "A launch returns at once, and device printf output reaches the screen only when the "
    "host synchronizes.";
constexpr const char* kSomeLinesMissingHint =
    "some threads printed nothing: is the grid exactly <<<blocks, threads_per_block>>> as "
    "given on the command line, and does the host wait for the kernel "
    "(cudaDeviceSynchronize()) before main returns?";
constexpr const char* kSwappedHint =
    "blocks and threads look swapped in <<<...>>>: the first number is the number of blocks, "
    "the second the number of threads in each block.";
constexpr const char* kBlockSizeAsThreadHint =
    "the lines outside the launch show a thread number equal to the block size: print "
    "threadIdx.x (this thread's place in its block), not blockDim.x (the size of every block).";
constexpr const char* kOutOfRangeHint =
    "lines name blocks or threads that this launch does not have: launch exactly "
    "<<<blocks, threads_per_block>>> from the command line, and print blockIdx.x and "
    "threadIdx.x as they are.";
constexpr const char* kNoBlockOffsetHint =
    "the global index forgets the block offset: it is blockIdx.x * blockDim.x + threadIdx.x, "
    "so that block 1 starts where block 0 ends.";
constexpr const char* kGridSizeHint =
    "the global index multiplies blockIdx.x by the number of blocks (gridDim.x): multiply it "
    "by the size of a block, blockDim.x.";
constexpr const char* kIndexFormulaHint =
    "the global index is blockIdx.x * blockDim.x + threadIdx.x.";
constexpr const char* kDuplicatesHint =
    "each thread must print exactly one line: is the printf in a loop, or the kernel launched "
    "more than once?";
constexpr const char* kRunTogetherHint =
    "several hello lines ran together on one line: end the printf format with a newline.";
constexpr const char* kFormatHint =
    "print exactly \"Hello from block %d, thread %d, global index %d\" and a newline, with "
    "nothing else on the line.";
constexpr const char* kUncheckedLaunchHint =
    "the failed launch went unnoticed: call CUDA_CHECK_LAUNCH() right after the launch. An "
    "invalid launch configuration returns no error by itself: it is only reported by "
    "cudaGetLastError(), which that macro reads.";
constexpr const char* kPrintTheErrorHint =
    "print the CUDA error: CUDA_CHECK_LAUNCH() prints the error's name and text before it "
    "exits with status 1.";

// ---------------------------------------------------------------------------
// Launch shapes
// ---------------------------------------------------------------------------
struct Shape {
  int blocks = 0;
  int threads_per_block = 0;
  bool on_command_line = true;  // false: the program runs without arguments (its default)

  long long threads() const { return static_cast<long long>(blocks) * threads_per_block; }
  std::vector<std::string> arguments() const {
    if (!on_command_line) return {};
    return {std::to_string(blocks), std::to_string(threads_per_block)};
  }
  std::string describe() const {
    return std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of " +
           std::to_string(threads_per_block) + (threads_per_block == 1 ? " thread" : " threads");
  }
  std::string command() const {
    std::string text = "hello_kernels";
    for (const std::string& argument : arguments()) text += " " + argument;
    return on_command_line ? text : text + " (no arguments)";
  }
};

// The seed course's launch, which the program must make when given no arguments.
constexpr int kSeedBlocks = 4, kSeedThreadsPerBlock = 16;

Shape hidden_shape(std::uint64_t seed) {
  course::Rng rng(seed);
  Shape shape;
  shape.blocks = static_cast<int>(rng.uniform_int(kHiddenMinBlocks, kHiddenMaxBlocks));
  shape.threads_per_block = static_cast<int>(rng.uniform_int(kHiddenMinThreads, kHiddenMaxThreads));
  return shape;
}

// ---------------------------------------------------------------------------
// Reading the output
// ---------------------------------------------------------------------------
struct HelloLine {
  long long block = 0, thread = 0, global_index = 0;
  std::string text;
};

struct Output {
  std::vector<HelloLine> hellos;       // lines in the hello format
  std::vector<std::string> malformed;  // start like a hello line, but do not follow the format
  std::vector<std::string> others;     // everything else, compute-sanitizer's lines excluded
  long long hello_like() const { return static_cast<long long>(hellos.size() + malformed.size()); }
};

bool read_literal(std::string_view line, std::size_t& at, std::string_view literal) {
  if (line.substr(at, literal.size()) != literal) return false;
  at += literal.size();
  return true;
}

// A decimal integer, possibly negative (a wrong program may print one); no '+', no spaces.
bool read_integer(std::string_view line, std::size_t& at, long long& value) {
  const char* begin = line.data() + at;
  const char* end = line.data() + line.size();
  const auto [stop, status] = std::from_chars(begin, end, value);
  if (status != std::errc()) return false;
  at += static_cast<std::size_t>(stop - begin);
  return true;
}

std::optional<HelloLine> parse_hello(std::string_view line) {
  HelloLine hello;
  std::size_t at = 0;
  const bool ok = read_literal(line, at, "Hello from block ") &&
                  read_integer(line, at, hello.block) && read_literal(line, at, ", thread ") &&
                  read_integer(line, at, hello.thread) &&
                  read_literal(line, at, ", global index ") &&
                  read_integer(line, at, hello.global_index) && at == line.size();
  if (!ok) return std::nullopt;
  hello.text = std::string(line);
  return hello;
}

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

Output read_output(const std::string& text) {
  Output output;
  for (const std::string& printed : course::check::program_lines(text)) {
    const std::string_view line = trim(printed);
    if (line.substr(0, kHelloStart.size()) != kHelloStart) {
      output.others.emplace_back(line);
    } else if (auto hello = parse_hello(line)) {
      output.hellos.push_back(std::move(*hello));
    } else {
      output.malformed.emplace_back(line);
    }
  }
  return output;
}

std::string shown(const std::string& line) {
  if (line.size() <= kLongestLineShown) return "'" + line + "'";
  return "'" + line.substr(0, kLongestLineShown) + "...' (" + std::to_string(line.size()) +
         " characters)";
}

std::string plural(long long count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// ---------------------------------------------------------------------------
// How the program ended
// ---------------------------------------------------------------------------

bool mentions_a_cuda_error(const Output& output) {
  for (const std::string& line : output.others) {
    // The error's name (cudaGetErrorName) or the texts of the two errors a bad shape
    // gives (cudaGetErrorString): a grid or block that is empty or too large.
    if (line.find("cudaError") != std::string::npos ||
        line.find("invalid configuration argument") != std::string::npos ||
        line.find("invalid argument") != std::string::npos) {
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------
// A valid shape: one line per thread, nothing more, nothing less
// ---------------------------------------------------------------------------
struct Tally {
  long long expected = 0;
  long long missing = 0, duplicated = 0, wrong_index = 0, out_of_range = 0;
  std::vector<std::string> missing_examples, duplicated_examples, wrong_index_examples,
      out_of_range_examples;
  // What the wrong lines have in common, to name the likely mistake.
  bool every_line_fits_swapped_shape = true;  // block < threads_per_block, thread < blocks
  bool out_of_range_show_block_size = true;   // thread == blockDim.x
  bool wrong_index_is_thread_only = true;     // G == T
  bool wrong_index_uses_block_count = true;   // G == B * blocks + T
};

Tally tally(const Output& output, const Shape& shape) {
  Tally t;
  t.expected = shape.threads();
  const long long blocks = shape.blocks, threads = shape.threads_per_block;
  std::vector<int> times_printed(static_cast<std::size_t>(t.expected), 0);
  for (const HelloLine& line : output.hellos) {
    const long long b = line.block, thread = line.thread, g = line.global_index;
    if (!(b >= 0 && b < threads && thread >= 0 && thread < blocks)) {
      t.every_line_fits_swapped_shape = false;
    }
    if (!(b >= 0 && b < blocks && thread >= 0 && thread < threads)) {
      ++t.out_of_range;
      if (thread != threads) t.out_of_range_show_block_size = false;
      const std::string example = shown(line.text);
      if (t.out_of_range_examples.size() < kExamplesShown &&
          std::find(t.out_of_range_examples.begin(), t.out_of_range_examples.end(), example) ==
              t.out_of_range_examples.end()) {
        t.out_of_range_examples.push_back(example);
      }
      continue;
    }
    ++times_printed[static_cast<std::size_t>(b * threads + thread)];
    const long long right = b * threads + thread;
    if (g != right) {
      ++t.wrong_index;
      if (g != thread) t.wrong_index_is_thread_only = false;
      if (g != b * blocks + thread) t.wrong_index_uses_block_count = false;
      if (t.wrong_index_examples.size() < kExamplesShown) {
        t.wrong_index_examples.push_back(
            "block " + std::to_string(b) + ", thread " + std::to_string(thread) +
            ": global index " + std::to_string(g) + " (expected " + std::to_string(right) + ")");
      }
    }
  }
  for (long long i = 0; i < t.expected; ++i) {
    const int count = times_printed[static_cast<std::size_t>(i)];
    const std::string who =
        "block " + std::to_string(i / threads) + ", thread " + std::to_string(i % threads);
    if (count == 0) {
      ++t.missing;
      if (t.missing_examples.size() < kExamplesShown) t.missing_examples.push_back(who);
    } else if (count > 1) {
      ++t.duplicated;
      if (t.duplicated_examples.size() < kExamplesShown) {
        t.duplicated_examples.push_back(who + " (" + std::to_string(count) + " times)");
      }
    }
  }
  return t;
}

std::string joined(const std::vector<std::string>& items, long long total) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
  if (total > static_cast<long long>(items.size())) text += "; ...";
  return text;
}

void check_valid_shape(CaseContext& c, const Shape& shape) {
  const Run run = c.run_program(shape.arguments());
  if (!c.ended_by_itself(run, "`" + shape.command() + "`")) return;
  const Output output = read_output(run.child.output);
  const int status = run.child.exit_code;
  if (status != kExitSuccess) {
    c.fail("`" + shape.command() + "` exited with status " + std::to_string(status) +
           ", expected 0 (" + shape.describe() + " is a valid launch); its output began:\n" +
           course::check::indent_excerpt(run.child.output, 10));
    if (status == kExitUsage) {
      c.hint("the program rejected its command line: `hello_kernels BLOCKS THREADS` takes two "
             "non-negative integers, and no arguments means 4 blocks of 16 threads.");
    } else if (mentions_a_cuda_error(output)) {
      c.hint("a CUDA call failed on a valid shape: read the error above, it names the call.");
    }
    return;
  }

  const Tally t = tally(output, shape);
  const long long found = output.hello_like();
  const bool malformed = !output.malformed.empty();
  if (t.missing == 0 && t.duplicated == 0 && t.wrong_index == 0 && t.out_of_range == 0 &&
      !malformed) {
    return;  // every thread printed its line once, and nothing else did
  }

  std::string report = "`" + shape.command() + "`: expected " +
                       plural(t.expected, "hello line", "hello lines") + " (" + shape.describe() +
                       "), found " + std::to_string(found);
  if (t.missing > 0 && !output.hellos.empty()) {
    report += "\n  " + plural(t.missing, "thread", "threads") +
              " printed nothing, e.g.: " + joined(t.missing_examples, t.missing);
  }
  if (t.duplicated > 0) {
    report += "\n  " + plural(t.duplicated, "thread", "threads") +
              " printed more than once, e.g.: " + joined(t.duplicated_examples, t.duplicated);
  }
  if (t.wrong_index > 0) {
    report += "\n  " + plural(t.wrong_index, "line has", "lines have") +
              " a wrong global index, e.g.: " + joined(t.wrong_index_examples, t.wrong_index);
  }
  if (t.out_of_range > 0) {
    report += "\n  " + plural(t.out_of_range, "line names", "lines name") +
              " a block or thread outside the launch (blocks 0.." +
              std::to_string(shape.blocks - 1) + ", threads 0.." +
              std::to_string(shape.threads_per_block - 1) +
              "), e.g.: " + joined(t.out_of_range_examples, t.out_of_range);
  }
  if (malformed) {
    const long long count = static_cast<long long>(output.malformed.size());
    report += "\n  " + plural(count, "line starts", "lines start") + " with '" +
              std::string(kHelloStart) + "' but " + (count == 1 ? "does" : "do") +
              " not follow the format '" + std::string(kHelloFormat) +
              "', e.g.: " + shown(output.malformed.front());
  }
  if (found == 0) {
    report += "\n  the program printed:\n" +
              (run.child.output.empty() ? std::string("  | (nothing)\n")
                                        : course::check::indent_excerpt(run.child.output, 10));
  }
  if (run.child.output_bytes > run.child.output.size()) {
    report += "\n  (only the first " + std::to_string(run.child.output.size()) + " of " +
              std::to_string(run.child.output_bytes) + " bytes of output were read)";
  }
  c.fail(report);

  // The likely mistake, most telling evidence first.
  if (found == 0) {
    c.hint(kNoLinesHint);
    return;
  }
  if (malformed) {
    bool run_together = false;
    for (const std::string& line : output.malformed) {
      run_together = run_together || line.find(kHelloStart, 1) != std::string::npos;
    }
    c.hint(run_together ? kRunTogetherHint : kFormatHint);
  }
  const bool swapped = t.out_of_range > 0 && t.every_line_fits_swapped_shape &&
                       shape.blocks != shape.threads_per_block;
  if (swapped) {
    c.hint(kSwappedHint);
  } else if (t.out_of_range > 0) {
    c.hint(t.out_of_range_show_block_size ? kBlockSizeAsThreadHint : kOutOfRangeHint);
  }
  if (t.wrong_index > 0 && !swapped) {
    if (t.wrong_index_is_thread_only) {
      c.hint(kNoBlockOffsetHint);
    } else if (t.wrong_index_uses_block_count) {
      c.hint(kGridSizeHint);
    } else {
      c.hint(kIndexFormulaHint);
    }
  }
  if (t.duplicated > 0 && t.out_of_range == 0) c.hint(kDuplicatesHint);
  if (t.missing > 0 && t.duplicated == 0 && t.wrong_index == 0 && t.out_of_range == 0 &&
      !malformed) {
    c.hint(kSomeLinesMissingHint);
  }
}

// ---------------------------------------------------------------------------
// An invalid shape: the launch fails, the program says so and exits with status 1
// ---------------------------------------------------------------------------
void check_invalid_shape(CaseContext& c, const Shape& shape, const std::string& why_invalid) {
  const Run run = c.run_program(shape.arguments());
  if (!c.ended_by_itself(run, "`" + shape.command() + "`")) return;
  const Output output = read_output(run.child.output);
  const int status = run.child.exit_code;
  const long long printed = output.hello_like();
  const bool names_error = mentions_a_cuda_error(output);
  if (status == kExitCudaError && printed == 0 && names_error) return;

  const std::string expectation = "`" + shape.command() + "` must fail to launch (" + why_invalid +
                                  "), print the CUDA error and exit with status 1";
  if (status == kExitSuccess) {
    c.fail(expectation + "; it exited with status 0 " +
           (printed == 0 ? std::string("and printed no hello line")
                         : "after printing " + plural(printed, "hello line", "hello lines")));
    if (printed == 0) {
      c.hint(kUncheckedLaunchHint);
    } else if (shape.blocks == 1) {
      // A valid swapped launch: <<<2048, 1>>> runs where <<<1, 2048>>> cannot.
      c.hint(kSwappedHint);
    } else {
      c.hint(kOutOfRangeHint);
    }
    return;
  }
  if (status == kExitCudaError) {
    if (printed > 0) {
      c.fail(expectation + "; it did exit with status 1, but only after printing " +
             plural(printed, "hello line", "hello lines") + ", which no thread can print");
      c.hint(kOutOfRangeHint);
    } else {
      c.fail(expectation + "; it exited with status 1 but printed no CUDA error; its output:\n" +
             (run.child.output.empty() ? std::string("  | (nothing)\n")
                                       : course::check::indent_excerpt(run.child.output, 10)));
      c.hint(kPrintTheErrorHint);
    }
    return;
  }
  c.fail(expectation + "; it exited with status " + std::to_string(status) + "; its output:\n" +
         (run.child.output.empty() ? std::string("  | (nothing)\n")
                                   : course::check::indent_excerpt(run.child.output, 10)));
  if (status == kExitUsage) {
    c.hint("the program rejected its command line: the given argument parsing accepts any "
           "non-negative count, so that the launch itself reports the bad shape.");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto valid = [](int blocks, int threads_per_block) {
    return [=](CaseContext& c) { check_valid_shape(c, Shape{blocks, threads_per_block}); };
  };
  const std::string too_many_threads =
      "a block has at most " + std::to_string(kMaxThreadsPerBlock) + " threads";
  course::check::Exercise exercise{
      "02",
      "hello_kernels",
      {
          {"one_block_of_one_thread", 1, valid(1, 1)},
          {"one_block_of_16_threads", 1, valid(1, 16)},
          {"seed_default_4_blocks_of_16", 2,
           [](CaseContext& c) {
             check_valid_shape(c, Shape{kSeedBlocks, kSeedThreadsPerBlock, false});
           }},
          {"3_blocks_of_100_threads", 2, valid(3, 100)},
          {"13_blocks_of_37_threads", 2, valid(13, 37)},
          {"2_blocks_of_1024_threads", 2, valid(2, kMaxThreadsPerBlock)},
          {"hidden_shape_from_seed", 1,
           [](CaseContext& c) { check_valid_shape(c, hidden_shape(c.seed())); },
           course::check::kHiddenCase},
          {"rejects_2048_threads_per_block", 2,
           [too_many_threads](CaseContext& c) {
             check_invalid_shape(c, Shape{1, 2 * kMaxThreadsPerBlock}, too_many_threads);
           }},
          {"rejects_zero_blocks", 2,
           [](CaseContext& c) {
             check_invalid_shape(c, Shape{0, kSeedThreadsPerBlock},
                                 "a grid needs at least one block");
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
