// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The C request handles of the Cartesian faces (Cart_request, Iso_request) and the steps those faces
// share: making a persistent request, reaching a handle's request, freeing it.
//
// A handle is never a pointer: it names a slot of a table and the slot's generation (the number of
// times the slot was freed), so that a stale copy of a freed handle, a handle of the other face or any
// other value is MPI_ERR_REQUEST on MPI_COMM_SELF's handler, never memory the library freed. The
// tables are an attribute of MPI_COMM_SELF, freed at MPI_Finalize.
#include <cstdint>
#include <optional>

#include "cartcoll/cartcoll.h"
#include "cartcoll/cartcoll.hpp"
#include "cartcoll/iso.h"
#include "errors.hpp"
#include "request_table.hpp"

namespace cartcoll::capi {

enum class HandleFamily { cart, iso };

// A new slot holding `request`; its handle value (never 0).
std::uintptr_t insert_handle(HandleFamily family, Request request);
// The request behind a handle value, or nullptr where the value names no live slot of `family`.
Request* find_handle(HandleFamily family, std::uintptr_t handle);
// Frees the slot (its generation moves on, so copies of the handle become stale).
void erase_handle(HandleFamily family, std::uintptr_t handle);

template <typename Handle>
constexpr HandleFamily family_of();
template <>
constexpr HandleFamily family_of<Cart_request>() { return HandleFamily::cart; }
template <>
constexpr HandleFamily family_of<Iso_request>() { return HandleFamily::iso; }

template <typename Handle>
Handle make_handle(Request request) {
  return reinterpret_cast<Handle>(insert_handle(family_of<Handle>(), std::move(request)));
}

template <typename Handle>
Request* request_of(Handle handle) {
  return find_handle(family_of<Handle>(), reinterpret_cast<std::uintptr_t>(handle));
}

// Frees the handle's slot and sets it to the null handle.
template <typename Handle>
void release_handle(Handle* handle) {
  erase_handle(family_of<Handle>(), reinterpret_cast<std::uintptr_t>(*handle));
  *handle = nullptr;
}

// A *_init call on a communicator with a Cartesian neighborhood: collective (a bad argument on any
// process fails every process); *request is the null handle unless the call succeeds.
template <typename Handle, typename MakeLayout>
int persistent(MPI_Comm cartcomm, MPI_Info info, Handle* request, MakeLayout&& make_layout) {
  return guarded(cartcomm, [&] {
    if (request != nullptr) *request = nullptr;
    CartComm cart(cartcomm);
    Request made = cart.exchange_init(
        [&] {
          if (request == nullptr) throw Error(Errc::request, "request is NULL");
          return make_layout(cart.degrees());
        },
        RequestOptions{std::nullopt, info});
    *request = make_handle<Handle>(std::move(made));
  });
}

// Errors on a request go to its communicator's handler; a null request has none (MPI_COMM_SELF), nor
// has a stale or foreign one.
template <typename Handle, typename Body>
int with_request(Handle* request, Body&& body) {
  if (request == nullptr || *request == nullptr) return raise(MPI_COMM_SELF, MPI_ERR_REQUEST);
  Request* found = request_of(*request);
  if (found == nullptr) return stale_handle();
  return guarded(found->comm(), [&] { body(*found); });
}

// Frees an inactive request and sets the handle to the null handle; an active one is MPI_ERR_REQUEST.
template <typename Handle>
int free_request(Handle* request) {
  const int code = with_request(request, [](Request& handle) {
    if (handle.active()) throw Error(Errc::request, "freeing an active request");
  });
  if (code == MPI_SUCCESS) release_handle(request);
  return code;
}

}  // namespace cartcoll::capi
