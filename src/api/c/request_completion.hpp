// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the C request functions (neighbor_requests.cpp, neighbor_request_sets.cpp) share: completing
// one of the library's requests, and the checks and status slots of request arrays.
#include <mpi.h>

#include "runtime/progress/progress.hpp"
#include "request_table.hpp"

namespace cartcoll::capi {

detail::ProgressEngine& engine();

// Completes a library request whose operation has finished (or waits for it first): a nonblocking
// one is freed (*handle becomes MPI_REQUEST_NULL), a persistent one becomes inactive; `status` gets
// the empty status. Errors go through the request's communicator's handler.
int finish_library(LibraryRequest& entry, MPI_Request* handle, MPI_Status* status);

// statuses[i], or MPI_STATUS_IGNORE where the array is MPI_STATUSES_IGNORE.
MPI_Status* status_at(MPI_Status* statuses, int i);

// A negative count, or a NULL array with a positive one.
bool bad_array(int count, const MPI_Request* requests);

}  // namespace cartcoll::capi
