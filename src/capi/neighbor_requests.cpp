// C API: CC_Start, CC_Startall, CC_Wait, CC_Waitall, CC_Test, CC_Testall, CC_Request_free,
// CC_Request_get_status and CC_Cancel over the library's requests and ordinary MPI requests mixed. A
// plain request is waited for through the progress engine (borrowed into its pool), so that waiting
// for it advances the library's operations too, as MPI's progress rule requires.
#include <vector>

#include "cartcoll/neighbor.h"
#include "errors.hpp"
#include "request_completion.hpp"

using namespace cartcoll;

namespace cartcoll::capi {

detail::ProgressEngine& engine() { return detail::ProgressEngine::instance(); }

int finish_library(LibraryRequest& entry, MPI_Request* handle, MPI_Status* status) {
  return guarded(entry.request.comm(), [&] {
    const bool persistent = entry.request.persistent();
    try {
      entry.request.wait();
    } catch (...) {
      if (!persistent && !entry.request) complete_nonblocking(handle, status);  // completed in error
      throw;
    }
    if (persistent)
      set_empty_status(status);
    else
      complete_nonblocking(handle, status);
  });
}

MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

bool bad_array(int count, const MPI_Request* requests) { return count < 0 || (count > 0 && requests == nullptr); }

}  // namespace cartcoll::capi

namespace {

using capi::engine;

// Whether a plain request has completed, without completing it; an inactive persistent one counts.
bool plain_done(MPI_Request request) {
  int flag = 0;
  MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}

int wait_plain(MPI_Request* request, MPI_Status* status) {
  if (plain_done(*request)) return MPI_Wait(request, status);
  detail::Borrowed borrowed(request, status);
  engine().start(borrowed);
  engine().wait(borrowed);
  return status != MPI_STATUS_IGNORE ? status->MPI_ERROR : MPI_SUCCESS;
}

}  // namespace

extern "C" {

int CC_Start(MPI_Request* request) {
  if (request == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return MPI_Start(request);
  return capi::guarded(entry->request.comm(), [&] { entry->request.start(); });
}

int CC_Startall(int count, MPI_Request requests[]) {
  if (capi::bad_array(count, requests)) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  for (int i = 0; i < count; ++i)
    if (const int code = CC_Start(&requests[i]); code != MPI_SUCCESS) return code;
  return MPI_SUCCESS;
}

int CC_Wait(MPI_Request* request, MPI_Status* status) {
  if (request == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  if (*request == MPI_REQUEST_NULL) {
    capi::set_empty_status(status);
    return MPI_SUCCESS;
  }
  if (capi::LibraryRequest* entry = capi::find_request(*request)) return capi::finish_library(*entry, request, status);
  return wait_plain(request, status);
}

// Every request is waited for in array order; waiting for one advances all of the library's, and the
// plain ones wait in the engine's pool meanwhile.
int CC_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (capi::bad_array(count, requests)) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  std::vector<std::unique_ptr<detail::Borrowed>> borrowed(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    MPI_Request& request = requests[i];
    if (request == MPI_REQUEST_NULL || capi::find_request(request) != nullptr || plain_done(request)) continue;
    borrowed[static_cast<std::size_t>(i)] = std::make_unique<detail::Borrowed>(&request, capi::status_at(statuses, i));
    engine().start(*borrowed[static_cast<std::size_t>(i)]);
  }
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    int code = MPI_SUCCESS;
    if (auto& mine = borrowed[static_cast<std::size_t>(i)]) {
      engine().wait(*mine);
      code = statuses == MPI_STATUSES_IGNORE ? MPI_SUCCESS : statuses[i].MPI_ERROR;
    } else {
      code = CC_Wait(&requests[i], capi::status_at(statuses, i));
    }
    failed += code != MPI_SUCCESS;
    // With MPI_ERR_IN_STATUS every status names its request's error, MPI_SUCCESS included (MPI's
    // MPI_Wait, which completes the library's requests, leaves the field as it was).
    if (statuses != MPI_STATUSES_IGNORE) statuses[i].MPI_ERROR = code;
  }
  return failed == 0 ? MPI_SUCCESS : MPI_ERR_IN_STATUS;
}

int CC_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (request == nullptr || flag == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  *flag = 0;
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    capi::set_empty_status(status);
    return MPI_SUCCESS;
  }
  if (capi::LibraryRequest* entry = capi::find_request(*request)) {
    if (!entry->request.ready()) return MPI_SUCCESS;
    *flag = 1;
    return capi::finish_library(*entry, request, status);
  }
  engine().poll();
  return MPI_Test(request, flag, status);
}

int CC_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (capi::bad_array(count, requests) || flag == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  engine().poll();
  *flag = 0;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    capi::LibraryRequest* entry = capi::find_request(requests[i]);
    if (entry != nullptr ? !entry->request.ready() : !plain_done(requests[i])) return MPI_SUCCESS;
  }
  *flag = 1;
  return CC_Waitall(count, requests, statuses);  // all complete: completes each without waiting
}

int CC_Request_free(MPI_Request* request) {
  if (request == nullptr || *request == MPI_REQUEST_NULL) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return MPI_Request_free(request);
  return capi::guarded(entry->request.comm(), [&] {
    if (entry->request.active()) throw Error(Errc::request, "CC_Request_free of an active request of the library");
    if (entry->request.persistent()) {
      capi::free_persistent(request);
    } else {  // a nonblocking request that was completed by a test but not yet freed cannot be here
      capi::complete_nonblocking(request, MPI_STATUS_IGNORE);
    }
  });
}

// Like CC_Test, but a completed request stays as it is (not freed, not made inactive).
int CC_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (flag == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  capi::LibraryRequest* entry = capi::find_request(request);
  if (entry == nullptr) {
    engine().poll();
    return MPI_Request_get_status(request, flag, status);
  }
  return capi::guarded(entry->request.comm(), [&] {
    *flag = entry->request.ready() ? 1 : 0;  // an inactive persistent request is ready
    if (*flag) capi::set_empty_status(status);
  });
}

// MPI 4.1 section 6.12 makes cancelling a collective's request erroneous: MPI_ERR_REQUEST, as Open
// MPI's own nonblocking collectives answer.
int CC_Cancel(MPI_Request* request) {
  if (request == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return MPI_Cancel(request);
  return capi::guarded(entry->request.comm(),
                       [] { throw Error(Errc::request, "a request of a neighborhood collective cannot be cancelled"); });
}

}  // extern "C"
