// SPDX-License-Identifier: BSD-3-Clause
#include "request_table.hpp"

#include <map>
#include <memory>
#include <vector>

#include "runtime/comm/keyval.hpp"
#include "runtime/exec/mpi_check.hpp"
#include "errors.hpp"

namespace cartcoll::capi {

struct RequestTable {
  std::map<MPI_Request, std::unique_ptr<LibraryRequest>> entries;  // live and retired
  // The retired entries, oldest first, from `oldest` on: a queue that, once as long as a program
  // keeps it, neither allocates nor frees (its front is dropped in one move every retired_kept reuses).
  std::vector<LibraryRequest*> retired;
  std::size_t oldest = 0;
  // The entry registered last: the one a client's wait or test names next (a ghost update's
  // MPI_Ineighbor_alltoallv + MPI_Wait), found without searching the map. Entries live until
  // MPI_Finalize, so the pointer never dangles.
  LibraryRequest* latest = nullptr;

  std::size_t retired_count() const noexcept { return retired.size() - oldest; }
  LibraryRequest* take_oldest_retired() noexcept {
    LibraryRequest* taken = retired[oldest++];
    if (oldest > retired_kept) {
      retired.erase(retired.begin(), retired.begin() + static_cast<std::ptrdiff_t>(oldest));
      oldest = 0;
    }
    return taken;
  }
};

namespace {

// The attribute's value, kept beside its key so that a call finds the table without asking MPI
// (MPI_Comm_get_attr costs about 140 instructions in Open MPI 4.1): set where the table is made,
// cleared where MPI_Finalize frees it.
RequestTable* made_table = nullptr;

// At MPI_Finalize: every handle the library holds is completed and given back to MPI.
int delete_table(MPI_Comm, int, void* value, void*) {
  std::unique_ptr<RequestTable> table(static_cast<RequestTable*>(value));
  if (made_table == table.get()) made_table = nullptr;
  for (auto& [handle, entry] : table->entries) {
    MPI_Request freed = handle;
    MPI_Grequest_complete(freed);
    MPI_Request_free(&freed);
  }
  return MPI_SUCCESS;
}

// The first call's way to the table: asks MPI, or makes it.
[[gnu::noinline]] RequestTable& find_or_make_table() {
  static const int keyval = detail::create_keyval_freed_at_finalize(MPI_COMM_NULL_COPY_FN, delete_table);
  void* value = nullptr;
  int found = 0;
  detail::check(MPI_Comm_get_attr(MPI_COMM_SELF, keyval, &value, &found), "MPI_Comm_get_attr");
  if (found) return *(made_table = static_cast<RequestTable*>(value));
  auto made = std::make_unique<RequestTable>();
  // Room for retired_kept handles kept and as many reused before the front is dropped: a program
  // that frees its requests as it makes them then never grows the queue.
  made->retired.reserve(2 * (retired_kept + 1));
  detail::check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, made.get()), "MPI_Comm_set_attr");
  return *(made_table = made.release());
}

// The table of this process: an attribute of MPI_COMM_SELF, made on first use, gone at MPI_Finalize;
// once made, found in a few instructions.
RequestTable& table() { return made_table != nullptr ? *made_table : find_or_make_table(); }

// Generalized-request callbacks. MPI calls them only at MPI_Finalize (delete_table): the library
// completes its requests itself, so there is nothing to report, release or cancel.
int query(void*, MPI_Status* status) {
  set_empty_status(status);
  return MPI_SUCCESS;
}
int release(void*) { return MPI_SUCCESS; }
int cancel(void*, int) { return MPI_SUCCESS; }

}  // namespace

void set_empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
}

MPI_Request register_request(Request request) {
  RequestTable& requests = table();
  if (requests.retired_count() > retired_kept) {
    LibraryRequest* reused = requests.take_oldest_retired();
    reused->request = std::move(request);
    reused->retired = false;
    requests.latest = reused;
    return reused->handle;
  }
  auto entry = std::make_unique<LibraryRequest>(LibraryRequest{std::move(request), MPI_REQUEST_NULL, false, &requests});
  detail::check(MPI_Grequest_start(query, release, cancel, nullptr, &entry->handle), "MPI_Grequest_start");
  const MPI_Request handle = entry->handle;
  requests.latest = entry.get();
  requests.entries[handle] = std::move(entry);
  return handle;
}

LibraryRequest* find_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  RequestTable& requests = table();
  if (requests.latest != nullptr && requests.latest->handle == handle) return requests.latest;
  const auto found = requests.entries.find(handle);
  return found == requests.entries.end() ? nullptr : found->second.get();
}

bool any_library_request(std::span<const MPI_Request> handles) {
  const RequestTable& requests = table();
  if (requests.entries.empty()) return false;
  for (const MPI_Request handle : handles)
    if (handle != MPI_REQUEST_NULL && requests.entries.count(handle) != 0) return true;
  return false;
}

bool any_stale_request(std::span<const MPI_Request> handles) {
  const RequestTable& requests = table();
  if (requests.retired_count() == 0) return false;
  for (const MPI_Request handle : handles) {
    if (handle == MPI_REQUEST_NULL) continue;
    const auto found = requests.entries.find(handle);
    if (found != requests.entries.end() && found->second->retired) return true;
  }
  return false;
}

void retire(LibraryRequest& entry, MPI_Request* handle) {
  entry.request = Request();
  entry.retired = true;
  entry.table->retired.push_back(&entry);
  *handle = MPI_REQUEST_NULL;
}

int stale_handle() {
  report(Error(Errc::request, "a freed or foreign request handle"));
  return raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
}

}  // namespace cartcoll::capi
