// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The communicators the unified-interfaces paper by Träff, Hunold, Mercier and Holmes makes from a
// communicator: CC_Cart_create_sub's sub-grids and CC_Comm_base's base communicator. Both are
// collective; the C layer hands its argument reading in, so that a bad argument on one process
// fails every process alike instead of leaving the others waiting.
#include <mpi.h>

#include <functional>
#include <vector>

#include "cartcoll/cartcoll.hpp"

namespace cartcoll::detail {

// read_excluded(d) gives the flags, given the naming's d.
Communicator create_sub(MPI_Comm comm, const std::function<std::vector<bool>(int)>& read_excluded);
Communicator comm_base(MPI_Comm comm, const std::function<void()>& check_arguments);

}  // namespace cartcoll::detail
