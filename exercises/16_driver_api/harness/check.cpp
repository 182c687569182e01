// Exercise 16 - the check. Runs the student's program case by case and compares what
// it reports with references computed here: saxpy and the sawtooth in double
// precision, the block counts, the state of the primary context before and after the
// student's calls, and the messages of the load failures. Contains no student code.
//
//   make check-16                          (students)
//   build/.../check_16 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "driver_api.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = driver_api::request;
namespace result = driver_api::result;

// ---------------------------------------------------------------------------
// What a failed run says, in words
// ---------------------------------------------------------------------------

// Every message a student reads is a Message: the English, then the French (message.hpp).
// kArgumentsHint's braces are C++ (an initialiser list), not pieces: it takes no .with().
const Message kArgumentsHint{
    "cuLaunchKernel's kernelParams is an array of pointers to the arguments, {&a, &x, &y, &n}, "
    "in the kernel's order; the driver reads each argument through its pointer, so an array "
    "of the arguments' values makes it read host memory at a device address.",
    "le kernelParams de cuLaunchKernel est un tableau de pointeurs vers les arguments, {&a, &x, "
    "&y, &n}, dans l'ordre du kernel ; le pilote lit chaque argument à travers son pointeur, si "
    "bien qu'un tableau des valeurs des arguments lui fait lire de la mémoire de l'hôte à une "
    "adresse du GPU."};
const Message kUnloadedHint{
    "a CUfunction lives only as long as its module: a module unloaded before the launch (or "
    "a context released) leaves a handle that no launch may use. Unload in the clean-up, "
    "after the last launch has finished.",
    "une CUfunction ne vit que le temps de son module : un module déchargé avant le lancement "
    "(ou un contexte libéré) laisse un handle qu'aucun lancement ne peut utiliser. Déchargez "
    "pendant le nettoyage, une fois le dernier lancement terminé."};
const Message kReverseOrderHint{
    "clean up in the reverse order of creation: free the buffers and destroy the stream, "
    "unload the module, and release the context last; once the last holder releases the "
    "primary context, everything in it is gone and every call on it fails.",
    "nettoyez dans l'ordre inverse de la création : libérez les tampons et détruisez le "
    "stream, déchargez le module, et libérez le contexte en dernier ; dès que son dernier "
    "détenteur libère le contexte primaire, tout ce qu'il contenait disparaît et chaque appel "
    "sur lui échoue."};

bool output_has(const Run& run, const std::string& text) {
  return run.child.output.find(text) != std::string::npos;
}

// A run that stopped before the end of its case (finished() already said how): the
// likely mistake, from the driver error it printed or the crash.
void explain_stop(CaseContext& c, const Run& run) {
  if (run.results.finished) return;
  const bool in_launch = output_has(run, "call:  cuLaunchKernel");
  if (output_has(run, "CUDA_ERROR_ILLEGAL_ADDRESS")) {
    c.hint(Message{"a kernel accessed memory it does not own. ",
                   "un kernel a accédé à de la mémoire qui n'est pas la sienne. "} +
           kArgumentsHint);
  } else if (in_launch) {
    // The error's name alone does not tell these apart on every driver: all three.
    c.hint(Message{"cuLaunchKernel failed. A grid of zero blocks? Round the block count up, and "
                   "launch nothing when n = 0. ",
                   "cuLaunchKernel a échoué. Une grille de zéro bloc ? Arrondissez le nombre de "
                   "blocs à l'entier supérieur, et ne lancez rien quand n = 0. "} +
           kArgumentsHint + Message::verbatim(" ") + kUnloadedHint);
  } else if (output_has(run, "call:  cuModuleUnload")) {
    c.hint(kUnloadedHint);
  } else if (run.child.signal != 0) {
    c.hint(Message{"a crash on the host, most likely inside a driver call. ",
                   "un plantage sur l'hôte, très probablement dans un appel au pilote. "} +
           kArgumentsHint + Message::verbatim(" ") + kUnloadedHint);
  } else if (output_has(run, "CUDA driver error")) {
    c.hint({"a driver call failed: the output above names it and its error.",
            "un appel au pilote a échoué : la sortie ci-dessus le nomme, avec son erreur."});
  }
}

// The kernels must load for any launch case; says why they did not.
bool expect_loaded(CaseContext& c, const Run& run) {
  std::int64_t loaded = 0;
  std::string error;
  if (!c.read_value(run, result::loaded, loaded) || !c.read_text(run, result::load_error, error))
    return false;
  if (loaded == 1) return true;
  c.fail(
      error.empty()
          ? Message{"load_kernels failed without a message", "load_kernels a échoué sans message"}
          : Message{"load_kernels failed: {}", "load_kernels a échoué : {}"}.with(error));
  if (error.find(kSawtoothName) != std::string::npos ||
      error.find(kSaxpyName) != std::string::npos) {
    c.hint({"is the kernel declared extern \"C\" in kernels.cu? Without it its PTX name is "
            "C++-mangled (_Z8sawtooth...) and cuModuleGetFunction does not find \"sawtooth\".",
            "le kernel est-il déclaré extern \"C\" dans kernels.cu ? Sans cela, son nom PTX "
            "est décoré à la C++ (_Z8sawtooth...) et cuModuleGetFunction ne trouve pas "
            "\"sawtooth\"."});
  } else {
    c.hint({"load_kernels: load_module, then find_kernel for \"saxpy\" and \"sawtooth\"; each "
            "returns true when it succeeds.",
            "load_kernels : load_module, puis find_kernel pour \"saxpy\" et \"sawtooth\" ; "
            "chacun rend true quand il réussit."});
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
    c.fail({"the primary context was already active before open_primary_context (the check's "
            "runner should not hold it: tell your instructor)",
            "le contexte primaire était déjà actif avant open_primary_context (le runner du "
            "correcteur ne devrait pas le détenir : prévenez votre enseignant)"});
  } else if (opened && (after_open != 1 || primary != 1)) {
    c.fail(Message{"after open_primary_context the device's primary context is {}, and the "
                   "context returned {} the primary context",
                   "après open_primary_context, le contexte primaire du GPU {}, et le contexte "
                   "rendu {} le contexte primaire"}
               .with(after_open == 1 ? Message{"active", "est actif"}
                                     : Message{"not active", "n'est pas actif"},
                     primary == 1 ? Message{"is", "est"} : Message{"is not", "n'est pas"}));
    c.hint({"retain the primary context with cuDevicePrimaryCtxRetain (not cuCtxCreate, which "
            "makes a new context that the runtime does not use), and keep it until "
            "close_primary_context.",
            "retenez le contexte primaire avec cuDevicePrimaryCtxRetain (pas cuCtxCreate, qui "
            "crée un nouveau contexte que le runtime n'utilise pas), et gardez-le jusqu'à "
            "close_primary_context."});
  } else if (opened && (current != 1 || device != 1)) {
    c.fail(current != 1 ? Message{"after open_primary_context, the primary context is not "
                                  "current on the thread",
                                  "après open_primary_context, le contexte primaire n'est pas "
                                  "le contexte courant du thread"}
                        : Message{"after open_primary_context, the device returned is not "
                                  "device 0",
                                  "après open_primary_context, le GPU rendu n'est pas le GPU 0"});
    c.hint({"cuCtxSetCurrent(context) makes it the context of this thread's driver calls.",
            "cuCtxSetCurrent(context) en fait le contexte des appels au pilote de ce thread."});
  } else if (!c.finished(run)) {
    explain_stop(c, run);
  } else if (!c.read_value(run, result::active_after_close, after_close)) {
    return;
  } else if (after_close != 0) {
    c.fail({"the primary context is still active after close_primary_context: nothing else "
            "holds it in this run",
            "le contexte primaire est encore actif après close_primary_context : rien d'autre "
            "ne le détient dans cette exécution"});
    c.hint({"close_primary_context must give back the reference: cuDevicePrimaryCtxRelease.",
            "close_primary_context doit rendre la référence : cuDevicePrimaryCtxRelease."});
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
    c.hint({"load_module must return false on a missing file, not exit (no CU_CHECK there).",
            "load_module doit rendre false sur un fichier absent, pas terminer le programme (pas "
            "de CU_CHECK à cet endroit)."});
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
    c.fail({"load_module returned true for a file that does not exist",
            "load_module a rendu true pour un fichier qui n'existe pas"});
  } else if (error.find(path) == std::string::npos) {
    c.fail(Message{"load_module returned false, but its error does not name the file: '{}'",
                   "load_module a rendu false, mais son erreur ne nomme pas le fichier : « {} »"}
               .with(error));
    c.hint({"the message must name the file: \"cannot read \" + ptx_path.",
            "le message doit nommer le fichier : \"cannot read \" + ptx_path."});
  }
}

void check_wrong_name(CaseContext& c) {
  const Run run = run_load_failures(c);
  if (!c.finished(run)) {
    explain_stop(c, run);
    c.hint({"find_kernel must return false on a missing kernel, not exit (no CU_CHECK there).",
            "find_kernel doit rendre false sur un kernel absent, pas terminer le programme (pas "
            "de CU_CHECK à cet endroit)."});
    return;
  }
  std::int64_t loaded = 0, found = 0, saxpy_found = 0;
  std::string load_error, error;
  if (!c.read_value(run, result::loaded, loaded) ||
      !c.read_text(run, result::load_error, load_error))
    return;
  if (loaded != 1) {
    c.fail(Message{"load_module could not load the PTX that the build made: {}",
                   "load_module n'a pas pu charger le PTX produit par la compilation : {}"}
               .with(load_error));
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
    c.fail(Message{"find_kernel returned true for \"{}\", which is not there",
                   "find_kernel a rendu true pour \"{}\", qui n'y est pas"}
               .with(kWrongName));
  } else if (error.find(kWrongName) == std::string::npos || !names_the_error) {
    c.fail(Message{"find_kernel returned false, but its error does not name the kernel and the "
                   "driver's error: '{}'",
                   "find_kernel a rendu false, mais son erreur ne nomme pas le kernel et l'erreur "
                   "du pilote : « {} »"}
               .with(error));
    c.hint({"build the message from the name and course::driver_error_text(status).",
            "construisez le message à partir du nom et de course::driver_error_text(status)."});
  } else if (saxpy_found != 1) {
    c.fail({"find_kernel did not find \"saxpy\", which the module holds",
            "find_kernel n'a pas trouvé \"saxpy\", que le module contient"});
  }
}

// ---------------------------------------------------------------------------
// Part 3: launches on the runner's buffers (runtime allocations, same context)
// ---------------------------------------------------------------------------

const Message kRoundUpHint{
    "round the block count up: (n + kThreadsPerBlock - 1) / kThreadsPerBlock, then at most "
    "kMaxBlocks.",
    "arrondissez le nombre de blocs à l'entier supérieur : "
    "(n + kThreadsPerBlock - 1) / kThreadsPerBlock, puis au plus kMaxBlocks."};

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
    c.fail(
        {"the program reported no block counts", "le programme n'a rendu aucun nombre de blocs"});
    return;
  }
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (got[k] != expected[k]) {
      c.fail(Message{"blocks_for({}) returned {}, expected {}",
                     "blocks_for({}) a rendu {} au lieu de {}"}
                 .with(driver_api::kBlocksForSizes[k], got[k], expected[k]));
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
    c.note(Message{"(launch_saxpy with n = {})", "(launch_saxpy avec n = {})"}.with(n));
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

const Message kSizesHint{
    "each argument must have exactly the type of the kernel's parameter: cuLaunchKernel copies "
    "sizeof(parameter) bytes from each pointer, so a 32-bit int passed for a size_t parameter "
    "brings 4 bytes of whatever lies beside it (and a kernel that declares int where "
    "driver_api.hpp says size_t keeps only the low 32 bits of the sample number).",
    "chaque argument doit avoir exactement le type du paramètre du kernel : cuLaunchKernel "
    "copie sizeof(parameter) octets depuis chaque pointeur, si bien qu'un int de 32 bits passé "
    "pour un paramètre size_t apporte 4 octets de ce qui se trouve à côté (et un kernel qui "
    "déclare int là où driver_api.hpp dit size_t ne garde que les 32 bits de poids faible du "
    "numéro d'échantillon)."};

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
    c.note(Message{"(sawtooth with first = {}, period = {}, n = {})",
                   "(sawtooth avec first = {}, period = {}, n = {})"}
               .with(wave.first, wave.period, n));
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
    c.fail(n > 0 ? Message{"allocate_saxpy_buffers did not give two device buffers of n floats "
                           "each",
                           "allocate_saxpy_buffers n'a pas fourni deux tampons du GPU de n "
                           "floats chacun"}
                 : Message{"allocate_saxpy_buffers allocated something for n = 0",
                           "allocate_saxpy_buffers a alloué quelque chose pour n = 0"});
    c.hint({"cuMemAlloc(&buffers.x, n * sizeof(float)), the same for y; nothing when n = 0.",
            "cuMemAlloc(&buffers.x, n * sizeof(float)), de même pour y ; rien quand n = 0."});
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
      c.hint({"y still held its input when saxpy_round_trip returned: the copy back had not "
              "finished. cuMemcpyDtoHAsync into pinned memory returns at once: "
              "cuStreamSynchronize(stream) before returning.",
              "y contenait encore son entrée au retour de saxpy_round_trip : la copie de retour "
              "n'était pas finie. cuMemcpyDtoHAsync vers de la mémoire épinglée rend la main "
              "aussitôt : cuStreamSynchronize(stream) avant de rendre la main."});
    }
    return;
  }
  if (left != 0) {
    c.fail(Message{"{} of the 2 device buffers still allocated after free_saxpy_buffers",
                   "{} des 2 tampons du GPU encore alloués après free_saxpy_buffers"}
               .with(left));
    c.hint({"every cuMemAlloc needs its cuMemFree.", "à chaque cuMemAlloc son cuMemFree."});
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
      c.fail(Message{"saxpy_from_ptx with a missing file must return false with an error that "
                     "names it; it returned {} with '{}'",
                     "saxpy_from_ptx sur un fichier absent doit rendre false avec une erreur qui "
                     "le nomme ; il a rendu {} avec « {} »"}
                 .with(ran != 0 ? "true" : "false", error));
    }
  } else if (ran != 1) {
    c.fail(Message{"saxpy_from_ptx returned false: {}", "saxpy_from_ptx a rendu false : {}"}.with(
        error));
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
    c.fail({"the primary context was still held after saxpy_from_ptx returned",
            "le contexte primaire était encore détenu après le retour de saxpy_from_ptx"});
    c.hint({"every path out of saxpy_from_ptx, the failed load too, releases the context it "
            "retained.",
            "chaque sortie de saxpy_from_ptx, chargement raté compris, libère le contexte qu'il "
            "a retenu."});
  }
}

// ---------------------------------------------------------------------------
// Part 5: the clean-up gives back every module and every reference to the context
// ---------------------------------------------------------------------------

const Message kModuleUnloadHint{
    "every module loaded needs its cuModuleUnload: unload_kernels must unload kernels.module. "
    "A module left loaded keeps its code and data on the device until the context ends.",
    "à chaque module chargé son cuModuleUnload : unload_kernels doit décharger "
    "kernels.module. Un module resté chargé garde son code et ses données sur le GPU jusqu'à la "
    "fin du contexte."};
const Message kContextReleaseHint{
    "every cuDevicePrimaryCtxRetain needs its cuDevicePrimaryCtxRelease: "
    "close_primary_context must release the device's primary context, on every path out "
    "of saxpy_from_ptx.",
    "à chaque cuDevicePrimaryCtxRetain son cuDevicePrimaryCtxRelease : "
    "close_primary_context doit libérer le contexte primaire du GPU, sur chaque sortie de "
    "saxpy_from_ptx."};

// One round of the clean_up case: what the program counted (its --wrap accounting of
// cuModuleLoad*, cuModuleUnload, cuDevicePrimaryCtxRetain and cuDevicePrimaryCtxRelease).
bool expect_given_back(CaseContext& c, const Run& run, const std::string& prefix,
                       const Message& what) {
  std::int64_t loaded = 0, unloaded = 0, retained = 0, released = 0;
  if (!c.read_value(run, result::modules_loaded(prefix), loaded) ||
      !c.read_value(run, result::modules_unloaded(prefix), unloaded) ||
      !c.read_value(run, result::primary_retained(prefix), retained) ||
      !c.read_value(run, result::primary_released(prefix), released)) {
    return false;
  }
  if (unloaded < loaded) {
    c.fail(Message{"{} loaded {} module(s) and unloaded {}",
                   "{} a chargé {} module(s) et en a déchargé {}"}
               .with(what, loaded, unloaded));
    c.hint(kModuleUnloadHint);
    return false;
  }
  if (released < retained) {
    c.fail(Message{"{} retained the primary context {} time(s) and released it {} time(s)",
                   "{} a retenu le contexte primaire {} fois et l'a libéré {} fois"}
               .with(what, retained, released));
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
                         Message{"open_primary_context, load_kernels, unload_kernels and "
                                 "close_primary_context",
                                 "open_primary_context, load_kernels, unload_kernels et "
                                 "close_primary_context"})) {
    return;
  }
  std::int64_t ran = 0;
  if (!c.read_value(run, result::whole_ran, ran)) return;
  if (ran != 1) {
    c.fail({"saxpy_from_ptx returned false on the PTX that the build made",
            "saxpy_from_ptx a rendu false sur le PTX produit par la compilation"});
    return;
  }
  if (expect_given_back(c, run, "whole", Message::verbatim("saxpy_from_ptx"))) {
    expect_given_back(c, run, "missing",
                      Message{"saxpy_from_ptx on a missing file",
                              "saxpy_from_ptx sur un fichier absent"});
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
