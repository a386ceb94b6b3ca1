// SPDX-License-Identifier: BSD-3-Clause
// C API: Cart_start, Cart_wait, Cart_test, Cart_waitall, Cart_request_free.
#include "errors.hpp"
#include "request_handle.hpp"

using namespace cartcoll;

namespace {

// A completed nonblocking request is freed and the handle set to CART_REQUEST_NULL, as MPI does.
void release_if_done(Cart_request* request) {
  if (*request == CART_REQUEST_NULL) return;
  const Request* found = capi::request_of(*request);
  if (found != nullptr && !*found) capi::release_handle(request);
}

}  // namespace

extern "C" {

int Cart_start(Cart_request* request) {
  return capi::with_request(request, [](Request& handle) { handle.start(); });
}

int Cart_wait(Cart_request* request) {
  if (request != nullptr && *request == CART_REQUEST_NULL) return MPI_SUCCESS;  // as MPI_Wait on MPI_REQUEST_NULL
  const int code = capi::with_request(request, [](Request& handle) { handle.wait(); });
  if (request != nullptr) release_if_done(request);  // also after an error: the operation completed
  return code;
}

int Cart_test(Cart_request* request, int* flag) {
  if (flag == nullptr) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  if (request != nullptr && *request == CART_REQUEST_NULL) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  const int code = capi::with_request(request, [&](Request& handle) { *flag = handle.test() ? 1 : 0; });
  if (request != nullptr && (code != MPI_SUCCESS || *flag)) release_if_done(request);
  return code;
}

// Waiting for one advances all (the progress engine), so waiting in array order completes all of
// them whatever order the other processes complete theirs in.
int Cart_waitall(int count, Cart_request requests[]) {
  if (count < 0 || (count > 0 && requests == nullptr)) return capi::raise(MPI_COMM_SELF, MPI_ERR_ARG);
  int first_error = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    const int code = Cart_wait(&requests[i]);
    if (first_error == MPI_SUCCESS) first_error = code;
  }
  return first_error;
}

int Cart_request_free(Cart_request* request) { return capi::free_request(request); }

}  // extern "C"
