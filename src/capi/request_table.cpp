#include "request_table.hpp"

#include <cstdint>
#include <map>
#include <memory>

#include "../comm/keyval.hpp"
#include "../exec/mpi_check.hpp"

namespace cartcoll::capi {

namespace {

using Table = std::map<MPI_Request, std::unique_ptr<LibraryRequest>>;

int delete_table(MPI_Comm, int, void* value, void*) {
  delete static_cast<Table*>(value);
  return MPI_SUCCESS;
}

// The table of this process: an attribute of MPI_COMM_SELF, made on first use, gone at MPI_Finalize.
Table& table() {
  static const int keyval = detail::create_keyval_freed_at_finalize(MPI_COMM_NULL_COPY_FN, delete_table);
  void* value = nullptr;
  int found = 0;
  detail::check(MPI_Comm_get_attr(MPI_COMM_SELF, keyval, &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<Table*>(value);
  auto made = std::make_unique<Table>();
  detail::check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, made.get()), "MPI_Comm_set_attr");
  return *made.release();
}

MPI_Request enter(std::unique_ptr<LibraryRequest> entry) {
  const MPI_Request handle = entry->handle;
  table()[handle] = std::move(entry);
  return handle;
}

// Generalized-request callbacks: the operation is complete when MPI calls them.
int query(void*, MPI_Status* status) {
  set_empty_status(status);
  return MPI_SUCCESS;
}

int release(void* extra_state) {
  auto* entry = static_cast<LibraryRequest*>(extra_state);
  table().erase(entry->handle);
  return MPI_SUCCESS;
}

int cancel(void*, int) { return MPI_SUCCESS; }  // a collective cannot be cancelled: nothing to do

}  // namespace

void set_empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
}

MPI_Request register_nonblocking(Request request) {
  auto entry = std::make_unique<LibraryRequest>(LibraryRequest{std::move(request)});
  detail::check(MPI_Grequest_start(query, release, cancel, entry.get(), &entry->handle), "MPI_Grequest_start");
  return enter(std::move(entry));
}

// The handle is a receive from this process itself that is never started. (Not from MPI_PROC_NULL:
// with such a request alive or freed among them, MPICH 4.0.2's persistent collectives hang or never
// complete; test_unified_collectives Forwarding.AbsoluteDisplacementsBeyondInt and the NoTopology
// sweep found it.)
MPI_Request register_persistent(Request request) {
  auto entry = std::make_unique<LibraryRequest>(LibraryRequest{std::move(request)});
  detail::check(MPI_Recv_init(nullptr, 0, MPI_BYTE, 0, 0, MPI_COMM_SELF, &entry->handle), "MPI_Recv_init");
  return enter(std::move(entry));
}

LibraryRequest* find_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  Table& requests = table();
  const auto found = requests.find(handle);
  return found == requests.end() ? nullptr : found->second.get();
}

bool any_library_request(std::span<const MPI_Request> handles) {
  const Table& requests = table();
  if (requests.empty()) return false;
  for (const MPI_Request handle : handles)
    if (handle != MPI_REQUEST_NULL && requests.count(handle) != 0) return true;
  return false;
}

void complete_nonblocking(MPI_Request* handle, MPI_Status* status) {
  detail::check(MPI_Grequest_complete(*handle), "MPI_Grequest_complete");
  detail::check(MPI_Wait(handle, status), "MPI_Wait");  // calls query and release
}

void free_persistent(MPI_Request* handle) {
  table().erase(*handle);
  detail::check(MPI_Request_free(handle), "MPI_Request_free");
}

}  // namespace cartcoll::capi
