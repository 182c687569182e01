// Exercise 05: what the student's program and its check must agree on - the weights of
// the 7-point stencil, the memory layout of a 3D grid, the inputs of every run, drawn
// from a seed, the reference with the tolerance that results are judged by, and the
// results a case reports.
//
// This header is plain C++ so that the check (compiled without OpenMP or device code)
// can include it; three_d_blocks.hpp includes it for the student's code.
//
// Used by:  make 05 && make run-05 (the program), make check-05 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/check/request_keys.hpp"
#include "course/check/result_keys.hpp"
#include "course/data.hpp"
#include "course/verify.hpp"

// One explicit time step of heat diffusion, out = in + alpha * (sum of the 6 neighbours
// - 6 in), with alpha = 1/8 (stable: alpha <= 1/6), written as two weights:
//   out = kCenterWeight * in + kNeighbourWeight * (sum of the 6 neighbours),
// where a neighbour outside the grid counts as 0 (walls held at temperature 0).
inline constexpr float kNeighbourWeight = 0.125f;
inline constexpr float kCenterWeight = 1.0f - 6.0f * kNeighbourWeight;  // 0.25

namespace three_d_blocks {

// Inputs are uniform in [kInputMin, kInputMax): never 0, so that a neighbour counted
// as 0 by mistake always shows, and all positive, so that no sum cancels.
inline constexpr float kInputMin = 1.0f;
inline constexpr float kInputMax = 2.0f;

// The number of points of an nx x ny x nz grid, in size_t: the product of three ints
// can pass 2^31.
inline std::size_t point_count(int nx, int ny, int nz) {
  return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz);
}

// Where point (x, y, z) lives in memory: x is the fastest index, then y, then z.
inline std::size_t linear_index(int x, int y, int z, int nx, int ny) {
  return (static_cast<std::size_t>(z) * static_cast<std::size_t>(ny) +
          static_cast<std::size_t>(y)) *
             static_cast<std::size_t>(nx) +
         static_cast<std::size_t>(x);
}

inline std::vector<float> make_input(int nx, int ny, int nz, std::uint64_t seed) {
  return course::random_floats(point_count(nx, ny, nz), kInputMin, kInputMax, seed);
}

// The update of every point in double precision: the reference of the check, and of the
// demo before it shows a time.
inline std::vector<double> reference_stencil(const std::vector<float>& in, int nx, int ny, int nz) {
  std::vector<double> out(in.size());
  const auto at = [&](int x, int y, int z) -> double {
    const bool inside = x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz;
    return inside ? static_cast<double>(in[linear_index(x, y, z, nx, ny)]) : 0.0;
  };
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const double neighbours = at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) +
                                  at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1);
        out[linear_index(x, y, z, nx, ny)] = static_cast<double>(kCenterWeight) * at(x, y, z) +
                                             static_cast<double>(kNeighbourWeight) * neighbours;
      }
    }
  }
  return out;
}

// A point's value in float is kCenterWeight * c + kNeighbourWeight * (n1 + ... + n6)
// with every input in [1, 2). The weights are powers of two, so both products are exact
// (also when the GPU fuses one of them into an FMA); what rounds is the additions of
// positive numbers, at most 5 for the neighbours and 1 for the two terms, each within
// 2^-24 of its result. Nothing cancels, so in any order the error stays below
// 6 * 2^-24 = 3.6e-7 of the value, and rtol = 1e-6 leaves a factor 3 on that bound.
// Every value is at least 0.25 (a lone point: 0.25 * in), so no atol is needed. A
// neighbour missed or counted twice changes a value by 0.125 * in >= 0.125 out of at
// most 2: 6%, tens of thousands of times the tolerance.
inline constexpr course::Tolerance kTolerance{0.0, 1e-6};

// What the check asks for (harness/check.cpp) and a case computes (harness/cases.cu), each
// on an nx x ny x nz grid.
namespace request {
struct Serial {
  int nx = 0;
  int ny = 0;
  int nz = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("nx", nx), visit("ny", ny), visit("nz", nz);
  }
};
struct OpenMp {
  int nx = 0;
  int ny = 0;
  int nz = 0;
  int threads = 1;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("nx", nx), visit("ny", ny), visit("nz", nz), visit("threads", threads);
  }
};
struct Gpu {
  int nx = 0;
  int ny = 0;
  int nz = 0;
  int block_x = 0;
  int block_y = 0;
  int block_z = 0;
  template <typename Visit>
  void fields(Visit&& visit) {
    visit("nx", nx), visit("ny", ny), visit("nz", nz), visit("block_x", block_x),
        visit("block_y", block_y), visit("block_z", block_z);
  }
};
// stencil_serial.
inline const course::check::Request<Serial> serial{"serial"};
// stencil_openmp on `threads` OpenMP threads.
inline const course::check::Request<OpenMp> openmp{"openmp"};
// stencil_on_gpu on blocks of block_x x block_y x block_z threads; after_empty makes a
// call on a grid without points (nx = 0) first.
inline const course::check::Request<Gpu> gpu{"gpu"};
inline const course::check::Request<Gpu> gpu_after_empty{"gpu_after_empty"};
}  // namespace request

// What a case reports (harness/cases.cu) and the check reads (harness/check.cpp).
namespace result {
// The output grid of stencil_serial, stencil_openmp or stencil_on_gpu.
inline const course::check::Array<float> out{"out"};
// The output of stencil_on_gpu on a grid without points, before the call that follows it.
inline const course::check::Array<float> empty_out{"empty_out"};
// The kernel time stencil_on_gpu returned, and its whole call timed around it.
inline const course::check::Value<double> kernel_ms{"kernel_ms"};
inline const course::check::Value<double> call_ms{"call_ms"};
}  // namespace result

}  // namespace three_d_blocks
