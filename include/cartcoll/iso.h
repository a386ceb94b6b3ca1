/* SPDX-License-Identifier: BSD-3-Clause */
/* cartcoll: the persistent isomorphic interface of the isomorphic-collectives paper (Träff,
 * Carpen-Amarie, Hunold and Rougier, "Message-Combining Algorithms for Isomorphic, Sparse Collective
 * Communication", Listings 1-3).
 *
 * Iso_neighborhood_create attaches a list of s relative offsets to a communicator made by
 * MPI_Cart_create (torus, mesh or mixed); process R sends block i to R + offset i and receives
 * block i from R - offset i; off a mesh the neighbor is MPI_PROC_NULL (nothing sent, receive block
 * left untouched). The *_init calls precompute a schedule; Iso_start runs it: it starts AND
 * completes the collective (the isomorphic-collectives paper defines it so), so an Iso_request is
 * never active when Iso_start returns.
 *
 * The interface follows the isomorphic-collectives paper's listings: no info arguments, MPI_Aint
 * displacements in the v forms (in extents of the datatype) and in the w forms (in bytes), as
 * MPI-4's large-count forms. Input arrays and the send buffer are const, which every call of the
 * listings' signatures accepts. The isocomm is an MPI Cartesian communicator carrying a cartcoll
 * neighborhood, so the Cart_* calls of <cartcoll/cartcoll.h> (blocking, nonblocking, Cart_start +
 * Cart_wait) work on it too. Errors are MPI error classes raised through the communicator's error
 * handler; see docs/unified.md (section on <cartcoll/iso.h>) and docs/semantics.md for the exact
 * rules. */
#ifndef CARTCOLL_ISO_H
#define CARTCOLL_ISO_H

#include <mpi.h>

#include "cartcoll/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A persistent isomorphic collective, made by an Iso_neighbor_*_init call, run by Iso_start, freed
 * by Iso_request_free (which sets it to ISO_REQUEST_NULL). */
typedef struct Iso_request_s *Iso_request;
#define ISO_REQUEST_NULL ((Iso_request)0)

/* Listing 1. Collective over cartcomm; every process passes the same s and the same s*d coordinates
 * (d = the dimension of cartcomm's Cartesian topology). */
CARTCOLL_API int Iso_neighborhood_create(MPI_Comm cartcomm, int s, const int relative_coordinates[],
                                         MPI_Comm *isocomm);

/* Listing 2. */
CARTCOLL_API int Iso_neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                            int recvcount, MPI_Datatype recvtype, MPI_Comm isocomm,
                                            Iso_request *request);
CARTCOLL_API int Iso_neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm isocomm,
                                             Iso_request *request);
CARTCOLL_API int Iso_start(Iso_request *request);
CARTCOLL_API int Iso_request_free(Iso_request *request);

/* Listing 3. */
CARTCOLL_API int Iso_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                             const MPI_Aint recvdispls[], MPI_Datatype recvtype, MPI_Comm isocomm,
                                             Iso_request *request);
CARTCOLL_API int Iso_neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                              void *recvbuf, const int recvcounts[], const MPI_Aint recvdispls[],
                                              MPI_Datatype recvtype, MPI_Comm isocomm, Iso_request *request);
CARTCOLL_API int Iso_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                             const MPI_Aint recvdispls[], const MPI_Datatype recvtypes[],
                                             MPI_Comm isocomm, Iso_request *request);
CARTCOLL_API int Iso_neighbor_allgatherw_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                              void *recvbuf, const int recvcounts[], const MPI_Aint recvdispls[],
                                              const MPI_Datatype recvtypes[], MPI_Comm isocomm, Iso_request *request);

#ifdef __cplusplus
}
#endif

#endif /* CARTCOLL_ISO_H */
