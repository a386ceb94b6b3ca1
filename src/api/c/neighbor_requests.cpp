// SPDX-License-Identifier: BSD-3-Clause
// C API: CC_Start, CC_Startall, CC_Wait, CC_Waitall, CC_Test, CC_Testall, CC_Request_free,
// CC_Request_get_status and CC_Cancel over the library's requests and ordinary MPI requests mixed. A
// plain request is waited for through the progress engine (borrowed into its pool), so that waiting
// for it advances the library's operations too, as MPI's progress rule requires.
#include <memory>
#include <span>
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
      if (!persistent && !entry.request.active()) retire(entry, handle);  // completed in error
      throw;
    }
    set_empty_status(status);
    if (!persistent) retire(entry, handle);
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

// MPI sets a status's MPI_ERROR only where a call returns MPI_ERR_IN_STATUS; the code a single
// completion returns is kept in a status of our own, so that MPI_STATUS_IGNORE loses no error.
int wait_plain(MPI_Request* request, MPI_Status* status) {
  if (plain_done(*request)) return MPI_Wait(request, status);
  MPI_Status mine;
  mine.MPI_ERROR = MPI_SUCCESS;
  detail::Borrowed borrowed(request, &mine);
  engine().start(borrowed);
  engine().wait(borrowed);
  const int code = mine.MPI_ERROR;
  if (status != MPI_STATUS_IGNORE) {
    mine.MPI_ERROR = status->MPI_ERROR;
    *status = mine;
  }
  return code;
}

std::span<const MPI_Request> array(int count, const MPI_Request requests[]) {
  return {requests, static_cast<std::size_t>(count)};
}

}  // namespace

extern "C" {

int CC_Start(MPI_Request* request) {
  if (request == nullptr || *request == MPI_REQUEST_NULL) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return MPI_Start(request);
  if (entry->retired) return capi::stale_handle();
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
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return wait_plain(request, status);
  if (entry->retired) return capi::stale_handle();
  return capi::finish_library(*entry, request, status);
}

// Every request is waited for in array order; waiting for one advances all of the library's, and the
// plain ones wait in the engine's pool meanwhile. Each request's code is kept, so that a failure is
// MPI_ERR_IN_STATUS whether or not statuses are given, with every status's MPI_ERROR set where they are.
int CC_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (capi::bad_array(count, requests)) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  // One request of the library (PETSc waits so for each scatter): completed as below, without the
  // arrays the general case needs.
  if (count == 1 && requests[0] != MPI_REQUEST_NULL)
    if (capi::LibraryRequest* entry = capi::find_request(requests[0])) {
      if (entry->retired) return capi::stale_handle();
      const int code = capi::finish_library(*entry, &requests[0], capi::status_at(statuses, 0));
      if (code == MPI_SUCCESS) return MPI_SUCCESS;
      if (statuses != MPI_STATUSES_IGNORE) statuses[0].MPI_ERROR = code;
      return MPI_ERR_IN_STATUS;
    }
  if (capi::any_stale_request(array(count, requests))) return capi::stale_handle();
  const auto n = static_cast<std::size_t>(count);
  std::vector<MPI_Status> borrowed_statuses(n);
  std::vector<std::unique_ptr<detail::Borrowed>> borrowed(n);
  for (std::size_t i = 0; i < n; ++i) {
    MPI_Request& request = requests[i];
    if (request == MPI_REQUEST_NULL || capi::find_request(request) != nullptr || plain_done(request)) continue;
    borrowed_statuses[i].MPI_ERROR = MPI_SUCCESS;
    borrowed[i] = std::make_unique<detail::Borrowed>(&request, &borrowed_statuses[i]);
    engine().start(*borrowed[i]);
  }
  std::vector<int> codes(n, MPI_SUCCESS);
  bool failed = false;
  for (std::size_t i = 0; i < n; ++i) {
    MPI_Status* status = capi::status_at(statuses, static_cast<int>(i));
    if (auto& mine = borrowed[i]) {
      engine().wait(*mine);
      codes[i] = borrowed_statuses[i].MPI_ERROR;
      if (status != MPI_STATUS_IGNORE) *status = borrowed_statuses[i];
    } else {
      codes[i] = CC_Wait(&requests[i], status);
    }
    failed = failed || codes[i] != MPI_SUCCESS;
  }
  if (!failed) return MPI_SUCCESS;
  if (statuses != MPI_STATUSES_IGNORE)
    for (std::size_t i = 0; i < n; ++i) statuses[i].MPI_ERROR = codes[i];
  return MPI_ERR_IN_STATUS;
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
    if (entry->retired) return capi::stale_handle();
    if (!entry->request.ready()) return MPI_SUCCESS;
    *flag = 1;
    return capi::finish_library(*entry, request, status);
  }
  engine().poll();
  return MPI_Test(request, flag, status);
}

int CC_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (capi::bad_array(count, requests) || flag == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (capi::any_stale_request(array(count, requests))) return capi::stale_handle();
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
  if (entry->retired) return capi::stale_handle();
  return capi::guarded(entry->request.comm(), [&] {
    if (entry->request.active()) throw Error(Errc::request, "CC_Request_free of an active request of the library");
    capi::retire(*entry, request);
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
  if (entry->retired) return capi::stale_handle();
  return capi::guarded(entry->request.comm(), [&] {
    *flag = entry->request.ready() ? 1 : 0;  // an inactive persistent request is ready
    if (*flag) capi::set_empty_status(status);
  });
}

// MPI 4.1 section 6.12 makes cancelling a collective's request erroneous: MPI_ERR_REQUEST, as Open
// MPI's own nonblocking collectives answer.
int CC_Cancel(MPI_Request* request) {
  if (request == nullptr || *request == MPI_REQUEST_NULL) return capi::raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  capi::LibraryRequest* entry = capi::find_request(*request);
  if (entry == nullptr) return MPI_Cancel(request);
  if (entry->retired) return capi::stale_handle();
  return capi::guarded(entry->request.comm(),
                       [] { throw Error(Errc::request, "a request of a neighborhood collective cannot be cancelled"); });
}

}  // extern "C"
