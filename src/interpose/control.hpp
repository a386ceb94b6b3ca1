// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// libcartcoll_mpi's switches, read from the environment once, at the first call that asks:
// CARTCOLL_DISABLE=1 sends every call straight to MPI (PMPI_*), CARTCOLL_REPORT=1 prints what the
// layer did at MPI_Finalize (report.hpp). CARTCOLL_ALGORITHM and the library's other variables are
// the library's own (docs/configuration.md).
#include <mpi.h>

#include <span>

namespace cartcoll::interpose {

bool disabled();
bool reporting();

// Whether a request call over `requests` can go straight to MPI: the layer is disabled, or none of
// them is the library's and the library has no operation in flight that waiting would have to
// advance. Arrays MPI would reject (NULL, negative counts) go to MPI, which reports the error.
bool native_requests(const MPI_Request* requests, int count);
// The same, for calls that advance nothing (MPI_Start, MPI_Request_free, MPI_Cancel): whether none
// of them is the library's.
bool none_of_library(const MPI_Request* requests, int count);

}  // namespace cartcoll::interpose
