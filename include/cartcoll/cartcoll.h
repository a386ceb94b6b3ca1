/* SPDX-License-Identifier: BSD-3-Clause */
/* cartcoll: Cartesian (isomorphic) neighborhood collectives on top of MPI. C API.
 *
 * Every process names its neighbors by the same list of t relative offsets on a d-dimensional mesh
 * or torus; process R sends block i to R + offset i and receives block i from R - offset i.
 * Errors are MPI error classes, raised through the communicator's error handler, as MPI does.
 * See docs/semantics.md for the exact rules. */
#ifndef CARTCOLL_H
#define CARTCOLL_H

#include <mpi.h>

#include "cartcoll/export.h"
#include "cartcoll/unified.h"
#include "cartcoll/iso.h" /* Iso_*: the isomorphic-collectives paper's interface */

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque handle: it names a request of the library, and a copy of a freed handle (or any other
 * value) is MPI_ERR_REQUEST, never freed memory. */
typedef struct Cart_request_s *Cart_request;
#define CART_REQUEST_NULL ((Cart_request)0)

/* weight: t weights, or MPI_UNWEIGHTED. Weight arguments are pointers rather than arrays so that
 * compilers do not take MPI_UNWEIGHTED for an array. */
CARTCOLL_API int Cart_neighborhood_create(MPI_Comm comm, int d, const int dimensions[], const int periods[], int t,
                                          const int targetrelative[], const int *weight, MPI_Info info, int reorder,
                                          MPI_Comm *cartcomm);
CARTCOLL_API int Cart_relative_rank(MPI_Comm cartcomm, const int relative[], int *rank);
CARTCOLL_API int Cart_relative_shift(MPI_Comm cartcomm, const int relative[], int *inrank, int *outrank);
CARTCOLL_API int Cart_relative_coord(MPI_Comm cartcomm, int rank, int relative[]);
CARTCOLL_API int Cart_neighbor_count(MPI_Comm cartcomm, int *t);
CARTCOLL_API int Cart_neighbor_get(MPI_Comm cartcomm, int maxin, int source[], int *sourceweight, int maxout, int target[],
                                   int *targetweight);

CARTCOLL_API int Cart_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm cartcomm);
CARTCOLL_API int Cart_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm);
CARTCOLL_API int Cart_allgatherw(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                                 MPI_Comm cartcomm);
CARTCOLL_API int Cart_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm cartcomm);
CARTCOLL_API int Cart_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                MPI_Comm cartcomm);
CARTCOLL_API int Cart_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm cartcomm);

CARTCOLL_API int Cart_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                 MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request *request);
CARTCOLL_API int Cart_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                                  Cart_request *request);
CARTCOLL_API int Cart_iallgatherw(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                                  MPI_Comm cartcomm, Cart_request *request);
CARTCOLL_API int Cart_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request *request);
CARTCOLL_API int Cart_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                 MPI_Comm cartcomm, Cart_request *request);
CARTCOLL_API int Cart_ialltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                                 Cart_request *request);

CARTCOLL_API int Cart_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                     MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request *request);
CARTCOLL_API int Cart_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                                      MPI_Info info, Cart_request *request);
CARTCOLL_API int Cart_allgatherw_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                                      MPI_Comm cartcomm, MPI_Info info, Cart_request *request);
CARTCOLL_API int Cart_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                    MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request *request);
CARTCOLL_API int Cart_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                                     void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                     MPI_Comm cartcomm, MPI_Info info, Cart_request *request);
CARTCOLL_API int Cart_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                                     MPI_Info info, Cart_request *request);

CARTCOLL_API int Cart_start(Cart_request *request);
CARTCOLL_API int Cart_wait(Cart_request *request);
CARTCOLL_API int Cart_test(Cart_request *request, int *flag);
CARTCOLL_API int Cart_request_free(Cart_request *request);
/* Waits for all `count` requests (CART_REQUEST_NULL entries are skipped), in any order; an extension
 * of Träff and Hunold's (Cartesian Collective Communication) interface, as MPI_Waitall. Returns the
 * first error. */
CARTCOLL_API int Cart_waitall(int count, Cart_request requests[]);

#ifdef __cplusplus
}
#endif

#endif /* CARTCOLL_H */
