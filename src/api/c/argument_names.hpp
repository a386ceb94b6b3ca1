// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Each collective's arguments as MPI names them, for the faces that forward a call with its own
// parameters (the C faces, and libcartcoll_mpi's wrappers, which name their parameters alike).
#define CARTCOLL_ALLGATHER_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype
#define CARTCOLL_ALLGATHERV_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype
#define CARTCOLL_ALLGATHERW_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtypes
#define CARTCOLL_ALLTOALL_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype
#define CARTCOLL_ALLTOALLV_ARGS sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype
#define CARTCOLL_ALLTOALLW_ARGS sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes
