// Exercise 02 - the check. Runs the student's whole program for several launch shapes
// and reads what it prints: for a valid shape, every thread of the grid must print its
// one hello line and nothing else may claim to be one; for an invalid shape, the
// program must report the CUDA error and exit with status 1. Contains no student code.
//
//   make check-02                          (students)
//   build/.../check_02 --program PROGRAM   (instructors; --help lists the options)
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
using course::check::Message;
const Message kNoLinesHint{
    "no hello line at all: does hello_kernel print its line, is it launched, and does the "
    "host wait for the kernel with CUDA_CHECK(cudaDeviceSynchronize()) before main returns? "
    "A launch returns at once, and device printf output reaches the screen only when the "
    "host synchronizes.",
    "aucune ligne hello : hello_kernel affiche-t-il sa ligne, est-il lancé, et l'hôte "
    "attend-il le kernel avec CUDA_CHECK(cudaDeviceSynchronize()) avant la fin de main ? "
    "Un lancement rend la main aussitôt, et les printf du GPU n'arrivent à l'écran que quand "
    "l'hôte se synchronise."};
const Message kSomeLinesMissingHint{
    "some threads printed nothing: is the grid exactly <<<blocks, threads_per_block>>> as "
    "given on the command line, and does the host wait for the kernel "
    "(cudaDeviceSynchronize()) before main returns?",
    "certains threads n'ont rien affiché : la grille est-elle exactement "
    "<<<blocks, threads_per_block>>> comme donné sur la ligne de commande, et l'hôte "
    "attend-il le kernel (cudaDeviceSynchronize()) avant la fin de main ?"};
const Message kSwappedHint{
    "blocks and threads look swapped in <<<...>>>: the first number is the number of blocks, "
    "the second the number of threads in each block.",
    "les blocs et les threads semblent inversés dans <<<...>>> : le premier nombre est le "
    "nombre de blocs, le second le nombre de threads de chaque bloc."};
const Message kBlockSizeAsThreadHint{
    "the lines outside the launch show a thread number equal to the block size: print "
    "threadIdx.x (this thread's place in its block), not blockDim.x (the size of every block).",
    "les lignes hors du lancement montrent un numéro de thread égal à la taille du bloc : "
    "affichez threadIdx.x (la place de ce thread dans son bloc), pas blockDim.x (la taille de "
    "chaque bloc)."};
const Message kOutOfRangeHint{
    "lines name blocks or threads that this launch does not have: launch exactly "
    "<<<blocks, threads_per_block>>> from the command line, and print blockIdx.x and "
    "threadIdx.x as they are.",
    "des lignes nomment des blocs ou des threads que ce lancement n'a pas : lancez exactement "
    "<<<blocks, threads_per_block>>> d'après la ligne de commande, et affichez blockIdx.x et "
    "threadIdx.x tels quels."};
const Message kNoBlockOffsetHint{
    "the global index forgets the block offset: it is blockIdx.x * blockDim.x + threadIdx.x, "
    "so that block 1 starts where block 0 ends.",
    "l'indice global oublie le décalage du bloc : il vaut blockIdx.x * blockDim.x + "
    "threadIdx.x, pour que le bloc 1 commence où finit le bloc 0."};
const Message kGridSizeHint{
    "the global index multiplies blockIdx.x by the number of blocks (gridDim.x): multiply it "
    "by the size of a block, blockDim.x.",
    "l'indice global multiplie blockIdx.x par le nombre de blocs (gridDim.x) : multipliez-le "
    "par la taille d'un bloc, blockDim.x."};
const Message kIndexFormulaHint{"the global index is blockIdx.x * blockDim.x + threadIdx.x.",
                                "l'indice global vaut blockIdx.x * blockDim.x + threadIdx.x."};
const Message kDuplicatesHint{
    "each thread must print exactly one line: is the printf in a loop, or the kernel launched "
    "more than once?",
    "chaque thread doit afficher exactement une ligne : le printf est-il dans une boucle, ou le "
    "kernel lancé plus d'une fois ?"};
const Message kRunTogetherHint{
    "several hello lines ran together on one line: end the printf format with a newline.",
    "plusieurs lignes hello se sont collées sur une seule ligne : terminez le format du printf "
    "par un retour à la ligne."};
const Message kFormatHint{
    "print exactly \"Hello from block %d, thread %d, global index %d\" and a newline, with "
    "nothing else on the line.",
    "affichez exactement \"Hello from block %d, thread %d, global index %d\" et un retour à la "
    "ligne, sans rien d'autre sur la ligne."};
const Message kUncheckedLaunchHint{
    "the failed launch went unnoticed: call CUDA_CHECK_LAUNCH() right after the launch. An "
    "invalid launch configuration returns no error by itself: it is only reported by "
    "cudaGetLastError(), which that macro reads.",
    "le lancement raté est passé inaperçu : appelez CUDA_CHECK_LAUNCH() juste après le "
    "lancement. Une configuration de lancement invalide ne rend aucune erreur d'elle-même : "
    "seul cudaGetLastError() la signale, et cette macro le lit."};
const Message kPrintTheErrorHint{
    "print the CUDA error: CUDA_CHECK_LAUNCH() prints the error's name and text before it "
    "exits with status 1.",
    "affichez l'erreur CUDA : CUDA_CHECK_LAUNCH() affiche le nom et le texte de l'erreur avant "
    "de quitter avec le code 1."};

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
  Message describe() const {
    return Message{"{} {} of {} {}", "{} {} de {} {}"}.with(
        blocks, blocks == 1 ? Message{"block", "bloc"} : Message{"blocks", "blocs"},
        threads_per_block, Message::verbatim(threads_per_block == 1 ? "thread" : "threads"));
  }
  // The command, between backquotes.
  Message command() const {
    std::string text = "hello_kernels";
    for (const std::string& argument : arguments()) text += " " + argument;
    if (on_command_line) return Message::verbatim("`" + text + "`");
    return Message{"`{}` (no arguments)", "`{}` (sans arguments)"}.with(text);
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

// A line as the report shows it, in the chosen language (the language is chosen once).
std::string shown(const std::string& line) {
  if (line.size() <= kLongestLineShown) return "'" + line + "'";
  return Message{"'{}...' ({} characters)", "'{}...' ({} caractères)"}
      .with(line.substr(0, kLongestLineShown), line.size())
      .text();
}

Message plural(long long count, const Message& one, const Message& many) {
  return Message::verbatim(std::to_string(count) + " ") + (count == 1 ? one : many);
}

const Message kHelloLine{"hello line", "ligne hello"}, kHelloLines{"hello lines", "lignes hello"};

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
            Message{"block {}, thread {}: global index {} (expected {})",
                    "bloc {}, thread {} : indice global {} (attendu {})"}
                .with(b, thread, g, right)
                .text());
      }
    }
  }
  for (long long i = 0; i < t.expected; ++i) {
    const int count = times_printed[static_cast<std::size_t>(i)];
    const std::string who =
        Message{"block {}, thread {}", "bloc {}, thread {}"}.with(i / threads, i % threads).text();
    if (count == 0) {
      ++t.missing;
      if (t.missing_examples.size() < kExamplesShown) t.missing_examples.push_back(who);
    } else if (count > 1) {
      ++t.duplicated;
      if (t.duplicated_examples.size() < kExamplesShown) {
        t.duplicated_examples.push_back(
            Message{"{} ({} times)", "{} ({} fois)"}.with(who, count).text());
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
  if (!c.ended_by_itself(run, shape.command())) return;
  const Output output = read_output(run.child.output);
  const int status = run.child.exit_code;
  if (status != kExitSuccess) {
    c.fail(Message{"{} exited with status {}, expected 0 ({} is a valid launch); its output "
                   "began:\n{}",
                   "{} s'est terminé avec le code {} au lieu de 0 ({} est un lancement valide) ; "
                   "sa sortie commençait par :\n{}"}
               .with(shape.command(), status, shape.describe(),
                     course::check::indent_excerpt(run.child.output, 10)));
    if (status == kExitUsage) {
      c.hint({"the program rejected its command line: `hello_kernels BLOCKS THREADS` takes two "
              "non-negative integers, and no arguments means 4 blocks of 16 threads.",
              "le programme a refusé sa ligne de commande : `hello_kernels BLOCKS THREADS` prend "
              "deux entiers positifs ou nuls, et sans arguments il lance 4 blocs de 16 threads."});
    } else if (mentions_a_cuda_error(output)) {
      c.hint({"a CUDA call failed on a valid shape: read the error above, it names the call.",
              "un appel CUDA a échoué sur une forme valide : lisez l'erreur plus haut, elle nomme "
              "l'appel."});
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

  const Message threads_word = Message::verbatim("thread");
  const Message threads_words = Message::verbatim("threads");
  Message report =
      Message{"{}: expected {} ({}), found {}", "{} : attendu {} ({}), trouvé {}"}.with(
          shape.command(), plural(t.expected, kHelloLine, kHelloLines), shape.describe(), found);
  if (t.missing > 0 && !output.hellos.empty()) {
    report +=
        Message{"\n  {} printed nothing, e.g.: {}", "\n  {} n'ont rien affiché, par ex. : {}"}.with(
            plural(t.missing, threads_word, threads_words), joined(t.missing_examples, t.missing));
  }
  if (t.duplicated > 0) {
    report += Message{"\n  {} printed more than once, e.g.: {}",
                      "\n  {} ont affiché plus d'une fois, par ex. : {}"}
                  .with(plural(t.duplicated, threads_word, threads_words),
                        joined(t.duplicated_examples, t.duplicated));
  }
  if (t.wrong_index > 0) {
    report +=
        Message{"\n  {} a wrong global index, e.g.: {}",
                "\n  {} un indice global faux, par ex. : {}"}
            .with(plural(t.wrong_index, {"line has", "ligne a"}, {"lines have", "lignes ont"}),
                  joined(t.wrong_index_examples, t.wrong_index));
  }
  if (t.out_of_range > 0) {
    report += Message{"\n  {} a block or thread outside the launch (blocks 0..{}, threads 0..{}), "
                      "e.g.: {}",
                      "\n  {} un bloc ou un thread hors du lancement (blocs 0..{}, threads "
                      "0..{}), par ex. : {}"}
                  .with(plural(t.out_of_range, {"line names", "ligne nomme"},
                               {"lines name", "lignes nomment"}),
                        shape.blocks - 1, shape.threads_per_block - 1,
                        joined(t.out_of_range_examples, t.out_of_range));
  }
  if (malformed) {
    const long long count = static_cast<long long>(output.malformed.size());
    report += Message{"\n  {} with '{}' but {} not follow the format '{}', e.g.: {}",
                      "\n  {} par '{}' sans {} le format '{}', par ex. : {}"}
                  .with(plural(count, {"line starts", "ligne commence"},
                               {"lines start", "lignes commencent"}),
                        std::string(kHelloStart),
                        count == 1 ? Message{"does", "suivre"} : Message{"do", "suivre"},
                        std::string(kHelloFormat), shown(output.malformed.front()));
  }
  if (found == 0) {
    report += Message{"\n  the program printed:\n{}", "\n  le programme a affiché :\n{}"}.with(
        run.child.output.empty() ? std::string("  | (nothing)\n")
                                 : course::check::indent_excerpt(run.child.output, 10));
  }
  if (run.child.output_bytes > run.child.output.size()) {
    report += Message{"\n  (only the first {} of {} bytes of output were read)",
                      "\n  (seuls les {} premiers octets sur {} de la sortie ont été lus)"}
                  .with(run.child.output.size(), run.child.output_bytes);
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
void check_invalid_shape(CaseContext& c, const Shape& shape, const Message& why_invalid) {
  const Run run = c.run_program(shape.arguments());
  if (!c.ended_by_itself(run, shape.command())) return;
  const Output output = read_output(run.child.output);
  const int status = run.child.exit_code;
  const long long printed = output.hello_like();
  const bool names_error = mentions_a_cuda_error(output);
  if (status == kExitCudaError && printed == 0 && names_error) return;

  const Message expectation =
      Message{"{} must fail to launch ({}), print the CUDA error and exit with status 1",
              "{} doit échouer à lancer ({}), afficher l'erreur CUDA et quitter avec le code 1"}
          .with(shape.command(), why_invalid);
  const Message program_output = Message::verbatim(
      run.child.output.empty() ? std::string("  | (nothing)\n")
                               : course::check::indent_excerpt(run.child.output, 10));
  if (status == kExitSuccess) {
    c.fail(expectation +
           (printed == 0
                ? Message{"; it exited with status 0 and printed no hello line",
                          " ; il s'est terminé avec le code 0 sans afficher de ligne hello"}
                : Message{"; it exited with status 0 after printing {}",
                          " ; il s'est terminé avec le code 0 après avoir affiché {}"}
                      .with(plural(printed, kHelloLine, kHelloLines))));
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
      c.fail(expectation +
             Message{"; it did exit with status 1, but only after printing {}, which no thread can "
                     "print",
                     " ; il s'est bien terminé avec le code 1, mais après avoir affiché {}, "
                     "qu'aucun thread ne peut afficher"}
                 .with(plural(printed, kHelloLine, kHelloLines)));
      c.hint(kOutOfRangeHint);
    } else {
      c.fail(expectation +
             Message{"; it exited with status 1 but printed no CUDA error; its output:\n{}",
                     " ; il s'est terminé avec le code 1 sans afficher d'erreur CUDA ; sa "
                     "sortie :\n{}"}
                 .with(program_output));
      c.hint(kPrintTheErrorHint);
    }
    return;
  }
  c.fail(expectation + Message{"; it exited with status {}; its output:\n{}",
                               " ; il s'est terminé avec le code {} ; sa sortie :\n{}"}
                           .with(status, program_output));
  if (status == kExitUsage) {
    c.hint({"the program rejected its command line: the given argument parsing accepts any "
            "non-negative count, so that the launch itself reports the bad shape.",
            "le programme a refusé sa ligne de commande : la lecture des arguments fournie "
            "accepte tout nombre positif ou nul, pour que le lancement lui-même signale la "
            "mauvaise forme."});
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto valid = [](int blocks, int threads_per_block) {
    return [=](CaseContext& c) { check_valid_shape(c, Shape{blocks, threads_per_block}); };
  };
  const Message too_many_threads =
      Message{"a block has at most {} threads", "un bloc a au plus {} threads"}.with(
          kMaxThreadsPerBlock);
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
                                 {"a grid needs at least one block",
                                  "une grille demande au moins un bloc"});
           }},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
