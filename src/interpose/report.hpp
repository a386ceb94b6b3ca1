// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CARTCOLL_REPORT=1: what libcartcoll_mpi did, printed by every process at MPI_Finalize on stderr,
// one line per communicator, MPI function and algorithm, each starting with "cartcoll:" (format in
// docs/transparent.md). The tallies live in an attribute of MPI_COMM_SELF, freed at MPI_Finalize;
// a communicator's record outlives MPI_Comm_free, so that freed communicators are reported too.
#include <mpi.h>

namespace cartcoll::interpose {

// Counts one successful call the library ran on comm: `function` is its MPI name. For an *_init
// call, `persistent` is the request made: its starts are what is counted.
void count_call(const char* function, MPI_Comm comm, const MPI_Request* persistent);
// Counts the starts of the library's persistent requests among `requests` (after MPI_Start(all)).
void count_starts(const MPI_Request* requests, int count);
// A persistent request about to be freed.
void forget_request(MPI_Request request);
// Makes sure the report exists, so that it is printed at MPI_Finalize even if nothing was counted.
// (It is printed when MPI_COMM_SELF's attributes go, first thing in MPI_Finalize, whichever binding
// called it; each process prints its own lines.)
void arm_report();

}  // namespace cartcoll::interpose
