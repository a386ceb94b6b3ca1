#pragma once
// What the C request handles of the Cartesian faces point to (Cart_request, Iso_request), and the
// steps those faces share: making a persistent request, reaching a handle's request, freeing it.
#include <memory>
#include <optional>

#include "cartcoll/cartcoll.h"
#include "cartcoll/cartcoll.hpp"
#include "errors.hpp"

struct Cart_request_s {
  cartcoll::Request request;
};

struct Iso_request_s {
  cartcoll::Request request;
};

namespace cartcoll::capi {

// A *_init call on a communicator with a Cartesian neighborhood: collective (a bad argument on any
// process fails every process); *request is the null handle unless the call succeeds.
template <typename Handle, typename MakeLayout>
int persistent(MPI_Comm cartcomm, MPI_Info info, Handle** request, MakeLayout&& make_layout) {
  return guarded(cartcomm, [&] {
    if (request != nullptr) *request = nullptr;
    CartComm cart(cartcomm);
    Request made = cart.exchange_init(
        [&] {
          if (request == nullptr) throw Error(Errc::request, "request is NULL");
          return make_layout(cart.degrees());
        },
        RequestOptions{std::nullopt, info});
    *request = std::make_unique<Handle>(Handle{std::move(made)}).release();
  });
}

// Errors on a request go to its communicator's handler; a null request has none (MPI_COMM_SELF).
template <typename Handle, typename Body>
int with_request(Handle** request, Body&& body) {
  if (request == nullptr || *request == nullptr) return raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  return guarded((*request)->request.comm(), [&] { body((*request)->request); });
}

// Frees an inactive request and sets the handle to the null handle; an active one is MPI_ERR_REQUEST.
template <typename Handle>
int free_request(Handle** request) {
  const int code = with_request(request, [](Request& handle) {
    if (handle.active()) throw Error(Errc::request, "freeing an active request");
  });
  if (code == MPI_SUCCESS) {
    std::unique_ptr<Handle> freed(*request);
    *request = nullptr;
  }
  return code;
}

}  // namespace cartcoll::capi
