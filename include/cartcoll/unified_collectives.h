/* SPDX-License-Identifier: BSD-3-Clause */
/* cartcoll: the collectives by topology of the unified-interfaces paper (Träff, Hunold, Mercier
 * and Holmes, section 2), under the prefix CC_, with MPI 4.1's signatures (the persistent forms
 * with MPI_Info, CC_Alltoallw and CC_Allgatherw with MPI_Aint displacements).
 *
 * Their meaning comes from the communicator:
 * - a graph topology (CC_Dist_graph_create*, MPI_Dist_graph_create*, MPI_Graph_create): they act in
 *   neighborhoods, run by the library's engine. Rooted collectives act in the root's neighborhood,
 *   the neighbor order defines the data order, the root's own block takes part only through a self
 *   edge, every edge (a repeated one too) carries one block; CC_Allreduce reduces over every
 *   process's in-neighborhood, in source order; CC_Barrier returns once all in-neighbors have entered
 *   it. CC_Reduce_scatter(_block), CC_Scan and CC_Exscan are MPI_ERR_TOPOLOGY there.
 * - any other communicator (none, an inter-communicator, a Cartesian one, which in the
 *   unified-interfaces paper names processes and carries no topology): exactly MPI's collective of
 *   the same name.
 * Requests are MPI_Request values; complete them with the CC_ request functions of <cartcoll/neighbor.h>.
 * See docs/unified.md. */
#ifndef CARTCOLL_UNIFIED_COLLECTIVES_H
#define CARTCOLL_UNIFIED_COLLECTIVES_H

#include <mpi.h>

#include "cartcoll/export.h"

#ifdef __cplusplus
extern "C" {
#endif

CARTCOLL_API int CC_Barrier(MPI_Comm comm);
CARTCOLL_API int CC_Ibarrier(MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
CARTCOLL_API int CC_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request *request);
CARTCOLL_API int CC_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request);

CARTCOLL_API int CC_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm);
CARTCOLL_API int CC_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request);

CARTCOLL_API int CC_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm);
CARTCOLL_API int CC_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm);
CARTCOLL_API int CC_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request);

CARTCOLL_API int CC_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
CARTCOLL_API int CC_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request);
CARTCOLL_API int CC_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request);

CARTCOLL_API int CC_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request);
CARTCOLL_API int CC_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Allgatherw(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm);
CARTCOLL_API int CC_Iallgatherw(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                                MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Allgatherw_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm);
CARTCOLL_API int CC_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request);

CARTCOLL_API int CC_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm);
CARTCOLL_API int CC_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
CARTCOLL_API int CC_Ialltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request);
CARTCOLL_API int CC_Alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm);
CARTCOLL_API int CC_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm);
CARTCOLL_API int CC_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm);
CARTCOLL_API int CC_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request);

CARTCOLL_API int CC_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm);
CARTCOLL_API int CC_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request);

CARTCOLL_API int CC_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm);
CARTCOLL_API int CC_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request);

CARTCOLL_API int CC_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm);
CARTCOLL_API int CC_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request);
CARTCOLL_API int CC_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request);

#ifdef __cplusplus
}
#endif

#endif /* CARTCOLL_UNIFIED_COLLECTIVES_H */
