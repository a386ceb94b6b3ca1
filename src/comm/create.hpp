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

// Collective. `parse` turns this process's raw arguments into a spec and may throw Error; the
// processes agree on success before anything is created, so that a bad argument on any process,
// or arguments that differ between processes, make every process throw the same error.
Communicator create_collectively(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse, bool reorder);

}  // namespace cartcoll::detail
