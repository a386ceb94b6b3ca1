#pragma once
// The library's requests as MPI_Request values (<cartcoll/neighbor.h>), so that they mix with MPI's
// in one array: a nonblocking operation is a generalized request (MPI_Grequest_start), completed
// when the operation is; a persistent one is an inactive persistent receive on MPI_COMM_SELF that is
// never started, so never matches a message. A table maps each handle to its operation; it is an
// attribute of MPI_COMM_SELF, freed at MPI_Finalize.
#include <mpi.h>

#include <span>

#include "cartcoll/cartcoll.hpp"

namespace cartcoll::capi {

struct LibraryRequest {
  Request request;
  MPI_Request handle = MPI_REQUEST_NULL;
};

// The handle a new operation gets.
MPI_Request register_nonblocking(Request request);
MPI_Request register_persistent(Request request);

// The library's operation behind `handle`, or nullptr for any other request.
LibraryRequest* find_request(MPI_Request handle);
// Whether any of `handles` is the library's.
bool any_library_request(std::span<const MPI_Request> handles);

// Completes a nonblocking operation's handle once the operation is complete: MPI frees it (and the
// table forgets it) and sets *handle to MPI_REQUEST_NULL; `status` gets the empty status.
void complete_nonblocking(MPI_Request* handle, MPI_Status* status);
// Frees a persistent operation and its handle (MPI_REQUEST_NULL afterwards).
void free_persistent(MPI_Request* handle);

// The empty status MPI gives a completed collective.
void set_empty_status(MPI_Status* status);

}  // namespace cartcoll::capi
