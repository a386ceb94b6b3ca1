// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Counts, through the PMPI profiling interface, the calls by which a process could wait for others:
// MPI's collectives (blocking and nonblocking) and the blocking completion calls. A call that must
// neither communicate nor block (a nonblocking collective's start) is checked to make none of them.
namespace census {

struct Calls {
  long long collectives = 0;  // MPI_Barrier, MPI_Allreduce, MPI_Bcast, their I-forms, communicator constructors
  long long blocking = 0;     // MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome
};

void reset_calls();
Calls calls();

namespace detail {
void note_collective();  // for the communicator constructors, whose wrappers handle_census.cpp owns
}  // namespace detail

}  // namespace census
