// SPDX-License-Identifier: BSD-3-Clause
#include "handle_census.hpp"

#include <mpi.h>

#include <set>

#include "call_census.hpp"
#include "traffic_census.hpp"  // tools/census: it owns the persistent-request wrappers

namespace {

// Test-only bookkeeping; the library itself keeps no such state.
std::set<MPI_Datatype>& datatypes() {
  static std::set<MPI_Datatype> live;
  return live;
}
std::set<MPI_Comm>& communicators() {
  static std::set<MPI_Comm> live;
  return live;
}

// A communicator a constructor made (none where the process is not in it).
int counted(int code, const MPI_Comm* made) {
  if (code == MPI_SUCCESS && *made != MPI_COMM_NULL) communicators().insert(*made);
  return code;
}

}  // namespace

namespace census {

Live live() { return {datatypes().size(), live_persistent_requests(), communicators().size()}; }

std::string leaks() {
  const Live now = live();
  std::string found;
  const auto add = [&](std::size_t count, const char* what) {
    if (count > 0) found += (found.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  add(now.datatypes, "struct datatypes");
  add(now.requests, "persistent requests");
  add(now.communicators, "communicators");
  return found.empty() ? found : found + " leaked";
}

}  // namespace census

extern "C" {

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  const int code = PMPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
  if (code == MPI_SUCCESS) datatypes().insert(*newtype);
  return code;
}

int MPI_Type_free(MPI_Datatype* type) {
  datatypes().erase(*type);
  return PMPI_Type_free(type);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  census::detail::note_collective();
  const int code = PMPI_Comm_dup(comm, newcomm);
  if (code == MPI_SUCCESS) communicators().insert(*newcomm);
  return code;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* copy, MPI_Request* request) {
  census::detail::note_collective();
  const int code = PMPI_Comm_idup(comm, copy, request);
  if (code == MPI_SUCCESS) communicators().insert(*copy);
  return code;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* graph) {
  const int code = PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                                   destweights, info, reorder, graph);
  if (code == MPI_SUCCESS && *graph != MPI_COMM_NULL) communicators().insert(*graph);
  return code;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* graph) {
  const int code = PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, graph);
  if (code == MPI_SUCCESS && *graph != MPI_COMM_NULL) communicators().insert(*graph);
  return code;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* cart) {
  const int code = PMPI_Cart_create(comm, ndims, dims, periods, reorder, cart);
  if (code == MPI_SUCCESS && *cart != MPI_COMM_NULL) communicators().insert(*cart);
  return code;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  census::detail::note_collective();
  return counted(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  census::detail::note_collective();
  return counted(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm) {
  census::detail::note_collective();
  return counted(PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm),
                 newintercomm);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  census::detail::note_collective();
  return counted(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}

int MPI_Comm_free(MPI_Comm* comm) {
  communicators().erase(*comm);
  return PMPI_Comm_free(comm);
}

}  // extern "C"
