// Exercise 05: what the student's program and its check must agree on - the weights of
// the 7-point stencil, the memory layout of a 3D grid, and the inputs of every run,
// drawn from a seed.
//
// This header is plain C++ so that the check (compiled without OpenMP or device code)
// can include it; three_d_blocks.hpp includes it for the student's code.
//
// Used by:  make 05 && make run-05 (the program), make check-05 (the check)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/data.hpp"

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

}  // namespace three_d_blocks
