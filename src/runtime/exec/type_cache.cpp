// SPDX-License-Identifier: BSD-3-Clause
#include "type_cache.hpp"

#include "mpi_check.hpp"

namespace cartcoll::detail {

namespace {

bool predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  check(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner), "MPI_Type_get_envelope");
  return combiner == MPI_COMBINER_NAMED;
}

// (address, count, Fortran handle) per block: handles of predefined types are fixed integers.
std::vector<MPI_Aint> key_of(std::span<const BlockSpec> blocks, bool with_addresses) {
  std::vector<MPI_Aint> key;
  key.reserve(3 * blocks.size());
  for (const BlockSpec& block : blocks) {
    if (with_addresses) key.push_back(block.address);
    key.push_back(block.count);
    key.push_back(static_cast<MPI_Aint>(MPI_Type_c2f(block.type)));
  }
  return key;
}

}  // namespace

bool all_predefined(std::span<const BlockSpec> blocks) {
  for (const BlockSpec& block : blocks)
    if (!predefined(block.type)) return false;
  return true;
}

Datatype committed_struct(std::span<const BlockSpec> blocks) {
  std::vector<int> counts;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Datatype> types;
  for (const BlockSpec& block : blocks) {
    counts.push_back(block.count);
    addresses.push_back(block.address);
    types.push_back(block.type);
  }
  MPI_Datatype combined = MPI_DATATYPE_NULL;
  check(MPI_Type_create_struct(static_cast<int>(blocks.size()), counts.data(), addresses.data(), types.data(),
                               &combined),
        "MPI_Type_create_struct");
  Datatype owned(combined);
  check(MPI_Type_commit(&combined), "MPI_Type_commit");
  return owned;
}

std::shared_ptr<const Datatype> TypeCache::struct_of(std::span<const BlockSpec> blocks) {
  if (!all_predefined(blocks)) return nullptr;
  auto key = key_of(blocks, true);
  if (const auto found = types_.find(key); found != types_.end()) return found->second;
  if (types_.size() >= capacity) types_.clear();
  auto made = std::make_shared<const Datatype>(committed_struct(blocks));
  types_.emplace(std::move(key), made);
  return made;
}

const BlockArena* TypeCache::temp_like(std::span<const BlockSpec> like) {
  if (!all_predefined(like)) return nullptr;
  auto shape = key_of(like, false);
  if (shape != temp_shape_) {
    temp_ = BlockArena(like);
    temp_shape_ = std::move(shape);
  }
  return &temp_;
}

}  // namespace cartcoll::detail
