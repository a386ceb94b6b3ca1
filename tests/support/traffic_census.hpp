#pragma once
// Counts the point-to-point messages and bytes this process sends, through the PMPI profiling
// interface: MPI_Send, MPI_Isend, and MPI_Start/MPI_Startall on persistent send requests (their
// byte counts are remembered at MPI_Send_init by the wrapper in handle_census.cpp, the one owner of
// the persistent-request wrappers). Receives are not counted. Calls an MPI implementation makes
// from inside another wrapped call (MPI_Startall -> MPI_Start, say) count once.
//
// Collectives inside MPI (MPI_Allreduce, MPI_Comm_dup, ...) use the implementation's internal
// transport, which PMPI does not see; to be safe, tests reset the counter right before the call
// they measure and read it right after.
#include <mpi.h>

namespace census {

struct Traffic {
  long long messages = 0;        // sends started
  long long bytes = 0;           // MPI_Type_size(type) * count, summed over those sends
  long long unknown_starts = 0;  // started requests no wrapper saw being made (should stay 0)
};

void reset_traffic();
Traffic traffic();

namespace detail {
// Kept by the MPI_Send_init / MPI_Recv_init / MPI_Request_free wrappers.
void note_persistent_send(MPI_Request request, long long bytes);
void note_persistent_receive(MPI_Request request);
void forget_persistent(MPI_Request request);
// MPI_Type_size(type) * count, as a 64-bit number.
long long message_bytes(int count, MPI_Datatype type);
}  // namespace detail

}  // namespace census
