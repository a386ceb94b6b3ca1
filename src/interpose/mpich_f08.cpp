// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi under MPICH: the request functions and distributed-graph constructors of the
// mpi_f08 Fortran module. MPICH's mpi_f08 sends its neighborhood collectives through the C names
// (MPI_Ineighbor_alltoallv...), which the layer takes, but completes and starts requests through
// PMPI_Wait, PMPI_Start..., which it cannot take, so a library request would never complete; and it
// creates graphs through PMPI_Dist_graph_create(_adjacent), so the layer would not see the info
// the program passes there. These are those entry points (mpi_wait_f08_...), with MPICH's calling
// convention (arguments by reference, an absent optional ierror as NULL, handles that are the C
// handles, statuses laid out as C's, indices from 1, logicals as 1 and 0), handed to the layer's C
// functions. (MPICH's mpif.h and `use mpi` call the C names themselves; Open MPI's bindings are
// openmpi_fortran.cpp's: docs/transparent.md, "Language bindings".)
#include <dlfcn.h>
#include <mpi.h>

#if defined(MPICH)

namespace {

// mpi_f08's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are objects of libmpichfort (loaded, since
// only its callers come here); a status argument at their address means "ignore", as MPICH's own
// entry points compare.
MPI_Status* one(MPI_Status* status) {
  static void* const ignore = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_STATUS_IGNORE_OBJ");
  return status == ignore ? MPI_STATUS_IGNORE : status;
}
MPI_Status* many(MPI_Status* statuses) {
  static void* const ignore = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_STATUSES_IGNORE_OBJ");
  return statuses == ignore ? MPI_STATUSES_IGNORE : statuses;
}

// mpi_f08's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are variables of its link-constants module: a
// weights argument at their address is that sentinel, as MPICH's own entry points compare.
const int* weights(const int* fortran) {
  static void* const unweighted = dlsym(RTLD_DEFAULT, "__mpi_f08_link_constants_MOD_mpi_unweighted");
  static void* const empty = dlsym(RTLD_DEFAULT, "__mpi_f08_link_constants_MOD_mpi_weights_empty");
  if (fortran == unweighted) return MPI_UNWEIGHTED;
  if (fortran == empty) return MPI_WEIGHTS_EMPTY;
  return fortran;
}

void answer(int* ierror, int code) {
  if (ierror != nullptr) *ierror = code;
}

// Fortran counts from 1.
void from_one(int* index) {
  if (*index != MPI_UNDEFINED) ++*index;
}

}  // namespace

extern "C" {

void mpi_wait_f08_(MPI_Request* request, MPI_Status* status, int* ierror) {
  answer(ierror, MPI_Wait(request, one(status)));
}

void mpi_waitall_f08_(const int* count, MPI_Request requests[], MPI_Status statuses[], int* ierror) {
  answer(ierror, MPI_Waitall(*count, requests, many(statuses)));
}

void mpi_waitany_f08_(const int* count, MPI_Request requests[], int* index, MPI_Status* status, int* ierror) {
  answer(ierror, MPI_Waitany(*count, requests, index, one(status)));
  from_one(index);
}

void mpi_waitsome_f08_(const int* incount, MPI_Request requests[], int* outcount, int indices[],
                       MPI_Status statuses[], int* ierror) {
  answer(ierror, MPI_Waitsome(*incount, requests, outcount, indices, many(statuses)));
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; ++k) from_one(&indices[k]);
}

void mpi_test_f08_(MPI_Request* request, int* flag, MPI_Status* status, int* ierror) {
  answer(ierror, MPI_Test(request, flag, one(status)));
}

void mpi_testall_f08_(const int* count, MPI_Request requests[], int* flag, MPI_Status statuses[], int* ierror) {
  answer(ierror, MPI_Testall(*count, requests, flag, many(statuses)));
}

void mpi_testany_f08_(const int* count, MPI_Request requests[], int* index, int* flag, MPI_Status* status,
                      int* ierror) {
  answer(ierror, MPI_Testany(*count, requests, index, flag, one(status)));
  from_one(index);
}

void mpi_testsome_f08_(const int* incount, MPI_Request requests[], int* outcount, int indices[],
                       MPI_Status statuses[], int* ierror) {
  answer(ierror, MPI_Testsome(*incount, requests, outcount, indices, many(statuses)));
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; ++k) from_one(&indices[k]);
}

void mpi_request_get_status_f08_(const MPI_Request* request, int* flag, MPI_Status* status, int* ierror) {
  answer(ierror, MPI_Request_get_status(*request, flag, one(status)));
}

void mpi_start_f08_(MPI_Request* request, int* ierror) { answer(ierror, MPI_Start(request)); }

void mpi_startall_f08_(const int* count, MPI_Request requests[], int* ierror) {
  answer(ierror, MPI_Startall(*count, requests));
}

void mpi_request_free_f08_(MPI_Request* request, int* ierror) { answer(ierror, MPI_Request_free(request)); }

void mpi_cancel_f08_(MPI_Request* request, int* ierror) { answer(ierror, MPI_Cancel(request)); }

void mpi_dist_graph_create_adjacent_f08_(const MPI_Comm* comm_old, const int* indegree, const int sources[],
                                         const int sourceweights[], const int* outdegree, const int destinations[],
                                         const int destweights[], const MPI_Info* info, const int* reorder,
                                         MPI_Comm* comm_dist_graph, int* ierror) {
  answer(ierror, MPI_Dist_graph_create_adjacent(*comm_old, *indegree, sources, weights(sourceweights), *outdegree,
                                                destinations, weights(destweights), *info, *reorder, comm_dist_graph));
}

void mpi_dist_graph_create_f08_(const MPI_Comm* comm_old, const int* n, const int sources[], const int degrees[],
                                const int destinations[], const int edge_weights[], const MPI_Info* info,
                                const int* reorder, MPI_Comm* comm_dist_graph, int* ierror) {
  answer(ierror, MPI_Dist_graph_create(*comm_old, *n, sources, degrees, destinations, weights(edge_weights), *info,
                                       *reorder, comm_dist_graph));
}

}  // extern "C"

#endif  // MPICH
