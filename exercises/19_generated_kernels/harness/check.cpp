// Exercise 19 - the check. Runs the student's program case by case and judges what it
// reports: the generated source (it compiles, its CUBIN defines NAME unmangled, its
// pointers are __restrict__), what the cache did (NVRTC's compilations counted, keys,
// each field of the key, files left in the case's folder, warnings), a
// second process's use of the first one's cache, the kernels' results against the CPU
// (std::fma, bit for bit), the autotuner's trials and its stored choice, and lin_comb's
// speed against the copy ceiling and the same expression compiled by nvcc. The cases
// about sources, keys and files run NVRTC only, no kernel: they need no GPU.
// Contains no student code.
//
//   make check-19                          (students)
//   build/.../check_19 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

namespace gk = generated_kernels;
namespace request = generated_kernels::request;
namespace result = generated_kernels::result;
using course::check::CaseContext;
using course::check::Message;
using course::check::Run;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// Each case gets folders of its own in the check's scratch folder: `tag` tells apart
// the folders of one case.
std::string folder_of(CaseContext& c, const std::string& tag = "cache") {
  return c.scratch_dir() + "/" + c.name() + "-" + tag;
}

// A run that stopped in the middle: the likely mistake from the error the program printed.
bool finished(CaseContext& c, const Run& run) {
  if (c.finished(run)) return true;
  const std::string& output = run.child.output;
  if (contains(output, "cuEventElapsedTime") && contains(output, "CUDA_ERROR_NOT_READY")) {
    c.hint({"the events were read before the kernels between them ended: cuEventRecord only "
            "enqueues the event, so wait for the stop event (cuEventSynchronize) before "
            "cuEventElapsedTime.",
            "les événements ont été lus avant la fin des kernels placés entre eux : "
            "cuEventRecord ne fait que mettre l'événement en file, attendez donc l'événement "
            "de fin (cuEventSynchronize) avant cuEventElapsedTime."});
  }
  return false;
}

// Every value of a case must be there, or the case fails naming the first missing one.
bool read_all(
    CaseContext& c, const Run& run,
    std::initializer_list<std::pair<course::check::Value<std::int64_t>, std::int64_t*>> values) {
  for (const auto& [key, value] : values) {
    if (!c.read_value(run, key, *value)) return false;
  }
  return true;
}

// An array the program reported, or none when it reported none.
template <typename T>
std::vector<T> array_or_empty(CaseContext& c, const Run& run, const course::check::Array<T>& key) {
  std::vector<T> values;
  if (CaseContext::reported(run, key)) c.read_array(run, key, values);
  return values;
}

// ---------------------------------------------------------------------------
// Without a GPU: the source, the key, the cache
// ---------------------------------------------------------------------------

// Code goes into a message through {}, the same in both languages.
const Message kNotCompiledHint =
    Message{"the source must be a whole kernel: {}", "le source doit être un kernel entier : {}"}
        .with("extern \"C\" __global__ void NAME(ARGUMENTS, size_t n) "
              "{ for (size_t i = ...; i < n; i += ...) { OPERATION; } }");

void check_source(CaseContext& c, const std::string& arguments, const std::string& operation,
                  const std::string& name) {
  const Run run = c.run(request::source, {arguments, operation, name, gk::kFirstArchitecture});
  std::int64_t pointers = 0, succeeded = 0;
  if (!finished(c, run) ||
      !read_all(c, run, {{result::pointers, &pointers}, {result::succeeded, &succeeded}})) {
    return;
  }
  const std::string source = CaseContext::text_or_empty(run, result::source);
  const std::string log = CaseContext::text_or_empty(run, result::log);
  const std::string shown = course::check::indent_excerpt(source, 12);
  if (source.empty()) {
    c.fail(Message{"generate_source returned an empty text for {}",
                   "generate_source a rendu un texte vide pour {}"}
               .with(name));
    c.hint(kNotCompiledHint);
    return;
  }
  if (!contains(source, operation)) {
    c.fail(Message{"the source of {} lacks the operation '{}'; it reads:\n{}",
                   "il manque au source de {} l'opération « {} » ; il dit :\n{}"}
               .with(name, operation, shown));
    c.hint(kNotCompiledHint);
    return;
  }
  if (succeeded != 1) {
    c.fail(Message{"the source of {} does not compile; it reads:\n{}NVRTC's log:\n{}",
                   "le source de {} ne compile pas ; il dit :\n{}journal de NVRTC :\n{}"}
               .with(name, shown, course::check::indent_excerpt(log, 8)));
    c.hint(kNotCompiledHint);
    return;
  }
  // Judged on the CUBIN, not on the text: any spelling that gives a kernel named exactly
  // NAME will do (extern "C" alone or as a block, spaces before the parenthesis).
  std::int64_t symbol = 0;
  if (!c.read_value(run, result::kernel_symbol, symbol)) return;
  if (symbol != 1) {
    c.fail(Message{"the CUBIN of the source of {} defines no kernel named exactly {} (a C++ "
                   "name is mangled, e.g. _Z...); it reads:\n{}",
                   "le CUBIN du source de {} ne définit aucun kernel nommé exactement {} (un nom "
                   "C++ est décoré, par exemple _Z...) ; le source dit :\n{}"}
               .with(name, name, shown));
    c.hint({"declare the kernel extern \"C\" __global__: without it the name is mangled, and "
            "cuModuleGetFunction does not find the kernel by NAME.",
            "déclarez le kernel extern \"C\" __global__ : sans cela le nom est décoré, et "
            "cuModuleGetFunction ne trouve pas le kernel sous NAME."});
    return;
  }
  // __restrict__ or __restrict: NVRTC takes both spellings.
  const std::size_t restricted = occurrences(source, "__restrict");
  if (restricted != static_cast<std::size_t>(pointers)) {
    c.fail(Message{"the source of {} has {} __restrict__ for its {} pointer arguments:\n{}",
                   "le source de {} a {} __restrict__ pour ses {} arguments pointeurs :\n{}"}
               .with(name, restricted, pointers, shown));
    c.hint({"declare every pointer argument __restrict__ (const float* __restrict__ x): the "
            "compiler may then assume that the arrays do not overlap, and load them through "
            "the read-only path.",
            "déclarez chaque argument pointeur __restrict__ (const float* __restrict__ x) : le "
            "compilateur peut alors supposer que les tableaux ne se chevauchent pas, et les "
            "charger par le chemin en lecture seule."});
  }
}

void check_compile_error(CaseContext& c) {
  const Run run = c.run(request::compile_error, {folder_of(c), true, gk::kFirstArchitecture});
  std::int64_t first = 0, second = 0, second_cached = 0, compilations = 0, entries = 0, files = 0;
  if (!finished(c, run) || !read_all(c, run,
                                     {{result::first_succeeded, &first},
                                      {result::second_succeeded, &second},
                                      {result::second_from_cache, &second_cached},
                                      {result::compilations, &compilations},
                                      {result::entries_in_memory, &entries},
                                      {result::files, &files}})) {
    return;
  }
  const std::string first_log = CaseContext::text_or_empty(run, result::first_log);
  const std::string second_log = CaseContext::text_or_empty(run, result::second_log);
  const Message what = Message{"the operation '{}' ({} is declared nowhere)",
                               "l'opération « {} » ({} n'est déclaré nulle part)"}
                           .with(gk::kBrokenOperation, gk::kUndeclared);
  if (first != 0) {
    c.fail(
        Message{"build_kernel reported success for {}", "build_kernel a annoncé un succès pour {}"}
            .with(what));
    c.hint({"succeeded is what compile_with_nvrtc returned in its succeeded.",
            "succeeded est ce que compile_with_nvrtc a rendu dans son succeeded."});
    return;
  }
  if (!contains(first_log, gk::kUndeclared)) {
    c.fail(
        first_log.empty()
            ? Message{"build_kernel returned no log for {}",
                      "build_kernel n'a rendu aucun journal pour {}"}
                  .with(what)
            : Message{"build_kernel returned a log that does not name the error for {}:\n{}",
                      "build_kernel a rendu, pour {}, un journal qui ne nomme pas l'erreur :\n{}"}
                  .with(what, course::check::indent_excerpt(first_log, 6)));
    c.hint({"return NVRTC's log (compile_with_nvrtc's log) with a failed build: it is all the "
            "user gets to see what is wrong with the expression.",
            "rendez le journal de NVRTC (le log de compile_with_nvrtc) avec une construction "
            "ratée : c'est tout ce que l'utilisateur aura pour voir ce qui ne va pas dans "
            "l'expression."});
    return;
  }
  if (second != 0 || second_cached != 0 || compilations != 2 || entries != 0 || files != 0 ||
      !contains(second_log, gk::kUndeclared)) {
    c.fail(
        Message{"after a failed compilation the cache holds {} entries in memory and {} "
                "files; a second build of the same source {}{} with {} NVRTC compilations "
                "in all, expected 2",
                "après une compilation ratée, le cache contient {} entrées en mémoire et {} "
                "fichiers ; une seconde construction du même source {}{} avec {} "
                "compilations NVRTC en tout, au lieu de 2"}
            .with(entries, files,
                  second != 0 ? Message{"reported success", "a annoncé un succès"}
                              : Message{"failed", "a échoué"},
                  second_cached != 0 ? Message{" from the cache", " depuis le cache"} : Message(),
                  compilations));
    c.hint({"store only what compiled: a failed compilation left in the cache turns every later "
            "attempt into a 'success' with no CUBIN and no log.",
            "ne stockez que ce qui a compilé : une compilation ratée laissée dans le cache "
            "change chaque tentative suivante en « succès » sans CUBIN ni journal."});
  }
}

// cache_key itself, one field at a time: parts that differ in that field alone must get
// another key, and the same parts the same key. The runner calls cache_key with the
// values, so a field can vary without another GPU or another NVRTC.
struct KeyField {
  course::check::Text record;  // the key the case reports with this field changed
  Message name;                // the field, in words
  Message change;              // what differs, in words
  Message why;                 // why a CUBIN depends on it
};

const KeyField kKeySource{
    result::source_key, Message{"the source", "le source"},
    Message{"the source (z = a x + y, then z = a x - y)",
            "le source (z = a x + y, puis z = a x - y)"},
    Message{"two kernels of one name with other bodies would share a CUBIN.",
            "deux kernels de même nom aux corps différents partageraient un CUBIN."}};
const KeyField kKeyOptions{result::options_key, Message{"the options", "les options"},
                           Message{"the options (--fmad=true, then --fmad=false)",
                                   "les options (--fmad=true, puis --fmad=false)"},
                           Message{"the options change the machine code NVRTC writes.",
                                   "les options changent le code machine qu'écrit NVRTC."}};
const KeyField kKeyArchitecture{
    result::architecture_key, Message{"the architecture", "l'architecture"},
    Message{"the architecture (sm_{}, then sm_{})", "l'architecture (sm_{}, puis sm_{})"}.with(
        gk::kFirstArchitecture, gk::kSecondArchitecture),
    Message{"a CUBIN for one GPU family does not load on another.",
            "un CUBIN pour une famille de GPU ne se charge pas sur une autre."}};
const KeyField kKeyNvrtcVersion{result::nvrtc_version_key,
                                Message{"NVRTC's version", "la version de NVRTC"},
                                Message{"NVRTC's version (the next minor one)",
                                        "la version de NVRTC (la version mineure suivante)"},
                                Message{"another NVRTC may write another CUBIN.",
                                        "un autre NVRTC peut écrire un autre CUBIN."}};

void check_key_field(CaseContext& c, const KeyField& field) {
  const Run run = c.run(request::key_fields, {gk::kFirstArchitecture, gk::kSecondArchitecture});
  if (!finished(c, run)) return;
  const std::string first = CaseContext::text_or_empty(run, result::first_key);
  const std::string same = CaseContext::text_or_empty(run, result::same_key);
  const std::string changed = CaseContext::text_or_empty(run, field.record);
  if (first.empty() || first != same) {
    c.fail(Message{"cache_key gave '{}' and then '{}' for the same parts",
                   "cache_key a donné « {} » puis « {} » pour les mêmes éléments"}
               .with(first, same));
    c.hint({"the key must depend on the parts alone: fnv1a64 of the fields, nothing else.",
            "la clé ne doit dépendre que des éléments : fnv1a64 des champs, rien d'autre."});
  } else if (changed == first) {
    c.fail(Message{"cache_key gave the same key '{}' for parts that differ only in {}",
                   "cache_key a donné la même clé « {} » pour des éléments qui ne diffèrent que "
                   "par {}"}
               .with(first, field.change));
    c.hint(Message{"the key must change with {}: {}", "la clé doit changer avec {} : {}"}.with(
        field.name, field.why));
  }
}

// Two builds in one cache that must be two entries: the same name with another body, or
// the same source for another architecture.
void check_two_builds(CaseContext& c, bool vary_body) {
  const Run run =
      c.run(request::two_builds,
            {folder_of(c), true, vary_body ? request::Vary::body : request::Vary::architecture,
             gk::kFirstArchitecture, gk::kSecondArchitecture});
  std::int64_t succeeded = 0, compilations = 0, cubins_differ = 0, files = 0;
  if (!finished(c, run) || !read_all(c, run,
                                     {{result::both_succeeded, &succeeded},
                                      {result::compilations, &compilations},
                                      {result::cubins_differ, &cubins_differ},
                                      {result::files, &files}})) {
    return;
  }
  const std::string first_key = CaseContext::text_or_empty(run, result::first_key);
  const std::string second_key = CaseContext::text_or_empty(run, result::second_key);
  const Message what =
      vary_body ? Message{"two kernels named {} (z = a x + y, z = a x - y)",
                          "deux kernels nommés {} (z = a x + y, z = a x - y)"}
                      .with(gk::kSharedName)
                : Message{"lin_comb for sm_{} then sm_{}", "lin_comb pour sm_{} puis sm_{}"}.with(
                      gk::kFirstArchitecture, gk::kSecondArchitecture);
  if (succeeded != 1) {
    c.fail(Message{"building {} failed", "la construction de {} a échoué"}.with(what));
    c.hint(kNotCompiledHint);
    return;
  }
  if (first_key.empty() ||
      first_key.rfind(vary_body ? gk::kSharedName : gk::kLinCombName, 0) != 0) {
    c.fail(Message{"the key '{}' does not start with the kernel's name",
                   "la clé « {} » ne commence pas par le nom du kernel"}
               .with(first_key));
    c.hint({"key = NAME + \"-\" + hex64(hash): the name tells a person which file is which.",
            "clé = NAME + \"-\" + hex64(hash) : le nom dit à un humain quel fichier est "
            "lequel."});
    return;
  }
  if (first_key == second_key || compilations != 2 || cubins_differ != 1) {
    c.fail(Message{"building {} in one cache: keys '{}' and '{}', {} NVRTC compilation(s), "
                   "expected 2; the second build {}",
                   "construction de {} dans un même cache : clés « {} » et « {} », {} "
                   "compilation(s) NVRTC au lieu de 2 ; la seconde construction {}"}
               .with(what, first_key, second_key, compilations,
                     cubins_differ == 1
                         ? Message{"got its own CUBIN", "a reçu son propre CUBIN"}
                         : Message{"got the first one's CUBIN", "a reçu le CUBIN de la première"}));
    c.hint(vary_body
               ? Message{"the key must change with the source: a key made of the name alone "
                         "gives every kernel of that name the CUBIN of the first one compiled.",
                         "la clé doit changer avec le source : une clé faite du seul nom donne "
                         "à chaque kernel de ce nom le CUBIN du premier compilé."}
               : Message{"the key must change with the architecture: a CUBIN for sm_75 does not "
                         "load on another GPU family (a cache folder shared by two machines, or "
                         "a program moved to another GPU).",
                         "la clé doit changer avec l'architecture : un CUBIN pour sm_75 ne se "
                         "charge pas sur une autre famille de GPU (un dossier de cache partagé "
                         "par deux machines, ou un programme déplacé sur un autre GPU)."});
    return;
  }
  if (files != 2) {
    c.fail(Message{"the cache folder holds {} files after two builds, expected 2",
                   "le dossier du cache contient {} fichiers après deux constructions, au lieu "
                   "de 2"}
               .with(files));
    c.hint({"store writes one file per key, path_of(key), with write_file_atomically.",
            "store écrit un fichier par clé, path_of(key), avec write_file_atomically."});
  }
}

void check_corrupt(CaseContext& c, request::Damage damage) {
  const Run run = c.run(request::corrupt, {folder_of(c), true, damage, gk::kFirstArchitecture});
  std::int64_t first = 0, written = 0, second = 0, from_cache = 0, compilations = 0, rejected = 0,
               intact_after = 0;
  if (!finished(c, run) || !read_all(c, run,
                                     {{result::first_succeeded, &first},
                                      {result::written, &written},
                                      {result::second_succeeded, &second},
                                      {result::second_from_cache, &from_cache},
                                      {result::compilations, &compilations},
                                      {result::rejected_files, &rejected},
                                      {result::intact_after, &intact_after}})) {
    return;
  }
  const Message damaged =
      damage == request::Damage::truncate
          ? Message{"cut to half its payload", "coupé à la moitié de sa charge utile"}
          : Message{"with one byte of its payload changed",
                    "dont un octet de la charge utile a changé"};
  if (first != 1 || written != 1) {
    c.fail(first != 1 ? Message{"lin_comb could not be built", "lin_comb n'a pas pu être construit"}
                      : Message{"after building lin_comb, its file is missing or is not "
                                "encode_entry of its CUBIN",
                                "après la construction de lin_comb, son fichier manque ou n'est "
                                "pas encode_entry de son CUBIN"});
    c.hint(first != 1 ? kNotCompiledHint
                      : Message{"store writes encode_entry(payload) to path_of(key) with "
                                "write_file_atomically.",
                                "store écrit encode_entry(payload) dans path_of(key) avec "
                                "write_file_atomically."});
    return;
  }
  if (from_cache != 0 || compilations != 1) {
    c.fail(Message{"a cache file {} was loaded ({} NVRTC compilations, expected 1)",
                   "un fichier du cache {} a été chargé ({} compilations NVRTC au lieu de 1)"}
               .with(damaged, compilations));
    c.hint({"decode_entry must refuse a file whose payload_bytes is not the length after the "
            "header, or whose checksum is not fnv1a64 of the payload: loading it runs a broken "
            "CUBIN, or crashes the program.",
            "decode_entry doit refuser un fichier dont payload_bytes n'est pas la longueur après "
            "l'en-tête, ou dont checksum n'est pas fnv1a64 de la charge utile : le charger "
            "exécute un CUBIN abîmé, ou fait planter le programme."});
    return;
  }
  const std::string warnings = CaseContext::text_or_empty(run, result::warnings);
  if (second != 1 || rejected != 1 || warnings.empty() || intact_after != 1) {
    c.fail(Message{"with its file {}: build {}, {} file(s) rejected (expected 1), {}, the file {}",
                   "avec son fichier {} : construction {}, {} fichier(s) refusé(s) (1 attendu), "
                   "{}, fichier {}"}
               .with(damaged,
                     second == 1 ? Message{"succeeded", "réussie"} : Message{"failed", "ratée"},
                     rejected,
                     warnings.empty() ? Message{"no warning", "aucun avertissement"}
                                      : Message{"a warning", "un avertissement"},
                     intact_after == 1 ? Message{"rewritten", "réécrit"}
                                       : Message{"not rewritten intact", "non réécrit intact"}));
    c.hint({"a file decode_entry refuses counts in rejected_files with a warning; the build then "
            "compiles and store overwrites the file.",
            "un fichier que decode_entry refuse compte dans rejected_files, avec un "
            "avertissement ; la construction compile alors et store écrase le fichier."});
  }
}

void check_read_only(CaseContext& c) {
  const Run run = c.run(request::read_only, {folder_of(c), true, gk::kFirstArchitecture});
  std::int64_t succeeded = 0, compilations = 0, failed_writes = 0, memory_hits = 0, files = 0;
  if (!finished(c, run) || !read_all(c, run,
                                     {{result::both_succeeded, &succeeded},
                                      {result::compilations, &compilations},
                                      {result::failed_writes, &failed_writes},
                                      {result::memory_hits, &memory_hits},
                                      {result::files, &files}})) {
    return;
  }
  const std::string warnings = CaseContext::text_or_empty(run, result::warnings);
  if (succeeded != 1) {
    c.fail({"building lin_comb with a cache folder that cannot be written failed",
            "la construction de lin_comb avec un dossier de cache où l'on ne peut pas écrire a "
            "échoué"});
    c.hint({"a cache that cannot write is slower, not broken: the build goes on.",
            "un cache qui ne peut pas écrire est plus lent, pas cassé : la construction "
            "continue."});
    return;
  }
  if (failed_writes < 1 || warnings.empty()) {
    c.fail(Message{"the cache folder could not be written, and nothing said so ({} failed writes "
                   "counted, {})",
                   "le dossier du cache n'a pas pu être écrit, et rien ne l'a signalé ({} "
                   "écritures ratées comptées, {})"}
               .with(failed_writes, warnings.empty() ? Message{"no warning", "aucun avertissement"}
                                                     : Message{"a warning", "un avertissement"}));
    c.hint({"when write_file_atomically returns false, count it in failed_writes and warn(...): "
            "the user must learn why every run compiles again.",
            "quand write_file_atomically rend false, comptez-le dans failed_writes et "
            "warn(...) : l'utilisateur doit apprendre pourquoi chaque exécution recompile."});
    return;
  }
  if (compilations != 1 || memory_hits < 1) {
    c.fail(Message{"with a folder that cannot be written, two builds of lin_comb compiled {} "
                   "times, expected once (the second from memory)",
                   "avec un dossier où l'on ne peut pas écrire, deux constructions de lin_comb "
                   "ont compilé {} fois, au lieu d'une (la seconde depuis la mémoire)"}
               .with(compilations));
    c.hint({"store keeps the entry in memory first, whatever happens on disk.",
            "store garde d'abord l'entrée en mémoire, quoi qu'il arrive sur le disque."});
  }
  if (files != 0) {
    c.fail({"files appeared in a folder that cannot be written",
            "des fichiers sont apparus dans un dossier où l'on ne peut pas écrire"});
  }
}

// The same build in two fresh processes in turn, on one folder.
void check_reuse(CaseContext& c) {
  const std::string folder = folder_of(c);
  const auto one_process = [&](bool fresh) {
    return c.run_with({c.options().program}, request::reuse,
                      {folder, fresh, gk::kFirstArchitecture});
  };
  const Run first = one_process(true);
  std::int64_t succeeded = 0, from_cache = 0, compilations = 0, disk_hits = 0;
  if (!finished(c, first) || !read_all(c, first,
                                       {{result::succeeded, &succeeded},
                                        {result::from_cache, &from_cache},
                                        {result::compilations, &compilations}})) {
    return;
  }
  if (succeeded != 1 || from_cache != 0 || compilations != 1) {
    c.fail(Message{"the first process, on an empty folder: build {}, {} compilation(s), "
                   "expected 1",
                   "le premier processus, sur un dossier vide : construction {}, {} "
                   "compilation(s) au lieu de 1"}
               .with(succeeded == 1 ? Message{"succeeded", "réussie"} : Message{"failed", "ratée"},
                     compilations));
    c.hint(kNotCompiledHint);
    return;
  }
  double first_ms = 0.0, second_ms = 0.0;
  c.read_value(first, result::build_ms, first_ms);
  const Run second = one_process(false);
  if (!finished(c, second) ||
      !read_all(c, second,
                {{result::succeeded, &succeeded},
                 {result::from_cache, &from_cache},
                 {result::compilations, &compilations},
                 {result::disk_hits, &disk_hits}}) ||
      !c.read_value(second, result::build_ms, second_ms)) {
    return;
  }
  if (succeeded != 1 || from_cache != 1 || compilations != 0 || disk_hits != 1) {
    c.fail(Message{"a second process, on the folder the first one filled, called NVRTC {} "
                   "time(s) (expected 0; {} disk hit(s))",
                   "un second processus, sur le dossier que le premier a rempli, a appelé NVRTC "
                   "{} fois (0 attendu ; {} lecture(s) réussie(s) sur le disque)"}
               .with(compilations, disk_hits));
    c.hint({"lookup reads path_of(key) when memory has no entry: the key must be the same in "
            "every process (no address, no time, nothing random in it).",
            "lookup lit path_of(key) quand la mémoire n'a pas l'entrée : la clé doit être la "
            "même dans chaque processus (ni adresse, ni heure, rien d'aléatoire)."});
    return;
  }
  c.note(Message{"first process: {} ms to build lin_comb (NVRTC); second: {} ms (from the disk)",
                 "premier processus : {} ms pour construire lin_comb (NVRTC) ; second : {} ms "
                 "(depuis le disque)"}
             .with(first_ms, second_ms));
}

// ---------------------------------------------------------------------------
// On the GPU: results, the autotuner, speed
// ---------------------------------------------------------------------------

// The kernel was built and loaded; otherwise the case fails with why.
bool expect_built(CaseContext& c, const Run& run) {
  std::int64_t built = 0;
  if (!c.read_value(run, result::built, built)) return false;
  if (built == 1) return true;
  const std::string error = CaseContext::text_or_empty(run, result::error);
  c.fail(
      Message{"the kernel could not be built: {}", "le kernel n'a pas pu être construit : {}"}.with(
          error));
  c.hint(contains(error, "no kernel named")
             ? Message{"declare the kernel extern \"C\" so that its name in the CUBIN is NAME "
                       "itself.",
                       "déclarez le kernel extern \"C\" pour que son nom dans le CUBIN soit NAME "
                       "lui-même."}
             : Message{"the cases without a GPU above say which part is not done yet.",
                       "les cas sans GPU ci-dessus disent quelle partie reste à écrire."});
  return false;
}

const Message kGridStrideHint =
    Message{"the grid has ceil(n / (block * elements_per_thread)) blocks: each thread must loop, "
            "{}, or the elements past the grid's first pass are never written.",
            "la grille a ceil(n / (block * elements_per_thread)) blocs : chaque thread doit "
            "boucler, {}, sinon les éléments au-delà du premier passage de la grille ne sont "
            "jamais écrits."}
        .with("for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
              "i += blockDim.x * gridDim.x)");

struct LinCombRun {
  std::size_t n = 0;
  unsigned block = 256;
  unsigned elements_per_thread = 4;
  float a = gk::kDefaultFactor;
};

void check_lin_comb(CaseContext& c, const LinCombRun& p) {
  const Run run =
      c.run(request::lin_comb, {p.n, p.a, p.block, p.elements_per_thread, folder_of(c), true});
  if (!finished(c, run) || !expect_built(c, run)) return;
  const std::vector<float> expected =
      gk::lin_comb_reference(p.a, gk::make_x(p.n, c.seed()), gk::make_y(p.n, c.seed()));
  if (!c.expect_array(run, result::z, expected, course::kExact, kGridStrideHint)) {
    c.note(Message{"(n = {}, blocks of {} threads, {} elements per thread)",
                   "(n = {}, blocs de {} threads, {} éléments par thread)"}
               .with(p.n, p.block, p.elements_per_thread));
  }
}

constexpr std::size_t kLargeElements = (std::size_t{1} << 22) + 3;
constexpr std::size_t kSanitizerLargeElements = (std::size_t{1} << 16) + 3;
constexpr std::size_t kHiddenMaxElements = 3000000;
constexpr std::uint64_t kHiddenSalt = 19;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenSalt));
  LinCombRun p;
  p.n = static_cast<std::size_t>(rng.uniform_int(1, kHiddenMaxElements));
  p.block = static_cast<unsigned>(32 * rng.uniform_int(1, 32));
  p.elements_per_thread = static_cast<unsigned>(rng.uniform_int(1, 8));
  p.a = static_cast<float>(-4.0 + 0.125 * rng.uniform_int(0, 64));
  check_lin_comb(c, p);
}

void check_two_kernels(CaseContext& c) {
  constexpr std::size_t n = 5000;
  const Run run = c.run(request::two_kernels, {n, folder_of(c), true});
  if (!finished(c, run) || !expect_built(c, run)) return;
  const std::vector<float> x = gk::make_x(n, c.seed()), y = gk::make_y(n, c.seed());
  const Message key_hint{
      "two kernels named alike got the same CUBIN: the key must change with the source.",
      "deux kernels de même nom ont reçu le même CUBIN : la clé doit changer avec le source."};
  if (c.expect_array(run, result::plus, gk::lin_comb_reference(gk::kDefaultFactor, x, y),
                     course::kExact, kGridStrideHint)) {
    c.expect_array(run, result::minus, gk::lin_comb_reference(gk::kDefaultFactor, x, y, -1.0f),
                   course::kExact, key_hint);
  }
}

constexpr std::size_t kTuneElements = std::size_t{1} << 24;
constexpr std::size_t kSanitizerTuneElements = std::size_t{1} << 12;

request::Sized tune_params(CaseContext& c, const std::string& folder, bool fresh) {
  return {c.under_sanitizer() ? kSanitizerTuneElements : kTuneElements, folder, fresh};
}

// One process's two tunings: the first must time every candidate (or come from the
// cache, when `reused`), the second must reuse the first's choice.
void judge_tunings(CaseContext& c, const Run& run, bool reused) {
  std::int64_t repetitions = 0, first_cached = 0, block = 0, elements = 0, second_cached = 0,
               second_block = 0, second_elements = 0;
  if (!finished(c, run) || !expect_built(c, run) ||
      !read_all(c, run,
                {{result::repetitions, &repetitions},
                 {result::tuning_from_cache(gk::kFirstTuning), &first_cached},
                 {result::chosen_block(gk::kFirstTuning), &block},
                 {result::chosen_elements(gk::kFirstTuning), &elements},
                 {result::tuning_from_cache(gk::kSecondTuning), &second_cached},
                 {result::chosen_block(gk::kSecondTuning), &second_block},
                 {result::chosen_elements(gk::kSecondTuning), &second_elements}})) {
    return;
  }
  const std::vector<double> times = array_or_empty(c, run, result::tuning_ms(gk::kFirstTuning));
  const std::vector<std::int64_t> launches =
      array_or_empty(c, run, result::tuning_launches(gk::kFirstTuning));
  const Message choice = Message::verbatim("{} threads x {}").with(block, elements);
  if (reused) {
    if (first_cached != 1 || !times.empty()) {
      c.fail(Message{"a second process timed {} candidates again instead of reading the stored "
                     "choice",
                     "un second processus a chronométré {} candidats de nouveau au lieu de lire "
                     "le choix stocké"}
                 .with(times.size()));
      c.hint({"the choice is stored with store(key, ...) in the cache folder: lookup must find "
              "it in a new process (its file).",
              "le choix est stocké avec store(key, ...) dans le dossier du cache : lookup doit "
              "le trouver dans un nouveau processus (son fichier)."});
    }
    return;
  }
  if (first_cached != 0 || times.size() != gk::kCandidates || launches.size() != gk::kCandidates) {
    c.fail(Message{"the first tuning on an empty cache timed {} candidates, expected {}",
                   "le premier réglage sur un cache vide a chronométré {} candidats au lieu de {}"}
               .with(times.size(), gk::kCandidates));
    return;
  }
  for (std::size_t t = 0; t < gk::kCandidates; ++t) {
    if (!(times[t] > 0.0) || !std::isfinite(times[t])) {
      c.fail(Message{"time_launches_ms returned {} ms for candidate {}",
                     "time_launches_ms a rendu {} ms pour le candidat {}"}
                 .with(times[t], t));
      c.hint({"return the time between the events divided by the repetitions, read after "
              "cuEventSynchronize on the stop event.",
              "rendez le temps entre les événements divisé par le nombre de répétitions, lu "
              "après cuEventSynchronize sur l'événement de fin."});
      return;
    }
    if (launches[t] < repetitions + 1) {
      c.fail(Message{"time_launches_ms called its launch {} times for {} repetitions: no warm-up",
                     "time_launches_ms a appelé son lancement {} fois pour {} répétitions : pas "
                     "de tour de chauffe"}
                 .with(launches[t], repetitions));
      c.hint({"call launch() once before the first event: the first launch of a kernel pays "
              "for loading its module and warming the caches, and would count in the first "
              "candidate's time.",
              "appelez launch() une fois avant le premier événement : le premier lancement "
              "d'un kernel paie le chargement de son module et le remplissage des caches, et "
              "compterait dans le temps du premier candidat."});
      return;
    }
  }
  const auto fastest = std::min_element(times.begin(), times.end()) - times.begin();
  const std::vector<std::int64_t> blocks =
      array_or_empty(c, run, result::tuning_blocks(gk::kFirstTuning));
  const std::vector<std::int64_t> per_thread =
      array_or_empty(c, run, result::tuning_elements(gk::kFirstTuning));
  if (blocks.size() != gk::kCandidates || per_thread.size() != gk::kCandidates ||
      blocks[fastest] != block || per_thread[fastest] != elements) {
    c.fail(Message{"the choice {} is not the fastest candidate",
                   "le choix {} n'est pas le candidat le plus rapide"}
               .with(choice));
    return;
  }
  if (second_cached != 1 || second_block != block || second_elements != elements) {
    c.fail({"a second tuning in the same process did not reuse the first one's choice",
            "un second réglage dans le même processus n'a pas repris le choix du premier"});
    c.hint({"store keeps the choice in memory: lookup must find it there.",
            "store garde le choix en mémoire : lookup doit l'y trouver."});
    return;
  }
  c.note(Message{"chosen: {} elements per thread, {} ms a launch",
                 "choix : {} éléments par thread, {} ms par lancement"}
             .with(choice, times[fastest]));
}

void check_tune(CaseContext& c) {
  judge_tunings(c, c.run(request::tune, tune_params(c, folder_of(c), true)), false);
}

void check_tuning_reused(CaseContext& c) {
  const std::string folder = folder_of(c);
  const Run first = c.run_with({c.options().program}, request::tune, tune_params(c, folder, true));
  judge_tunings(c, first, false);
  if (!c.passed()) return;
  judge_tunings(c, c.run_with({c.options().program}, request::tune, tune_params(c, folder, false)),
                true);
}

// lin_comb reads x and y and writes z: 3 x 4 bytes per element. 64M elements move
// 768 MiB, far beyond any L2: both kernels and the copy run at the memory's speed.
constexpr std::size_t kSpeedElements = std::size_t{1} << 26;
constexpr std::size_t kSanitizerSpeedElements = std::size_t{1} << 14;
constexpr int kSpeedRepetitions = 20;
constexpr int kSpeedRounds = 3;
// The bars (tests/speed_bars.md). The yardstick that follows the GPU is the same expression
// compiled by nvcc in the same program: the generated kernel took 0.93-0.96 of its time on
// the H100 and the H200. The copy ceiling moves 2 arrays where lin_comb moves 3, and the
// H200 streams 3 arrays less well than 2 (lin_comb: 97-98% of the copy on the H100, 90% on
// the H200): its bar only catches a kernel far from the memory's speed.
constexpr course::check::SpeedBar kByHandBar{
    "the generated lin_comb's time over nvcc's",
    course::check::BarKind::at_most,
    1.15,
    "0.95-0.96 on H100, 0.92-0.93 on H200",
    "temps du lin_comb généré divisé par celui du lin_comb compilé par nvcc",
    "0.95-0.96 sur H100, 0.92-0.93 sur H200"};
constexpr course::check::SpeedBar kCopyCeilingBar{"lin_comb's share of the copy ceiling",
                                                  course::check::BarKind::at_least,
                                                  0.75,
                                                  "0.97-0.98 on H100, 0.90 on H200",
                                                  "part du plafond de copie atteinte par lin_comb",
                                                  "0.97-0.98 sur H100, 0.90 sur H200"};
constexpr double kSpeedTimeoutSeconds = 90.0;

void check_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const std::size_t n = sanitized ? kSanitizerSpeedElements : kSpeedElements;
  const Run run = c.run(request::speed,
                        {n, sanitized ? 1 : kSpeedRepetitions, sanitized ? 1 : kSpeedRounds,
                         folder_of(c), true},
                        0, kSpeedTimeoutSeconds);
  if (!finished(c, run) || !expect_built(c, run)) return;
  std::vector<float> reference;
  if (!CaseContext::reported(run, result::by_hand) ||
      !c.read_array(run, result::by_hand, reference)) {
    c.fail({"the program reported no output of the kernel written by hand",
            "le programme n'a rendu aucune sortie du kernel écrit à la main"});
    return;
  }
  if (!c.expect_array(run, result::z, reference, course::kExact, kGridStrideHint)) {
    return;
  }
  if (!c.times_judged()) return;
  double copy_ms = 0.0, generated_ms = 0.0, hand_ms = 0.0;
  if (!c.read_times(run, {{result::copy_ms, copy_ms},
                          {result::generated_ms, generated_ms},
                          {result::hand_ms, hand_ms}})) {
    return;
  }
  const double array_bytes = static_cast<double>(n) * sizeof(float);
  const double copy_gbps = 2.0 * array_bytes / (copy_ms * 1e-3) / 1e9;
  const double generated_gbps = 3.0 * array_bytes / (generated_ms * 1e-3) / 1e9;
  const double share = generated_gbps / copy_gbps;
  const double ratio = generated_ms / hand_ms;
  c.note(Message{"copy ceiling: {} GB/s = 2 x {} B / {} ms",
                 "plafond de copie : {} GB/s = 2 x {} o / {} ms"}
             .with(copy_gbps, array_bytes, copy_ms));
  c.note(Message{"lin_comb generated: {} GB/s = 3 x {} B (x, y read, z written) / {} ms = {}% of "
                 "the copy ceiling; by hand (nvcc): {} ms, ratio {}",
                 "lin_comb généré : {} GB/s = 3 x {} o (x, y lus, z écrit) / {} ms = {} % du "
                 "plafond de copie ; à la main (nvcc) : {} ms, rapport {}"}
             .with(generated_gbps, array_bytes, generated_ms, 100.0 * share, hand_ms, ratio));
  const Message tuned_hint{
      "the tuned configuration and the grid-stride loop should run at the memory's speed: is "
      "every pointer __restrict__, and does consecutive i go to consecutive threads?",
      "la configuration réglée et la boucle à pas de grille devraient tourner à la vitesse de "
      "la mémoire : chaque pointeur est-il __restrict__, et des i consécutifs vont-ils à des "
      "threads consécutifs ?"};
  const bool near_nvcc = c.judge_speed(kByHandBar, ratio);
  if (!(c.judge_speed(kCopyCeilingBar, share) && near_nvcc)) c.hint(tuned_hint);
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::host_only;
  using course::check::timed;
  course::check::Exercise exercise{
      "19",
      "generated_kernels",
      {
          host_only({"source_restrict_and_compiles", 2,
                     [](CaseContext& c) {
                       check_source(c, gk::kLinCombArguments, gk::kLinCombOperation,
                                    gk::kLinCombName);
                       if (c.passed()) {
                         check_source(c, "double s, int k, const double* u, double* v",
                                      "v[i] = s * u[i] + k", "scaled_shift");
                       }
                     }}),
          host_only({"compile_error_log_and_nothing_cached", 2, check_compile_error}),
          host_only({"same_name_other_body_other_entry", 2,
                     [](CaseContext& c) { check_two_builds(c, true); }}),
          host_only(
              {"architecture_in_the_key", 2, [](CaseContext& c) { check_two_builds(c, false); }}),
          host_only({"key_changes_with_the_source", 1,
                     [](CaseContext& c) { check_key_field(c, kKeySource); }}),
          host_only({"key_changes_with_the_options", 1,
                     [](CaseContext& c) { check_key_field(c, kKeyOptions); }}),
          host_only({"key_changes_with_the_architecture", 1,
                     [](CaseContext& c) { check_key_field(c, kKeyArchitecture); }}),
          host_only({"key_changes_with_the_nvrtc_version", 1,
                     [](CaseContext& c) { check_key_field(c, kKeyNvrtcVersion); }}),
          host_only({"truncated_file_rebuilt", 2,
                     [](CaseContext& c) { check_corrupt(c, request::Damage::truncate); }}),
          host_only({"changed_byte_rebuilt", 1,
                     [](CaseContext& c) { check_corrupt(c, request::Damage::flip); }}),
          host_only({"read_only_folder_works_and_warns", 2, check_read_only}),
          host_only({"second_process_compiles_nothing", 2, check_reuse}),
          {"lin_comb_n_1000", 2, [](CaseContext& c) { check_lin_comb(c, {1000}); }},
          {"n_zero_then_one", 1,
           [](CaseContext& c) {
             check_lin_comb(c, {0});
             if (c.passed()) check_lin_comb(c, {1});
           }},
          {"grid_smaller_than_n", 2,
           [](CaseContext& c) {
             check_lin_comb(c, {c.under_sanitizer() ? kSanitizerLargeElements : kLargeElements, 96,
                                3});
           }},
          {"hidden_size_and_configuration", 1, check_hidden, course::check::kHiddenCase},
          {"same_name_kernels_both_right", 1, check_two_kernels},
          {"autotuner_times_every_candidate", 2, check_tune},
          {"autotuner_choice_reused_by_a_second_process", 1, check_tuning_reused},
          timed({"lin_comb_near_copy_ceiling_and_nvcc", 3, check_speed},
                {kByHandBar, kCopyCeilingBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
