// Grid sizes: the one rounding-up division every launch of the course needs.
#pragma once

#include <cstddef>

namespace course {

// The blocks of `per_block` items (threads, or threads times elements per thread) that
// cover `count` items: rounded up, so that the last, partial block is launched too.
inline constexpr unsigned blocks_for(std::size_t count, std::size_t per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}

}  // namespace course
