// SPDX-License-Identifier: BSD-3-Clause
#include "staging.hpp"

#include <cstdint>

#include "address.hpp"
#include "mpi_check.hpp"
#include "type_cache.hpp"

namespace cartcoll::detail {

namespace {

constexpr std::size_t alignment = alignof(std::max_align_t);

}  // namespace

std::size_t contiguous_bytes(const BlockSpec& block) {
  if (block.address == 0 || !all_predefined(std::span(&block, 1))) return 0;
  int size = 0;
  MPI_Aint lower = 0, extent = 0;
  check(MPI_Type_size(block.type, &size), "MPI_Type_size");
  check(MPI_Type_get_true_extent(block.type, &lower, &extent), "MPI_Type_get_true_extent");
  if (lower != 0 || extent != size) return 0;
  return static_cast<std::size_t>(size) * static_cast<std::size_t>(block.count);
}

std::optional<StagedRun> Staging::reserve(std::span<const BlockSpec> blocks, std::vector<StagedCopy>& copies) {
  if (up_to_ == 0 || blocks.size() < 2) return std::nullopt;
  const MPI_Datatype type = blocks.front().type;
  long long count = 0;
  std::size_t bytes = 0;
  for (const BlockSpec& block : blocks) {
    if (block.type != type) return std::nullopt;
    const std::size_t run = contiguous_bytes(block);
    if (run == 0 && block.count > 0) return std::nullopt;
    count += block.count;
    bytes += run;
  }
  if (bytes > up_to_ || count > INT32_MAX) return std::nullopt;
  const StagedRun staged{size_, static_cast<int>(count), type};
  std::size_t offset = size_;
  const std::size_t first = copies.size();
  for (const BlockSpec& block : blocks) {
    const std::size_t run = contiguous_bytes(block);
    if (run == 0) continue;
    StagedCopy* last = copies.size() > first ? &copies.back() : nullptr;
    if (last != nullptr && last->block + last->bytes == pointer_of(block.address))
      last->bytes += run;  // the block follows the last one in memory as in the run: one copy
    else
      copies.push_back({pointer_of(block.address), offset, run});
    offset += run;
  }
  size_ += (bytes + alignment - 1) / alignment * alignment;
  return staged;
}

void Staging::allocate() {
  if (size_ > 0) memory_ = std::make_unique<std::byte[]>(size_);
}

}  // namespace cartcoll::detail
