// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The library's requests as MPI_Request values (<cartcoll/neighbor.h>), so that they mix with MPI's
// in one array: each is a generalized request (MPI_Grequest_start) that MPI never sees completed
// while the library uses it; the library completes it (set_empty_status) and keeps it. A table maps
// each handle to its operation; it is an attribute of MPI_COMM_SELF, freed at MPI_Finalize (which
// completes and frees every handle the library still holds).
//
// A freed handle is not given back to MPI at once: it stays in the table, retired, so that a stale
// copy of it is MPI_ERR_REQUEST rather than a request MPI freed (a crash in Open MPI). Retired
// handles are reused, oldest first, once more than `retired_kept` of them are waiting; a stale copy
// is therefore recognized until that many later requests of the library have been freed.
#include <mpi.h>

#include <cstddef>
#include <span>

#include "cartcoll/cartcoll.hpp"

namespace cartcoll::capi {

inline constexpr std::size_t retired_kept = 64;

struct RequestTable;

struct LibraryRequest {
  Request request;
  MPI_Request handle = MPI_REQUEST_NULL;
  bool retired = false;  // freed: the handle is a stale copy's
  RequestTable* table = nullptr;  // the table that holds it (retire finds it there without a lookup)
};

// The handle a new operation gets (nonblocking or persistent: Request knows which).
MPI_Request register_request(Request request);

// The library's entry behind `handle` (retired ones included), or nullptr for any other request.
LibraryRequest* find_request(MPI_Request handle);
// Whether any of `handles` is the library's (a retired one included).
bool any_library_request(std::span<const MPI_Request> handles);
// Whether any of `handles` is a retired handle of the library (a stale copy).
bool any_stale_request(std::span<const MPI_Request> handles);

// Frees a request of the library whose operation is complete (nonblocking) or that is inactive
// (persistent): its handle is retired and *handle becomes MPI_REQUEST_NULL.
void retire(LibraryRequest& entry, MPI_Request* handle);

// A stale or foreign handle: MPI_ERR_REQUEST on MPI_COMM_SELF's handler (no communicator is known).
int stale_handle();

// The empty status MPI gives a completed collective.
void set_empty_status(MPI_Status* status);

}  // namespace cartcoll::capi
