// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// MPI's own names as an Api table (api_table.hpp): what libcartcoll_mpi stands in for where it is
// preloaded or linked. The program must define CARTCOLL_HAVE_MPI_NEIGHBOR_INIT and
// CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT (0 or 1) as the build found them.
#include <mpi.h>
#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
#include <mpi-ext.h>
#endif

#include "api_table.hpp"

namespace support {

#if CARTCOLL_HAVE_MPI_NEIGHBOR_INIT
#define CARTCOLL_MPI_PERSISTENT(name) MPI_Neighbor_##name##_init
#elif CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
#define CARTCOLL_MPI_PERSISTENT(name) MPIX_Neighbor_##name##_init
#else
#define CARTCOLL_MPI_PERSISTENT(name) nullptr
#endif

inline constexpr Api mpi_names_api{
    MPI_Neighbor_allgather,          MPI_Neighbor_allgatherv,          MPI_Neighbor_alltoall,
    MPI_Neighbor_alltoallv,          MPI_Neighbor_alltoallw,           MPI_Ineighbor_allgather,
    MPI_Ineighbor_allgatherv,        MPI_Ineighbor_alltoall,           MPI_Ineighbor_alltoallv,
    MPI_Ineighbor_alltoallw,         CARTCOLL_MPI_PERSISTENT(allgather), CARTCOLL_MPI_PERSISTENT(allgatherv),
    CARTCOLL_MPI_PERSISTENT(alltoall), CARTCOLL_MPI_PERSISTENT(alltoallv), CARTCOLL_MPI_PERSISTENT(alltoallw),
    MPI_Start,                       MPI_Startall,                     MPI_Wait,
    MPI_Waitall,                     MPI_Waitany,                      MPI_Waitsome,
    MPI_Test,                        MPI_Testall,                      MPI_Testany,
    MPI_Testsome,                    MPI_Request_get_status,           MPI_Request_free};

#undef CARTCOLL_MPI_PERSISTENT

}  // namespace support
