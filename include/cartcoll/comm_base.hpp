// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The base communicator (the unified-interfaces paper by Träff, Hunold, Mercier and Holmes, Listing
// 1; the C function CC_Comm_base of <cartcoll/unified.h>).
#include <mpi.h>

#include "cartcoll/cartcoll.hpp"
#include "cartcoll/export.h"

namespace cartcoll {

// The fully connected intracommunicator over comm's processes, in comm's rank order (after any
// reordering a topology constructor did), with no topology, no attributes and no naming: for an
// intracommunicator (with or without a topology) its whole group, for an intercommunicator its local
// group. Collective over comm (both groups of an intercommunicator): MPI has no local way to make a
// communicator. Error(Errc::comm) for MPI_COMM_NULL.
CARTCOLL_API Communicator comm_base(MPI_Comm comm);

}  // namespace cartcoll
