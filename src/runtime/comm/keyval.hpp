// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The library's MPI attribute keys: made on first use, freed at MPI_Finalize.
#include <mpi.h>

namespace cartcoll::detail {

// A communicator attribute key with these callbacks, freed when MPI_COMM_SELF goes at MPI_Finalize
// (first thing there); attributes still set on other communicators keep their key until they go.
int create_keyval_freed_at_finalize(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* erase);

}  // namespace cartcoll::detail
