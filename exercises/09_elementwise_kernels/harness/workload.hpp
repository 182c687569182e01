// Exercise 09: what the student's program and its check must agree on - the inputs
// of the three elementwise functions (the Gaussian, the polar distance, the noisy
// pulse train), drawn from a seed, their constants, each element's reference, and the
// results a case reports.
//
// This header is plain C++ so that the check (compiled without nvcc) can include it;
// elementwise.hpp includes it for the student's code.
//
// Used by:  make 09 && make run-09 (the program), make check-09 (the check)
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

// Threads per block of every launch of this exercise.
inline constexpr int kThreadsPerBlock = 256;
// transform() launches at most this many blocks and loops over the rest (a
// grid-stride loop), so that one launch covers any n, even past what a grid can hold.
// Four waves of 132 multiprocessors x 8 blocks rather than one: at 2^26 floats on an H200
// the Gaussian reached 87.5% of the copy ceiling with 1024 blocks, 90.8% with 2048 and
// 94.8% with 4224 (the statement's table).
inline constexpr int kMaxTransformBlocks = 4096;
// Each step of transform's loop handles a chunk of this many consecutive elements: one
// float4 (16-byte) access per array (the statement says why it is faster).
inline constexpr int kTransformChunk = 4;

namespace elementwise {

// sqrt(2 pi), the Gaussian's normalisation, rounded once to float (the lab's SQRT_2PI).
inline constexpr float kSqrt2Pi = 2.50662827463100050242f;
inline constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// The Gaussian: a million x uniform in [-3, 3), as in the lab, with mean 0 and sigma 1.
// Other cases draw the mean in [-1, 1] and sigma in [1, 2], so |x - mean| / sigma <= 4.
// ---------------------------------------------------------------------------
inline constexpr int kGaussianElements = 1000000;
inline constexpr float kGaussianXMin = -3.0f;
inline constexpr float kGaussianXMax = 3.0f;
inline constexpr float kLabMean = 0.0f;
inline constexpr float kLabSigma = 1.0f;
inline constexpr float kMeanMin = -1.0f;
inline constexpr float kMeanMax = 1.0f;
inline constexpr float kSigmaMin = 1.0f;
inline constexpr float kSigmaMax = 2.0f;

struct GaussianParameters {
  float mean = kLabMean;
  float sigma = kLabSigma;
};

// The lab's mean and sigma, or ones drawn from the seed.
inline constexpr std::uint64_t kGaussianParametersSalt = 10;

inline GaussianParameters gaussian_parameters(bool lab, std::uint64_t seed) {
  if (lab) return {};
  course::Rng rng(course::derive_seed(seed, kGaussianParametersSalt));
  const float mean = rng.uniform(kMeanMin, kMeanMax);
  return {mean, rng.uniform(kSigmaMin, kSigmaMax)};
}

inline std::vector<float> make_gaussian_x(int n, std::uint64_t seed) {
  return course::random_floats(static_cast<std::size_t>(n), kGaussianXMin, kGaussianXMax, seed);
}

// The two inputs of the addition (add_gpu): floats like the Gaussian's x, from two
// streams of the seed.
inline constexpr std::uint64_t kAddFirstSalt = 21, kAddSecondSalt = 22;

inline std::vector<float> make_add_input(int n, std::uint64_t seed, int which) {
  return make_gaussian_x(n, course::derive_seed(seed, which == 0 ? kAddFirstSalt : kAddSecondSalt));
}

// ---------------------------------------------------------------------------
// Polar distance: radii uniform in [0.5, 1.5), angles uniform in [-pi, pi), as in the lab.
// ---------------------------------------------------------------------------
inline constexpr int kPolarElements = 1000000;
inline constexpr float kRhoMin = 0.5f;
inline constexpr float kRhoMax = 1.5f;
inline constexpr float kThetaMin = static_cast<float>(-kPi);
inline constexpr float kThetaMax = static_cast<float>(kPi);

struct PolarPoints {
  std::vector<float> rho1, theta1, rho2, theta2;
};

// Salts: independent streams from one seed.
inline constexpr std::uint64_t kRho1Salt = 11, kTheta1Salt = 12, kRho2Salt = 13, kTheta2Salt = 14;
inline constexpr std::uint64_t kRadialShiftSalt = 15, kAngularShiftSalt = 16;

inline PolarPoints make_polar_points(int n, std::uint64_t seed) {
  const auto count = static_cast<std::size_t>(n);
  return {
      course::random_floats(count, kRhoMin, kRhoMax, course::derive_seed(seed, kRho1Salt)),
      course::random_floats(count, kThetaMin, kThetaMax, course::derive_seed(seed, kTheta1Salt)),
      course::random_floats(count, kRhoMin, kRhoMax, course::derive_seed(seed, kRho2Salt)),
      course::random_floats(count, kThetaMin, kThetaMax, course::derive_seed(seed, kTheta2Salt))};
}

// Pairs of points a few float steps apart: the second point is the first moved by a
// relative amount below kNearbyMaxShift in radius and in angle. Their distance is tiny
// next to the coordinates that are subtracted to get it: the precision-sensitive case.
inline constexpr float kNearbyMaxShift = 1e-5f;

inline PolarPoints make_nearby_polar_points(int n, std::uint64_t seed) {
  PolarPoints points = make_polar_points(n, seed);
  const std::vector<float> radial =
      course::random_floats(points.rho1.size(), -kNearbyMaxShift, kNearbyMaxShift,
                            course::derive_seed(seed, kRadialShiftSalt));
  const std::vector<float> angular =
      course::random_floats(points.rho1.size(), -kNearbyMaxShift, kNearbyMaxShift,
                            course::derive_seed(seed, kAngularShiftSalt));
  for (std::size_t i = 0; i < points.rho1.size(); ++i) {
    points.rho2[i] = points.rho1[i] * (1.0f + radial[i]);
    points.theta2[i] = points.theta1[i] + angular[i];
  }
  return points;
}

// ---------------------------------------------------------------------------
// The lab's noisy pulse train: 100000 int16 samples,
//   waveform[i] = int16(300 * max(sin(i / (n / 23)) - 0.3, 0) + 3 * normal())
// (the cast truncates toward zero, like numpy's astype), zero-suppressed at 15.
// ---------------------------------------------------------------------------
inline constexpr int kPulseTrainSamples = 100000;
inline constexpr double kPulsesPerTwoPiSamples = 23.0;  // sin(i / (n / 23))
inline constexpr double kPulseOffset = 0.3;
inline constexpr double kPulseAmplitude = 300.0;
inline constexpr double kNoiseSigma = 3.0;
inline constexpr std::int16_t kLabThreshold = 15;

inline std::vector<std::int16_t> make_pulse_train(int n, std::uint64_t seed) {
  course::Rng rng(seed);
  std::vector<std::int16_t> waveform(static_cast<std::size_t>(n));
  const double period = n / kPulsesPerTwoPiSamples;
  for (int i = 0; i < n; ++i) {
    const double pulse = std::fmax(std::sin(i / period) - kPulseOffset, 0.0);
    // One explicit fused multiply-add: the same rounding whichever compiler (the
    // program's or the check's) builds this and whether it contracts a * b + c itself.
    const double noise = kNoiseSigma * rng.normal();
    waveform[static_cast<std::size_t>(i)] =
        static_cast<std::int16_t>(std::fma(kPulseAmplitude, pulse, noise));
  }
  return waveform;
}

// Samples around a threshold: threshold - 2 .. threshold + 2, negative values and
// zero, in a repeating pattern, so that every comparison at the edge is exercised.
inline std::vector<std::int16_t> make_threshold_edges(int n, std::int16_t threshold) {
  const int offsets[] = {0, -1, 1, -2, 2, 0};
  std::vector<std::int16_t> values(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int pattern = i % 8;
    int value = 0;
    if (pattern < 6) {
      value = threshold + offsets[pattern];
    } else if (pattern == 6) {
      value = -threshold;
    }  // pattern 7: zero
    values[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(value);
  }
  return values;
}

// ---------------------------------------------------------------------------
// Each element's reference, in double precision, and the tolerances the results are
// judged by: by the check, and by the demo before it shows a time (u = 2^-24 ~ 6e-8, a
// float's unit roundoff)
// ---------------------------------------------------------------------------

// Gaussian: z = (x - mean) / sigma takes 2 roundings (3 as (x - mean) * (1 / sigma)),
// a = z * z / 2 one more, so a is off by about 7u relative; exp turns that into an
// error of 7u * |a| relative in y. The inputs keep |z| <= 4 (a <= 8): at most 56u.
// expf adds 2 ulp (CUDA's bound), the normalisation 1 / (sigma sqrt(2 pi)) and its
// use 3 roundings and the rounded constant half a unit: about 62u ~ 3.7e-6 relative
// in all. rtol = 1e-5 leaves a factor 2.7; a missing normalisation is off by a factor
// 2.5 or more.
inline constexpr course::Tolerance kGaussianTolerance{0.0, 1e-5};

inline double gaussian_pdf_reference(double x, double mean, double sigma) {
  const double z = (x - mean) / sigma;
  return std::exp(-0.5 * z * z) / (sigma * std::sqrt(2.0 * kPi));
}

// Polar distance: each coordinate is off by 2.4e-7 (above), each difference dx, dy by
// twice that plus its own rounding (|dx| < 3: 1.2e-7), 6e-7 in all; the length of the
// difference moves by at most sqrt(2) * 6e-7 = 8.5e-7, and the squares, the sum and
// sqrtf add 3 roundings relative to d < 3 (5.4e-7). So about 1.4e-6 ABSOLUTE,
// whatever d: when the two points almost coincide, d is tiny but its error is not
// (the coordinates' errors do not cancel), so a relative tolerance would reject the
// correct kernel. atol = 4e-6 (about 8 ulp of the radii's sum) leaves a factor 3.
// The law of cosines, d^2 = r1^2 + r2^2 - 2 r1 r2 cos(t1 - t2), cancels there:
// an error near u * (r1 + r2)^2 in d^2 becomes an error of 5e-4 in a d of 1e-5.
inline constexpr course::Tolerance kDistanceTolerance{4e-6, 0.0};

inline double polar_distance_reference(const PolarPoints& p, std::size_t i) {
  const double dx =
      p.rho1[i] * std::cos(double{p.theta1[i]}) - p.rho2[i] * std::cos(double{p.theta2[i]});
  const double dy =
      p.rho1[i] * std::sin(double{p.theta1[i]}) - p.rho2[i] * std::sin(double{p.theta2[i]});
  return std::sqrt(dx * dx + dy * dy);
}

// A sample after zero suppression: kept at the threshold and above.
inline std::int16_t suppressed_sample(std::int16_t sample, std::int16_t threshold) {
  return sample < threshold ? std::int16_t{0} : sample;
}

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu), each
// on n elements.
namespace request {
struct Size {
  int n = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n);
  }
};
struct Gaussian {
  int n = 0;
  bool lab = true;  // the lab's mean and sigma, else ones drawn from the seed
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("lab", lab);
  }
};
struct Distance {
  int n = 0;
  bool nearby = false;  // make_nearby_polar_points, else make_polar_points
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("nearby", nearby);
  }
};
// The waveform zero_suppress_gpu is given.
enum class Waveform { pulse_train, edges };  // make_pulse_train, make_threshold_edges
inline std::vector<std::pair<Waveform, std::string>> choices(Waveform) {
  return {{Waveform::pulse_train, "pulse_train"}, {Waveform::edges, "edges"}};
}
struct ZeroSuppress {
  int n = 0;
  std::int16_t threshold = kLabThreshold;
  Waveform waveform = Waveform::pulse_train;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("n", n), visit("threshold", threshold), visit("waveform", waveform);
  }
};
inline const course::check::Request<Gaussian> gaussian{"gaussian"};
// Every launcher with n = 0 first, then gaussian.
inline const course::check::Request<Gaussian> empty_then_gaussian{"empty_then_gaussian"};
inline const course::check::Request<Size> add{"add"};
inline const course::check::Request<Size> polar_to_cartesian{"polar_to_cartesian"};
inline const course::check::Request<Distance> polar_distance{"polar_distance"};
inline const course::check::Request<ZeroSuppress> zero_suppress{"zero_suppress"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// gaussian_pdf_gpu's output; polar_to_cartesian_gpu's y.
inline const course::check::Array<float> y{"y"};
inline const course::check::Array<float> x{"x"};                // polar_to_cartesian_gpu's x
inline const course::check::Array<float> sum{"sum"};            // add_gpu's output
inline const course::check::Array<float> distance{"distance"};  // polar_distance_gpu's
// zero_suppress_gpu's int16 output, widened, with a sample never written as the poison.
inline const course::check::Array<std::int32_t> out{"out"};
}  // namespace result

}  // namespace elementwise
