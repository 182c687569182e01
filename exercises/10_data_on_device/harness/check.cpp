// Exercise 10 - the check. Runs the student's program case by case, compares the
// waveforms it reports with a double-precision reference computed here, and compares
// the bytes it copied between host and device (counted by the course's wrappers of
// cudaMemcpy and cudaMemcpyAsync, which student code cannot bypass) with the minimum
// the computation needs; for unified memory, it asks CUDA where each buffer was last
// prefetched, and compares the kernels' time with and without prefetching. Contains no
// student code.
//
//   make check-10                          (students)
//   build/.../check_10 --program PROGRAM   (instructors; --help lists the options)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "course/check/speed_bar.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
using namespace data_on_device;
using data_on_device::request::Migration;

// ---------------------------------------------------------------------------
// The reference and its tolerance
// ---------------------------------------------------------------------------

// pulses = max(sinf(i / period) - 0.3f, 0) * amplitude in float: i / period (at most
// 23 radians) is rounded once, 23 * 2^-24 = 1.4e-6 absolute; sinf adds 2 ulp (below
// 1.2e-7); times the amplitude (at most 120) that is 1.8e-4; the product and the sum
// with the noise each round to half an ulp of a value below 128 (3.8e-6). About 2e-4
// in all, ABSOLUTE (where the pulse is zero the sample is the noise, exactly).
// atol = 5e-4 leaves a factor 2.5; a missing or misplaced step is off by the noise
// (3 on average) or by the threshold (15).
constexpr course::Tolerance kWaveformTolerance{5e-4, 0.0};

// Sample i of the waveform in double precision, before the zero suppression.
double unsuppressed_sample(int i, float noise, const PulseShape& shape) {
  const double phase = static_cast<double>(static_cast<float>(i)) / shape.period;
  const double pulse = std::max(std::sin(phase) - double{kPulseOffset}, 0.0) * shape.amplitude;
  return pulse + noise;
}

// The expected output for the record `key`, whose samples are those at `indices` (all of
// them when empty). Where the unsuppressed value lies within the tolerance of the
// threshold, float rounding may put it on either side, and both 0 and the value are
// right: there the expectation follows what came.
std::vector<double> expected_waveform(CaseContext& c, const Run& run,
                                      const course::check::Array<float>& key,
                                      const std::vector<float>& noise, const PulseShape& shape,
                                      const std::vector<int>& indices = {}) {
  const std::size_t count = indices.empty() ? noise.size() : indices.size();
  std::vector<double> expected(count);
  for (std::size_t k = 0; k < count; ++k) {
    const int i = indices.empty() ? static_cast<int>(k) : indices[k];
    expected[k] = unsuppressed_sample(i, noise[static_cast<std::size_t>(i)], shape);
  }
  std::vector<float> got;
  if (!CaseContext::reported(run, key) || !c.read_array(run, key, got) ||
      got.size() != expected.size()) {
    got.clear();
  }
  for (std::size_t k = 0; k < count; ++k) {
    const double value = expected[k];
    if (std::fabs(value - shape.threshold) <= kWaveformTolerance.atol) {
      if (k < got.size() && got[k] == 0.0f) expected[k] = 0.0;
    } else if (value < shape.threshold) {
      expected[k] = 0.0;
    }
  }
  return expected;
}

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kValuesHint{
    "the waveform is make_pulses, then + noise, then zero suppression, in this order, on the "
    "same n samples (enqueue_pipeline): check the order of the steps and the buffers each one "
    "reads and writes.",
    "le signal, c'est make_pulses, puis + bruit, puis la suppression des valeurs faibles, dans "
    "cet ordre, sur les mêmes n échantillons (enqueue_pipeline) : vérifiez l'ordre des étapes "
    "et les tampons que chacune lit et écrit."};
const Message kOnDeviceBytesHint{
    "the data must stay on the device between the steps: copy the noise in once (n floats), "
    "launch the three kernels, copy the waveform out once (n floats). No copy of the output "
    "to the device, of an intermediate result to the host, nor a call of the round-trip "
    "version.",
    "les données doivent rester sur le GPU entre les étapes : copiez le bruit à l'aller une "
    "fois (n floats), lancez les trois kernels, copiez le signal au retour une fois (n floats). "
    "Aucune copie de la sortie vers le GPU, ni d'un résultat intermédiaire vers l'hôte, ni "
    "appel de la version aller-retour."};
const Message kPinnedBytesHint{
    "each make_waveform_pinned call copies n noise samples in and n results out: n, not "
    "buffers.capacity, and nothing else.",
    "chaque appel de make_waveform_pinned copie n échantillons de bruit à l'aller et n "
    "résultats au retour : n, pas buffers.capacity, et rien d'autre."};
const Message kSyncHint{
    "make_waveform_pinned returned before its result was in host_waveform: cudaMemcpyAsync "
    "returns at once; wait for the stream (cudaStreamSynchronize(stream)) before returning.",
    "make_waveform_pinned a rendu la main avant que son résultat soit dans host_waveform : "
    "cudaMemcpyAsync rend la main aussitôt ; attendez le stream "
    "(cudaStreamSynchronize(stream)) avant de rendre la main."};
const Message kPinnedHint{
    "the host staging buffers must be pinned: allocate them with cudaMallocHost (and free them "
    "with cudaFreeHost); memory from new or malloc is pageable.",
    "les tampons de transit de l'hôte doivent être épinglés : allouez-les avec cudaMallocHost "
    "(et libérez-les avec cudaFreeHost) ; la mémoire de new ou de malloc est paginable."};
const Message kNothingToCopyHint{"with n = 0 there is nothing to copy: return at once.",
                                 "avec n = 0, il n'y a rien à copier : rendez la main aussitôt."};

// ---------------------------------------------------------------------------
// Part 1: make_waveform_on_device
// ---------------------------------------------------------------------------

// What a part 1 case checks besides the values.
enum class Also { nothing, bytes, no_leak };

std::int64_t float_bytes(std::int64_t n) { return n * static_cast<std::int64_t>(sizeof(float)); }

void check_on_device(CaseContext& c, int n, Also also) {
  const Run run = c.run(request::on_device, {n});
  if (!c.finished(run) || !c.expect_kernel_launched(run)) return;
  if (!c.expect_host_guard_untouched(
          run, result::waveform, "make_waveform_on_device",
          Message{"copy back n * sizeof(float) bytes into host_waveform, no more.",
                  "recopiez n * sizeof(float) octets dans host_waveform, pas plus."})) {
    return;
  }
  const std::vector<float> noise = make_noise(n, c.seed());
  const PulseShape shape = lab_pulse_shape(n);
  if (!c.expect_array(run, result::waveform,
                      expected_waveform(c, run, result::waveform, noise, shape), kWaveformTolerance,
                      kValuesHint)) {
    c.note(Message{"(make_waveform_on_device with n = {})", "(make_waveform_on_device avec n = {})"}
               .with(n));
    return;
  }
  if (also == Also::bytes) {
    c.expect_transfer_bytes(run, float_bytes(n), float_bytes(n), kOnDeviceBytesHint);
  } else if (also == Also::no_leak) {
    c.expect_no_leak(run);
  }
}

// n = 0 must copy and launch nothing, and leave the calls after it working.
constexpr int kAfterEmptySamples = 1000;

void check_empty_then_some(CaseContext& c) {
  const Run empty = c.run(request::on_device, {0});
  if (!c.finished(empty)) return;
  if (!c.expect_host_guard_untouched(empty, result::waveform, "make_waveform_on_device with n = 0",
                                     kNothingToCopyHint) ||
      !c.expect_transfer_bytes(empty, 0, 0, kNothingToCopyHint)) {
    return;
  }
  check_on_device(c, kAfterEmptySamples, Also::bytes);
}

// ---------------------------------------------------------------------------
// Part 2: the pinned buffers
// ---------------------------------------------------------------------------

// The pinned run, up to the point where the buffers exist.
bool pinned_buffers_exist(CaseContext& c, const Run& run) {
  std::int64_t allocated = 0;
  if (!c.finished(run) || !c.read_value(run, result::buffers_allocated, allocated)) return false;
  if (allocated != 0) return true;
  c.fail({"allocate_waveform_buffers returned a null pointer for at least one of its four buffers",
          "allocate_waveform_buffers a rendu un pointeur nul pour au moins un de ses quatre "
          "tampons"});
  c.hint({"allocate every buffer of WaveformBuffers: two with cudaMallocHost, two with cudaMalloc.",
          "allouez chaque tampon de WaveformBuffers : deux avec cudaMallocHost, deux avec "
          "cudaMalloc."});
  return false;
}

// The values of every waveform of the pinned run.
bool expect_pinned_waveforms(CaseContext& c, const Run& run, int runs = kPinnedRuns) {
  std::int64_t changed = 0;
  c.read_value(run, result::changed_after_sync, changed);
  for (int r = 0; r < runs; ++r) {
    const course::check::Array<float> key = result::pinned_waveform(std::to_string(r));
    const std::vector<float> noise = make_pinned_run_noise(r, c.seed());
    if (!c.expect_array(run, key, expected_waveform(c, run, key, noise, pinned_run_shape(r)),
                        kWaveformTolerance, changed > 0 ? kSyncHint : kValuesHint)) {
      c.note(Message{"(waveform {} of the pinned run: n = {})",
                     "(signal {} de l'exécution avec tampons épinglés : n = {})"}
                 .with(r, kPinnedRunSamples[r]));
      return false;
    }
  }
  return true;
}

void check_pinned_buffers(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (!pinned_buffers_exist(c, run)) return;
  std::int64_t pinned = 0, on_device = 0;
  if (!c.read_value(run, result::staging_pinned, pinned) ||
      !c.read_value(run, result::device_buffers_on_device, on_device)) {
    return;
  }
  if (pinned == 0) {
    c.fail({"host_noise or host_waveform is not pinned (page-locked) host memory",
            "host_noise ou host_waveform n'est pas de la mémoire épinglée (page-locked) de "
            "l'hôte"});
    c.hint(kPinnedHint);
  }
  if (on_device == 0) {
    c.fail({"device_noise or device_waveform is not device memory",
            "device_noise ou device_waveform n'est pas de la mémoire du GPU"});
    c.hint({"allocate the device buffers with cudaMalloc.",
            "allouez les tampons du GPU avec cudaMalloc."});
  }
}

void check_pinned_values(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (pinned_buffers_exist(c, run) && c.expect_kernel_launched(run))
    expect_pinned_waveforms(c, run);
}

void check_pinned_ready_on_return(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (!pinned_buffers_exist(c, run)) return;
  std::int64_t changed = 0;
  if (!c.read_value(run, result::changed_after_sync, changed)) return;
  if (changed > 0) {
    c.fail(Message{"{} samples of host_waveform changed after make_waveform_pinned had returned "
                   "(the check waited for the device and looked again)",
                   "{} échantillons de host_waveform ont changé après le retour de "
                   "make_waveform_pinned (le correcteur a attendu le GPU et regardé de nouveau)"}
               .with(changed));
    c.hint(kSyncHint);
    return;
  }
  // Unchanged because nothing was computed is no proof: the first (largest) waveform must
  // be there.
  expect_pinned_waveforms(c, run, 1);
}

void check_pinned_bytes(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (!pinned_buffers_exist(c, run)) return;
  std::int64_t samples = 0;
  for (const int n : kPinnedRunSamples) samples += n;
  c.expect_transfer_bytes(run, float_bytes(samples), float_bytes(samples), kPinnedBytesHint);
}

void check_pinned_allocates_once(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (!pinned_buffers_exist(c, run) || !expect_pinned_waveforms(c, run)) return;
  std::int64_t allocations = 0;
  if (!c.read_value(run, result::allocations_during_runs, allocations)) return;
  if (allocations > 0) {
    c.fail(Message{"make_waveform_pinned called cudaMalloc {} times in {} calls",
                   "make_waveform_pinned a appelé cudaMalloc {} fois en {} appels"}
               .with(allocations, kPinnedRuns));
    c.hint(
        {"make_waveform_pinned allocates nothing: it uses the buffers allocate_waveform_buffers "
         "made once (an allocation costs far more than a small copy).",
         "make_waveform_pinned n'alloue rien : il utilise les tampons qu'allocate_waveform_buffers "
         "a alloués une fois pour toutes (une allocation coûte bien plus qu'une petite copie)."});
  }
}

void check_pinned_frees(CaseContext& c) {
  const Run run = c.run(request::pinned, {});
  if (!pinned_buffers_exist(c, run)) return;
  std::int64_t still_pinned = 0;
  if (!c.read_value(run, result::pinned_still_allocated, still_pinned)) return;
  if (still_pinned != 0) {
    c.fail({"after free_waveform_buffers, a host staging buffer is still pinned memory",
            "après free_waveform_buffers, un tampon de transit de l'hôte est encore de la mémoire "
            "épinglée"});
    c.hint({"free the host buffers with cudaFreeHost.",
            "libérez les tampons de l'hôte avec cudaFreeHost."});
    return;
  }
  c.expect_no_leak(run);
}

// ---------------------------------------------------------------------------
// Part 3: unified (managed) memory
// ---------------------------------------------------------------------------

const Message kManagedSyncHint{
    "make_waveform_managed returned while the kernels (or the prefetch back to the host) were "
    "still running, and the host read the waveform before it was there: wait for the stream "
    "(cudaStreamSynchronize(stream)) before returning.",
    "make_waveform_managed a rendu la main alors que les kernels (ou le préchargement de retour "
    "vers l'hôte) tournaient encore, et l'hôte a lu le signal avant qu'il soit là : attendez le "
    "stream (cudaStreamSynchronize(stream)) avant de rendre la main."};
const Message kPrefetchToDeviceHint{
    "with Migration::prefetch, prefetch both buffers to the GPU before the kernels: "
    "cudaMemPrefetchAsync(pointer, bytes, location, 0, stream) with the location "
    "cudaMemLocation{cudaMemLocationTypeDevice, device}.",
    "avec Migration::prefetch, préchargez les deux tampons sur le GPU avant les kernels : "
    "cudaMemPrefetchAsync(pointer, bytes, location, 0, stream) avec l'emplacement "
    "cudaMemLocation{cudaMemLocationTypeDevice, device}."};
const Message kPrefetchDeviceHint{
    "a prefetch to the GPU must name the device the kernels run on: get its number with "
    "cudaGetDevice(&device).",
    "un préchargement sur le GPU doit désigner le GPU où tournent les kernels : obtenez son "
    "numéro avec cudaGetDevice(&device)."};
const Message kPrefetchToHostHint{
    "after the kernels, prefetch the waveform back to the host (the location "
    "cudaMemLocation{cudaMemLocationTypeHost, 0}), so that the host's reads do not fault "
    "page after page.",
    "après les kernels, préchargez le signal vers l'hôte (l'emplacement "
    "cudaMemLocation{cudaMemLocationTypeHost, 0}), pour que les lectures de l'hôte ne "
    "déclenchent pas un défaut de page à chaque page."};

// The speed bar: the prefetched pipeline's kernels against the same kernels taking page
// faults (tests/speed_bars.md). Prefetching only one of the two buffers leaves about half
// of the faults, near 0.5: the bar sits well below that, and far above a kernel that
// migrates nothing.
constexpr course::check::SpeedBar kPrefetchBar{
    "prefetched kernels' time / page-faulting kernels' time",
    course::check::BarKind::at_most,
    0.25,
    "0.009-0.013 on H100, 0.007 on H200",
    "temps des kernels avec préchargement / temps des kernels avec défauts de page",
    "0.009-0.013 sur H100, 0.007 sur H200"};

// A managed run that ended by itself. A prefetch that CUDA refuses (a device that does
// not exist) stops the program: say why.
bool managed_run_finished(CaseContext& c, const Run& run) {
  if (c.finished(run)) return true;
  const std::string& output = run.child.output;
  if (output.find("cudaMemPrefetchAsync") != std::string::npos &&
      (output.find("cudaErrorInvalidDevice") != std::string::npos ||
       output.find("cudaErrorInvalidValue") != std::string::npos)) {
    c.hint(Message{"cudaMemPrefetchAsync refused its arguments: {} The bytes are those of the "
                   "buffer, no more.",
                   "cudaMemPrefetchAsync a refusé ses arguments : {} La taille est celle du "
                   "tampon, pas plus."}
               .with(kPrefetchDeviceHint));
  }
  return false;
}

// The case cannot be graded on a GPU that does not migrate managed pages while kernels
// run (cudaDevAttrConcurrentManagedAccess = 0: before Pascal, or under Windows).
bool managed_gradable_here(CaseContext& c, const Run& run) {
  std::int64_t concurrent = 0;
  if (!managed_run_finished(c, run) ||
      !c.read_value(run, result::concurrent_managed_access, concurrent)) {
    return false;
  }
  if (concurrent != 0) return true;
  c.not_graded(
      {"this GPU cannot prefetch managed memory nor fault its pages in while kernels run "
       "(cudaDevAttrConcurrentManagedAccess is 0)",
       "ce GPU ne peut ni précharger la mémoire unifiée ni en migrer les pages sur "
       "défaut de page pendant que des kernels tournent (cudaDevAttrConcurrentManagedAccess "
       "vaut 0)"});
  return false;
}

// A managed run, up to the point where the buffers exist.
bool managed_buffers_exist(CaseContext& c, const Run& run) {
  if (!managed_run_finished(c, run)) return false;
  std::int64_t allocated = 0;
  if (!c.read_value(run, result::managed_allocated, allocated)) return false;
  if (allocated != 0) return true;
  c.fail({"allocate_managed_waveform returned a null pointer for noise or waveform",
          "allocate_managed_waveform a rendu un pointeur nul pour noise ou waveform"});
  c.hint({"allocate both buffers of ManagedWaveform with cudaMallocManaged.",
          "allouez les deux tampons de ManagedWaveform avec cudaMallocManaged."});
  return false;
}

Run run_managed(CaseContext& c, Migration migration) {
  return c.run(request::managed, {migration});
}

// A migration's name (the student's Migration::on_demand or Migration::prefetch).
std::string name_of(Migration migration) {
  for (const auto& [choice, name] : choices(migration)) {
    if (choice == migration) return name;
  }
  return "";
}

// The waveform the managed run reported the moment make_waveform_managed returned.
bool expect_managed_waveform(CaseContext& c, const Run& run) {
  std::int64_t changed = 0;
  c.read_value(run, result::managed_changed_after_sync, changed);
  const std::vector<float> noise = make_noise(kManagedSamples, c.seed());
  const PulseShape shape = lab_pulse_shape(kManagedSamples);
  if (c.expect_array(run, result::managed_waveform,
                     expected_waveform(c, run, result::managed_waveform, noise, shape),
                     kWaveformTolerance, changed > 0 ? kManagedSyncHint : kValuesHint)) {
    return true;
  }
  c.note(Message{"(make_waveform_managed with n = {})", "(make_waveform_managed avec n = {})"}.with(
      kManagedSamples));
  return false;
}

void check_managed_buffers(CaseContext& c) {
  const Run run = run_managed(c, Migration::on_demand);
  if (!managed_buffers_exist(c, run)) return;
  std::int64_t managed = 0, still_allocated = 0;
  if (!c.read_value(run, result::buffers_managed, managed) ||
      !c.read_value(run, result::managed_still_allocated, still_allocated)) {
    return;
  }
  if (managed == 0) {
    c.fail({"noise or waveform is not managed memory",
            "noise ou waveform n'est pas de la mémoire unifiée (managed)"});
    c.hint({"allocate them with cudaMallocManaged: one pointer for the host and the device.",
            "allouez-les avec cudaMallocManaged : un seul pointeur pour l'hôte et le GPU."});
  } else if (still_allocated != 0) {
    c.fail({"after free_managed_waveform, a buffer is still allocated managed memory",
            "après free_managed_waveform, un tampon est encore de la mémoire unifiée allouée"});
    c.hint({"free both buffers with cudaFree.", "libérez les deux tampons avec cudaFree."});
  }
}

void check_managed_values(CaseContext& c, Migration migration) {
  const Run run = run_managed(c, migration);
  if (migration == Migration::prefetch && !managed_gradable_here(c, run)) return;
  if (managed_buffers_exist(c, run) && c.expect_kernel_launched(run)) {
    expect_managed_waveform(c, run);
  }
}

void check_managed_ready_on_return(CaseContext& c) {
  for (const Migration migration : {Migration::on_demand, Migration::prefetch}) {
    const Run run = run_managed(c, migration);
    std::int64_t concurrent = 0, changed = 0;
    if (!managed_run_finished(c, run) ||
        !c.read_value(run, result::concurrent_managed_access, concurrent)) {
      return;
    }
    // A GPU that refuses prefetches: the on_demand run alone is judged.
    if (concurrent == 0 && migration == Migration::prefetch) return;
    if (!managed_buffers_exist(c, run) ||
        !c.read_value(run, result::managed_changed_after_sync, changed)) {
      return;
    }
    if (changed > 0) {
      c.fail(Message{"{} samples of the waveform changed after make_waveform_managed had "
                     "returned (Migration::{}; the check waited for the device and looked again)",
                     "{} échantillons du signal ont changé après le retour de "
                     "make_waveform_managed (Migration::{} ; le correcteur a attendu le GPU et "
                     "regardé de nouveau)"}
                 .with(changed, name_of(migration)));
      c.hint(kManagedSyncHint);
      return;
    }
    // Unchanged because nothing was computed is no proof: the waveform must be there.
    if (!expect_managed_waveform(c, run)) return;
  }
}

// Where a buffer was last prefetched, in words.
Message prefetch_place(std::int64_t location) {
  if (location == kPrefetchedToHost) return {"the host", "l'hôte"};
  if (location == kNeverPrefetched) {
    return {"nowhere (never prefetched, or not all its pages alike)",
            "nulle part (jamais préchargé, ou pas toutes ses pages au même endroit)"};
  }
  return Message{"device {}", "le GPU {}"}.with(location);
}

void check_managed_prefetch_places(CaseContext& c) {
  const Run run = run_managed(c, Migration::prefetch);
  if (!managed_gradable_here(c, run) || !managed_buffers_exist(c, run)) return;
  std::int64_t device = 0, noise_at = 0, waveform_at = 0;
  if (!c.read_value(run, result::current_device, device) ||
      !c.read_value(run, result::noise_prefetched_to, noise_at) ||
      !c.read_value(run, result::waveform_prefetched_to, waveform_at)) {
    return;
  }
  if (noise_at != device) {
    c.fail(Message{"the noise was last prefetched to {}; the kernels ran on device {}",
                   "le bruit a été préchargé en dernier vers {} ; les kernels ont tourné sur le "
                   "GPU {}"}
               .with(prefetch_place(noise_at), device));
    c.hint(noise_at >= 0 ? kPrefetchDeviceHint : kPrefetchToDeviceHint);
  }
  if (waveform_at != kPrefetchedToHost) {
    c.fail(Message{"the waveform was last prefetched to {}; the host reads it next",
                   "le signal a été préchargé en dernier vers {} ; c'est l'hôte qui le lit "
                   "ensuite"}
               .with(prefetch_place(waveform_at)));
    c.hint(kPrefetchToHostHint);
  }
}

void check_managed_speed(CaseContext& c) {
  const Run run = c.run(request::managed_speed, {});
  if (!managed_gradable_here(c, run) || !managed_buffers_exist(c, run) ||
      !c.expect_kernel_launched(run)) {
    return;
  }
  // A fast run must also be right: one sample in kManagedSampleStride of the prefetched result.
  const std::vector<float> noise = make_noise(kManagedSpeedSamples, c.seed());
  const std::vector<double> expected =
      expected_waveform(c, run, result::prefetch_samples, noise,
                        lab_pulse_shape(kManagedSpeedSamples),
                        managed_sample_indices(kManagedSpeedSamples));
  if (!c.expect_array(run, result::prefetch_samples, expected, kWaveformTolerance, kValuesHint)) {
    c.note(Message{"(one sample in {} of make_waveform_managed's prefetched result, n = {})",
                   "(un échantillon sur {} du résultat préchargé de make_waveform_managed, "
                   "n = {})"}
               .with(kManagedSampleStride, kManagedSpeedSamples));
    return;
  }
  if (!c.times_judged()) return;
  double on_demand = 0.0, prefetched = 0.0, device_memory = 0.0;
  if (!c.read_times(run, {{result::on_demand_kernel_ms, on_demand},
                          {result::prefetch_kernel_ms, prefetched},
                          {result::device_memory_kernel_ms, device_memory}})) {
    return;
  }
  const Message figures =
      Message{"kernels' time, median of {}: page faults {} ms, prefetched {} ms, cudaMalloc + "
              "cudaMemcpy {} ms",
              "temps des kernels, médiane de {} : défauts de page {} ms, préchargé {} ms, "
              "cudaMalloc + cudaMemcpy {} ms"}
          .with(kManagedSpeedRepetitions, on_demand, prefetched, device_memory);
  c.judge_speed(kPrefetchBar, prefetched / on_demand, figures, {kPrefetchToDeviceHint});
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

constexpr int kLargeOddSamples = 3000017;
constexpr int kHiddenMaxSamples = 4000000;
constexpr std::uint64_t kHiddenShapeSalt = 10;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  check_on_device(c, static_cast<int>(rng.uniform_int(1, kHiddenMaxSamples)), Also::bytes);
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "10",
      "data_on_device",
      {
          {"on_device_lab_waveform", 3,
           [](CaseContext& c) { check_on_device(c, kLabSamples, Also::nothing); }},
          {"on_device_copies_only_noise_in_and_waveform_out", 3,
           [](CaseContext& c) { check_on_device(c, kLabSamples, Also::bytes); }},
          {"on_device_three_million_and_17", 2,
           [](CaseContext& c) { check_on_device(c, kLargeOddSamples, Also::bytes); }},
          {"on_device_n_is_one", 1, [](CaseContext& c) { check_on_device(c, 1, Also::bytes); }},
          {"on_device_n_zero_then_1000", 1, check_empty_then_some},
          {"on_device_frees_its_device_memory", 2,
           [](CaseContext& c) { check_on_device(c, kLabSamples, Also::no_leak); }},
          {"pinned_buffers_are_pinned", 2, check_pinned_buffers},
          {"pinned_three_waveforms", 3, check_pinned_values},
          {"pinned_result_ready_on_return", 2, check_pinned_ready_on_return},
          {"pinned_copies_only_what_is_needed", 2, check_pinned_bytes},
          {"pinned_allocates_once", 1, check_pinned_allocates_once},
          {"pinned_frees_everything", 1, check_pinned_frees},
          {"managed_buffers_are_managed", 1, check_managed_buffers},
          {"managed_on_demand_values", 2,
           [](CaseContext& c) { check_managed_values(c, Migration::on_demand); }},
          {"managed_prefetch_values", 2,
           [](CaseContext& c) { check_managed_values(c, Migration::prefetch); }},
          {"managed_result_ready_on_return", 2, check_managed_ready_on_return},
          {"managed_prefetched_to_device_then_host", 2, check_managed_prefetch_places},
          course::check::timed({"managed_prefetch_beats_page_faults", 2, check_managed_speed},
                               {kPrefetchBar}),
          {"hidden_size_from_seed", 2, check_hidden, course::check::kHiddenCase},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
