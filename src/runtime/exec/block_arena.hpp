// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Fresh memory laid out like a list of blocks: block i of the arena has the count and datatype of
// block i it mirrors, placed by the datatype's true extent. The executor's temp buffer is one
// (forwarded blocks keep their type signature); `auto`'s trial runs use two, so they never touch
// the caller's buffers.
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "cartcoll/layout.hpp"

namespace cartcoll::detail {

// The bytes `count` elements of `type` occupy, relative to the block's address: [first, second).
std::pair<MPI_Aint, MPI_Aint> footprint(const BlockSpec& block);

class BlockArena {
 public:
  BlockArena() = default;
  explicit BlockArena(std::span<const BlockSpec> like);

  std::span<const BlockSpec> blocks() const noexcept { return blocks_; }
  // The bytes an arena mirroring `like` would allocate, without allocating them.
  static std::size_t bytes_for(std::span<const BlockSpec> like);

 private:
  std::unique_ptr<std::max_align_t[]> memory_;
  std::vector<BlockSpec> blocks_;
};

}  // namespace cartcoll::detail
