// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CC_Dist_graph_create_adjacent and CC_Dist_graph_create: ordinary MPI distributed-graph
// communicators (MPI_Topo_test, MPI_Dist_graph_neighbors, MPI_Comm_dup work as usual) carrying the
// library's state. Collective; the processes agree on errors first, and a graph that is not
// consistent (P lists Q as a destination a different number of times than Q lists P as a source) is
// found by a sparse exchange with each process's neighbors only, so every process returns the same
// error class and MPI_COMM_NULL, without hanging on the inconsistency.
#include <mpi.h>

#include <functional>
#include <optional>
#include <vector>

#include "core/planning/plan.hpp"
#include "neighborhood.hpp"
#include "settings.hpp"

namespace cartcoll::detail {

// One process's arguments, as the adjacent form takes them (ranks of the old communicator).
struct GraphSpec {
  std::vector<int> sources, destinations;
  std::optional<std::vector<int>> source_weights, destination_weights;  // nullopt: MPI_UNWEIGHTED
};

// `parse` reads this process's arguments and may throw Error; `info` may carry cartcoll_algorithm.
MPI_Comm create_graph_adjacent(MPI_Comm comm, const std::function<GraphSpec()>& parse, MPI_Info info, bool reorder);

// The general form's arguments: edges sources[k] -> destinations (degrees[k] of them, in order).
struct EdgeSpec {
  std::vector<int> sources, degrees, destinations;
  std::optional<std::vector<int>> weights;  // one per destination; nullopt: MPI_UNWEIGHTED
};

// The edges go to the processes they connect (a sparse exchange); each process's neighbors are
// ordered by the rank that named the edge, then by its position in that rank's arrays. Then as the
// adjacent form, without the consistency check (consistent by construction).
MPI_Comm create_graph(MPI_Comm comm, const std::function<EdgeSpec()>& parse, MPI_Info info, bool reorder);

// libcartcoll_mpi's MPI_Dist_graph_create(_adjacent), after MPI made `graph` from `parent` with
// `info` (collective): the processes agree on the algorithm and the planners' set-up parameters
// (environment, else info keys); the graph is looked at as a Cartesian neighborhood
// (cartesian_detection.hpp), the set-up the settings call for runs, and the library's state is
// attached, whatever was decided.
void attach_at_mpi_creation(MPI_Comm parent, MPI_Comm graph, MPI_Info info);

// The same for a distributed graph communicator MPI made without the layer, at its first blocking
// or *_init neighborhood collective (attach.hpp): agreed and set up over the library's duplicate
// `library_comm` (so no library message meets the user's), with the environment, else the hints of
// `comm` (MPI_Comm_get_info). `neighbors` is what MPI's topology says; `settings` is set.
Neighborhood neighborhood_at_first_call(MPI_Comm comm, MPI_Comm library_comm, GraphNeighborhood neighbors,
                                        Settings& settings);

}  // namespace cartcoll::detail
