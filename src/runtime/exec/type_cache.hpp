// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What calls on one communicator can share: the struct datatypes over their blocks (all calls) and
// the temp buffer (blocking calls). A halo exchange calls with the same buffers every iteration, and
// building and committing the datatypes is most of what a blocking call costs beyond its messages.
//
// Only blocks of predefined datatypes are cached. A struct type over (address, count, predefined
// type) triples means the same thing whenever the same triples come again, even if the memory was
// freed and reallocated in between; a user's derived datatype handle can be freed and its value
// reused for a different layout, so those are never cached.
#include <mpi.h>

#include <map>
#include <memory>
#include <span>
#include <vector>

#include "block_arena.hpp"
#include "cartcoll/layout.hpp"
#include "mpi_handles.hpp"

namespace cartcoll::detail {

// One committed struct datatype over blocks at absolute addresses (send or receive from MPI_BOTTOM).
Datatype committed_struct(std::span<const BlockSpec> blocks);

// Whether every block's datatype is a predefined one: such handles always mean the same type, where
// a derived datatype's freed handle may come back from MPI for another type. Only then may what was
// built from the blocks be used again for a later call that names the same handles.
bool all_predefined(std::span<const BlockSpec> blocks);

class TypeCache {
 public:
  // The committed struct type over `blocks`, made on first use; nullptr when a block's datatype is
  // not predefined (the caller then builds its own). Calls in flight keep their types alive when
  // the cache drops them.
  std::shared_ptr<const Datatype> struct_of(std::span<const BlockSpec> blocks);
  // A temp buffer laid out like `like`, kept while calls keep asking for the same shape; nullptr
  // when a datatype is not predefined. Only one call may use it at a time: blocking calls, which
  // never overlap on a communicator.
  const BlockArena* temp_like(std::span<const BlockSpec> like);

 private:
  // Enough for the few buffer sets an application alternates between; a program that changes
  // buffers on every call empties it when full instead of growing without bound.
  static constexpr std::size_t capacity = 256;

  std::map<std::vector<MPI_Aint>, std::shared_ptr<const Datatype>> types_;
  std::vector<MPI_Aint> temp_shape_;
  BlockArena temp_;
};

}  // namespace cartcoll::detail
