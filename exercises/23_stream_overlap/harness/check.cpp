// Exercise 23 - the check. Runs the student's program case by case and judges what it
// reports: whether the host buffers are pinned, the streams non-blocking and destroyed,
// what one chunk and the whole pipeline computed (bit for bit, for any chunking),
// whether work was left on a stream, and the times: the pipeline against the longest of
// its parts and against the serial version, the time run_pipeline measured with its own
// events, and launches on the legacy default stream between chunks.
// Contains no student code.
//
//   make check-23                          (students)
//   build/.../check_23 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = stream_overlap::request;
namespace result = stream_overlap::result;
using request::Shape;

// ---------------------------------------------------------------------------
// Hints: the likely mistake behind each failure
// ---------------------------------------------------------------------------

const Message kPinnedHint{
    "allocate with cudaMallocHost: memory from new, malloc or std::vector is pageable, the "
    "driver stages each copy from it through a pinned buffer of its own, and it overlaps "
    "nothing.",
    "allouez avec cudaMallocHost : la mémoire de new, malloc ou std::vector est paginable, le "
    "pilote fait passer chaque copie depuis elle par un tampon épinglé qui lui est propre, et "
    "elle ne recouvre rien."};
const Message kNonBlockingHint{
    "create each stream with cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking): a "
    "stream made by cudaStreamCreate waits for every launch on the legacy default stream "
    "(yours or a library's), and that launch waits for it.",
    "créez chaque stream avec cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) : un "
    "stream créé par cudaStreamCreate attend chaque lancement sur le stream par défaut "
    "historique (le vôtre ou celui d'une bibliothèque), et ce lancement l'attend."};
const Message kDestroyHint{
    "destroy_streams must call cudaStreamDestroy on every stream, then clear the vector.",
    "destroy_streams doit appeler cudaStreamDestroy sur chaque stream, puis vider le vecteur."};
const Message kCreateHint{
    "create each stream with cudaStreamCreateWithFlags and push it into the vector.",
    "créez chaque stream avec cudaStreamCreateWithFlags et ajoutez-le au vecteur."};
const Message kOffsetHint{
    "each chunk reads and writes at its own offset in all four buffers: host_in + first, "
    "device_in + first, device_out + first and host_out + first, `count` elements each.",
    "chaque morceau lit et écrit à son propre décalage dans les quatre tampons : "
    "host_in + first, device_in + first, device_out + first et host_out + first, `count` "
    "éléments chacun."};
const Message kPartialChunkHint{
    "the last, partial chunk: loop while first < n, and give each chunk min(chunk, n - first) "
    "elements (a count of n / chunk chunks, rounded down, drops it).",
    "le dernier morceau, incomplet : bouclez tant que first < n, et donnez à chaque morceau "
    "min(chunk, n - first) éléments (prendre n / chunk morceaux, arrondi à l'entier inférieur, "
    "l'oublie)."};
const Message kWaitHint{
    "run_pipeline must return with host_out complete: synchronize every stream it used "
    "(cudaStreamSynchronize) after the last chunk is enqueued.",
    "run_pipeline doit rendre la main avec host_out complet : synchronisez chaque stream "
    "qu'elle a utilisé (cudaStreamSynchronize) une fois le dernier morceau mis en file."};
const Message kDefaultStreamHint{
    "work was left on the legacy default stream (stream 0, nullptr): enqueue chunk k on "
    "streams[k % streams.size()], never on the default stream, which these streams do not "
    "wait for.",
    "du travail est resté sur le stream par défaut historique (stream 0, nullptr) : mettez "
    "le morceau k en file sur streams[k % streams.size()], jamais sur le stream par défaut, "
    "que ces streams n'attendent pas."};
const Message kNoWaitInLoopHint{
    "no wait inside the chunk loop (cudaDeviceSynchronize, cudaStreamSynchronize, a "
    "synchronous cudaMemcpy): enqueue every chunk on its stream, then wait once, at the end.",
    "aucune attente dans la boucle des morceaux (cudaDeviceSynchronize, cudaStreamSynchronize, "
    "un cudaMemcpy synchrone) : mettez chaque morceau en file sur son stream, puis attendez "
    "une seule fois, à la fin."};
const Message kEventsHint{
    "the stop event must follow the work of EVERY stream: an event on streams[0] times "
    "streams[0] only. Record an event on each other stream, make streams[0] wait for it "
    "(cudaStreamWaitEvent), then record stop on streams[0].",
    "l'événement de fin doit suivre le travail de TOUS les streams : un événement sur "
    "streams[0] ne chronomètre que streams[0]. Enregistrez un événement sur chacun des autres "
    "streams, faites attendre streams[0] sur chacun (cudaStreamWaitEvent), puis enregistrez stop "
    "sur streams[0]."};

// ---------------------------------------------------------------------------
// Parts 1 and 2: pinned memory, streams
// ---------------------------------------------------------------------------

constexpr std::size_t kPinnedElements = 100003;

void check_pinned(CaseContext& c) {
  const Run run = c.run(request::pinned, {kPinnedElements});
  std::int64_t allocated = 0, pinned = 0, after_free = 0;
  if (!c.finished(run) || !c.read_value(run, result::allocated, allocated)) return;
  if (allocated != 1) {
    c.fail({"allocate_pinned returned nullptr", "allocate_pinned a rendu nullptr"});
    c.hint(kPinnedHint);
    return;
  }
  if (!c.read_value(run, result::pinned, pinned)) return;
  if (pinned != 1) {
    c.fail({"allocate_pinned returned memory that cudaPointerGetAttributes does not call pinned "
            "host memory (cudaMemoryTypeHost)",
            "allocate_pinned a rendu de la mémoire que cudaPointerGetAttributes ne reconnaît pas "
            "comme mémoire épinglée de l'hôte (cudaMemoryTypeHost)"});
    c.hint(kPinnedHint);
    return;
  }
  if (!c.expect_array(run, result::copied, stream_overlap::make_input(kPinnedElements, c.seed()),
                      course::kExact,
                      Message{"allocate n floats: n * sizeof(float) bytes.",
                              "allouez n floats : n * sizeof(float) octets."}) ||
      !c.read_value(run, result::pinned_after_free, after_free)) {
    return;
  }
  if (after_free != 0) {
    c.fail({"the buffer is still pinned host memory after free_pinned",
            "le tampon est encore de la mémoire épinglée de l'hôte après free_pinned"});
    c.hint({"free_pinned must free it with cudaFreeHost.",
            "free_pinned doit le libérer avec cudaFreeHost."});
  }
}

constexpr int kStreamCount = 5;

void check_streams_non_blocking(CaseContext& c) {
  const Run run = c.run(request::streams, {kStreamCount});
  std::int64_t count = 0, distinct = 0, non_blocking = 0;
  if (!c.finished(run) || !c.read_value(run, result::count, count) ||
      !c.read_value(run, result::distinct, distinct) ||
      !c.read_value(run, result::non_blocking, non_blocking)) {
    return;
  }
  if (count != kStreamCount || distinct != 1) {
    c.fail(Message{"create_streams({}) returned {} stream(s){}",
                   "create_streams({}) a rendu {} stream(s){}"}
               .with(kStreamCount, count,
                     count == kStreamCount
                         ? Message{", not all distinct or some the default stream (nullptr)",
                                   ", pas tous distincts, ou certains étant le stream par défaut "
                                   "(nullptr)"}
                         : Message()));
    c.hint(kCreateHint);
  } else if (non_blocking != kStreamCount) {
    c.fail(Message{"{} of the {} streams wait for the legacy default stream (cudaStreamGetFlags "
                   "has no cudaStreamNonBlocking)",
                   "{} des {} streams attendent le stream par défaut historique "
                   "(cudaStreamGetFlags n'a pas cudaStreamNonBlocking)"}
               .with(kStreamCount - non_blocking, kStreamCount));
    c.hint(kNonBlockingHint);
  }
}

void check_streams_destroyed(CaseContext& c) {
  const Run run = c.run(request::streams, {kStreamCount});
  std::int64_t created = 0, left = 0, emptied = 0;
  if (!c.finished(run) || !c.read_value(run, result::created, created) ||
      !c.read_value(run, result::left_after_destroy, left) ||
      !c.read_value(run, result::emptied, emptied)) {
    return;
  }
  if (created < kStreamCount) {
    c.fail(
        Message{"create_streams({}) created {} stream(s)", "create_streams({}) a créé {} stream(s)"}
            .with(kStreamCount, created));
    c.hint(kCreateHint);
  } else if (left != 0) {
    c.fail(Message{"{} stream(s) still exist after destroy_streams (streams are counted as they "
                   "are created and destroyed)",
                   "{} stream(s) existent encore après destroy_streams (les streams sont comptés "
                   "à leur création et à leur destruction)"}
               .with(left));
    c.hint(kDestroyHint);
  } else if (emptied != 1) {
    c.fail({"destroy_streams left its handles in the vector",
            "destroy_streams a laissé ses handles dans le vecteur"});
    c.hint(kDestroyHint);
  }
}

// ---------------------------------------------------------------------------
// Parts 3 and 4: what one chunk and the pipeline compute
// ---------------------------------------------------------------------------

// Enough iterations that every output has settled, few enough for a quick CPU reference.
constexpr int kCheckWork = 32;

void check_one_chunk(CaseContext& c) {
  constexpr std::size_t n = 10000, first = 3001, count = 4097;
  const Run run = c.run(request::chunk, {n, first, count, kCheckWork});
  if (!c.finished(run)) return;
  // The key fixes the type: a record reported is read, then its size checked.
  std::vector<float> out;
  if (!CaseContext::reported(run, result::out) || !c.read_array(run, result::out, out) ||
      out.size() != n) {
    c.fail(Message{"the program reported no output 'out' of {} elements",
                   "le programme n'a rendu aucune sortie « out » de {} éléments"}
               .with(n));
    return;
  }
  const std::vector<float> in = stream_overlap::make_input(n, c.seed());
  std::size_t wrong = 0, written_outside = 0, first_wrong = n;
  for (std::size_t i = 0; i < n; ++i) {
    const bool inside = i >= first && i < first + count;
    if (inside && !(out[i] == stream_overlap::transform(in[i], kCheckWork))) {
      ++wrong;
      first_wrong = std::min(first_wrong, i);
    }
    if (!inside && !course::is_poison(out[i])) ++written_outside;
  }
  if (wrong == 0 && written_outside == 0) return;
  c.fail(Message{"enqueue_chunk(first = {}, count = {}) on {} elements: {} element(s) of the chunk "
                 "wrong or missing{}, {} element(s) outside it written",
                 "enqueue_chunk(first = {}, count = {}) sur {} éléments : {} élément(s) du "
                 "morceau faux ou manquant(s){}, {} élément(s) écrit(s) hors du morceau"}
             .with(first, count, n, wrong,
                   wrong > 0
                       ? Message{" (the first at index {})", " (le premier à l'indice {})"}.with(
                             first_wrong)
                       : Message(),
                   written_outside));
  c.hint(kOffsetHint);
}

struct PipelineRun {
  std::size_t n = 0;
  std::size_t chunk = 1;
  int streams = 1;
  int work = kCheckWork;
};

Message describe(const PipelineRun& p) {
  return Message{"run_pipeline, n = {}, chunks of {} over {} stream(s)",
                 "run_pipeline, n = {}, morceaux de {} sur {} stream(s)"}
      .with(p.n, p.chunk, p.streams);
}

// What every pipeline must do: return with no work queued, and every element right.
void check_pipeline(CaseContext& c, const PipelineRun& p) {
  const Run run = c.run(request::pipeline, {p.n, p.chunk, p.streams, p.work});
  std::int64_t busy = 0, busy_default = 0;
  if (!c.finished(run) || !c.read_value(run, result::busy_streams, busy) ||
      !c.read_value(run, result::busy_default_stream, busy_default)) {
    return;
  }
  if (busy_default != 0) {
    c.fail(Message{"{} returned with work queued on the legacy default stream",
                   "{} a rendu la main avec du travail en file sur le stream par défaut "
                   "historique"}
               .with(describe(p)));
    c.hint(kDefaultStreamHint);
  } else if (busy != 0) {
    c.fail(Message{"{} returned with work still queued on {} of its streams",
                   "{} a rendu la main avec du travail encore en file sur {} de ses streams"}
               .with(describe(p), busy));
    c.hint(kWaitHint);
  }
  const std::vector<float> expected =
      stream_overlap::reference(stream_overlap::make_input(p.n, c.seed()), p.work);
  if (c.expect_array(run, result::out, expected, course::kExact)) return;
  c.note(Message::verbatim("({})").with(describe(p)));
  std::vector<float> out;
  if (!CaseContext::reported(run, result::out) || !c.read_array(run, result::out, out) ||
      out.size() != p.n || p.n == 0) {
    return;
  }
  // Nothing written at all: expect_array said what to look at.
  if (std::all_of(out.begin(), out.end(), [](float v) { return course::is_poison(v); })) return;
  // Everything right but the last chunk, and that one never written: it was dropped.
  const std::size_t last = p.n % p.chunk == 0 ? std::min(p.chunk, p.n) : p.n % p.chunk;
  bool only_last_missing = true;
  for (std::size_t i = 0; i < p.n && only_last_missing; ++i) {
    only_last_missing = i < p.n - last ? out[i] == expected[i] : course::is_poison(out[i]);
  }
  c.hint(only_last_missing ? kPartialChunkHint : kOffsetHint);
}

constexpr std::size_t kOddSize = 100003;  // a prime: no chunk size divides it
constexpr std::size_t kWaitedElements = (std::size_t{1} << 24) + 5;
constexpr std::size_t kSanitizerWaitedElements = (std::size_t{1} << 18) + 5;
constexpr std::uint64_t kHiddenSalt = 23;
constexpr std::int64_t kHiddenMaxElements = 300000;
constexpr std::int64_t kHiddenMostChunks = 64;
constexpr std::int64_t kHiddenMostStreams = 9;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenSalt));
  PipelineRun p;
  p.n = static_cast<std::size_t>(rng.uniform_int(1, kHiddenMaxElements));
  const auto n = static_cast<std::int64_t>(p.n);
  p.chunk = static_cast<std::size_t>(
      rng.uniform_int(std::max<std::int64_t>(1, n / kHiddenMostChunks), 2 * n));
  p.streams = static_cast<int>(rng.uniform_int(1, kHiddenMostStreams));
  check_pipeline(c, p);
}

// ---------------------------------------------------------------------------
// Timed cases
// ---------------------------------------------------------------------------

// 32M floats: 128 MiB to copy in and 128 MiB back. Measured on the course's H100 (PCIe,
// pinned memory): about 55 GB/s each way alone, 2.4 ms, but both directions at once only
// about 69 GB/s together, 3.9 ms for both, not 2.4. That measured time of both copies at
// once is the copy time: no pipeline moves the array in and out faster. The runner sets
// the kernel's work so that it takes as long; the serial version then takes about
// 2.4 + 3.9 + 2.4 = 8.8 ms, and a pipeline of 16 chunks about the copy time plus one
// chunk's copy in and copy back at its ends, where nothing overlaps: 3.9 + 0.3 = 4.2 ms,
// 1.08x the bound and 2.1x faster than the serial version.
constexpr std::size_t kOverlapElements = std::size_t{1} << 25;
constexpr std::size_t kSanitizerOverlapElements = std::size_t{1} << 16;
constexpr int kSanitizerWork = 16;  // under compute-sanitizer: no balancing, nothing judged
constexpr int kOverlapRepetitions = 5;
constexpr int kOverlapRounds = 3;
constexpr double kOverlapTimeoutSeconds = 90.0;
// The bars (tests/speed_bars.md): the pipeline against the longer of the copy time and the
// kernel's, and against the serial version, all timed in the same run. A wait inside the
// chunk loop measured 2.98x the bound and 0.95x serial's speed.
constexpr course::check::SpeedBar kBoundBar{
    "the pipeline's time over max(copy time, kernel)",
    course::check::BarKind::at_most,
    1.35,
    "1.11-1.17 on H100, 1.16-1.17 on H200",
    "temps du pipeline divisé par max(temps de copie, kernel)",
    "1.11-1.17 sur H100, 1.16-1.17 sur H200"};
constexpr course::check::SpeedBar kSerialBar{
    "speed-up of the pipeline over the serial version",
    course::check::BarKind::at_least,
    1.5,
    "2.34-2.43 on H100, 2.43-2.44 on H200",
    "accélération du pipeline par rapport à la version séquentielle",
    "2.34-2.43 sur H100, 2.43-2.44 sur H200"};
// The runner's shapes: 16 chunks over 4 streams; for the events, one chunk per stream.
constexpr std::size_t kRunnerChunks = 16;
constexpr int kRunnerStreams = 4;
constexpr int kEventStreams = 8;
// An honest event time of the whole pipeline is never shorter than one direction's copy of
// the whole array alone (2.4 ms above); without the other streams joined, the stop event
// of 8 streams follows streams[0]'s one chunk: its copy in, kernel and copy back, about
// (2.4 + 3.9 + 2.4) / 8 = 1.1 ms, less than half of it.
constexpr course::check::SpeedBar kEventBar{
    "the time run_pipeline returned over one direction's copy of the whole array",
    course::check::BarKind::at_least,
    0.9,
    "about 1.3 on H100 and H200",
    "temps rendu par run_pipeline divisé par celui de la copie du tableau entier dans un sens",
    "environ 1.3 sur H100 et H200"};
// Launches on the legacy default stream between chunks: with non-blocking streams they
// cost microseconds; with streams that wait for them they serialise everything (about
// 8.8 instead of 4.2 ms above).
constexpr course::check::SpeedBar kMarkerBar{
    "the loop's time with default-stream launches over its time without",
    course::check::BarKind::at_most,
    1.3,
    "about 1.0 on H100 and H200",
    "temps de la boucle avec des lancements sur le stream par défaut divisé par son temps sans eux",
    "environ 1.0 sur H100 et H200"};

struct Overlap {
  std::int64_t chunk = 0, streams = 0, work = 0;
  double to_device_ms = 0, to_host_ms = 0, both_ms = 0, kernel_ms = 0, serial_ms = 0;
  double pipeline_ms = 0, reported_ms = 0, call_ms = 0, plain_loop_ms = 0, marked_loop_ms = 0;

  double bound_ms() const { return std::max(both_ms, kernel_ms); }
  Message parts() const {
    return Message{"copy in {} ms, copy back {} ms, both at once (the copy time) {} ms, kernel {} "
                   "ms (work {}), serial {} ms",
                   "copie aller {} ms, copie retour {} ms, les deux à la fois (le temps de copie) "
                   "{} ms, kernel {} ms (work {}), séquentiel {} ms"}
        .with(to_device_ms, to_host_ms, both_ms, kernel_ms, work, serial_ms);
  }
};

// Runs the overlap case and judges what every timed case needs: a valid shape, no work
// left on any stream, right values. False (the case failed) otherwise, or under the
// sanitizer, where no time is judged.
bool run_overlap(CaseContext& c, Shape shape, std::size_t chunks, int streams, bool markers,
                 Overlap& o) {
  const bool sanitized = c.under_sanitizer();
  const std::size_t n = sanitized ? kSanitizerOverlapElements : kOverlapElements;
  const Run run = c.run(request::overlap,
                        {n, shape, chunks == 0 ? 0 : (n + chunks - 1) / chunks, streams,
                         sanitized ? kSanitizerWork : 0, markers,
                         sanitized ? 1 : kOverlapRepetitions, sanitized ? 1 : kOverlapRounds},
                        0, kOverlapTimeoutSeconds);
  if (!c.finished(run) || !c.read_value(run, result::chunk, o.chunk) ||
      !c.read_value(run, result::streams, o.streams) || !c.read_value(run, result::work, o.work)) {
    return false;
  }
  if (o.chunk < 1 || o.streams < 1 || o.streams > 64) {
    c.fail(Message{"choose_shape returned chunks of {} element(s) over {} stream(s)",
                   "choose_shape a rendu des morceaux de {} élément(s) sur {} stream(s)"}
               .with(o.chunk, o.streams));
    c.hint({"return a chunk of at least 1 element and 1 to 64 streams.",
            "rendez un morceau d'au moins 1 élément et de 1 à 64 streams."});
    return false;
  }
  std::int64_t made = 0;
  if (markers && CaseContext::reported(run, result::streams_made) &&
      c.read_value(run, result::streams_made, made)) {
    c.fail(Message{"create_streams({}) returned {} stream(s)",
                   "create_streams({}) a rendu {} stream(s)"}
               .with(o.streams, made));
    return false;
  }
  std::int64_t busy = 0, busy_default = 0;
  if (!c.read_value(run, result::busy_streams, busy) ||
      !c.read_value(run, result::busy_default_stream, busy_default)) {
    return false;
  }
  if (busy_default != 0 || busy != 0) {
    c.fail(Message{"run_pipeline returned with work still queued on {}",
                   "run_pipeline a rendu la main avec du travail encore en file sur {}"}
               .with(busy_default != 0
                         ? Message{"the legacy default stream", "le stream par défaut historique"}
                         : Message{"{} of its streams", "{} de ses streams"}.with(busy)));
    c.hint(busy_default != 0 ? kDefaultStreamHint : kWaitHint);
    return false;
  }
  const std::vector<float> in = stream_overlap::make_input(n, c.seed());
  std::vector<float> expected;
  for (const std::size_t i : course::spread_indices(n, 4096)) {
    expected.push_back(stream_overlap::transform(in[i], static_cast<int>(o.work)));
  }
  if (!c.expect_array(run, result::sampled_out, expected, course::kExact, kOffsetHint)) {
    c.note(Message{"(compared at 4096 elements spread over the {})",
                   "(comparé sur 4096 éléments répartis parmi les {})"}
               .with(n));
    return false;
  }
  if (!c.times_judged()) return false;
  // The time run_pipeline returned is the student's own, judged by check_event_time; the
  // loops with and without markers are timed in the cases that ask for markers alone.
  return c.read_times(run, {{result::to_device_ms, o.to_device_ms},
                            {result::to_host_ms, o.to_host_ms},
                            {result::both_copies_ms, o.both_ms},
                            {result::kernel_ms, o.kernel_ms},
                            {result::serial_ms, o.serial_ms},
                            {result::pipeline_ms, o.pipeline_ms},
                            {result::call_ms, o.call_ms}}) &&
         c.read_value(run, result::reported_ms, o.reported_ms) &&
         c.read_value(run, result::plain_loop_ms, o.plain_loop_ms) &&
         c.read_value(run, result::marked_loop_ms, o.marked_loop_ms);
}

Message shape_words(const Overlap& o) {
  return Message{"chunks of {} over {} stream(s)", "morceaux de {} sur {} stream(s)"}.with(
      o.chunk, o.streams);
}

// What the speed cases' ratios are made of, for the message.
Message pipeline_figures(const Overlap& o) {
  return Message{"parts: {}; the pipeline, {}: {} ms", "étapes : {} ; le pipeline, {} : {} ms"}
      .with(o.parts(), shape_words(o), o.pipeline_ms);
}

// The pipeline near the longer of the copy time and the kernel (kBoundBar), with
// `figures` above (none where a judgement before it in the case has shown them).
bool expect_near_bound(CaseContext& c, const Overlap& o, const Message& figures) {
  return c.judge_speed(
      kBoundBar, o.pipeline_ms / o.bound_ms(), figures,
      {kNoWaitInLoopHint,
       Message{"a few chunks per stream (16 chunks over 4 streams is a start): with few chunks "
               "the ends of the pipeline, where nothing overlaps, take a large share.",
               "quelques morceaux par stream (16 morceaux sur 4 streams pour commencer) : avec "
               "peu de morceaux, les extrémités du pipeline, où rien ne se recouvre, pèsent "
               "lourd."}});
}

void check_bound_at_your_shape(CaseContext& c) {
  Overlap o;
  if (run_overlap(c, Shape::student, 0, 0, false, o)) expect_near_bound(c, o, pipeline_figures(o));
}

void check_faster_than_serial(CaseContext& c) {
  Overlap o;
  if (!run_overlap(c, Shape::runner, kRunnerChunks, kRunnerStreams, false, o)) return;
  if (c.judge_speed(kSerialBar, o.serial_ms / o.pipeline_ms, pipeline_figures(o),
                    {kNoWaitInLoopHint})) {
    expect_near_bound(c, o, {});
  }
}

void check_event_time(CaseContext& c) {
  Overlap o;
  if (!run_overlap(c, Shape::runner, kEventStreams, kEventStreams, false, o)) return;
  const double one_way_ms = std::max(o.to_device_ms, o.to_host_ms);
  const Message reported =
      Message{"run_pipeline returned {} ms ({})", "run_pipeline a rendu {} ms ({})"}.with(
          o.reported_ms, shape_words(o));
  if (!std::isfinite(o.reported_ms) || o.reported_ms <= 0.0) {
    c.fail(reported + Message{": the time must be a positive number of milliseconds",
                              " : le temps doit être un nombre positif de millisecondes"});
    c.hint({"cudaEventElapsedTime(&ms, start, stop) once stop has happened, and return ms.",
            "cudaEventElapsedTime(&ms, start, stop) une fois stop atteint, et rendez ms."});
  } else if (!c.expect_speed(kEventBar, o.reported_ms / one_way_ms,
                             reported + Message{"; copying the whole array one way alone takes {} "
                                                "ms (timed by the check)",
                                                " ; copier tout le tableau dans un seul sens, "
                                                "seul, prend {} ms (chronométré par le "
                                                "correcteur)"}
                                            .with(one_way_ms))) {
    c.fail({"the events left work of the pipeline outside",
            "les événements ont laissé du travail du pipeline en dehors"});
    c.hint(kEventsHint);
  } else if (o.reported_ms > o.call_ms) {
    c.fail(reported + Message{", more than the {} ms the whole call took (timed by the check "
                              "around it)",
                              ", plus que les {} ms qu'a pris l'appel entier (chronométré par le "
                              "correcteur autour de lui)"}
                          .with(o.call_ms));
    c.hint({"cudaEventElapsedTime gives milliseconds: return them as they are.",
            "cudaEventElapsedTime donne des millisecondes : rendez-les telles quelles."});
  } else {
    c.note(reported + Message{"; the call took {} ms", " ; l'appel a pris {} ms"}.with(o.call_ms));
  }
}

void check_default_stream_launches(CaseContext& c) {
  Overlap o;
  if (!run_overlap(c, Shape::runner, kRunnerChunks, kRunnerStreams, true, o)) return;
  const double slowdown = o.marked_loop_ms / o.plain_loop_ms;
  const Message figures =
      Message{"{} chunks (enqueue_chunk) on your create_streams' {} streams: {} ms; with an empty "
              "kernel on the legacy default stream after each chunk: {} ms (serial {} ms)",
              "{} morceaux (enqueue_chunk) sur les {} streams de votre create_streams : {} ms ; "
              "avec un kernel vide sur le stream par défaut historique après chaque morceau : "
              "{} ms (séquentiel {} ms)"}
          .with(kRunnerChunks, kRunnerStreams, o.plain_loop_ms, o.marked_loop_ms, o.serial_ms);
  if (!c.expect_speed(kMarkerBar, slowdown, figures)) c.hint(kNonBlockingHint);
}

}  // namespace

int main(int argc, char** argv) {
  using course::check::timed;
  course::check::Exercise exercise{
      "23",
      "stream_overlap",
      {
          {"pinned_host_memory", 2, check_pinned},
          {"streams_non_blocking", 2, check_streams_non_blocking},
          {"streams_destroyed", 1, check_streams_destroyed},
          {"one_chunk_at_its_offset", 2, check_one_chunk},
          {"one_chunk_the_whole_array", 1,
           [](CaseContext& c) {
             check_pipeline(c, {kOddSize, kOddSize, 1});
           }},
          {"partial_last_chunk", 2,
           [](CaseContext& c) {
             check_pipeline(c, {kOddSize, 16384, 3});
           }},
          {"chunk_larger_than_the_array", 1,
           [](CaseContext& c) {
             check_pipeline(c, {5000, std::size_t{1} << 20, 2});
           }},
          {"more_streams_than_chunks", 1,
           [](CaseContext& c) {
             check_pipeline(c, {10000, 4096, 8});
             if (c.passed()) check_pipeline(c, {0, 4096, 2});
           }},
          {"returns_with_results_on_host", 1,
           [](CaseContext& c) {
             const std::size_t n = c.under_sanitizer() ? kSanitizerWaitedElements : kWaitedElements;
             check_pipeline(c, {n, std::size_t{1} << 18, 4, 16});
           }},
          {"hidden_shape", 1, check_hidden, course::check::kHiddenCase},
          timed({"near_the_bound_at_your_shape", 3, check_bound_at_your_shape}, {kBoundBar}),
          timed({"faster_than_serial_16_chunks_4_streams", 3, check_faster_than_serial},
                {kSerialBar, kBoundBar}),
          timed({"event_time_covers_every_stream", 2, check_event_time}, {kEventBar}),
          timed({"default_stream_launches_between_chunks", 2, check_default_stream_launches},
                {kMarkerBar}),
      }};
  return course::check::judge_main(argc, argv, exercise);
}
