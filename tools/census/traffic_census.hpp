// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Counts the point-to-point messages and bytes this process sends, through the PMPI profiling
// interface: MPI_Send, MPI_Isend, MPI_Sendrecv, and MPI_Start/MPI_Startall on persistent send
// requests (their byte counts are remembered at MPI_Send_init). Receives are not counted. Calls an
// MPI implementation makes from inside another wrapped call (MPI_Startall -> MPI_Start, say) count
// once. The tests (tests/support) and cartcoll-bench both link it; it defines those MPI_* functions,
// so a program links it once.
//
// Collectives inside MPI (MPI_Allreduce, MPI_Neighbor_*, ...) use the implementation's internal
// transport, which PMPI does not see; to be safe, reset the counter right before the call measured
// and read it right after.
#include <cstddef>

namespace census {

struct Traffic {
  long long messages = 0;        // sends started
  long long bytes = 0;           // MPI_Type_size(type) * count, summed over those sends
  long long unknown_starts = 0;  // started requests no wrapper saw being made (should stay 0)
};

void reset_traffic();
Traffic traffic();

// Persistent requests made by MPI_Send_init/MPI_Recv_init and not yet freed.
std::size_t live_persistent_requests();

}  // namespace census
