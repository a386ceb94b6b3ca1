// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi: MPI's distributed-graph constructors, made by MPI, then looked at collectively
// (src/runtime/comm/graph_create.hpp, attach_at_mpi_creation): a Cartesian neighborhood runs on the
// Cartesian planners, and a forced graph-combining gets its set-up now. CARTCOLL_DISABLE leaves
// them to MPI alone.
#include <mpi.h>

#include "api/c/errors.hpp"
#include "api/introspection.hpp"
#include "control.hpp"

namespace {

// What the constructor returns: MPI's failure, or the library's, which frees the new communicator.
int attach_after(int created, MPI_Comm parent, MPI_Info info, MPI_Comm* graph) {
  if (created != MPI_SUCCESS || cartcoll::interpose::disabled() || *graph == MPI_COMM_NULL) return created;
  const int code = cartcoll::capi::guarded(parent, [&] { cartcoll::introspection::attach_at_mpi_creation(parent, *graph, info); });
  if (code != MPI_SUCCESS) MPI_Comm_free(graph);
  return code;
}

}  // namespace

extern "C" {

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph) {
  return attach_after(PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                                      destinations, destweights, info, reorder, comm_dist_graph),
                      comm_old, info, comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph) {
  return attach_after(
      PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph),
      comm_old, info, comm_dist_graph);
}

}  // extern "C"
