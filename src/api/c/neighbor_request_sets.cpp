// SPDX-License-Identifier: BSD-3-Clause
// C API: CC_Waitany, CC_Testany, CC_Waitsome, CC_Testsome: completing some of an array of the
// library's requests and ordinary MPI requests mixed, each index returned once, in any order.
//
// One pass (complete_some) advances the engine, completes the library's requests whose operations
// have finished, and lets MPI complete the plain ones (MPI_Testany or MPI_Testsome over them). The
// waiting forms repeat passes; they block in the engine only where the array holds no active plain
// request, since blocking there on the library's requests alone could wait for ever for a message
// that a plain request's completion, which the caller is waiting to see, lets another process send.
#include <span>
#include <vector>

#include "cartcoll/neighbor.h"
#include "errors.hpp"
#include "request_completion.hpp"

using namespace cartcoll;

namespace {

// What passes over one array completed; its buffers are reused from pass to pass.
struct Completions {
  std::vector<int> indices;         // in completion order
  std::vector<MPI_Status> statuses;  // statuses[k] is that of indices[k]
  bool failed = false;               // some request completed with an error (in its status)
  bool library_active = false;       // an active library request is in the array
  bool plain_active = false;         // an active plain request is in the array
  std::vector<int> plain;            // scratch: the positions of the plain requests
  std::vector<MPI_Request> subset;   // scratch: those requests, for MPI
  std::vector<int> subset_indices;
  std::vector<MPI_Status> subset_statuses;

  void clear() {
    indices.clear();
    statuses.clear();
    plain.clear();
    failed = library_active = plain_active = false;
  }
  void add(int index, const MPI_Status& status) {
    indices.push_back(index);
    statuses.push_back(status);
    failed = failed || status.MPI_ERROR != MPI_SUCCESS;
  }
  bool any_active() const { return library_active || plain_active; }
};

void complete_library(std::span<MPI_Request> requests, bool just_one, Completions& done) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    capi::LibraryRequest* entry = capi::find_request(requests[i]);
    if (entry == nullptr) {
      done.plain.push_back(static_cast<int>(i));
      continue;
    }
    if (!entry->request.active()) continue;
    done.library_active = true;
    if (!entry->request.ready()) continue;
    MPI_Status status;
    capi::set_empty_status(&status);
    status.MPI_ERROR = capi::finish_library(*entry, &requests[i], &status);
    done.add(static_cast<int>(i), status);
    if (just_one) return;
  }
}

// MPI_Testany or MPI_Testsome over the plain requests; their handles go back into the array.
void complete_plain(std::span<MPI_Request> requests, bool just_one, Completions& done) {
  if (done.plain.empty()) return;
  done.subset.clear();
  for (int i : done.plain) done.subset.push_back(requests[static_cast<std::size_t>(i)]);
  const int n = static_cast<int>(done.subset.size());
  done.subset_indices.resize(done.subset.size());
  done.subset_statuses.resize(done.subset.size());
  int outcount = 0, code = MPI_SUCCESS;
  if (just_one) {
    int flag = 0;
    code = MPI_Testany(n, done.subset.data(), done.subset_indices.data(), &flag, done.subset_statuses.data());
    outcount = !flag ? 0 : done.subset_indices[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
    if (outcount == 1) done.subset_statuses[0].MPI_ERROR = code;
  } else {
    code = MPI_Testsome(n, done.subset.data(), &outcount, done.subset_indices.data(), done.subset_statuses.data());
    if (code == MPI_SUCCESS)
      for (int k = 0; k < outcount; ++k) done.subset_statuses[static_cast<std::size_t>(k)].MPI_ERROR = MPI_SUCCESS;
  }
  for (std::size_t k = 0; k < done.plain.size(); ++k) requests[static_cast<std::size_t>(done.plain[k])] = done.subset[k];
  done.plain_active = outcount != MPI_UNDEFINED;
  for (int k = 0; k < outcount && outcount != MPI_UNDEFINED; ++k)
    done.add(done.plain[static_cast<std::size_t>(done.subset_indices[static_cast<std::size_t>(k)])],
             done.subset_statuses[static_cast<std::size_t>(k)]);
}

// One pass without blocking; with `just_one`, at most one request is completed.
void complete_some(std::span<MPI_Request> requests, bool just_one, Completions& done) {
  done.clear();
  capi::engine().poll();
  complete_library(requests, just_one, done);
  if (just_one && !done.indices.empty()) return;
  complete_plain(requests, just_one, done);
}

// Between passes of a waiting form: block in the engine where that cannot hide a plain completion.
void between_passes(const Completions& done) {
  if (!done.plain_active) capi::engine().block_once();
}

void copy_status(const MPI_Status& from, MPI_Status* to) {
  if (to != MPI_STATUS_IGNORE) *to = from;
}

// Testany's and Waitany's answer after a pass; false where nothing completed and something is active.
bool answer_any(const Completions& done, int* index, MPI_Status* status, int& code) {
  if (!done.indices.empty()) {
    *index = done.indices.front();
    copy_status(done.statuses.front(), status);
    code = done.statuses.front().MPI_ERROR;
    return true;
  }
  *index = MPI_UNDEFINED;
  if (done.any_active()) return false;
  capi::set_empty_status(status);  // nothing active: MPI's empty status
  return true;
}

// Testsome's and Waitsome's answer after a pass; false where nothing completed and something is active.
bool answer_some(const Completions& done, int* outcount, int indices[], MPI_Status statuses[], int& code) {
  if (done.indices.empty() && done.any_active()) {
    *outcount = 0;
    return false;
  }
  *outcount = done.indices.empty() ? MPI_UNDEFINED : static_cast<int>(done.indices.size());
  for (std::size_t k = 0; k < done.indices.size(); ++k) {
    indices[k] = done.indices[k];
    copy_status(done.statuses[k], capi::status_at(statuses, static_cast<int>(k)));
  }
  code = done.failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
  return true;
}

}  // namespace

extern "C" {

int CC_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (capi::bad_array(count, requests) || index == nullptr || flag == nullptr)
    return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (capi::any_stale_request(std::span(requests, static_cast<std::size_t>(count)))) return capi::stale_handle();
  Completions done;
  complete_some(std::span(requests, static_cast<std::size_t>(count)), true, done);
  int code = MPI_SUCCESS;
  *flag = answer_any(done, index, status, code) ? 1 : 0;
  return code;
}

int CC_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (capi::bad_array(count, requests) || index == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (capi::any_stale_request(std::span(requests, static_cast<std::size_t>(count)))) return capi::stale_handle();
  Completions done;
  int code = MPI_SUCCESS;
  for (;;) {
    complete_some(std::span(requests, static_cast<std::size_t>(count)), true, done);
    if (answer_any(done, index, status, code)) return code;
    between_passes(done);
  }
}

int CC_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (capi::bad_array(incount, requests) || outcount == nullptr || (incount > 0 && indices == nullptr))
    return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (capi::any_stale_request(std::span(requests, static_cast<std::size_t>(incount)))) return capi::stale_handle();
  Completions done;
  complete_some(std::span(requests, static_cast<std::size_t>(incount)), false, done);
  int code = MPI_SUCCESS;
  answer_some(done, outcount, indices, statuses, code);
  return code;
}

int CC_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (capi::bad_array(incount, requests) || outcount == nullptr || (incount > 0 && indices == nullptr))
    return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (capi::any_stale_request(std::span(requests, static_cast<std::size_t>(incount)))) return capi::stale_handle();
  Completions done;
  int code = MPI_SUCCESS;
  for (;;) {
    complete_some(std::span(requests, static_cast<std::size_t>(incount)), false, done);
    if (answer_some(done, outcount, indices, statuses, code)) return code;
    between_passes(done);
  }
}

}  // extern "C"
