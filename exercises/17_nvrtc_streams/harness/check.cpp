// Exercise 17 - the check. Runs the student's program case by case and judges what it
// reports: the context it made current, the architecture option, what NVRTC's
// compilation returned (the log of a source with an error, a CUBIN and the lowered
// names of SAXPY), SAXPY's results against the same kernel compiled by nvcc (bit for
// bit) and against std::fma, the pipeline's buffers (pinned, freed), its results and
// whether work was left on its streams, and the times of both speed cases.
// Contains no student code.
//
//   make check-17                          (students)
//   build/.../check_17 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = nvrtc_streams::request;
namespace result = nvrtc_streams::result;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A run that stopped in the middle: the likely mistake from the error the program printed.
void explain_stop(CaseContext& c, const Run& run) {
  const std::string& output = run.child.output;
  if (contains(output, "nvrtcCompileProgram") && contains(output, "NVRTC_ERROR_COMPILATION")) {
    c.hint({"nvrtcCompileProgram returns NVRTC_ERROR_COMPILATION for a source with errors: "
            "that is a result to return (succeeded = false, with the log), not an error to "
            "exit on with NVRTC_CHECK.",
            "nvrtcCompileProgram rend NVRTC_ERROR_COMPILATION pour un source qui contient des "
            "erreurs : c'est un résultat à rendre (succeeded = false, avec le journal), pas une "
            "erreur sur laquelle quitter avec NVRTC_CHECK."});
  }
  if (contains(output, "cuModuleGetFunction") && contains(output, "CUDA_ERROR_NOT_FOUND")) {
    c.hint({"the module knows its kernels by their mangled names: look them up with the "
            "lowered name nvrtcGetLoweredName gave for each name expression, not with "
            "\"saxpy<float>\".",
            "le module connaît ses kernels par leurs noms décorés : cherchez-les avec le nom "
            "décoré que nvrtcGetLoweredName a donné pour chaque expression de nom, pas avec "
            "\"saxpy<float>\"."});
  }
  if (contains(output, "cuModuleLoadData") &&
      (contains(output, "CUDA_ERROR_NO_BINARY_FOR_GPU") || contains(output, "INVALID_IMAGE") ||
       contains(output, "INVALID_PTX"))) {
    c.hint({"the CUBIN was built for another GPU: --gpu-architecture=sm_XY must follow the "
            "compute capability of the device the program runs on (cuDeviceGetAttribute).",
            "le CUBIN a été produit pour un autre GPU : --gpu-architecture=sm_XY doit suivre la "
            "compute capability du GPU sur lequel le programme s'exécute "
            "(cuDeviceGetAttribute)."});
  }
  if (run.child.signal != 0 && !contains(output, "error at")) {
    c.hint({"a crash on the host inside a launch? cuLaunchKernel's kernelParams is an array of "
            "pointers to the arguments (void* args[] = {&a, &x, &y, &out, &n}), never the "
            "arguments themselves.",
            "un plantage sur l'hôte pendant un lancement ? Le kernelParams de cuLaunchKernel est "
            "un tableau de pointeurs vers les arguments (void* args[] = {&a, &x, &y, &out, &n}), "
            "jamais les arguments eux-mêmes."});
  }
}

bool finished(CaseContext& c, const Run& run) {
  if (c.finished(run)) return true;
  explain_stop(c, run);
  return false;
}

// ---------------------------------------------------------------------------
// Parts 1 and 2: the context, the architecture, NVRTC
// ---------------------------------------------------------------------------

void check_context(CaseContext& c) {
  const Run run = c.run(request::context, {});
  std::int64_t primary = 0, none = 0, device = 0;
  if (!finished(c, run) || !c.read_value(run, result::current_is_primary, primary) ||
      !c.read_value(run, result::current_is_none, none) ||
      !c.read_value(run, result::device_is_ordinal, device)) {
    return;
  }
  if (primary != 1) {
    c.fail(none ? Message{"use_primary_context left no context current",
                          "use_primary_context n'a laissé aucun contexte courant"}
                : Message{"use_primary_context made a context current that is not the device's "
                          "primary context",
                          "use_primary_context a rendu courant un contexte qui n'est pas le "
                          "contexte primaire du GPU"});
    c.hint({"cuDevicePrimaryCtxRetain gives the context the runtime API uses; make it current "
            "with cuCtxSetCurrent. A context of your own (cuCtxCreate) cannot use the "
            "runtime's buffers.",
            "cuDevicePrimaryCtxRetain donne le contexte qu'utilise l'API runtime ; rendez-le "
            "courant avec cuCtxSetCurrent. Un contexte à vous (cuCtxCreate) ne peut pas utiliser "
            "les tampons du runtime."});
  } else if (device != 1) {
    c.fail({"use_primary_context returned another device than the one of this ordinal",
            "use_primary_context a rendu un autre GPU que celui de ce numéro"});
    c.hint({"return the CUdevice that cuDeviceGet gave for the ordinal.",
            "rendez le CUdevice que cuDeviceGet a donné pour ce numéro."});
  }
}

// Judged on what the option does, not on its spelling (-arch=sm_90 and
// --gpu-architecture=sm_90 are the same option): the runner compiles a one-line kernel
// with it, loads the CUBIN and reads the architecture the CUBIN holds.
const Message kArchitectureHint{
    "build the option from the compute capability of the device "
    "(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR and _MINOR), never a fixed one, and ask "
    "for a real architecture (sm_XY, a CUBIN), not a virtual one (compute_XY, PTX).",
    "construisez l'option à partir de la compute capability du GPU "
    "(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR et _MINOR), jamais une option fixe, et "
    "demandez une architecture réelle (sm_XY, un CUBIN), pas une architecture virtuelle "
    "(compute_XY, PTX)."};

void check_architecture(CaseContext& c) {
  const Run run = c.run(request::architecture, {});
  std::int64_t major = 0, minor = 0, compiled = 0, cubin_bytes = 0, loaded = 0, version = 0;
  if (!finished(c, run) || !c.read_value(run, result::cc_major, major) ||
      !c.read_value(run, result::cc_minor, minor) ||
      !c.read_value(run, result::compiled, compiled) ||
      !c.read_value(run, result::cubin_bytes, cubin_bytes) ||
      !c.read_value(run, result::loaded, loaded) ||
      !c.read_value(run, result::binary_version, version)) {
    return;
  }
  const std::string option = CaseContext::text_or_empty(run, result::option);
  const std::string device = "sm_" + std::to_string(major) + std::to_string(minor);
  const Message with = Message{"a kernel compiled with architecture_option's '{}'",
                               "un kernel compilé avec l'option « {} » d'architecture_option"}
                           .with(option);
  if (compiled != 1) {
    const std::string log = CaseContext::text_or_empty(run, result::log);
    c.fail(Message{"NVRTC did not compile {}", "NVRTC n'a pas compilé {}"}.with(with) +
           (log.empty() ? Message()
                        : Message{"; its log:\n{}", " ; son journal :\n{}"}.with(
                              course::check::indent_excerpt(log, 8))));
  } else if (cubin_bytes == 0) {
    c.fail(Message{"{} gave no CUBIN, only PTX", "{} n'a donné aucun CUBIN, seulement du PTX"}.with(
        with));
  } else if (loaded != 1) {
    c.fail(Message{"the CUBIN of {} does not load on this device ({}): {}",
                   "le CUBIN d'{} ne se charge pas sur ce GPU ({}) : {}"}
               .with(with, device, CaseContext::text_or_empty(run, result::load_error)));
  } else if (version != 10 * major + minor) {
    c.fail(Message{"the CUBIN of {} is for sm_{}, the device is {}",
                   "le CUBIN d'{} vise sm_{}, alors que le GPU est un {}"}
               .with(with, version, device));
  } else {
    return;
  }
  c.hint(kArchitectureHint);
}

// The source with an error the check supplies: one line (a case parameter), the
// template of SAXPY with an identifier declared nowhere.
constexpr const char* kUndeclared = "undeclared_offset";
const std::string kBrokenSource =
    std::string("template <typename T> __global__ void saxpy(T a, const T* x, const T* y, T* out, "
                "size_t n) { const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; "
                "if (i < n) out[i] = a * x[i] + y[i] + ") +
    kUndeclared + "; }";

// The clean-up gives back what the code took: the runner counts the calls (its --wrap
// accounting of cuModuleLoad*, cuModuleUnload, cuDevicePrimaryCtxRetain and _Release).
void check_clean_up(CaseContext& c) {
  const Run run = c.run(request::clean_up, {});
  std::int64_t ready = 0, loads = 0, unloads = 0, retains = 0, releases = 0;
  if (!finished(c, run) || !c.read_value(run, result::loaded, ready) ||
      !c.read_value(run, result::modules_loaded, loads) ||
      !c.read_value(run, result::modules_unloaded, unloads) ||
      !c.read_value(run, result::retained, retains) ||
      !c.read_value(run, result::released, releases)) {
    return;
  }
  if (ready != 1) {
    c.fail({"SAXPY was not compiled and loaded (compile_to_cubin, then load_saxpy)",
            "SAXPY n'a pas été compilé puis chargé (compile_to_cubin, puis load_saxpy)"});
  } else if (unloads < loads) {
    c.fail(Message{"load_saxpy then unload_saxpy loaded {} module(s) and unloaded {}",
                   "load_saxpy puis unload_saxpy ont chargé {} module(s) et en ont déchargé {}"}
               .with(loads, unloads));
    c.hint({"every module loaded needs its cuModuleUnload: unload_saxpy must unload the module "
            "load_saxpy loaded. A module left loaded keeps its code on the device until the "
            "context ends.",
            "chaque module chargé demande son cuModuleUnload : unload_saxpy doit décharger le "
            "module que load_saxpy a chargé. Un module laissé chargé garde son code sur le GPU "
            "jusqu'à la fin du contexte."});
  } else if (releases < retains) {
    c.fail(Message{"use_primary_context then release_primary_context retained the primary "
                   "context {} time(s) and released it {} time(s)",
                   "use_primary_context puis release_primary_context ont retenu le contexte "
                   "primaire {} fois et l'ont libéré {} fois"}
               .with(retains, releases));
    c.hint({"every cuDevicePrimaryCtxRetain needs its cuDevicePrimaryCtxRelease: "
            "release_primary_context gives back what use_primary_context retained.",
            "chaque cuDevicePrimaryCtxRetain demande son cuDevicePrimaryCtxRelease : "
            "release_primary_context rend ce que use_primary_context a retenu."});
  }
}

void check_compile_error(CaseContext& c) {
  const Run run = c.run(request::compile, {kBrokenSource});
  std::int64_t succeeded = 0, cubin_bytes = 0;
  if (!finished(c, run) || !c.read_value(run, result::succeeded, succeeded) ||
      !c.read_value(run, result::cubin_bytes, cubin_bytes)) {
    return;
  }
  const std::string log = CaseContext::text_or_empty(run, result::log);
  if (succeeded != 0) {
    c.fail(Message{"compile_to_cubin reported success for a source that uses '{}', declared "
                   "nowhere",
                   "compile_to_cubin a annoncé un succès pour un source qui utilise « {} », "
                   "déclaré nulle part"}
               .with(kUndeclared));
    c.hint({"succeeded is whether nvrtcCompileProgram returned NVRTC_SUCCESS.",
            "succeeded dit si nvrtcCompileProgram a rendu NVRTC_SUCCESS."});
  } else if (!contains(log, kUndeclared)) {
    c.fail(log.empty()
               ? Message{"compile_to_cubin returned an empty log for a source with an error",
                         "compile_to_cubin a rendu un journal vide pour un source qui contient "
                         "une erreur"}
               : Message{"the log returned does not name the error ('{}' is undefined); it "
                         "reads:\n{}",
                         "le journal rendu ne nomme pas l'erreur (« {} » n'est pas défini) ; il "
                         "dit :\n{}"}
                     .with(kUndeclared, course::check::indent_excerpt(log, 8)));
    c.hint({"read the program log (nvrtcGetProgramLogSize, then nvrtcGetProgramLog) after "
            "nvrtcCompileProgram, whatever it returned: it is all the caller gets to see why.",
            "lisez le journal du programme (nvrtcGetProgramLogSize, puis nvrtcGetProgramLog) "
            "après nvrtcCompileProgram, quoi qu'il ait rendu : c'est tout ce que l'appelant "
            "aura pour savoir pourquoi."});
  } else if (cubin_bytes != 0) {
    c.fail(Message{"compile_to_cubin returned a CUBIN of {} bytes for a source that did not "
                   "compile",
                   "compile_to_cubin a rendu un CUBIN de {} octets pour un source qui n'a pas "
                   "compilé"}
               .with(cubin_bytes));
    c.hint({"ask for the CUBIN only when the compilation succeeded.",
            "ne demandez le CUBIN que si la compilation a réussi."});
  }
}

void check_compile_saxpy(CaseContext& c) {
  const Run run = c.run(request::compile, {});
  std::int64_t succeeded = 0, cubin_bytes = 0, lowered_count = 0;
  if (!finished(c, run) || !c.read_value(run, result::succeeded, succeeded) ||
      !c.read_value(run, result::cubin_bytes, cubin_bytes) ||
      !c.read_value(run, result::lowered_count, lowered_count)) {
    return;
  }
  const std::string log = CaseContext::text_or_empty(run, result::log);
  const std::string head = CaseContext::text_or_empty(run, result::cubin_head);
  const std::string names = CaseContext::text_or_empty(run, result::lowered_names);
  if (succeeded != 1) {
    c.fail(Message{"compile_to_cubin failed on SAXPY", "compile_to_cubin a échoué sur SAXPY"} +
           (log.empty() ? Message{" (and returned no log)", " (et n'a rendu aucun journal)"}
                        : Message{"; the log:\n{}", " ; le journal :\n{}"}.with(
                              course::check::indent_excerpt(log, 8))));
    c.hint({"the options: --gpu-architecture=sm_XY of the device, -default-device, --std=c++17, "
            "--fmad=true; and each name expression added before the compilation.",
            "les options : --gpu-architecture=sm_XY du GPU, -default-device, --std=c++17, "
            "--fmad=true ; et chaque expression de nom ajoutée avant la compilation."});
    return;
  }
  if (head.size() < 4 || std::memcmp(head.data(), nvrtc_streams::kElfMagic, 4) != 0) {
    c.fail(Message{"the CUBIN returned ({} bytes) is not an ELF image: {}",
                   "le CUBIN rendu ({} octets) n'est pas une image ELF : {}"}
               .with(cubin_bytes, head.rfind("//", 0) == 0
                                      ? Message{"it is PTX text", "c'est du texte PTX"}
                                      : Message{"it starts with other bytes",
                                                "il commence par d'autres octets"}));
    c.hint({"take the machine code with nvrtcGetCUBINSize and nvrtcGetCUBIN (not nvrtcGetPTX), "
            "compiled for a real architecture, sm_XY.",
            "prenez le code machine avec nvrtcGetCUBINSize et nvrtcGetCUBIN (pas nvrtcGetPTX), "
            "compilé pour une architecture réelle, sm_XY."});
    return;
  }
  // Two names, one per line, each a mangled (Itanium ABI) name of saxpy.
  const std::size_t split = names.find('\n');
  const std::string float_name = names.substr(0, split);
  const std::string double_name =
      split == std::string::npos ? ""
                                 : names.substr(split + 1, names.find('\n', split + 1) - split - 1);
  const auto mangled = [](const std::string& name) {
    return name.rfind("_Z", 0) == 0 && contains(name, "saxpy");
  };
  if (lowered_count != 2 || !mangled(float_name) || !mangled(double_name) ||
      float_name == double_name) {
    c.fail(Message{"expected the two lowered names of saxpy<float> and saxpy<double> (mangled "
                   "names that start with _Z), got {}:\n{}",
                   "attendu : les deux noms décorés de saxpy<float> et saxpy<double> (qui "
                   "commencent par _Z) ; reçu {} nom(s) :\n{}"}
               .with(lowered_count, course::check::indent_excerpt(names, 4)));
    c.hint({"add each name expression with nvrtcAddNameExpression before the compilation and "
            "read its lowered name with nvrtcGetLoweredName after it, before "
            "nvrtcDestroyProgram.",
            "ajoutez chaque expression de nom avec nvrtcAddNameExpression avant la compilation, "
            "et lisez son nom décoré avec nvrtcGetLoweredName après elle, avant "
            "nvrtcDestroyProgram."});
  }
}

// ---------------------------------------------------------------------------
// Part 3: SAXPY through the driver API, against nvcc's build of the same text
// ---------------------------------------------------------------------------

const Message kLaunchHint{
    "one thread per element on ceil(n / kSaxpyThreadsPerBlock) blocks of "
    "kSaxpyThreadsPerBlock threads (none when n == 0), the arguments in the order of the "
    "kernel's parameters.",
    "un thread par élément sur ceil(n / kSaxpyThreadsPerBlock) blocs de "
    "kSaxpyThreadsPerBlock threads (aucun quand n == 0), les arguments dans l'ordre des "
    "paramètres du kernel."};

bool expect_loaded(CaseContext& c, const Run& run) {
  std::int64_t loaded = 0;
  if (!c.read_value(run, result::loaded, loaded)) return false;
  if (loaded == 1) return true;
  c.fail({"SAXPY could not be compiled and loaded: compile_to_cubin or load_saxpy returned "
          "nothing usable",
          "SAXPY n'a pas pu être compilé puis chargé : compile_to_cubin ou load_saxpy n'a rien "
          "rendu d'utilisable"});
  c.hint({"the cases above say which of compile_to_cubin, load_saxpy is not done yet.",
          "les cas ci-dessus disent laquelle de compile_to_cubin et load_saxpy reste à écrire."});
  return false;
}

template <typename T>
void check_saxpy(CaseContext& c, std::size_t n, double a) {
  const bool single = sizeof(T) == sizeof(float);
  const char* type = single ? "float" : "double";
  const Run run =
      c.run(request::saxpy, {single ? request::Element::float32 : request::Element::float64, n, a});
  if (!finished(c, run) || !expect_loaded(c, run)) return;
  std::vector<T> nvcc;
  if (!CaseContext::reported(run, result::nvcc_out<T>) ||
      !c.read_array(run, result::nvcc_out<T>, nvcc) || nvcc.size() != n) {
    c.fail({"the program reported no output of the nvcc-built kernel",
            "le programme n'a rendu aucune sortie du kernel compilé par nvcc"});
    return;
  }
  if (!c.expect_array(run, result::out<T>, nvcc, course::kExact, kLaunchHint)) {
    c.note(Message{"(saxpy<{}>, n = {}, compared bit for bit with the same kernel compiled by "
                   "nvcc)",
                   "(saxpy<{}>, n = {}, comparé bit à bit avec le même kernel compilé par nvcc)"}
               .with(type, n));
    return;
  }
  // Both builds contract a * x + y into one FMA: what std::fma computes exactly.
  const std::vector<T> fused =
      nvrtc_streams::saxpy_reference<T>(static_cast<T>(a), nvrtc_streams::make_x<T>(n, c.seed()),
                                        nvrtc_streams::make_y<T>(n, c.seed()));
  if (!c.expect_array(run, result::out<T>, fused, course::kExact)) {
    c.hint({"nvcc's and NVRTC's results agree but differ from one fused multiply-add: was the "
            "program compiled with --fmad=false, or NVRTC given it?",
            "les résultats de nvcc et de NVRTC concordent mais diffèrent d'une seule "
            "multiplication-addition fusionnée : le programme a-t-il été compilé avec "
            "--fmad=false, ou NVRTC a-t-il reçu cette option ?"});
  }
}

constexpr std::size_t kFixedGridElements = (std::size_t{1} << 24) + 3;
constexpr std::size_t kSanitizerFixedGridElements = (std::size_t{1} << 20) + 3;
constexpr std::size_t kHiddenMaxElements = 3000000;
constexpr std::uint64_t kHiddenSalt = 17;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenSalt));
  const auto n = static_cast<std::size_t>(rng.uniform_int(1, kHiddenMaxElements));
  const double a = -4.0 + 0.125 * static_cast<double>(rng.uniform_int(0, 64));
  check_saxpy<float>(c, n, a);
}

// ---------------------------------------------------------------------------
// Part 4: the pipelines
// ---------------------------------------------------------------------------

constexpr int kOneStream = 0;  // the case's "chunk" for saxpy_one_stream

struct PipelineRun {
  std::size_t n = 0;
  std::size_t chunk = kOneStream;
  int streams = 1;
};

Message describe(const PipelineRun& p) {
  if (p.chunk == kOneStream) return Message::verbatim("saxpy_one_stream, n = {}").with(p.n);
  return Message{"saxpy_chunked, n = {}, chunks of {} over {} streams",
                 "saxpy_chunked, n = {}, morceaux de {} sur {} streams"}
      .with(p.n, p.chunk, p.streams);
}

const Message kPinnedHint{
    "allocate the host buffers with cuMemHostAlloc (or cudaMallocHost): an asynchronous copy "
    "from pageable memory (new, malloc, std::vector) is staged through a buffer of the driver's "
    "and overlaps nothing.",
    "allouez les tampons de l'hôte avec cuMemHostAlloc (ou cudaMallocHost) : une copie "
    "asynchrone depuis de la mémoire paginable (new, malloc, std::vector) passe par un tampon "
    "du pilote et ne recouvre rien."};
const Message kSynchronizeHint{
    "the function must return with the result on the host: synchronize every stream it used "
    "(cuStreamSynchronize) after enqueueing the last copy back.",
    "la fonction doit rendre la main avec le résultat sur l'hôte : synchronisez chaque stream "
    "qu'elle a utilisé (cuStreamSynchronize) après avoir mis en file la dernière copie de "
    "retour."};

// What a pipeline run must always satisfy: allocated, no work left on return, every
// element right. `what` selects the extra property judged.
enum class Judge { values, pinned, freed };

void check_pipeline(CaseContext& c, const PipelineRun& p, Judge what = Judge::values) {
  const double a = nvrtc_streams::kDefaultFactor;
  const Run run = c.run(request::pipeline, {p.n, p.chunk, p.streams, a});
  std::int64_t allocated = 0, pinned = 0, busy = 0, still_allocated = 0;
  if (!finished(c, run) || !expect_loaded(c, run) ||
      !c.read_value(run, result::allocated, allocated) ||
      !c.read_value(run, result::pinned_buffers, pinned)) {
    return;
  }
  if (allocated != 1) {
    c.fail(Message{"allocate_pipeline({}, {}) returned a pipeline without its six buffers, its "
                   "streams or its capacity",
                   "allocate_pipeline({}, {}) a rendu un pipeline sans ses six tampons, ses "
                   "streams ou sa capacité"}
               .with(std::max<std::size_t>(p.n, 1), p.streams));
    c.hint({"allocate every buffer, create stream_count streams and set capacity.",
            "allouez chaque tampon, créez stream_count streams et fixez capacity."});
    return;
  }
  if (what == Judge::pinned && pinned != 3) {
    c.fail(Message{"{} of the three host buffers are not pinned (cudaPointerGetAttributes does "
                   "not call them host memory)",
                   "{} des trois tampons de l'hôte ne sont pas épinglés "
                   "(cudaPointerGetAttributes ne les reconnaît pas comme mémoire de l'hôte)"}
               .with(3 - pinned));
    c.hint(kPinnedHint);
    return;
  }
  if (!c.read_value(run, result::busy_streams, busy)) return;
  if (busy > 0) {
    c.fail(Message{"{} returned with work still queued on {} stream(s)",
                   "{} a rendu la main avec du travail encore en file sur {} stream(s)"}
               .with(describe(p), busy));
    c.hint(kSynchronizeHint);
  }
  const std::vector<float> expected =
      nvrtc_streams::saxpy_reference<float>(static_cast<float>(a),
                                            nvrtc_streams::make_x<float>(p.n, c.seed()),
                                            nvrtc_streams::make_y<float>(p.n, c.seed()));
  if (!c.expect_array(
          run, result::out<float>, expected, course::kExact,
          Message{"each chunk k covers elements [k * chunk, min((k + 1) * chunk, n)) of "
                  "every buffer; device addresses count bytes (first * sizeof(float))",
                  "chaque morceau k couvre les éléments [k * chunk ; min((k + 1) * chunk, "
                  "n)[ de chaque tampon ; les adresses du GPU comptent en octets "
                  "(first * sizeof(float))"})) {
    c.note(Message::verbatim("({})").with(describe(p)));
    if (busy > 0) c.hint(kSynchronizeHint);
    return;
  }
  if (what == Judge::freed) {
    if (!c.read_value(run, result::still_allocated, still_allocated)) return;
    if (still_allocated != 0) {
      c.fail(Message{"{} of the six buffers were still allocated after free_pipeline",
                     "{} des six tampons étaient encore alloués après free_pipeline"}
                 .with(still_allocated));
      c.hint({"free_pipeline must free every buffer (cuMemFreeHost for the host ones, cuMemFree "
              "for the device ones) and destroy every stream.",
              "free_pipeline doit libérer chaque tampon (cuMemFreeHost pour ceux de l'hôte, "
              "cuMemFree pour ceux du GPU) et détruire chaque stream."});
    }
  }
}

// ---------------------------------------------------------------------------
// Timed cases
// ---------------------------------------------------------------------------

// SAXPY reads 8 bytes and writes 4 per element: 64M elements move 768 MiB, far beyond
// any L2, so both kernels run at the memory's speed; the same text compiled by two
// front ends gives the same machine code, within a few percent of time.
constexpr std::size_t kKernelSpeedElements = std::size_t{1} << 26;
constexpr std::size_t kSanitizerSpeedElements = std::size_t{1} << 16;
constexpr int kKernelRepetitions = 20;
constexpr int kSpeedRounds = 3;
// The same machine code runs at the same speed: 1.00 on the H100 and on the H200
// (tests/speed_bars.md). Only a slower NVRTC build is a mistake (debug code, -G, a
// build for another architecture); the bar leaves the noise of two timed kernels room.
constexpr course::check::SpeedBar kSameSpeedBar{
    "NVRTC's kernel time over nvcc's",
    course::check::BarKind::at_most,
    1.25,
    "1.00 on H100 and H200",
    "temps du kernel compilé par NVRTC divisé par celui du kernel compilé par nvcc",
    "1.00 sur H100 et H200"};
// Both speed cases generate and move hundreds of MiB before they time anything.
constexpr double kSpeedTimeoutSeconds = 60.0;

void check_kernel_speed(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const std::size_t n = sanitized ? kSanitizerSpeedElements : kKernelSpeedElements;
  const Run run = c.run(request::kernel_speed,
                        {n, sanitized ? 1 : kKernelRepetitions, sanitized ? 1 : kSpeedRounds}, 0,
                        kSpeedTimeoutSeconds);
  if (!finished(c, run) || !expect_loaded(c, run)) return;
  std::vector<float> nvcc;
  if (!CaseContext::reported(run, result::nvcc_out<float>) ||
      !c.read_array(run, result::nvcc_out<float>, nvcc)) {
    c.fail({"the program reported no output of the nvcc-built kernel",
            "le programme n'a rendu aucune sortie du kernel compilé par nvcc"});
    return;
  }
  if (!c.expect_array(run, result::out<float>, nvcc, course::kExact, kLaunchHint)) {
    return;
  }
  if (!c.times_judged()) return;
  double nvrtc_ms = 0.0, nvcc_ms = 0.0, compile_ms = 0.0;
  if (!c.read_times(run, {{result::nvrtc_ms, nvrtc_ms},
                          {result::nvcc_ms, nvcc_ms},
                          {result::compile_ms, compile_ms}})) {
    return;
  }
  const Message figures =
      Message{"saxpy<float> on {} elements: NVRTC's build {} ms, nvcc's {} ms (compiling it "
              "took {} ms)",
              "saxpy<float> sur {} éléments : version de NVRTC {} ms, de nvcc {} ms (sa "
              "compilation a pris {} ms)"}
          .with(n, nvrtc_ms, nvcc_ms, compile_ms);
  c.judge_speed(
      kSameSpeedBar, nvrtc_ms / nvcc_ms, figures,
      {Message{"the same kernel on the same grid runs at the same speed: launch it on "
               "kSaxpyThreadsPerBlock-thread blocks, one thread per element, compiled for this "
               "GPU's sm_XY.",
               "le même kernel sur la même grille s'exécute à la même vitesse : lancez-le sur "
               "des blocs de kSaxpyThreadsPerBlock threads, un thread par élément, compilé "
               "pour le sm_XY de ce GPU."}});
}

// 16M floats: 128 MiB to copy in, 64 MiB back, a kernel of a fraction of that time.
// One stream costs about t(in) + t(kernel) + t(out); in 16 chunks over 4 streams the
// copies in and out (separate copy engines, one per direction) and the kernels overlap,
// and the time approaches the longest part, t(in): (t(in) + t(out)) / t(in) is about
// 1.5 when the bus runs at the same speed both ways. Measured (tests/speed_bars.md): 1.35-1.36
// on the H100 and the H200, the chunks at the ends of the pipeline overlapping nothing;
// chunks on one stream 0.92, pageable buffers 0.94-0.97.
constexpr std::size_t kOverlapElements = std::size_t{1} << 24;
constexpr std::size_t kSanitizerOverlapElements = std::size_t{1} << 16;
constexpr std::size_t kOverlapChunks = 16;
constexpr int kOverlapStreams = 4;
constexpr int kOverlapRepetitions = 5;
constexpr course::check::SpeedBar kOverlapBar{
    "speed-up of the chunked pipeline over one stream",
    course::check::BarKind::at_least,
    1.15,
    "1.35-1.36 on H100 and H200",
    "accélération du pipeline en morceaux par rapport à un seul stream",
    "1.35-1.36 sur H100 et H200"};

void check_overlap(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const std::size_t n = sanitized ? kSanitizerOverlapElements : kOverlapElements;
  const Run run = c.run(request::overlap,
                        {n, n / kOverlapChunks, kOverlapStreams,
                         sanitized ? 1 : kOverlapRepetitions, sanitized ? 1 : kSpeedRounds},
                        0, kSpeedTimeoutSeconds);
  std::int64_t allocated = 0, pinned = 0, busy = 0;
  if (!finished(c, run) || !expect_loaded(c, run) ||
      !c.read_value(run, result::allocated, allocated)) {
    return;
  }
  if (allocated != 1) {
    c.fail({"allocate_pipeline returned a pipeline without its buffers or streams",
            "allocate_pipeline a rendu un pipeline sans ses tampons ou ses streams"});
    return;
  }
  if (!c.read_value(run, result::pinned_buffers, pinned) ||
      !c.read_value(run, result::busy_streams, busy)) {
    return;
  }
  const float a = static_cast<float>(nvrtc_streams::kDefaultFactor);
  const std::vector<float> expected = nvrtc_streams::saxpy_reference<float>(
      a, nvrtc_streams::make_x<float>(n, c.seed()), nvrtc_streams::make_y<float>(n, c.seed()));
  if (busy > 0 || !c.expect_array(run, result::out<float>, expected, course::kExact)) {
    if (busy > 0) {
      c.fail({"saxpy_chunked returned with work still queued",
              "saxpy_chunked a rendu la main avec du travail encore en file"});
    }
    c.hint(kSynchronizeHint);
    return;
  }
  if (!c.times_judged()) return;
  double in_ms = 0.0, kernel_ms = 0.0, out_ms = 0.0, one_ms = 0.0, chunked_ms = 0.0;
  if (!c.read_times(run, {{result::to_device_ms, in_ms},
                          {result::kernel_ms, kernel_ms},
                          {result::to_host_ms, out_ms},
                          {result::one_stream_ms, one_ms},
                          {result::chunked_ms, chunked_ms}})) {
    return;
  }
  const Message figures =
      Message{"parts: x and y in {} ms, kernel {} ms, out back {} ms; one stream {} ms (sum of "
              "the parts {}), {} chunks over {} streams {} ms (longest part {})",
              "étapes : x et y à l'aller {} ms, kernel {} ms, out au retour {} ms ; un seul "
              "stream {} ms (somme des étapes {}), {} morceaux sur {} streams {} ms (étape la "
              "plus longue {})"}
          .with(in_ms, kernel_ms, out_ms, one_ms, in_ms + kernel_ms + out_ms, kOverlapChunks,
                kOverlapStreams, chunked_ms, std::max({in_ms, kernel_ms, out_ms}));
  std::vector<Message> hints;
  if (pinned != 3) hints.push_back(kPinnedHint);
  hints.push_back(
      {"give chunk k to stream streams[k % streams.size()], enqueue every chunk before waiting, "
       "and wait only at the end: chunks on one stream, or a wait after each, run one after "
       "the other.",
       "confiez le morceau k au stream streams[k % streams.size()], mettez tous les morceaux "
       "en file avant d'attendre, et n'attendez qu'à la fin : des morceaux sur un seul stream, "
       "ou une attente après chacun, s'exécutent l'un après l'autre."});
  c.judge_speed(kOverlapBar, one_ms / chunked_ms, figures, hints);
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  const double a = nvrtc_streams::kDefaultFactor;
  course::check::Exercise exercise{
      "17",
      "nvrtc_streams",
      {
          {"primary_context_made_current", 1, check_context},
          {"architecture_option_of_this_device", 1, check_architecture},
          {"compile_error_returns_its_log", 2, check_compile_error},
          {"cubin_and_lowered_names", 2, check_compile_saxpy},
          {"float_n_1000_bit_for_bit", 2, [a](CaseContext& c) { check_saxpy<float>(c, 1000, a); }},
          {"double_n_4099_bit_for_bit", 2,
           [a](CaseContext& c) { check_saxpy<double>(c, 4099, a); }},
          {"n_zero_then_one", 1,
           [a](CaseContext& c) {
             check_saxpy<float>(c, 0, a);
             if (c.passed()) check_saxpy<float>(c, 1, a);
           }},
          {"more_elements_than_a_fixed_grid", 1,
           [a](CaseContext& c) {
             check_saxpy<float>(
                 c, c.under_sanitizer() ? kSanitizerFixedGridElements : kFixedGridElements, a);
           }},
          {"hidden_size_and_factor", 1, check_hidden, course::check::kHiddenCase},
          {"one_stream_100003", 2, [](CaseContext& c) { check_pipeline(c, {100003}); }},
          {"host_buffers_pinned", 1,
           [](CaseContext& c) { check_pipeline(c, {1000}, Judge::pinned); }},
          {"pipeline_freed", 1, [](CaseContext& c) { check_pipeline(c, {1000}, Judge::freed); }},
          {"module_unloaded_and_context_released", 1, check_clean_up},
          {"chunked_partial_last_chunk", 2,
           [](CaseContext& c) {
             check_pipeline(c, {100003, 16384, 3});
           }},
          {"chunked_more_streams_than_chunks", 1,
           [](CaseContext& c) {
             check_pipeline(c, {5000, 4096, 4});
             if (c.passed()) check_pipeline(c, {0, 4096, 2});
           }},
          {"chunked_waits_for_its_results", 1,
           [](CaseContext& c) {
             check_pipeline(c, {(1 << 22) + 5, 1 << 18, 4});
           }},
          timed({"nvrtc_kernel_as_fast_as_nvcc", 2, check_kernel_speed}, {kSameSpeedBar}),
          timed({"streams_overlap_copies", 2, check_overlap}, {kOverlapBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
