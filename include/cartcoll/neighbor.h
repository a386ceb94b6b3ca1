/* SPDX-License-Identifier: BSD-3-Clause */
/* cartcoll: MPI 4.1's neighborhood collectives, with the same signatures under the prefix CC_, on any
 * communicator with a process topology: made by CC_Dist_graph_create(_adjacent),
 * MPI_Dist_graph_create(_adjacent), MPI_Graph_create, MPI_Cart_create or Cart_neighborhood_create.
 *
 * Exact MPI 4.1 semantics, repeated edges included: the k-th occurrence of Q among P's destinations
 * is matched with the k-th occurrence of P among Q's sources. Requests are MPI_Request values; the
 * CC_ request functions take the library's requests and ordinary MPI requests mixed in one array,
 * and waiting for any of them advances every operation of the library. See docs/neighbor.md. */
#ifndef CARTCOLL_NEIGHBOR_H
#define CARTCOLL_NEIGHBOR_H

#include <mpi.h>

#include "cartcoll/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ordinary MPI distributed-graph communicators carrying the library's state. Collective; an
 * inconsistent graph (P names Q as a destination a different number of times than Q names P as a
 * source) is MPI_ERR_TOPOLOGY on every process, found without hanging. */
CARTCOLL_API int CC_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                               const int *sourceweights, int outdegree, const int destinations[],
                                               const int *destweights, MPI_Info info, int reorder,
                                               MPI_Comm *comm_dist_graph);
CARTCOLL_API int CC_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                      const int destinations[], const int *weights, MPI_Info info, int reorder,
                                      MPI_Comm *comm_dist_graph);

CARTCOLL_API int CC_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm);
CARTCOLL_API int CC_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);

CARTCOLL_API int CC_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request *request);
CARTCOLL_API int CC_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                        MPI_Request *request);

CARTCOLL_API int CC_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request);
CARTCOLL_API int CC_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request);
CARTCOLL_API int CC_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request);
CARTCOLL_API int CC_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request);
CARTCOLL_API int CC_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                            MPI_Comm comm, MPI_Info info, MPI_Request *request);

/* Requests: the library's and ordinary MPI requests, mixed. */
CARTCOLL_API int CC_Start(MPI_Request *request);
CARTCOLL_API int CC_Startall(int count, MPI_Request array_of_requests[]);
CARTCOLL_API int CC_Wait(MPI_Request *request, MPI_Status *status);
CARTCOLL_API int CC_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]);
CARTCOLL_API int CC_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
CARTCOLL_API int CC_Test(MPI_Request *request, int *flag, MPI_Status *status);
CARTCOLL_API int CC_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
CARTCOLL_API int CC_Request_free(MPI_Request *request);
CARTCOLL_API int CC_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
CARTCOLL_API int CC_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]);
CARTCOLL_API int CC_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]);
/* Whether a request has completed, leaving it as it is. */
CARTCOLL_API int CC_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
/* A collective's request cannot be cancelled (MPI_ERR_REQUEST); any other goes to MPI_Cancel. */
CARTCOLL_API int CC_Cancel(MPI_Request *request);

#ifdef __cplusplus
}
#endif

#endif /* CARTCOLL_NEIGHBOR_H */
