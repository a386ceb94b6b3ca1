// SPDX-License-Identifier: BSD-3-Clause
#include "block_arena.hpp"

#include <algorithm>

#include "mpi_check.hpp"

namespace cartcoll::detail {

std::pair<MPI_Aint, MPI_Aint> footprint(const BlockSpec& block) {
  if (block.count == 0) return {0, 0};
  MPI_Aint lb, extent, true_lb, true_extent;
  check(MPI_Type_get_extent(block.type, &lb, &extent), "MPI_Type_get_extent");
  check(MPI_Type_get_true_extent(block.type, &true_lb, &true_extent), "MPI_Type_get_true_extent");
  const MPI_Aint last = extent * (block.count - 1);
  return {true_lb + std::min<MPI_Aint>(0, last), true_lb + true_extent + std::max<MPI_Aint>(0, last)};
}

namespace {

constexpr MPI_Aint alignment = alignof(std::max_align_t);

MPI_Aint align_up(MPI_Aint value) { return (value + alignment - 1) / alignment * alignment; }

MPI_Aint aligned_size(const std::pair<MPI_Aint, MPI_Aint>& span) { return align_up(span.second - span.first); }

}  // namespace

std::size_t BlockArena::bytes_for(std::span<const BlockSpec> like) {
  MPI_Aint total = 0;
  for (const BlockSpec& block : like) total += aligned_size(footprint(block));
  return static_cast<std::size_t>(total);
}

BlockArena::BlockArena(std::span<const BlockSpec> like) {
  std::vector<std::pair<MPI_Aint, MPI_Aint>> spans;
  MPI_Aint total = 0;
  for (const BlockSpec& block : like) {
    spans.push_back(footprint(block));
    total += aligned_size(spans.back());
  }
  memory_.reset(new std::max_align_t[static_cast<std::size_t>(total / alignment) + 1]);
  MPI_Aint cursor = 0;
  check(MPI_Get_address(memory_.get(), &cursor), "MPI_Get_address");
  for (std::size_t i = 0; i < like.size(); ++i) {
    blocks_.push_back({MPI_Aint_add(cursor, -spans[i].first), like[i].count, like[i].type});
    cursor = MPI_Aint_add(cursor, aligned_size(spans[i]));
  }
}

}  // namespace cartcoll::detail
