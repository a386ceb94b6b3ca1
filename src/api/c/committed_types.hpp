// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// An uncommitted datatype in a nonblocking call is MPI_ERR_TYPE at the call, as MPI's own
// nonblocking calls report it. MPI has no query for whether a datatype is committed, but checks it
// where a datatype describes data, so each distinct derived datatype of a layout is given to a
// persistent send to MPI_PROC_NULL on the call's communicator, freed at once, never started. The
// datatype arguments are checked as given (a process without neighbors has no block of them).
#include <mpi.h>

#include <initializer_list>

#include "cartcoll/layout.hpp"

namespace cartcoll::capi {

// MPI_SUCCESS, or the code MPI returned after raising it on comm's error handler.
int check_committed(std::initializer_list<MPI_Datatype> arguments, const Layout& layout, MPI_Comm comm);

}  // namespace cartcoll::capi
