// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi: MPI's neighborhood collectives, blocking, nonblocking and persistent (MPI 4's
// MPI_Neighbor_*_init or Open MPI's MPIX_Neighbor_*_init, whichever this MPI has), each handed to
// the library's CC_ function of the same signature, or to PMPI_* where CARTCOLL_DISABLE is set.
#include <mpi.h>
#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
#include <mpi-ext.h>
#endif

#include "api/c/argument_names.hpp"
#include "cartcoll/neighbor.h"
#include "control.hpp"
#include "report.hpp"

namespace {

// An MPI call that succeeded in the library is counted for the report, where there is one.
template <typename Native, typename Library>
int dispatch(const char* function, MPI_Comm comm, const MPI_Request* persistent, Native&& native, Library&& library) {
  if (cartcoll::interpose::disabled()) return native();
  const int code = library();
  if (code == MPI_SUCCESS && cartcoll::interpose::reporting()) cartcoll::interpose::count_call(function, comm, persistent);
  return code;
}

}  // namespace

// Each collective's parameters, as MPI declares them, named as argument_names.hpp names them.
#define ALLGATHER_PARAMETERS \
  const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype
#define ALLGATHERV_PARAMETERS                                                                                     \
  const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], \
      MPI_Datatype recvtype
#define ALLTOALL_PARAMETERS ALLGATHER_PARAMETERS
#define ALLTOALLV_PARAMETERS                                                                                   \
  const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,      \
      const int recvcounts[], const int rdispls[], MPI_Datatype recvtype
#define ALLTOALLW_PARAMETERS                                                                                         \
  const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, \
      const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]

// The blocking and the nonblocking form of one collective.
#define INTERPOSE_COLLECTIVE(name, PARAMETERS, ARGUMENTS)                                                  \
  int MPI_Neighbor_##name(PARAMETERS, MPI_Comm comm) {                                                      \
    return dispatch(                                                                                        \
        "MPI_Neighbor_" #name, comm, nullptr, [&] { return PMPI_Neighbor_##name(ARGUMENTS, comm); },        \
        [&] { return CC_Neighbor_##name(ARGUMENTS, comm); });                                               \
  }                                                                                                         \
  int MPI_Ineighbor_##name(PARAMETERS, MPI_Comm comm, MPI_Request *request) {                               \
    return dispatch(                                                                                        \
        "MPI_Ineighbor_" #name, comm, nullptr, [&] { return PMPI_Ineighbor_##name(ARGUMENTS, comm, request); }, \
        [&] { return CC_Ineighbor_##name(ARGUMENTS, comm, request); });                                     \
  }

// The persistent form, under MPI's prefix `mpi` (MPI or MPIX) where this MPI has it.
#define INTERPOSE_PERSISTENT(mpi, name, PARAMETERS, ARGUMENTS)                                                      \
  int mpi##_Neighbor_##name##_init(PARAMETERS, MPI_Comm comm, MPI_Info info, MPI_Request *request) {                 \
    return dispatch(                                                                                                 \
        #mpi "_Neighbor_" #name "_init", comm, request,                                                              \
        [&] { return P##mpi##_Neighbor_##name##_init(ARGUMENTS, comm, info, request); },                             \
        [&] { return CC_Neighbor_##name##_init(ARGUMENTS, comm, info, request); });                                  \
  }

#define INTERPOSE_ALL_PERSISTENT(mpi)                                          \
  INTERPOSE_PERSISTENT(mpi, allgather, ALLGATHER_PARAMETERS, CARTCOLL_ALLGATHER_ARGS)    \
  INTERPOSE_PERSISTENT(mpi, allgatherv, ALLGATHERV_PARAMETERS, CARTCOLL_ALLGATHERV_ARGS) \
  INTERPOSE_PERSISTENT(mpi, alltoall, ALLTOALL_PARAMETERS, CARTCOLL_ALLTOALL_ARGS)       \
  INTERPOSE_PERSISTENT(mpi, alltoallv, ALLTOALLV_PARAMETERS, CARTCOLL_ALLTOALLV_ARGS)    \
  INTERPOSE_PERSISTENT(mpi, alltoallw, ALLTOALLW_PARAMETERS, CARTCOLL_ALLTOALLW_ARGS)

extern "C" {

INTERPOSE_COLLECTIVE(allgather, ALLGATHER_PARAMETERS, CARTCOLL_ALLGATHER_ARGS)
INTERPOSE_COLLECTIVE(allgatherv, ALLGATHERV_PARAMETERS, CARTCOLL_ALLGATHERV_ARGS)
INTERPOSE_COLLECTIVE(alltoall, ALLTOALL_PARAMETERS, CARTCOLL_ALLTOALL_ARGS)
INTERPOSE_COLLECTIVE(alltoallv, ALLTOALLV_PARAMETERS, CARTCOLL_ALLTOALLV_ARGS)
INTERPOSE_COLLECTIVE(alltoallw, ALLTOALLW_PARAMETERS, CARTCOLL_ALLTOALLW_ARGS)

#if CARTCOLL_HAVE_MPI_NEIGHBOR_INIT
INTERPOSE_ALL_PERSISTENT(MPI)
#endif
#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
INTERPOSE_ALL_PERSISTENT(MPIX)
#endif

}  // extern "C"
