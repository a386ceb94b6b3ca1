// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "cartcoll/cartcoll.hpp"

namespace cartcoll::detail {

// One process's view of the arguments of a create call.
struct NeighborhoodSpec {
  Grid grid;
  Offsets offsets;
  std::optional<std::vector<int>> weights;
  Algorithm algorithm;
  std::optional<int> node_size = std::nullopt;  // node_size_setting; else MPI_COMM_TYPE_SHARED decides
};

// node-combining's node size on `comm`: `configured` if set, else, where node-combining may be used,
// what MPI_COMM_TYPE_SHARED shows (collective: consecutive ranks in nodes of equal size, else 0),
// else 0 (one node).
int node_size_for(MPI_Comm comm, std::optional<int> configured, bool may_use);

// Collective. `parse` turns this process's raw arguments into a spec and may throw Error; the
// processes agree on success before anything is created, so that a bad argument on any process,
// or arguments that differ between processes, make every process throw the same error.
Communicator create_collectively(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse, bool reorder);

}  // namespace cartcoll::detail
