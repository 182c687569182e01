// Exercise 09 - the check. Runs the student's program case by case and compares what
// it reports with references computed here in double precision (exactly, for the
// integer zero suppression). Contains no student code.
//
//   make check-09                          (students)
//   build/.../check_09 --program PROGRAM   (instructors; --help lists the options)
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "course/check/judge.hpp"
#include "workload.hpp"

namespace {

using course::check::CaseContext;
using course::check::Message;
using course::check::Request;
using course::check::Run;
using namespace elementwise;

// ---------------------------------------------------------------------------
// Tolerances, from the arithmetic (u = 2^-24 ~ 6e-8, a float's unit roundoff); the
// Gaussian's and the distance's are in workload.hpp
// ---------------------------------------------------------------------------

// Addition: one rounding of a + b, at most half an ulp, below 2^-24 relative.
constexpr course::Tolerance kAddTolerance{0.0, 0x1.0p-23};

// polar_to_cartesian: cosf and sinf are within 2 ulp (of a result below 1: 2 * 2^-24
// absolute), times rho < 1.5, plus half an ulp of the product (2^-24): about 2.4e-7
// absolute. atol = 1e-6 leaves a factor 4; swapping sin and cos is off by up to 1.5.
constexpr course::Tolerance kCartesianTolerance{1e-6, 0.0};

// ---------------------------------------------------------------------------
// References (each element's: workload.hpp, with the Gaussian's and the distance's
// tolerances)
// ---------------------------------------------------------------------------

std::vector<double> gaussian_reference(int n, std::uint64_t seed, bool lab) {
  const std::vector<float> x = make_gaussian_x(n, seed);
  const GaussianParameters p = gaussian_parameters(lab, seed);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = gaussian_pdf_reference(x[i], p.mean, p.sigma);
  return y;
}

std::vector<double> distance_reference(const PolarPoints& p) {
  std::vector<double> d(p.rho1.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = polar_distance_reference(p, i);
  return d;
}

std::vector<std::int32_t> zero_suppress_reference(const std::vector<std::int16_t>& waveform,
                                                  std::int16_t threshold) {
  std::vector<std::int32_t> out(waveform.size());
  for (std::size_t i = 0; i < waveform.size(); ++i) {
    out[i] = suppressed_sample(waveform[i], threshold);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Hints
// ---------------------------------------------------------------------------

// Every message a student reads is a Message: the English, then the French (message.hpp).
const Message kGaussianHint{
    "y must be expf(-z * z / 2) / (sigma * sqrt(2 pi)) with z = (x - mean) / sigma: check the "
    "normalisation 1 / (sigma * sqrt(2 pi)) (elementwise::kSqrt2Pi) and where mean and sigma go.",
    "y doit valoir expf(-z * z / 2) / (sigma * sqrt(2 pi)) avec z = (x - mean) / sigma : "
    "vérifiez la normalisation 1 / (sigma * sqrt(2 pi)) (elementwise::kSqrt2Pi) et la place de "
    "mean et de sigma."};
const Message kTransformHint{
    "transform must cover every element even when n is larger than its grid (at most "
    "kMaxTransformBlocks blocks of kTransformChunk elements per thread): a grid-stride loop "
    "over the chunks, chunk += gridDim.x * blockDim.x, while chunk < n / kTransformChunk "
    "rounded up.",
    "transform doit couvrir chaque élément même quand n dépasse sa grille (au plus "
    "kMaxTransformBlocks blocs de kTransformChunk éléments par thread) : une boucle à pas de "
    "grille sur les morceaux, chunk += gridDim.x * blockDim.x, tant que chunk < n / "
    "kTransformChunk arrondi à l'entier supérieur."};
const Message kCartesianHint{
    "polar_to_cartesian must return x = rho cos(theta), y = rho sin(theta): in that order.",
    "polar_to_cartesian doit rendre x = rho cos(theta), y = rho sin(theta) : dans cet ordre."};
const Message kDistanceHint{
    "distance = sqrtf(dx * dx + dy * dy) with dx, dy the differences of the cartesian "
    "coordinates of the two points (polar_to_cartesian).",
    "distance = sqrtf(dx * dx + dy * dy), où dx et dy sont les différences des coordonnées "
    "cartésiennes des deux points (polar_to_cartesian)."};
const Message kCancellationHint{
    "these points almost coincide: a distance computed as a difference of large numbers "
    "(the law of cosines) loses its digits to cancellation. Subtract the cartesian "
    "coordinates instead, as the lab does.",
    "ces points sont presque confondus : une distance calculée comme la différence de grands "
    "nombres (la loi des cosinus) perd ses chiffres par annulation. Soustrayez plutôt les "
    "coordonnées cartésiennes, comme le fait le TP."};
const Message kZeroSuppressHint{
    "out[i] must be 0 where waveform[i] < threshold and waveform[i] otherwise: a sample "
    "exactly at the threshold is kept (< threshold, not <=).",
    "out[i] doit valoir 0 là où waveform[i] < threshold, et waveform[i] ailleurs : un "
    "échantillon exactement au seuil est gardé (< threshold, pas <=)."};

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

// A run that ended, computed on the GPU, and wrote no device buffer past its end.
bool ran_on_gpu(CaseContext& c, const Run& run) {
  return c.finished(run) && c.expect_kernel_launched(run);
}

void note_call(CaseContext& c, const Message& call, int n) {
  c.note(Message{"({} with n = {})", "({} avec n = {})"}.with(call, n));
}

bool check_gaussian(CaseContext& c, int n, bool lab,
                    const Request<request::Gaussian>& kind = request::gaussian) {
  const Run run = c.run(kind, {n, lab});
  const bool ok =
      ran_on_gpu(c, run) && c.expect_array(run, result::y, gaussian_reference(n, c.seed(), lab),
                                           kGaussianTolerance, kGaussianHint);
  if (!ok) {
    if (n > kMaxTransformBlocks * kThreadsPerBlock) c.hint(kTransformHint);
    note_call(c, Message::verbatim("gaussian_pdf_gpu"), n);
  }
  return ok;
}

bool check_add(CaseContext& c, int n) {
  const std::vector<float> a = make_add_input(n, c.seed(), 0);
  const std::vector<float> b = make_add_input(n, c.seed(), 1);
  std::vector<double> sum(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) sum[i] = double{a[i]} + double{b[i]};
  const Run run = c.run(request::add, {n});
  const bool ok =
      ran_on_gpu(c, run) && c.expect_array(run, result::sum, sum, kAddTolerance, kTransformHint);
  if (!ok) {
    c.hint(kTransformHint);
    note_call(
        c, Message{"add_gpu (transform with two inputs)", "add_gpu (transform avec deux entrées)"},
        n);
  }
  return ok;
}

void check_cartesian(CaseContext& c, int n) {
  const PolarPoints p = make_polar_points(n, c.seed());
  std::vector<double> x(p.rho1.size()), y(p.rho1.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = p.rho1[i] * std::cos(double{p.theta1[i]});
    y[i] = p.rho1[i] * std::sin(double{p.theta1[i]});
  }
  const Run run = c.run(request::polar_to_cartesian, {n});
  if (ran_on_gpu(c, run) &&
      c.expect_array(run, result::x, x, kCartesianTolerance, kCartesianHint) &&
      c.expect_array(run, result::y, y, kCartesianTolerance, kCartesianHint)) {
    return;
  }
  note_call(c, Message::verbatim("polar_to_cartesian_gpu"), n);
}

bool check_distance(CaseContext& c, int n, bool nearby) {
  const PolarPoints p =
      nearby ? make_nearby_polar_points(n, c.seed()) : make_polar_points(n, c.seed());
  const Run run = c.run(request::polar_distance, {n, nearby});
  const bool ok = ran_on_gpu(c, run) &&
                  c.expect_array(run, result::distance, distance_reference(p), kDistanceTolerance,
                                 nearby ? kCancellationHint : kDistanceHint);
  if (!ok) note_call(c, Message::verbatim("polar_distance_gpu"), n);
  return ok;
}

bool check_zero_suppress(CaseContext& c, int n, std::int16_t threshold, bool edges) {
  const std::vector<std::int16_t> waveform =
      edges ? make_threshold_edges(n, threshold) : make_pulse_train(n, c.seed());
  const Run run =
      c.run(request::zero_suppress,
            {n, threshold, edges ? request::Waveform::edges : request::Waveform::pulse_train});
  const bool ok = ran_on_gpu(c, run) &&
                  c.expect_array(run, result::out, zero_suppress_reference(waveform, threshold),
                                 course::kExact, kZeroSuppressHint);
  if (!ok) {
    note_call(
        c,
        Message{"zero_suppress_gpu with threshold {}", "zero_suppress_gpu avec le seuil {}"}.with(
            threshold),
        n);
  }
  return ok;
}

// The three functions at sizes (and a threshold) the student has not seen, drawn from
// the grading seed.
constexpr int kHiddenMaxElements = 2000000;
constexpr int kHiddenMinThreshold = 5;
constexpr int kHiddenMaxThreshold = 60;
constexpr std::uint64_t kHiddenShapeSalt = 9;

void check_hidden(CaseContext& c) {
  course::Rng rng(course::derive_seed(c.seed(), kHiddenShapeSalt));
  const int gaussian_n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  const int polar_n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  const int pulse_n = static_cast<int>(rng.uniform_int(1, kHiddenMaxElements));
  const auto threshold =
      static_cast<std::int16_t>(rng.uniform_int(kHiddenMinThreshold, kHiddenMaxThreshold));
  if (!check_gaussian(c, gaussian_n, false)) return;
  if (!check_distance(c, polar_n, false)) return;
  check_zero_suppress(c, pulse_n, threshold, false);
}

// Sizes of the cases.
constexpr int kOneBlockMinusOne = 255;
constexpr int kOneBlockPlusOne = 257;
constexpr int kOddSize = 100003;
// Two passes of the largest grid, plus a partial chunk.
constexpr int kPastFirstGrid = 2 * kMaxTransformBlocks * kThreadsPerBlock * kTransformChunk + 3;
static_assert(kPastFirstGrid > kMaxTransformBlocks * kThreadsPerBlock * kTransformChunk,
              "this case must need transform's grid-stride loop");
constexpr int kEdgeSamples = 1001;
constexpr int kAfterEmpty = 1000;

}  // namespace

int main(int argc, char** argv) {
  course::check::Exercise exercise{
      "09",
      "elementwise_kernels",
      {
          {"gaussian_lab_million", 2,
           [](CaseContext& c) { check_gaussian(c, kGaussianElements, true); }},
          {"gaussian_other_mean_sigma_odd_n", 2,
           [](CaseContext& c) { check_gaussian(c, kOddSize, false); }},
          {"gaussian_n_is_one", 1, [](CaseContext& c) { check_gaussian(c, 1, false); }},
          {"n_zero_launches_nothing", 2,
           [](CaseContext& c) {
             check_gaussian(c, kAfterEmpty, true, request::empty_then_gaussian);
           }},
          {"transform_two_inputs_past_first_grid", 2,
           [](CaseContext& c) { check_add(c, kPastFirstGrid); }},
          {"transform_n_255_smaller_than_a_block", 1,
           [](CaseContext& c) { check_add(c, kOneBlockMinusOne); }},
          {"polar_to_cartesian_helper", 2, [](CaseContext& c) { check_cartesian(c, kOddSize); }},
          {"polar_distance_lab_million", 2,
           [](CaseContext& c) { check_distance(c, kPolarElements, false); }},
          {"polar_distance_nearby_points", 2,
           [](CaseContext& c) { check_distance(c, kOddSize, true); }},
          {"polar_distance_n_257", 1,
           [](CaseContext& c) { check_distance(c, kOneBlockPlusOne, false); }},
          {"zero_suppress_pulse_train", 2,
           [](CaseContext& c) {
             check_zero_suppress(c, kPulseTrainSamples, kLabThreshold, false);
           }},
          {"zero_suppress_at_the_threshold", 2,
           [](CaseContext& c) { check_zero_suppress(c, kEdgeSamples, kLabThreshold, true); }},
          {"zero_suppress_n_is_one", 1,
           [](CaseContext& c) { check_zero_suppress(c, 1, kLabThreshold, true); }},
          {"hidden_sizes_from_seed", 2, check_hidden, course::check::kHiddenCase},
      }};
  return course::check::judge_main(argc, argv, exercise);
}
