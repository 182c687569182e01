// Exercise 25 - the check. Runs the student's program case by case and judges what it
// reports: peer access both ways, a direct and a staged copy between the GPUs (their
// values and the bytes each moved through the host), NCCL's all-reduce, the data-parallel
// density against the CPU, and the two-GPU step's speed-up over one GPU.
// Contains no student code. It needs two CUDA devices: with fewer it reports skipped.
//
//   make check-25                          (students)
//   build/.../check_25 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Run;
namespace request = two_gpus_nccl::request;
namespace result = two_gpus_nccl::result;

// The devices the program must see (kGpuCount in two_gpus_nccl.hpp, which needs NCCL's
// header: the check does not).
constexpr int kDevicesNeeded = 2;

// NCCL's communicators take a second or two to set up; a run that deadlocks stops here.
constexpr double kNcclTimeoutSeconds = 60.0;

// ---------------------------------------------------------------------------
// Hints: the likely mistake behind each failure
// ---------------------------------------------------------------------------

const Message kGroupHint{
    "the all-reduce never ended: one thread drives both GPUs, so both ranks' ncclAllReduce "
    "calls must sit between ncclGroupStart() and ncclGroupEnd(). Alone, the first call waits "
    "for the second rank, which this thread never reaches.",
    "l'all-reduce ne s'est jamais terminé : un seul thread pilote les deux GPU, donc les appels "
    "ncclAllReduce des deux rangs doivent se trouver entre ncclGroupStart() et ncclGroupEnd(). "
    "Seul, le premier appel attend le second rang, que ce thread n'atteint jamais."};
const Message kSetDeviceHint{
    "a launch failed on its device: call cudaSetDevice(d) before launching on streams[d] "
    "(allocations and launches follow the current device; a stream belongs to the device it was "
    "made on).",
    "un lancement a échoué sur son GPU : appelez cudaSetDevice(d) avant de lancer sur "
    "streams[d] (allocations et lancements suivent le GPU courant ; un stream appartient au "
    "GPU sur lequel il a été créé)."};
const Message kWaitHint{
    "data_parallel_density must return with the density on both GPUs: wait for both streams "
    "(cudaStreamSynchronize(streams[d])) after the all-reduce is enqueued.",
    "data_parallel_density doit rendre la main avec la densité sur les deux GPU : attendez les "
    "deux streams (cudaStreamSynchronize(streams[d])) une fois l'all-reduce mis en file."};
const Message kCommunicatorsHint{
    "create_communicators must fill comms[0] and comms[1]: ncclCommInitAll(comms, kGpuCount, "
    "nullptr).",
    "create_communicators doit remplir comms[0] et comms[1] : ncclCommInitAll(comms, kGpuCount, "
    "nullptr)."};

// data_parallel_density returns with the density on both GPUs: no work left on its streams.
bool streams_idle(CaseContext& c, std::int64_t busy) {
  if (busy == 0) return true;
  c.fail(Message{"data_parallel_density returned with work still queued on {} of the 2 streams",
                 "data_parallel_density a rendu la main avec du travail encore en file sur {} "
                 "des 2 streams"}
             .with(busy));
  c.hint(kWaitHint);
  return false;
}

// What a run that did not finish probably did: hang in NCCL, or launch on the wrong device.
bool finished(CaseContext& c, const Run& run) {
  if (c.finished(run)) return true;
  if (run.child.timed_out) c.hint(kGroupHint);
  const std::string& output = run.child.output;
  if (output.find(" error at ") != std::string::npos &&
      output.find("density.cu") != std::string::npos) {
    c.hint(kSetDeviceHint);
  }
  if (output.find("cudaErrorPeerAccessAlreadyEnabled") != std::string::npos) {
    c.hint({"cudaErrorPeerAccessAlreadyEnabled is not a failure: peer access is on, as asked. "
            "Clear it with cudaGetLastError() and return true.",
            "cudaErrorPeerAccessAlreadyEnabled n'est pas un échec : l'accès pair à pair est "
            "activé, comme demandé. Effacez cette erreur avec cudaGetLastError() et rendez true."});
  }
  return false;
}

bool communicators_made(CaseContext& c, const Run& run) {
  std::int64_t made = 0;
  if (!c.read_value(run, result::communicators, made)) return false;
  if (made == 1) return true;
  c.fail({"create_communicators left a communicator null",
          "create_communicators a laissé un communicateur nul"});
  c.hint(kCommunicatorsHint);
  return false;
}

// ---------------------------------------------------------------------------
// Part 1: peer access and copies
// ---------------------------------------------------------------------------

void check_peer_access(CaseContext& c) {
  const Run run = c.run(request::peer_access, {});
  std::int64_t can_0_1 = 0, can_1_0 = 0, got_0_1 = 0, got_1_0 = 0, again = 0, left = 0;
  std::int64_t on_0_1 = 0, on_1_0 = 0;
  if (!finished(c, run) || !c.read_value(run, result::can_access_0_1, can_0_1) ||
      !c.read_value(run, result::can_access_1_0, can_1_0) ||
      !c.read_value(run, result::returned_0_1, got_0_1) ||
      !c.read_value(run, result::returned_1_0, got_1_0) ||
      !c.read_value(run, result::returned_again, again) ||
      !c.read_value(run, result::left_error, left) ||
      !c.read_value(run, result::enabled_0_1, on_0_1) ||
      !c.read_value(run, result::enabled_1_0, on_1_0)) {
    return;
  }
  const auto can = [](std::int64_t yes) {
    return yes ? Message{"can", "peut"} : Message{"cannot", "ne peut pas"};
  };
  c.note(Message{"(this machine: device 0 {} access device 1, device 1 {} access device 0)",
                 "(cette machine : le GPU 0 {} accéder au GPU 1, le GPU 1 {} accéder au GPU 0)"}
             .with(can(can_0_1), can(can_1_0)));
  if (got_0_1 != can_0_1 || got_1_0 != can_1_0) {
    c.fail(Message{"enable_peer_access returned {} for 0 -> 1 and {} for 1 -> 0; "
                   "cudaDeviceCanAccessPeer says {} and {}",
                   "enable_peer_access a rendu {} pour 0 -> 1 et {} pour 1 -> 0 ; "
                   "cudaDeviceCanAccessPeer dit {} et {}"}
               .with(got_0_1, got_1_0, can_0_1, can_1_0));
    c.hint({"return what cudaDeviceCanAccessPeer(&can, device, peer) says.",
            "rendez ce que dit cudaDeviceCanAccessPeer(&can, device, peer)."});
  } else if ((can_0_1 && !on_0_1) || (can_1_0 && !on_1_0)) {
    c.fail(Message{"peer access is not enabled afterwards ({}{})",
                   "l'accès pair à pair n'est pas activé ensuite ({}{})"}
               .with(on_0_1 ? "" : "0 -> 1 ", on_1_0 ? "" : "1 -> 0"));
    c.hint({"make `device` current with cudaSetDevice(device), then "
            "cudaDeviceEnablePeerAccess(peer, 0): it enables access FROM the current device.",
            "rendez `device` courant avec cudaSetDevice(device), puis "
            "cudaDeviceEnablePeerAccess(peer, 0) : il active l'accès DEPUIS le GPU courant."});
  } else if (again != 1) {
    c.fail({"a second enable_peer_access on the same pair did not return what the first did",
            "un second enable_peer_access sur la même paire n'a pas rendu ce qu'a rendu le "
            "premier"});
    c.hint({"cudaErrorPeerAccessAlreadyEnabled is not a failure: treat it as success.",
            "cudaErrorPeerAccessAlreadyEnabled n'est pas un échec : traitez cette erreur comme un "
            "succès."});
  } else if (left != 0) {
    c.fail({"an error was left pending after enable_peer_access (cudaGetLastError is not "
            "cudaSuccess): the next launch check would report it as its own",
            "une erreur est restée en attente après enable_peer_access (cudaGetLastError ne "
            "vaut pas cudaSuccess) : la vérification du lancement suivant la signalerait comme "
            "la sienne"});
    c.hint({"after cudaErrorPeerAccessAlreadyEnabled, call cudaGetLastError() once to clear it.",
            "après cudaErrorPeerAccessAlreadyEnabled, appelez cudaGetLastError() une fois pour "
            "l'effacer."});
  }
}

// Odd, and several MiB: a copy of a prefix or of bytes instead of floats shows.
constexpr std::size_t kCopyElements = (std::size_t{1} << 21) + 3;

void check_copy(CaseContext& c, bool staged) {
  const Run run =
      c.run(request::copy, {kCopyElements, staged ? request::Copy::staged : request::Copy::peer});
  std::int64_t in = 0, out = 0;
  if (!finished(c, run) || !c.read_value(run, result::host_bytes_in, in) ||
      !c.read_value(run, result::host_bytes_out, out)) {
    return;
  }
  const std::vector<float> values = two_gpus_nccl::make_values(kCopyElements, c.seed());
  if (!c.expect_array(run, result::copied, values, course::kExact,
                      Message{"copy count * sizeof(float) bytes, from source to destination.",
                              "copiez count * sizeof(float) octets, de source vers "
                              "destination."})) {
    return;
  }
  const auto bytes = static_cast<std::int64_t>(kCopyElements * sizeof(float));
  if (!staged && (in != 0 || out != 0)) {
    c.fail(Message{"peer_copy moved {} bytes to the host and {} back: a peer copy goes from GPU "
                   "to GPU",
                   "peer_copy a transféré {} octets vers l'hôte et {} au retour : une copie pair "
                   "à pair va de GPU à GPU"}
               .with(in, out));
    c.hint({"use cudaMemcpyPeerAsync: the staged path is staged_copy's.",
            "utilisez cudaMemcpyPeerAsync : le passage par l'hôte, c'est staged_copy."});
  } else if (staged && (in != bytes || out != bytes)) {
    c.fail(Message{"staged_copy moved {} bytes to the host and {} back, expected {} each way",
                   "staged_copy a transféré {} octets vers l'hôte et {} au retour, au lieu de {} "
                   "dans chaque sens"}
               .with(in, out, bytes));
    c.hint({"copy device -> pinned_host with cudaMemcpyAsync(..., cudaMemcpyDeviceToHost), then "
            "pinned_host -> device with cudaMemcpyHostToDevice: both halves through the host.",
            "copiez device -> pinned_host avec cudaMemcpyAsync(..., cudaMemcpyDeviceToHost), "
            "puis pinned_host -> device avec cudaMemcpyHostToDevice : les deux moitiés passent "
            "par l'hôte."});
  }
}

// ---------------------------------------------------------------------------
// Part 2: NCCL
// ---------------------------------------------------------------------------

constexpr std::size_t kReduceElements = 1000003;

// What the all-reduce of n floats must leave on every GPU (or rank): the values of
// device 0 (rank 0) plus those of device 1 (rank 1), as the cases make them.
std::vector<double> expected_sum(std::uint64_t seed, std::size_t n) {
  const std::vector<float> on_0 = two_gpus_nccl::make_values(n, seed);
  const std::vector<float> on_1 = two_gpus_nccl::make_values(n, course::derive_seed(seed, 1));
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<double>(on_0[i]) + on_1[i];
  return expected;
}

void check_all_reduce(CaseContext& c) {
  const Run run = c.run(request::all_reduce, {kReduceElements}, 0, kNcclTimeoutSeconds);
  if (!finished(c, run) || !communicators_made(c, run)) return;
  const std::vector<float> on_0 = two_gpus_nccl::make_values(kReduceElements, c.seed());
  const std::vector<double> expected = expected_sum(c.seed(), kReduceElements);
  const Message hint{
      "ncclAllReduce(buffers[d], buffers[d], count, ncclFloat, ncclSum, comms[d], streams[d]) "
      "for each d: count is in elements, the whole buffer.",
      "ncclAllReduce(buffers[d], buffers[d], count, ncclFloat, ncclSum, comms[d], streams[d]) "
      "pour chaque d : count se compte en éléments, le tampon entier."};
  if (!c.expect_array(run, result::sum_0, expected, two_gpus_nccl::kSumTolerance, hint)) {
    // The sum right up to some element and device 0's own values after it: a short count.
    std::vector<float> got;
    if (!c.read_array(run, result::sum_0, got) || got.size() != kReduceElements) return;
    std::size_t k = 0;
    while (k < got.size() && std::fabs(got[k] - expected[k]) <= 2e-6) ++k;
    std::size_t own = k;
    while (own < got.size() && got[own] == on_0[own]) ++own;
    if (k > 0 && k < got.size() && own == got.size()) {
      c.note(Message{"(the first {} of {} elements are summed, the rest is device 0's own)",
                     "(les {} premiers éléments sur {} sont sommés, le reste est celui du GPU 0)"}
                 .with(k, got.size()));
      c.hint({"the all-reduce's count is short: pass count, the number of floats in EACH buffer "
              "(every rank sends its whole buffer, not a share of it).",
              "le count de l'all-reduce est trop petit : passez count, le nombre de floats de "
              "CHAQUE tampon (chaque rang envoie son tampon entier, pas une part)."});
    }
    return;
  }
  c.expect_array(run, result::sum_1, expected, two_gpus_nccl::kSumTolerance, hint);
}

// ---------------------------------------------------------------------------
// Part 3: one communicator, joined rank by rank
// ---------------------------------------------------------------------------

// Ranks that never find one another wait in ncclCommInitRank: the case stops sooner than
// the others, since joining takes a second or two.
constexpr double kJoinTimeoutSeconds = 30.0;

// What each rank's communicator says of itself, against what it was asked to be.
bool expect_per_rank(CaseContext& c, const Run& run, const course::check::Array<std::int64_t>& key,
                     const std::vector<std::int64_t>& expected, const Message& what,
                     const Message& hint) {
  std::vector<std::int64_t> got;
  if (!c.read_array(run, key, got)) return false;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    const std::int64_t value = r < got.size() ? got[r] : -1;
    if (value == expected[r]) continue;
    c.fail(Message{"rank {}'s communicator has {} {}, expected {}",
                   "le communicateur du rang {} : {} {} au lieu de {}"}
               .with(r, what, value, expected[r]));
    c.hint(hint);
    return false;
  }
  return true;
}

void check_join(CaseContext& c) {
  const Run run = c.run(request::join, {kReduceElements}, 0, kJoinTimeoutSeconds);
  if (!c.finished(run)) {
    const std::string& output = run.child.output;
    if (run.child.timed_out) {
      c.hint({"the ranks never found one another: each must join with the id it is given. A "
              "rank that calls ncclGetUniqueId itself makes a communicator of its own, and waits "
              "forever for ranks that never join it.",
              "les rangs ne se sont jamais trouvés : chacun doit rejoindre le communicateur avec "
              "l'id qu'on lui donne. Un rang qui appelle lui-même ncclGetUniqueId crée son propre "
              "communicateur, et attend indéfiniment des rangs qui ne le rejoignent jamais."});
    } else if (output.find("Duplicate GPU") != std::string::npos ||
               output.find("invalid usage") != std::string::npos) {
      c.hint({"two ranks landed on one GPU: call cudaSetDevice(device) before ncclCommInitRank, "
              "which puts the rank on the current device (each thread starts on device 0).",
              "deux rangs se sont retrouvés sur un même GPU : appelez cudaSetDevice(device) avant "
              "ncclCommInitRank, qui place le rang sur le GPU courant (chaque thread commence "
              "sur le GPU 0)."});
    }
    return;
  }
  std::int64_t joined = 0;
  if (!c.read_value(run, result::communicators, joined)) return;
  if (joined != 1) {
    c.fail({"join_communicator returned a null communicator",
            "join_communicator a rendu un communicateur nul"});
    c.hint({"ncclCommInitRank(&comm, ranks, id, rank) fills comm: return it.",
            "ncclCommInitRank(&comm, ranks, id, rank) remplit comm : rendez-le."});
    return;
  }
  std::vector<std::int64_t> ranks, devices, counts;
  for (int r = 0; r < kDevicesNeeded; ++r) {
    ranks.push_back(r);
    devices.push_back(two_gpus_nccl::join_device(r, kDevicesNeeded));
    counts.push_back(kDevicesNeeded);
  }
  const Message order{"ncclCommInitRank(&comm, ranks, id, rank): the number of ranks, the id, "
                      "then this rank's number.",
                      "ncclCommInitRank(&comm, ranks, id, rank) : le nombre de rangs, l'id, puis "
                      "le numéro de ce rang."};
  if (!expect_per_rank(c, run, result::joined_counts, counts,
                       Message{"a rank count", "nombre de rangs"}, order) ||
      !expect_per_rank(c, run, result::joined_ranks, ranks,
                       Message{"the rank number", "numéro de rang"}, order) ||
      !expect_per_rank(c, run, result::joined_devices, devices, Message{"its GPU on device", "GPU"},
                       Message{"cudaSetDevice(device), the device given, before "
                               "ncclCommInitRank: not the rank's number (on a cluster, rank "
                               "numbers go beyond a node's GPUs).",
                               "cudaSetDevice(device), le GPU donné, avant ncclCommInitRank : "
                               "pas le numéro du rang (sur un cluster, les numéros de rang "
                               "dépassent le nombre de GPU d'un nœud)."})) {
    return;
  }
  const std::vector<double> expected = expected_sum(c.seed(), kReduceElements);
  const Message hint{"the communicators do not sum: join with ncclCommInitRank, nothing else.",
                     "les communicateurs ne somment pas : rejoignez-les avec ncclCommInitRank, "
                     "rien d'autre."};
  if (c.expect_array(run, result::sum_0, expected, two_gpus_nccl::kSumTolerance, hint)) {
    c.expect_array(run, result::sum_1, expected, two_gpus_nccl::kSumTolerance, hint);
  }
}

struct DensityRun {
  int n = 0;
  int bins = 0;
};

void check_density(CaseContext& c, DensityRun d) {
  const Run run = c.run(request::density, {d.n, d.bins}, 0, kNcclTimeoutSeconds);
  if (!finished(c, run) || !communicators_made(c, run)) return;
  std::int64_t busy = 0;
  if (!c.read_value(run, result::busy_streams, busy)) return;
  if (!streams_idle(c, busy)) return;
  const std::vector<float> samples =
      two_gpus_nccl::make_samples(static_cast<std::size_t>(d.n), c.seed());
  const std::vector<double> expected = two_gpus_nccl::reference_density(samples, d.bins);
  const course::Tolerance tolerance =
      two_gpus_nccl::density_tolerance(static_cast<std::size_t>(d.n));
  const Message where =
      Message::verbatim("(data_parallel_density, n = {}, bins = {})").with(d.n, d.bins);
  for (const auto* key : {&result::density_0, &result::density_1}) {
    if (c.expect_array(run, *key, expected, tolerance)) continue;
    c.note(where);
    std::vector<float> got;
    if (!c.read_array(run, *key, got) || got.size() != expected.size()) return;
    // Twice the density everywhere: each GPU summed all n samples, not its share.
    bool doubled = d.n > 0;
    for (std::size_t j = 0; j < got.size() && doubled; ++j) {
      doubled = std::fabs(got[j] - 2.0 * expected[j]) <=
                2.0 * (tolerance.atol + tolerance.rtol * expected[j]);
    }
    c.hint(doubled
               ? Message{"every bin is twice the density: each GPU computed all n samples. Give "
                         "device d only samples [n * d / 2, n * (d + 1) / 2).",
                         "chaque bin vaut le double de la densité : chaque GPU a calculé les n "
                         "échantillons. Ne donnez au GPU d que les échantillons "
                         "[n * d / 2 ; n * (d + 1) / 2[."}
               : Message{"each GPU computes its share (samples[d] + begin, end - begin samples) "
                         "into density[d], then all_reduce_sum(density, bins, ...) sums the two.",
                         "chaque GPU calcule sa part (samples[d] + begin, end - begin "
                         "échantillons) dans density[d], puis all_reduce_sum(density, bins, ...) "
                         "somme les deux."});
    return;
  }
}

constexpr std::uint64_t kHiddenSalt = 25;

void check_density_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenSalt));
  DensityRun d;
  d.n = static_cast<int>(rng.uniform_int(2, 200000));
  d.bins = static_cast<int>(rng.uniform_int(1, 700));
  check_density(c, d);
}

// ---------------------------------------------------------------------------
// The timed case
// ---------------------------------------------------------------------------

// 8M samples x 1024 bins: 8.6e9 kernel terms, milliseconds of arithmetic on one GPU,
// while the all-reduce sums 1024 floats (4 KiB): tens of microseconds. Two GPUs then do
// the step in about half the time.
constexpr int kSpeedSamples = 1 << 23;
constexpr int kSpeedBins = 1024;
constexpr int kSpeedRepetitions = 7;
// Under compute-sanitizer: a small run, nothing judged.
constexpr int kSanitizerSpeedSamples = 1 << 14;
constexpr int kSanitizerSpeedBins = 64;
constexpr double kSpeedTimeoutSeconds = 120.0;
// The reference solution's figures: tests/speed_bars.md.
constexpr course::check::SpeedBar kSpeedUpBar{
    "speed-up of the two-GPU step over the same work on one GPU",
    course::check::BarKind::at_least,
    1.5,
    "1.91-1.96 on two H200s (NVLink)",
    "accélération de l'étape sur deux GPU par rapport au même travail sur un seul GPU",
    "1.91-1.96 sur deux H200 (NVLink)"};

void check_speed_up(CaseContext& c) {
  const bool sanitized = c.under_sanitizer();
  const int n = sanitized ? kSanitizerSpeedSamples : kSpeedSamples;
  const int bins = sanitized ? kSanitizerSpeedBins : kSpeedBins;
  const Run run =
      c.run(request::speed, {n, bins, sanitized ? 1 : kSpeedRepetitions}, 0, kSpeedTimeoutSeconds);
  if (!finished(c, run) || !communicators_made(c, run)) return;
  std::int64_t busy = 0;
  if (!c.read_value(run, result::busy_streams, busy) || !streams_idle(c, busy)) return;
  // The timed result must be right: a few bins against the CPU.
  const std::vector<float> samples =
      two_gpus_nccl::make_samples(static_cast<std::size_t>(n), c.seed());
  std::vector<double> expected;
  const auto indices =
      course::spread_indices(static_cast<std::size_t>(bins), two_gpus_nccl::kSpeedCheckedBins);
  for (const std::size_t j : indices) {
    double sum = 0.0;
    const double centre = two_gpus_nccl::bin_centre(static_cast<int>(j), bins);
    for (const float x : samples) {
      const double t = (x - centre) * static_cast<double>(two_gpus_nccl::kInverseBandwidth);
      sum += std::exp(-0.5 * t * t);
    }
    expected.push_back(sum);
  }
  if (!c.expect_array(run, result::sampled_density, expected,
                      two_gpus_nccl::density_tolerance(static_cast<std::size_t>(n)))) {
    c.note(Message{"(the timed step's density, compared at {} bins spread over the {})",
                   "(la densité de l'étape chronométrée, comparée sur {} bins répartis parmi les "
                   "{})"}
               .with(indices.size(), bins));
    return;
  }
  if (!c.times_judged()) return;
  double one_ms = 0.0, two_ms = 0.0;
  if (!c.read_times(run, {{result::one_gpu_ms, one_ms}, {result::two_gpus_ms, two_ms}})) return;
  const Message figures = Message{"one GPU {} ms, two GPUs {} ms ({} samples, {} bins)",
                                  "un GPU {} ms, deux GPU {} ms ({} échantillons, {} bins)"}
                              .with(one_ms, two_ms, kSpeedSamples, kSpeedBins);
  c.judge_speed(kSpeedUpBar, one_ms / two_ms, figures,
                {Message{"both GPUs must work at once, each on half the samples: launch on "
                         "device 0, then on device 1, and wait only after both launches and the "
                         "all-reduce are enqueued.",
                         "les deux GPU doivent travailler en même temps, chacun sur la moitié des "
                         "échantillons : lancez sur le GPU 0, puis sur le GPU 1, et n'attendez "
                         "qu'une fois les deux lancements et l'all-reduce mis en file."}});
}

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "25",
      "two_gpus_nccl",
      {
          {"peer_access_both_ways", 2, check_peer_access},
          {"peer_copy_gpu_to_gpu", 2, [](CaseContext& c) { check_copy(c, false); }},
          {"staged_copy_through_host", 2, [](CaseContext& c) { check_copy(c, true); }},
          {"all_reduce_sum", 3, check_all_reduce},
          {"density_one_sample", 1,
           [](CaseContext& c) {
             check_density(c, {1, 5});
           }},
          {"density_300007_samples", 3,
           [](CaseContext& c) {
             check_density(c, {300007, 333});
           }},
          {"density_hidden_size", 2, check_density_hidden, course::check::kHiddenCase},
          course::check::timed({"two_gpus_at_least_1_5x_one", 4, check_speed_up}, {kSpeedUpBar}),
          {"ranks_join_one_communicator", 3, check_join},
      }};
  exercise.devices = kDevicesNeeded;
  return course::check::judge_main(argc, argv, exercise);
}
