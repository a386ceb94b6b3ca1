#pragma once
// graph-combining's set-up (003's pattern extraction and matching, src/graph/combining_setup.hpp)
// over a distributed-graph communicator just made: at CC_Dist_graph_create(_adjacent), and through
// libcartcoll_mpi at MPI_Dist_graph_create(_adjacent).
#include <mpi.h>

#include <memory>

#include "neighborhood.hpp"
#include "settings.hpp"

namespace cartcoll::detail {

// Collective over `graph` (this process is `rank` there, with `neighbors`): the set-up's result when
// the agreed algorithm plans from it, else nullptr without communicating. `settings` must be equal
// on every process. `auto` never runs it (docs/graph-combining.md says why).
std::shared_ptr<const CombiningPattern> combining_pattern(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors,
                                                          const Settings& settings);

}  // namespace cartcoll::detail
