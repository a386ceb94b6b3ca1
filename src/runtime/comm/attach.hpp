// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The library's state for communicators whose topology MPI made (MPI_Dist_graph_create*,
// MPI_Graph_create, MPI_Cart_create): attached at the first neighborhood collective on them, as part
// of that collective call, which every process makes in the same order. Every call starts
// MPI_Comm_idup. A nonblocking call's operation waits for the duplicate inside the progress engine, so
// the call itself does not block; a blocking call or *_init waits for it at once, also in the engine
// (the process's other operations move on meanwhile), and on a distributed graph then agrees on the
// settings and runs what CC_Dist_graph_create would have run at creation: the Cartesian detection and
// the set-up the algorithm needs (graph_create.hpp, neighborhood_at_first_call).
#include <mpi.h>

#include <memory>
#include <optional>
#include <vector>

#include "state.hpp"

namespace cartcoll::detail {

// The state of `comm` for a neighborhood collective: the one it carries, or one made now from its MPI
// topology. Error(Errc::topology) for a communicator without one, Errc::comm after MPI_Comm_free.
// Without `may_block` (a nonblocking first call) no agreement is possible: where this process's
// settings do not parse, the state made (and attached) now has the defaults, and the error goes to
// `*unusable_settings`, for the call to start all the same and report it at its completion (the
// processes whose settings parse start theirs and would otherwise wait for this one); without
// `unusable_settings` the error is thrown.
std::shared_ptr<CommState> state_for_collective(MPI_Comm comm, bool may_block,
                                                std::optional<Error>* unusable_settings = nullptr);

// What MPI_Topo_test says of comm. Under SimGrid's SMPI, which declares MPI_Topo_test but aborts the
// simulation when it is called (cmake/mpi_features.cmake), MPI_UNDEFINED: there the library reads no
// MPI topology, and its own graph communicators carry their neighborhoods (graph_create.hpp).
int mpi_topology_of(MPI_Comm comm);

// What MPI_Cart_get says of comm's Cartesian topology (d = dims.size() may be 0).
// Error(Errc::topology) for a communicator without a Cartesian topology.
struct MpiCartesian {
  std::vector<int> dims, periods, coords;
};
MpiCartesian mpi_cartesian_of(MPI_Comm comm);

// The neighborhood of `comm`'s MPI topology, as this process sees it (local: MPI's query functions).
Neighborhood neighborhood_of_topology(MPI_Comm comm, Weights& weights);

}  // namespace cartcoll::detail
