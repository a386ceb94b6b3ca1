// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Who a process exchanges with in the unified-interfaces paper's (Träff, Hunold, Mercier and
// Holmes) collectives: its neighbors, where the communicator has a graph topology; else MPI's
// peers.
#include <mpi.h>

#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::detail {

// A graph topology (MPI_Dist_graph_create*, CC_Dist_graph_create*, MPI_Graph_create) makes the
// collectives act in neighborhoods. A Cartesian communicator does not: in the unified-interfaces
// paper it names processes and carries no topology (section 3), so its collectives are MPI's, as on
// a communicator without one.
inline bool acts_in_neighborhoods(MPI_Comm comm) {
  int topology = MPI_UNDEFINED;
  check(MPI_Topo_test(comm, &topology), "MPI_Topo_test");
  return topology == MPI_DIST_GRAPH || topology == MPI_GRAPH;
}

// The processes MPI's collectives exchange with: the remote group of an inter-communicator, else the
// whole group.
inline int peer_count(MPI_Comm comm) {
  int inter = 0, size = 0;
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  check(inter ? MPI_Comm_remote_size(comm, &size) : MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

}  // namespace cartcoll::detail
