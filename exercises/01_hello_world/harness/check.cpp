// Exercise 01 - the check. Runs the student's whole program, reads what it printed,
// and compares it with what this process learns from the CUDA runtime itself.
// Contains no student code.
//
//   make check-01                          (students)
//   build/.../check_01 --program PROGRAM   (instructors; --help lists the options)
//
// Every case but the last runs the program with every device visible and requires it
// to end by itself with status 0; the last hides every GPU and requires the clean
// "No CUDA device found" message and status 1.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/device_info.hpp"

namespace {

using course::DeviceSummary;
using course::check::CaseContext;
using course::check::ChildResult;
using course::check::Message;
using course::check::Run;

// ---------------------------------------------------------------------------
// What the program must print (README.md, "What to do")
// ---------------------------------------------------------------------------
const std::string kGreeting = "Hello, world from the host!";
const std::string kNoDevicePrefix = "No CUDA device found";
// Every error name from cudaGetErrorName starts with this (cudaErrorNoDevice, ...).
const std::string kErrorNamePrefix = "cudaError";
const std::string kCapabilityKey = "compute capability";
const std::string kMultiprocessorsKey = "multiprocessors";
const std::string kMemoryKey = "global memory";
const std::string kMemoryUnit = "GiB";
constexpr int kMemoryDecimals = 2;
constexpr int kExitNoDevice = EXIT_FAILURE;

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBytesPerGB = 1e9;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;
// The figure has two decimals; 0.01 GiB accepts either rounding of the last one, so a
// float division or a different but correct rounding still passes.
constexpr double kMemoryToleranceGiB = 0.01;

// An empty CUDA_VISIBLE_DEVICES hides every GPU from the CUDA runtime of the child.
const std::vector<std::string> kHideEveryDevice = {"CUDA_VISIBLE_DEVICES="};
// What CUDA_CHECK prints (course/errors.hpp) when it stops on cudaGetDeviceCount.
const std::string kCheckedDeviceCountCall = "call:  cudaGetDeviceCount";

// ---------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------
bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr const char* kBlanks = " \t\r\n";

std::string trim_right(const std::string& text) {
  const auto last = text.find_last_not_of(kBlanks);
  return last == std::string::npos ? "" : text.substr(0, last + 1);
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(kBlanks);
  return first == std::string::npos ? "" : trim_right(text.substr(first));
}

std::string lowercase(std::string text) {
  for (char& ch : text) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return text;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// "the program printed nothing", or the start of what it printed, indented.
Message describe_output(const std::vector<std::string>& lines) {
  if (lines.empty()) return {"the program printed nothing", "le programme n'a rien affiché"};
  return Message{"the program printed:\n{}", "le programme a affiché :\n{}"}.with(
      course::check::indent_excerpt(join_lines(lines)));
}

// The first line that starts with `prefix` once trimmed, trimmed; empty when none does.
std::string first_line_starting_with(const std::vector<std::string>& lines,
                                     const std::string& prefix) {
  for (const std::string& line : lines) {
    if (starts_with(trim(line), prefix)) return trim(line);
  }
  return "";
}

bool has_line(const std::vector<std::string>& lines, const std::string& wanted) {
  for (const std::string& line : lines) {
    if (trim(line) == wanted) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// The devices, as this process sees them: the truth the program is compared with.
// The program inherits this process's environment, so it sees the same devices.
// ---------------------------------------------------------------------------
const std::vector<DeviceSummary>& true_devices() {
  static const std::vector<DeviceSummary> devices = [] {
    std::vector<DeviceSummary> found;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) return found;
    for (int device = 0; device < count; ++device) found.push_back(course::query_device(device));
    return found;
  }();
  return devices;
}

std::string expected_capability(const DeviceSummary& device) {
  return std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
}

double memory_in(const DeviceSummary& device, double bytes_per_unit) {
  return static_cast<double>(device.global_memory_bytes) / bytes_per_unit;
}

std::string format_number(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_memory(double value) { return format_number(value, kMemoryDecimals); }

// ---------------------------------------------------------------------------
// Parsing the device blocks
// ---------------------------------------------------------------------------
// One "Device <index>: <name>" line and the "<key>: <value>" lines under it, up to the
// next device line.
struct DeviceBlock {
  int index = -1;
  std::string name;
  std::vector<std::string> lines;             // as printed, for reports
  std::map<std::string, std::string> fields;  // key -> value; the first one printed wins
};

// Reads "Device 12" into 12.
bool parse_device_key(const std::string& key, int& index) {
  const std::string prefix = "Device ";
  if (!starts_with(key, prefix)) return false;
  const std::string digits = key.substr(prefix.size());
  if (digits.empty() || digits.size() > 6) return false;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return false;
  }
  index = std::stoi(digits);
  return true;
}

std::vector<DeviceBlock> parse_device_blocks(const std::vector<std::string>& lines) {
  std::vector<DeviceBlock> blocks;
  for (const std::string& line : lines) {
    const auto colon = line.find(':');
    const std::string key = trim(line.substr(0, colon));
    const std::string value = colon == std::string::npos ? "" : trim(line.substr(colon + 1));
    int index = -1;
    if (colon != std::string::npos && parse_device_key(key, index)) {
      DeviceBlock block;
      block.index = index;
      block.name = value;
      block.lines.push_back(line);
      blocks.push_back(block);
      continue;
    }
    if (blocks.empty()) continue;
    blocks.back().lines.push_back(line);
    if (colon != std::string::npos) blocks.back().fields.emplace(key, value);
  }
  return blocks;
}

const DeviceBlock* find_block(const std::vector<DeviceBlock>& blocks, int index) {
  for (const DeviceBlock& block : blocks) {
    if (block.index == index) return &block;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Running the program
// ---------------------------------------------------------------------------
// Explains a run that did not end by itself (time limit, signal) or ended with an
// unexpected status, with the start of what it printed and the likely cause.
void report_bad_end(CaseContext& c, const Run& run, const Message& setting, int wanted_status) {
  const ChildResult& child = run.child;
  const std::vector<std::string> lines = course::check::program_lines(child.output);
  c.fail(Message{"{}, the program {}; expected it to end with status {}\n{}",
                 "{}, le programme {} ; il devait se terminer avec le code {}\n{}"}
             .with(setting, course::check::how_it_ended(child), wanted_status,
                   describe_output(lines)));
  if (child.timed_out) {
    c.hint({"the program must end by itself: a loop that never ends, or a wait for input?",
            "le programme doit se terminer de lui-même : une boucle sans fin, ou une attente "
            "d'entrée ?"});
  } else if (!child.exited) {
    c.hint({"a crash on the host: give the runtime the address of your variables "
            "(&count, &properties), never an uninitialised pointer.",
            "un plantage sur l'hôte : donnez au runtime l'adresse de vos variables "
            "(&count, &properties), jamais un pointeur non initialisé."});
  } else if (contains(child.output, "cudaErrorInvalidDevice")) {
    c.hint({"a device index out of range: devices are numbered 0 to count - 1.",
            "un numéro de GPU hors bornes : les GPU sont numérotés de 0 à count - 1."});
  } else if (wanted_status == EXIT_SUCCESS && contains(child.output, kNoDevicePrefix)) {
    c.hint(Message{"the program found no device, but this check sees {}: call "
                   "cudaGetDeviceCount(&count) before reading count, and compare its status "
                   "with cudaSuccess.",
                   "le programme n'a trouvé aucun GPU, mais ce correcteur en voit {} : appelez "
                   "cudaGetDeviceCount(&count) avant de lire count, et comparez son statut à "
                   "cudaSuccess."}
               .with(true_devices().size()));
  } else if (contains(child.output, "CUDA runtime error")) {
    c.hint({"a CUDA call failed: the lines printed above name the call and the error.",
            "un appel CUDA a échoué : les lignes affichées plus haut nomment l'appel et "
            "l'erreur."});
  } else if (wanted_status == EXIT_SUCCESS) {
    c.hint({"main must return EXIT_SUCCESS (0) once every device has been described.",
            "main doit rendre EXIT_SUCCESS (0) une fois chaque GPU décrit."});
  }
}

// Runs the program as a student would, every device visible. Returns its lines when it
// ended by itself with status 0; otherwise fails the case, says why, returns nothing.
std::optional<std::vector<std::string>> run_with_devices(CaseContext& c) {
  const Run run = c.run_program({});
  if (run.sanitizer_errors || run.child.output_limit_hit) return std::nullopt;  // reported
  if (!run.child.exited || run.child.exit_code != EXIT_SUCCESS) {
    report_bad_end(c, run, {"with every device visible", "avec chaque GPU visible"}, EXIT_SUCCESS);
    return std::nullopt;
  }
  return course::check::program_lines(run.child.output);
}

// Runs the program and hands each true device's block to `check_block`; a device with
// no block fails the case.
using BlockCheck = std::function<void(CaseContext&, const DeviceSummary&, const DeviceBlock&)>;

void check_every_device(CaseContext& c, const BlockCheck& check_block) {
  const auto lines = run_with_devices(c);
  if (!lines) return;
  const std::vector<DeviceBlock> blocks = parse_device_blocks(*lines);
  bool output_shown = false;
  for (const DeviceSummary& truth : true_devices()) {
    const DeviceBlock* block = find_block(blocks, truth.index);
    if (block != nullptr) {
      check_block(c, truth, *block);
      continue;
    }
    const std::string header = "Device " + std::to_string(truth.index) + ":";
    Message message = Message{"expected a block headed {}, found no line starting {}",
                              "attendu un bloc commençant par {}, aucune ligne ne commence par {}"}
                          .with(quoted(header + " " + truth.name), quoted(header));
    if (!output_shown) message += Message::verbatim("\n") + describe_output(*lines);
    output_shown = true;
    c.fail(message);
    c.hint({"describe every device in a block headed 'Device <index>: <name>' (cudaDeviceProp's "
            "name), indices 0 to count - 1, each followed by its indented lines.",
            "décrivez chaque GPU dans un bloc commençant par 'Device <index>: <name>' (le champ "
            "name de cudaDeviceProp), numéros 0 à count - 1, chacun suivi de ses lignes "
            "indentées."});
  }
}

// The value of `key` in `block`; when there is none the case fails, showing the block.
std::optional<std::string> field(CaseContext& c, const DeviceBlock& block, const std::string& key,
                                 const std::string& expected_value) {
  auto found = block.fields.find(key);
  if (found != block.fields.end()) return found->second;
  c.fail(Message{"under {}, expected the line {}, found no line starting {}; the block holds:\n{}",
                 "sous {}, attendu la ligne {}, aucune ligne ne commence par {} ; le bloc "
                 "contient :\n{}"}
             .with(quoted(trim(block.lines.front())), quoted(key + ": " + expected_value),
                   quoted(key + ":"), course::check::indent_excerpt(join_lines(block.lines))));
  c.hint({"each device block has these lines, in this order and spelled exactly so: 'Device "
          "<index>: <name>', '  compute capability: <major>.<minor>', '  multiprocessors: "
          "<count>', '  global memory: <size> GiB'.",
          "chaque bloc de GPU a ces lignes, dans cet ordre et écrites exactement ainsi : 'Device "
          "<index>: <name>', '  compute capability: <major>.<minor>', '  multiprocessors: "
          "<count>', '  global memory: <size> GiB'."});
  return std::nullopt;
}

// "under 'Device 0: X', expected 'key: A', got 'key: B'"
void fail_field(CaseContext& c, const DeviceBlock& block, const std::string& key,
                const std::string& expected, const std::string& got) {
  c.fail(Message{"under {}, expected {}, got {}", "sous {}, attendu {}, obtenu {}"}.with(
      quoted(trim(block.lines.front())), quoted(key + ": " + expected), quoted(key + ": " + got)));
}

// Reads "79.19 GiB": the number, how many decimals it has, and the unit after it.
struct Quantity {
  std::string number;  // as printed
  double value = 0.0;
  int decimals = 0;
  std::string unit;
};

std::optional<Quantity> parse_quantity(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value)) return std::nullopt;
  Quantity quantity;
  quantity.value = value;
  quantity.number = std::string(begin, static_cast<std::size_t>(end - begin));
  const auto point = quantity.number.find('.');
  if (point != std::string::npos) {
    const auto after_digits = quantity.number.find_first_not_of("0123456789", point + 1);
    const auto stop = after_digits == std::string::npos ? quantity.number.size() : after_digits;
    quantity.decimals = static_cast<int>(stop - point - 1);
  }
  quantity.unit = trim(std::string(end));
  return quantity;
}

bool close_to(double got, double expected) {
  return std::fabs(got - expected) <= kMemoryToleranceGiB;
}

// Loose enough to recognise a figure in another unit printed with any rounding, tight
// enough to tell GB from GiB (7% apart).
constexpr double kSameFigureRelative = 0.005;

bool roughly(double got, double figure) {
  return std::fabs(got - figure) <= kSameFigureRelative * std::fabs(figure);
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------
void check_greeting(CaseContext& c) {
  const auto lines = run_with_devices(c);
  if (!lines) return;
  if (has_line(*lines, kGreeting)) return;
  for (const std::string& line : *lines) {
    if (contains(lowercase(line), "hello")) {
      c.fail(Message{"expected the line {}, the closest line printed was {}",
                     "attendu la ligne {}, la ligne affichée la plus proche était {}"}
                 .with(quoted(kGreeting), quoted(trim(line))));
      c.hint({"print the host greeting exactly as given, capitals, comma and '!' included.",
              "affichez le salut de l'hôte exactement comme donné, majuscules, virgule et '!' "
              "compris."});
      return;
    }
  }
  c.fail(Message{"expected the line {}, found none; {}", "attendu la ligne {}, aucune trouvée ; {}"}
             .with(quoted(kGreeting), describe_output(*lines)));
  c.hint(Message{"print the host greeting first, with printf: {}",
                 "affichez d'abord le salut de l'hôte, avec printf : {}"}
             .with(kGreeting));
}

void check_device_count(CaseContext& c) {
  const auto lines = run_with_devices(c);
  if (!lines) return;
  const std::string expected =
      "Found " + std::to_string(true_devices().size()) + " CUDA device(s).";
  if (has_line(*lines, expected)) return;
  const std::string got = first_line_starting_with(*lines, "Found ");
  if (!got.empty()) {
    c.fail(Message{"expected {}, got {}", "attendu {}, obtenu {}"}.with(quoted(expected),
                                                                        quoted(got)));
    if (starts_with(got, "Found 0 ")) {
      c.hint({"the count stayed 0: pass cudaGetDeviceCount the address of your count (&count), "
              "and check the status of cudaGetDeviceCount.",
              "le nombre est resté 0 : passez à cudaGetDeviceCount l'adresse de votre compteur "
              "(&count), et vérifiez le statut de cudaGetDeviceCount."});
    } else {
      c.hint(Message{"print the count that cudaGetDeviceCount returns, in exactly this form: {}",
                     "affichez le nombre que rend cudaGetDeviceCount, exactement sous cette "
                     "forme : {}"}
                 .with(expected));
    }
    return;
  }
  c.fail(Message{"expected the line {}, found no line starting 'Found '; {}",
                 "attendu la ligne {}, aucune ligne ne commence par 'Found ' ; {}"}
             .with(quoted(expected), describe_output(*lines)));
  c.hint({"after counting the devices, print 'Found <count> CUDA device(s).'",
          "après avoir compté les GPU, affichez 'Found <count> CUDA device(s).'"});
}

void check_device_names(CaseContext& c) {
  const auto lines = run_with_devices(c);
  if (!lines) return;
  const std::vector<DeviceBlock> blocks = parse_device_blocks(*lines);
  const int count = static_cast<int>(true_devices().size());
  bool output_shown = false;
  for (const DeviceSummary& truth : true_devices()) {
    const std::string header = "Device " + std::to_string(truth.index) + ":";
    const std::string expected = header + " " + trim(truth.name);
    const DeviceBlock* block = find_block(blocks, truth.index);
    if (block == nullptr) {
      Message message = Message{"expected the line {}, found no line starting {}",
                                "attendu la ligne {}, aucune ligne ne commence par {}"}
                            .with(quoted(expected), quoted(header));
      if (!output_shown) message += Message::verbatim("\n") + describe_output(*lines);
      output_shown = true;
      c.fail(message);
      c.hint({"describe every device in a block headed 'Device <index>: <name>', with the name "
              "from cudaDeviceProp, indices 0 to count - 1.",
              "décrivez chaque GPU dans un bloc commençant par 'Device <index>: <name>', avec le "
              "nom pris dans cudaDeviceProp, numéros 0 à count - 1."});
    } else if (block->name != trim(truth.name)) {
      c.fail(Message{"expected {}, got {}", "attendu {}, obtenu {}"}.with(
          quoted(expected), quoted(trim(block->lines.front()))));
      c.hint({"the name is cudaDeviceProp's name field, printed as it is (%s), after "
              "cudaGetDeviceProperties filled it for that device.",
              "le nom est le champ name de cudaDeviceProp, affiché tel quel (%s), après que "
              "cudaGetDeviceProperties l'a rempli pour ce GPU."});
    }
  }
  for (const DeviceBlock& block : blocks) {
    if (block.index >= count) {
      c.fail(Message{"the program printed {}, but this machine has {} device(s), numbered 0 to {}",
                     "le programme a affiché {}, mais cette machine a {} GPU, numérotés de 0 à {}"}
                 .with(quoted(trim(block.lines.front())), count, count - 1));
      c.hint({"devices are numbered 0 to count - 1.", "les GPU sont numérotés de 0 à count - 1."});
    }
  }
}

void check_capability(CaseContext& c) {
  check_every_device(c, [](CaseContext& c, const DeviceSummary& truth, const DeviceBlock& block) {
    const std::string expected = expected_capability(truth);
    const auto got = field(c, block, kCapabilityKey, expected);
    if (!got || *got == expected) return;
    fail_field(c, block, kCapabilityKey, expected, *got);
    if (*got == std::to_string(truth.cc_major)) {
      c.hint({"print the minor version too: a compute capability is major.minor "
              "(cudaDeviceProp's major, a dot, then minor), and the minor version matters: "
              "8.0 and 8.6 are different GPUs.",
              "affichez aussi la version mineure : une compute capability s'écrit major.minor "
              "(le champ major de cudaDeviceProp, un point, puis minor), et la mineure compte : "
              "8.0 et 8.6 sont des GPU différents."});
    } else if (*got == std::to_string(truth.cc_major) + std::to_string(truth.cc_minor)) {
      c.hint({"separate the major and minor versions with a dot: %d.%d.",
              "séparez les versions majeure et mineure par un point : %d.%d."});
    } else {
      c.hint({"the compute capability is cudaDeviceProp's major and minor fields, printed as "
              "major.minor, for the device of this block.",
              "la compute capability est faite des champs major et minor de cudaDeviceProp, "
              "affichés major.minor, pour le GPU de ce bloc."});
    }
  });
}

void check_multiprocessors(CaseContext& c) {
  check_every_device(c, [](CaseContext& c, const DeviceSummary& truth, const DeviceBlock& block) {
    const std::string expected = std::to_string(truth.multiprocessors);
    const auto got = field(c, block, kMultiprocessorsKey, expected);
    if (!got || *got == expected) return;
    fail_field(c, block, kMultiprocessorsKey, expected, *got);
    c.hint({"the number of streaming multiprocessors (SMs) is cudaDeviceProp's "
            "multiProcessorCount, printed as an integer.",
            "le nombre de multiprocesseurs (SM) est le champ multiProcessorCount de "
            "cudaDeviceProp, affiché comme un entier."});
  });
}

void check_memory(CaseContext& c) {
  check_every_device(c, [](CaseContext& c, const DeviceSummary& truth, const DeviceBlock& block) {
    const double expected_gib = memory_in(truth, kBytesPerGiB);
    const std::string expected = format_memory(expected_gib) + " " + kMemoryUnit;
    const auto got = field(c, block, kMemoryKey, expected);
    if (!got) return;
    const std::optional<Quantity> quantity = parse_quantity(*got);
    if (!quantity) {
      fail_field(c, block, kMemoryKey, expected, *got);
      c.hint({"print the size as a number followed by ' GiB', for example with "
              "printf(\"  global memory: %.2f GiB\\n\", ...).",
              "affichez la taille comme un nombre suivi de ' GiB', par exemple avec "
              "printf(\"  global memory: %.2f GiB\\n\", ...)."});
      return;
    }
    const double got_value = quantity->value;
    const bool value_right = close_to(got_value, expected_gib);
    if (value_right && quantity->unit == kMemoryUnit && quantity->decimals == kMemoryDecimals) {
      return;
    }
    fail_field(c, block, kMemoryKey, expected, *got);
    if (value_right && quantity->unit != kMemoryUnit) {
      c.hint({"the value is right: follow it with its unit, ' GiB' (2^30 bytes).",
              "la valeur est juste : faites-la suivre de son unité, ' GiB' (2^30 octets)."});
    } else if (value_right || quantity->number == format_number(expected_gib, quantity->decimals)) {
      c.hint({"the value is right but rounded differently: print it with two decimals (%.2f).",
              "la valeur est juste mais arrondie autrement : affichez-la avec deux décimales "
              "(%.2f)."});
    } else if (roughly(got_value, memory_in(truth, kBytesPerGB))) {
      c.hint({"that is the size in GB (10^9 bytes): divide totalGlobalMem by 2^30 "
              "(kBytesPerGiB) to get GiB.",
              "c'est la taille en GB (10^9 octets) : divisez totalGlobalMem par 2^30 "
              "(kBytesPerGiB) pour avoir des GiB."});
    } else if (roughly(got_value, memory_in(truth, kBytesPerMiB))) {
      c.hint({"that is the size in MiB (2^20 bytes): divide totalGlobalMem by 2^30 "
              "(kBytesPerGiB) to get GiB.",
              "c'est la taille en MiB (2^20 octets) : divisez totalGlobalMem par 2^30 "
              "(kBytesPerGiB) pour avoir des GiB."});
    } else if (got_value == std::floor(expected_gib)) {
      c.hint({"the fraction is lost to an integer division: totalGlobalMem / (1024 * 1024 * "
              "1024) divides integers. Divide by a double (kBytesPerGiB).",
              "la partie fractionnaire est perdue dans une division entière : totalGlobalMem / "
              "(1024 * 1024 * 1024) divise des entiers. Divisez par un double (kBytesPerGiB)."});
    } else {
      c.hint({"the size is cudaDeviceProp's totalGlobalMem (bytes) divided by 2^30 "
              "(kBytesPerGiB), printed with %.2f.",
              "la taille est le champ totalGlobalMem de cudaDeviceProp (en octets) divisé par "
              "2^30 (kBytesPerGiB), affiché avec %.2f."});
    }
  });
}

void check_no_device(CaseContext& c) {
  if (c.under_sanitizer()) {
    c.note({"not run under compute-sanitizer: with every GPU hidden, the sanitizer cannot start",
            "non exécuté sous compute-sanitizer : avec chaque GPU caché, il ne peut pas démarrer"});
    return;
  }
  const Message setting{"with every GPU hidden (CUDA_VISIBLE_DEVICES set to nothing)",
                        "avec chaque GPU caché (CUDA_VISIBLE_DEVICES vide)"};
  const Run run = c.run_program({}, kHideEveryDevice);
  const ChildResult& child = run.child;
  if (child.output_limit_hit) return;  // reported by run_program
  if (!child.exited) {
    report_bad_end(c, run, setting, kExitNoDevice);
    return;
  }
  const std::vector<std::string> lines = course::check::program_lines(child.output);
  const std::string message = first_line_starting_with(lines, kNoDevicePrefix);
  bool ok = true;
  if (message.empty()) {
    ok = false;
    c.fail(Message{"{}, expected a line starting {}, found none",
                   "{}, attendu une ligne commençant par {}, aucune trouvée"}
               .with(setting, quoted(kNoDevicePrefix)));
    if (contains(child.output, kCheckedDeviceCountCall)) {
      c.hint({"with no usable GPU, the failure of cudaGetDeviceCount is an answer to report, not "
              "a bug to stop on: do not wrap it in CUDA_CHECK, compare its status with "
              "cudaSuccess and print 'No CUDA device found (<name>: <text>)'.",
              "sans GPU utilisable, l'échec de cudaGetDeviceCount est une réponse à signaler, "
              "pas un bogue sur lequel s'arrêter : ne l'enveloppez pas dans CUDA_CHECK, comparez "
              "son statut à cudaSuccess et affichez 'No CUDA device found (<name>: <text>)'."});
    } else {
      c.hint({"check the status of cudaGetDeviceCount: with no usable GPU it returns an error "
              "(cudaErrorNoDevice) and the count stays 0. Then print 'No CUDA device found "
              "(<name>: <text>)' and return EXIT_FAILURE.",
              "vérifiez le statut de cudaGetDeviceCount : sans GPU utilisable, il rend une "
              "erreur (cudaErrorNoDevice) et le nombre reste 0. Affichez alors 'No CUDA device "
              "found (<name>: <text>)' et rendez EXIT_FAILURE."});
    }
  } else if (!contains(message, kErrorNamePrefix)) {
    ok = false;
    c.fail(Message{"{}, the message {} does not name the error",
                   "{}, le message {} ne nomme pas l'erreur"}
               .with(setting, quoted(message)));
    c.hint({"follow 'No CUDA device found' with the error's name and text, from "
            "cudaGetErrorName(status) and cudaGetErrorString(status).",
            "faites suivre 'No CUDA device found' du nom et du texte de l'erreur, donnés par "
            "cudaGetErrorName(status) et cudaGetErrorString(status)."});
  }
  if (child.exit_code != kExitNoDevice) {
    ok = false;
    c.fail(Message{"{}, expected exit status {} (EXIT_FAILURE), got {}",
                   "{}, attendu le code de sortie {} (EXIT_FAILURE), obtenu {}"}
               .with(setting, kExitNoDevice, child.exit_code));
    c.hint({"return EXIT_FAILURE from main when no device is usable: scripts and Slurm jobs "
            "read the exit status, not the text.",
            "rendez EXIT_FAILURE depuis main quand aucun GPU n'est utilisable : les scripts et "
            "les jobs Slurm lisent le code de sortie, pas le texte."});
  }
  if (!ok) c.note(describe_output(lines));
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{"01",
                                   "hello_world",
                                   {
                                       {"host_greeting", 1, check_greeting},
                                       {"device_count", 1, check_device_count},
                                       {"device_names", 1, check_device_names},
                                       {"compute_capability", 2, check_capability},
                                       {"multiprocessor_count", 1, check_multiprocessors},
                                       {"global_memory_gib", 2, check_memory},
                                       {"no_device_visible", 2, check_no_device},
                                   }};
  return course::check::judge_main(argc, argv, exercise);
}
