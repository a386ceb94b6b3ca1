// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The functions a test calls, as a table: the library's CC_ functions, or MPI's own names (through
// libcartcoll_mpi where it is preloaded or linked: tests/interpose). Both have MPI's signatures, so
// one table type holds either, and one test body serves both.
#include <mpi.h>

#include "cartcoll/neighbor.h"

namespace support {

struct Api {
  decltype(&CC_Neighbor_allgather) neighbor_allgather;
  decltype(&CC_Neighbor_allgatherv) neighbor_allgatherv;
  decltype(&CC_Neighbor_alltoall) neighbor_alltoall;
  decltype(&CC_Neighbor_alltoallv) neighbor_alltoallv;
  decltype(&CC_Neighbor_alltoallw) neighbor_alltoallw;
  decltype(&CC_Ineighbor_allgather) ineighbor_allgather;
  decltype(&CC_Ineighbor_allgatherv) ineighbor_allgatherv;
  decltype(&CC_Ineighbor_alltoall) ineighbor_alltoall;
  decltype(&CC_Ineighbor_alltoallv) ineighbor_alltoallv;
  decltype(&CC_Ineighbor_alltoallw) ineighbor_alltoallw;
  // nullptr where an MPI has no persistent neighborhood collectives
  decltype(&CC_Neighbor_allgather_init) allgather_init;
  decltype(&CC_Neighbor_allgatherv_init) allgatherv_init;
  decltype(&CC_Neighbor_alltoall_init) alltoall_init;
  decltype(&CC_Neighbor_alltoallv_init) alltoallv_init;
  decltype(&CC_Neighbor_alltoallw_init) alltoallw_init;

  decltype(&CC_Start) start;
  decltype(&CC_Startall) startall;
  decltype(&CC_Wait) wait;
  decltype(&CC_Waitall) waitall;
  decltype(&CC_Waitany) waitany;
  decltype(&CC_Waitsome) waitsome;
  decltype(&CC_Test) test;
  decltype(&CC_Testall) testall;
  decltype(&CC_Testany) testany;
  decltype(&CC_Testsome) testsome;
  decltype(&CC_Request_get_status) request_get_status;
  decltype(&CC_Request_free) request_free;

  bool has_persistent() const { return alltoall_init != nullptr; }
};

inline constexpr Api cc_api{
    CC_Neighbor_allgather,  CC_Neighbor_allgatherv,     CC_Neighbor_alltoall,        CC_Neighbor_alltoallv,
    CC_Neighbor_alltoallw,  CC_Ineighbor_allgather,     CC_Ineighbor_allgatherv,     CC_Ineighbor_alltoall,
    CC_Ineighbor_alltoallv, CC_Ineighbor_alltoallw,     CC_Neighbor_allgather_init,  CC_Neighbor_allgatherv_init,
    CC_Neighbor_alltoall_init, CC_Neighbor_alltoallv_init, CC_Neighbor_alltoallw_init,
    CC_Start,               CC_Startall,                CC_Wait,                     CC_Waitall,
    CC_Waitany,             CC_Waitsome,                CC_Test,                     CC_Testall,
    CC_Testany,             CC_Testsome,                CC_Request_get_status,       CC_Request_free};

}  // namespace support
